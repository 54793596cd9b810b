//! What the dashboard reads from the run store (metrics, errors, run history, the last run)
//! and the one thing it writes about runs: a run the job could not record itself (killed on
//! time-out, a replacement command that knows nothing of the store).

use std::collections::BTreeMap;

use domain::email::Category;
use rusqlite::{Connection, params};
use serde::Serialize;

use super::corrections::{self, CorrectionStats};
use super::window::Window;

/// Formats a UTC time the way the store and the API spell it: `2026-11-21T20:30:00`.
pub fn format_time(t: chrono::NaiveDateTime) -> String {
    t.format("%Y-%m-%dT%H:%M:%S").to_string()
}

/// The first instant of `period` as stored text; the empty string, which sorts before every
/// stored time, for `all`.
fn since_text(period: Window, now: chrono::NaiveDateTime) -> String {
    period
        .since(now.and_utc())
        .map(|t| format_time(t.naive_utc()))
        .unwrap_or_default()
}

/// Now, in UTC, without zone.
pub fn now() -> chrono::NaiveDateTime {
    chrono::Utc::now().naive_utc()
}

/// The metrics object of `GET /api/metrics`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Metrics {
    /// Sum of `runs.emails_processed`.
    pub emails_processed: i64,
    /// Sum of `runs.api_calls` (IMAP fetch commands and LLM HTTP requests).
    pub api_calls: i64,
    /// Cache hits per cache lookup, in percent (0–100); 0 when nothing was looked up. The LLM
    /// caches' rate when the period's runs looked any LLM answer up, else the message cache's.
    pub cache_hit_rate: f64,
    /// Mean run time of finished runs, in seconds; 0 when none finished.
    pub avg_execution_time: f64,
    /// Successful runs per finished run, in percent (0–100); 0 when none finished.
    pub success_rate: f64,
    /// Sum of `runs.estimated_cost` (LLM tokens × `LLM_PRICE_*`, prices in US dollars).
    pub estimated_cost: f64,
    /// Runs started in the period (running ones included).
    pub script_run_count: i64,
    /// Rows of `errors` in the period.
    pub error_count: i64,
}

/// The whole `GET /api/metrics` body.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MetricsReport {
    /// The period echoed.
    pub period: &'static str,
    /// The figures.
    pub metrics: Metrics,
    /// Emails per category, summed over the period's runs; all five keys always present.
    pub category_breakdown: BTreeMap<Category, i64>,
    /// Corrections made on the dashboard in the period: per category moved to, and per email
    /// processed (an extra field beside the spec's).
    pub corrections: CorrectionStats,
}

fn round(x: f64, places: i32) -> f64 {
    let f = 10f64.powi(places);
    (x * f).round() / f
}

/// Computes the metrics of `period` ending at `now`.
pub fn metrics(
    conn: &Connection,
    period: Window,
    now: chrono::NaiveDateTime,
) -> rusqlite::Result<MetricsReport> {
    let since = since_text(period, now);
    let (emails, api_calls, hits, lookups, cost, count): (i64, i64, i64, i64, f64, i64) = conn
        .query_row(
            "SELECT coalesce(sum(emails_processed), 0), coalesce(sum(api_calls), 0),
                    coalesce(sum(cache_hits), 0), coalesce(sum(cache_lookups), 0),
                    coalesce(sum(estimated_cost), 0.0), count(*)
             FROM runs WHERE started_at >= ?1",
            [&since],
            |r| r.try_into(),
        )?;
    let (llm_hits, llm_lookups): (i64, i64) = conn.query_row(
        "SELECT coalesce(sum(llm_cache_hits), 0), coalesce(sum(llm_cache_lookups), 0)
         FROM runs WHERE started_at >= ?1",
        [&since],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    // With an LLM in the period, the rate of its caches (what saves calls and money);
    // offline, the rate of the incremental message cache (see docs/decisions.md).
    let (hits, lookups) = if llm_lookups > 0 {
        (llm_hits, llm_lookups)
    } else {
        (hits, lookups)
    };
    let (finished, succeeded, avg_time): (i64, i64, Option<f64>) = conn.query_row(
        "SELECT count(*), coalesce(sum(status = 'success'), 0),
                avg(execution_time)
         FROM runs WHERE started_at >= ?1 AND status != 'running'",
        [&since],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    let error_count: i64 = conn.query_row(
        "SELECT count(*) FROM errors WHERE timestamp >= ?1",
        [&since],
        |r| r.get(0),
    )?;
    let mut breakdown: BTreeMap<Category, i64> =
        Category::ALL.into_iter().map(|c| (c, 0)).collect();
    let mut stmt = conn.prepare("SELECT category_counts FROM runs WHERE started_at >= ?1")?;
    for counts in stmt.query_map([&since], |r| r.get::<_, String>(0))? {
        // A row the job wrote badly must not take the whole dashboard down: it counts as empty.
        let counts: BTreeMap<String, i64> = serde_json::from_str(&counts?).unwrap_or_default();
        for (name, n) in counts {
            if let Some(category) = Category::parse(&name) {
                *breakdown.entry(category).or_default() += n;
            }
        }
    }
    let percent = |num: i64, den: i64| {
        if den > 0 {
            round(num as f64 * 100.0 / den as f64, 1)
        } else {
            0.0
        }
    };
    Ok(MetricsReport {
        period: period.as_str(),
        metrics: Metrics {
            emails_processed: emails,
            api_calls,
            cache_hit_rate: percent(hits, lookups),
            avg_execution_time: round(avg_time.unwrap_or(0.0), 2),
            success_rate: percent(succeeded, finished),
            estimated_cost: round(cost, 4),
            script_run_count: count,
            error_count,
        },
        category_breakdown: breakdown,
        corrections: corrections::stats(conn, &since, emails)?,
    })
}

/// One row of `GET /api/errors`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ErrorRecord {
    /// ISO 8601 UTC without zone.
    pub timestamp: String,
    /// The component that raised it.
    pub module: String,
    /// Its kind.
    pub error_type: String,
    /// The human line.
    pub message: String,
    /// Details, when the component gave any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub traceback: Option<String>,
}

/// The newest `limit` errors, newest first.
pub fn recent_errors(conn: &Connection, limit: u32) -> rusqlite::Result<Vec<ErrorRecord>> {
    let mut stmt = conn.prepare(
        "SELECT timestamp, module, error_type, message, traceback FROM errors
         ORDER BY timestamp DESC, id DESC LIMIT ?1",
    )?;
    stmt.query_map([limit], |r| {
        Ok(ErrorRecord {
            timestamp: r.get(0)?,
            module: r.get(1)?,
            error_type: r.get(2)?,
            message: r.get(3)?,
            traceback: r.get(4)?,
        })
    })?
    .collect()
}

/// One past run, for the run-history chart.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunSummary {
    /// When it started.
    pub started_at: String,
    /// running | success | error | timeout | killed.
    pub status: String,
    /// Seconds, when it finished.
    pub execution_time: Option<f64>,
    /// Emails it processed.
    pub emails_processed: i64,
}

/// The runs of `period`, oldest first, at most `limit` (the newest ones).
pub fn run_history(
    conn: &Connection,
    period: Window,
    now: chrono::NaiveDateTime,
    limit: u32,
) -> rusqlite::Result<Vec<RunSummary>> {
    let mut stmt = conn.prepare(
        "SELECT started_at, status, execution_time, emails_processed FROM runs
         WHERE started_at >= ?1 ORDER BY started_at DESC, id DESC LIMIT ?2",
    )?;
    let mut runs = stmt
        .query_map(params![since_text(period, now), limit], |r| {
            Ok(RunSummary {
                started_at: r.get(0)?,
                status: r.get(1)?,
                execution_time: r.get(2)?,
                emails_processed: r.get(3)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    runs.reverse();
    Ok(runs)
}

/// `started_at` of the newest run, if any.
pub fn last_run(conn: &Connection) -> rusqlite::Result<Option<String>> {
    conn.query_row("SELECT max(started_at) FROM runs", [], |r| r.get(0))
}

/// The highest run id so far (0 when empty): runs above it were started after this call.
pub fn max_run_id(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("SELECT coalesce(max(id), 0) FROM runs", [], |r| r.get(0))
}

/// How a dashboard-started refresh ended, as the dashboard saw it.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// success | error | timeout | killed.
    pub status: &'static str,
    /// When the command was started.
    pub started_at: String,
    /// Seconds it ran.
    pub execution_time: f64,
    /// Its exit code, when it exited.
    pub exit_code: Option<i32>,
    /// The human line (stderr or the time-out text).
    pub message: Option<String>,
    /// `(error_type, message)` to put in `errors` with module `refresh`.
    pub error: Option<(&'static str, String)>,
    /// Emails and per-category counts of the digest it left, for a run the job did not record.
    pub emails: i64,
    /// Category name -> count.
    pub category_counts: BTreeMap<Category, i64>,
}

/// Makes the store tell the truth about a refresh the dashboard ran. The job records its own
/// runs; the dashboard only fills the gaps: a row the job left `running` (it was killed) is
/// closed with the outcome, and when the command wrote no row at all one is added. An error
/// row (module `refresh`) is added for time-outs and for failures the job did not record.
pub fn record_outcome(conn: &Connection, after_id: i64, outcome: &Outcome) -> rusqlite::Result<()> {
    let now = format_time(now());
    let rows: Vec<(i64, String)> = {
        let mut stmt = conn.prepare("SELECT id, status FROM runs WHERE id > ?1 ORDER BY id")?;
        stmt.query_map([after_id], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?
    };
    let run_id = if rows.is_empty() {
        let counts =
            serde_json::to_string(&outcome.category_counts).unwrap_or_else(|_| "{}".into());
        conn.execute(
            "INSERT INTO runs (started_at, finished_at, status, exit_code, emails_processed,
                               execution_time, category_counts, message)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                outcome.started_at,
                now,
                outcome.status,
                outcome.exit_code,
                outcome.emails,
                outcome.execution_time,
                counts,
                outcome.message
            ],
        )?;
        Some(conn.last_insert_rowid())
    } else {
        let mut unfinished = None;
        for (id, status) in &rows {
            if status == "running" {
                conn.execute(
                    "UPDATE runs SET status = ?2, finished_at = ?3, exit_code = ?4,
                                     execution_time = ?5, message = ?6 WHERE id = ?1",
                    params![
                        id,
                        outcome.status,
                        now,
                        outcome.exit_code,
                        outcome.execution_time,
                        outcome.message
                    ],
                )?;
                unfinished = Some(*id);
            }
        }
        // A run the job finished itself has its errors recorded by the job.
        if unfinished.is_none() && outcome.status != "timeout" {
            return Ok(());
        }
        unfinished.or(rows.last().map(|(id, _)| *id))
    };
    if let Some((error_type, message)) = &outcome.error {
        conn.execute(
            "INSERT INTO errors (run_id, timestamp, module, error_type, message)
             VALUES (?1, ?2, 'refresh', ?3, ?4)",
            params![run_id, now, error_type, message],
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(conn: &Connection, started: &str, status: &str, time: f64, counts: &str) {
        conn.execute(
            "INSERT INTO runs (started_at, status, emails_processed, api_calls, cache_hits,
                               cache_lookups, estimated_cost, execution_time, category_counts)
             VALUES (?1, ?2, 10, 3, 5, 10, 0.01, ?3, ?4)",
            params![started, status, time, counts],
        )
        .unwrap();
    }

    #[test]
    fn metrics_respect_the_period_and_units() {
        let dir = tempfile::tempdir().unwrap();
        let conn = crate::store::open(dir.path()).unwrap();
        let now = chrono::NaiveDateTime::parse_from_str("2026-11-21T12:00:00", "%Y-%m-%dT%H:%M:%S")
            .unwrap();
        run(
            &conn,
            "2026-11-21T11:00:00",
            "success",
            2.0,
            r#"{"FYI": 4, "Social": 1}"#,
        );
        run(&conn, "2026-11-20T13:00:00", "error", 4.0, "{}");
        run(
            &conn,
            "2026-11-17T12:00:00",
            "success",
            6.0,
            r#"{"FYI": 10}"#,
        );
        run(&conn, "2026-10-01T12:00:00", "success", 8.0, "not json");
        conn.execute(
            "INSERT INTO errors (timestamp, module, error_type, message)
             VALUES ('2026-11-21T11:00:01', 'imap', 'Login', 'bad password')",
            [],
        )
        .unwrap();

        let day = metrics(&conn, Window::Day, now).unwrap();
        assert_eq!(day.metrics.script_run_count, 2);
        assert_eq!(day.metrics.emails_processed, 20);
        assert_eq!(day.metrics.success_rate, 50.0);
        assert_eq!(day.metrics.avg_execution_time, 3.0);
        assert_eq!(day.metrics.cache_hit_rate, 50.0);
        assert_eq!(day.metrics.estimated_cost, 0.02);
        assert_eq!(day.metrics.error_count, 1);
        assert_eq!(day.category_breakdown[&Category::Fyi], 4);
        assert_eq!(day.category_breakdown[&Category::NeedAction], 0);

        let week = metrics(&conn, Window::Week, now).unwrap();
        assert_eq!(week.metrics.script_run_count, 3);
        assert_eq!(week.category_breakdown[&Category::Fyi], 14);

        let all = metrics(&conn, Window::All, now).unwrap();
        assert_eq!(all.metrics.script_run_count, 4);
        assert_eq!(all.metrics.avg_execution_time, 5.0);
    }

    #[test]
    fn timeout_closes_the_jobs_running_row_and_adds_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let conn = crate::store::open(dir.path()).unwrap();
        let before = max_run_id(&conn).unwrap();
        run(&conn, "2026-11-21T11:00:00", "running", 0.0, "{}");
        let outcome = Outcome {
            status: "timeout",
            started_at: "2026-11-21T11:00:00".into(),
            execution_time: 120.0,
            exit_code: None,
            message: Some("time-out".into()),
            error: Some(("Timeout", "time-out after 120 s".into())),
            emails: 0,
            category_counts: BTreeMap::new(),
        };
        record_outcome(&conn, before, &outcome).unwrap();
        let status: String = conn
            .query_row("SELECT status FROM runs", [], |r| r.get(0))
            .unwrap();
        assert_eq!(status, "timeout");
        let errors = recent_errors(&conn, 10).unwrap();
        assert_eq!(errors.len(), 1);
        assert_eq!(
            (errors[0].module.as_str(), errors[0].error_type.as_str()),
            ("refresh", "Timeout")
        );
    }
}
