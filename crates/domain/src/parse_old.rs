//! The parser before issue 9, kept only as the oracle of a differential test.
#![allow(dead_code, missing_docs)]
//
// [`split_ingredients`] turns the text of a label (typed, pasted, or from OCR) into
// [`ParsedIngredient`]s:
//
// - a leading header in any of the nine label languages ("Ingredients:", "Zutaten:", "성분:",
//   "配料:", ...) is dropped, with anything before it on earlier lines;
// - the list splits on top-level `,` `;` newlines, `、` `，` `；` and sentence-ending full
//   stops, never inside `()` `[]` `{}` `（）` `【】` `〈〉` (unbalanced brackets are ordinary
//   characters); a comma between two digits is part of the name ("1,2-hexanediol", "13,5 %");
// - a bracketed part becomes sub-ingredients ("chocolate (sugar, cocoa butter, milk powder)"),
//   and so does what follows a colon inside an ingredient ("emulsifier: soy lecithin");
// - percentages, bullets, numbering, footnote marks and trailing full stops are removed
//   (a full stop that ends an abbreviation such as "Alcohol Denat." stays);
// - "may contain ...", "peut contenir ...", "kann Spuren von ... enthalten", "可能含有..." and
//   the like become ingredients flagged as traces.
//
// Invisible characters (zero-width, bidirectional marks, controls, NUL) are removed first.

use std::borrow::Cow;

use crate::knowledge::fold::{clean_invisible, is_invisible};

pub use crate::parse::ParsedIngredient;

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
mod differential {
    use crate::knowledge::KnowledgeBase;
    use proptest::prelude::*;
    use std::path::Path;

    fn check(text: &str) {
        let new = crate::parse::split_ingredients(text);
        // The old parser panics on some trace lists (a lower-cased offset inside a character).
        let Ok(old) = std::panic::catch_unwind(|| super::split_ingredients(text)) else {
            eprintln!("OLD PANICS on {text:?}");
            return;
        };
        assert_eq!(old, new, "split_ingredients differs on {text:?}");
        let kb = KnowledgeBase::embedded();
        let old = super::split_ingredients_with(text, &|n| kb.is_name_with_comma(n));
        let new = crate::parse::split_ingredients_with(text, &|a, b| kb.joins_with_comma(a, b));
        assert_eq!(old, new, "split_ingredients_with differs on {text:?}");
    }

    /// The string literals of a Rust file, roughly unescaped.
    fn literals(src: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut chars = src.chars().peekable();
        while let Some(c) = chars.next() {
            if c != '"' {
                continue;
            }
            let mut s = String::new();
            while let Some(c) = chars.next() {
                match c {
                    '"' => break,
                    '\\' => match chars.next() {
                        Some('n') => s.push('\n'),
                        Some('t') => s.push('\t'),
                        Some('r') => s.push('\r'),
                        Some('0') => s.push('\0'),
                        Some('u') => {
                            let hex: String =
                                chars.by_ref().skip(1).take_while(|c| *c != '}').collect();
                            if let Some(c) =
                                u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32)
                            {
                                s.push(c);
                            }
                        }
                        Some('\n') => {
                            while chars.peek().is_some_and(|c| c.is_whitespace()) {
                                chars.next();
                            }
                        }
                        Some(c) => s.push(c),
                        None => {}
                    },
                    c => s.push(c),
                }
            }
            out.push(s);
        }
        out
    }

    fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                files(&path, out);
            } else {
                out.push(path);
            }
        }
    }

    #[test]
    fn corpus_and_repository_lists_parse_alike() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut paths = Vec::new();
        for dir in [
            "fuzz/corpus/ingredients",
            "crates/domain/src",
            "crates/domain/examples",
            "crates/domain/benches",
            "services/ingredient-api/tests",
            "services/ingredient-api/src",
            "tests",
            "scripts/bench",
        ] {
            files(&root.join(dir), &mut paths);
        }
        let mut n = 0;
        for path in paths {
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            if path.extension().is_some_and(|e| e == "rs") {
                for lit in literals(&text) {
                    check(&lit);
                    n += 1;
                }
            } else {
                check(&text);
                for line in text.lines() {
                    check(line);
                }
                n += 1;
            }
        }
        // Lists made of the knowledge base's names with commas, so that joins happen.
        let kb = KnowledgeBase::embedded();
        let commas: Vec<&str> = kb
            .ingredients()
            .iter()
            .flat_map(|i| {
                i.primary_names()
                    .chain(i.names.values().flat_map(|n| n.iter()))
            })
            .filter(|n| n.contains([',', '，']))
            .collect();
        assert!(!commas.is_empty());
        for w in commas.windows(3) {
            check(&w.join(", "));
            check(&format!("Water, {}, {} (x, y), Salt", w[0], w[1]));
            check(&format!("{}、{}", w[0], w[2]));
        }
        eprintln!("{n} texts, {} names with commas", commas.len());
    }

    fn token() -> impl Strategy<Value = String> {
        let fixed: Vec<&'static str> = vec![
            "(",
            ")",
            "[",
            "]",
            "{",
            "}",
            "（",
            "）",
            "【",
            "】",
            "〈",
            "〉",
            "「",
            "」",
            ",",
            "、",
            "，",
            ";",
            "；",
            "\n",
            "\r\n",
            "\r",
            ".",
            "。",
            ":",
            "：",
            "﹕",
            " ",
            "  ",
            "\t",
            "1,2",
            "13,5 %",
            "5%",
            "< 1 %",
            "0.5％",
            "12.",
            "1. ",
            "2) ",
            "10. ",
            "-",
            "- ",
            "•",
            "·",
            "* ",
            "※",
            "Alcohol Denat.",
            "Denat. ",
            "Vit. E",
            "sp.",
            "spp. ",
            "Lau-\nryl",
            "Vitamin-\nE",
            "may contain ",
            "May Contain Traces Of: ",
            "MAY CONTAIN",
            "peut contenir ",
            "peut contenir des traces d'",
            "kann Spuren von ",
            " enthalten",
            " enthalten sein",
            "可能含有",
            "可能含",
            "含む可能性があります",
            "包含",
            "を含む",
            "포함",
            " and ",
            " AND ",
            " or ",
            " et ",
            " und ",
            " & ",
            " y ",
            " o ",
            " e ",
            "和",
            "及",
            "Ingredients: ",
            "INGRÉDIENTS : ",
            "Zutaten:",
            "Ingredientes: ",
            "Ingredienti:",
            "전성분: ",
            "성분:",
            "配料：",
            "全成分：",
            "原材料名：",
            "配料表:",
            "Net wt 100 g\n",
            "Water",
            "Aqua",
            "Glycerin",
            "Sodium",
            "Potassium and Calcium Salts of Fatty Acids",
            "Salt",
            "Sugar",
            "sugar",
            "nuts",
            "milk",
            "Milch",
            "水",
            "甘油",
            "グリセリン",
            "정제수",
            "글리세린",
            "Eau",
            "Glycérine",
            "İ",
            "ẞ",
            "Σ",
            "\u{212a}",
            "\u{200b}",
            "\u{202e}",
            "\u{0}",
            "\u{feff}",
            "\u{ad}",
            "\u{a0}",
            "\u{3000}",
            "†",
            "¹",
            "E211",
            "CI 77891",
            "Emulsifier: ",
            "soy lecithin",
            "Preservative",
            "chocolate",
            "x",
            "é",
            "ß",
            "'",
            "/",
        ];
        prop_oneof![
            8 => prop::sample::select(fixed).prop_map(str::to_owned),
            1 => "\\PC{1,3}",
            1 => "[a-zA-Z]{1,8}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(
            std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(2000)
        ))]
        #[test]
        fn tricky_lists_parse_alike(tokens in prop::collection::vec(token(), 0..40)) {
            check(&tokens.concat());
        }
    }
}
