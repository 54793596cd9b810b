//! The `corrections` table: emails ops staff moved to another category on the dashboard.
//!
//! The web service writes them ([`create`], [`undo`]) and lists them ([`list`]); the refresh
//! job reads the active ones ([`active_by_sender`]) to apply each sender's newest correction
//! as the strongest evidence and to learn from the corrected messages; `/api/metrics` counts
//! them ([`stats`]).

use std::collections::{BTreeMap, HashMap};

use domain::email::{Category, Digest, EmailItem};
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;

/// One correction, as `GET /api/corrections` shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Correction {
    /// Its id (what `DELETE /api/corrections/{id}` takes).
    pub id: i64,
    /// The digest item's id.
    pub email_id: String,
    /// The sender address (lower-cased) later refreshes match.
    pub sender: String,
    /// The corrected email's subject.
    pub subject: String,
    /// The corrected email's snippet.
    #[serde(skip)]
    pub snippet: String,
    /// The category it had.
    pub from_category: Category,
    /// The category it was moved to.
    pub category: Category,
    /// Who moved it.
    pub created_by: String,
    /// When (ISO 8601 UTC without zone).
    pub created_at: String,
    /// Who undid it, once undone.
    pub undone_by: Option<String>,
    /// When it was undone.
    pub undone_at: Option<String>,
}

impl Correction {
    /// The reason shown on every email this correction moves.
    pub fn reason(&self) -> String {
        format!(
            "{CORRECTED_BY}{} on {}",
            self.created_by,
            self.created_at.get(..10).unwrap_or(&self.created_at)
        )
    }
}

/// What a new correction records.
#[derive(Debug, Clone)]
pub struct NewCorrection<'a> {
    /// The digest item's id.
    pub email_id: &'a str,
    /// Its sender address.
    pub sender: &'a str,
    /// Its subject.
    pub subject: &'a str,
    /// Its snippet.
    pub snippet: &'a str,
    /// The category it had.
    pub from_category: Category,
    /// The category it goes to.
    pub category: Category,
    /// Who.
    pub by: &'a str,
    /// When (ISO 8601 UTC without zone).
    pub at: &'a str,
}

const COLUMNS: &str = "id, email_id, sender, subject, snippet, from_category, category,
                       created_by, created_at, undone_by, undone_at";

fn from_row(row: &Row<'_>) -> rusqlite::Result<Option<Correction>> {
    let category = |i: usize| -> rusqlite::Result<Option<Category>> {
        Ok(Category::parse(&row.get::<_, String>(i)?))
    };
    // A row naming no known category (hand-edited) is skipped, not an error for the page.
    let (Some(from_category), Some(category)) = (category(5)?, category(6)?) else {
        return Ok(None);
    };
    Ok(Some(Correction {
        id: row.get(0)?,
        email_id: row.get(1)?,
        sender: row.get(2)?,
        subject: row.get(3)?,
        snippet: row.get(4)?,
        from_category,
        category,
        created_by: row.get(7)?,
        created_at: row.get(8)?,
        undone_by: row.get(9)?,
        undone_at: row.get(10)?,
    }))
}

/// Records a correction and returns it.
pub fn create(conn: &Connection, new: &NewCorrection<'_>) -> rusqlite::Result<Correction> {
    conn.execute(
        "INSERT INTO corrections (email_id, sender, subject, snippet, from_category, category,
                                  created_by, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            new.email_id,
            new.sender.to_ascii_lowercase(),
            new.subject,
            new.snippet,
            new.from_category.as_str(),
            new.category.as_str(),
            new.by,
            new.at
        ],
    )?;
    Ok(Correction {
        id: conn.last_insert_rowid(),
        email_id: new.email_id.to_owned(),
        sender: new.sender.to_ascii_lowercase(),
        subject: new.subject.to_owned(),
        snippet: new.snippet.to_owned(),
        from_category: new.from_category,
        category: new.category,
        created_by: new.by.to_owned(),
        created_at: new.at.to_owned(),
        undone_by: None,
        undone_at: None,
    })
}

/// One correction by id.
pub fn get(conn: &Connection, id: i64) -> rusqlite::Result<Option<Correction>> {
    conn.query_row(
        &format!("SELECT {COLUMNS} FROM corrections WHERE id = ?1"),
        [id],
        from_row,
    )
    .optional()
    .map(Option::flatten)
}

/// The newest `limit` corrections, newest first, undone ones included.
pub fn list(conn: &Connection, limit: u32) -> rusqlite::Result<Vec<Correction>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT {COLUMNS} FROM corrections ORDER BY id DESC LIMIT ?1"
    ))?;
    let rows = stmt.query_map([limit], from_row)?;
    let mut out = Vec::new();
    for row in rows {
        out.extend(row?);
    }
    Ok(out)
}

/// Marks a correction undone; `None` when there is no such id. An already undone correction
/// is returned as it is.
pub fn undo(
    conn: &Connection,
    id: i64,
    by: &str,
    at: &str,
) -> rusqlite::Result<Option<Correction>> {
    conn.execute(
        "UPDATE corrections SET undone_by = ?2, undone_at = ?3
         WHERE id = ?1 AND undone_at IS NULL",
        params![id, by, at],
    )?;
    get(conn, id)
}

/// The active (not undone) corrections, oldest first.
pub fn active(conn: &Connection) -> rusqlite::Result<Vec<Correction>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT {COLUMNS} FROM corrections WHERE undone_at IS NULL ORDER BY id"
    ))?;
    let rows = stmt.query_map([], from_row)?;
    let mut out = Vec::new();
    for row in rows {
        out.extend(row?);
    }
    Ok(out)
}

/// Each sender's newest active correction: what the refresh job applies.
pub fn active_by_sender(conn: &Connection) -> rusqlite::Result<HashMap<String, Correction>> {
    // Oldest first, so a later correction of the same sender replaces an earlier one.
    Ok(active(conn)?
        .into_iter()
        .map(|c| (c.sender.clone(), c))
        .collect())
}

/// The `corrections` field of `GET /api/metrics`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CorrectionStats {
    /// Active corrections made in the period.
    pub total: i64,
    /// Of them, per category moved to; all five keys always present.
    pub per_category: BTreeMap<Category, i64>,
    /// Corrections per email processed in the period, in percent (0–100); 0 when no email
    /// was processed.
    pub rate: f64,
}

/// Counts the active corrections made since `since` (stored time text; "" for all), against
/// `emails_processed` emails in the same period.
pub fn stats(
    conn: &Connection,
    since: &str,
    emails_processed: i64,
) -> rusqlite::Result<CorrectionStats> {
    let mut per_category: BTreeMap<Category, i64> =
        Category::ALL.into_iter().map(|c| (c, 0)).collect();
    let mut stmt = conn.prepare(
        "SELECT category, count(*) FROM corrections
         WHERE created_at >= ?1 AND undone_at IS NULL GROUP BY category",
    )?;
    let rows = stmt.query_map([since], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?))
    })?;
    for row in rows {
        let (name, n) = row?;
        if let Some(c) = Category::parse(&name) {
            *per_category.entry(c).or_default() += n;
        }
    }
    let total = per_category.values().sum();
    let rate = if emails_processed > 0 {
        (total as f64 * 1000.0 / emails_processed as f64).round() / 10.0
    } else {
        0.0
    };
    Ok(CorrectionStats {
        total,
        per_category,
        rate,
    })
}

/// Moves the email `email_id` of `digest` to `to`, in date order (newest first), with
/// `reason` as its first reason (a reason starting "corrected by" it had is dropped first).
/// Returns the category it was in and the email, or `None` when the digest has no such email.
pub fn move_in_digest(
    digest: &mut Digest,
    email_id: &str,
    to: Category,
    reason: Option<String>,
) -> Option<(Category, EmailItem)> {
    let (from, pos) = digest.categories.iter().find_map(|(c, items)| {
        items
            .iter()
            .position(|item| item.id == email_id)
            .map(|pos| (*c, pos))
    })?;
    let mut item = digest.categories.get_mut(&from)?.remove(pos);
    item.reasons.retain(|r| !r.starts_with(CORRECTED_BY));
    if let Some(reason) = reason {
        item.reasons.insert(0, reason);
    }
    let items = digest.categories.entry(to).or_default();
    let at = items
        .iter()
        .position(|other| other.date < item.date)
        .unwrap_or(items.len());
    items.insert(at, item.clone());
    Some((from, item))
}

/// How every correction reason starts.
pub const CORRECTED_BY: &str = "corrected by ";

#[cfg(test)]
mod tests {
    use super::*;

    fn new<'a>(id: &'a str, sender: &'a str, to: Category, at: &'a str) -> NewCorrection<'a> {
        NewCorrection {
            email_id: id,
            sender,
            subject: "Weekly digest",
            snippet: "This week",
            from_category: Category::Promotional,
            category: to,
            by: "alice",
            at,
        }
    }

    #[test]
    fn corrections_are_listed_undone_and_the_newest_per_sender_applies() {
        let dir = tempfile::tempdir().unwrap();
        let conn = super::super::open(dir.path()).unwrap();
        let a = create(
            &conn,
            &new(
                "m1",
                "News@Example.com",
                Category::Fyi,
                "2026-11-21T10:00:00",
            ),
        )
        .unwrap();
        let b = create(
            &conn,
            &new(
                "m2",
                "news@example.com",
                Category::Newsletter,
                "2026-11-21T11:00:00",
            ),
        )
        .unwrap();
        let c = create(
            &conn,
            &new(
                "m3",
                "ceo@example.com",
                Category::NeedAction,
                "2026-11-20T09:00:00",
            ),
        )
        .unwrap();
        assert_eq!(a.sender, "news@example.com");
        assert_eq!(b.reason(), "corrected by alice on 2026-11-21");
        let listed: Vec<i64> = list(&conn, 10).unwrap().iter().map(|c| c.id).collect();
        assert_eq!(listed, vec![c.id, b.id, a.id]);

        let by_sender = active_by_sender(&conn).unwrap();
        assert_eq!(by_sender["news@example.com"].category, Category::Newsletter);
        assert_eq!(by_sender.len(), 2);

        let undone = undo(&conn, b.id, "bob", "2026-11-21T12:00:00")
            .unwrap()
            .unwrap();
        assert_eq!(undone.undone_by.as_deref(), Some("bob"));
        // Undoing twice keeps the first undo.
        let again = undo(&conn, b.id, "carol", "2026-11-21T13:00:00")
            .unwrap()
            .unwrap();
        assert_eq!(again.undone_by.as_deref(), Some("bob"));
        assert!(
            undo(&conn, 999, "bob", "2026-11-21T12:00:00")
                .unwrap()
                .is_none()
        );
        assert_eq!(
            active_by_sender(&conn).unwrap()["news@example.com"].category,
            Category::Fyi
        );

        let day = stats(&conn, "2026-11-21T00:00:00", 40).unwrap();
        assert_eq!(day.total, 1);
        assert_eq!(day.per_category[&Category::Fyi], 1);
        assert_eq!(day.per_category[&Category::Newsletter], 0);
        assert_eq!(day.rate, 2.5);
        let all = stats(&conn, "", 0).unwrap();
        assert_eq!(all.total, 2);
        assert_eq!(all.per_category[&Category::NeedAction], 1);
        assert_eq!(all.rate, 0.0);
    }
}
