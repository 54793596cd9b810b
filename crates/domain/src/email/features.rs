//! Feature extraction: header [`Signal`]s, content [`Cue`]s, and hashed words and word pairs
//! of the subject and the start of the body.
//!
//! Words are lower-cased, digits folded to `0`, URLs and addresses dropped (they name senders,
//! which must not be learnt). Text features are scaled by 1/√n so long mail does not outvote its
//! headers; signals and cues count 1 each.

use super::cues::{Cue, Group, cues, groups};
use super::evidence::{Signal, signals};
use super::message::Message;
use super::owners::Owners;
use super::text::{fnv1a, truncate_chars};
use crate::text::script::is_cjk;

/// Bits of the hashed feature space.
pub const DIM_BITS: u32 = 18;
/// Size of the hashed feature space.
pub const DIM: usize = 1 << DIM_BITS;

/// How much of the body the model reads.
const BODY_CHARS: usize = 2_000;

/// What one feature is, for explanations.
#[derive(Debug, Clone, PartialEq)]
pub enum FeatureKind {
    /// Always on: the class prior.
    Bias,
    /// A header fact.
    Signal(Signal),
    /// A content cue.
    Cue(Cue),
    /// The broader meaning of one or more cues.
    Group(Group),
    /// A combination of evidence ([`Combination`]).
    Combination(Combination),
    /// The body could not be read; the headers decided.
    Unreadable,
    /// A word or word pair of the subject (`s`) or body (`b`).
    Word(String),
    /// The mail software named in `X-Mailer` / `User-Agent` (its first word, `m:`): software,
    /// not a sender, so what is learnt carries to every sender using it.
    Mailer(String),
    /// One value of the text's sentence-embedding vector (`e:<i>`, [`add_meaning`]).
    Meaning(usize),
}

/// Evidence that means more together than apart, each seen across many kinds of mail: what
/// is learnt from one kind carries to kinds the model never saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Combination {
    /// A person writes and asks nothing (no request, question, approval, deadline or RSVP): a
    /// note, a thank-you, an auto-reply. Only for persons: bulk mail rarely asks anything, so
    /// there the absence says nothing.
    PersonNoAsk,
    /// A deadline and an amount: an invoice or renewal to pay.
    AmountDue,
    /// An amount, nothing sold and nothing asked: a receipt or a bank notice.
    AmountOnly,
    /// A person offers something for a price, unasked: cold outreach.
    PersonSelling,
}

impl Combination {
    /// The feature name the model sees.
    pub fn token(self) -> &'static str {
        match self {
            Self::PersonNoAsk => "x:person-no-ask",
            Self::AmountDue => "x:amount-due",
            Self::AmountOnly => "x:amount-only",
            Self::PersonSelling => "x:person-selling",
        }
    }

    /// What it means, for the reasons shown to users.
    pub fn describe(self) -> &'static str {
        match self {
            Self::PersonNoAsk => "a person writing without asking anything",
            Self::AmountDue => "an amount due by a date",
            Self::AmountOnly => "an amount, with nothing to sell or do",
            Self::PersonSelling => "a person offering something for a price",
        }
    }

    /// The combinations present, given the message's signals and cues.
    pub fn of(signals: &[Signal], cues: &[Cue], groups: &[Group]) -> Vec<Self> {
        let person =
            signals.contains(&Signal::PersonSender) || signals.contains(&Signal::PersonalClient);
        let asks = groups.contains(&Group::Asks);
        let sells = groups.contains(&Group::Sells);
        let price = cues.contains(&Cue::Price);
        let mut out = Vec::new();
        if person && !asks {
            out.push(Self::PersonNoAsk);
        }
        if price && cues.contains(&Cue::Deadline) {
            out.push(Self::AmountDue);
        }
        if price && !sells && !asks {
            out.push(Self::AmountOnly);
        }
        if person && price && sells && !signals.contains(&Signal::Reply) {
            out.push(Self::PersonSelling);
        }
        out
    }
}

/// The features of one message: hashed index, value and, when asked for, what it is.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Features {
    /// (hashed index, value), one entry per distinct feature.
    pub values: Vec<(u32, f32)>,
    /// What each entry is (same order), only when built with `explain`.
    pub kinds: Vec<FeatureKind>,
}

/// The message's features. `owners` are the mailbox owner's configured addresses; `readable`
/// is false when the body is to be ignored.
pub fn extract(email: &Message, owners: &Owners, readable: bool, explain: bool) -> Features {
    let body = if readable {
        truncate_chars(&email.body, BODY_CHARS)
    } else {
        ""
    };
    let mut out = extract_parts(
        &email.subject,
        body,
        &signals(email, owners),
        readable,
        explain,
    );
    if let Some(mailer) = mailer(email) {
        out.values.push((index(&format!("m:{mailer}")), 1.0));
        if explain {
            out.kinds.push(FeatureKind::Mailer(mailer));
        }
    }
    out
}

/// The first word of `X-Mailer` (else `User-Agent`), lower-case letters only.
fn mailer(email: &Message) -> Option<String> {
    let value = email
        .header("x-mailer")
        .or_else(|| email.header("user-agent"))?;
    let word: String = value
        .split(|c: char| c.is_whitespace() || c == '/')
        .find(|w| !w.is_empty())?
        .chars()
        .filter(char::is_ascii_alphabetic)
        .map(|c| c.to_ascii_lowercase())
        .take(24)
        .collect();
    (word.len() >= 2).then_some(word)
}

/// Length of the meaning vector among the features: comparable to the words' (whose values
/// add up to a vector of length 2) so neither drowns the other or the header evidence.
pub const MEANING_SCALE: f32 = 2.0;

/// Appends a text's sentence-embedding vector ([`super::embedding::Embedder::embed`], unit
/// length) as features `e:0`, `e:1`, …, scaled by [`MEANING_SCALE`].
pub fn add_meaning(features: &mut Features, meaning: &[f32], explain: bool) {
    static INDICES: std::sync::OnceLock<Vec<u32>> = std::sync::OnceLock::new();
    let indices = INDICES.get_or_init(|| (0..4096).map(|i| index(&format!("e:{i}"))).collect());
    for (i, (&v, &at)) in meaning.iter().zip(indices).enumerate() {
        features.values.push((at, v * MEANING_SCALE));
        if explain {
            features.kinds.push(FeatureKind::Meaning(i));
        }
    }
}

/// Features of a header-less example (subject and body only), as in `corpus/emails.tsv`.
pub fn extract_text(subject: &str, body: &str) -> Features {
    extract_parts(subject, truncate_chars(body, BODY_CHARS), &[], true, false)
}

fn extract_parts(
    subject: &str,
    body: &str,
    signals: &[Signal],
    readable: bool,
    explain: bool,
) -> Features {
    let mut out = Features::default();
    let mut push = |name: &str, value: f32, kind: &dyn Fn() -> FeatureKind| {
        out.values.push((index(name), value));
        if explain {
            out.kinds.push(kind());
        }
    };
    push("bias", 1.0, &|| FeatureKind::Bias);
    for &s in signals {
        push(s.token(), 1.0, &|| FeatureKind::Signal(s));
    }
    let found = cues(subject, body);
    for &c in &found {
        push(c.token(), 1.0, &|| FeatureKind::Cue(c));
    }
    let found_groups = groups(&found);
    for &g in &found_groups {
        push(g.token(), 1.0, &|| FeatureKind::Group(g));
    }
    for x in Combination::of(signals, &found, &found_groups) {
        push(x.token(), 1.0, &|| FeatureKind::Combination(x));
    }
    if !readable {
        push("u:unreadable", 1.0, &|| FeatureKind::Unreadable);
    }
    let mut words: Vec<String> = Vec::new();
    add_words("s", subject, &mut words);
    add_words("b", body, &mut words);
    words.sort();
    words.dedup();
    let scale = 1.0 / (words.len().max(1) as f32).sqrt() * 2.0;
    for w in words {
        push(&w, scale, &|| FeatureKind::Word(w.clone()));
    }
    // Hash collisions can repeat an index: the model treats entries independently, which is fine.
    out
}

/// Adds `prefix:word` and `prefix2:word_word` tokens of `text`.
fn add_words(prefix: &str, text: &str, out: &mut Vec<String>) {
    let mut previous: Option<String> = None;
    for word in words(text) {
        out.push(format!("{prefix}:{word}"));
        if let Some(p) = previous.take() {
            out.push(format!("{prefix}2:{p}_{word}"));
        }
        previous = Some(word);
    }
}

/// Lower-cased words of `text`: URLs and e-mail addresses dropped, digit runs folded to `0`,
/// CJK characters one by one, `%`, `?`, `!` and currency signs as words of their own.
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split_whitespace()
        .filter(|chunk| {
            !chunk.contains("://") && !chunk.contains('@') && !chunk.starts_with("www.")
        })
        .flat_map(|chunk| {
            let mut out = Vec::new();
            let mut current = String::new();
            let flush = |current: &mut String, out: &mut Vec<String>| {
                if !current.is_empty() {
                    out.push(std::mem::take(current));
                }
            };
            for c in chunk.chars() {
                if is_cjk(c) || matches!(c, '%' | '?' | '!' | '$' | '€' | '£' | '¥') {
                    flush(&mut current, &mut out);
                    out.push(c.to_string());
                } else if c.is_ascii_digit() {
                    if !current.ends_with('0') {
                        current.push('0');
                    }
                } else if c.is_alphanumeric() || c == '\'' || c == '-' {
                    current.extend(c.to_lowercase());
                } else {
                    flush(&mut current, &mut out);
                }
            }
            flush(&mut current, &mut out);
            out.into_iter()
                .map(|w| w.trim_matches(['\'', '-']).to_owned())
                .filter(|w| !w.is_empty() && w.chars().count() <= 30)
        })
}

/// The hashed index of a feature name (FNV-1a, the `fnv` crate's: the shipped model's indices
/// were computed with the same function).
pub fn index(name: &str) -> u32 {
    (fnv1a(name.as_bytes()) % DIM as u64) as u32
}
