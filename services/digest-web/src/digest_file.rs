//! Reading `<data-dir>/digest.json`, the digest the refresh job writes atomically.
//!
//! Before the first refresh there is no file: [`load_or_empty`] then answers an empty digest
//! with all five categories and `generated_at` set to the Unix epoch (see docs/decisions.md).

use std::path::{Path, PathBuf};

use domain::email::{Category, Digest};

/// The digest's file name inside the data dir.
pub const FILE_NAME: &str = "digest.json";

/// `generated_at` of the digest served before any refresh.
pub const NEVER: &str = "1970-01-01T00:00:00";

/// The digest file exists but cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum DigestFileError {
    /// Reading failed (permissions, I/O).
    #[error("cannot read digest.json: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not a valid Digest.
    #[error("digest.json is corrupted: {reason}")]
    Corrupted {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
}

/// The digest file's path in `data_dir`.
pub fn path(data_dir: &Path) -> PathBuf {
    data_dir.join(FILE_NAME)
}

/// The digest, or `None` when no refresh has written one yet.
pub fn load(data_dir: &Path) -> Result<Option<Digest>, DigestFileError> {
    let path = path(data_dir);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(DigestFileError::Read { path, source }),
    };
    let digest: Digest =
        serde_json::from_slice(&bytes).map_err(|e| DigestFileError::Corrupted {
            path: path.clone(),
            reason: e.to_string(),
        })?;
    let problems = problems(&digest);
    if let Some(first) = problems.first() {
        return Err(DigestFileError::Corrupted {
            path,
            reason: first.clone(),
        });
    }
    Ok(Some(digest))
}

/// The digest, or the empty digest before the first refresh.
pub fn load_or_empty(data_dir: &Path) -> Result<Digest, DigestFileError> {
    Ok(load(data_dir)?.unwrap_or_else(|| Digest::empty(NEVER)))
}

/// Everything that makes a parsed digest break the spec's rules (empty when valid): every
/// category present, `generated_at` an ISO 8601 datetime without zone, dates `YYYY-MM-DD`.
pub fn problems(digest: &Digest) -> Vec<String> {
    let mut out = Vec::new();
    if chrono::NaiveDateTime::parse_from_str(&digest.generated_at, "%Y-%m-%dT%H:%M:%S%.f").is_err()
    {
        out.push(format!(
            "generated_at '{}' is not an ISO 8601 datetime without zone",
            digest.generated_at
        ));
    }
    for category in Category::ALL {
        if !digest.categories.contains_key(&category) {
            out.push(format!("category {category} is missing"));
        }
    }
    for (category, items) in &digest.categories {
        for item in items {
            if chrono::NaiveDate::parse_from_str(&item.date, "%Y-%m-%d").is_err() {
                out.push(format!(
                    "email {} in {category} has date '{}', not YYYY-MM-DD",
                    item.id, item.date
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_file_is_none_and_empty_digest_has_all_categories() {
        let dir = tempfile::tempdir().unwrap();
        assert!(load(dir.path()).unwrap().is_none());
        let digest = load_or_empty(dir.path()).unwrap();
        assert_eq!(digest.categories.len(), 5);
        assert!(problems(&digest).is_empty());
    }

    #[test]
    fn garbage_and_missing_categories_are_corrupted() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(path(dir.path()), "{not json").unwrap();
        let err = load(dir.path()).unwrap_err();
        assert!(err.to_string().contains("corrupted"), "{err}");

        let mut digest = Digest::empty("2026-11-21T10:00:00");
        digest.categories.remove(&Category::Social);
        std::fs::write(path(dir.path()), serde_json::to_vec(&digest).unwrap()).unwrap();
        let err = load(dir.path()).unwrap_err();
        assert!(err.to_string().contains("Social is missing"), "{err}");
    }
}
