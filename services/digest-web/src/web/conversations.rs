//! "Waiting for a reply", in both directions, from the run store's `mail_facts` (the inbox
//! and the owner's sent mail, see `job::acting`):
//!
//! - each Need-Action email of the digest is **answered** when the owner sent mail in its
//!   conversation after it ([`Replies`]);
//! - a message the owner sent to start a conversation (no thread headers, no `Re:`) is
//!   **waiting** when nobody else wrote in that conversation within `DIGEST_WAITING_DAYS`
//!   days ([`Waiting`]); the owner's own answers wait for nothing.
//!
//! A conversation is what the thread headers join: a message and every id in its
//! `In-Reply-To` and `References` (union-find over message ids). A message with neither
//! header joins by subject instead: the same subject once `Re:`/`Fwd:`-style prefixes and
//! `[tags]` are dropped, between the same two people (the answer's sender among the other's
//! recipients, or the other way round), as mail clients that drop the headers still keep
//! the subject.
//!
//! Who the owner is: `DIGEST_OWNER_ADDRESSES`, plus every sender of the sent mail read
//! (`DIGEST_SENT_SOURCE`). Without sent mail nothing is marked answered or waiting, and the
//! page says how to turn it on.

use std::collections::{HashMap, HashSet};

use chrono::{Duration, NaiveDateTime};
use domain::email::{Category, Digest};
use rusqlite::Connection;
use serde::Serialize;

use crate::store::mail_facts::{self, Folder, MailFact};
use crate::store::queries;
use crate::web::unsubscribe::Unsubscriber;

/// Most messages listed as waiting.
pub const MAX_WAITING: usize = 50;

/// Per email id, the marks shown beside it (`unsubscribed on 2026-11-27`, `answered`).
pub type Marks = std::collections::HashMap<String, Vec<Mark>>;

/// One mark on an email: its CSS class and its text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mark {
    /// `unsubscribed`, `answered` or `unanswered`.
    pub class: &'static str,
    /// What it says.
    pub text: String,
}

/// What the digest page shows for acting on mail: the unsubscribe panel and the list of the
/// owner's messages waiting for a reply.
#[derive(Debug, Default, Serialize)]
pub struct ActingPanel {
    /// The Newsletter and Promotional senders.
    pub senders: Vec<crate::web::unsubscribe::Sender>,
    /// Why `mailto:` unsubscribes are off, when they are.
    pub smtp_off_reason: Option<String>,
    /// `(css class, text)` after an unsubscribe from the form.
    pub notice: Option<(String, String)>,
    /// The owner's messages with no answer after `waiting_days`.
    pub waiting: Vec<Waiting>,
    /// `DIGEST_WAITING_DAYS`.
    pub waiting_days: u32,
    /// Whether any sent mail was read (else the page says how to turn it on).
    pub sent_mail_read: bool,
}

/// Whether the owner answered one Need-Action email.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Reply {
    /// Whether the owner sent mail in its conversation after it.
    pub answered: bool,
    /// When the first such mail was sent (ISO 8601 UTC without zone).
    pub answered_at: Option<String>,
}

/// Per Need-Action email id.
pub type Replies = HashMap<String, Reply>;

/// A message the owner sent that got no answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Waiting {
    /// Its Message-ID (without angle brackets).
    pub id: String,
    /// Its subject.
    pub subject: String,
    /// Who it went to.
    pub to: Vec<String>,
    /// When it was sent (ISO 8601 UTC without zone).
    pub sent_at: String,
    /// Whole days since.
    pub days: i64,
}

/// Everything the dashboard shows about conversations.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Conversations {
    /// Whether any sent mail has been read.
    pub sent_mail_read: bool,
    /// The Need-Action emails' replies.
    pub replies: Replies,
    /// The owner's unanswered messages, oldest first.
    pub waiting: Vec<Waiting>,
}

impl Conversations {
    /// Counts for `/api/metrics`.
    pub fn counts(&self, waiting_days: u32) -> serde_json::Value {
        let answered = self.replies.values().filter(|r| r.answered).count();
        serde_json::json!({
            "sent_mail_read": self.sent_mail_read,
            "need_action": self.replies.len(),
            "answered": answered,
            "unanswered": self.replies.len() - answered,
            "waiting": self.waiting.len(),
            "waiting_days": waiting_days,
        })
    }
}

/// A subject with reply and forward prefixes (in the languages mail clients write them) and
/// `[list tags]` dropped, lower-cased, whitespace collapsed.
pub fn thread_subject(subject: &str) -> String {
    let mut s = subject.trim();
    loop {
        let before = s;
        if let Some(rest) = s.strip_prefix('[')
            && let Some(end) = rest.find(']')
        {
            s = rest[end + 1..].trim_start();
        }
        if let Some(rest) = strip_reply_prefix(s) {
            s = rest;
        }
        if s == before {
            break;
        }
    }
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Reply and forward prefixes, in the languages mail clients write them.
const PREFIXES: &[&str] = &[
    "re", "fw", "fwd", "aw", "wg", "sv", "vs", "r", "rif", "tr", "ref", "antw", "odp", "res",
    "enc", "回复", "转发", "答复",
];

/// `subject` after one leading reply or forward prefix (`Re:`, `AW:`, `Re[2]:`, `回复：`), or
/// `None` when it has none.
fn strip_reply_prefix(subject: &str) -> Option<&str> {
    let colon = subject.find([':', '：']).filter(|&c| c <= 9)?;
    let word = subject[..colon].trim().to_lowercase();
    let word = word.trim_end_matches(|c: char| c.is_ascii_digit() || c == '[' || c == ']');
    PREFIXES.contains(&word).then(|| {
        let width = subject[colon..].chars().next().map_or(1, char::len_utf8);
        subject[colon + width..].trim_start()
    })
}

/// Whether the owner's message starts a conversation: no thread headers and no reply or
/// forward prefix. Only those wait for a reply (an answer the owner gave waits for nothing).
fn starts_conversation(m: &MailFact) -> bool {
    m.in_reply_to.is_empty()
        && m.references.is_empty()
        && strip_reply_prefix(m.subject.trim()).is_none()
}

/// Union-find over message ids.
#[derive(Default)]
struct Threads {
    parent: HashMap<String, String>,
}

impl Threads {
    fn root(&mut self, id: &str) -> String {
        let mut at = id.to_owned();
        let mut path = Vec::new();
        while let Some(p) = self.parent.get(&at) {
            if *p == at {
                break;
            }
            path.push(at.clone());
            at = p.clone();
        }
        for node in path {
            self.parent.insert(node, at.clone());
        }
        self.parent.entry(at.clone()).or_insert_with(|| at.clone());
        at
    }

    fn join(&mut self, a: &str, b: &str) {
        let (ra, rb) = (self.root(a), self.root(b));
        if ra != rb {
            self.parent.insert(ra, rb);
        }
    }
}

fn parse_time(text: &str) -> Option<NaiveDateTime> {
    NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S").ok()
}

/// Whether `later` answers `earlier` by subject alone: neither names the other in its thread
/// headers, same thread subject (each message's [`thread_subject`], worked out by the
/// caller), between the same two people.
fn same_by_subject(
    earlier: &MailFact,
    earlier_subject: &str,
    later: &MailFact,
    later_subject: &str,
) -> bool {
    later.in_reply_to.is_empty()
        && later.references.is_empty()
        && !later_subject.is_empty()
        && earlier_subject == later_subject
        && (later.recipients.contains(&earlier.sender)
            || earlier.recipients.contains(&later.sender))
}

/// Reads the conversations of `digest`'s Need-Action emails and of the owner's sent mail.
pub fn read(
    digest: &Digest,
    conn: &Connection,
    owners: &[String],
    waiting_days: u32,
    now: NaiveDateTime,
) -> rusqlite::Result<Conversations> {
    let since = queries::format_time(now - Duration::days(crate::store::RETENTION_DAYS));
    let sent = mail_facts::since(conn, Folder::Sent, &since)?;
    let mut out = Conversations {
        sent_mail_read: !sent.is_empty(),
        ..Conversations::default()
    };
    let need_action = digest
        .categories
        .get(&Category::NeedAction)
        .into_iter()
        .flatten();
    if sent.is_empty() {
        // Nothing was answered and nothing waits; the inbox need not be read (every page
        // view comes here).
        out.replies = need_action
            .map(|item| {
                let reply = Reply {
                    answered: false,
                    answered_at: None,
                };
                (item.id.clone(), reply)
            })
            .collect();
        return Ok(out);
    }
    let inbox = mail_facts::since(conn, Folder::Inbox, &since)?;
    let mut owner: HashSet<String> = owners.iter().map(|a| a.to_ascii_lowercase()).collect();
    owner.extend(sent.iter().map(|m| m.sender.clone()));

    let mut threads = Threads::default();
    for m in sent.iter().chain(&inbox) {
        for other in m.in_reply_to.iter().chain(&m.references) {
            threads.join(&m.message_id, other);
        }
    }
    let by_id: HashMap<&str, &MailFact> =
        inbox.iter().map(|m| (m.message_id.as_str(), m)).collect();
    // Each message's conversation and thread subject, worked out once: every page view comes
    // here, and comparing each sent message with each inbox message afresh cost seconds on a
    // store of 10,000 messages (docs/benchmarks.md).
    let sent_roots: Vec<String> = sent.iter().map(|m| threads.root(&m.message_id)).collect();
    let sent_subjects: Vec<String> = sent.iter().map(|m| thread_subject(&m.subject)).collect();

    // Need-Action emails: answered by a later sent message of the same conversation.
    for item in need_action {
        let reply = by_id.get(item.id.as_str()).and_then(|asked| {
            let root = threads.root(&asked.message_id);
            let subject = thread_subject(&asked.subject);
            // A message naming it in its thread headers answers it whatever the clocks say
            // (a Date-less message takes its delivery time); otherwise a later one of its
            // conversation does.
            sent.iter()
                .enumerate()
                .find(|&(i, m)| {
                    m.in_reply_to.contains(&asked.message_id)
                        || m.references.contains(&asked.message_id)
                        || (m.sent_at >= asked.sent_at
                            && (sent_roots[i] == root
                                || same_by_subject(asked, &subject, m, &sent_subjects[i])))
                })
                .map(|(_, m)| m.sent_at.clone())
        });
        out.replies.insert(
            item.id.clone(),
            Reply {
                answered: reply.is_some(),
                answered_at: reply,
            },
        );
    }

    // What others wrote, indexed: the ids they name in thread headers, their messages per
    // conversation, and those without thread headers per thread subject.
    let others: Vec<&MailFact> = inbox
        .iter()
        .filter(|r| !owner.contains(&r.sender))
        .collect();
    let named: HashSet<&str> = others
        .iter()
        .flat_map(|r| r.in_reply_to.iter().chain(&r.references))
        .map(String::as_str)
        .collect();
    let mut by_root: HashMap<String, Vec<&MailFact>> = HashMap::new();
    let mut by_subject: HashMap<String, Vec<&MailFact>> = HashMap::new();
    for r in &others {
        by_root
            .entry(threads.root(&r.message_id))
            .or_default()
            .push(r);
        let subject = thread_subject(&r.subject);
        if r.in_reply_to.is_empty() && r.references.is_empty() && !subject.is_empty() {
            by_subject.entry(subject).or_default().push(r);
        }
    }

    // The conversations the owner started: waiting when nothing from someone else came later
    // in them and they are old enough.
    let cutoff = now - Duration::days(i64::from(waiting_days));
    let mut waiting: Vec<Waiting> = sent
        .iter()
        .enumerate()
        .filter(|(_, m)| starts_conversation(m))
        .filter(|(_, m)| m.recipients.iter().any(|r| !owner.contains(r)))
        .filter_map(|(i, m)| {
            let at = parse_time(&m.sent_at)?;
            if at > cutoff {
                return None;
            }
            let later = |r: &MailFact| r.sent_at >= m.sent_at && r.message_id != m.message_id;
            let answered = named.contains(m.message_id.as_str())
                || by_root
                    .get(&sent_roots[i])
                    .is_some_and(|rs| rs.iter().any(|r| later(r)))
                || by_subject.get(&sent_subjects[i]).is_some_and(|rs| {
                    let subject = &sent_subjects[i];
                    rs.iter()
                        .any(|r| later(r) && same_by_subject(m, subject, r, subject))
                });
            (!answered).then(|| Waiting {
                id: m.message_id.clone(),
                subject: m.subject.clone(),
                to: m
                    .recipients
                    .iter()
                    .filter(|r| !owner.contains(*r))
                    .cloned()
                    .collect(),
                sent_at: m.sent_at.clone(),
                days: (now - at).num_days(),
            })
        })
        .collect();
    waiting.sort_by(|a, b| a.sent_at.cmp(&b.sent_at).then_with(|| a.id.cmp(&b.id)));
    waiting.truncate(MAX_WAITING);
    out.waiting = waiting;
    Ok(out)
}

/// The page's acting panel and the marks on its emails. `owners` and `waiting_days` are the
/// settings of the same names.
pub fn panel(
    unsubscriber: &Unsubscriber,
    owners: &[String],
    waiting_days: u32,
    digest: &Digest,
    conn: &Connection,
    unsubscribe_notice: Option<&str>,
) -> rusqlite::Result<(ActingPanel, Marks)> {
    let senders = crate::web::unsubscribe::senders(digest, conn, unsubscriber)?;
    let conversations = read(digest, conn, owners, waiting_days, queries::now())?;
    let mut marks = Marks::new();
    for (id, text) in crate::web::unsubscribe::marks(digest, conn)? {
        marks.entry(id).or_default().push(Mark {
            class: "unsubscribed",
            text,
        });
    }
    if conversations.sent_mail_read {
        for (id, reply) in &conversations.replies {
            let mark = match &reply.answered_at {
                Some(at) => Mark {
                    class: "answered",
                    text: format!("answered on {}", at.get(..10).unwrap_or(at)),
                },
                None => Mark {
                    class: "unanswered",
                    text: "not answered yet".into(),
                },
            };
            marks.entry(id.clone()).or_default().push(mark);
        }
    }
    let panel = ActingPanel {
        senders,
        smtp_off_reason: unsubscriber.smtp_off().map(str::to_owned),
        notice: unsubscribe_notice.and_then(|n| crate::web::unsubscribe::notice(conn, n)),
        sent_mail_read: conversations.sent_mail_read,
        waiting: conversations.waiting,
        waiting_days,
    };
    Ok((panel, marks))
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::email::EmailItem;

    #[test]
    fn thread_subjects_drop_prefixes_and_tags() {
        for (subject, want) in [
            ("Re: Budget  Q3", "budget q3"),
            ("RE: Fwd: AW: Budget Q3", "budget q3"),
            ("[ops] Re: Budget Q3", "budget q3"),
            ("Re[2]: Budget Q3", "budget q3"),
            ("回复：Budget Q3", "budget q3"),
            ("Budget: Q3", "budget: q3"),
        ] {
            assert_eq!(thread_subject(subject), want, "{subject}");
        }
    }

    fn fact(
        id: &str,
        from: &str,
        to: &str,
        subject: &str,
        at: &str,
        reply_to: &[&str],
    ) -> MailFact {
        MailFact {
            message_id: id.into(),
            sender: from.into(),
            recipients: vec![to.into()],
            subject: subject.into(),
            sent_at: at.into(),
            in_reply_to: reply_to.iter().map(|s| (*s).to_owned()).collect(),
            references: reply_to.iter().map(|s| (*s).to_owned()).collect(),
            ..MailFact::default()
        }
    }

    fn digest(need_action: &[&str]) -> Digest {
        let mut d = Digest::empty("2026-11-27T00:00:00");
        d.categories.insert(
            Category::NeedAction,
            need_action
                .iter()
                .map(|id| EmailItem {
                    id: (*id).into(),
                    subject: "s".into(),
                    from: "boss@example.com".into(),
                    date: "2026-11-20".into(),
                    snippet: String::new(),
                    reasons: vec![],
                })
                .collect(),
        );
        d
    }

    #[test]
    fn replies_and_waiting_follow_headers_and_subjects() {
        let dir = tempfile::tempdir().unwrap();
        let mut conn = crate::store::open(dir.path()).unwrap();
        let me = "dana@example.com";
        let inbox = [
            // asked, answered by header
            fact(
                "q1@x",
                "boss@example.com",
                me,
                "Approve budget",
                "2026-11-20T09:00:00",
                &[],
            ),
            // asked, answered by subject only
            fact(
                "q2@x",
                "cfo@example.com",
                me,
                "Sign the form",
                "2026-11-20T10:00:00",
                &[],
            ),
            // asked, not answered
            fact(
                "q3@x",
                "hr@example.com",
                me,
                "Review policy",
                "2026-11-20T11:00:00",
                &[],
            ),
            // an answer to the owner's first question
            fact(
                "a1@x",
                "vendor@example.org",
                me,
                "Re: Quote?",
                "2026-11-22T08:00:00",
                &["s1@me"],
            ),
        ];
        let sent = [
            fact(
                "r1@me",
                me,
                "boss@example.com",
                "Re: Approve budget",
                "2026-11-20T12:00:00",
                &["q1@x"],
            ),
            fact(
                "r2@me",
                me,
                "cfo@example.com",
                "RE: Sign the form",
                "2026-11-21T12:00:00",
                &[],
            ),
            // the owner's questions: one answered, one waiting, one too recent
            fact(
                "s1@me",
                me,
                "vendor@example.org",
                "Quote?",
                "2026-11-21T08:00:00",
                &[],
            ),
            fact(
                "s2@me",
                me,
                "lawyer@example.net",
                "Contract draft",
                "2026-11-21T09:00:00",
                &[],
            ),
            fact(
                "s3@me",
                me,
                "ops@example.net",
                "Tomorrow?",
                "2026-11-25T09:00:00",
                &[],
            ),
            // to the owner alone: never waiting
            fact("s4@me", me, me, "Note to self", "2026-11-20T09:00:00", &[]),
        ];
        let rows = |f: &[MailFact]| {
            f.iter()
                .map(|m| (m.message_id.clone(), m.clone()))
                .collect::<Vec<_>>()
        };
        mail_facts::record(&mut conn, "in", Folder::Inbox, &rows(&inbox)).unwrap();
        let now = parse_time("2026-11-27T00:00:00").unwrap();
        let d = digest(&["q1@x", "q2@x", "q3@x"]);

        let before = read(&d, &conn, &[], 3, now).unwrap();
        assert!(!before.sent_mail_read);
        assert!(before.replies.values().all(|r| !r.answered));

        mail_facts::record(&mut conn, "sent", Folder::Sent, &rows(&sent)).unwrap();
        let c = read(&d, &conn, &[], 3, now).unwrap();
        assert!(c.sent_mail_read);
        assert_eq!(
            c.replies["q1@x"].answered_at.as_deref(),
            Some("2026-11-20T12:00:00")
        );
        assert_eq!(
            c.replies["q2@x"].answered_at.as_deref(),
            Some("2026-11-21T12:00:00")
        );
        assert!(!c.replies["q3@x"].answered);
        let waiting: Vec<&str> = c.waiting.iter().map(|w| w.id.as_str()).collect();
        assert_eq!(waiting, vec!["s2@me"], "{c:?}");
        assert_eq!(c.waiting[0].to, vec!["lawyer@example.net"]);
        assert_eq!(c.waiting[0].days, 5);
        // with a shorter wait the recent one waits too
        let c = read(&d, &conn, &[], 1, now).unwrap();
        assert_eq!(c.waiting.len(), 2);
        assert_eq!(c.counts(1)["answered"], 2);
    }
}
