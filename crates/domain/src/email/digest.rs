//! The digest of `digest-web` (see `shared/spec/digest-web.md`): what the refresh job writes
//! and `/api/digest` serves.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Category;

/// One email as the digest shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EmailItem {
    /// Message-ID without angle brackets, or a stable hash when absent.
    pub id: String,
    /// Decoded subject.
    pub subject: String,
    /// Sender address.
    pub from: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    /// About 200 characters of clean text.
    pub snippet: String,
    /// Why the email is in its category, strongest first (an extra field beyond the spec's
    /// EmailItem; left out of the JSON when empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
}

/// Run figures of the digest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct DigestStats {
    /// Emails in the digest.
    pub total_emails: u64,
    /// Calls to external services (IMAP fetches, LLM calls).
    pub api_calls: u64,
    /// Seconds the refresh took.
    pub execution_time: f64,
}

/// The digest file and the `/api/digest` body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Digest {
    /// ISO 8601 without zone (UTC), e.g. `2026-11-21T20:30:00`.
    pub generated_at: String,
    /// Every category key, each with its emails (possibly none).
    pub categories: BTreeMap<Category, Vec<EmailItem>>,
    /// Summary per category; a category may be absent.
    pub summaries: BTreeMap<Category, String>,
    /// Run figures.
    pub stats: DigestStats,
    /// Which path produced the digest (an extension of the spec): `offline`, or
    /// `llm:<model>` when the LLM decided at least one category or wrote at least one summary.
    /// Every refresh writes it; absent from the empty digest served before the first refresh
    /// and from digests written before it existed (both offline).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// Per summary, which path wrote it (`offline` or `llm:<model>`); empty in older digests.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub summary_engines: BTreeMap<Category, String>,
    /// Emails whose category the LLM decided (the rest: rules and the offline classifier).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub categorised_by_llm: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Digest {
    /// A digest with all five categories present and empty.
    pub fn empty(generated_at: impl Into<String>) -> Self {
        Self {
            generated_at: generated_at.into(),
            categories: Category::ALL.into_iter().map(|c| (c, Vec::new())).collect(),
            summaries: BTreeMap::new(),
            stats: DigestStats::default(),
            engine: None,
            summary_engines: BTreeMap::new(),
            categorised_by_llm: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_digest_has_all_five_keys_in_spec_spelling() {
        let json = serde_json::to_value(Digest::empty("2026-01-01T00:00:00")).unwrap();
        let keys: Vec<_> = json["categories"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        assert_eq!(keys.len(), 5);
        for key in ["Need-Action", "FYI", "Newsletter", "Promotional", "Social"] {
            assert!(keys.iter().any(|k| k == key), "{key} missing");
        }
    }
}
