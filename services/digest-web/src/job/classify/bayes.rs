//! Multinomial naive Bayes over subject and body tokens, trained on `corpus/emails.tsv`.

use std::collections::HashMap;

use domain::email::Category;

/// The labelled corpus shipped with the crate.
pub const CORPUS: &str = include_str!("../../../corpus/emails.tsv");

/// Laplace smoothing constant.
const ALPHA: f64 = 0.5;

/// One labelled example.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Example {
    /// The label.
    pub category: Category,
    /// Subject line.
    pub subject: String,
    /// Body text.
    pub body: String,
}

/// Reads `category<TAB>subject<TAB>body` lines (`#` comments and blank lines skipped).
/// Lines with an unknown category or too few fields are errors naming the line.
pub fn parse_corpus(text: &str) -> Result<Vec<Example>, String> {
    let mut out = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.splitn(3, '\t');
        let (Some(category), Some(subject), Some(body)) =
            (fields.next(), fields.next(), fields.next())
        else {
            return Err(format!(
                "corpus line {}: expected 3 tab-separated fields",
                number + 1
            ));
        };
        let category = Category::parse(category)
            .ok_or_else(|| format!("corpus line {}: unknown category '{category}'", number + 1))?;
        out.push(Example {
            category,
            subject: subject.to_owned(),
            body: body.to_owned(),
        });
    }
    Ok(out)
}

const STOP_WORDS: &[&str] = &[
    "the", "and", "for", "you", "your", "our", "are", "with", "this", "that", "from", "have",
    "has", "was", "were", "will", "not", "but", "all", "can", "its", "it's", "into", "out",
    "about", "just", "here", "there", "them", "they", "his", "her", "she", "him", "who", "what",
    "when", "been", "also", "than", "then", "their", "would", "could", "should", "which", "any",
    "more", "one", "two", "of", "to", "in", "on", "at", "by", "an", "a", "is", "it", "be", "as",
    "or", "we", "us", "me", "my", "so", "if", "do", "no", "up", "re", "fwd", "hi", "hello", "dear",
    "thanks", "thank",
];

/// Whether `word` (lower-case) is a stop word.
pub fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.contains(&word)
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30ff | 0x3400..=0x4dbf | 0x4e00..=0x9fff | 0xac00..=0xd7af)
}

/// Lower-case word tokens; CJK characters one per token; numbers folded to `<num>`; `?`,
/// `%`, currency signs and `!` kept as their own tokens (they carry signal).
pub fn tokenize(text: &str, out: &mut Vec<String>) {
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut Vec<String>| {
        if word.is_empty() {
            return;
        }
        if word.chars().all(|c| c.is_ascii_digit()) {
            out.push("<num>".to_owned());
        } else if word.chars().count() >= 2 && !is_stop_word(word) {
            out.push(std::mem::take(word));
        }
        word.clear();
    };
    for c in text.chars() {
        if is_cjk(c) {
            flush(&mut word, out);
            out.push(c.to_string());
        } else if c.is_alphanumeric() || c == '\'' && !word.is_empty() {
            word.extend(c.to_lowercase());
        } else {
            flush(&mut word, out);
            match c {
                '?' | '？' => out.push("<q>".to_owned()),
                '%' => out.push("<pct>".to_owned()),
                '€' | '$' | '£' | '¥' => out.push("<money>".to_owned()),
                '!' => out.push("<excl>".to_owned()),
                _ => {}
            }
        }
    }
    flush(&mut word, out);
}

/// The tokens of a message: subject twice (it is short and telling), then the body's first
/// 2,000 characters.
pub fn message_tokens(subject: &str, body: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    tokenize(subject, &mut tokens);
    tokenize(subject, &mut tokens);
    tokenize(super::super::mail::truncate_chars(body, 2_000), &mut tokens);
    tokens
}

/// A trained model.
#[derive(Debug, Clone)]
pub struct NaiveBayes {
    log_prior: [f64; 5],
    counts: HashMap<String, [u32; 5]>,
    totals: [u64; 5],
    vocabulary: usize,
}

fn index(c: Category) -> usize {
    Category::ALL.iter().position(|&x| x == c).unwrap_or(0)
}

impl NaiveBayes {
    /// Trains on the examples.
    pub fn train(examples: &[Example]) -> Self {
        let mut docs = [0u64; 5];
        let mut counts: HashMap<String, [u32; 5]> = HashMap::new();
        let mut totals = [0u64; 5];
        for example in examples {
            let i = index(example.category);
            docs[i] += 1;
            for token in message_tokens(&example.subject, &example.body) {
                counts.entry(token).or_default()[i] += 1;
                totals[i] += 1;
            }
        }
        let n = docs.iter().sum::<u64>().max(1) as f64;
        let log_prior = docs.map(|d| ((d as f64 + 1.0) / (n + 5.0)).ln());
        let vocabulary = counts.len().max(1);
        Self {
            log_prior,
            counts,
            totals,
            vocabulary,
        }
    }

    /// Posterior probabilities per category (in [`Category::ALL`] order), tempered so that
    /// long messages do not produce certainty from many weak tokens.
    pub fn posterior(&self, subject: &str, body: &str) -> [f64; 5] {
        let tokens = message_tokens(subject, body);
        let mut log = self.log_prior;
        let mut known = 0usize;
        for token in &tokens {
            let Some(counts) = self.counts.get(token) else {
                continue;
            };
            known += 1;
            for (i, l) in log.iter_mut().enumerate() {
                *l += ((f64::from(counts[i]) + ALPHA)
                    / (self.totals[i] as f64 + ALPHA * self.vocabulary as f64))
                    .ln();
            }
        }
        // Temperature grows with the evidence: naive Bayes' independence assumption makes raw
        // posteriors overconfident.
        let temperature = 1.0 + known as f64 / 8.0;
        let max = log.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let exp = log.map(|l| ((l - max) / temperature).exp());
        let sum: f64 = exp.iter().sum();
        exp.map(|e| e / sum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenizer_keeps_signal_symbols_and_splits_cjk() {
        let mut t = Vec::new();
        tokenize("Can you send 40% off €5? 会议", &mut t);
        assert_eq!(
            t,
            [
                "send", "<num>", "<pct>", "off", "<money>", "<num>", "<q>", "会", "议"
            ]
        );
    }

    #[test]
    fn corpus_parses_with_every_category_well_represented() {
        let examples = parse_corpus(CORPUS).unwrap();
        assert!(examples.len() >= 200, "{}", examples.len());
        for c in Category::ALL {
            let n = examples.iter().filter(|e| e.category == c).count();
            assert!(n >= 35, "{c}: {n}");
        }
    }

    #[test]
    fn bad_corpus_lines_are_errors_with_line_numbers() {
        assert_eq!(
            parse_corpus("# c\nSpam\tx\ty").unwrap_err(),
            "corpus line 2: unknown category 'Spam'"
        );
        assert!(
            parse_corpus("FYI\tonly two")
                .unwrap_err()
                .contains("line 1")
        );
    }

    #[test]
    fn trained_model_separates_obvious_cases() {
        let model = NaiveBayes::train(&parse_corpus(CORPUS).unwrap());
        let p = model.posterior(
            "Huge sale: 60% off",
            "Shop now, limited time offer, free shipping",
        );
        assert_eq!(
            p[index(Category::Promotional)],
            p.iter().copied().fold(0.0, f64::max)
        );
        let p = model.posterior(
            "Can you approve this by Friday?",
            "Please approve the request",
        );
        assert_eq!(
            p[index(Category::NeedAction)],
            p.iter().copied().fold(0.0, f64::max)
        );
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }
}
