//! `/ocr`'s English `text` without reading an image: each synthetic label's printed list goes
//! through what `/ocr` does after the engine has read it (the knowledge base's spelling
//! mending, then the translation), and the English text is scored against the label's English
//! references with the scoring of `examples/ocr_accuracy.rs` (`score_english`). The OCR run
//! measures the same with Tesseract in front (docs/ocr.md); this one takes milliseconds.
#![allow(clippy::print_stdout)] // the per-language table belongs in the test output

use std::collections::BTreeMap;

use domain::knowledge::KnowledgeBase;
use domain::ocr::label::{Language, split_items};
use ingredient_api::ocr::tesseract::repair::correct_spelling;
use test_support::labels::{Label, f1, score_english, score_english_fuzzy};

use crate::labels::{
    blind, corpus, held_out, is_tune_half, other_hands, tune2, tune3, tune4_cjk, tune4_eu,
    tune5_cjk, tune5_eu,
};

/// The English text `/ocr` answers for a label whose list was read exactly as printed (split
/// by the list splitter, which normalises it as `/ocr`'s extraction does: NFKC brackets).
fn english_text(label: &Label) -> String {
    let language = Language::from_code(&label.language);
    let items = split_items(
        &label.items.join(if language.is_some_and(Language::is_cjk) {
            "、"
        } else {
            ", "
        }),
    );
    let items = correct_spelling(KnowledgeBase::embedded(), &items, language);
    ingredient_api::ocr::translate(&items, language).join(", ")
}

/// F1 of the English text per language, printing the items missed (only when `show_misses`:
/// a half kept for reporting prints its figures, never its labels). The table shows beside it
/// the fuzzy F1 of the outside scorers (`score_english_fuzzy`); the floors are on the exact F1.
fn english_f1(labels: &[Label], set: &str, show_misses: bool) -> BTreeMap<String, f64> {
    type Tally = (usize, usize, usize);
    let add = |t: &mut Tally, (m, e, r): Tally| *t = (t.0 + m, t.1 + e, t.2 + r);
    let mut tallies: BTreeMap<String, (Tally, Tally)> = BTreeMap::new();
    for label in labels {
        let text = english_text(label);
        let (m, e, r) = score_english(label, &text);
        if show_misses && m < e.max(r) {
            println!(
                "{set} {}: {m}/{e} of {r}\n  got:      {text}\n  expected: {}",
                label.name,
                label.english_items().join(", ")
            );
        }
        let tally = tallies.entry(label.language.clone()).or_default();
        add(&mut tally.0, (m, e, r));
        add(&mut tally.1, score_english_fuzzy(label, &text));
    }
    println!("| {set} | Labels | English text F1 | fuzzy F1 |\n|---|---|---|---|");
    tallies
        .into_iter()
        .map(|(language, (exact, fuzzy))| {
            let n = labels.iter().filter(|l| l.language == language).count();
            println!("| {language} | {n} | {:.3} | {:.3} |", f1(exact), f1(fuzzy));
            (language, f1(exact))
        })
        .collect()
}

/// Asserts that a set holds `count` labels (`why` says how many per language), each a
/// non-English list with one English reference item per printed item.
fn assert_translations(labels: &[Label], count: usize, set: &str, why: &str) {
    assert!(
        labels
            .iter()
            .all(|l| l.language != "en"
                && l.english.as_ref().is_some_and(|e| e.len() == l.items.len())),
        "{set} are translations, each with an English reference item per item"
    );
    assert_eq!(labels.len(), count, "{set}: {why}");
}

/// Asserts every language at or above its floor (the level reached; raise it as it rises).
fn assert_floors(scores: &BTreeMap<String, f64>, floors: &[(&str, f64)], set: &str) {
    assert_eq!(scores.len(), floors.len(), "{set}: a floor per language");
    for (language, floor) in floors {
        let score = scores[*language];
        assert!(
            score >= *floor,
            "{set}: English text F1 in {language} is {score:.3}, below its floor {floor}"
        );
    }
}

#[test]
fn ocr_english_text_of_the_synthetic_labels_stays_above_its_floor() {
    let scores = english_f1(&corpus(), "labels.toml", true);
    let floors = [
        ("de", 1.0),
        ("en", 1.0),
        ("es", 1.0),
        ("fr", 1.0),
        ("it", 1.0),
        ("ja", 1.0),
        ("ko", 0.95),
        ("pt", 1.0),
        ("zh", 0.91),
    ];
    assert_floors(&scores, &floors, "labels.toml");
}

#[test]
fn ocr_english_text_of_the_held_out_labels_stays_above_its_floor() {
    let labels = held_out();
    assert_translations(
        &labels,
        24,
        "held-out labels",
        "three labels per non-English language",
    );
    let scores = english_f1(&labels, "labels-heldout.toml", true);
    let floors = [
        ("de", 1.0),
        ("es", 1.0),
        ("fr", 1.0),
        ("it", 1.0),
        ("ja", 0.96),
        ("ko", 0.9),
        ("pt", 1.0),
        ("zh", 0.88),
    ];
    assert_floors(&scores, &floors, "labels-heldout.toml");
}

#[test]
fn ocr_english_text_of_the_labels_by_other_hands_stays_above_its_floor() {
    let labels = other_hands();
    assert_translations(
        &labels,
        48,
        "labels by other hands",
        "six labels per non-English language",
    );
    let (tune, report): (Vec<Label>, Vec<Label>) = labels.into_iter().partition(is_tune_half);
    let tune_scores = english_f1(&tune, "other hands, tune half", true);
    let report_scores = english_f1(&report, "other hands, report half", false);
    // The levels reached, less a small margin: below the 0.90 aimed at in some languages
    // (what is left is in docs/ocr.md).
    let tune_floors = [
        ("de", 0.88),
        ("es", 1.0),
        ("fr", 0.96),
        ("it", 0.94),
        ("ja", 0.97),
        ("ko", 1.0),
        ("pt", 1.0),
        ("zh", 0.89),
    ];
    let report_floors = [
        ("de", 0.94),
        ("es", 0.8),
        ("fr", 1.0),
        ("it", 0.95),
        ("ja", 0.9),
        ("ko", 0.88),
        ("pt", 0.89),
        ("zh", 0.86),
    ];
    assert_floors(&tune_scores, &tune_floors, "other hands, tune half");
    assert_floors(&report_scores, &report_floors, "other hands, report half");
}

#[test]
fn ocr_english_text_of_the_labels_written_blind_stays_above_its_floor() {
    let labels = blind();
    assert_translations(
        &labels,
        48,
        "blind labels",
        "six labels per non-English language",
    );
    // Report only: the table, never the misses (nobody tunes to this set). The floors are the
    // levels reached, far below the 0.90 aimed at.
    let scores = english_f1(&labels, "labels written blind", false);
    let floors = [
        ("de", 0.88),
        ("es", 0.95),
        ("fr", 0.95),
        ("it", 0.87),
        ("ja", 0.75),
        ("ko", 0.68),
        ("pt", 0.78),
        ("zh", 0.78),
    ];
    assert_floors(&scores, &floors, "labels written blind");
}

/// Checks a tune set: `count` labels (`why` says how many per language), each a translation,
/// its misses printed (a tune set may guide the knowledge) and every language at or above its
/// floor, the level reached.
fn assert_tune_set(
    labels: &[Label],
    count: usize,
    what: &str,
    why: &str,
    set: &str,
    floors: &[(&str, f64)],
) {
    assert_translations(labels, count, what, why);
    let scores = english_f1(labels, set, true);
    assert_floors(&scores, floors, set);
}

#[test]
fn ocr_english_text_of_the_second_tune_set_stays_above_its_floor() {
    assert_tune_set(
        &tune2(),
        66,
        "tune2 labels",
        "twelve CJK labels per language, six per European one",
        "second tune set",
        &[
            ("de", 0.91),
            ("es", 1.0),
            ("fr", 0.9),
            ("it", 1.0),
            ("ja", 0.77),
            ("ko", 0.86),
            ("pt", 1.0),
            ("zh", 0.9),
        ],
    );
}

#[test]
fn ocr_english_text_of_the_third_tune_set_stays_above_its_floor() {
    assert_tune_set(
        &tune3(),
        75,
        "tune3 labels",
        "twenty CJK labels per language, three per European one",
        "third tune set",
        &[
            ("de", 0.95),
            ("es", 0.96),
            ("fr", 0.9),
            ("it", 0.96),
            ("ja", 0.79),
            ("ko", 0.83),
            ("pt", 1.0),
            ("zh", 0.81),
        ],
    );
}

#[test]
fn ocr_english_text_of_the_fourth_tune_sets_european_labels_stays_above_its_floor() {
    assert_tune_set(
        &tune4_eu(),
        60,
        "tune4 European labels",
        "twelve labels per European language",
        "fourth tune set, European",
        &[
            ("de", 0.96),
            ("es", 0.99),
            ("fr", 1.0),
            ("it", 0.96),
            ("pt", 0.95),
        ],
    );
}

#[test]
fn ocr_english_text_of_the_fourth_tune_sets_cjk_labels_stays_above_its_floor() {
    assert_tune_set(
        &tune4_cjk(),
        60,
        "tune4 CJK labels",
        "twenty labels per CJK language",
        "fourth tune set, CJK",
        &[("ja", 0.74), ("ko", 0.7), ("zh", 0.78)],
    );
}

/// The fifth tune set's floors are its first reading, before anyone read it (main of the
/// session that received it, after that session's knowledge): what labels by new hands score.
#[test]
fn ocr_english_text_of_the_fifth_tune_sets_european_labels_stays_above_its_floor() {
    assert_tune_set(
        &tune5_eu(),
        60,
        "tune5 European labels",
        "twelve labels per European language",
        "fifth tune set, European",
        &[
            ("de", 0.8),
            ("es", 0.71),
            ("fr", 0.79),
            ("it", 0.86),
            ("pt", 0.77),
        ],
    );
}

#[test]
fn ocr_english_text_of_the_fifth_tune_sets_cjk_labels_stays_above_its_floor() {
    assert_tune_set(
        &tune5_cjk(),
        60,
        "tune5 CJK labels",
        "twenty labels per CJK language",
        "fifth tune set, CJK",
        &[("ja", 0.7), ("ko", 0.52), ("zh", 0.59)],
    );
}
