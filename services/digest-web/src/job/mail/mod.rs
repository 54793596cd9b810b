//! Reading mail: where it comes from ([`MailSource`]: Maildir, mbox, IMAP, the embedded
//! sample) and what one message becomes ([`parse_message`] → [`ParsedEmail`]: the categoriser's
//! [`Message`], plus what the digest's [`EmailItem`] and the run need).
//!
//! MIME is mail-parser's job (RFC 2047 words, quoted-printable, base64, every charset
//! `encoding_rs` knows, multipart/alternative with text/plain preferred and HTML converted to
//! text); this module only cleans its output, reads headers written as raw bytes in the
//! message's charset ([`header_charset`]) and decides what a message's date is.

pub mod fixtures;
mod header_charset;
pub mod imap;
pub mod local;
mod source;

use chrono::{DateTime, TimeZone, Utc};
use domain::email::text::truncate_chars;
use domain::email::{EmailItem, Message};
use mail_parser::decoders::html::html_to_text;
use mail_parser::{MessageParser, PartType};

pub use source::{ImapSecurity, ImapUrl, MailSource, check_source};

/// Longest body text kept per message (characters); enough for classifying and summarising.
const BODY_CHARS: usize = 8_000;
/// Snippet length target (characters).
const SNIPPET_CHARS: usize = 200;
/// Messages larger than this are refused rather than parsed (bytes).
pub const MAX_MESSAGE_BYTES: usize = 64 << 20;

/// Why one message could not be used. The run records it and skips the message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// Zero bytes.
    #[error("empty message")]
    Empty,
    /// Larger than [`MAX_MESSAGE_BYTES`].
    #[error("message of {0} bytes is over the {MAX_MESSAGE_BYTES}-byte limit")]
    TooLarge(usize),
    /// No header field could be read: not an RFC 5322 message.
    #[error("no RFC 5322 header found")]
    NoHeaders,
}

impl ParseError {
    /// The `error_type` recorded in the run store.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Empty => "EmptyMessage",
            Self::TooLarge(_) => "MessageTooLarge",
            Self::NoHeaders => "NotAMessage",
        }
    }
}

/// Failures reaching or reading a mailbox (fatal for the run).
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    /// `--source` does not parse.
    #[error("invalid mail source '{value}': {reason}")]
    InvalidSource {
        /// What was given (never contains a password).
        value: String,
        /// What is wrong.
        reason: String,
    },
    /// A local mailbox could not be read.
    #[error("cannot read {kind} {path}: {source}")]
    Local {
        /// `Maildir` or `mbox`.
        kind: &'static str,
        /// The path.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// TCP connect or TLS failed.
    #[error("cannot connect to IMAP server {addr}: {reason}")]
    Connect {
        /// `host:port`.
        addr: String,
        /// Why.
        reason: String,
    },
    /// The server refused the credentials.
    #[error("IMAP login failed for {user} at {addr}: {reason}")]
    Login {
        /// The login name.
        user: String,
        /// `host:port`.
        addr: String,
        /// The server's words, or "authentication failed".
        reason: String,
    },
    /// No password or token was configured.
    #[error(
        "no IMAP credentials for {user}: set DIGEST_IMAP_PASSWORD, DIGEST_IMAP_PASSWORD_FILE or DIGEST_IMAP_OAUTH_TOKEN"
    )]
    NoCredentials {
        /// The login name.
        user: String,
    },
    /// A command after login failed (SELECT, SEARCH, FETCH).
    #[error("IMAP {command} failed at {addr}: {reason}")]
    Protocol {
        /// The command.
        command: &'static str,
        /// `host:port`.
        addr: String,
        /// Why.
        reason: String,
    },
}

impl MailError {
    /// The `error_type` recorded in the run store.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::InvalidSource { .. } => "InvalidSource",
            Self::Local { .. } => "MailboxUnreadable",
            Self::Connect { .. } => "ConnectFailed",
            Self::Login { .. } => "LoginFailed",
            Self::NoCredentials { .. } => "NoCredentials",
            Self::Protocol { .. } => "ImapProtocol",
        }
    }
}

/// One message, decoded and cleaned.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedEmail {
    /// What the categoriser reads: sender, subject, clean body (no markup, attachments
    /// skipped, quoted replies and signatures kept out, at most a few thousand characters,
    /// whitespace collapsed per line) and the header fields that carry evidence.
    pub message: Message,
    /// When it was sent (Date header), else delivered; UTC.
    pub received_at: DateTime<Utc>,
    /// About [`SNIPPET_CHARS`] characters of the body on one line.
    pub snippet: String,
    /// How many attachments were skipped.
    pub attachments: usize,
    /// The header fields acting on mail needs (unsubscribing, threads), as written.
    pub acting: ActingHeaders,
}

/// Header fields the dashboard's unsubscribe and "waiting for a reply" read, unfolded but
/// otherwise as written (not cut at the classifier's 300 characters: an unsubscribe URI is
/// often longer). Each is at most [`ACTING_HEADER_CHARS`] characters; a longer one is kept
/// cut there, one character over the unsubscribe parser's limit, so it is refused, not
/// followed half.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ActingHeaders {
    /// `List-Unsubscribe`.
    pub list_unsubscribe: Option<String>,
    /// `List-Unsubscribe-Post`.
    pub list_unsubscribe_post: Option<String>,
    /// `In-Reply-To`.
    pub in_reply_to: Option<String>,
    /// `References`.
    pub references: Option<String>,
    /// `To` and `Cc` addresses, lower-cased.
    pub recipients: Vec<String>,
}

/// Longest acting header kept (characters).
pub const ACTING_HEADER_CHARS: usize = 8_193;

impl ParsedEmail {
    /// The digest's view of it (without reasons).
    pub fn item(&self) -> EmailItem {
        EmailItem {
            id: self.message.id.clone(),
            subject: self.message.subject.clone(),
            from: self.message.from.clone(),
            date: self.received_at.format("%Y-%m-%d").to_string(),
            snippet: self.snippet.clone(),
            reasons: Vec::new(),
        }
    }
}

/// Header fields the classifier reads; everything else is dropped to keep messages small.
const SIGNAL_HEADERS: &[&str] = &[
    "list-id",
    "list-unsubscribe",
    "list-post",
    "precedence",
    "auto-submitted",
    "feedback-id",
    "x-campaign",
    "x-campaignid",
    "x-campaign-id",
    "x-mailgun-",
    "x-ses-",
    "x-mailchimp-",
    "x-mc-user",
    "x-sg-",
    "x-autoreply",
    "x-auto-response-suppress",
    "in-reply-to",
    "reply-to",
    "sender",
    // addressing, threading, list software of every era and vendor fingerprints
    "to",
    "cc",
    "references",
    "list-",
    "x-",
    "mailing-list",
    "delivered-to",
    "errors-to",
    "resent-from",
    "user-agent",
];

/// Parses one RFC 5322 message. `delivered_at` (Maildir file time, IMAP INTERNALDATE, mbox
/// `From ` line) stands in for a missing or unreadable Date header; without either, now.
pub fn parse_message(
    raw: &[u8],
    delivered_at: Option<DateTime<Utc>>,
) -> Result<ParsedEmail, ParseError> {
    if raw.iter().all(u8::is_ascii_whitespace) {
        return Err(ParseError::Empty);
    }
    if raw.len() > MAX_MESSAGE_BYTES {
        return Err(ParseError::TooLarge(raw.len()));
    }
    let message = MessageParser::default()
        .parse(raw)
        .ok_or(ParseError::NoHeaders)?;
    if message.headers().is_empty() || !looks_like_headers(raw) {
        return Err(ParseError::NoHeaders);
    }

    let charsets = header_charset::declared_charsets(&message);
    let sender = message.from().and_then(|a| a.first());
    let from = sender
        .and_then(|a| a.address())
        .map(|a| a.trim().to_ascii_lowercase())
        .filter(|a| !a.is_empty())
        .unwrap_or_else(|| "unknown@invalid".to_owned());
    let from_name = header_charset::from_name(&message, &charsets)
        .or_else(|| sender.and_then(|a| a.name()).map(str::to_owned))
        .map(|n| collapse(n.trim_matches(['"', '\'', ' '])))
        .filter(|n| !n.is_empty() && !n.eq_ignore_ascii_case(&from));
    let subject = collapse(
        &header_charset::subject(&message, &charsets)
            .unwrap_or_else(|| message.subject().unwrap_or("").to_owned()),
    );

    let received_at = message
        .date()
        .filter(|d| d.is_valid() && d.year >= 1971)
        .and_then(|d| Utc.timestamp_opt(d.to_timestamp(), 0).single())
        .or(delivered_at)
        .unwrap_or_else(Utc::now);

    let text = match message.text_part(0).map(|p| &p.body) {
        Some(PartType::Html(html)) => html_to_text(&break_blocks(html)),
        _ => message
            .body_text(0)
            .map(|t| t.into_owned())
            .unwrap_or_default(),
    };
    let body = clean_body(&text);
    let snippet = snippet(&body, SNIPPET_CHARS);

    // The header's first line as written, angle brackets stripped, as other tools that key
    // mail by its raw Message-ID read it, so both name the message alike: with a trailing
    // comment (`<a@b> (added by relay)`) the id keeps it; a broken id folded over several
    // lines (`<a@b` then `(comments) by host>`) is its first line.
    let id = message
        .header_raw("Message-ID")
        .map(|m| {
            let first = m
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .unwrap_or("");
            collapse(first)
                .trim()
                .trim_matches(['<', '>'])
                .trim()
                .to_owned()
        })
        .filter(|m| !m.is_empty())
        .or_else(|| {
            message
                .message_id()
                .map(|m| m.trim().trim_matches(['<', '>']).trim().to_owned())
                .filter(|m| !m.is_empty())
        })
        .unwrap_or_else(|| format!("h{:016x}", fnv1a(raw)));

    let headers = message
        .headers_raw()
        .filter_map(|(name, value)| {
            let lower = name.trim().to_ascii_lowercase();
            SIGNAL_HEADERS
                .iter()
                .any(|h| {
                    if h.ends_with('-') {
                        lower.starts_with(h)
                    } else {
                        lower == *h
                    }
                })
                .then(|| (lower, truncate_chars(value.trim(), 300).to_owned()))
        })
        .collect();

    let raw_header = |name: &str| {
        message
            .header_raw(name)
            .map(|v| truncate_chars(&unfold(v), ACTING_HEADER_CHARS).to_owned())
            .filter(|v| !v.is_empty())
    };
    let recipients = [message.to(), message.cc()]
        .into_iter()
        .flatten()
        .flat_map(|a| a.iter())
        .filter_map(|a| a.address())
        .map(|a| a.trim().to_ascii_lowercase())
        .filter(|a| !a.is_empty())
        .collect();
    let acting = ActingHeaders {
        list_unsubscribe: raw_header("List-Unsubscribe"),
        list_unsubscribe_post: raw_header("List-Unsubscribe-Post"),
        in_reply_to: raw_header("In-Reply-To"),
        references: raw_header("References"),
        recipients,
    };

    Ok(ParsedEmail {
        message: Message {
            id,
            from,
            from_name,
            subject,
            body,
            headers,
        },
        received_at,
        snippet,
        attachments: message.attachment_count(),
        acting,
    })
}

/// Elements that end a block of text. mail-parser's HTML-to-text breaks lines only at a bare
/// `<br>` and at `</p>`, so `<h1>Morning Brief</h1><div>Energy prices…` would read "Morning
/// BriefEnergy prices…", and so would `<br clear=all>` and old mail's `text<p>more`.
pub const BLOCK_TAGS: &[&str] = &[
    "p",
    "br",
    "div",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "li",
    "ul",
    "ol",
    "tr",
    "table",
    "blockquote",
    "section",
    "article",
    "header",
    "footer",
    "hr",
    "dt",
    "dd",
    "pre",
    "center",
    "address",
    "nav",
    "aside",
    "main",
    "form",
    "fieldset",
    "figure",
    "figcaption",
    "caption",
    "title",
];

/// `html` with a `<br>` before every block element's opening and closing tag and a space after
/// it and after every table cell's tag, so blocks read as lines and cells as words.
///
/// The space is written as the entity `&#32;`: mail-parser's HTML-to-text drops the space
/// between the first word of a line that ends at a tag and the next word
/// (`<br><b>Fast</b> Important` reads "FastImportant"); an entity after each break starts the
/// line with a word of its own.
pub fn break_blocks(html: &str) -> String {
    let mut out = String::with_capacity(html.len() + html.len() / 8);
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        let tag = &rest[at + 1..];
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect();
        let block = BLOCK_TAGS.contains(&name.as_str());
        if !block && name != "td" && name != "th" {
            out.push('<');
            rest = tag;
            continue;
        }
        if block {
            out.push_str("<br>");
        }
        let end = tag.find('>').map_or(tag.len(), |e| e + 1);
        out.push('<');
        out.push_str(&tag[..end]);
        out.push_str("&#32;");
        rest = &tag[end..];
    }
    out.push_str(rest);
    out
}

/// [`parse_message`], or, for bytes that are not an RFC 5322 message but read as text (a
/// header block lost, a message pasted into a file), what could be read: the `From:` and
/// `Subject:` lines it has, its text as the body. Empty, oversized and binary input are still
/// errors. The job keeps every message it can read in the digest.
pub fn parse_or_salvage(
    raw: &[u8],
    delivered_at: Option<DateTime<Utc>>,
) -> Result<ParsedEmail, ParseError> {
    match parse_message(raw, delivered_at) {
        Err(ParseError::NoHeaders) => salvage(raw, delivered_at).ok_or(ParseError::NoHeaders),
        other => other,
    }
}

fn salvage(raw: &[u8], delivered_at: Option<DateTime<Utc>>) -> Option<ParsedEmail> {
    let text = String::from_utf8_lossy(&raw[..raw.len().min(256 << 10)]);
    let visible = text.chars().filter(|c| !c.is_whitespace()).count();
    let junk = text
        .chars()
        .filter(|&c| c == '\u{fffd}' || (c.is_control() && !c.is_whitespace()))
        .count();
    let words = text
        .split_whitespace()
        .filter(|w| w.chars().all(char::is_alphabetic) && (2..=20).contains(&w.len()))
        .count();
    if visible == 0 || junk * 10 > visible || words < 3 {
        return None;
    }
    let field = |name: &str| {
        text.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.trim()
                .eq_ignore_ascii_case(name)
                .then(|| collapse(value))
                .filter(|v| !v.is_empty())
        })
    };
    let from = field("From")
        .and_then(|v| {
            v.split(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | '"'))
                .find(|t| t.contains('@'))
                .map(str::to_ascii_lowercase)
        })
        .unwrap_or_else(|| "unknown@invalid".to_owned());
    let subject = field("Subject").unwrap_or_default();
    let body = clean_body(&text);
    let received_at = delivered_at.unwrap_or_else(Utc::now);
    Some(ParsedEmail {
        snippet: snippet(&body, SNIPPET_CHARS),
        message: Message {
            id: format!("h{:016x}", fnv1a(raw)),
            from,
            from_name: None,
            subject,
            body,
            headers: Vec::new(),
        },
        received_at,
        attachments: 0,
        acting: ActingHeaders::default(),
    })
}

/// A message starts with a header field (`Name: value`) within its first line, possibly
/// after an mbox `From ` line. Binary garbage does not.
fn looks_like_headers(raw: &[u8]) -> bool {
    let mut lines = raw.split(|&b| b == b'\n');
    let mut first = lines.next().unwrap_or_default();
    if first.starts_with(b"From ") {
        first = lines.next().unwrap_or_default();
    }
    match first.iter().position(|&b| b == b':') {
        Some(colon) if colon > 0 => first[..colon]
            .iter()
            .all(|b| b.is_ascii_graphic() && *b != b':'),
        _ => false,
    }
}

/// Cleans decoded body text: drops quoted replies (`>` lines), the signature (after `-- `)
/// and the "On ... wrote:" line; collapses whitespace within lines; keeps paragraph breaks as
/// single newlines; stops at [`BODY_CHARS`].
pub fn clean_body(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(BODY_CHARS));
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed == "--" {
            break;
        }
        if trimmed.starts_with('>') || (trimmed.starts_with("On ") && trimmed.ends_with("wrote:")) {
            continue;
        }
        let clean = collapse(trimmed);
        if clean.is_empty() {
            if !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            continue;
        }
        if !out.is_empty() && !out.ends_with('\n') {
            out.push(' ');
        }
        out.push_str(&clean);
        if out.len() >= BODY_CHARS * 4 || out.chars().count() >= BODY_CHARS {
            break;
        }
    }
    truncate_chars(out.trim(), BODY_CHARS).to_owned()
}

/// About `max` characters of `body` on one line, cut at a word boundary, with `…` when cut.
pub fn snippet(body: &str, max: usize) -> String {
    let flat = collapse(body);
    if flat.chars().count() <= max {
        return flat;
    }
    let cut = truncate_chars(&flat, max);
    let cut = match cut.rfind(' ') {
        Some(space) if space > max / 2 => &cut[..space],
        _ => cut,
    };
    format!("{}…", cut.trim_end_matches([',', ';', ':', ' ', '.']))
}

/// A header value unfolded (a line break followed by a space or tab is dropped, RFC 5322
/// 2.2.3) and trimmed; any other control character stays, for the reader to refuse.
pub fn unfold(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' && chars.peek() == Some(&'\n') {
            continue;
        }
        if c == '\n' && matches!(chars.peek(), Some(' ' | '\t')) {
            continue;
        }
        out.push(c);
    }
    out.trim().to_owned()
}

/// Collapses every run of whitespace (including control characters) to one space.
pub fn collapse(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text
        .split(|c: char| c.is_whitespace() || c.is_control() || c == '\u{200b}')
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// The one stable hash: the ids of messages without Message-ID and the mbox cache keys (stored
/// in the run store's `message_cache`: their values must never change).
pub use domain::email::text::fnv1a;

#[cfg(test)]
mod tests;
