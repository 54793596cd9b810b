//! The service's side of the mail categoriser ([`domain::email::classifier`], where the model,
//! its evidence and its rules live): the user rules file (`DIGEST_RULES_FILE`) read from disk,
//! and the labelled corpus the model is trained and measured on ([`corpus`]).

pub mod corpus;

use std::path::Path;

pub use domain::email::classifier::{Classification, Classifier, InvalidRules, MAX_REASONS, Rules};

pub use crate::job::mail::fixtures::{GoldenMessage, golden_messages};

/// A rules file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum RulesError {
    /// Unreadable file.
    #[error("cannot read rules file {path}: {source}")]
    Read {
        /// The path.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Not the expected TOML, or an unknown category.
    #[error(transparent)]
    Invalid(#[from] InvalidRules),
}

/// Reads and parses a rules file ([`Rules::parse`]).
pub fn load_rules(path: &Path) -> Result<Rules, RulesError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| RulesError::Read {
        path: shown.clone(),
        source,
    })?;
    Ok(Rules::parse(&text, &shown)?)
}

#[cfg(test)]
mod tests;
