//! The synthetic labels of `fixtures/labels.toml`, rendered and scored by
//! [`test_support::labels`].

use std::path::Path;

pub use test_support::labels::{Label, Variant, render, score};

/// Every label of the fixture file.
pub fn corpus() -> Vec<Label> {
    test_support::labels::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/labels.toml"))
}
