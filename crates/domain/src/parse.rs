//! Splitting a label's ingredient list into ingredients.
//!
//! [`split_ingredients`] turns the text of a label (typed, pasted, or from OCR) into
//! [`ParsedIngredient`]s:
//!
//! - a leading header in any of the nine label languages ("Ingredients:", "Zutaten:", "성분:",
//!   "配料:", ...) is dropped, with anything before it on earlier lines;
//! - the list splits on top-level `,` `;` newlines, `、` `，` `；` and sentence-ending full
//!   stops, never inside `()` `[]` `{}` `（）` `【】` `〈〉` (unbalanced brackets are ordinary
//!   characters); a comma between two digits is part of the name ("1,2-hexanediol", "13,5 %");
//! - a bracketed part becomes sub-ingredients ("chocolate (sugar, cocoa butter, milk powder)"),
//!   and so does what follows a colon inside an ingredient ("emulsifier: soy lecithin");
//! - percentages, bullets, numbering, footnote marks and trailing full stops are removed
//!   (a full stop that ends an abbreviation such as "Alcohol Denat." stays);
//! - "may contain ...", "peut contenir ...", "kann Spuren von ... enthalten", "可能含有..." and
//!   the like become ingredients flagged as traces.
//!
//! Invisible characters (zero-width, bidirectional marks, controls, NUL) are removed first.

use std::borrow::Cow;

use crate::knowledge::fold::{clean_invisible, is_invisible};

/// One ingredient of a list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedIngredient {
    /// The ingredient as given on the label, without list noise (bullets, trailing full stop).
    pub text: String,
    /// The name to match: `text` without bracketed parts, percentages and footnote marks.
    pub name: String,
    /// Bracketed or colon-introduced sub-ingredients.
    pub sub: Vec<ParsedIngredient>,
    /// From a "may contain" statement: present only as a possible trace.
    pub trace: bool,
}

/// Section headers that introduce an ingredient list (the spec's table plus common variants),
/// lowercase.
const HEADERS: &[&str] = &[
    "ingredients",
    "ingredient list",
    "ingrédients",
    "ingredients/ingrédients",
    "composition",
    "ingredientes",
    "inhaltsstoffe",
    "zutaten",
    "ingredienti",
    "전성분",
    "성분",
    "원재료명",
    "원재료",
    "全成分",
    "成分",
    "原材料名",
    "原材料",
    "配料表",
    "配料",
];

/// Phrases that introduce possible traces, lowercase. Longer phrases first.
const TRACE_MARKERS: &[&str] = &[
    "may contain traces of",
    "may contain traces",
    "may also contain",
    "may contain",
    "contains traces of",
    "produced in a factory that also handles",
    "made in a factory that also handles",
    "peut contenir des traces de",
    "peut contenir des traces d'",
    "peut contenir des traces",
    "peut contenir",
    "traces éventuelles de",
    "traces possibles de",
    "puede contener trazas de",
    "puede contener",
    "contiene trazas de",
    "kann spuren von",
    "kann spuren",
    "kann enthalten",
    "spuren von",
    "può contenere tracce di",
    "può contenere",
    "pode conter traços de",
    "pode conter vestígios de",
    "pode conter",
    "可能含有",
    "可能含",
    "含む可能性があります",
];

/// Words after which a full stop is part of the name.
const ABBREVIATIONS: &[&str] = &[
    "denat", "ext", "extr", "fil", "sp", "spp", "ssp", "subsp", "var", "vit", "no", "nr", "st",
    "dest", "aq", "min", "max", "approx", "ca", "conc", "hydrog", "incl", "ol", "pulv", "sq",
];

/// Words trimmed from the end of a trace list ("kann Spuren von Milch enthalten").
const TRACE_TAILS: &[&str] = &["enthalten", "enthalten sein", "包含", "を含む", "포함"];

/// How deep brackets are split into sub-ingredients; deeper text stays one name.
const MAX_DEPTH: usize = 4;

/// Splits a label's ingredient list. See the module documentation for the rules.
pub fn split_ingredients(text: &str) -> Vec<ParsedIngredient> {
    // Most lists have no invisible characters and no carriage returns: no copies then.
    let visible = if text.chars().any(is_invisible) {
        Cow::Owned(clean_invisible(text))
    } else {
        Cow::Borrowed(text)
    };
    let unix = if visible.contains('\r') {
        Cow::Owned(visible.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        visible
    };
    let cleaned = join_hyphenated_lines(unix);
    let body = strip_header(&cleaned);
    let chars: Vec<char> = body.chars().collect();
    let (main, traces) = split_traces(&chars);
    let mut out = Vec::new();
    for span in split_top(&main) {
        if let Some(item) = parse_item(&main[span.0..span.1], 0, false) {
            out.push(item);
        }
    }
    for t in traces {
        for span in split_top(&t) {
            for piece in split_conjunctions(&t[span.0..span.1]) {
                if let Some(item) = parse_item(&piece, 0, true) {
                    out.push(item);
                }
            }
        }
    }
    out
}

/// [`split_ingredients`], then joins two neighbours again when `is_name` says that "first,
/// second" is one name ("Sodium, Potassium and Calcium Salts of Fatty Acids", E470a).
pub fn split_ingredients_with(text: &str, is_name: &dyn Fn(&str) -> bool) -> Vec<ParsedIngredient> {
    let items = split_ingredients(text);
    let mut out: Vec<ParsedIngredient> = Vec::with_capacity(items.len());
    for item in items {
        if let Some(prev) = out.last_mut()
            && !prev.trace
            && !item.trace
            && prev.sub.is_empty()
        {
            let joined = format!("{}, {}", prev.text, item.text);
            if is_name(&joined) {
                prev.name = format!("{}, {}", prev.name, item.name);
                prev.text = joined;
                prev.sub = item.sub;
                continue;
            }
        }
        out.push(item);
    }
    out
}

/// Joins a word that a label or OCR broke across lines with a hyphen ("Sodium Lau-\nryl
/// Sulfate"): a hyphen between a letter and a line break followed by a lower-case letter.
fn join_hyphenated_lines(text: Cow<'_, str>) -> Cow<'_, str> {
    if !text.contains("-\n") {
        return text;
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '-'
            && i > 0
            && chars[i - 1].is_alphabetic()
            && chars.get(i + 1) == Some(&'\n')
            && chars.get(i + 2).is_some_and(|c| c.is_lowercase())
        {
            i += 2;
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    Cow::Owned(out)
}

fn strip_header(text: &str) -> &str {
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let offset = line_start + (line.len() - trimmed.len());
        if let Some(after) = header_end(trimmed) {
            return &text[offset + after..];
        }
        line_start += line.len();
    }
    text
}

/// The byte offset after "Header:" when `s` starts with a header and a colon.
fn header_end(s: &str) -> Option<usize> {
    for header in HEADERS {
        let n = header.chars().count();
        let mut end = 0;
        let mut count = 0;
        let mut ok = true;
        for (c, h) in s.chars().zip(header.chars()) {
            if !c.to_lowercase().eq(std::iter::once(h)) {
                ok = false;
                break;
            }
            end += c.len_utf8();
            count += 1;
        }
        if !ok || count < n {
            continue;
        }
        let rest = &s[end..];
        let trimmed = rest.trim_start_matches([' ', '\t']);
        let skipped = rest.len() - trimmed.len();
        if let Some(c) = trimmed.chars().next()
            && matches!(c, ':' | '：' | '﹕')
        {
            return Some(end + skipped + c.len_utf8());
        }
    }
    None
}

fn is_open(c: char) -> Option<char> {
    match c {
        '(' => Some(')'),
        '[' => Some(']'),
        '{' => Some('}'),
        '（' => Some('）'),
        '【' => Some('】'),
        '〈' => Some('〉'),
        '「' => Some('」'),
        _ => None,
    }
}

/// For each position of a text, the matching close of an opening bracket there, if any.
/// Stored as 4 bytes per character, 0 meaning none (a close is never at position 0): the
/// list is scanned several times per request, and 16-byte `Option<usize>`s cost more to
/// allocate and zero than the scan itself.
struct Brackets(Vec<u32>);

impl Brackets {
    fn close(&self, i: usize) -> Option<usize> {
        match self.0[i] {
            0 => None,
            close => Some(close as usize),
        }
    }
}

/// The matching close of each opening bracket. Unmatched brackets are ordinary characters
/// (and so, in texts of more than 4 billion characters, are brackets closed beyond that).
fn match_brackets(chars: &[char]) -> Brackets {
    let mut pairs = vec![0u32; chars.len()];
    let mut stack: Vec<(usize, char)> = Vec::new();
    for (i, &c) in chars.iter().enumerate() {
        if let Some(close) = is_open(c) {
            stack.push((i, close));
        } else if let Some(pos) = stack.iter().rposition(|(_, close)| *close == c) {
            // Closes the nearest matching opener; openers above it stay unmatched.
            let (open, _) = stack[pos];
            if let Ok(close) = u32::try_from(i) {
                pairs[open] = close;
            }
            stack.truncate(pos);
        }
    }
    Brackets(pairs)
}

fn is_separator(chars: &[char], i: usize) -> bool {
    let c = chars[i];
    match c {
        ';' | '\n' | '、' | '，' | '；' | '•' | '·' => true,
        ',' => {
            let prev = i.checked_sub(1).map(|p| chars[p]);
            let next = chars.get(i + 1).copied();
            !(prev.is_some_and(|p| p.is_ascii_digit()) && next.is_some_and(|n| n.is_ascii_digit()))
        }
        '.' | '。' => {
            let next = chars.get(i + 1).copied();
            if c == '.' && !next.is_none_or(char::is_whitespace) {
                return false;
            }
            // "1. Water": list numbering, not the end of a sentence.
            if c == '.' && i > 0 && chars[i - 1].is_ascii_digit() {
                return false;
            }
            !ends_with_abbreviation(&chars[..i])
        }
        _ => false,
    }
}

fn ends_with_abbreviation(before: &[char]) -> bool {
    // The usual case without allocating: an ASCII word, compared case-insensitively (every
    // abbreviation is ASCII and at most 6 letters).
    let letters = before
        .iter()
        .rev()
        .take_while(|c| c.is_alphabetic())
        .count();
    let word = &before[before.len() - letters..];
    if word.iter().all(char::is_ascii) {
        return letters <= 6
            && ABBREVIATIONS.iter().any(|a| {
                a.len() == letters
                    && a.bytes()
                        .zip(word)
                        .all(|(a, c)| c.to_ascii_lowercase() as u32 == u32::from(a))
            });
    }
    let word: String = before
        .iter()
        .rev()
        .take_while(|c| c.is_alphabetic())
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .flat_map(|c| c.to_lowercase())
        .collect();
    ABBREVIATIONS.contains(&word.as_str())
}

/// Spans of the top-level items of `chars`.
fn split_top(chars: &[char]) -> Vec<(usize, usize)> {
    let pairs = match_brackets(chars);
    let mut spans = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < chars.len() {
        if let Some(close) = pairs.close(i) {
            i = close + 1;
            continue;
        }
        if is_separator(chars, i) {
            spans.push((start, i));
            start = i + 1;
        }
        i += 1;
    }
    spans.push((start, chars.len()));
    spans
}

/// Splits `chars` into the main list and the trace lists of "may contain" statements.
fn split_traces(chars: &[char]) -> (Vec<char>, Vec<Vec<char>>) {
    let lower: Vec<char> = chars
        .iter()
        .map(|c| {
            if c.is_ascii() {
                c.to_ascii_lowercase()
            } else {
                c.to_lowercase().next().unwrap_or(*c)
            }
        })
        .collect();
    let pairs = match_brackets(chars);
    let mut main = Vec::with_capacity(chars.len());
    let mut traces = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if let Some(close) = pairs.close(i) {
            main.extend_from_slice(&chars[i..=close]);
            i = close + 1;
            continue;
        }
        // Cheap test first: every marker starts with one of these characters.
        let may_start = matches!(lower[i], 'm' | 'c' | 'p' | 't' | 'k' | 's' | '可' | '含');
        let at_word_start =
            may_start && (i == 0 || !lower[i - 1].is_alphanumeric() || is_cjk_char(lower[i]));
        let marker = at_word_start
            .then(|| TRACE_MARKERS.iter().find(|m| starts_with(&lower[i..], m)))
            .flatten();
        let Some(marker) = marker else {
            main.push(chars[i]);
            i += 1;
            continue;
        };
        let mut j = i + marker.chars().count();
        // Skip a colon after the marker ("may contain: nuts").
        while j < chars.len() && matches!(chars[j], ':' | '：' | ' ') {
            j += 1;
        }
        let mut end = j;
        while end < chars.len() {
            if let Some(close) = pairs.close(end) {
                end = close + 1;
                continue;
            }
            let c = chars[end];
            if c == '\n' || ((c == '.' || c == '。') && is_separator(chars, end)) {
                break;
            }
            end += 1;
        }
        let mut trace: Vec<char> = chars[j..end].to_vec();
        trim_tail(&mut trace);
        traces.push(trace);
        // The marker ends the main list's current item.
        main.push('\n');
        i = end;
    }
    (main, traces)
}

fn is_cjk_char(c: char) -> bool {
    crate::knowledge::fold::is_cjk(c)
}

fn starts_with(haystack: &[char], needle: &str) -> bool {
    let mut n = 0;
    for (h, c) in haystack.iter().zip(needle.chars()) {
        if *h != c {
            return false;
        }
        n += 1;
    }
    n == needle.chars().count()
}

fn trim_tail(trace: &mut Vec<char>) {
    while trace
        .last()
        .is_some_and(|c| c.is_whitespace() || matches!(c, '.' | '。'))
    {
        trace.pop();
    }
    let text: String = trace.iter().collect::<String>().to_lowercase();
    for tail in TRACE_TAILS {
        if text.ends_with(tail) {
            let keep = trace.len() - tail.chars().count();
            trace.truncate(keep);
            break;
        }
    }
}

/// Splits a trace item on "and"/"or" in the label languages ("nuts and milk").
fn split_conjunctions(chars: &[char]) -> Vec<Vec<char>> {
    let text: String = chars.iter().collect();
    let mut parts = vec![text];
    for conj in [
        " and ", " or ", " & ", " et ", " ou ", " y ", " o ", " und ", " oder ", " e ", " ou ",
        "和", "及",
    ] {
        parts = parts
            .into_iter()
            .flat_map(|p| {
                let lower = p.to_lowercase();
                if lower.len() != p.len() || !lower.contains(conj) {
                    return vec![p];
                }
                let mut out = Vec::new();
                let mut last = 0;
                for (idx, _) in lower.match_indices(conj) {
                    out.push(p[last..idx].to_owned());
                    last = idx + conj.len();
                }
                out.push(p[last..].to_owned());
                out
            })
            .collect();
    }
    parts.into_iter().map(|p| p.chars().collect()).collect()
}

fn is_bullet(c: char) -> bool {
    matches!(
        c,
        '-' | '*'
            | '•'
            | '·'
            | '‣'
            | '◦'
            | '▪'
            | '▫'
            | '–'
            | '—'
            | '>'
            | '●'
            | '○'
            | '■'
            | '□'
            | '※'
    )
}

/// Parses one item (already split off its list).
fn parse_item(chars: &[char], depth: usize, trace: bool) -> Option<ParsedIngredient> {
    let text = clean_text(chars);
    if text.is_empty() {
        return None;
    }
    let tchars: Vec<char> = text.chars().collect();
    let pairs = match_brackets(&tchars);
    let mut head = String::new();
    let mut sub = Vec::new();
    let mut i = 0;
    while i < tchars.len() {
        if let Some(close) = pairs.close(i) {
            let inner = &tchars[i + 1..close];
            if depth + 1 < MAX_DEPTH {
                for span in split_top(inner) {
                    if let Some(item) = parse_item(&inner[span.0..span.1], depth + 1, trace) {
                        sub.push(item);
                    }
                }
            }
            head.push(' ');
            i = close + 1;
            continue;
        }
        head.push(tchars[i]);
        i += 1;
    }
    // "Emulsifier: soy lecithin" names a class, then the ingredient.
    if let Some(pos) = head.find([':', '：']) {
        let after: Vec<char> = head[pos..].chars().skip(1).collect();
        let mut subs_after = Vec::new();
        if depth + 1 < MAX_DEPTH {
            for span in split_top(&after) {
                if let Some(item) = parse_item(&after[span.0..span.1], depth + 1, trace) {
                    subs_after.push(item);
                }
            }
        }
        head.truncate(pos);
        subs_after.extend(sub);
        sub = subs_after;
    }
    let name = clean_name(&head);
    if name.is_empty() && sub.is_empty() {
        return None;
    }
    Some(ParsedIngredient {
        text,
        name,
        sub,
        trace,
    })
}

/// The item as given, without bullets, numbering and a trailing full stop.
fn clean_text(chars: &[char]) -> String {
    let mut s: &[char] = chars;
    loop {
        let before = s.len();
        while s
            .first()
            .is_some_and(|c| c.is_whitespace() || is_bullet(*c))
        {
            s = &s[1..];
        }
        // "1. Water" / "2) Glycerin" numbering, but not "1,2-Hexanediol" or "2-Propanol".
        let digits = s.iter().take_while(|c| c.is_ascii_digit()).count();
        if digits > 0
            && digits <= 2
            && matches!(s.get(digits), Some('.' | ')'))
            && s.get(digits + 1).is_some_and(|c| c.is_whitespace())
        {
            s = &s[digits + 1..];
        }
        if s.len() == before {
            break;
        }
    }
    while s.last().is_some_and(|c| c.is_whitespace()) {
        s = &s[..s.len() - 1];
    }
    if s.last().is_some_and(|c| matches!(c, '.' | '。'))
        && !ends_with_abbreviation(&s[..s.len() - 1])
    {
        s = &s[..s.len() - 1];
    }
    collapse_whitespace(s.iter().copied(), s.len())
}

/// `chars` without leading and trailing whitespace, inner runs of whitespace made one space:
/// `split_whitespace().join(" ")` in one pass.
fn collapse_whitespace(chars: impl Iterator<Item = char>, capacity: usize) -> String {
    let mut out = String::with_capacity(capacity);
    let mut pending = false;
    for c in chars {
        if c.is_whitespace() {
            pending = !out.is_empty();
        } else {
            if pending {
                out.push(' ');
                pending = false;
            }
            out.push(c);
        }
    }
    out
}

/// The name to match: no percentages, footnote marks or stray punctuation at the ends.
fn clean_name(head: &str) -> String {
    let chars: Vec<char> = head.chars().collect();
    let mut out = String::with_capacity(head.len());
    let mut i = 0;
    while i < chars.len() {
        // A percentage: optional "<"/"≤"/"min"/"max", digits with one decimal separator, "%".
        if chars[i].is_ascii_digit() {
            let mut j = i;
            while j < chars.len() && (chars[j].is_ascii_digit() || matches!(chars[j], '.' | ',')) {
                j += 1;
            }
            let mut k = j;
            while k < chars.len() && chars[k] == ' ' {
                k += 1;
            }
            if k < chars.len() && matches!(chars[k], '%' | '％') {
                while out.ends_with([' ', '<', '>', '≤', '≥', '~']) {
                    out.pop();
                }
                i = k + 1;
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    let trimmed = out.trim_matches(|c: char| {
        c.is_whitespace()
            || is_bullet(c)
            || matches!(c, '†' | '‡' | '¹' | '²' | '³' | ',' | ';' | ':')
    });
    let trimmed = trimmed
        .strip_suffix('.')
        .filter(|t| !ends_with_abbreviation(&t.chars().collect::<Vec<_>>()))
        .unwrap_or(trimmed);
    collapse_whitespace(trimmed.chars(), trimmed.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn names(text: &str) -> Vec<String> {
        split_ingredients(text)
            .into_iter()
            .map(|i| i.name)
            .collect()
    }

    #[test]
    fn splits_top_level_only() {
        let items = split_ingredients("Sugar, chocolate (sugar, cocoa butter, milk powder), salt");
        assert_eq!(items.len(), 3);
        assert_eq!(
            items[1].text,
            "chocolate (sugar, cocoa butter, milk powder)"
        );
        assert_eq!(items[1].name, "chocolate");
        let sub: Vec<_> = items[1].sub.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(sub, ["sugar", "cocoa butter", "milk powder"]);
    }

    #[test]
    fn separators_of_every_script() {
        assert_eq!(names("水、グリセリン、BG"), ["水", "グリセリン", "BG"]);
        assert_eq!(names("水，甘油；香精"), ["水", "甘油", "香精"]);
        assert_eq!(
            names("Water\nGlycerin\r\nParfum"),
            ["Water", "Glycerin", "Parfum"]
        );
        assert_eq!(names("Water; Glycerin"), ["Water", "Glycerin"]);
        assert_eq!(names("정제수（물）, 글리세린"), ["정제수", "글리세린"]);
    }

    #[test]
    fn keeps_decimal_commas_and_chemical_names() {
        assert_eq!(names("1,2-Hexanediol, Water"), ["1,2-Hexanediol", "Water"]);
        assert_eq!(names("Sugar 13,5 %, Salt 0.5%"), ["Sugar", "Salt"]);
        assert_eq!(names("Milk (12%), Cocoa"), ["Milk", "Cocoa"]);
        assert!(split_ingredients("Milk (12%)")[0].sub.is_empty());
    }

    #[test]
    fn strips_headers_bullets_and_full_stops() {
        assert_eq!(
            names("Ingredients: Water, Glycerin."),
            ["Water", "Glycerin"]
        );
        assert_eq!(names("INGRÉDIENTS : Eau, Glycérine"), ["Eau", "Glycérine"]);
        assert_eq!(names("Zutaten: Zucker"), ["Zucker"]);
        assert_eq!(names("전성분: 정제수, 글리세린"), ["정제수", "글리세린"]);
        assert_eq!(names("配料：水，白砂糖"), ["水", "白砂糖"]);
        assert_eq!(names("全成分：水"), ["水"]);
        assert_eq!(names("Net wt 100 g\nIngredients: Salt"), ["Salt"]);
        assert_eq!(
            names("• Water\n- Glycerin\n* Parfum"),
            ["Water", "Glycerin", "Parfum"]
        );
        assert_eq!(names("1. Water\n2. Salt"), ["Water", "Salt"]);
        assert_eq!(names("Water, Alcohol Denat."), ["Water", "Alcohol Denat."]);
        assert_eq!(
            names("Alcohol Denat., Parfum"),
            ["Alcohol Denat.", "Parfum"]
        );
        assert_eq!(names("Sugar*, cocoa butter*"), ["Sugar", "cocoa butter"]);
    }

    #[test]
    fn may_contain_becomes_traces() {
        let items = split_ingredients("Sugar, cocoa. May contain traces of nuts and milk.");
        let got: Vec<_> = items.iter().map(|i| (i.name.as_str(), i.trace)).collect();
        assert_eq!(
            got,
            [
                ("Sugar", false),
                ("cocoa", false),
                ("nuts", true),
                ("milk", true)
            ]
        );
        let de =
            split_ingredients("Zucker, Kakao. Kann Spuren von Milch und Haselnüssen enthalten.");
        let got: Vec<_> = de
            .iter()
            .filter(|i| i.trace)
            .map(|i| i.name.as_str())
            .collect();
        assert_eq!(got, ["Milch", "Haselnüssen"]);
        let fr = split_ingredients("Sucre, peut contenir des traces de lait, soja");
        let got: Vec<_> = fr
            .iter()
            .filter(|i| i.trace)
            .map(|i| i.name.as_str())
            .collect();
        assert_eq!(got, ["lait", "soja"]);
        let zh = split_ingredients("白砂糖，可可脂。可能含有花生");
        assert_eq!(
            zh.last().map(|i| (i.name.as_str(), i.trace)),
            Some(("花生", true))
        );
    }

    #[test]
    fn colon_introduces_sub_ingredients() {
        let items = split_ingredients("Emulsifier: soy lecithin, Preservative (E211)");
        assert_eq!(items[0].name, "Emulsifier");
        assert_eq!(items[0].sub[0].name, "soy lecithin");
        assert_eq!(items[1].name, "Preservative");
        assert_eq!(items[1].sub[0].name, "E211");
    }

    #[test]
    fn unbalanced_brackets_are_plain_characters() {
        assert_eq!(names("Water (aqua, Glycerin"), ["Water (aqua", "Glycerin"]);
        assert_eq!(names("Water), Salt"), ["Water)", "Salt"]);
    }

    #[test]
    fn known_names_with_commas_are_joined_again() {
        let known =
            |s: &str| s.eq_ignore_ascii_case("sodium, potassium and calcium salts of fatty acids");
        let items = split_ingredients_with(
            "Sugar, Sodium, Potassium and Calcium Salts of Fatty Acids, Salt",
            &known,
        );
        let names: Vec<_> = items.iter().map(|i| i.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "Sugar",
                "Sodium, Potassium and Calcium Salts of Fatty Acids",
                "Salt"
            ]
        );
    }

    #[test]
    fn words_hyphenated_across_lines_are_joined() {
        assert_eq!(
            names("Water, Sodium Lau-\nryl Sulfate, Parfum"),
            ["Water", "Sodium Lauryl Sulfate", "Parfum"]
        );
        assert_eq!(names("Vitamin-\nE, Water"), ["Vitamin", "E", "Water"]);
    }

    #[test]
    fn invisible_characters_are_removed() {
        assert_eq!(names("Wa\u{200B}ter,\u{202E} Salt\u{0}"), ["Water", "Salt"]);
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
        ABBREVIATIONS.contains(&word.as_str())
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
            let chars: Vec<char> = text.chars().collect();
            assert_eq!(ends_with_abbreviation(&chars), expected, "{text}");
        }
    }

    proptest! {
        #[test]
        fn collapsing_whitespace_is_split_and_join(s in "[ a\t\n\u{a0}\u{3000}é]{0,30}|\\PC{0,30}") {
            prop_assert_eq!(
                collapse_whitespace(s.chars(), s.len()),
                s.split_whitespace().collect::<Vec<_>>().join(" ")
            );
        }

        #[test]
        fn abbreviation_test_matches_its_definition(
            s in "[a-zA-Z ]{0,3}(denat|DeNaT|spp|approx|hydrogx|[a-zA-ZİKıß\u{212a}é]{0,8})"
        ) {
            let chars: Vec<char> = s.chars().collect();
            prop_assert_eq!(
                ends_with_abbreviation(&chars),
                ends_with_abbreviation_reference(&chars)
            );
        }

        #[test]
        fn never_panics_and_never_yields_empty_items(s in "\\PC{0,200}") {
            for item in split_ingredients(&s) {
                prop_assert!(!item.text.is_empty());
                prop_assert!(!item.name.is_empty() || !item.sub.is_empty());
            }
        }

        #[test]
        fn plain_lists_split_into_their_words(words in prop::collection::vec("[a-z]{1,12}( [a-z]{1,12})?", 1..30)) {
            let text = words.join(", ");
            let got = names(&text);
            // "may contain" cannot occur in these words; "e", "o", "y" can only be whole items.
            prop_assert_eq!(got, words);
        }

        #[test]
        fn brackets_never_split_the_top_level(inner in prop::collection::vec("[a-z]{1,8}", 1..10)) {
            let text = format!("head ({}), tail", inner.join(", "));
            let items = split_ingredients(&text);
            prop_assert_eq!(items.len(), 2);
            prop_assert_eq!(items[0].sub.len(), inner.len());
        }
    }
}
