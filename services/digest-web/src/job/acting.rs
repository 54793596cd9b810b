//! What the job records for acting on mail from the dashboard: per message read, its
//! unsubscribe headers and thread headers ([`fact_of`], stored in the run store's
//! `mail_facts`), and the owner's sent mail ([`read_sent`]), from which the dashboard tells
//! which conversations are answered and which of the owner's messages wait for a reply.

use chrono::{DateTime, Duration, Utc};
use rusqlite::Connection;

use super::RefreshOptions;
use super::mail::imap::ImapMailbox;
use super::mail::local::LocalMailbox;
use super::mail::{MailError, MailSource, ParsedEmail, parse_or_salvage};
use crate::store::mail_facts::{self, Folder, MailFact, message_ids};
use crate::store::queries;
use crate::store::runs::ErrorRecord;

/// ISO 8601 UTC without zone, as the run store keeps times.
fn iso(t: DateTime<Utc>) -> String {
    queries::format_time(t.naive_utc())
}

/// The facts of one parsed message.
pub fn fact_of(parsed: &ParsedEmail) -> MailFact {
    let acting = &parsed.acting;
    MailFact {
        message_id: parsed.message.id.clone(),
        sender: parsed.message.from.clone(),
        recipients: acting.recipients.clone(),
        subject: parsed.message.subject.clone(),
        sent_at: iso(parsed.received_at),
        in_reply_to: message_ids(acting.in_reply_to.as_deref()),
        references: message_ids(acting.references.as_deref()),
        list_unsubscribe: acting.list_unsubscribe.clone(),
        list_unsubscribe_post: acting.list_unsubscribe_post.clone(),
    }
}

/// The sent mail to read: `DIGEST_SENT_SOURCE` when set, else the Maildir++ `.Sent` folder of
/// a Maildir source when it exists, else none.
pub fn sent_source(options: &RefreshOptions) -> Option<MailSource> {
    if let Some(source) = &options.sent_source {
        return Some(source.clone());
    }
    match &options.source {
        MailSource::Maildir(root) => {
            let sent = root.join(".Sent");
            sent.join("cur")
                .is_dir()
                .then_some(MailSource::Maildir(sent))
        }
        _ => None,
    }
}

/// What reading the sent mail did.
#[derive(Debug, Default)]
pub struct SentReport {
    /// Messages parsed this run (the rest were read before).
    pub parsed: usize,
    /// IMAP fetch commands.
    pub api_calls: u64,
}

/// Reads the owner's sent mail of the last [`RETENTION_DAYS`](crate::store::RETENTION_DAYS) days into `mail_facts`
/// (folder `sent`), parsing only messages not read before. A failure is the caller's to
/// record as a warning: the digest does not depend on it.
pub fn read_sent(
    conn: &mut Connection,
    options: &RefreshOptions,
    source: &MailSource,
    now: DateTime<Utc>,
    errors: &mut Vec<ErrorRecord>,
) -> Result<SentReport, MailError> {
    let identity = format!("sent|{}", source.cache_identity());
    let since = now - Duration::days(crate::store::RETENTION_DAYS);
    let known = mail_facts::keys(conn, &identity).unwrap_or_default();
    let mut facts: Vec<(String, MailFact)> = Vec::new();
    let mut report = SentReport::default();
    let mut take = |key: &str, bytes: &[u8], delivered_at, errors: &mut Vec<ErrorRecord>| {
        match parse_or_salvage(bytes, delivered_at) {
            Ok(parsed) => facts.push((key.to_owned(), fact_of(&parsed))),
            Err(e) => errors.push(ErrorRecord {
                module: "mail.sent".into(),
                error_type: e.kind().into(),
                message: format!("sent message {key} skipped: {e}"),
                traceback: None,
            }),
        }
    };
    match source {
        MailSource::Imap(url) => {
            let mut imap = ImapMailbox::open(
                url,
                options.imap_auth.as_ref(),
                Some(since),
                options.max_emails.max(1000),
            )?;
            let misses: Vec<usize> = imap
                .entries()
                .iter()
                .enumerate()
                .filter(|(_, e)| !known.contains(&e.key))
                .map(|(i, _)| i)
                .collect();
            let keys: Vec<String> = imap.entries().iter().map(|e| e.key.clone()).collect();
            for batch in misses.chunks(super::mail::imap::FETCH_BATCH) {
                for fetched in imap.fetch(batch)? {
                    take(
                        &keys[fetched.index],
                        &fetched.bytes,
                        fetched.delivered_at,
                        errors,
                    );
                }
            }
            report.api_calls = imap.fetch_commands;
            imap.close();
        }
        local => {
            let mailbox = LocalMailbox::open_keeping(local, &|key| !known.contains(key))?;
            for (index, entry) in mailbox.entries().iter().enumerate() {
                if known.contains(&entry.key)
                    || entry
                        .delivered_at
                        .is_some_and(|d| d < since - Duration::days(1))
                {
                    continue;
                }
                match mailbox.load(index) {
                    Ok(bytes) => take(&entry.key, &bytes, entry.delivered_at, errors),
                    Err(e) => errors.push(ErrorRecord {
                        module: "mail.sent".into(),
                        error_type: "MessageUnreadable".into(),
                        message: format!("sent message {} skipped: {e}", entry.key),
                        traceback: None,
                    }),
                }
            }
        }
    }
    report.parsed = facts.len();
    let db = |e: rusqlite::Error| MailError::Local {
        kind: "run store",
        path: options.data_dir.display().to_string(),
        source: std::io::Error::other(e),
    };
    mail_facts::record(conn, &identity, Folder::Sent, &facts).map_err(db)?;
    mail_facts::forget_before(conn, Folder::Sent, &iso(since)).map_err(db)?;
    Ok(report)
}
