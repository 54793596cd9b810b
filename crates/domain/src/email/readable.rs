//! Whether the model can read a message's text at all. Mail that is empty, binary, an
//! undecodable charset or markup without prose is categorised from its headers (and subject when
//! that is readable) instead, and its reasons say so.

use super::message::Message;
use crate::text::script::is_cjk;

/// Why the body (or the subject) cannot be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unreadable {
    /// Nothing in the body.
    Empty,
    /// Mostly replacement characters or control bytes: binary data or an unknown charset.
    Binary,
    /// Characters but no words: markup, base64 or CSS with no prose.
    NoWords,
    /// The subject or sender carry undecodable bytes (invalid UTF-8 or mixed charsets).
    BadHeaders,
}

impl Unreadable {
    /// The reason shown to users.
    pub fn describe(self) -> &'static str {
        match self {
            Self::Empty => "empty body: categorised from the headers",
            Self::Binary => {
                "body is binary or in an undecodable charset: categorised from the headers"
            }
            Self::NoWords => {
                "body has no readable text (markup or encoded data): categorised from the headers"
            }
            Self::BadHeaders => {
                "undecodable bytes in the headers (invalid UTF-8 or mixed charsets): subject ignored"
            }
        }
    }
}

/// What cannot be read, body first; `None` when the message reads fine.
pub fn check(email: &Message) -> Option<Unreadable> {
    body_problem(&email.body).or_else(|| {
        let bad =
            |s: &str| s.contains('\u{fffd}') || s.chars().any(|c| c.is_control() && c != '\t');
        (bad(&email.subject) || email.from_name.as_deref().is_some_and(bad))
            .then_some(Unreadable::BadHeaders)
    })
}

/// Whether a subject can be used (no replacement or control characters).
pub fn subject_readable(subject: &str) -> bool {
    !subject.contains('\u{fffd}') && !subject.chars().any(|c| c.is_control() && c != '\t')
}

fn body_problem(body: &str) -> Option<Unreadable> {
    let sample: String = body.chars().take(4_000).collect();
    let visible: Vec<char> = sample.chars().filter(|c| !c.is_whitespace()).collect();
    if visible.is_empty() {
        return Some(Unreadable::Empty);
    }
    let junk = visible
        .iter()
        .filter(|&&c| {
            c == '\u{fffd}'
                || c.is_control()
                || ('\u{80}'..='\u{9f}').contains(&c)
                || ('\u{e000}'..='\u{f8ff}').contains(&c)
        })
        .count();
    if junk * 10 > visible.len() {
        return Some(Unreadable::Binary);
    }
    // Words: runs of 2–25 letters. Prose has many; base64, CSS and markup have few.
    let tokens: Vec<&str> = sample.split_whitespace().collect();
    let wordlike = tokens
        .iter()
        .filter(|t| {
            let letters = t.chars().filter(|c| c.is_alphabetic()).count();
            let n = t.chars().count();
            (1..=25).contains(&n)
                && letters * 10 >= n * 6
                && !t.contains(['{', '}', ';', '<', '>', '='])
        })
        .count();
    // CJK text has no spaces: one long "token" of letters is prose.
    let cjk = visible.iter().filter(|&&c| is_cjk(c)).count();
    if wordlike < 3 && cjk < 4 && (tokens.len() >= 3 || visible.len() > 60) {
        return Some(Unreadable::NoWords);
    }
    if tokens.len() >= 20 && wordlike * 10 < tokens.len() * 3 && cjk * 2 < visible.len() {
        return Some(Unreadable::NoWords);
    }
    None
}
