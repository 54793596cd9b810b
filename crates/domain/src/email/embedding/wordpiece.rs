//! BERT's uncased WordPiece tokenizer, as the sentence-embedding model was trained with it
//! (`BertTokenizer` with `do_lower_case`, `tokenize_chinese_chars`): clean the text, put
//! spaces around Han characters, split on whitespace, lower-case and strip accents (NFD, then
//! drop non-spacing marks), split off punctuation, then cut each word greedily into the
//! longest vocabulary pieces (`##` marks a piece inside a word); a word that cannot be cut,
//! or longer than 100 characters, is `[UNK]`.
//!
//! Written here rather than taken from the `tokenizers` crate: that crate brings regex, rayon,
//! serde_json models and several proc-macro crates for one pass of a few dozen lines; this one
//! is checked against the reference tokenizer's output (`tests/wordpiece.rs` over texts in
//! several languages, when the model is installed).

use std::collections::HashMap;

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, GeneralCategoryGroup, UnicodeGeneralCategory};

/// Longest word cut into pieces; longer ones are `[UNK]` (the reference's limit).
const MAX_WORD_CHARS: usize = 100;

/// A WordPiece vocabulary: token → id.
#[derive(Debug, Clone)]
pub struct WordPiece {
    ids: HashMap<String, u32>,
    unknown: u32,
}

impl WordPiece {
    /// The tokenizer of a vocabulary given in id order (`vocab.txt`'s lines); `None` when it
    /// has no `[UNK]`.
    pub fn new<'a>(tokens: impl IntoIterator<Item = &'a str>) -> Option<Self> {
        let ids: HashMap<String, u32> = tokens
            .into_iter()
            .enumerate()
            .map(|(id, token)| (token.to_owned(), id as u32))
            .collect();
        let unknown = *ids.get("[UNK]")?;
        Some(Self { ids, unknown })
    }

    /// The id of `[UNK]`.
    pub fn unknown(&self) -> u32 {
        self.unknown
    }

    /// The id of a vocabulary token.
    pub fn id(&self, token: &str) -> Option<u32> {
        self.ids.get(token).copied()
    }

    /// Appends the token ids of `text` to `out` (no `[CLS]` / `[SEP]`), stopping once `out`
    /// holds `max` ids.
    pub fn encode(&self, text: &str, max: usize, out: &mut Vec<u32>) {
        let mut word = String::new();
        for c in text.chars() {
            if out.len() >= max {
                return;
            }
            if c == '\0' || c == '\u{fffd}' || is_control(c) {
                continue;
            }
            let space = is_space(c);
            if space || is_han(c) || is_punctuation(c) {
                self.flush(&mut word, max, out);
                if !space {
                    let mut piece = [0u8; 4];
                    self.push_word(c.encode_utf8(&mut piece), max, out);
                }
                continue;
            }
            word.push(c);
        }
        self.flush(&mut word, max, out);
    }

    /// Lower-cases and strips the accents of the word gathered so far, then splits off any
    /// punctuation the folding produced and cuts the rest into pieces.
    fn flush(&self, word: &mut String, max: usize, out: &mut Vec<u32>) {
        if word.is_empty() {
            return;
        }
        let folded: String = word
            .chars()
            .flat_map(char::to_lowercase)
            .nfd()
            .filter(|&c| c.general_category() != GeneralCategory::NonspacingMark)
            .collect();
        word.clear();
        let mut start = 0;
        for (at, c) in folded.char_indices() {
            if is_punctuation(c) || is_han(c) {
                self.push_word(&folded[start..at], max, out);
                self.push_word(&folded[at..at + c.len_utf8()], max, out);
                start = at + c.len_utf8();
            }
        }
        self.push_word(&folded[start..], max, out);
    }

    /// Greedy longest-match-first pieces of one word.
    fn push_word(&self, word: &str, max: usize, out: &mut Vec<u32>) {
        if word.is_empty() || out.len() >= max {
            return;
        }
        if word.chars().count() > MAX_WORD_CHARS {
            out.push(self.unknown);
            return;
        }
        let mark = out.len();
        let mut start = 0;
        let mut piece = String::new();
        while start < word.len() {
            let mut end = word.len();
            let mut found = None;
            while start < end {
                piece.clear();
                if start > 0 {
                    piece.push_str("##");
                }
                piece.push_str(&word[start..end]);
                if let Some(&id) = self.ids.get(piece.as_str()) {
                    found = Some(id);
                    break;
                }
                // Back off one character.
                end = word[..end]
                    .char_indices()
                    .next_back()
                    .map_or(start, |(at, _)| at);
            }
            match found {
                Some(id) => {
                    out.push(id);
                    start = end;
                }
                None => {
                    out.truncate(mark);
                    out.push(self.unknown);
                    return;
                }
            }
        }
        out.truncate(max);
    }
}

/// BERT's punctuation: ASCII symbols and punctuation, and every Unicode punctuation category.
fn is_punctuation(c: char) -> bool {
    matches!(c as u32, 33..=47 | 58..=64 | 91..=96 | 123..=126)
        || c.general_category_group() == GeneralCategoryGroup::Punctuation
}

/// BERT's whitespace: space, tab, line feed, carriage return and the space separators (Zs).
fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r') || c.general_category() == GeneralCategory::SpaceSeparator
}

/// BERT's control characters, dropped: every "other" category (Cc, Cf, Co, Cn, Cs), tab, line
/// feed and carriage return excepted.
fn is_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r') && c.general_category_group() == GeneralCategoryGroup::Other
}

/// The CJK Unified Ideographs blocks BERT splits character by character (its
/// `_is_chinese_char`: Han only; kana and Hangul are cut like other words).
fn is_han(c: char) -> bool {
    matches!(c as u32,
        0x4e00..=0x9fff
        | 0x3400..=0x4dbf
        | 0x20000..=0x2a6df
        | 0x2a700..=0x2b73f
        | 0x2b740..=0x2b81f
        | 0x2b820..=0x2ceaf
        | 0xf900..=0xfaff
        | 0x2f800..=0x2fa1f)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocab() -> WordPiece {
        WordPiece::new([
            "[PAD]", "[UNK]", "[CLS]", "[SEP]", "un", "##aff", "##able", "hello", "!", ",", "cafe",
            "会", "议", "'", "s", "it",
        ])
        .unwrap()
    }

    fn encode(text: &str) -> Vec<u32> {
        let mut out = Vec::new();
        vocab().encode(text, 64, &mut out);
        out
    }

    #[test]
    fn words_are_cut_into_the_longest_pieces() {
        assert_eq!(encode("unaffable"), vec![4, 5, 6]);
        assert_eq!(encode("  Hello,  UNAFFABLE! "), vec![7, 9, 4, 5, 6, 8]);
    }

    #[test]
    fn accents_fold_and_han_characters_stand_alone() {
        assert_eq!(encode("Café"), vec![10]);
        assert_eq!(encode("会议hello"), vec![11, 12, 7]);
    }

    #[test]
    fn a_word_without_pieces_is_unknown_whole() {
        assert_eq!(encode("unaffxable it's"), vec![1, 15, 13, 14]);
        assert_eq!(encode(&"a".repeat(101)), vec![1]);
    }

    #[test]
    fn control_characters_are_dropped_and_the_cap_holds() {
        assert_eq!(encode("hel\u{200b}lo\u{0}"), vec![7]);
        let mut out = Vec::new();
        vocab().encode("hello hello hello", 2, &mut out);
        assert_eq!(out, vec![7, 7]);
        assert!(WordPiece::new(["a"].into_iter()).is_none());
    }
}
