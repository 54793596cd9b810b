//! Offline, extractive summaries per category, built from what the digest shows (sender,
//! subject, snippet), so cached and freshly parsed messages summarise alike.
//!
//! - Need-Action: who wants what, by when (the request sentence and the deadline phrase).
//! - Newsletter: the main topics (each issue's headline, recurring themes).
//! - FYI: what happened (each notification's headline).
//! - Promotional and Social: senders with counts, and the offers or latest events.

use std::collections::{BTreeMap, HashMap};

use domain::email::lexicon::is_stop_word;
use domain::email::{Category, EmailItem};

/// One message as the summariser sees it.
#[derive(Debug, Clone, Copy)]
pub struct SummaryInput<'a> {
    /// The digest item.
    pub item: &'a EmailItem,
    /// Display name of the sender, else the address.
    pub sender: &'a str,
}

/// How many messages are named individually before "and N more".
const NAMED: usize = 5;

/// The summary of one category, `None` when it has no messages. `items` newest first.
pub fn summarize(category: Category, items: &[SummaryInput<'_>]) -> Option<String> {
    if items.is_empty() {
        return None;
    }
    Some(match category {
        Category::NeedAction => need_action(items),
        Category::Fyi => fyi(items),
        Category::Newsletter => newsletters(items),
        Category::Promotional => promotional(items),
        Category::Social => social(items),
    })
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn more(items: &[SummaryInput<'_>]) -> String {
    if items.len() > NAMED {
        format!(" And {} more.", items.len() - NAMED)
    } else {
        String::new()
    }
}

/// Sentences of a text (split on . ! ? and the CJK full stops), trimmed, non-empty.
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for c in text.chars() {
        current.push(c);
        if matches!(c, '.' | '!' | '?' | '。' | '？' | '！') {
            let s = current.trim().trim_end_matches('…').trim().to_owned();
            if s.chars().filter(|c| c.is_alphanumeric()).count() >= 3 {
                out.push(s);
            }
            current.clear();
        }
    }
    let rest = current.trim().trim_end_matches('…').trim();
    if rest.chars().filter(|c| c.is_alphanumeric()).count() >= 3 {
        out.push(rest.to_owned());
    }
    out
}

const REQUEST_WORDS: &[&str] = &[
    "please",
    "could you",
    "can you",
    "would you",
    "do you",
    "will you",
    "need your",
    "need you",
    "let me know",
    "approve",
    "confirm",
    "sign",
    "review",
    "send",
    "reply",
    "deadline",
    "due",
    "asap",
    "pouvez-vous",
    "bitte",
    "пожалуйста",
    "お願い",
    "いただけ",
    "请",
];

const WHEN_WORDS: &[&str] = &[
    "today",
    "tonight",
    "tomorrow",
    "end of day",
    "end of the week",
    "this week",
    "next week",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "noon",
    "midnight",
    "lundi",
    "mardi",
    "mercredi",
    "jeudi",
    "vendredi",
    "понедельник",
    "вторник",
    "среды",
    "среда",
    "четверг",
    "пятниц",
    "月曜日",
    "火曜日",
    "水曜日",
    "木曜日",
    "金曜日",
    "明日",
    "周五",
    "周一",
];

const BY_WORDS: &[&str] = &[
    "by ", "before ", "until ", "due ", "avant ", "bis ", "до ", "まで",
];

/// The request sentence of a message: the first sentence with a question mark or a request
/// word, else the first sentence, else the subject.
fn request_sentence(item: &EmailItem) -> String {
    let snippet_sentences = sentences(&item.snippet);
    let is_request = |s: &str| {
        let lower = s.to_lowercase();
        s.contains('?') || s.contains('？') || REQUEST_WORDS.iter().any(|w| lower.contains(w))
    };
    snippet_sentences
        .iter()
        .map(|s| strip_greeting(s))
        .find(|s| !s.is_empty() && is_request(s))
        .map_or_else(|| item.subject.clone(), str::to_owned)
}

/// Drops a leading salutation ("Hi Dana, ", "Bonjour Dana, ", "Dana, ").
fn strip_greeting(sentence: &str) -> &str {
    let mut rest = sentence;
    loop {
        let Some((head, tail)) = rest.split_once(", ") else {
            return rest;
        };
        let words = head.split_whitespace().count();
        let lower = head.to_lowercase();
        let salutation = [
            "hi",
            "hello",
            "hey",
            "dear",
            "bonjour",
            "hallo",
            "здравствуйте",
        ]
        .iter()
        .any(|g| lower.starts_with(g));
        if words <= 3 && (salutation || words == 1) {
            rest = tail.trim_start();
        } else {
            return rest;
        }
    }
}

/// A deadline phrase such as "by Friday noon" or "before Thursday", if the text has one.
pub fn deadline(text: &str) -> Option<String> {
    let lower = lower_same_len(text);
    // Prefer "by/before/until X" where X names a time.
    for by in BY_WORDS {
        let mut from = 0;
        while let Some(pos) = lower[from..].find(by) {
            let start = from + pos;
            let after = &lower[start + by.len()..];
            if WHEN_WORDS.iter().any(|w| after.starts_with(w))
                || after.starts_with(|c: char| c.is_ascii_digit())
                || after.starts_with("the ") && WHEN_WORDS.iter().any(|w| after[4..].starts_with(w))
            {
                let phrase: String = text[start..]
                    .split_inclusive(' ')
                    .take(if after.starts_with(|c: char| c.is_ascii_digit()) {
                        3
                    } else {
                        2
                    })
                    .collect();
                let phrase = phrase
                    .trim()
                    .trim_end_matches(|c: char| !c.is_alphanumeric())
                    .to_owned();
                if is_boundary(&lower, start) {
                    return Some(phrase);
                }
            }
            from = start + by.len();
        }
    }
    WHEN_WORDS
        .iter()
        .filter_map(|w| lower.find(w).map(|p| (p, *w)))
        .filter(|(p, w)| !w.is_ascii() || is_boundary(&lower, *p) && ends_word(&lower, p + w.len()))
        .min_by_key(|(p, _)| *p)
        .map(|(p, w)| text[p..p + w.len()].to_owned())
}

/// Lower-cases every character whose lower case has the same UTF-8 length (nearly all), so
/// byte offsets found in the result are valid in `text` too (`str::to_lowercase` can change
/// lengths, e.g. `İ`).
fn lower_same_len(text: &str) -> String {
    text.chars()
        .map(|c| {
            let mut lower = c.to_lowercase();
            match (lower.next(), lower.next()) {
                (Some(l), None) if l.len_utf8() == c.len_utf8() => l,
                _ => c,
            }
        })
        .collect()
}

fn ends_word(text: &str, end: usize) -> bool {
    text[end..]
        .chars()
        .next()
        .is_none_or(|c| !c.is_alphanumeric())
}

fn is_boundary(text: &str, pos: usize) -> bool {
    text[..pos]
        .chars()
        .next_back()
        .is_none_or(|c| !c.is_alphanumeric())
}

fn need_action(items: &[SummaryInput<'_>]) -> String {
    let mut out = format!(
        "{} waiting for you.",
        plural(items.len(), "request is", "requests are")
    );
    for input in items.iter().take(NAMED) {
        let request = request_sentence(input.item);
        let when = deadline(&format!("{} {}", input.item.subject, input.item.snippet));
        out.push_str(&format!(" {} asks: “{}”", input.sender, request));
        match when {
            Some(w) => out.push_str(&format!(" — {w}.")),
            None => out.push('.'),
        }
    }
    out.push_str(&more(items));
    out
}

/// A subject without list tags (`[build]`), reply prefixes and trailing punctuation.
fn headline(subject: &str) -> String {
    let mut s = subject.trim();
    loop {
        let lower = s.to_ascii_lowercase();
        if lower.starts_with("re:") || lower.starts_with("fw:") {
            s = s[3..].trim_start();
        } else if lower.starts_with("fwd:") {
            s = s[4..].trim_start();
        } else if s.starts_with('[')
            && let Some(end) = s.find(']')
        {
            s = s[end + 1..].trim_start();
        } else {
            break;
        }
    }
    s.trim_end_matches(['.', ' ']).to_owned()
}

fn fyi(items: &[SummaryInput<'_>]) -> String {
    let mut out = format!("{}.", plural(items.len(), "update", "updates"));
    for input in items.iter().take(NAMED) {
        let mut line = headline(&input.item.subject);
        if line.split_whitespace().count() < 3
            && let Some(first) = sentences(&input.item.snippet).into_iter().next()
        {
            line = format!("{line}: {first}");
        }
        out.push_str(&format!(
            " {}: {}.",
            input.sender,
            line.trim_end_matches(['.', '!'])
        ));
    }
    out.push_str(&more(items));
    out
}

/// Words that appear in at least two messages' subjects or snippets, most frequent first.
fn themes(items: &[SummaryInput<'_>], limit: usize) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    for input in items {
        let text = format!("{} {}", input.item.subject, input.item.snippet).to_lowercase();
        let mut words: Vec<String> = text
            .split(|c: char| !c.is_alphanumeric() && c != '-')
            .filter(|w| w.chars().count() >= 4 && !is_stop_word(w))
            .filter(|w| !w.chars().all(|c| c.is_ascii_digit()))
            .map(str::to_owned)
            .collect();
        words.sort();
        words.dedup();
        for w in words {
            *seen.entry(w).or_default() += 1;
        }
    }
    let mut common: Vec<_> = seen
        .into_iter()
        .filter(|(w, n)| *n >= 3 && !GENERIC.contains(&w.as_str()))
        .collect();
    common.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    common.into_iter().take(limit).map(|(w, _)| w).collect()
}

const GENERIC: &[&str] = &[
    "this",
    "week",
    "issue",
    "newsletter",
    "weekly",
    "read",
    "online",
    "edition",
    "letter",
    "month",
    "today",
    "more",
    "news",
    "digest",
    "also",
    "from",
    "team",
];

fn newsletters(items: &[SummaryInput<'_>]) -> String {
    let mut out = format!("{}.", plural(items.len(), "newsletter", "newsletters"));
    for input in items.iter().take(NAMED) {
        let subject = headline(&input.item.subject);
        // "Name #12: topics" → "topics"; a bare subject is the topic itself.
        let topic = subject
            .split_once(": ")
            .map_or(subject.as_str(), |(_, t)| t)
            .trim();
        out.push_str(&format!(
            " {}: {}.",
            input.sender,
            topic.trim_end_matches('.')
        ));
    }
    out.push_str(&more(items));
    let themes = themes(items, 5);
    if !themes.is_empty() {
        out.push_str(&format!(" Recurring themes: {}.", themes.join(", ")));
    }
    out
}

/// Senders with counts, most messages first: "A (3), B, C".
fn sender_counts(items: &[SummaryInput<'_>]) -> (usize, String) {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for input in items {
        *counts.entry(input.sender).or_default() += 1;
    }
    let distinct = counts.len();
    let mut sorted: Vec<_> = counts.into_iter().collect();
    sorted.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let shown: Vec<String> = sorted
        .iter()
        .take(8)
        .map(|(s, n)| {
            if *n > 1 {
                format!("{s} ({n})")
            } else {
                (*s).to_owned()
            }
        })
        .collect();
    let mut list = shown.join(", ");
    if distinct > 8 {
        list.push_str(&format!(" and {} others", distinct - 8));
    }
    (distinct, list)
}

/// Offer phrases from subjects: "40% off everything", "3 months free", codes.
fn offers(items: &[SummaryInput<'_>]) -> Vec<String> {
    let mut out = Vec::new();
    for input in items {
        let subject = &input.item.subject;
        let words: Vec<&str> = subject.split_whitespace().collect();
        let found = words.iter().enumerate().find_map(|(i, w)| {
            let lw = w.to_lowercase();
            let next_is = |w: &str| words.get(i + 1).is_some_and(|n| n.eq_ignore_ascii_case(w));
            let prev_is = |ws: &[&str]| {
                i > 0
                    && ws
                        .iter()
                        .any(|w| words[i - 1].to_lowercase().trim_matches(':') == *w)
            };
            if lw.contains('%') {
                let start = if prev_is(&["to"]) && i >= 2 && words[i - 2].eq_ignore_ascii_case("up")
                {
                    i - 2
                } else if prev_is(&["save", "extra"]) {
                    i - 1
                } else {
                    i
                };
                let end = if next_is("off") { i + 2 } else { i + 1 };
                Some(words[start..end].join(" "))
            } else if lw == "free" {
                if prev_is(&["months", "month", "days", "weeks"]) && i >= 2 {
                    Some(words[i - 2..=i].join(" "))
                } else {
                    Some(words[i..(i + 2).min(words.len())].join(" "))
                }
            } else if lw.starts_with("code") {
                words.get(i + 1).map(|c| format!("code {c}"))
            } else {
                None
            }
        });
        if let Some(offer) = found {
            let offer = offer
                .trim_matches(|c: char| !c.is_alphanumeric() && c != '%')
                .to_owned();
            if !out.contains(&offer) {
                out.push(offer);
            }
        }
    }
    out.truncate(4);
    out
}

fn promotional(items: &[SummaryInput<'_>]) -> String {
    let (distinct, list) = sender_counts(items);
    let mut out = format!(
        "{} from {}: {list}.",
        plural(items.len(), "promotional email", "promotional emails"),
        plural(distinct, "sender", "senders")
    );
    let offers = offers(items);
    if !offers.is_empty() {
        out.push_str(&format!(" Offers include: {}.", offers.join("; ")));
    }
    out
}

fn social(items: &[SummaryInput<'_>]) -> String {
    let (distinct, list) = sender_counts(items);
    let mut out = format!(
        "{} from {}: {list}.",
        plural(items.len(), "notification", "notifications"),
        plural(distinct, "network", "networks")
    );
    let latest: Vec<String> = items
        .iter()
        .take(3)
        .map(|i| headline(&i.item.subject))
        .collect();
    out.push_str(&format!(" Latest: {}.", latest.join("; ")));
    out
}

#[cfg(test)]
mod tests;
