//! Configuration from `LLM_*` variables.

use std::fmt;
use std::time::Duration;

/// How to ask the server for JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonMode {
    /// `response_format: {type: json_schema}` (OpenAI, vLLM, Ollama, LM Studio, llama.cpp),
    /// falling back to [`JsonMode::Object`] then [`JsonMode::Prompt`] when the server refuses.
    Schema,
    /// `response_format: {type: json_object}`.
    Object,
    /// No `response_format`: the prompt asks for JSON and the answer is extracted from prose.
    Prompt,
}

impl std::str::FromStr for JsonMode {
    type Err = ();

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "schema" | "json_schema" => Ok(Self::Schema),
            "object" | "json_object" => Ok(Self::Object),
            "prompt" | "none" => Ok(Self::Prompt),
            _ => Err(()),
        }
    }
}

/// Where the endpoint is and how to use it.
#[derive(Clone)]
pub struct LlmConfig {
    /// `LLM_BASE_URL`: up to the API version, e.g. `https://api.openai.com/v1`,
    /// `http://127.0.0.1:11434/v1` (Ollama), `http://127.0.0.1:8000/v1` (vLLM).
    pub base_url: String,
    /// `LLM_MODEL`: the model (or Azure deployment) name sent with each request.
    pub model: String,
    /// `LLM_API_KEY` or the file named by `LLM_API_KEY_FILE`; `None` for local servers.
    pub api_key: Option<String>,
    /// `LLM_API_KEY_HEADER`: `authorization` (default, sent as `Bearer <key>`) or another
    /// header name that carries the bare key (Azure OpenAI: `api-key`).
    pub api_key_header: String,
    /// `LLM_API_VERSION`: appended as `?api-version=` (Azure OpenAI).
    pub api_version: Option<String>,
    /// `LLM_TIMEOUT_SECS`: limit of one HTTP request (default 20 s).
    pub timeout: Duration,
    /// `LLM_MAX_RETRIES`: retries after a 429, 5xx or connection error (default 2).
    pub max_retries: u32,
    /// `LLM_MAX_RETRY_AFTER_SECS`: a `Retry-After` longer than this is not waited for (10).
    pub max_retry_after: Duration,
    /// `LLM_MAX_CONCURRENCY`: requests in flight at once from this process (default 4).
    pub max_concurrency: usize,
    /// `LLM_JSON_MODE`: `schema` (default), `object` or `prompt`.
    pub json_mode: JsonMode,
    /// `LLM_PRICE_INPUT_PER_1K`: cost of 1,000 prompt tokens, in the operator's currency (0).
    pub price_input_per_1k: f64,
    /// `LLM_PRICE_OUTPUT_PER_1K`: cost of 1,000 completion tokens (0).
    pub price_output_per_1k: f64,
}

/// An `LLM_*` value that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A variable does not parse.
    #[error("invalid {key} '{value}': expected {expected}")]
    Invalid {
        /// The variable.
        key: &'static str,
        /// Its value (never a secret).
        value: String,
        /// What is accepted.
        expected: &'static str,
    },
    /// `LLM_BASE_URL` is set without `LLM_MODEL`.
    #[error("LLM_MODEL is required when LLM_BASE_URL or LLM_API_KEY is set")]
    MissingModel,
    /// The key file could not be read.
    #[error("cannot read LLM_API_KEY_FILE {path}: {message}")]
    KeyFile {
        /// The file.
        path: String,
        /// The I/O error.
        message: String,
    },
}

impl LlmConfig {
    /// A configuration with defaults for everything but the endpoint.
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Self {
        Self {
            base_url: base_url.into().trim_end_matches('/').to_owned(),
            model: model.into(),
            api_key: None,
            api_key_header: "authorization".to_owned(),
            api_version: None,
            timeout: Duration::from_secs(20),
            max_retries: 2,
            max_retry_after: Duration::from_secs(10),
            max_concurrency: 4,
            json_mode: JsonMode::Schema,
            price_input_per_1k: 0.0,
            price_output_per_1k: 0.0,
        }
    }

    /// Reads `LLM_*` variables through `get` (so each service can use its own configuration
    /// source). `Ok(None)` when no LLM is configured: neither `LLM_BASE_URL` nor `LLM_API_KEY`
    /// is set. With only a key, the base URL defaults to OpenAI's.
    pub fn from_vars(get: impl Fn(&str) -> Option<String>) -> Result<Option<Self>, ConfigError> {
        let get = |k: &str| {
            get(k)
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
        };
        let key = match (get("LLM_API_KEY"), get("LLM_API_KEY_FILE")) {
            (Some(key), _) => Some(key),
            (None, Some(path)) => Some(
                std::fs::read_to_string(&path)
                    .map_err(|e| ConfigError::KeyFile {
                        path,
                        message: e.to_string(),
                    })?
                    .trim()
                    .to_owned(),
            ),
            (None, None) => None,
        };
        let base = get("LLM_BASE_URL");
        if base.is_none() && key.is_none() {
            return Ok(None);
        }
        let model = get("LLM_MODEL").ok_or(ConfigError::MissingModel)?;
        let base = base.unwrap_or_else(|| "https://api.openai.com/v1".to_owned());
        if !(base.starts_with("http://") || base.starts_with("https://")) {
            return Err(ConfigError::Invalid {
                key: "LLM_BASE_URL",
                value: base,
                expected: "an http:// or https:// URL",
            });
        }
        let mut config = Self::new(base, model);
        config.api_key = key;
        if let Some(header) = get("LLM_API_KEY_HEADER") {
            config.api_key_header = header.to_ascii_lowercase();
        }
        config.api_version = get("LLM_API_VERSION");
        fn num<T: std::str::FromStr>(
            get: &impl Fn(&str) -> Option<String>,
            key: &'static str,
            expected: &'static str,
        ) -> Result<Option<T>, ConfigError> {
            get(key)
                .map(|v| {
                    v.parse().map_err(|_| ConfigError::Invalid {
                        key,
                        value: v,
                        expected,
                    })
                })
                .transpose()
        }
        if let Some(s) = num::<f64>(&get, "LLM_TIMEOUT_SECS", "seconds, e.g. 20 or 2.5")? {
            if !(s.is_finite() && s > 0.0) {
                return Err(ConfigError::Invalid {
                    key: "LLM_TIMEOUT_SECS",
                    value: s.to_string(),
                    expected: "a positive number of seconds",
                });
            }
            config.timeout = Duration::from_secs_f64(s);
        }
        if let Some(n) = num(&get, "LLM_MAX_RETRIES", "a whole number, e.g. 2")? {
            config.max_retries = n;
        }
        if let Some(n) = num(
            &get,
            "LLM_MAX_RETRY_AFTER_SECS",
            "a whole number of seconds",
        )? {
            config.max_retry_after = Duration::from_secs(n);
        }
        if let Some(n) = num::<usize>(&get, "LLM_MAX_CONCURRENCY", "a positive whole number")? {
            config.max_concurrency = n.max(1);
        }
        if let Some(mode) = num(&get, "LLM_JSON_MODE", "schema, object or prompt")? {
            config.json_mode = mode;
        }
        if let Some(p) = num(&get, "LLM_PRICE_INPUT_PER_1K", "a number, e.g. 0.00015")? {
            config.price_input_per_1k = p;
        }
        if let Some(p) = num(&get, "LLM_PRICE_OUTPUT_PER_1K", "a number, e.g. 0.0006")? {
            config.price_output_per_1k = p;
        }
        Ok(Some(config))
    }

    /// The engine label used in responses, e.g. `llm:gpt-4o-mini`.
    pub fn engine_label(&self) -> String {
        format!("llm:{}", self.model)
    }

    /// The full Chat Completions URL.
    pub fn completions_url(&self) -> String {
        match &self.api_version {
            Some(v) => format!("{}/chat/completions?api-version={v}", self.base_url),
            None => format!("{}/chat/completions", self.base_url),
        }
    }
}

// The key must never reach a log line, so Debug is written by hand.
impl fmt::Debug for LlmConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LlmConfig")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("api_key_header", &self.api_key_header)
            .field("api_version", &self.api_version)
            .field("timeout", &self.timeout)
            .field("max_retries", &self.max_retries)
            .field("max_concurrency", &self.max_concurrency)
            .field("json_mode", &self.json_mode)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        move |k| map.get(k).cloned()
    }

    #[test]
    fn unconfigured_means_offline() {
        assert!(LlmConfig::from_vars(vars(&[])).unwrap().is_none());
    }

    #[test]
    fn key_alone_means_openai_but_needs_a_model() {
        assert_eq!(
            LlmConfig::from_vars(vars(&[("LLM_API_KEY", "k")])).unwrap_err(),
            ConfigError::MissingModel
        );
        let c = LlmConfig::from_vars(vars(&[("LLM_API_KEY", "k"), ("LLM_MODEL", "gpt-4o-mini")]))
            .unwrap()
            .unwrap();
        assert_eq!(
            c.completions_url(),
            "https://api.openai.com/v1/chat/completions"
        );
    }

    #[test]
    fn azure_style_settings() {
        let c = LlmConfig::from_vars(vars(&[
            (
                "LLM_BASE_URL",
                "https://r.openai.azure.com/openai/deployments/d/",
            ),
            ("LLM_MODEL", "d"),
            ("LLM_API_KEY", "k"),
            ("LLM_API_KEY_HEADER", "api-key"),
            ("LLM_API_VERSION", "2024-06-01"),
        ]))
        .unwrap()
        .unwrap();
        assert_eq!(
            c.completions_url(),
            "https://r.openai.azure.com/openai/deployments/d/chat/completions?api-version=2024-06-01"
        );
        assert_eq!(c.api_key_header, "api-key");
    }

    #[test]
    fn invalid_values_are_named() {
        let err = LlmConfig::from_vars(vars(&[
            ("LLM_BASE_URL", "http://127.0.0.1:1/v1"),
            ("LLM_MODEL", "m"),
            ("LLM_TIMEOUT_SECS", "soon"),
        ]))
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid LLM_TIMEOUT_SECS 'soon': expected seconds, e.g. 20 or 2.5"
        );
    }

    #[test]
    fn debug_never_shows_the_key() {
        let mut config = LlmConfig::new("http://127.0.0.1:1/v1", "m");
        config.api_key = Some("sk-secret".into());
        let shown = format!("{config:?}");
        assert!(!shown.contains("sk-secret"), "{shown}");
        assert!(shown.contains("<redacted>"));
        assert_eq!(config.engine_label(), "llm:m");
    }
}
