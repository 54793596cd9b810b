//! Write and read side of `message_cache`: messages already processed are neither fetched
//! nor parsed again; their digest item, category and date come from here.

use std::collections::HashMap;

use chrono::{DateTime, NaiveDateTime, Utc};
use domain::email::{Category, EmailItem};
use rusqlite::{Connection, params};
use serde::{Deserialize, Serialize};

/// What the cache keeps per message. `item` is stored as the EmailItem JSON plus the sender's
/// display name (an extra field readers of EmailItem ignore).
#[derive(Debug, Clone, PartialEq)]
pub struct CachedMessage {
    /// The digest item.
    pub item: EmailItem,
    /// Sender display name, for summaries.
    pub from_name: Option<String>,
    /// The category.
    pub category: Category,
    /// Classifier confidence.
    pub confidence: f64,
    /// Sent/delivered time (for the window).
    pub received_at: DateTime<Utc>,
    /// `offline` or `llm:<model>`.
    pub engine: String,
    /// Its mailing list (the `List-Id` header's id, lower-cased), when it came through one: a
    /// correction of one of its messages applies to the whole list.
    pub list_id: Option<String>,
    /// Which corrections of its sender group the classifier had learnt from when it
    /// categorised this message (`None`: none); a different set makes the cached category stale.
    pub learned: Option<String>,
    /// The classifier's features, written with a new message (in `message_features`);
    /// [`load`] leaves it `None` ([`features`] reads them when needed).
    pub features: Option<Vec<(u32, f32)>>,
}

#[derive(Serialize, Deserialize)]
struct StoredItem {
    #[serde(flatten)]
    item: EmailItem,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    from_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    learned: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    list_id: Option<String>,
}

const TIME_FORMAT: &str = "%Y-%m-%dT%H:%M:%S";

/// Every cached message of a source, by key (one query: a warm run over 10,000 messages
/// must stay well under a second).
pub fn load(conn: &Connection, source: &str) -> rusqlite::Result<HashMap<String, CachedMessage>> {
    let mut stmt = conn.prepare(
        "SELECT key, item, category, confidence, received_at, engine
         FROM message_cache WHERE source = ?1",
    )?;
    let rows = stmt.query_map([source], |row| {
        Ok((
            row.get::<_, String>(0)?,
            row.get::<_, String>(1)?,
            row.get::<_, String>(2)?,
            row.get::<_, f64>(3)?,
            row.get::<_, String>(4)?,
            row.get::<_, String>(5)?,
        ))
    })?;
    let mut out = HashMap::new();
    for row in rows {
        let (key, item, category, confidence, received_at, engine) = row?;
        // A row we cannot read (hand-edited, older format) is simply not a hit: the message
        // is processed again and the row replaced.
        let (Ok(stored), Some(category), Ok(received_at)) = (
            serde_json::from_str::<StoredItem>(&item),
            Category::parse(&category),
            NaiveDateTime::parse_from_str(&received_at, TIME_FORMAT),
        ) else {
            continue;
        };
        out.insert(
            key,
            CachedMessage {
                item: stored.item,
                from_name: stored.from_name,
                category,
                confidence,
                received_at: received_at.and_utc(),
                engine,
                learned: stored.learned,
                list_id: stored.list_id,
                features: None,
            },
        );
    }
    Ok(out)
}

/// Inserts or replaces messages, in one transaction.
pub fn store(
    conn: &mut Connection,
    source: &str,
    messages: &[(String, CachedMessage)],
) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    {
        let mut stmt = tx.prepare(
            "INSERT OR REPLACE INTO message_cache
               (source, key, item, category, confidence, received_at, engine)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        let mut with_features = tx.prepare(
            "INSERT OR REPLACE INTO message_features (source, key, features) VALUES (?1, ?2, ?3)",
        )?;
        let mut without_features =
            tx.prepare("DELETE FROM message_features WHERE source = ?1 AND key = ?2")?;
        for (key, m) in messages {
            let item = serde_json::to_string(&StoredItem {
                item: m.item.clone(),
                from_name: m.from_name.clone(),
                learned: m.learned.clone(),
                list_id: m.list_id.clone(),
            })
            .unwrap_or_default();
            stmt.execute(params![
                source,
                key,
                item,
                m.category.as_str(),
                m.confidence,
                m.received_at.format(TIME_FORMAT).to_string(),
                m.engine,
            ])?;
            match &m.features {
                Some(values) => {
                    with_features.execute(params![source, key, encode_features(values)])?
                }
                None => without_features.execute(params![source, key])?,
            };
        }
    }
    tx.commit()
}

/// The features of a message as stored: little-endian `u32` index then `f32` value, per pair.
pub fn encode_features(values: &[(u32, f32)]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * 8);
    for &(index, value) in values {
        out.extend_from_slice(&index.to_le_bytes());
        out.extend_from_slice(&value.to_le_bytes());
    }
    out
}

/// The pairs of [`encode_features`]; `None` for a blob of the wrong length.
pub fn decode_features(blob: &[u8]) -> Option<Vec<(u32, f32)>> {
    if !blob.len().is_multiple_of(8) {
        return None;
    }
    Some(
        blob.chunks_exact(8)
            .map(|pair| {
                let (index, value) = pair.split_at(4);
                // `chunks_exact(8)` split at 4: both halves are 4 bytes.
                let index = u32::from_le_bytes(index.try_into().expect("4 bytes"));
                let value = f32::from_le_bytes(value.try_into().expect("4 bytes"));
                (index, value)
            })
            .collect(),
    )
}

/// The cached features of one message, when stored (rows of older builds have none).
pub fn features(
    conn: &Connection,
    source: &str,
    key: &str,
) -> rusqlite::Result<Option<Vec<(u32, f32)>>> {
    use rusqlite::OptionalExtension;
    let blob: Option<Vec<u8>> = conn
        .query_row(
            "SELECT features FROM message_features WHERE source = ?1 AND key = ?2",
            params![source, key],
            |r| r.get(0),
        )
        .optional()?;
    Ok(blob.and_then(|b| decode_features(&b)))
}

/// Deletes the given keys of a source, in one transaction.
pub fn forget(conn: &mut Connection, source: &str, keys: &[String]) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    {
        let mut stmt = tx.prepare("DELETE FROM message_cache WHERE source = ?1 AND key = ?2")?;
        let mut features =
            tx.prepare("DELETE FROM message_features WHERE source = ?1 AND key = ?2")?;
        for key in keys {
            stmt.execute(params![source, key])?;
            features.execute(params![source, key])?;
        }
    }
    tx.commit()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn stored_messages_load_back_per_source() {
        let dir = tempfile::tempdir().unwrap();
        let mut conn = super::super::open(dir.path()).unwrap();
        let message = CachedMessage {
            item: EmailItem {
                id: "a@example.com".into(),
                subject: "Hi".into(),
                from: "a@example.com".into(),
                date: "2026-11-21".into(),
                snippet: "hello".into(),
                reasons: vec!["List-Id header".into()],
            },
            from_name: Some("Alice".into()),
            category: Category::NeedAction,
            confidence: 0.75,
            received_at: Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).unwrap(),
            engine: "offline".into(),
            learned: Some("3".into()),
            list_id: Some("ops.lists.example.org".into()),
            features: None,
        };
        store(&mut conn, "maildir:/m", &[("k1".into(), message.clone())]).unwrap();
        let loaded = load(&conn, "maildir:/m").unwrap();
        assert_eq!(loaded.get("k1"), Some(&message));
        assert!(load(&conn, "maildir:/other").unwrap().is_empty());
        // The item column stays readable as a plain EmailItem.
        let item: String = conn
            .query_row("SELECT item FROM message_cache", [], |r| r.get(0))
            .unwrap();
        let plain: EmailItem = serde_json::from_str(&item).unwrap();
        assert_eq!(plain, message.item);
        // Features are written with a message and read back on their own.
        assert_eq!(features(&conn, "maildir:/m", "k1").unwrap(), None);
        let with = CachedMessage {
            features: Some(vec![(7, 0.5), (262_143, -1.25)]),
            ..message.clone()
        };
        store(&mut conn, "maildir:/m", &[("k2".into(), with)]).unwrap();
        assert_eq!(
            features(&conn, "maildir:/m", "k2").unwrap(),
            Some(vec![(7, 0.5), (262_143, -1.25)])
        );
        assert_eq!(load(&conn, "maildir:/m").unwrap()["k2"], message);
        assert_eq!(decode_features(&[1, 2, 3]), None);
        forget(&mut conn, "maildir:/m", &["k1".into(), "k2".into()]).unwrap();
        assert!(load(&conn, "maildir:/m").unwrap().is_empty());
        assert_eq!(features(&conn, "maildir:/m", "k2").unwrap(), None);
    }
}
