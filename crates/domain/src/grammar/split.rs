//! The one splitter of ingredient lists: where an item ends, for `/analyze`
//! ([`crate::parse`]) and `/ocr` ([`crate::ocr::label::split_items`]) alike.
//!
//! A list splits at its top-level separators: `,` (not between two digits: "1,2-hexanediol",
//! "13,5 %"), `;` `；`, line breaks, `、` `，`, the bullets `•` `·`, the full-width slash `／`
//! (Japanese labels put it between the ingredients and the additives), and a full stop or `。`
//! that ends a sentence (followed by a space or the end; not after a digit, "1. Water", nor
//! after an abbreviation, "Alcohol Denat.", nor after an initialism, "C.I. 77491"). It never splits inside brackets: `()` `[]` `{}`
//! `（）` `【】` `〈〉` `「」` `《》`. Which brackets pair is a pass of its own, one per kind of
//! text: as printed ([`Brackets::new`]: a bracket is closed by its own kind, an unmatched one
//! is an ordinary character) for a list a user typed, as read ([`Brackets::as_read`]: any
//! closing bracket closes the innermost one, an unclosed one runs to the end) for the text an
//! OCR engine read.
//!
//! Scanning works on byte offsets: every separator and bracket is a known character, found
//! through a table of the bytes that start it ([`CharSet`]), and brackets are matched only in
//! texts that have an opening bracket.

use super::words;

/// The closing bracket of `c` when `c` opens a bracket.
pub(crate) fn closer_of(c: char) -> Option<char> {
    match c {
        '(' => Some(')'),
        '[' => Some(']'),
        '{' => Some('}'),
        '（' => Some('）'),
        '【' => Some('】'),
        '〈' => Some('〉'),
        '「' => Some('」'),
        '《' => Some('》'),
        '〔' => Some('〕'),
        _ => None,
    }
}

/// Whether `c` opens a bracket.
pub(crate) fn is_opener(c: char) -> bool {
    closer_of(c).is_some()
}

/// Whether `c` closes a bracket.
pub(crate) fn is_closer(c: char) -> bool {
    matches!(c, ')' | ']' | '}' | '）' | '】' | '〉' | '」' | '》' | '〕')
}

/// A set of characters the parser looks for, with a table of the bytes that start them in
/// UTF-8: scanning reads bytes and decodes a character only where one may start. The table
/// holds the first byte of every character of the set (see the test
/// `char_sets_know_the_first_byte_of_their_characters`); for an ASCII character, which is its
/// own first byte, the table is the set (the same test), so that `contains` is
/// asked about other characters only.
pub(crate) struct CharSet {
    /// Whether a byte starts a character of the set.
    pub(crate) first_bytes: [bool; 256],
    /// Whether a character is in the set.
    pub(crate) contains: fn(char) -> bool,
}

impl CharSet {
    /// The set of `chars` (every character `contains` accepts must be among them).
    pub(crate) const fn new(chars: &[char], contains: fn(char) -> bool) -> Self {
        let mut first_bytes = [false; 256];
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i] as u32;
            let first = match c {
                0..0x80 => c,
                0x80..0x800 => 0xC0 | (c >> 6),
                0x800..0x1_0000 => 0xE0 | (c >> 12),
                _ => 0xF0 | (c >> 18),
            };
            first_bytes[first as usize] = true;
            i += 1;
        }
        Self {
            first_bytes,
            contains,
        }
    }

    /// The first character of the set in `text` at or after byte `from` that does not continue
    /// an ASCII word (an ASCII letter after an ASCII letter or digit), with its offset.
    pub(crate) fn find_word_start(&self, text: &str, from: usize) -> Option<(usize, char)> {
        let bytes = text.as_bytes();
        let mut after_word = from > 0 && ASCII_WORD[usize::from(bytes[from - 1])];
        for (at, &b) in bytes.iter().enumerate().skip(from) {
            if self.first_bytes[usize::from(b)] && !(after_word && b.is_ascii_alphabetic()) {
                if b.is_ascii() {
                    return Some((at, char::from(b)));
                }
                // A byte of the table starts a character: continuation bytes are never in it.
                let c = text[at..].chars().next()?;
                if (self.contains)(c) {
                    return Some((at, c));
                }
            }
            after_word = ASCII_WORD[usize::from(b)];
        }
        None
    }

    /// The first character of the set in `text` at or after byte `from`, with its offset.
    pub(crate) fn find(&self, text: &str, from: usize) -> Option<(usize, char)> {
        let mut at = from;
        while let Some(skip) = text.as_bytes()[at..]
            .iter()
            .position(|b| self.first_bytes[usize::from(*b)])
        {
            at += skip;
            let b = text.as_bytes()[at];
            if b.is_ascii() {
                return Some((at, char::from(b)));
            }
            // A byte of the table starts a character: continuation bytes are never in it.
            let c = text[at..].chars().next()?;
            if (self.contains)(c) {
                return Some((at, c));
            }
            at += c.len_utf8();
        }
        None
    }
}

/// The ASCII letters and digits, as a table: one load per byte in the scan for word starts.
static ASCII_WORD: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 128 {
        table[b] = (b as u8).is_ascii_alphanumeric();
        b += 1;
    }
    table
};

/// Opening and closing brackets, for matching them.
pub(crate) static BRACKETS: CharSet = CharSet::new(
    &[
        '(', '[', '{', '（', '【', '〈', '「', '《', '〔', ')', ']', '}', '）', '】', '〉', '」',
        '》', '〕',
    ],
    |c| is_opener(c) || is_closer(c),
);

/// Where an item may end, or a bracketed part or sub-ingredients after a colon start.
pub(crate) static ITEM_ENDS: CharSet = CharSet::new(
    &[
        '(', '[', '{', '（', '【', '〈', '「', '《', '〔', ';', '\n', '、', '，', '；', '•', '·',
        ',', '.', '。', ':', '：', '／',
    ],
    |c| is_opener(c) || may_separate(c) || matches!(c, ':' | '：'),
);

/// The opening brackets.
pub(crate) const OPENERS: [char; 9] = ['(', '[', '{', '（', '【', '〈', '「', '《', '〔'];

/// The matched bracket pairs of one text, as byte offsets of the opening and closing bracket,
/// found on first use: most items have no brackets, and then cost no matching at all.
///
/// Every user scans its text from the start and asks about each opening bracket it meets, so
/// the first question is about the first opening bracket, and matching starts there: the
/// closing brackets before it close nothing.
pub(crate) struct Brackets<'a> {
    pub(crate) text: &'a str,
    pub(crate) pairs: Option<Vec<(usize, usize)>>,
}

impl<'a> Brackets<'a> {
    /// The brackets of `text` as printed: a bracket is closed by its own kind, and one left
    /// unmatched is an ordinary character (a list typed or pasted).
    pub(crate) fn new(text: &'a str) -> Self {
        Self { text, pairs: None }
    }

    /// The brackets of `text` as an OCR engine reads them: a closing bracket of any kind
    /// closes the innermost open one (`[4590)` is one misread bracket), one with none open is
    /// a speck, and a bracket left open runs to the end of the text (its pair is at
    /// `text.len()`), so that its commas stay inside.
    pub(crate) fn as_read(text: &'a str) -> Self {
        let mut pairs = Vec::new();
        let mut open: Vec<usize> = Vec::new();
        let mut from = 0;
        while let Some((i, c)) = BRACKETS.find(text, from) {
            from = i + c.len_utf8();
            if is_opener(c) {
                open.push(i);
            } else if let Some(start) = open.pop() {
                pairs.push((start, i));
            }
        }
        pairs.extend(open.into_iter().map(|start| (start, text.len())));
        pairs.sort_unstable();
        Self {
            text,
            pairs: Some(pairs),
        }
    }

    /// The offset of the bracket closing the one that opens at `open`, if it is matched.
    pub(crate) fn close(&mut self, open: usize) -> Option<usize> {
        let pairs = self.pairs.get_or_insert_with(|| {
            debug_assert!(
                !self.text[..open].contains(is_opener),
                "asked after the first"
            );
            match_brackets(self.text, open)
        });
        let i = pairs.binary_search_by_key(&open, |p| p.0).ok()?;
        Some(pairs[i].1)
    }
}

/// The matching close of each opening bracket from byte `from` on (where the first opening
/// bracket is), ordered by the opening bracket. Unmatched
/// brackets are ordinary characters. Matching a part of a text that cuts no pair gives the
/// same pairs as matching the whole text, so sub-lists are matched on their own.
fn match_brackets(text: &str, from: usize) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    let mut stack: Vec<(usize, char)> = Vec::new();
    let mut from = from;
    while let Some((i, c)) = BRACKETS.find(text, from) {
        from = i + c.len_utf8();
        if let Some(close) = closer_of(c) {
            stack.push((i, close));
        } else if let Some(pos) = stack.iter().rposition(|(_, close)| *close == c) {
            // Closes the nearest matching opener; openers above it stay unmatched.
            pairs.push((stack[pos].0, i));
            stack.truncate(pos);
        }
    }
    pairs.sort_unstable();
    pairs
}

/// Whether `c` may end an item: the characters [`is_separator`] can accept.
fn may_separate(c: char) -> bool {
    matches!(
        c,
        ';' | '\n' | '、' | '，' | '；' | '•' | '·' | ',' | '.' | '。' | '／'
    )
}

/// Whether the character `c` at byte `at` of `text` ends an item of `text`.
pub(crate) fn is_separator(text: &str, at: usize, c: char) -> bool {
    // Digits are ASCII, and no byte of another character is an ASCII digit: the bytes next
    // to `c` tell whether the characters next to it are digits.
    let bytes = text.as_bytes();
    let after = at + c.len_utf8();
    let digit_before = at > 0 && bytes[at - 1].is_ascii_digit();
    match c {
        // The full-width slash: Japanese labels separate the additives from the other
        // ingredients with it (食品表示基準); INCI slash forms use the ASCII one.
        ';' | '\n' | '、' | '，' | '；' | '•' | '·' | '／' => true,
        ',' => !(digit_before && bytes.get(after).is_some_and(u8::is_ascii_digit)),
        '.' | '。' => {
            if c == '.' && !text[after..].chars().next().is_none_or(char::is_whitespace) {
                return false;
            }
            // "1. Water": list numbering, not the end of a sentence.
            if c == '.' && digit_before {
                return false;
            }
            // "C.I. 77491", "F.I.L. C39846/1": the last letter of an initialism.
            if c == '.' && ends_initialism(&bytes[..at]) {
                return false;
            }
            !ends_with_abbreviation(&text[..at])
        }
        _ => false,
    }
}

/// Whether `before` ends with a letter of an initialism: one ASCII letter after a full stop
/// that follows another ("C.I", "F.I.L").
fn ends_initialism(before: &[u8]) -> bool {
    matches!(before, [.., first, b'.', last]
        if first.is_ascii_alphabetic() && last.is_ascii_alphabetic())
}

/// Whether the word (run of letters) at the end of `before` is one of the abbreviations.
pub(crate) fn ends_with_abbreviation(before: &str) -> bool {
    let start = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphabetic())
        .last()
        .map_or(before.len(), |(i, _)| i);
    let word = &before[start..];
    let abbreviations = &words().abbreviations;
    // The usual case without allocating: every abbreviation is lower-case ASCII.
    if word.is_ascii() {
        return abbreviations.iter().any(|a| a.eq_ignore_ascii_case(word));
    }
    let lower: String = word.chars().flat_map(char::to_lowercase).collect();
    abbreviations.contains(&lower)
}

/// The top-level items of a list: the text between separators outside matched brackets. A
/// list of n separators has n + 1 items, empty ones included.
pub(crate) struct TopLevel<'a> {
    text: &'a str,
    brackets: Brackets<'a>,
    /// Where the current item starts; `None` once the last item is returned.
    start: Option<usize>,
    /// Where scanning goes on.
    pos: usize,
    /// `text` has only single spaces as whitespace (see [`Item::collapsed`]).
    collapsed: bool,
}

impl<'a> TopLevel<'a> {
    /// The items of `text`, its brackets as printed ([`Brackets::new`]).
    pub(crate) fn new(text: &'a str) -> Self {
        Self::with(Brackets::new(text))
    }

    /// The items of the text of `brackets`, read with those brackets.
    pub(crate) fn with(brackets: Brackets<'a>) -> Self {
        Self {
            text: brackets.text,
            brackets,
            start: Some(0),
            pos: 0,
            collapsed: false,
        }
    }

    /// Marks `text` as having only single spaces as whitespace.
    pub(crate) fn collapsed(self, collapsed: bool) -> Self {
        Self { collapsed, ..self }
    }
}

/// One item of a list, as [`TopLevel`] found it.
#[derive(Clone, Copy)]
pub(crate) struct Item<'a> {
    /// The item's text, as in the list.
    pub(crate) text: &'a str,
    /// No bracket and no colon in `text`: nothing to cut off its name.
    pub(crate) plain: bool,
    /// Only single spaces as whitespace in `text` (a part of collapsed text or of a printable
    /// ASCII list without double spaces): once its ends are trimmed, nothing to collapse.
    pub(crate) collapsed: bool,
}

impl<'a> Iterator for TopLevel<'a> {
    type Item = Item<'a>;

    fn next(&mut self) -> Option<Item<'a>> {
        let start = self.start?;
        let text = self.text;
        let mut plain = true;
        while let Some((at, c)) = ITEM_ENDS.find(text, self.pos) {
            if is_opener(c) {
                plain = false;
                if let Some(close) = self.brackets.close(at) {
                    // The closing bracket as read may be of another kind, or the text's end.
                    self.pos = close + text[close..].chars().next().map_or(0, char::len_utf8);
                    continue;
                }
            }
            plain &= !matches!(c, ':' | '：');
            self.pos = at + c.len_utf8();
            if is_separator(text, at, c) {
                self.start = Some(self.pos);
                return Some(Item {
                    text: &text[start..at],
                    plain,
                    collapsed: self.collapsed,
                });
            }
        }
        self.start = None;
        Some(Item {
            text: &text[start..],
            plain,
            collapsed: self.collapsed,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_word_table_holds_the_ascii_letters_and_digits() {
        for b in 0..=u8::MAX {
            assert_eq!(ASCII_WORD[usize::from(b)], b.is_ascii_alphanumeric(), "{b}");
        }
    }

    /// The allocating definition that `ends_with_abbreviation` must keep agreeing with.
    fn ends_with_abbreviation_reference(before: &[char]) -> bool {
        let word: String = before
            .iter()
            .rev()
            .take_while(|c| c.is_alphabetic())
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .flat_map(|c| c.to_lowercase())
            .collect();
        words().abbreviations.contains(&word)
    }

    #[test]
    fn abbreviations_end_words_in_any_case() {
        for (text, expected) in [
            ("Alcohol Denat", true),
            ("alcohol DENAT", true),
            ("Vit", true),
            ("Lavandula sp", true),
            ("Water", false),
            ("xdenat", false),
            ("Denat1", false),
            ("", false),
        ] {
            assert_eq!(ends_with_abbreviation(text), expected, "{text}");
        }
    }

    fn items(text: &str, brackets: Brackets<'_>) -> Vec<String> {
        let _ = text;
        TopLevel::with(brackets)
            .map(|i| i.text.trim().to_owned())
            .collect()
    }

    #[test]
    fn brackets_as_printed_and_as_read() {
        let text = "a (b, c], d, e [f, g";
        // As printed: "(" and "]" are of two kinds, "[" is never closed.
        assert_eq!(
            items(text, Brackets::new(text)),
            ["a (b", "c]", "d", "e [f", "g"]
        );
        // As read: "]" closes "(", and "[" runs to the end.
        assert_eq!(
            items(text, Brackets::as_read(text)),
            ["a (b, c]", "d", "e [f, g"]
        );
        let text = "x), y 《z, w》";
        assert_eq!(items(text, Brackets::as_read(text)), ["x)", "y 《z, w》"]);
        assert_eq!(items(text, Brackets::new(text)), ["x)", "y 《z, w》"]);
    }

    #[test]
    fn separators_of_every_script_and_sentence_ends() {
        let text = "a; b\nc、d，e；f • g · h／i. j。k, 1,2-x, Alcohol Denat. l, 12. m";
        assert_eq!(
            items(text, Brackets::new(text)),
            [
                "a",
                "b",
                "c",
                "d",
                "e",
                "f",
                "g",
                "h",
                "i",
                "j",
                "k",
                "1,2-x",
                "Alcohol Denat. l",
                "12. m"
            ]
        );
    }

    proptest! {
        #[test]
        fn abbreviation_test_matches_its_definition(
            s in "[a-zA-Z ]{0,3}(denat|DeNaT|spp|approx|hydrogx|[a-zA-ZİKıß\u{212a}é]{0,8})"
        ) {
            let chars: Vec<char> = s.chars().collect();
            prop_assert_eq!(
                ends_with_abbreviation(&s),
                ends_with_abbreviation_reference(&chars)
            );
        }

    }
}
