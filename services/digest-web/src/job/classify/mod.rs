//! Offline categorisation of a [`ParsedEmail`] into the five digest categories.
//!
//! Order of evidence, strongest first:
//! 1. user rules ([`Rules`], from `DIGEST_RULES_FILE`): an address or domain → category;
//! 2. header signals: social-network sender domains → Social; `Auto-Submitted` → FYI
//!    (notifications, receipts, alerts); mailing-list discussion (`List-Post`,
//!    `Precedence: list`, replies on a list) → FYI;
//! 3. the text classifier ([`bayes::NaiveBayes`], trained on `corpus/emails.tsv`), restricted
//!    by the headers: bulk mail (List-Unsubscribe, Precedence: bulk, ESP headers such as
//!    Feedback-ID, X-Mailgun-*, X-SES-*, X-Campaign*) is never Need-Action; mail from a person
//!    (no bulk header) leans to Need-Action/FYI.
//!
//! Every [`Classification`] carries a confidence in [0, 1] and a short reason.

pub mod bayes;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

use domain::email::Category;

use crate::job::mail::ParsedEmail;
pub use crate::job::mail::fixtures::{GoldenMessage, golden_messages};
use bayes::NaiveBayes;

/// Sender domains of social networks' notification mail (the domain or any subdomain).
pub const SOCIAL_DOMAINS: &[&str] = &[
    "facebookmail.com",
    "linkedin.com",
    "x.com",
    "twitter.com",
    "instagram.com",
    "mastodon.social",
    "redditmail.com",
    "reddit.com",
    "meetup.com",
    "strava.com",
    "pinterest.com",
    "tiktok.com",
    "threads.net",
    "bsky.app",
    "discord.com",
    "nextdoor.com",
    "youtube.com",
    "quora.com",
    "tumblr.com",
    "snapchat.com",
    "goodreads.com",
    "xing.com",
];

/// The category of one message, how sure we are, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Classification {
    /// The category.
    pub category: Category,
    /// In [0, 1].
    pub confidence: f64,
    /// A short human reason, e.g. `rule: example.org` or `text classifier`.
    pub reason: String,
}

/// User rules: sender address or domain → category. Addresses win over domains; a domain
/// rule also covers its subdomains.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rules {
    senders: BTreeMap<String, Category>,
}

/// A rules file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum RulesError {
    /// Unreadable file.
    #[error("cannot read rules file {path}: {source}")]
    Read {
        /// The path.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Not the expected TOML.
    #[error("invalid rules file {path}: {reason}")]
    Invalid {
        /// The path.
        path: String,
        /// What is wrong.
        reason: String,
    },
}

impl Rules {
    /// Parses the rules TOML:
    ///
    /// ```toml
    /// [senders]
    /// "boss@example.com" = "Need-Action"
    /// "news.example.org" = "Newsletter"
    /// ```
    pub fn parse(text: &str, path: &str) -> Result<Self, RulesError> {
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct File {
            #[serde(default)]
            senders: BTreeMap<String, String>,
        }
        let invalid = |reason: String| RulesError::Invalid {
            path: path.to_owned(),
            reason,
        };
        let file: File = toml::from_str(text).map_err(|e| invalid(e.message().to_owned()))?;
        let mut senders = BTreeMap::new();
        for (sender, category) in file.senders {
            let category = Category::parse(&category).ok_or_else(|| {
                invalid(format!(
                    "sender '{sender}': unknown category '{category}' (expected Need-Action, FYI, Newsletter, Promotional or Social)"
                ))
            })?;
            let key = sender.trim().trim_start_matches('@').to_ascii_lowercase();
            senders.insert(key, category);
        }
        Ok(Self { senders })
    }

    /// Reads and parses a rules file.
    pub fn load(path: &Path) -> Result<Self, RulesError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| RulesError::Read {
            path: shown.clone(),
            source,
        })?;
        Self::parse(&text, &shown)
    }

    /// The rule for an address: the exact address, else its domain or a parent domain.
    pub fn lookup(&self, address: &str) -> Option<(&str, Category)> {
        let address = address.to_ascii_lowercase();
        if let Some((key, c)) = self.senders.get_key_value(&address) {
            return Some((key.as_str(), *c));
        }
        let mut domain = address.rsplit_once('@').map(|(_, d)| d)?;
        loop {
            if let Some((key, c)) = self.senders.get_key_value(domain) {
                return Some((key.as_str(), *c));
            }
            domain = domain.split_once('.')?.1;
        }
    }

    /// How many rules there are.
    pub fn len(&self) -> usize {
        self.senders.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.senders.is_empty()
    }
}

/// The categoriser: user rules, header signals, then the text model.
#[derive(Debug, Clone)]
pub struct Classifier {
    model: NaiveBayes,
    rules: Rules,
}

impl Classifier {
    /// The classifier trained on the shipped corpus, without user rules (trained once).
    pub fn embedded() -> &'static Classifier {
        static EMBEDDED: OnceLock<Classifier> = OnceLock::new();
        EMBEDDED.get_or_init(|| {
            // The corpus is compiled in and checked by a unit test, so it always parses.
            let examples = bayes::parse_corpus(bayes::CORPUS).unwrap_or_default();
            Classifier {
                model: NaiveBayes::train(&examples),
                rules: Rules::default(),
            }
        })
    }

    /// A classifier trained on `examples` (used to measure held-out accuracy).
    pub fn trained_on(examples: &[bayes::Example]) -> Self {
        Self {
            model: NaiveBayes::train(examples),
            rules: Rules::default(),
        }
    }

    /// This classifier with user rules applied first.
    pub fn with_rules(&self, rules: Rules) -> Self {
        Self {
            model: self.model.clone(),
            rules,
        }
    }

    /// Categorises one message.
    pub fn classify(&self, email: &ParsedEmail) -> Classification {
        let sure = |category, confidence, reason: String| Classification {
            category,
            confidence,
            reason,
        };
        if let Some((rule, category)) = self.rules.lookup(&email.item.from) {
            return sure(category, 1.0, format!("rule: {rule}"));
        }
        let domain = email.from_domain();
        if let Some(social) = SOCIAL_DOMAINS
            .iter()
            .find(|d| domain == **d || domain.ends_with(&format!(".{d}")))
        {
            return sure(
                Category::Social,
                0.97,
                format!("social network sender ({social})"),
            );
        }
        let precedence = email
            .header("precedence")
            .map(|p| p.trim().to_ascii_lowercase())
            .unwrap_or_default();
        let has_list_id = email.header("list-id").is_some();
        let discussion = email.header("list-post").is_some()
            || precedence == "list"
            || (has_list_id && email.header("in-reply-to").is_some());
        let esp = email.header("feedback-id").is_some()
            || email.has_header_prefix("x-mailgun-")
            || email.has_header_prefix("x-ses-")
            || email.has_header_prefix("x-campaign")
            || email.has_header_prefix("x-mailchimp-")
            || email.has_header_prefix("x-sg-")
            || email.header("x-mc-user").is_some();
        let bulk = esp
            || email.header("list-unsubscribe").is_some()
            || matches!(precedence.as_str(), "bulk" | "junk")
            || has_list_id;
        let automated = email
            .header("auto-submitted")
            .is_some_and(|v| !v.trim().eq_ignore_ascii_case("no"));

        if discussion {
            return sure(
                Category::Fyi,
                0.9,
                "mailing-list discussion (List-Post / Precedence: list)".into(),
            );
        }
        let posterior = self.model.posterior(&email.item.subject, &email.body);
        if automated {
            // Notifications, receipts and alerts: FYI, unless the text is plainly marketing.
            let promo = posterior[3] + posterior[2];
            if promo > 0.8 && esp {
                return pick(
                    &posterior,
                    &[Category::Newsletter, Category::Promotional],
                    "automated bulk mail, text classifier",
                );
            }
            return sure(
                Category::Fyi,
                0.85,
                "automated notification (Auto-Submitted)".into(),
            );
        }
        if bulk {
            return pick(
                &posterior,
                &[
                    Category::Fyi,
                    Category::Newsletter,
                    Category::Promotional,
                    Category::Social,
                ],
                "bulk headers, text classifier",
            );
        }
        // From a person: the text decides, weighted towards Need-Action and FYI, since
        // marketing and newsletters almost always carry bulk headers.
        // A person asking something (a question mark or a request phrase) leans further to
        // Need-Action.
        let mut weighted = posterior;
        let asks = asks_something(&email.item.subject, &email.body);
        weighted[0] *= if asks { 4.0 } else { 2.0 };
        weighted[1] *= 2.0;
        let reason = if asks {
            "personal mail with a question or request, text classifier"
        } else {
            "personal mail, text classifier"
        };
        pick(&weighted, &Category::ALL, reason)
    }
}

/// Request phrases in the languages of the corpus.
const REQUEST_CUES: &[&str] = &[
    "could you",
    "can you",
    "would you",
    "will you",
    "please",
    "let me know",
    "need your",
    "pouvez-vous",
    "pourriez-vous",
    "merci de",
    "bitte",
    "können sie",
    "пожалуйста",
    "можете",
    "お願い",
    "いただけ",
    "ください",
    "请",
];

/// Whether the subject or the start of the body asks a question or makes a request.
pub fn asks_something(subject: &str, body: &str) -> bool {
    let text = format!("{subject} {}", crate::job::mail::truncate_chars(body, 600)).to_lowercase();
    text.contains('?') || text.contains('？') || REQUEST_CUES.iter().any(|c| text.contains(c))
}

/// The best of `allowed` under `scores`, with its share of the allowed mass as confidence.
fn pick(scores: &[f64; 5], allowed: &[Category], reason: &str) -> Classification {
    let idx = |c: Category| Category::ALL.iter().position(|&x| x == c).unwrap_or(0);
    let total: f64 = allowed
        .iter()
        .map(|&c| scores[idx(c)])
        .sum::<f64>()
        .max(f64::MIN_POSITIVE);
    let (category, score) = allowed.iter().map(|&c| (c, scores[idx(c)])).fold(
        (allowed[0], f64::NEG_INFINITY),
        |best, x| {
            if x.1 > best.1 { x } else { best }
        },
    );
    Classification {
        category,
        confidence: (score / total).clamp(0.0, 1.0),
        reason: reason.to_owned(),
    }
}

/// Accuracy of the text classifier on the held-out part of the corpus.
#[derive(Debug, Clone, PartialEq)]
pub struct HoldoutReport {
    /// Examples trained on.
    pub trained: usize,
    /// Examples tested.
    pub tested: usize,
    /// Correct predictions.
    pub correct: usize,
    /// Per category: (tested, correct).
    pub per_category: BTreeMap<Category, (usize, usize)>,
}

impl HoldoutReport {
    /// correct / tested.
    pub fn accuracy(&self) -> f64 {
        self.correct as f64 / self.tested.max(1) as f64
    }
}

/// Trains on every example but each fifth (1-based positions 5, 10, …) and tests on those.
/// The test messages carry no headers, so this measures the text model alone.
pub fn holdout_report() -> HoldoutReport {
    let examples = bayes::parse_corpus(bayes::CORPUS).unwrap_or_default();
    let (test, train): (Vec<_>, Vec<_>) = examples
        .into_iter()
        .enumerate()
        .partition(|(i, _)| (i + 1) % 5 == 0);
    let train: Vec<_> = train.into_iter().map(|(_, e)| e).collect();
    let model = NaiveBayes::train(&train);
    let mut report = HoldoutReport {
        trained: train.len(),
        tested: test.len(),
        correct: 0,
        per_category: BTreeMap::new(),
    };
    for (_, example) in test {
        let p = model.posterior(&example.subject, &example.body);
        let predicted = pick(&p, &Category::ALL, "").category;
        let entry = report.per_category.entry(example.category).or_default();
        entry.0 += 1;
        if predicted == example.category {
            entry.1 += 1;
            report.correct += 1;
        }
    }
    report
}

#[cfg(test)]
mod tests;
