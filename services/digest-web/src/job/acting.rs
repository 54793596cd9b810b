//! What the job records for acting on mail from the dashboard: per message read, its
//! unsubscribe headers and thread headers ([`fact_of`], stored in the run store's
//! `mail_facts`), and the owner's sent mail ([`read_sent`]), from which the dashboard tells
//! which conversations are answered and which of the owner's messages wait for a reply.

use chrono::{DateTime, Utc};

use super::mail::ParsedEmail;
use crate::store::mail_facts::{MailFact, message_ids};

/// ISO 8601 UTC without zone, as the run store keeps times.
pub fn iso(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%dT%H:%M:%S").to_string()
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
