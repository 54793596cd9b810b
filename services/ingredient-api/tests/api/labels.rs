//! The synthetic labels of `fixtures/labels.toml` (rendered and read by the OCR tests) and of
//! `fixtures/labels-heldout.toml` (held out from tuning the translation, never rendered),
//! rendered and scored by [`test_support::labels`].

use std::path::Path;

pub use test_support::labels::{Label, Variant, render, score};

/// Every label of the fixture file.
pub fn corpus() -> Vec<Label> {
    test_support::labels::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/labels.toml"))
}

/// The labels written to check the English translation on lists it was not tuned on.
pub fn held_out() -> Vec<Label> {
    test_support::labels::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/labels-heldout.toml"),
    )
}
