//! The `mail_facts` table: what each message the job read says about unsubscribing (its
//! `List-Unsubscribe` and `List-Unsubscribe-Post` as written) and its thread (Message-ID,
//! `In-Reply-To`, `References`, subject, recipients), for the inbox the digest reads and for
//! the owner's sent mail.
//!
//! The refresh job writes one row per message it parses ([`record`]) and forgets them with
//! the cache's rows ([`forget`]; sent mail by age, [`forget_before`]); the web service reads them to offer unsubscribes
//! ([`unsubscribe_headers`]) and to tell which conversations wait for a reply ([`since`]).

use std::collections::{HashMap, HashSet};

use rusqlite::{Connection, params};

/// Where a message was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Folder {
    /// The digest's source.
    Inbox,
    /// The owner's sent mail.
    Sent,
}

impl Folder {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Inbox => "inbox",
            Self::Sent => "sent",
        }
    }
}

/// One message's facts.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MailFact {
    /// The digest item's id (Message-ID without angle brackets, else a hash).
    pub message_id: String,
    /// Lower-cased sender address.
    pub sender: String,
    /// To and Cc addresses, lower-cased.
    pub recipients: Vec<String>,
    /// The subject.
    pub subject: String,
    /// ISO 8601 UTC without zone.
    pub sent_at: String,
    /// Message ids (without angle brackets) of `In-Reply-To`.
    pub in_reply_to: Vec<String>,
    /// Message ids (without angle brackets) of `References`.
    pub references: Vec<String>,
    /// `List-Unsubscribe` as written.
    pub list_unsubscribe: Option<String>,
    /// `List-Unsubscribe-Post` as written.
    pub list_unsubscribe_post: Option<String>,
}

/// The message ids of a `References` or `In-Reply-To` field: each `<...>` (bare words when
/// there are no angle brackets), at most 100.
pub fn message_ids(field: Option<&str>) -> Vec<String> {
    let Some(field) = field else {
        return Vec::new();
    };
    let bracketed: Vec<String> = field
        .split('<')
        .skip(1)
        .filter_map(|part| part.split_once('>').map(|(id, _)| id.trim().to_owned()))
        .filter(|id| !id.is_empty())
        .collect();
    let ids = if bracketed.is_empty() {
        field
            .split_whitespace()
            .filter(|w| w.contains('@'))
            .map(str::to_owned)
            .collect()
    } else {
        bracketed
    };
    ids.into_iter().take(100).collect()
}

/// Stores `facts` for `source` (one transaction; a message read again replaces its row).
pub fn record(
    conn: &mut Connection,
    source: &str,
    folder: Folder,
    facts: &[(String, MailFact)],
) -> rusqlite::Result<()> {
    if facts.is_empty() {
        return Ok(());
    }
    let tx = conn.transaction()?;
    {
        let mut stmt = tx.prepare_cached(
            "INSERT OR REPLACE INTO mail_facts (source, key, folder, message_id, sender,
                recipients, subject, sent_at, in_reply_to, refs, list_unsubscribe,
                list_unsubscribe_post)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
        )?;
        for (key, f) in facts {
            stmt.execute(params![
                source,
                key,
                folder.as_str(),
                f.message_id,
                f.sender,
                f.recipients.join(" "),
                f.subject,
                f.sent_at,
                f.in_reply_to.join(" "),
                f.references.join(" "),
                f.list_unsubscribe,
                f.list_unsubscribe_post,
            ])?;
        }
    }
    tx.commit()
}

/// The keys of `source` that have facts (a cached message without them is read again once,
/// so a store from before this table gets them).
pub fn keys(conn: &Connection, source: &str) -> rusqlite::Result<HashSet<String>> {
    let mut stmt = conn.prepare_cached("SELECT key FROM mail_facts WHERE source = ?1")?;
    stmt.query_map([source], |r| r.get(0))?.collect()
}

/// Forgets the facts of `keys` of `source` (the cache rows forgotten with them).
pub fn forget(conn: &Connection, source: &str, keys: &[String]) -> rusqlite::Result<()> {
    let mut stmt = conn.prepare_cached("DELETE FROM mail_facts WHERE source = ?1 AND key = ?2")?;
    for key in keys {
        stmt.execute(params![source, key])?;
    }
    Ok(())
}

/// Forgets the facts of `folder` messages sent before `before` (ISO 8601).
pub fn forget_before(conn: &Connection, folder: Folder, before: &str) -> rusqlite::Result<usize> {
    conn.execute(
        "DELETE FROM mail_facts WHERE folder = ?1 AND sent_at < ?2",
        params![folder.as_str(), before],
    )
}

/// A message's `(List-Unsubscribe, List-Unsubscribe-Post)` as written.
pub type UnsubscribeHeaders = (Option<String>, Option<String>);

/// Per message id, the newest [`UnsubscribeHeaders`] recorded for it in the inbox.
pub fn unsubscribe_headers(
    conn: &Connection,
    ids: &[&str],
) -> rusqlite::Result<HashMap<String, UnsubscribeHeaders>> {
    let mut out = HashMap::with_capacity(ids.len());
    let mut stmt = conn.prepare_cached(
        "SELECT list_unsubscribe, list_unsubscribe_post FROM mail_facts
         WHERE message_id = ?1 AND folder = 'inbox' ORDER BY sent_at DESC LIMIT 1",
    )?;
    for id in ids {
        let row = stmt
            .query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))?
            .next()
            .transpose()?;
        if let Some(row) = row {
            out.insert((*id).to_owned(), row);
        }
    }
    Ok(out)
}

/// Per message id, when the inbox's newest copy of it was sent (ISO 8601 UTC without zone).
pub fn sent_times(conn: &Connection, ids: &[&str]) -> rusqlite::Result<HashMap<String, String>> {
    let mut out = HashMap::with_capacity(ids.len());
    let mut stmt = conn.prepare_cached(
        "SELECT MAX(sent_at) FROM mail_facts WHERE message_id = ?1 AND folder = 'inbox'",
    )?;
    for id in ids {
        let at: Option<String> = stmt.query_row([id], |r| r.get(0))?;
        if let Some(at) = at {
            out.insert((*id).to_owned(), at);
        }
    }
    Ok(out)
}

/// Every message of `folder` sent at or after `since` (ISO 8601), oldest first.
pub fn since(conn: &Connection, folder: Folder, since: &str) -> rusqlite::Result<Vec<MailFact>> {
    let mut stmt = conn.prepare_cached(
        "SELECT message_id, sender, recipients, subject, sent_at, in_reply_to, refs,
                list_unsubscribe, list_unsubscribe_post
         FROM mail_facts WHERE folder = ?1 AND sent_at >= ?2 ORDER BY sent_at, message_id",
    )?;
    let split = |s: String| -> Vec<String> { s.split_whitespace().map(str::to_owned).collect() };
    stmt.query_map(params![folder.as_str(), since], |r| {
        Ok(MailFact {
            message_id: r.get(0)?,
            sender: r.get(1)?,
            recipients: split(r.get(2)?),
            subject: r.get(3)?,
            sent_at: r.get(4)?,
            in_reply_to: split(r.get(5)?),
            references: split(r.get(6)?),
            list_unsubscribe: r.get(7)?,
            list_unsubscribe_post: r.get(8)?,
        })
    })?
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_ids_read_brackets_then_bare_words() {
        assert_eq!(
            message_ids(Some("<a@x> <b@y>\t<c@z>")),
            vec!["a@x", "b@y", "c@z"]
        );
        assert_eq!(message_ids(Some("a@x b@y")), vec!["a@x", "b@y"]);
        assert!(message_ids(Some("")).is_empty());
        assert!(message_ids(None).is_empty());
    }

    #[test]
    fn facts_round_trip_and_are_forgotten_when_old() {
        let dir = tempfile::tempdir().unwrap();
        let mut conn = crate::store::open(dir.path()).unwrap();
        let fact = MailFact {
            message_id: "m1@x".into(),
            sender: "news@shop.example".into(),
            recipients: vec!["dana@example.com".into()],
            subject: "Deals".into(),
            sent_at: "2026-11-20T10:00:00".into(),
            in_reply_to: vec![],
            references: vec!["r@x".into()],
            list_unsubscribe: Some("<https://shop.example/u>".into()),
            list_unsubscribe_post: Some("List-Unsubscribe=One-Click".into()),
        };
        record(
            &mut conn,
            "src",
            Folder::Inbox,
            &[("k1".into(), fact.clone())],
        )
        .unwrap();
        assert_eq!(
            keys(&conn, "src").unwrap(),
            HashSet::from(["k1".to_owned()])
        );
        assert_eq!(
            since(&conn, Folder::Inbox, "2026-11-01").unwrap(),
            vec![fact.clone()]
        );
        assert!(since(&conn, Folder::Sent, "2026-11-01").unwrap().is_empty());
        let headers = unsubscribe_headers(&conn, &["m1@x", "other"]).unwrap();
        assert_eq!(
            headers["m1@x"],
            (
                fact.list_unsubscribe.clone(),
                fact.list_unsubscribe_post.clone()
            )
        );
        assert_eq!(headers.len(), 1);
        assert_eq!(
            sent_times(&conn, &["m1@x", "other"]).unwrap(),
            HashMap::from([("m1@x".to_owned(), fact.sent_at.clone())])
        );
        assert_eq!(forget_before(&conn, Folder::Sent, "2026-11-21").unwrap(), 0);
        forget(&conn, "src", &["k1".to_owned()]).unwrap();
        assert!(keys(&conn, "src").unwrap().is_empty());
    }
}
