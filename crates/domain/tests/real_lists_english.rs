//! `/ocr`'s English text on real lists printed in other languages: each list of
//! `../shared/data/real-lists` and `../shared/data/real-analysis` (Open Food Facts and Open
//! Beauty Facts) and of our second sample (`tests/data/second-sample.jsonl`) that is not in
//! English is read as `/ocr` reads the list in a page's text, and its items go through the translation.
//! An item is left in its language when the English text prints it as the label does and a
//! word of it is no word of any English or INCI name the knowledge base holds; the share of
//! such items is the figure. The
//! real sets are halved by a hash of the product id (half A is the one failures were read on,
//! B is held out; the second sample was never read for this). Fails when a share rises above
//! its ceiling; prints "skipped" when the shared data is not beside the checkout.
//! `REAL_LISTS_VERBOSE=1` lists the items left.
// The table is this test's output (shown with --no-capture).
#![allow(clippy::print_stdout)]

use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;

use domain::knowledge::KnowledgeBase;
use domain::ocr::label::{Language, extract};
use domain::ocr::translate::to_english;
use serde_json::Value;

/// Highest accepted share (%) of items left in the label language, per set and half: the
/// level reached, above what a list or two of noise moves it. Lower them as they fall.
const CEILINGS: [(&str, f64); 5] = [
    ("real-lists A", 8.0),
    ("real-lists B", 7.5),
    ("real-analysis A", 9.0),
    ("real-analysis B", 8.0),
    ("second-sample", 3.0),
];

fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The item's name before any bracket, without shares, footnote marks and list punctuation.
fn head(item: &str) -> String {
    let head = item.split(['(', '[']).next().unwrap_or(item);
    let words: Vec<&str> = head
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphabetic))
        .collect();
    words
        .join(" ")
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_owned()
}

/// The words of every English and INCI name the knowledge base holds (lowercase): a name
/// printed only in such words is written in English or INCI already (`CITRUS AURANTIUM
/// DULCIS PEEL OIL`, `CI 77891`), whether the knowledge base knows it or not.
fn english_words(kb: &KnowledgeBase) -> HashSet<String> {
    kb.ingredients()
        .iter()
        .flat_map(|i| i.primary_names())
        .flat_map(|n| n.split(|c: char| !c.is_alphanumeric()))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Whether an item comes out of the translation in its label language.
fn left_as_printed(english_words: &HashSet<String>, printed: &str, english: &str) -> bool {
    let name = head(printed);
    if name.is_empty() || head(english) != name {
        return false;
    }
    !name
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty() && !w.chars().all(|c| c.is_ascii_digit()))
        .all(|w| english_words.contains(&w.to_lowercase()))
}

#[derive(Default)]
struct Tally {
    items: usize,
    left: usize,
}

fn share(t: &Tally) -> f64 {
    100.0 * t.left as f64 / t.items.max(1) as f64
}

/// Tallies per set (with its half) and language.
fn score(sets: &[(&str, String, bool)]) -> BTreeMap<(String, String), Tally> {
    let kb = KnowledgeBase::embedded();
    let verbose = std::env::var_os("REAL_LISTS_VERBOSE").is_some();
    let english = english_words(kb);
    let mut out: BTreeMap<(String, String), Tally> = BTreeMap::new();
    for (set, text, halved) in sets {
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let case: Value = serde_json::from_str(line).expect("a JSON line");
            let code = case["lang"].as_str().unwrap_or("en");
            let Some(language) = Language::from_code(code).filter(|l| *l != Language::English)
            else {
                continue;
            };
            let id = case["id"].as_str().unwrap_or_default();
            let set = if *halved {
                format!("{set} {}", if (fnv(id) >> 40) & 1 == 0 { "A" } else { "B" })
            } else {
                (*set).to_owned()
            };
            let printed =
                extract(&case["text"].as_str().unwrap_or_default().replace('_', "")).items;
            let translated = to_english(kb, &printed, Some(language));
            let tally = out.entry((set.clone(), code.to_owned())).or_default();
            for (p, e) in printed.iter().zip(&translated) {
                if head(p).is_empty() {
                    continue;
                }
                tally.items += 1;
                if left_as_printed(&english, p, e) {
                    tally.left += 1;
                    if verbose {
                        println!("{set} {code}: {p}");
                    }
                }
            }
        }
    }
    out
}

#[test]
fn real_lists_in_other_languages_come_out_in_english() {
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data");
    let second = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/second-sample.jsonl");
    let second = std::fs::read_to_string(second).expect("the second sample is in the repository");
    let (Ok(lists), Ok(analysis)) = (
        std::fs::read_to_string(shared.join("real-lists/cases.jsonl")),
        std::fs::read_to_string(shared.join("real-analysis/cases.jsonl")),
    ) else {
        println!("skipped: ../shared/data not found");
        return;
    };
    let tallies = score(&[
        ("real-lists", lists, true),
        ("real-analysis", analysis, true),
        ("second-sample", second, false),
    ]);
    println!("| set | language | items | left in the label language |\n|---|---|---|---|");
    let mut per_set: BTreeMap<String, Tally> = BTreeMap::new();
    for ((set, language), t) in &tallies {
        println!("| {set} | {language} | {} | {:.1} % |", t.items, share(t));
        let all = per_set.entry(set.clone()).or_default();
        all.items += t.items;
        all.left += t.left;
    }
    for (set, ceiling) in CEILINGS {
        let t = &per_set[set];
        println!("| {set} | all | {} | {:.1} % |", t.items, share(t));
        assert!(t.items > 30, "{set}: the set is read");
        assert!(
            share(t) <= ceiling,
            "{set}: {:.1} % of the items left in the label language, above {ceiling} %",
            share(t)
        );
    }
}
