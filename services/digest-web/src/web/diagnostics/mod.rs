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
use strum::{EnumIter, EnumString, IntoEnumIterator, IntoStaticStr};

use crate::job::checks;
use crate::store::{self, digest_file, queries, test_runs};
use crate::web::configuration::Settings;
use crate::web::refresh;

pub mod handlers;

/// A test suite.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Serialize,
    EnumString,
    IntoStaticStr,
    EnumIter,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Suite {
    /// Core functionality (about 10 s).
    Basic,
    /// Edge cases (about 30 s).
    Extended,
    /// The full suite (about 60 s).
    Comprehensive,
}

impl Suite {
    /// The allowed values, for error messages.
    pub const ALLOWED: &'static str = "basic, extended, comprehensive";

    /// Parses `basic`, `extended` or `comprehensive`.
    pub fn parse(value: &str) -> Option<Self> {
        value.parse().ok()
    }

    /// The API spelling.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Every suite, in order.
    pub fn all() -> impl Iterator<Item = Suite> {
        Self::iter()
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

    /// What the suite checks (group names), for the /tests page.
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
    pub name: String,
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

/// One entry of a suite: a named group of checks (most groups are one check; the parser's
/// edge cases give one result per built-in message).
struct Check {
    name: &'static str,
    suite: Suite,
    run: fn(&Settings) -> Vec<(String, Verdict)>,
}

macro_rules! single {
    ($name:literal, $suite:expr, $f:path) => {
        Check {
            name: $name,
            suite: $suite,
            run: |settings| vec![($name.to_owned(), $f(settings))],
        }
    };
}

fn registry() -> Vec<Check> {
    vec![
        single!("configuration_valid", Suite::Basic, configuration_valid),
        single!("data_dir_writable", Suite::Basic, data_dir_writable),
        single!("digest_readable_and_valid", Suite::Basic, digest_readable),
        single!("run_store_readable", Suite::Basic, run_store_readable),
        single!("mail_source_reachable", Suite::Basic, mail_source_reachable),
        single!(
            "categoriser_golden_messages",
            Suite::Basic,
            categoriser_golden
        ),
        single!("run_store_integrity", Suite::Extended, run_store_integrity),
        single!("no_run_stuck_in_running", Suite::Extended, no_stuck_runs),
        Check {
            name: "parser_edge_cases",
            suite: Suite::Extended,
            run: parser_edge_cases,
        },
        single!(
            "empty_mailbox_refresh",
            Suite::Extended,
            empty_mailbox_refresh
        ),
        single!(
            "full_refresh_from_fixture_mailbox",
            Suite::Comprehensive,
            full_refresh_from_fixture
        ),
        single!(
            "llm_endpoint_reachable",
            Suite::Comprehensive,
            llm_reachable
        ),
    ]
}

/// Runs `suite` against this deployment (blocking: call it off the async workers).
pub fn run(suite: Suite, settings: &Settings) -> Report {
    let started_at = queries::format_time(queries::now());
    let start = Instant::now();
    let mut checks = Vec::new();
    for check in registry().into_iter().filter(|c| c.suite <= suite) {
        let began = Instant::now();
        let results = (check.run)(settings);
        tracing::info!(
            check = check.name,
            ms = began.elapsed().as_millis() as u64,
            "diagnostic ran"
        );
        for (name, verdict) in results {
            if let Verdict::Fail(message) = &verdict {
                tracing::warn!(check = %name, %message, "diagnostic failed");
            }
            checks.push(CheckResult { name, verdict });
        }
    }
    let mut counts = test_runs::Counts::default();
    let mut failures = Vec::new();
    for check in &checks {
        match &check.verdict {
            Verdict::Pass => counts.passed += 1,
            Verdict::Skip(_) => counts.skipped += 1,
            Verdict::Fail(message) => {
                counts.failed += 1;
                failures.push(test_runs::Failure {
                    test: check.name.clone(),
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
    if let Some(problem) = refresh::command_problem(settings) {
        problems.push(problem);
    }
    if let Some(problem) = checks::source_problem(settings.source.as_deref()) {
        problems.push(problem);
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
            "category_cache",
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

fn mail_source_reachable(settings: &Settings) -> Verdict {
    verdict(checks::mail_source_reachable(
        settings.source.as_deref(),
        settings.imap_auth.as_ref(),
    ))
}

/// A job self-check's outcome as a verdict.
fn verdict(outcome: Result<(), String>) -> Verdict {
    match outcome {
        Ok(()) => Verdict::Pass,
        Err(why) => Verdict::Fail(why),
    }
}

fn categoriser_golden(_: &Settings) -> Verdict {
    verdict(checks::categoriser_golden())
}

fn parser_edge_cases(_: &Settings) -> Vec<(String, Verdict)> {
    checks::parser_edge_cases()
        .into_iter()
        .map(|(name, outcome)| (name, verdict(outcome)))
        .collect()
}

fn empty_mailbox_refresh(_: &Settings) -> Verdict {
    verdict(checks::empty_mailbox_refresh())
}

fn full_refresh_from_fixture(_: &Settings) -> Verdict {
    verdict(checks::full_refresh_from_fixture())
}

fn llm_reachable(settings: &Settings) -> Verdict {
    let Some(config) = &settings.llm else {
        return Verdict::Skip("no LLM is configured (LLM_BASE_URL / LLM_API_KEY unset)".into());
    };
    let mut config = config.clone();
    // One quick question, no retries: this checks the endpoint, not its patience.
    config.max_retries = 0;
    config.timeout = config.timeout.min(std::time::Duration::from_secs(15));
    let client = match llm_client::LlmClient::new(config) {
        Ok(client) => client,
        Err(e) => return Verdict::Fail(format!("cannot build the LLM client: {e}")),
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => return Verdict::Fail(format!("cannot start a runtime: {e}")),
    };
    let request = llm_client::ChatRequest {
        messages: vec![llm_client::Message::user("Reply with the single word OK.")],
        max_tokens: Some(5),
        ..Default::default()
    };
    match runtime.block_on(client.chat(&request)) {
        Ok(_) => Verdict::Pass,
        Err(e) => Verdict::Fail(format!(
            "the LLM endpoint {} did not answer: {e}",
            client.config().completions_url()
        )),
    }
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
        assert_eq!(report.counts.passed, 5);

        std::fs::write(digest_file::path(dir.path()), "[]").unwrap();
        let report = run(Suite::Basic, &settings(dir.path()));
        assert_eq!(report.counts.failed, 1);
        assert_eq!(report.failures[0].test, "digest_readable_and_valid");
        assert_eq!(report.counts.total, report.checks.len() as i64);
    }
}

#[cfg(test)]
mod suite_tests {
    use super::*;
    use service_kit::config::EnvSource;

    #[test]
    fn the_comprehensive_suite_passes_on_a_healthy_deployment() {
        let dir = tempfile::tempdir().unwrap();
        let settings = Settings::from_env(&EnvSource::from_pairs([
            ("DIGEST_DATA_DIR", dir.path().display().to_string()),
            ("DIGEST_REFRESH_COMMAND", "true".to_owned()),
        ]))
        .unwrap();
        let report = run(Suite::Comprehensive, &settings);
        assert_eq!(report.failures, vec![], "{:?}", report.checks);
        assert!(
            report
                .checks
                .iter()
                .any(|c| c.name == "parser_edge_case:koi8-r")
        );
        let skipped: Vec<_> = report
            .checks
            .iter()
            .filter(|c| matches!(c.verdict, Verdict::Skip(_)))
            .map(|c| c.name.as_str())
            .collect();
        assert_eq!(
            skipped,
            ["digest_readable_and_valid", "llm_endpoint_reachable"]
        );
    }

    #[test]
    fn an_unreachable_mailbox_and_llm_fail() {
        let dir = tempfile::tempdir().unwrap();
        let settings = Settings::from_env(&EnvSource::from_pairs([
            ("DIGEST_DATA_DIR", dir.path().display().to_string()),
            ("DIGEST_REFRESH_COMMAND", "true".to_owned()),
            ("DIGEST_SOURCE", "maildir:/nonexistent/maildir".to_owned()),
            // Port 9 (discard) is closed on loopback.
            ("LLM_BASE_URL", "http://127.0.0.1:9/v1".to_owned()),
            ("LLM_MODEL", "m".to_owned()),
        ]))
        .unwrap();
        assert!(matches!(mail_source_reachable(&settings), Verdict::Fail(_)));
        assert!(matches!(llm_reachable(&settings), Verdict::Fail(_)));
    }
}

#[cfg(test)]
mod llm_tests {
    use std::io::{BufRead, BufReader, Read, Write};

    use super::*;
    use service_kit::config::EnvSource;

    /// A one-shot Chat Completions endpoint on loopback answering `OK`.
    fn fake_llm() -> (String, std::thread::JoinHandle<String>) {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/v1", listener.local_addr().unwrap());
        let handle = std::thread::spawn(move || {
            let (stream, _) = listener.accept().unwrap();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request_line = String::new();
            reader.read_line(&mut request_line).unwrap();
            let mut length = 0;
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                if line == "\r\n" {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap();
                }
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            let answer = r#"{"choices":[{"message":{"role":"assistant","content":"OK"}}],"usage":{"prompt_tokens":5,"completion_tokens":1}}"#;
            write!(
                &stream,
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{answer}",
                answer.len()
            )
            .unwrap();
            request_line
        });
        (url, handle)
    }

    #[test]
    fn the_llm_check_asks_the_configured_endpoint() {
        let (url, server) = fake_llm();
        let settings = Settings::from_env(&EnvSource::from_pairs([
            ("LLM_BASE_URL", url.as_str()),
            ("LLM_MODEL", "tiny"),
        ]))
        .unwrap();
        assert_eq!(llm_reachable(&settings), Verdict::Pass);
        assert!(
            server
                .join()
                .unwrap()
                .starts_with("POST /v1/chat/completions")
        );
    }
}
