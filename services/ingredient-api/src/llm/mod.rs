//! The optional LLM backends of ingredient-api, all off unless `LLM_*` is set.
//!
//! - [`LlmSettings`]: the client configuration ([`llm_client::LlmConfig`]), which backends
//!   run, and each request's time budget for the LLM.
//! - [`crate::ocr::vision`]: a vision model reads the label before Tesseract.
//! - [`explain`]: ingredients the knowledge base lacks are explained in one batched call per
//!   request, validated, cached ([`cache::Lru`]) and handed to the engine as a
//!   [`domain::analysis::Supplement`].
//! - [`summary`]: the summary for the user's expertise, validated, template as fallback.
//!
//! Every LLM call runs inside `tokio::time::timeout(budget, ...)`, so retries inside the
//! client can never make a request slower than its budget; any failure is logged at warn with
//! the prompt version and the offline path answers.

pub mod cache;
pub mod explain;
pub mod summary;

use std::time::Duration;

use llm_client::{LlmClient, LlmConfig};
use service_kit::config::{ConfigError, EnvSource};

/// Which backends run when an LLM is configured (`LLM_BACKENDS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backends {
    /// `ocr`: the vision model reads labels before Tesseract.
    pub ocr: bool,
    /// `analyze`: unknown ingredients are explained.
    pub analyze: bool,
    /// `summary`: the `/analyze` summary is written by the model.
    pub summary: bool,
}

impl Backends {
    const ALL: [&'static str; 3] = ["ocr", "analyze", "summary"];

    fn parse(list: &[String]) -> Result<Self, String> {
        let mut out = Self {
            ocr: false,
            analyze: false,
            summary: false,
        };
        for item in list {
            match item.to_ascii_lowercase().as_str() {
                "ocr" => out.ocr = true,
                "analyze" => out.analyze = true,
                "summary" => out.summary = true,
                "none" => {}
                _ => return Err(item.clone()),
            }
        }
        Ok(out)
    }
}

/// `LLM_*` settings of ingredient-api (see docs/configuration.md and docs/llm.md).
#[derive(Debug, Clone)]
pub struct LlmSettings {
    /// The endpoint; `None` (no `LLM_BASE_URL` nor `LLM_API_KEY`) keeps everything offline.
    pub config: Option<LlmConfig>,
    /// `LLM_BACKENDS`: comma list of `ocr`, `analyze`, `summary` (default all three).
    pub backends: Backends,
    /// `LLM_OCR_BUDGET_SECS`: longest wait for the vision model per `/ocr` request (10).
    pub ocr_budget: Duration,
    /// `LLM_ANALYZE_BUDGET_SECS`: longest wait for the model per `/analyze` request, both
    /// calls together (explanations, then summary) (5).
    pub analyze_budget: Duration,
    /// `LLM_CACHE_ENTRIES`: explanations and summaries kept in memory (default 2000).
    pub cache_entries: usize,
}

fn seconds(env: &EnvSource, key: &str, default: f64) -> Result<Duration, ConfigError> {
    let s: f64 = env.parse_or(key, default, "a positive number of seconds, e.g. 5 or 0.5")?;
    if !(s.is_finite() && s > 0.0 && s <= 600.0) {
        return Err(ConfigError::Invalid {
            key: key.to_owned(),
            value: s.to_string(),
            expected: "a positive number of seconds up to 600".to_owned(),
        });
    }
    Ok(Duration::from_secs_f64(s))
}

impl LlmSettings {
    /// Reads the `LLM_*` variables; an invalid one fails start-up with one line naming it.
    pub fn from_env(env: &EnvSource) -> Result<Self, ConfigError> {
        let config = LlmConfig::from_env(env)?;
        let list = env
            .list("LLM_BACKENDS")
            .unwrap_or_else(|| Backends::ALL.iter().map(|s| (*s).to_owned()).collect());
        let backends = Backends::parse(&list).map_err(|value| ConfigError::Invalid {
            key: "LLM_BACKENDS".to_owned(),
            value,
            expected: "a comma list of ocr, analyze, summary (or none)".to_owned(),
        })?;
        Ok(Self {
            config,
            backends,
            ocr_budget: seconds(env, "LLM_OCR_BUDGET_SECS", 10.0)?,
            analyze_budget: seconds(env, "LLM_ANALYZE_BUDGET_SECS", 5.0)?,
            cache_entries: env.parse_or("LLM_CACHE_ENTRIES", 2000, "a whole number")?,
        })
    }

    /// The client, when an LLM is configured and at least one backend is on.
    pub fn client(&self) -> anyhow::Result<Option<LlmClient>> {
        let Some(config) = &self.config else {
            return Ok(None);
        };
        if !(self.backends.ocr || self.backends.analyze || self.backends.summary) {
            return Ok(None);
        }
        tracing::info!(
            base_url = %config.base_url,
            model = %config.model,
            backends = ?self.backends,
            ocr_budget = ?self.ocr_budget,
            analyze_budget = ?self.analyze_budget,
            "LLM backends on"
        );
        Ok(Some(LlmClient::new(config.clone()).map_err(|e| {
            anyhow::anyhow!("cannot build the LLM client: {e}")
        })?))
    }
}

/// Runs an LLM call within `budget`; the error says why the offline path answers.
pub async fn within<T>(
    budget: Duration,
    call: impl std::future::Future<Output = Result<T, llm_client::LlmError>>,
) -> Result<T, String> {
    match tokio::time::timeout(budget, call).await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err(format!("no answer within the budget of {budget:?}")),
    }
}

/// Counts one backend outcome (`llm_calls_total{backend, outcome}`: `used`, `cached` or
/// `fallback`) and publishes the client's totals (`llm_http_requests_total`,
/// `llm_prompt_tokens_total`, `llm_completion_tokens_total`, `llm_estimated_cost`).
pub fn record(backend: &'static str, outcome: &'static str, client: &LlmClient) {
    metrics::counter!("llm_calls_total", "backend" => backend, "outcome" => outcome).increment(1);
    let usage = client.usage();
    metrics::counter!("llm_http_requests_total").absolute(usage.requests);
    metrics::counter!("llm_prompt_tokens_total").absolute(usage.prompt_tokens);
    metrics::counter!("llm_completion_tokens_total").absolute(usage.completion_tokens);
    metrics::gauge!("llm_estimated_cost").set(usage.estimated_cost);
}

/// Whether `text` is a plain value fit for a response: no control characters but newlines
/// and tabs, at most `max` characters, not blank.
pub fn plain_text(text: &str, max: usize) -> bool {
    !text.trim().is_empty()
        && text.chars().count() <= max
        && !text
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\t')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unconfigured_is_offline_with_default_budgets() {
        let s = LlmSettings::from_env(&EnvSource::default()).unwrap();
        assert!(s.config.is_none());
        assert!(s.client().unwrap().is_none());
        assert_eq!(s.ocr_budget, Duration::from_secs(10));
        assert_eq!(s.analyze_budget, Duration::from_secs(5));
        assert!(s.backends.ocr && s.backends.analyze && s.backends.summary);
    }

    #[test]
    fn bad_values_fail_with_one_line_naming_the_variable() {
        for (pairs, expected) in [
            (
                vec![("LLM_BASE_URL", "http://127.0.0.1:1/v1")],
                "missing LLM_MODEL",
            ),
            (
                vec![("LLM_BASE_URL", "ftp://x"), ("LLM_MODEL", "m")],
                "invalid LLM_BASE_URL 'ftp://x'",
            ),
            (
                vec![("LLM_OCR_BUDGET_SECS", "-1")],
                "invalid LLM_OCR_BUDGET_SECS '-1'",
            ),
            (
                vec![("LLM_BACKENDS", "ocr,poetry")],
                "invalid LLM_BACKENDS 'poetry'",
            ),
        ] {
            let err = LlmSettings::from_env(&EnvSource::from_pairs(pairs)).unwrap_err();
            let line = err.to_string();
            assert!(line.starts_with(expected), "{line}");
            assert!(!line.contains('\n'), "{line}");
        }
    }

    #[test]
    fn backends_can_be_chosen() {
        let s = LlmSettings::from_env(&EnvSource::from_pairs([
            ("LLM_BASE_URL", "http://127.0.0.1:1/v1"),
            ("LLM_MODEL", "m"),
            ("LLM_BACKENDS", "analyze"),
            ("LLM_ANALYZE_BUDGET_SECS", "0.5"),
        ]))
        .unwrap();
        assert_eq!(
            s.backends,
            Backends {
                ocr: false,
                analyze: true,
                summary: false
            }
        );
        assert_eq!(s.analyze_budget, Duration::from_millis(500));
        assert_eq!(s.config.unwrap().engine_label(), "llm:m");
    }
}
