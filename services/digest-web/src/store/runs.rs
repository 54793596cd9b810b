//! Write side of the `runs` and `errors` tables (the refresh job's records).

use std::collections::BTreeMap;

use domain::email::Category;
use rusqlite::{Connection, params};

/// Current time as the store writes it: ISO 8601 UTC without zone, whole seconds.
pub fn now_iso() -> String {
    chrono::Utc::now().format("%Y-%m-%dT%H:%M:%S").to_string()
}

/// Starts a run row with status `running`; returns its id.
pub fn start_run(conn: &Connection, started_at: &str) -> rusqlite::Result<i64> {
    conn.execute(
        "INSERT INTO runs (started_at, status) VALUES (?1, 'running')",
        [started_at],
    )?;
    Ok(conn.last_insert_rowid())
}

/// The figures of a finished run.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunOutcome {
    /// `success` or `error`.
    pub status: &'static str,
    /// The process exit code.
    pub exit_code: i32,
    /// Emails in the digest.
    pub emails_processed: u64,
    /// IMAP fetch commands + LLM HTTP requests.
    pub api_calls: u64,
    /// Messages whose category came from the cache.
    pub cache_hits: u64,
    /// Messages looked up in the cache.
    pub cache_lookups: u64,
    /// LLM tokens used.
    pub llm_tokens: u64,
    /// LLM tokens × price.
    pub estimated_cost: f64,
    /// Seconds.
    pub execution_time: f64,
    /// Emails per category in the digest.
    pub category_counts: BTreeMap<Category, u64>,
    /// The human line printed on failure.
    pub message: Option<String>,
    /// LLM answers taken from the caches.
    pub llm_cache_hits: u64,
    /// LLM answers looked up in the caches.
    pub llm_cache_lookups: u64,
    /// The digest's engine (`offline` or `llm:<model>`); empty means `offline`.
    pub engine: String,
}

/// Closes a run row.
pub fn finish_run(conn: &Connection, run_id: i64, outcome: &RunOutcome) -> rusqlite::Result<()> {
    let counts = serde_json::to_string(&outcome.category_counts).unwrap_or_else(|_| "{}".into());
    let to_i64 = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    conn.execute(
        "UPDATE runs SET finished_at = ?2, status = ?3, exit_code = ?4, emails_processed = ?5,
           api_calls = ?6, cache_hits = ?7, cache_lookups = ?8, llm_tokens = ?9,
           estimated_cost = ?10, execution_time = ?11, category_counts = ?12, message = ?13,
           llm_cache_hits = ?14, llm_cache_lookups = ?15, engine = ?16
         WHERE id = ?1",
        params![
            run_id,
            now_iso(),
            outcome.status,
            outcome.exit_code,
            to_i64(outcome.emails_processed),
            to_i64(outcome.api_calls),
            to_i64(outcome.cache_hits),
            to_i64(outcome.cache_lookups),
            to_i64(outcome.llm_tokens),
            outcome.estimated_cost,
            outcome.execution_time,
            counts,
            outcome.message,
            to_i64(outcome.llm_cache_hits),
            to_i64(outcome.llm_cache_lookups),
            if outcome.engine.is_empty() {
                "offline"
            } else {
                outcome.engine.as_str()
            },
        ],
    )?;
    Ok(())
}

/// One error to record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorRecord {
    /// Component, e.g. `mail.parse`, `mail.imap`, `refresh.output`.
    pub module: String,
    /// Short type, e.g. `NotAMessage`, `LoginFailed`.
    pub error_type: String,
    /// Human text.
    pub message: String,
    /// The error's cause chain, one cause per line, if any.
    pub traceback: Option<String>,
}

/// Records an error, attached to a run when `run_id` is given.
pub fn record_error(
    conn: &Connection,
    run_id: Option<i64>,
    error: &ErrorRecord,
) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO errors (run_id, timestamp, module, error_type, message, traceback)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            run_id,
            now_iso(),
            error.module,
            error.error_type,
            error.message,
            error.traceback
        ],
    )?;
    Ok(())
}

/// The cause chain of an error, one per line (the "traceback" of Rust errors).
pub fn cause_chain(error: &(dyn std::error::Error + 'static)) -> Option<String> {
    let mut lines = Vec::new();
    let mut source = error.source();
    while let Some(e) = source {
        lines.push(format!("caused by: {e}"));
        source = e.source();
    }
    (!lines.is_empty()).then(|| lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_is_started_finished_and_errors_attach_to_it() {
        let dir = tempfile::tempdir().unwrap();
        let conn = super::super::open(dir.path()).unwrap();
        let id = start_run(&conn, "2026-11-21T10:00:00").unwrap();
        record_error(
            &conn,
            Some(id),
            &ErrorRecord {
                module: "mail.parse".into(),
                error_type: "NotAMessage".into(),
                message: "x".into(),
                traceback: None,
            },
        )
        .unwrap();
        let outcome = RunOutcome {
            status: "success",
            emails_processed: 3,
            cache_hits: 1,
            cache_lookups: 3,
            category_counts: [(Category::Fyi, 3)].into(),
            ..RunOutcome::default()
        };
        finish_run(&conn, id, &outcome).unwrap();
        let (status, counts, hits): (String, String, i64) = conn
            .query_row(
                "SELECT status, category_counts, cache_hits FROM runs WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap();
        assert_eq!(
            (status.as_str(), counts.as_str(), hits),
            ("success", r#"{"FYI":3}"#, 1)
        );
        let n: i64 = conn
            .query_row("SELECT count(*) FROM errors WHERE run_id = ?1", [id], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(n, 1);
    }
}
