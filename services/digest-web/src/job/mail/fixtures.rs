//! Built-in messages for the dashboard's test suites and for our own tests: the sample
//! Maildir with its labels (golden messages), edge cases (odd encodings, malformed MIME, a
//! huge message, non-messages) and a small mbox.

use std::borrow::Cow;

use domain::email::Category;

use super::local::{SAMPLE_MESSAGES, maildir_key};

/// `file name<TAB>category` for every sample message (written by the generator).
const SAMPLE_LABELS: &str = include_str!("../../../sample-mailbox/labels.tsv");

/// A labelled message: raw RFC 5322 bytes and the category a person would give it.
#[derive(Debug, Clone, Copy)]
pub struct GoldenMessage {
    /// The Maildir file name.
    pub name: &'static str,
    /// The raw message.
    pub raw: &'static [u8],
    /// The expected category.
    pub expected: Category,
}

/// The sample Maildir's messages with their labels (messages without a label are left out).
pub fn golden_messages() -> Vec<GoldenMessage> {
    SAMPLE_MESSAGES
        .iter()
        .filter_map(|(name, raw)| {
            let key = maildir_key(name);
            let expected = SAMPLE_LABELS.lines().find_map(|line| {
                let (file, category) = line.split_once('\t')?;
                (file == key).then(|| Category::parse(category))?
            })?;
            Some(GoldenMessage {
                name,
                raw,
                expected,
            })
        })
        .collect()
}

/// What parsing an edge case must give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EdgeExpect {
    /// It parses, the subject contains this text and the snippet contains that text.
    Parses {
        /// Text the decoded subject must contain.
        subject: &'static str,
        /// Text the snippet must contain.
        snippet: &'static str,
    },
    /// It is refused (recorded as an error and skipped by a run).
    Fails,
}

/// One edge-case message.
#[derive(Debug, Clone)]
pub struct EdgeCase {
    /// Short name, used as the test name.
    pub name: &'static str,
    /// The raw bytes.
    pub raw: Cow<'static, [u8]>,
    /// The expected outcome.
    pub expect: EdgeExpect,
}

macro_rules! edge {
    ($name:literal, $expect:expr) => {
        EdgeCase {
            name: $name,
            raw: Cow::Borrowed(include_bytes!(concat!(
                "../../../fixtures/edge/",
                $name,
                ".eml"
            ))),
            expect: $expect,
        }
    };
}

fn parses(subject: &'static str, snippet: &'static str) -> EdgeExpect {
    EdgeExpect::Parses { subject, snippet }
}

/// Edge cases: each charset and transfer encoding, malformed MIME, a 6 MB message, garbage.
pub fn edge_cases() -> Vec<EdgeCase> {
    vec![
        edge!("iso-8859-1-qp", parses("Café", "réunion à Besançon")),
        edge!(
            "windows-1252-smart-quotes",
            parses("“Quarterly” figures", "it’s €40")
        ),
        edge!("iso-2022-jp", parses("会議", "明日の会議")),
        edge!("gb2312-base64", parses("会议通知", "请于周五")),
        edge!("koi8-r", parses("Отчёт", "Пожалуйста")),
        edge!(
            "rfc2047-mixed-subject",
            parses("Ünïcödé and ascii", "mixed encoded words")
        ),
        edge!(
            "html-only-with-style",
            parses("Weekly update", "Launch moved")
        ),
        edge!("missing-boundary", parses("Broken multipart", "")),
        edge!(
            "unknown-charset",
            parses("Unknown charset", "plain words survive")
        ),
        edge!(
            "broken-headers",
            parses("Still readable", "body after broken headers")
        ),
        edge!("no-date-no-message-id", parses("No date", "delivery time")),
        edge!("binary-garbage", EdgeExpect::Fails),
        EdgeCase {
            name: "empty",
            raw: Cow::Borrowed(b""),
            expect: EdgeExpect::Fails,
        },
        EdgeCase {
            name: "huge-6mb-attachment",
            raw: Cow::Owned(huge_message()),
            expect: parses("Huge attachment", "the logs are attached"),
        },
    ]
}

/// A 6 MB message: a short text part and a large base64 attachment.
pub fn huge_message() -> Vec<u8> {
    let mut raw = String::from(
        "From: Ops Robot <robot@example.net>\r\nTo: ops@example.com\r\n\
         Subject: Huge attachment\r\nDate: Fri, 20 Nov 2026 09:00:00 +0000\r\n\
         Message-ID: <huge-1@example.net>\r\nMIME-Version: 1.0\r\n\
         Content-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n\
         --b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\
         Hello, the logs are attached.\r\n\
         --b1\r\nContent-Type: application/octet-stream; name=\"logs.bin\"\r\n\
         Content-Transfer-Encoding: base64\r\n\
         Content-Disposition: attachment; filename=\"logs.bin\"\r\n\r\n",
    );
    let line = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAx\r\n";
    for _ in 0..(6_000_000 / line.len()) {
        raw.push_str(line);
    }
    raw.push_str("--b1--\r\n");
    raw.into_bytes()
}

/// A small mbox (12 messages, every category, one broken entry) for the extended suites.
pub fn fixture_mbox() -> &'static [u8] {
    include_bytes!("../../../fixtures/mailbox.mbox")
}
