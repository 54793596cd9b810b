//! The `unsubscribes` table: every unsubscribe ops staff started on the dashboard, with who,
//! when, how (RFC 8058 one-click POST or a `mailto:` message) and what the target answered.
//! The web service writes them ([`record`]) and shows them ([`list`], [`latest_by_sender`]).

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;

/// One unsubscribe, as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unsubscribe {
    /// Its id.
    pub id: i64,
    /// The sender (lower-cased address).
    pub sender: String,
    /// `one-click` or `mailto`.
    pub method: String,
    /// The https URI posted to, or the address written to.
    pub target: String,
    /// Who clicked.
    pub created_by: String,
    /// When (ISO 8601 UTC without zone).
    pub created_at: String,
    /// `done` (the target accepted it) or `failed`.
    pub outcome: String,
    /// The HTTP status or SMTP reply code, when one came.
    pub answer_status: Option<u16>,
    /// What happened, in one line.
    pub answer: String,
}

impl Unsubscribe {
    /// Whether the target accepted it.
    pub fn done(&self) -> bool {
        self.outcome == "done"
    }

    /// The day it was made, `YYYY-MM-DD`.
    pub fn day(&self) -> &str {
        self.created_at.get(..10).unwrap_or(&self.created_at)
    }
}

/// What a new row records (`id` is assigned).
pub fn record(conn: &Connection, u: &Unsubscribe) -> rusqlite::Result<Unsubscribe> {
    conn.execute(
        "INSERT INTO unsubscribes (sender, method, target, created_by, created_at, outcome,
            answer_status, answer) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            u.sender,
            u.method,
            u.target,
            u.created_by,
            u.created_at,
            u.outcome,
            u.answer_status,
            u.answer
        ],
    )?;
    Ok(Unsubscribe {
        id: conn.last_insert_rowid(),
        ..u.clone()
    })
}

fn from_row(r: &Row<'_>) -> rusqlite::Result<Unsubscribe> {
    Ok(Unsubscribe {
        id: r.get(0)?,
        sender: r.get(1)?,
        method: r.get(2)?,
        target: r.get(3)?,
        created_by: r.get(4)?,
        created_at: r.get(5)?,
        outcome: r.get(6)?,
        answer_status: r.get(7)?,
        answer: r.get(8)?,
    })
}

const COLUMNS: &str =
    "id, sender, method, target, created_by, created_at, outcome, answer_status, answer";

/// The newest `limit` unsubscribes, newest first.
pub fn list(conn: &Connection, limit: u32) -> rusqlite::Result<Vec<Unsubscribe>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM unsubscribes ORDER BY id DESC LIMIT ?1"
    ))?;
    stmt.query_map([limit], from_row)?.collect()
}

/// One unsubscribe by id.
pub fn get(conn: &Connection, id: i64) -> rusqlite::Result<Option<Unsubscribe>> {
    conn.query_row(
        &format!("SELECT {COLUMNS} FROM unsubscribes WHERE id = ?1"),
        [id],
        from_row,
    )
    .optional()
}

/// Per sender, its newest unsubscribe (done or failed).
pub fn latest_by_sender(conn: &Connection) -> rusqlite::Result<HashMap<String, Unsubscribe>> {
    let mut stmt =
        conn.prepare_cached(&format!("SELECT {COLUMNS} FROM unsubscribes ORDER BY id"))?;
    let rows: Vec<Unsubscribe> = stmt.query_map([], from_row)?.collect::<Result<_, _>>()?;
    Ok(rows.into_iter().map(|u| (u.sender.clone(), u)).collect())
}

/// `(done, failed)` unsubscribes made at or after `since` (ISO 8601; empty: all).
pub fn stats(conn: &Connection, since: &str) -> rusqlite::Result<(u64, u64)> {
    conn.query_row(
        "SELECT COALESCE(SUM(outcome = 'done'), 0), COALESCE(SUM(outcome != 'done'), 0)
         FROM unsubscribes WHERE created_at >= ?1",
        [since],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip_newest_first() {
        let dir = tempfile::tempdir().unwrap();
        let conn = crate::store::open(dir.path()).unwrap();
        let row = |sender: &str, outcome: &str| Unsubscribe {
            id: 0,
            sender: sender.into(),
            method: "one-click".into(),
            target: "https://x.example/u".into(),
            created_by: "anonymous".into(),
            created_at: "2026-11-27T01:00:00".into(),
            outcome: outcome.into(),
            answer_status: Some(200),
            answer: "HTTP 200".into(),
        };
        let a = record(&conn, &row("a@x", "failed")).unwrap();
        let b = record(&conn, &row("a@x", "done")).unwrap();
        assert!(b.id > a.id);
        assert_eq!(list(&conn, 10).unwrap(), vec![b.clone(), a.clone()]);
        assert_eq!(get(&conn, a.id).unwrap(), Some(a));
        assert_eq!(latest_by_sender(&conn).unwrap()["a@x"], b);
        assert!(b.done());
        assert_eq!(b.day(), "2026-11-27");
        assert_eq!(stats(&conn, "").unwrap(), (1, 1));
        assert_eq!(stats(&conn, "2026-11-28").unwrap(), (0, 0));
    }
}
