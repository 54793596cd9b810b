//! The `test_runs` table: results of the deployment diagnostics (`POST /api/tests/run`).

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

/// Counts and duration of one suite run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Counts {
    /// Checks that passed.
    pub passed: i64,
    /// Checks that failed.
    pub failed: i64,
    /// Checks that could not apply here (e.g. no LLM configured).
    pub skipped: i64,
    /// All checks.
    pub total: i64,
    /// Seconds the suite took.
    pub duration: f64,
}

/// One failed check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Failure {
    /// The check's name.
    pub test: String,
    /// Why it failed.
    pub message: String,
}

/// A stored test run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StoredTestRun {
    /// ISO 8601 UTC without zone.
    pub last_run: String,
    /// basic | extended | comprehensive.
    pub suite: String,
    /// The figures.
    pub results: Counts,
    /// The failed checks.
    pub failures: Vec<Failure>,
}

/// Stores one run.
pub fn insert(
    conn: &Connection,
    suite: &str,
    started_at: &str,
    counts: &Counts,
    failures: &[Failure],
) -> rusqlite::Result<()> {
    let failures = serde_json::to_string(failures).unwrap_or_else(|_| "[]".into());
    conn.execute(
        "INSERT INTO test_runs (suite, started_at, passed, failed, skipped, total, duration, failures)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            suite,
            started_at,
            counts.passed,
            counts.failed,
            counts.skipped,
            counts.total,
            counts.duration,
            failures
        ],
    )?;
    Ok(())
}

/// The newest run, if any.
pub fn latest(conn: &Connection) -> rusqlite::Result<Option<StoredTestRun>> {
    conn.query_row(
        "SELECT started_at, suite, passed, failed, skipped, total, duration, failures
         FROM test_runs ORDER BY started_at DESC, id DESC LIMIT 1",
        [],
        |r| {
            let failures: String = r.get(7)?;
            Ok(StoredTestRun {
                last_run: r.get(0)?,
                suite: r.get(1)?,
                results: Counts {
                    passed: r.get(2)?,
                    failed: r.get(3)?,
                    skipped: r.get(4)?,
                    total: r.get(5)?,
                    duration: r.get(6)?,
                },
                failures: serde_json::from_str(&failures).unwrap_or_default(),
            })
        },
    )
    .optional()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latest_is_the_newest_insert() {
        let dir = tempfile::tempdir().unwrap();
        let conn = crate::store::open(dir.path()).unwrap();
        assert_eq!(latest(&conn).unwrap(), None);
        let counts = Counts {
            passed: 3,
            failed: 1,
            skipped: 0,
            total: 4,
            duration: 0.5,
        };
        let failure = Failure {
            test: "x".into(),
            message: "y".into(),
        };
        insert(&conn, "basic", "2026-11-21T10:00:00", &counts, &[]).unwrap();
        insert(
            &conn,
            "extended",
            "2026-11-21T11:00:00",
            &counts,
            std::slice::from_ref(&failure),
        )
        .unwrap();
        let got = latest(&conn).unwrap().unwrap();
        assert_eq!(got.suite, "extended");
        assert_eq!(got.failures, vec![failure]);
        assert_eq!(got.results, counts);
    }
}
