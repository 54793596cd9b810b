//! The mail words: every list of phrases, header conventions and sender domains the mail
//! category model reads, from the data files under `data/mail/` (embedded, parsed once by
//! [`lexicon`]). Code holds the passes that use them ([`super::cues`], [`super::evidence`],
//! [`super::classifier`]).
//!
//! A phrase that would mean two things is refused at load: the same phrase under two cues (or
//! twice under one), or in two header lists of one kind.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::OnceLock;

use serde::Deserialize;

const CUES: &str = include_str!("../../data/mail/cues.toml");
const HEADERS: &str = include_str!("../../data/mail/headers.toml");
const SENDERS: &str = include_str!("../../data/mail/senders.toml");
const STOP_WORDS: &str = include_str!("../../data/mail/stop-words.toml");

/// The mail words, as loaded.
#[derive(Debug, Clone, PartialEq)]
pub struct Lexicon {
    /// Cue phrases by cue key (`request`, `offer`, …; see [`super::cues::Cue::key`]).
    pub cue_phrases: BTreeMap<String, Vec<String>>,
    /// Phrases saying the reader may ignore the mail: they cancel the request cue.
    pub no_action: Vec<String>,
    /// Phrases that put a question to anyone on a list rather than to the addressee
    /// ("does anyone", "quelqu'un"): a question to a crowd.
    pub to_anyone: Vec<String>,
    /// Business documents named with an offer word (`offer letter`, `carta de oferta`,
    /// `Angebot bestätigen`): a job offer or a supplier's quote, not a sale; their words are
    /// read as no cue at all.
    pub not_offer: Vec<String>,
    /// Approve words (with a reject word: a decision is asked for).
    pub approve: Vec<String>,
    /// Reject words.
    pub reject: Vec<String>,
    /// Currency signs and codes that make a price next to a digit.
    pub price_signs: Vec<String>,
    /// Words that number an issue when a digit follows (`issue `, `nr. `, `№`).
    pub issue_prefixes: Vec<String>,
    /// Words before a `#` number that name a transaction or a tracker's item, not an issue.
    pub numbered_items: Vec<String>,
    /// Month names (lower-case): a month and a year in a subject date an issue (`July 2002`).
    pub months: Vec<String>,
    /// Header conventions.
    pub headers: Headers,
    /// Social networks' notification domains.
    pub social_domains: Vec<String>,
    /// Words too common to name a topic.
    pub stop_words: HashSet<String>,
}

/// Header conventions (`data/mail/headers.toml`), lower-case.
#[derive(Debug, Clone, PartialEq)]
pub struct Headers {
    /// Header-name prefixes of bulk-mail services.
    pub esp_prefixes: Vec<String>,
    /// X-Mailer values only bulk services use.
    pub esp_mailers: Vec<String>,
    /// Header-name prefixes of ops tools.
    pub ops_prefixes: Vec<String>,
    /// Local parts of no-reply and system addresses.
    pub system_locals: Vec<String>,
    /// Local parts of marketing addresses.
    pub marketing_locals: Vec<String>,
    /// Personal mail clients.
    pub personal_clients: Vec<String>,
    /// Clients of the mass-mailing 2000s.
    pub old_clients: Vec<String>,
    /// Reply prefixes of subjects, with the colon.
    pub reply_prefixes: Vec<String>,
    /// Automatic-reply subject prefixes.
    pub auto_reply_subjects: Vec<String>,
    /// Prefixes skipped before an automatic-reply subject (`re`, `aw`, …; without the colon).
    pub auto_reply_skip: Vec<String>,
    /// Legal advertisement labels of subjects (`adv:`, `未承諾広告`).
    pub advertisement_labels: Vec<String>,
    /// Words of a periodical's sender name beyond the newsletter and periodic cues
    /// (`mailing list`).
    pub periodical_names: Vec<String>,
}

/// Why the mail words cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LexiconError {
    /// Not the expected TOML.
    #[error("data/mail/{file}: {reason}")]
    Invalid {
        /// The file.
        file: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// A phrase listed under two meanings, or twice.
    #[error("data/mail/{file}: '{phrase}' is listed under both {first} and {second}")]
    Ambiguous {
        /// The file.
        file: &'static str,
        /// The phrase.
        phrase: String,
        /// Where it is listed first.
        first: String,
        /// Where it is listed again.
        second: String,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Phrases {
    phrases: Vec<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
struct CuesFile {
    no_action: Phrases,
    to_anyone: Phrases,
    not_offer: Phrases,
    approve_reject: ApproveReject,
    price: Price,
    issue_number: IssueNumber,
    #[serde(flatten)]
    cues: BTreeMap<String, Phrases>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ApproveReject {
    approve: Vec<String>,
    reject: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Price {
    signs: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct IssueNumber {
    prefixes: Vec<String>,
    items: Vec<String>,
    months: Vec<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct HeadersFile {
    esp: Esp,
    ops_tool: Prefixes,
    system_sender: Locals,
    marketing_sender: Locals,
    personal_client: Clients,
    old_client: Clients,
    reply: ReplyPrefixes,
    auto_reply: AutoReply,
    advertisement_label: Subjects,
    periodical_sender: Names,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Subjects {
    subjects: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Names {
    names: Vec<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct Esp {
    header_prefixes: Vec<String>,
    mailers: Vec<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct Prefixes {
    header_prefixes: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Locals {
    locals: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Clients {
    clients: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReplyPrefixes {
    prefixes: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AutoReply {
    subjects: Vec<String>,
    skip: Vec<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct SendersFile {
    social_network: Domains,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Domains {
    domains: Vec<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct StopWordsFile {
    stop_words: Words,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Words {
    words: Vec<String>,
}

fn parse<T: serde::de::DeserializeOwned>(
    file: &'static str,
    text: &str,
) -> Result<T, LexiconError> {
    toml::from_str(text).map_err(|e| LexiconError::Invalid {
        file,
        reason: e.message().to_owned(),
    })
}

/// Refuses a phrase listed under two names (or twice under one) of `lists`.
fn unambiguous<'a>(
    file: &'static str,
    lists: impl IntoIterator<Item = (&'a str, &'a [String])>,
) -> Result<(), LexiconError> {
    let mut seen: HashMap<&str, &str> = HashMap::new();
    for (name, phrases) in lists {
        for phrase in phrases {
            if phrase.trim().is_empty() || *phrase != phrase.to_lowercase() {
                return Err(LexiconError::Invalid {
                    file,
                    reason: format!("'{phrase}' under {name} must be lower-case and not blank"),
                });
            }
            if let Some(first) = seen.insert(phrase, name) {
                return Err(LexiconError::Ambiguous {
                    file,
                    phrase: phrase.clone(),
                    first: first.to_owned(),
                    second: name.to_owned(),
                });
            }
        }
    }
    Ok(())
}

impl Lexicon {
    /// Parses and checks the four files' texts.
    pub fn parse(
        cues: &str,
        headers: &str,
        senders: &str,
        stop_words: &str,
    ) -> Result<Self, LexiconError> {
        let cues: CuesFile = parse("cues.toml", cues)?;
        let cue_phrases: BTreeMap<String, Vec<String>> =
            cues.cues.into_iter().map(|(k, v)| (k, v.phrases)).collect();
        unambiguous(
            "cues.toml",
            cue_phrases.iter().map(|(k, v)| (k.as_str(), v.as_slice())),
        )?;
        // The no-action phrases cancel a request; some are notices' own phrases too, so they
        // are checked on their own.
        unambiguous(
            "cues.toml",
            [("no-action", cues.no_action.phrases.as_slice())],
        )?;
        unambiguous(
            "cues.toml",
            [("to-anyone", cues.to_anyone.phrases.as_slice())],
        )?;
        unambiguous(
            "cues.toml",
            [("not-offer", cues.not_offer.phrases.as_slice())],
        )?;
        unambiguous(
            "cues.toml",
            [
                ("approve", cues.approve_reject.approve.as_slice()),
                ("reject", cues.approve_reject.reject.as_slice()),
            ],
        )?;
        let headers: HeadersFile = parse("headers.toml", headers)?;
        unambiguous(
            "headers.toml",
            [
                ("system-sender", headers.system_sender.locals.as_slice()),
                (
                    "marketing-sender",
                    headers.marketing_sender.locals.as_slice(),
                ),
            ],
        )?;
        unambiguous(
            "headers.toml",
            [
                (
                    "personal-client",
                    headers.personal_client.clients.as_slice(),
                ),
                ("old-client", headers.old_client.clients.as_slice()),
            ],
        )?;
        let senders: SendersFile = parse("senders.toml", senders)?;
        let stop_words: StopWordsFile = parse("stop-words.toml", stop_words)?;
        Ok(Self {
            cue_phrases,
            no_action: cues.no_action.phrases,
            to_anyone: cues.to_anyone.phrases,
            not_offer: cues.not_offer.phrases,
            approve: cues.approve_reject.approve,
            reject: cues.approve_reject.reject,
            price_signs: cues.price.signs,
            issue_prefixes: cues.issue_number.prefixes,
            numbered_items: cues.issue_number.items,
            months: cues.issue_number.months,
            headers: Headers {
                esp_prefixes: headers.esp.header_prefixes,
                esp_mailers: headers.esp.mailers,
                ops_prefixes: headers.ops_tool.header_prefixes,
                system_locals: headers.system_sender.locals,
                marketing_locals: headers.marketing_sender.locals,
                personal_clients: headers.personal_client.clients,
                old_clients: headers.old_client.clients,
                reply_prefixes: headers.reply.prefixes,
                auto_reply_subjects: headers.auto_reply.subjects,
                auto_reply_skip: headers.auto_reply.skip,
                advertisement_labels: headers.advertisement_label.subjects,
                periodical_names: headers.periodical_sender.names,
            },
            social_domains: senders.social_network.domains,
            stop_words: stop_words.stop_words.words.into_iter().collect(),
        })
    }
}

/// The embedded mail words, parsed on first use.
pub fn lexicon() -> &'static Lexicon {
    static LEXICON: OnceLock<Lexicon> = OnceLock::new();
    LEXICON.get_or_init(|| {
        Lexicon::parse(CUES, HEADERS, SENDERS, STOP_WORDS)
            // Embedded data: `tests::the_embedded_mail_words_load` keeps it loadable.
            .expect("the embedded mail words load")
    })
}

/// Whether `word` (lower-case) is too common to name a topic.
pub fn is_stop_word(word: &str) -> bool {
    lexicon().stop_words.contains(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_mail_words_load() {
        let lexicon = Lexicon::parse(CUES, HEADERS, SENDERS, STOP_WORDS).unwrap();
        assert!(
            lexicon.cue_phrases.len() >= 17,
            "{:?}",
            lexicon.cue_phrases.keys()
        );
        assert!(lexicon.headers.reply_prefixes.contains(&"re:".to_owned()));
        assert!(lexicon.social_domains.contains(&"linkedin.com".to_owned()));
        assert!(is_stop_word("the") && !is_stop_word("invoice"));
    }

    #[test]
    fn no_mail_word_list_is_a_rust_const() {
        // Words are data: a named list of strings in the mail model's code would be one that
        // escaped `data/mail/`.
        for (file, source) in [
            ("classifier.rs", include_str!("classifier.rs")),
            ("cues.rs", include_str!("cues.rs")),
            ("evidence.rs", include_str!("evidence.rs")),
            ("features.rs", include_str!("features.rs")),
            ("readable.rs", include_str!("readable.rs")),
            ("message.rs", include_str!("message.rs")),
            ("train.rs", include_str!("train.rs")),
        ] {
            for line in source.lines() {
                let line = line.trim_start();
                let declares = line.starts_with("const ")
                    || line.starts_with("pub const ")
                    || line.starts_with("static ")
                    || line.starts_with("pub static ");
                assert!(!(declares && line.contains("&[&str]")), "{file}: {line}");
            }
        }
    }

    #[test]
    fn a_phrase_under_two_cues_is_refused() {
        let cues = CUES.replacen("phrases = [", "phrases = [\"read more\",", 1);
        let err = Lexicon::parse(&cues, HEADERS, SENDERS, STOP_WORDS).unwrap_err();
        assert!(
            matches!(&err, LexiconError::Ambiguous { phrase, .. } if phrase == "read more"),
            "{err}"
        );
        let cues = CUES.replacen("phrases = [", "phrases = [\"Could You\",", 1);
        assert!(Lexicon::parse(&cues, HEADERS, SENDERS, STOP_WORDS).is_err());
        let headers = HEADERS.replacen("locals = [", "locals = [\"news\",", 1);
        assert!(Lexicon::parse(CUES, &headers, SENDERS, STOP_WORDS).is_err());
        assert!(Lexicon::parse("[x]\nphrases = 3", HEADERS, SENDERS, STOP_WORDS).is_err());
    }
}
