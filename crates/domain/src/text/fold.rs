//! Folding: the one normalisation applied to every name before it is indexed or looked up.
//!
//! `fold` makes the spellings a label, an OCR engine or a user produce for the same name
//! compare equal: Unicode compatibility forms (NFKC: full-width Latin and punctuation, ligatures),
//! case, Latin accents, and every run of punctuation, hyphens or whitespace (one space between
//! Latin words, none next to CJK text, where labels put no spaces).

use unicode_normalization::UnicodeNormalization;

use super::script::is_cjk;

/// Characters removed before anything else: controls, zero-width and bidirectional marks.
/// They are invisible on a label, so they must not change what a name means.
pub fn is_invisible(c: char) -> bool {
    if c.is_ascii() {
        // The ASCII controls are 0x00-0x1F and 0x7F.
        return (c < ' ' && !matches!(c, '\n' | '\t' | '\r')) || c == '\u{7f}';
    }
    matches!(c,
        '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{2069}' | '\u{FEFF}' | '\u{00AD}' | '\u{061C}' | '\u{180E}')
        || (c.is_control() && c != '\n' && c != '\t' && c != '\r')
}

/// Removes invisible characters (see [`is_invisible`]); keeps newlines and tabs.
pub fn clean_invisible(text: &str) -> String {
    // Nearly every text has none: one copy then, rather than a push per character.
    match text.char_indices().find(|(_, c)| is_invisible(*c)) {
        None => text.to_owned(),
        Some((first, _)) => {
            let mut out = String::with_capacity(text.len());
            out.push_str(&text[..first]);
            out.extend(text[first..].chars().filter(|c| !is_invisible(*c)));
            out
        }
    }
}

/// The folded form of `name`: the key of every index. Idempotent: `fold(fold(x)) == fold(x)`.
pub fn fold(name: &str) -> String {
    if name.is_ascii() {
        return fold_ascii(name);
    }
    if let Some(out) = fold_common(name) {
        return out;
    }
    let mut out = fold_once(name);
    // Lower-casing can produce a string whose NFKC form differs (rare compatibility
    // characters); two more passes reach the fixed point for every input proptest found.
    for _ in 0..2 {
        let again = fold_once(&out);
        if again == out {
            break;
        }
        out = again;
    }
    out
}

/// The same result as the general path for ASCII input, without Unicode normalisation
/// (most label names are ASCII; this keeps indexing and matching fast).
fn fold_ascii(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut pending_space = false;
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() {
            if pending_space && !out.is_empty() {
                out.push(' ');
            }
            pending_space = false;
            out.push(char::from(b.to_ascii_lowercase()));
        } else if is_invisible(char::from(b)) {
            // Controls vanish, as in the general path.
        } else if !out.is_empty() {
            pending_space = true;
        }
    }
    out
}

/// Whether the general path's normalisations leave `c` as it is, or change it to characters
/// that are, like `c`, no letter or digit: Latin-1 and Latin Extended-A letters (but the few
/// with compatibility forms: İ, Ĳ, Ŀ, ŉ, ſ), CJK ideographs, kana, Hangul syllables, and the
/// punctuation of labels. Lower-casing and removing accents is then all that folding does,
/// and the result is folded already.
fn is_common(c: char) -> bool {
    matches!(c,
        '\u{00C0}'..='\u{017E}' | '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}'
        | '\u{3041}'..='\u{3096}' | '\u{30A1}'..='\u{30FA}' | '\u{30FC}'
        | '\u{AC00}'..='\u{D7A3}'
        | '\u{00A0}' | '\u{00AB}' | '\u{00B0}' | '\u{00B7}' | '\u{00BB}'
        | '\u{2010}'..='\u{2022}' | '\u{2026}' | '\u{3000}'..='\u{3002}'
        | '\u{3008}'..='\u{3011}' | '\u{30FB}'
        | '\u{FF08}' | '\u{FF09}' | '\u{FF0C}' | '\u{FF1A}' | '\u{FF1B}')
        && !matches!(
            c,
            '\u{0130}' | '\u{0132}' | '\u{0133}' | '\u{013F}' | '\u{0140}' | '\u{0149}'
        )
}

/// [`fold`] of a name whose characters are all ASCII or [`is_common`] (nearly every name of
/// the knowledge base and of labels): one pass, no Unicode normalisation. `None` otherwise.
fn fold_common(name: &str) -> Option<String> {
    if !name.chars().all(|c| c.is_ascii() || is_common(c)) {
        return None;
    }
    let mut chars = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_ascii() {
            if !is_invisible(c) {
                chars.push(c.to_ascii_lowercase());
            }
        } else if c == 'ß' {
            chars.push(SHARP_S);
        } else if c <= '\u{017E}' {
            // One lower-case letter for each of these; its canonical decomposition is the
            // base letter and Latin combining marks, which folding drops.
            for lower in c.to_lowercase() {
                unicode_normalization::char::decompose_canonical(lower, |d| {
                    if !matches!(d, '\u{0300}'..='\u{036F}') {
                        chars.push(d);
                    }
                });
            }
        } else {
            chars.push(c);
        }
    }
    Some(join_words(&chars))
}

/// Like [`fold`] but keeping accents: tells "cacao" (es, cocoa) from "cação" (pt, dogfish)
/// when both fold to the same key.
pub fn fold_keep_accents(name: &str) -> String {
    let lowered: String = name
        .chars()
        .filter(|c| !is_invisible(*c))
        .nfkc()
        .flat_map(char::to_lowercase)
        .collect();
    let mut out = String::with_capacity(lowered.len());
    for word in lowered.split(|c: char| !c.is_alphanumeric()) {
        if word.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Stands in for ß between lower-casing and the separator pass, where it becomes "ss"
/// (a private-use character: no normalisation form touches it).
const SHARP_S: char = '\u{E000}';

fn fold_once(name: &str) -> String {
    // NFKC first (full-width forms become ASCII), then lower case, then NFKD to split accents
    // off Latin letters, dropping only the Latin combining diacritics (U+0300..U+036F): the
    // Japanese voicing marks (U+3099) must stay, or が would become か. NFC recomposes Hangul.
    let lowered: String = name
        .chars()
        .filter(|c| !is_invisible(*c))
        .nfkc()
        .flat_map(char::to_lowercase)
        .map(|c| if c == 'ß' { SHARP_S } else { c })
        .collect();
    let stripped: String = lowered
        .nfkd()
        .filter(|c| !matches!(c, '\u{0300}'..='\u{036F}'))
        .nfc()
        .collect();
    join_words(&stripped)
}

/// The words (runs of letters and digits) of a lower-cased, accent-free text, one space
/// between Latin words and none next to CJK text; [`SHARP_S`] becomes "ss".
fn join_words(stripped: &str) -> String {
    let mut out = String::with_capacity(stripped.len());
    let mut pending_space = false;
    let mut last: Option<char> = None;
    for c in stripped.chars() {
        if c == SHARP_S {
            if pending_space && out.chars().next_back().is_some_and(|l| !is_cjk(l)) {
                out.push(' ');
            }
            pending_space = false;
            out.push_str("ss");
            last = Some('s');
            continue;
        }
        if c.is_alphanumeric() {
            if pending_space && last.is_some_and(|l| !is_cjk(l)) && !is_cjk(c) {
                out.push(' ');
            }
            pending_space = false;
            out.push(c);
            last = Some(c);
        } else if last.is_some() {
            pending_space = true;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn folds_case_accents_width_and_separators() {
        assert_eq!(fold("  Lait  Écrémé "), "lait ecreme");
        assert_eq!(fold("ＧＬＹＣＥＲＩＮ"), "glycerin");
        assert_eq!(fold("Alcohol Denat."), "alcohol denat");
        assert_eq!(fold("1,2-Hexanediol"), "1 2 hexanediol");
        assert_eq!(fold("Süßmolke"), "sussmolke");
        assert_eq!(fold("Sweet-whey"), fold("sweet whey"));
        assert_eq!(fold("정제 수"), "정제수");
        assert_eq!(fold("グリセリン"), "グリセリン");
        assert_eq!(fold("ブドウ糖"), "ブドウ糖", "voicing marks survive");
        assert_eq!(fold("Gly\u{200B}cerin\u{202E}"), "glycerin");
    }

    #[test]
    fn ascii_invisible_characters_are_the_controls_but_line_breaks_and_tabs() {
        for b in 0u8..=0x7f {
            let c = char::from(b);
            let expected = c.is_control() && !matches!(c, '\n' | '\t' | '\r');
            assert_eq!(is_invisible(c), expected, "{b:#x}");
        }
    }

    /// Every name of the knowledge base's entries (canonical, synonyms, codes, translations),
    /// read from the data files as they are on disk.
    fn knowledge_base_names() -> Vec<String> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
        let mut names = Vec::new();
        for file in std::fs::read_dir(dir).expect("the data folder") {
            let path = file.expect("a data file").path();
            if path.extension().is_none_or(|e| e != "toml") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("a data file");
            let value: toml::Value = toml::from_str(&text).expect("TOML");
            let entries = value.get("ingredient").and_then(toml::Value::as_array);
            for entry in entries.into_iter().flatten() {
                let strings = |v: Option<&toml::Value>| -> Vec<String> {
                    match v {
                        Some(toml::Value::String(s)) => vec![s.clone()],
                        Some(toml::Value::Array(a)) => a
                            .iter()
                            .filter_map(|s| s.as_str().map(str::to_owned))
                            .collect(),
                        _ => Vec::new(),
                    }
                };
                for key in ["name", "synonyms", "e_number", "ci_number"] {
                    names.extend(strings(entry.get(key)));
                }
                let translated = entry.get("names").and_then(toml::Value::as_table);
                for v in translated.into_iter().flat_map(|t| t.values()) {
                    names.extend(strings(Some(v)));
                }
            }
        }
        names
    }

    #[test]
    fn every_knowledge_base_name_folds_alike_on_both_paths() {
        let names = knowledge_base_names();
        assert!(names.len() > 10_000, "{}", names.len());
        let mut common = 0;
        for name in &names {
            let mut general = fold_once(name);
            for _ in 0..2 {
                general = fold_once(&general);
            }
            assert_eq!(fold(name), general, "{name}");
            common += usize::from(!name.is_ascii() && fold_common(name).is_some());
        }
        // The fast path is the usual one for names that are not ASCII.
        assert!(common > 1_000, "{common}");
    }

    proptest! {
        #[test]
        fn clean_invisible_drops_exactly_the_invisible_characters(
            s in "[a\u{0}\u{200B}\u{202E}\u{FEFF}\u{AD}\n\t\r\u{7f}é]{0,20}|\\PC{0,20}"
        ) {
            let expected: String = s.chars().filter(|c| !is_invisible(*c)).collect();
            prop_assert_eq!(clean_invisible(&s), expected);
        }

        #[test]
        fn fold_is_idempotent(s in "\\PC{0,40}") {
            let once = fold(&s);
            prop_assert_eq!(fold(&once), once.clone());
        }

        #[test]
        fn fold_never_leaves_edge_or_double_spaces(s in "[ -~éÉ가-힣、，\u{3000}]{0,40}") {
            let f = fold(&s);
            prop_assert!(!f.starts_with(' ') && !f.ends_with(' ') && !f.contains("  "));
        }

        #[test]
        fn common_fast_path_agrees_with_the_general_path(
            s in "[ -~\x01\u{A0}\u{AB}\u{B0}\u{B7}\u{BB}\u{C0}-\u{17E}\u{3000}-\u{3002}\u{3008}-\u{3011}\u{3041}-\u{3096}\u{30A1}-\u{30FC}\u{4E00}-\u{4E80}\u{9F00}-\u{9FFF}\u{3400}-\u{3480}\u{AC00}-\u{AC80}\u{D700}-\u{D7A3}\u{2010}-\u{2026}\u{FF08}\u{FF09}\u{FF0C}\u{FF1A}\u{FF1B}]{0,30}"
        ) {
            let mut general = fold_once(&s);
            for _ in 0..2 { general = fold_once(&general); }
            if s.chars().all(|c| c.is_ascii() || is_common(c)) {
                prop_assert_eq!(fold_common(&s), Some(general));
            } else {
                prop_assert_eq!(fold(&s), general);
            }
        }

        #[test]
        fn ascii_fast_path_agrees_with_the_general_path(s in "[ -~\t\n\x01]{0,40}") {
            let mut general = fold_once(&s);
            for _ in 0..2 { general = fold_once(&general); }
            prop_assert_eq!(fold(&s), general);
        }

    }
}
