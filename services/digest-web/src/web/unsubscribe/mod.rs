//! Unsubscribing from the dashboard: per sender of Newsletter and Promotional mail in the
//! digest, how many messages came and whether (and how) it can be unsubscribed
//! ([`senders`]); one confirmed click carries it out ([`Unsubscriber::carry_out`]) and the
//! run store keeps who, when, how and the answer (`store::unsubscribes`).
//!
//! - [`header`]: `List-Unsubscribe` / `List-Unsubscribe-Post` → the one [`header::Method`]
//!   used (RFC 8058 one-click POST to an https URI, else `mailto:`), or why none is.
//! - [`address`]: which IP addresses may be contacted (public ones, plus the allowlist).
//! - [`send`]: the POST (pinned address, no redirects, no proxy, short time-out) and the
//!   SMTP message (`SMTP_URL`).
//!
//! Never done: a GET of an http(s) link (what a "click here to unsubscribe" link expects), as
//! it is what a crawler or a hostile sender could use to confirm an address or reach inside
//! the network.

pub mod address;
pub mod header;
pub mod send;

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use domain::email::{Category, Digest};
use rusqlite::Connection;
use serde::Serialize;

use crate::store::mail_facts;
use crate::store::unsubscribes::{self, Unsubscribe};
use address::Allowlist;
use header::Method;
use send::{Answer, OneClick, Refused, Smtp};

/// The categories whose senders are offered an unsubscribe.
pub const CATEGORIES: [Category; 2] = [Category::Newsletter, Category::Promotional];

/// The unsubscribe settings (see docs/configuration.md).
#[derive(Debug, Clone, Default)]
pub struct UnsubscribeSettings {
    /// `SMTP_URL`: the server `mailto:` unsubscribes go through; `None`: off.
    pub smtp_url: Option<SmtpUrl>,
    /// `DIGEST_UNSUBSCRIBE_FROM`, else the first owner address: the sender of `mailto:`
    /// unsubscribes.
    pub from: Option<String>,
    /// `DIGEST_UNSUBSCRIBE_ALLOW`: networks opened on top of public addresses.
    pub allow: Allowlist,
    /// `DIGEST_UNSUBSCRIBE_CA_FILE`: extra trusted CA certificates (PEM).
    pub ca_file: Option<PathBuf>,
    /// `DIGEST_UNSUBSCRIBE_TIMEOUT_SECS`: per connection, request and SMTP command.
    pub timeout: Duration,
}

/// `SMTP_URL` (it may carry a password): kept out of `Debug` output and logs.
#[derive(Clone, PartialEq, Eq)]
pub struct SmtpUrl(pub String);

impl std::fmt::Debug for SmtpUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SmtpUrl(***)")
    }
}

/// The page's notice after an unsubscribe from the form (`?unsubscribe=<id>|unknown|already|
/// refused`): `(css class, text)`.
pub fn notice(conn: &Connection, value: &str) -> Option<(String, String)> {
    let fixed = |class: &str, text: &str| Some((class.to_owned(), text.to_owned()));
    match value {
        "unknown" => fixed(
            "error",
            "That sender sent no Newsletter or Promotional mail in the digest.",
        ),
        "already" => fixed("error", "That sender was already unsubscribed."),
        "refused" => fixed(
            "error",
            "That sender cannot be unsubscribed here: see the reason beside it (also in Recent errors).",
        ),
        id => {
            let u = unsubscribes::get(conn, id.parse().ok()?).ok()??;
            Some(if u.done() {
                (
                    "success".into(),
                    format!(
                        "Unsubscribed from {} ({}: {}).",
                        u.sender, u.method, u.answer
                    ),
                )
            } else {
                (
                    "error".into(),
                    format!(
                        "Unsubscribing from {} failed ({}: {}).",
                        u.sender, u.method, u.answer
                    ),
                )
            })
        }
    }
}

/// What carries unsubscribes out; built once at start-up.
pub struct Unsubscriber {
    /// Held from the check that a sender is not yet unsubscribed to the row recording it, so
    /// two clicks at once unsubscribe once (the second is told it is done).
    pub one_at_a_time: tokio::sync::Mutex<()>,
    one_click: Result<OneClick, String>,
    smtp: Result<Smtp, String>,
    allow: Allowlist,
}

impl Unsubscriber {
    /// From the settings. A part that cannot be set up is off, with its reason (logged, and
    /// shown on the page).
    pub fn new(settings: &UnsubscribeSettings) -> Self {
        let ca = settings
            .ca_file
            .as_ref()
            .map(|path| {
                std::fs::read(path).map_err(|e| {
                    format!(
                        "DIGEST_UNSUBSCRIBE_CA_FILE {} unreadable: {e}",
                        path.display()
                    )
                })
            })
            .transpose();
        let one_click = ca
            .and_then(|ca| OneClick::new(ca.as_deref(), settings.allow.clone(), settings.timeout));
        let smtp = match (&settings.smtp_url, &settings.from) {
            (None, _) => Err("SMTP_URL is not set, so mailto: unsubscribes are off".to_owned()),
            (Some(_), None) => Err(
                "no sender address for mailto: unsubscribes: set DIGEST_UNSUBSCRIBE_FROM or DIGEST_OWNER_ADDRESSES"
                    .to_owned(),
            ),
            (Some(url), Some(from)) => Smtp::new(&url.0, from, settings.timeout),
        };
        for e in [one_click.as_ref().err(), smtp.as_ref().err()]
            .into_iter()
            .flatten()
        {
            tracing::warn!(reason = %e, "unsubscribe: a method is off");
        }
        Self {
            one_at_a_time: tokio::sync::Mutex::new(()),
            one_click,
            smtp,
            allow: settings.allow.clone(),
        }
    }

    /// Why `mailto:` unsubscribes are off, or `None` when they are on.
    pub fn smtp_off(&self) -> Option<&str> {
        self.smtp.as_ref().err().map(String::as_str)
    }

    /// The method for one message's headers, or why there is none usable here.
    pub fn plan(
        &self,
        list_unsubscribe: Option<&str>,
        post: Option<&str>,
    ) -> Result<Method, String> {
        let method = header::parse(list_unsubscribe, post, &self.allow)?;
        match (&method, &self.smtp, &self.one_click) {
            (Method::Mailto(_), Err(why), _) => Err(format!("offers only mailto:, and {why}")),
            (Method::OneClick(_), _, Err(why)) => Err(format!("one-click is off: {why}")),
            _ => Ok(method),
        }
    }

    /// Carries out `method`: the target's answer, or why it was not contacted.
    pub async fn carry_out(&self, method: &Method) -> Result<Answer, Refused> {
        match method {
            Method::OneClick(url) => match &self.one_click {
                Ok(client) => client.post(url).await,
                Err(why) => Err(Refused(why.clone())),
            },
            Method::Mailto(m) => match &self.smtp {
                Ok(smtp) => smtp.send(m).await,
                Err(why) => Err(Refused(why.clone())),
            },
        }
    }
}

/// One sender of Newsletter or Promotional mail in the digest.
#[derive(Debug, Clone, Serialize)]
pub struct Sender {
    /// The sender address (lower-cased).
    pub sender: String,
    /// The category of its newest message in the digest.
    pub category: Category,
    /// Its messages in the digest (the digest's period).
    pub count: usize,
    /// Whether one click can unsubscribe it here.
    pub can_unsubscribe: bool,
    /// `one-click` or `mailto` when it can.
    pub method: Option<&'static str>,
    /// The https URI or the mailto address, when it can.
    pub target: Option<String>,
    /// Why it cannot, when it cannot.
    pub reason: Option<String>,
    /// Its newest unsubscribe, if any was made.
    pub unsubscribed: Option<Unsubscribe>,
    /// The method itself (not shown).
    #[serde(skip)]
    pub plan: Option<Method>,
}

/// The digest's Newsletter and Promotional senders, most messages first.
pub fn senders(
    digest: &Digest,
    conn: &Connection,
    unsubscriber: &Unsubscriber,
) -> rusqlite::Result<Vec<Sender>> {
    // Per sender: category of its first (newest) item, its item ids in digest order.
    let mut order: Vec<(String, Category, Vec<&str>)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for category in CATEGORIES {
        for item in digest.categories.get(&category).into_iter().flatten() {
            let sender = item.from.to_ascii_lowercase();
            let at = *index.entry(sender.clone()).or_insert_with(|| {
                order.push((sender, category, Vec::new()));
                order.len() - 1
            });
            order[at].2.push(&item.id);
        }
    }
    if order.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<&str> = order
        .iter()
        .flat_map(|(_, _, ids)| ids.iter().copied())
        .collect();
    let headers = mail_facts::unsubscribe_headers(conn, &ids)?;
    let done = unsubscribes::latest_by_sender(conn)?;
    let mut out: Vec<Sender> = order
        .into_iter()
        .map(|(sender, category, ids)| {
            let found = ids
                .iter()
                .filter_map(|id| headers.get(*id))
                .find(|(lu, _)| lu.is_some())
                .or_else(|| ids.iter().find_map(|id| headers.get(*id)));
            let plan = match found {
                Some((lu, post)) => unsubscriber.plan(lu.as_deref(), post.as_deref()),
                None => Err("no List-Unsubscribe header was recorded for its mail".to_owned()),
            };
            let (method, target, reason, plan) = match plan {
                Ok(m) => (Some(m.name()), Some(m.target()), None, Some(m)),
                Err(why) => (None, None, Some(why), None),
            };
            Sender {
                count: ids.len(),
                can_unsubscribe: plan.is_some(),
                unsubscribed: done.get(&sender).cloned(),
                sender,
                category,
                method,
                target,
                reason,
                plan,
            }
        })
        .collect();
    out.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.sender.cmp(&b.sender)));
    Ok(out)
}

/// Per digest item id, "unsubscribed on YYYY-MM-DD" for mail its sender sent after an
/// unsubscribe from it succeeded: by the message's time as the job recorded it (its `Date`,
/// else its delivery), so mail from earlier the same day is not marked. A message with no
/// recorded time (read before the store kept it) is marked only from the next day on.
pub fn marks(digest: &Digest, conn: &Connection) -> rusqlite::Result<HashMap<String, String>> {
    let done: HashMap<String, Unsubscribe> = unsubscribes::latest_by_sender(conn)?
        .into_iter()
        .filter(|(_, u)| u.done())
        .collect();
    if done.is_empty() {
        return Ok(HashMap::new());
    }
    let theirs: Vec<(&domain::email::EmailItem, &Unsubscribe)> = digest
        .categories
        .values()
        .flatten()
        .filter_map(|item| Some((item, done.get(&item.from.to_ascii_lowercase())?)))
        .collect();
    let ids: Vec<&str> = theirs.iter().map(|(item, _)| item.id.as_str()).collect();
    let sent = mail_facts::sent_times(conn, &ids)?;
    Ok(theirs
        .into_iter()
        .filter(|(item, u)| match sent.get(&item.id) {
            Some(at) => at.as_str() >= u.created_at.as_str(),
            None => item.date.as_str() > u.day(),
        })
        .map(|(item, u)| (item.id.clone(), format!("unsubscribed on {}", u.day())))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::mail_facts::{Folder, MailFact};
    use domain::email::EmailItem;

    #[test]
    fn only_mail_sent_after_the_unsubscribe_is_marked() {
        let dir = tempfile::tempdir().unwrap();
        let mut conn = crate::store::open(dir.path()).unwrap();
        let news = "news@shop.example";
        // (id, sender, Date as recorded, digest day); the unsubscribe is at 12:00 on the 25th.
        let mail = [
            (
                "day-before@x",
                news,
                Some("2026-11-24T18:00:00"),
                "2026-11-24",
            ),
            (
                "same-day-earlier@x",
                news,
                Some("2026-11-25T11:59:59"),
                "2026-11-25",
            ),
            (
                "same-day-later@x",
                news,
                Some("2026-11-25T12:00:01"),
                "2026-11-25",
            ),
            (
                "next-day@x",
                news,
                Some("2026-11-26T08:00:00"),
                "2026-11-26",
            ),
            ("unrecorded-same-day@x", news, None, "2026-11-25"),
            ("unrecorded-next-day@x", news, None, "2026-11-26"),
            (
                "other-sender@x",
                "deals@store.example",
                Some("2026-11-26T08:00:00"),
                "2026-11-26",
            ),
        ];
        let facts: Vec<(String, MailFact)> = mail
            .iter()
            .filter_map(|(id, from, at, _)| {
                let fact = MailFact {
                    message_id: (*id).into(),
                    sender: (*from).into(),
                    sent_at: (*at)?.into(),
                    ..MailFact::default()
                };
                Some(((*id).to_owned(), fact))
            })
            .collect();
        mail_facts::record(&mut conn, "src", Folder::Inbox, &facts).unwrap();
        let mut digest = Digest::empty("2026-11-27T00:00:00");
        digest.categories.insert(
            Category::Newsletter,
            mail.iter()
                .map(|(id, from, _, day)| EmailItem {
                    id: (*id).into(),
                    subject: "Weekly".into(),
                    from: from.to_uppercase(),
                    date: (*day).into(),
                    snippet: String::new(),
                    reasons: vec![],
                })
                .collect(),
        );
        let unsubscribe = |sender: &str, outcome: &str| Unsubscribe {
            id: 0,
            sender: sender.into(),
            method: "one-click".into(),
            target: "https://shop.example/u".into(),
            created_by: "ops".into(),
            created_at: "2026-11-25T12:00:00".into(),
            outcome: outcome.into(),
            answer_status: Some(200),
            answer: "HTTP 200".into(),
        };
        // A failed unsubscribe marks nothing.
        unsubscribes::record(&conn, &unsubscribe("deals@store.example", "failed")).unwrap();
        assert!(marks(&digest, &conn).unwrap().is_empty());

        unsubscribes::record(&conn, &unsubscribe(news, "done")).unwrap();
        let got = marks(&digest, &conn).unwrap();
        let mut marked: Vec<&str> = got.keys().map(String::as_str).collect();
        marked.sort_unstable();
        assert_eq!(
            marked,
            vec!["next-day@x", "same-day-later@x", "unrecorded-next-day@x"]
        );
        assert_eq!(got["same-day-later@x"], "unsubscribed on 2026-11-25");
    }
}
