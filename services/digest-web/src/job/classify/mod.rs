//! The service's side of the mail categoriser ([`domain::email::classifier`], where the model,
//! its evidence and its rules live): the user rules file (`DIGEST_RULES_FILE`) and the
//! sentence-embedding table (`DIGEST_EMBEDDING_MODEL`) read from disk, and the labelled corpus
//! the model is trained and measured on ([`corpus`]).

pub mod corpus;

use std::path::{Path, PathBuf};

use domain::email::embedding::LazyEmbedder;

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

/// Where the sentence-embedding table is looked for when `DIGEST_EMBEDDING_MODEL` is unset:
/// what `scripts/setup/install-embedding-model.sh` writes in the checkout.
pub fn default_embedding_model() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../.tmp/embedding-model/tokens.bin"
    ))
}

/// The offline categoriser a refresh uses, and one line saying which it is (for the log and
/// the refresh's log): the shipped model that reads the text's meaning when the
/// embedding table at `table` loads and is the one it was trained with; else the embedded
/// default (header evidence and words), saying why.
pub fn offline_classifier(table: Option<&Path>) -> (Classifier, String) {
    const DEFAULT: &str = "header evidence and words";
    let Some(path) = table else {
        return (
            Classifier::embedded().clone(),
            format!("{DEFAULT} (sentence-embedding model turned off)"),
        );
    };
    // Only the table's header and vocabulary now: its rows are read when a message is first
    // categorised (a run that finds everything cached never reads them).
    let loaded = LazyEmbedder::open(path)
        .map_err(|e| e.to_string())
        .and_then(Classifier::embedded_with_lazy_meaning);
    match loaded {
        Ok(classifier) => {
            tracing::info!(table = %path.display(), "categoriser reads the text's meaning (all-MiniLM-L6-v2 token table)");
            (
                classifier,
                "header evidence, words and meaning (all-MiniLM-L6-v2 token table)".to_owned(),
            )
        }
        Err(e) => {
            tracing::warn!(error = %e, "sentence-embedding model not used: categorising on the embedded default");
            let why = if path.exists() {
                "sentence-embedding table unusable, see the log"
            } else {
                "sentence-embedding model not installed"
            };
            (Classifier::embedded().clone(), format!("{DEFAULT} ({why})"))
        }
    }
}

#[cfg(test)]
mod tests;
