//! The LLM's answers cached by the refresh job (`category_cache`, `summary_cache`), keyed by
//! a hash of the prompt version, the model and what was sent (computed by the job).

use domain::email::Category;
use rusqlite::{Connection, OptionalExtension, params};

/// The cached category of `key`, if any (an unknown name is no hit).
pub fn category(conn: &Connection, key: &str) -> Option<Category> {
    let found: Option<String> = conn
        .query_row(
            "SELECT category FROM category_cache WHERE key = ?1",
            [key],
            |r| r.get(0),
        )
        .optional()
        .ok()
        .flatten();
    found.as_deref().and_then(Category::parse)
}

/// Caches the LLM's category of `key`.
pub fn put_category(
    conn: &Connection,
    key: &str,
    category: Category,
    engine: &str,
) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT OR REPLACE INTO category_cache (key, category, engine, created_at)
         VALUES (?1, ?2, ?3, ?4)",
        params![key, category.as_str(), engine, super::runs::now_iso()],
    )?;
    Ok(())
}

/// The cached summary of `key`, if any.
pub fn summary(conn: &Connection, key: &str) -> Option<String> {
    conn.query_row(
        "SELECT summary FROM summary_cache WHERE key = ?1",
        [key],
        |r| r.get::<_, String>(0),
    )
    .optional()
    .ok()
    .flatten()
}

/// Caches the LLM's summary of `key`.
pub fn put_summary(
    conn: &Connection,
    key: &str,
    summary: &str,
    engine: &str,
) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT OR REPLACE INTO summary_cache (key, summary, engine, created_at)
         VALUES (?1, ?2, ?3, ?4)",
        params![key, summary, engine, super::runs::now_iso()],
    )?;
    Ok(())
}
