//! Folding: the one normalisation applied to every name before it is indexed or looked up.
//!
//! `fold` makes the spellings a label, an OCR engine or a user produce for the same name
//! compare equal: Unicode compatibility forms (NFKC: full-width Latin and punctuation, ligatures),
//! case, Latin accents, and every run of punctuation, hyphens or whitespace (one space between
//! Latin words, none next to CJK text, where labels put no spaces).

use unicode_normalization::UnicodeNormalization;

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

/// Whether `c` belongs to a script written without spaces between words (Han, kana, Hangul).
pub fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{1100}'..='\u{11FF}' | '\u{3040}'..='\u{30FF}' | '\u{3130}'..='\u{318F}'
        | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7AF}'
        | '\u{F900}'..='\u{FAFF}' | '\u{20000}'..='\u{2FFFF}')
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

/// A 64-bit set of the bytes of `s` (each byte to one bit): a typo of `d` edits changes at
/// most `2 * d` bits, so candidates farther apart are skipped without computing a distance.
pub fn byte_mask(s: &[u8]) -> u64 {
    s.iter().fold(0u64, |m, b| m | 1u64 << (b % 64))
}

/// Byte counts of `s` in 32 bins: `d` edits change the bins' L1 distance by at most `2 * d`.
pub fn byte_histogram(s: &[u8]) -> [u8; 32] {
    let mut h = [0u8; 32];
    for b in s {
        let bin = usize::from(b % 32);
        h[bin] = h[bin].saturating_add(1);
    }
    h
}

/// The L1 distance of two histograms, stopping early above `max`.
pub fn histogram_distance(a: &[u8; 32], b: &[u8; 32], max: usize) -> bool {
    let mut d = 0usize;
    for (x, y) in a.iter().zip(b) {
        d += usize::from(x.abs_diff(*y));
    }
    d <= max
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

/// The canonical `E123a` form of an E-number or INS number in any spelling ("E 211", "e-211",
/// "INS 211", "E160a(ii)", "E-150 d"), or `None` when `folded` is not one.
/// `folded` must already be folded.
pub fn e_number(folded: &str) -> Option<String> {
    let rest = folded
        .strip_prefix("ins")
        .or_else(|| folded.strip_prefix('e'))?
        .trim_start();
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    if !(3..=4).contains(&digits.len()) {
        return None;
    }
    let mut tail = rest[digits.len()..].trim_start();
    let mut code = format!("E{digits}");
    // An optional letter suffix ("a" in E160a), then an optional roman numeral ("ii").
    let mut chars = tail.chars();
    if let Some(c) = chars.next()
        && matches!(c, 'a'..='h')
        && chars.next().is_none_or(|n| n == ' ')
    {
        code.push(c);
        tail = tail[1..].trim_start();
    }
    if tail.is_empty() {
        return Some(code);
    }
    if tail.chars().all(|c| matches!(c, 'i' | 'v' | 'x')) && tail.len() <= 4 {
        return Some(format!("{code}({tail})"));
    }
    None
}

/// The canonical `CI 12345` form of a Colour Index number ("CI77491", "C.I. 77491",
/// "ci 77491"), or `None`. `folded` must already be folded.
pub fn ci_number(folded: &str) -> Option<String> {
    // "Cl 45350": a lower-case L read or typed for the I. Chlorine's symbol is never
    // followed by a five-digit number, so the misreading is unambiguous.
    let rest = folded
        .strip_prefix("ci")
        .or_else(|| folded.strip_prefix("c i"))
        .or_else(|| folded.strip_prefix("cl"))?
        .trim_start();
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    if digits.len() != 5 {
        return None;
    }
    let tail = rest[5..].trim();
    match tail {
        "" => Some(format!("CI {digits}")),
        // "CI 77491:1" folds to "ci 77491 1"; keep the variant digit.
        t if t.len() == 1 && t.chars().all(|c| c.is_ascii_digit()) => {
            Some(format!("CI {digits}:{t}"))
        }
        _ => None,
    }
}

/// The restricted Damerau-Levenshtein (optimal string alignment) distance between `a` and `b`
/// (bytes of ASCII names, or characters), or `None` as soon as it must exceed `max`.
/// Without allocating: sequences of 64 items or more are never compared (names that long are
/// not typo-corrected).
pub fn bounded_distance<T: PartialEq>(a: &[T], b: &[T], max: usize) -> Option<usize> {
    const N: usize = 64;
    if a.len() >= N || b.len() >= N || a.len().abs_diff(b.len()) > max {
        return None;
    }
    let (n, m) = (a.len(), b.len());
    let mut prev2 = [0usize; N];
    let mut prev = [0usize; N];
    let mut cur = [0usize; N];
    for (j, p) in prev.iter_mut().enumerate().take(m + 1) {
        *p = j;
    }
    for i in 1..=n {
        cur[0] = i;
        let mut row_min = cur[0];
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(prev2[j - 2] + 1);
            }
            cur[j] = v;
            row_min = row_min.min(v);
        }
        if row_min > max {
            return None;
        }
        prev2 = prev;
        prev = cur;
    }
    let d = prev[m];
    (d <= max).then_some(d)
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
    fn e_numbers_in_every_spelling() {
        for s in ["E211", "E 211", "e-211", "INS 211", "ins211", "E-211"] {
            assert_eq!(e_number(&fold(s)).as_deref(), Some("E211"), "{s}");
        }
        assert_eq!(e_number(&fold("E160a")).as_deref(), Some("E160a"));
        assert_eq!(e_number(&fold("E 160 a")).as_deref(), Some("E160a"));
        assert_eq!(e_number(&fold("E150d")).as_deref(), Some("E150d"));
        assert_eq!(e_number(&fold("E160a(ii)")).as_deref(), Some("E160a(ii)"));
        assert_eq!(e_number(&fold("E1422")).as_deref(), Some("E1422"));
        assert_eq!(e_number(&fold("egg")), None);
        assert_eq!(e_number(&fold("E21")), None);
        assert_eq!(e_number(&fold("Emulsifier")), None);
    }

    #[test]
    fn ci_numbers_in_every_spelling() {
        for s in ["CI 77491", "CI77491", "C.I. 77491", "ci-77491", "Cl 77491"] {
            assert_eq!(ci_number(&fold(s)).as_deref(), Some("CI 77491"), "{s}");
        }
        assert_eq!(ci_number(&fold("CI 77163")).as_deref(), Some("CI 77163"));
        assert_eq!(ci_number(&fold("cinnamon")), None);
        assert_eq!(ci_number(&fold("Clove 12345")), None);
    }

    /// Optimal string alignment distance, the textbook full-matrix way (the test's oracle).
    fn osa_distance(a: &[char], b: &[char]) -> usize {
        let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for (i, row) in d.iter_mut().enumerate() {
            row[0] = i;
        }
        for (j, cell) in d[0].iter_mut().enumerate() {
            *cell = j;
        }
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                d[i][j] = (d[i - 1][j] + 1)
                    .min(d[i][j - 1] + 1)
                    .min(d[i - 1][j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
                }
            }
        }
        d[a.len()][b.len()]
    }

    #[test]
    fn distance_counts_transpositions_once() {
        let c = |s: &str| s.chars().collect::<Vec<_>>();
        assert_eq!(bounded_distance(&c("glycerln"), &c("glycerin"), 2), Some(1));
        assert_eq!(bounded_distance(&c("glyecrin"), &c("glycerin"), 2), Some(1));
        assert_eq!(bounded_distance(&c("nutmeg"), &c("nut"), 2), None);
        assert_eq!(bounded_distance(&c("abc"), &c("abc"), 0), Some(0));
    }

    #[test]
    fn ascii_invisible_characters_are_the_controls_but_line_breaks_and_tabs() {
        for b in 0u8..=0x7f {
            let c = char::from(b);
            let expected = c.is_control() && !matches!(c, '\n' | '\t' | '\r');
            assert_eq!(is_invisible(c), expected, "{b:#x}");
        }
    }

    #[test]
    fn every_knowledge_base_name_folds_alike_on_both_paths() {
        let kb = crate::knowledge::KnowledgeBase::embedded();
        let mut common = 0;
        for ing in kb.ingredients() {
            let names = ing
                .primary_names()
                .chain(ing.names.values().flat_map(|n| n.iter()));
            for name in names {
                let mut general = fold_once(name);
                for _ in 0..2 {
                    general = fold_once(&general);
                }
                assert_eq!(fold(name), general, "{name}");
                common += usize::from(!name.is_ascii() && fold_common(name).is_some());
            }
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

        #[test]
        fn bounded_distance_is_the_full_distance_when_small(a in "[a-cé ]{0,12}", b in "[a-cé ]{0,12}") {
            let ca: Vec<char> = a.chars().collect();
            let cb: Vec<char> = b.chars().collect();
            let full = osa_distance(&ca, &cb);
            let expected = (full <= 2).then_some(full);
            prop_assert_eq!(bounded_distance(&ca, &cb, 2), expected);
            if a.is_ascii() && b.is_ascii() {
                prop_assert_eq!(bounded_distance(a.as_bytes(), b.as_bytes(), 2), expected);
            }
        }

        #[test]
        fn e_and_ci_never_panic(s in "\\PC{0,20}") {
            let f = fold(&s);
            let _ = e_number(&f);
            let _ = ci_number(&f);
        }
    }
}
