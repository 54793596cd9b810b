//! The synthetic labels of `fixtures/labels.toml` (rendered and read by the OCR tests), of
//! `fixtures/labels-heldout.toml` (held out from tuning the translation, never rendered) and of
//! `fixtures/labels-other-hands.toml` (written by other hands, never rendered) and of
//! `fixtures/labels-blind.toml` (written blind, report only, never rendered) and of
//! `fixtures/labels-tune2.toml`, `fixtures/labels-tune3.toml`, `fixtures/labels-tune4-cjk.toml`
//! and `fixtures/labels-tune4-eu.toml` (written blind as tune material, never rendered), rendered and scored by [`test_support::labels`].

use std::path::Path;

pub use test_support::labels::{Label, Variant, render, score};

/// The labels of a file of `fixtures/`.
fn fixture(file: &str) -> Vec<Label> {
    test_support::labels::load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures")
            .join(file),
    )
}

/// Every label of the fixture file.
pub fn corpus() -> Vec<Label> {
    fixture("labels.toml")
}

/// The labels written to check the English translation on lists it was not tuned on.
pub fn held_out() -> Vec<Label> {
    fixture("labels-heldout.toml")
}

/// The labels written by other hands than the translation's, to measure how its English
/// generalises: half of them (by [`is_tune_half`]) may guide the knowledge, the other half only
/// reports.
pub fn other_hands() -> Vec<Label> {
    fixture("labels-other-hands.toml")
}

/// The labels written blind after the translation was last tuned: they only report, their
/// misses are never printed nor read.
pub fn blind() -> Vec<Label> {
    fixture("labels-blind.toml")
}

/// The second tune set: labels written blind by another hand as tune material (twelve each
/// in Korean, Japanese and Chinese, six in each European language); its misses are printed
/// and may guide the knowledge.
pub fn tune2() -> Vec<Label> {
    fixture("labels-tune2.toml")
}

/// The third tune set: labels written blind by another hand as tune material (twenty each in
/// Korean, Japanese and Chinese, some of it in traditional characters, three in each European
/// language); its misses are printed and may guide the knowledge.
pub fn tune3() -> Vec<Label> {
    fixture("labels-tune3.toml")
}

/// The fourth tune set's Korean, Japanese and Chinese labels: written blind by another hand as
/// tune material (twenty each, six of the Chinese in traditional characters; foods, cosmetics
/// and household products); its misses are printed and may guide the knowledge.
pub fn tune4_cjk() -> Vec<Label> {
    fixture("labels-tune4-cjk.toml")
}

/// The fourth tune set's European labels: written blind by another hand as tune material
/// (twelve each in German, Italian, Portuguese, Spanish and French, foods, cosmetics and
/// household products); its misses are printed and may guide the knowledge.
pub fn tune4_eu() -> Vec<Label> {
    fixture("labels-tune4-eu.toml")
}

/// The fifth tune set's Korean, Japanese and Chinese labels: written blind by another hand as
/// tune material (twenty each, foods, cosmetics and household products); scored before anyone
/// read it, its misses are printed and may guide the knowledge.
pub fn tune5_cjk() -> Vec<Label> {
    fixture("labels-tune5-cjk.toml")
}

/// The fifth tune set's European labels: written blind by two more hands as tune material
/// (twelve each in German, Italian, French, Portuguese and Spanish, foods, cosmetics and
/// household products); scored before anyone read it, its misses are printed and may guide
/// the knowledge.
pub fn tune5_eu() -> Vec<Label> {
    fixture("labels-tune5-eu.toml")
}

/// Whether a label belongs to the tune half: the FNV-1a hash of its name is even (a fixed
/// split, the same on every machine and run).
pub fn is_tune_half(label: &Label) -> bool {
    domain::email::text::fnv1a(label.name.as_bytes()).is_multiple_of(2)
}
