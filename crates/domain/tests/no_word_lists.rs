//! Words are data: no list of words of the label languages is written in the crate's Rust,
//! outside `data/language/` and its loader (`src/language/`). This test reads the source and
//! fails on a `const` or `static` that holds two string literals with letters or more, and on
//! an array of three such literals or more written inline, unless it is allowed below with
//! the reason why it is no list of label words. Test code (`tests.rs` files, and what follows
//! `#[cfg(test)]` in a file) is not read.

use std::path::{Path, PathBuf};

/// Lists that are not words of the label languages: (file under `src/`, the item's name or
/// the first literal of an inline array, why).
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "knowledge/load.rs",
        "DATA_FILES",
        "the knowledge base's file names",
    ),
    (
        "knowledge/model.rs",
        "DIETARY_ADVICE_SOURCES",
        "source ids of the knowledge base",
    ),
    (
        "knowledge/inci_family.rs",
        "ETH_STEMS",
        "INCI nomenclature: the stems of one naming rule, the same in every label language",
    ),
    (
        "knowledge/skin.rs",
        "SKIN_RULES",
        "the sentences the analysis shows, with the flags they explain",
    ),
    (
        "knowledge/lookup.rs",
        "ches",
        "English plural endings (a rule of morphology, not words)",
    ),
    (
        "knowledge/lookup.rs",
        "en",
        "German and Romance plural endings (a rule of morphology, not words)",
    ),
    (
        "ocr/translate.rs",
        "es",
        "plural endings of the label languages (a rule of morphology, not words)",
    ),
];

/// The files of `src/` to read: every `.rs` file but the loader's and test files.
fn sources() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("src is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs")
                && path.file_name().is_some_and(|n| n != "tests.rs")
            {
                out.push(path);
            }
        }
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = Vec::new();
    walk(&src, &mut out);
    out.retain(|p| {
        let relative = p.strip_prefix(&src).expect("under src");
        // The loader of the words, and the mail model (its own data, not label language).
        !relative.starts_with("language") && !relative.starts_with("email")
    });
    out.sort();
    out
}

/// `text` without comments, and without what follows `#[cfg(test)]`.
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or(text);
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            if c == '\\' {
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        if c == '/' && chars.peek() == Some(&'/') {
            for n in chars.by_ref() {
                if n == '\n' {
                    out.push('\n');
                    break;
                }
            }
            continue;
        }
        // A character literal (not a lifetime): a placeholder, so that its quote or
        // bracket counts for nothing.
        if c == '\'' {
            let mut ahead = chars.clone();
            let literal = match ahead.next() {
                Some('\\') => ahead.position(|n| n == '\'').map(|n| n + 2),
                Some(_) => (ahead.next() == Some('\'')).then_some(2),
                None => None,
            };
            if let Some(len) = literal {
                for _ in 0..len {
                    chars.next();
                }
                out.push_str("'_'");
                continue;
            }
        }
        if c == '"' {
            in_string = true;
        }
        out.push(c);
    }
    out
}

/// The string literals of `code` that hold a letter, in order.
fn word_literals(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = code.chars();
    while let Some(c) = chars.next() {
        if c != '"' {
            continue;
        }
        let mut literal = String::new();
        while let Some(n) = chars.next() {
            match n {
                '\\' => literal.extend(chars.next()),
                '"' => break,
                _ => literal.push(n),
            }
        }
        if literal.chars().any(char::is_alphabetic) {
            out.push(literal);
        }
    }
    out
}

/// `const` and `static` items: (name, initialiser).
fn items(code: &str) -> Vec<(String, String)> {
    item_spans(code)
        .into_iter()
        .map(|(name, start, end)| (name, code[start..end].to_owned()))
        .collect()
}

/// `const` and `static` items: (name, start and end of the initialiser in `code`).
fn item_spans(code: &str) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    for keyword in ["const ", "static "] {
        let mut from = 0;
        while let Some(at) = code[from..].find(keyword) {
            let start = from + at;
            from = start + keyword.len();
            let before = code[..start].chars().next_back();
            if before.is_some_and(|b| b.is_alphanumeric() || b == '_') {
                continue;
            }
            let rest = &code[from..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            // `const fn`, and items without an initialiser.
            if name.is_empty() || name == "fn" || !rest[name.len()..].trim_start().starts_with(':')
            {
                continue;
            }
            let Some(eq) = rest.find('=') else { continue };
            let mut depth = 0i32;
            let mut end = rest.len();
            for (i, c) in rest[eq..].char_indices() {
                match c {
                    '(' | '[' | '{' => depth += 1,
                    ')' | ']' | '}' => depth -= 1,
                    ';' if depth <= 0 => {
                        end = eq + i;
                        break;
                    }
                    _ => {}
                }
            }
            out.push((name, from + eq, from + end));
        }
    }
    out
}

/// Inline arrays of three word literals or more, outside `const` and `static` items: the
/// first literal of each.
fn inline_arrays(code: &str) -> Vec<String> {
    let mut code = code.to_owned();
    for (_, start, end) in item_spans(&code.clone()) {
        code.replace_range(start..end, &" ".repeat(end - start));
    }
    let code = code.as_str();
    let mut out = Vec::new();
    for (at, _) in code.match_indices('[') {
        let rest = &code[at + 1..];
        let Some(end) = rest.find(']') else { continue };
        let inside = &rest[..end];
        let literals = word_literals(inside);
        // Only literals and separators inside: a list written out.
        let bare = inside
            .split('"')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .all(|(_, between)| between.chars().all(|c| c.is_whitespace() || c == ','));
        if literals.len() >= 3 && bare {
            out.push(literals[0].clone());
        }
    }
    out
}

#[test]
fn no_word_list_is_written_in_rust_outside_the_loader() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    let mut used = vec![false; ALLOWED.len()];
    for path in sources() {
        let relative = path
            .strip_prefix(&src)
            .expect("under src")
            .to_string_lossy()
            .replace('\\', "/");
        let code = code_of(&std::fs::read_to_string(&path).expect("a source file"));
        let mut allowed = |name: &str| {
            let at = ALLOWED
                .iter()
                .position(|(file, item, _)| *file == relative && *item == name);
            if let Some(at) = at {
                used[at] = true;
            }
            at.is_some()
        };
        for (name, init) in items(&code) {
            if word_literals(&init).len() >= 2 && !allowed(&name) {
                found.push(format!("{relative}: {name}"));
            }
        }
        for first in inline_arrays(&code) {
            if !allowed(&first) {
                found.push(format!("{relative}: [\"{first}\", ...]"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "word lists written in Rust (move them to data/language/, or allow them with a reason):\n{}",
        found.join("\n")
    );
    // An allowance that allows nothing any more goes.
    let stale: Vec<String> = ALLOWED
        .iter()
        .zip(&used)
        .filter(|(_, used)| !**used)
        .map(|((file, item, _), _)| format!("{file}: {item}"))
        .collect();
    assert!(stale.is_empty(), "allowed lists that are gone: {stale:?}");
}

#[test]
fn the_scanner_finds_word_lists() {
    let code = code_of(
        "const A: &[&str] = &[\"sugar\", \"salt\"];\n\
         // const B: &[&str] = &[\"no\", \"comment\"];\n\
         static C: [&str; 1] = [\"one\"];\n\
         const fn f() {}\n\
         fn g() { for w in [\"and\", \"or\", \"et\"] {} }\n\
         const O: [char; 3] = ['(', '[', '\"'];\n\
         fn h<'a>(x: &'a str) { let _ = ['x', '\\'']; }\n\
         #[cfg(test)]\nconst T: &[&str] = &[\"test\", \"only\"];",
    );
    let named: Vec<String> = items(&code)
        .into_iter()
        .filter(|(_, init)| word_literals(init).len() >= 2)
        .map(|(name, _)| name)
        .collect();
    assert_eq!(named, ["A"]);
    assert_eq!(inline_arrays(&code), ["and"]);
    assert_eq!(word_literals("[\"a\\\"b\", \"1\", 'x']"), ["a\"b"]);
}
