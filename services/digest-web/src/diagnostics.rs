//! The deployment diagnostics behind `POST /api/tests/run`: real checks of this server's
//! configuration, data dir, digest, run store, mail source and categoriser, not the
//! developers' cargo tests.
//!
//! Suites are cumulative: `extended` runs `basic` plus the edge cases, `comprehensive` runs
//! everything. A check passes, fails with a message, or is skipped when it cannot apply here
//! (no digest yet, no LLM configured).

use std::path::Path;
use std::time::Instant;

use serde::Serialize;

use crate::configuration::Settings;
use crate::control;
use crate::digest_file;
use crate::store::{self, queries, test_runs};

/// A test suite.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Suite {
    /// Core functionality (about 10 s).
    Basic,
    /// Edge cases (about 30 s).
    Extended,
    /// The full suite (about 60 s).
    Comprehensive,
}

impl Suite {
    /// Every suite, in order.
    pub const ALL: [Suite; 3] = [Suite::Basic, Suite::Extended, Suite::Comprehensive];
    /// The allowed values, for error messages.
    pub const ALLOWED: &'static str = "basic, extended, comprehensive";

    /// Parses `basic`, `extended` or `comprehensive`.
    pub fn parse(value: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == value)
    }

    /// The API spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Suite::Basic => "basic",
            Suite::Extended => "extended",
            Suite::Comprehensive => "comprehensive",
        }
    }

    /// What it is for (the spec's table).
    pub fn purpose(self) -> &'static str {
        match self {
            Suite::Basic => "core functionality",
            Suite::Extended => "edge cases",
            Suite::Comprehensive => "the full suite",
        }
    }

    /// The spec's approximate duration, in seconds.
    pub fn approx_secs(self) -> u32 {
        match self {
            Suite::Basic => 10,
            Suite::Extended => 30,
            Suite::Comprehensive => 60,
        }
    }

    /// What the suite checks, for the /tests page.
    pub fn checks(self) -> Vec<&'static str> {
        registry()
            .into_iter()
            .filter(|c| c.suite <= self)
            .map(|c| c.name)
            .collect()
    }
}

/// What one check found.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// It holds.
    Pass,
    /// It does not; why.
    Fail(String),
    /// It cannot apply here; why.
    Skip(String),
}

/// One check's name and verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckResult {
    /// The check's name.
    pub name: &'static str,
    /// Its verdict.
    pub verdict: Verdict,
}

/// A finished suite run.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The suite.
    pub suite: Suite,
    /// When it started (ISO 8601 UTC, no zone).
    pub started_at: String,
    /// The figures.
    pub counts: test_runs::Counts,
    /// The failed checks.
    pub failures: Vec<test_runs::Failure>,
    /// Every check in order.
    pub checks: Vec<CheckResult>,
}

struct Check {
    name: &'static str,
    suite: Suite,
    run: fn(&Settings) -> Verdict,
}

fn registry() -> Vec<Check> {
    vec![
        Check {
            name: "configuration_valid",
            suite: Suite::Basic,
            run: configuration_valid,
        },
        Check {
            name: "data_dir_writable",
            suite: Suite::Basic,
            run: data_dir_writable,
        },
        Check {
            name: "digest_readable_and_valid",
            suite: Suite::Basic,
            run: digest_readable,
        },
        Check {
            name: "run_store_readable",
            suite: Suite::Basic,
            run: run_store_readable,
        },
        Check {
            name: "run_store_integrity",
            suite: Suite::Extended,
            run: run_store_integrity,
        },
        Check {
            name: "no_run_stuck_in_running",
            suite: Suite::Extended,
            run: no_stuck_runs,
        },
    ]
}

/// Runs `suite` against this deployment (blocking: call it off the async workers).
pub fn run(suite: Suite, settings: &Settings) -> Report {
    let started_at = queries::format_time(queries::now());
    let start = Instant::now();
    let checks: Vec<CheckResult> = registry()
        .into_iter()
        .filter(|c| c.suite <= suite)
        .map(|c| {
            let verdict = (c.run)(settings);
            tracing::info!(check = c.name, ?verdict, "diagnostic");
            CheckResult {
                name: c.name,
                verdict,
            }
        })
        .collect();
    let mut counts = test_runs::Counts::default();
    let mut failures = Vec::new();
    for check in &checks {
        match &check.verdict {
            Verdict::Pass => counts.passed += 1,
            Verdict::Skip(_) => counts.skipped += 1,
            Verdict::Fail(message) => {
                counts.failed += 1;
                failures.push(test_runs::Failure {
                    test: check.name.to_owned(),
                    message: message.clone(),
                });
            }
        }
    }
    counts.total = checks.len() as i64;
    counts.duration = (start.elapsed().as_secs_f64() * 1000.0).round() / 1000.0;
    Report {
        suite,
        started_at,
        counts,
        failures,
        checks,
    }
}

fn configuration_valid(settings: &Settings) -> Verdict {
    let mut problems = Vec::new();
    if let Some(problem) = control::command_problem(settings) {
        problems.push(problem);
    }
    if settings.refresh_command.is_none() && settings.source.is_none() {
        problems.push("DIGEST_SOURCE is not set: the refresh job has no mailbox to read".into());
    }
    if settings.data_dir.as_os_str().is_empty() {
        problems.push("DIGEST_DATA_DIR is empty".into());
    }
    if problems.is_empty() {
        Verdict::Pass
    } else {
        Verdict::Fail(problems.join("; "))
    }
}

fn data_dir_writable(settings: &Settings) -> Verdict {
    let dir = &settings.data_dir;
    if let Err(e) = std::fs::create_dir_all(dir) {
        return Verdict::Fail(format!("cannot create {}: {e}", dir.display()));
    }
    let probe = dir.join(format!(".write-test-{}", std::process::id()));
    let result = std::fs::write(&probe, b"probe").and_then(|()| std::fs::read(&probe));
    let _ = std::fs::remove_file(&probe);
    match result {
        Ok(bytes) if bytes == b"probe" => Verdict::Pass,
        Ok(_) => Verdict::Fail(format!(
            "{} reads back other bytes than written",
            dir.display()
        )),
        Err(e) => Verdict::Fail(format!("cannot write in {}: {e}", dir.display())),
    }
}

fn digest_readable(settings: &Settings) -> Verdict {
    match digest_file::load(&settings.data_dir) {
        Ok(Some(_)) => Verdict::Pass,
        Ok(None) => Verdict::Skip("no digest yet: no refresh has run".into()),
        Err(e) => Verdict::Fail(e.to_string()),
    }
}

fn with_store(
    data_dir: &Path,
    f: impl FnOnce(&rusqlite::Connection) -> rusqlite::Result<Verdict>,
) -> Verdict {
    match store::open(data_dir) {
        Ok(conn) => {
            f(&conn).unwrap_or_else(|e| Verdict::Fail(format!("run store query failed: {e}")))
        }
        Err(e) => Verdict::Fail(e.to_string()),
    }
}

fn run_store_readable(settings: &Settings) -> Verdict {
    with_store(&settings.data_dir, |conn| {
        for table in [
            "runs",
            "errors",
            "test_runs",
            "message_cache",
            "summary_cache",
        ] {
            conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| {
                r.get::<_, i64>(0)
            })?;
        }
        Ok(Verdict::Pass)
    })
}

fn run_store_integrity(settings: &Settings) -> Verdict {
    with_store(&settings.data_dir, |conn| {
        let result: String = conn.query_row("PRAGMA quick_check", [], |r| r.get(0))?;
        Ok(if result == "ok" {
            Verdict::Pass
        } else {
            Verdict::Fail(format!("SQLite quick_check: {result}"))
        })
    })
}

fn no_stuck_runs(settings: &Settings) -> Verdict {
    with_store(&settings.data_dir, |conn| {
        // A run still `running` long after the time-out was abandoned by a crashed job.
        let limit = queries::now()
            - chrono::Duration::seconds(
                i64::try_from(settings.refresh_timeout_secs).unwrap_or(i64::MAX / 2) + 60,
            );
        let stuck: i64 = conn.query_row(
            "SELECT count(*) FROM runs WHERE status = 'running' AND started_at < ?1",
            [queries::format_time(limit)],
            |r| r.get(0),
        )?;
        Ok(if stuck == 0 {
            Verdict::Pass
        } else {
            Verdict::Fail(format!(
                "{stuck} run(s) have been 'running' for longer than the time-out: the job died without recording its end"
            ))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use service_kit::config::EnvSource;

    fn settings(dir: &Path) -> Settings {
        Settings::from_env(&EnvSource::from_pairs([
            ("DIGEST_DATA_DIR", dir.display().to_string()),
            ("DIGEST_REFRESH_COMMAND", "true".to_owned()),
        ]))
        .unwrap()
    }

    #[test]
    fn suites_are_cumulative() {
        assert!(Suite::Basic.checks().len() < Suite::Extended.checks().len());
        assert!(Suite::Extended.checks().len() <= Suite::Comprehensive.checks().len());
        assert_eq!(Suite::parse("extended"), Some(Suite::Extended));
        assert_eq!(Suite::parse("Basic"), None);
    }

    #[test]
    fn a_corrupted_digest_fails_the_basic_suite() {
        let dir = tempfile::tempdir().unwrap();
        let report = run(Suite::Basic, &settings(dir.path()));
        assert_eq!(report.counts.failed, 0, "{:?}", report.failures);
        assert_eq!(report.counts.skipped, 1);

        std::fs::write(digest_file::path(dir.path()), "[]").unwrap();
        let report = run(Suite::Basic, &settings(dir.path()));
        assert_eq!(report.counts.failed, 1);
        assert_eq!(report.failures[0].test, "digest_readable_and_valid");
        assert_eq!(report.counts.total, report.checks.len() as i64);
    }
}
