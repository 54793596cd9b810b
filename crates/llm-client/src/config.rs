//! Configuration from `LLM_*` variables, read through [`EnvSource`] like every other
//! setting of the services.

use std::fmt;
use std::time::Duration;

pub use env_config::{ConfigError, EnvSource};
use secrecy::SecretString;

/// How to ask the server for JSON (`LLM_JSON_MODE`, parsed case-insensitively).
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::EnumString)]
#[strum(ascii_case_insensitive)]
pub enum JsonMode {
    /// `response_format: {type: json_schema}` (OpenAI, vLLM, Ollama, LM Studio, llama.cpp),
    /// falling back to [`JsonMode::Object`] then [`JsonMode::Prompt`] when the server refuses.
    #[strum(serialize = "schema", serialize = "json_schema")]
    Schema,
    /// `response_format: {type: json_object}`.
    #[strum(serialize = "object", serialize = "json_object")]
    Object,
    /// No `response_format`: the prompt asks for JSON and the answer is extracted from prose.
    #[strum(serialize = "prompt", serialize = "none")]
    Prompt,
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
    /// Shown only where it is sent (`expose_secret`), redacted everywhere else.
    pub api_key: Option<SecretString>,
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

/// Every variable [`LlmConfig::from_env`] reads.
pub const VARIABLES: &[&str] = &[
    "LLM_BASE_URL",
    "LLM_MODEL",
    "LLM_API_KEY",
    "LLM_API_KEY_FILE",
    "LLM_API_KEY_HEADER",
    "LLM_API_VERSION",
    "LLM_TIMEOUT_SECS",
    "LLM_MAX_RETRIES",
    "LLM_MAX_RETRY_AFTER_SECS",
    "LLM_MAX_CONCURRENCY",
    "LLM_JSON_MODE",
    "LLM_PRICE_INPUT_PER_1K",
    "LLM_PRICE_OUTPUT_PER_1K",
];

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

    /// Reads the `LLM_*` variables of `env` (the services' one configuration source).
    /// `Ok(None)` when no LLM is configured: neither `LLM_BASE_URL` nor `LLM_API_KEY` (or
    /// `LLM_API_KEY_FILE`) is set. With only a key, the base URL defaults to OpenAI's. An
    /// invalid value is one line naming its variable; the key never appears in it.
    pub fn from_env(env: &EnvSource) -> Result<Option<Self>, ConfigError> {
        let key = env.secret("LLM_API_KEY")?;
        let base = env.raw("LLM_BASE_URL");
        if base.is_none() && key.is_none() {
            return Ok(None);
        }
        let model = env.raw("LLM_MODEL").ok_or_else(|| ConfigError::Missing {
            key: "LLM_MODEL".to_owned(),
            expected: "the model name, required when LLM_BASE_URL or LLM_API_KEY is set".to_owned(),
        })?;
        let base = base.unwrap_or("https://api.openai.com/v1");
        if !(base.starts_with("http://") || base.starts_with("https://")) {
            return Err(ConfigError::Invalid {
                key: "LLM_BASE_URL".to_owned(),
                value: base.to_owned(),
                expected: "an http:// or https:// URL".to_owned(),
            });
        }
        let mut config = Self::new(base, model);
        config.api_key = key.map(SecretString::from);
        if let Some(header) = env.raw("LLM_API_KEY_HEADER") {
            config.api_key_header = header.to_ascii_lowercase();
        }
        config.api_version = env.raw("LLM_API_VERSION").map(str::to_owned);
        if let Some(s) = env.parse_opt::<f64>("LLM_TIMEOUT_SECS", "seconds, e.g. 20 or 2.5")? {
            if !(s.is_finite() && s > 0.0) {
                return Err(ConfigError::Invalid {
                    key: "LLM_TIMEOUT_SECS".to_owned(),
                    value: s.to_string(),
                    expected: "a positive number of seconds".to_owned(),
                });
            }
            config.timeout = Duration::from_secs_f64(s);
        }
        config.max_retries = env.parse_or(
            "LLM_MAX_RETRIES",
            config.max_retries,
            "a whole number, e.g. 2",
        )?;
        if let Some(n) = env.parse_opt("LLM_MAX_RETRY_AFTER_SECS", "a whole number of seconds")? {
            config.max_retry_after = Duration::from_secs(n);
        }
        if let Some(n) = env.parse_opt::<usize>("LLM_MAX_CONCURRENCY", "a positive whole number")? {
            config.max_concurrency = n.max(1);
        }
        config.json_mode = env.parse_or(
            "LLM_JSON_MODE",
            config.json_mode,
            "schema, object or prompt",
        )?;
        config.price_input_per_1k =
            env.parse_or("LLM_PRICE_INPUT_PER_1K", 0.0, "a number, e.g. 0.00015")?;
        config.price_output_per_1k =
            env.parse_or("LLM_PRICE_OUTPUT_PER_1K", 0.0, "a number, e.g. 0.0006")?;
        Ok(Some(config))
    }

    /// [`LlmConfig::from_env`] over the [`VARIABLES`] that `get` returns, for a caller
    /// holding its configuration elsewhere.
    pub fn from_vars(get: impl Fn(&str) -> Option<String>) -> Result<Option<Self>, ConfigError> {
        let env = EnvSource::from_pairs(
            VARIABLES
                .iter()
                .filter_map(|&key| get(key).map(|v| (key, v))),
        );
        Self::from_env(&env)
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
    use secrecy::ExposeSecret;

    fn vars(pairs: &[(&str, &str)]) -> EnvSource {
        EnvSource::from_pairs(pairs.iter().copied())
    }

    fn from(pairs: &[(&str, &str)]) -> Result<Option<LlmConfig>, ConfigError> {
        LlmConfig::from_env(&vars(pairs))
    }

    #[test]
    fn unconfigured_means_offline() {
        assert!(from(&[]).unwrap().is_none());
    }

    #[test]
    fn key_alone_means_openai_but_needs_a_model() {
        assert_eq!(
            from(&[("LLM_API_KEY", "k")]).unwrap_err().to_string(),
            "missing LLM_MODEL: the model name, required when LLM_BASE_URL or LLM_API_KEY is set"
        );
        let c = from(&[("LLM_API_KEY", "k"), ("LLM_MODEL", "gpt-4o-mini")])
            .unwrap()
            .unwrap();
        assert_eq!(
            c.completions_url(),
            "https://api.openai.com/v1/chat/completions"
        );
    }

    #[test]
    fn azure_style_settings() {
        let c = from(&[
            (
                "LLM_BASE_URL",
                "https://r.openai.azure.com/openai/deployments/d/",
            ),
            ("LLM_MODEL", "d"),
            ("LLM_API_KEY", "k"),
            ("LLM_API_KEY_HEADER", "api-key"),
            ("LLM_API_VERSION", "2024-06-01"),
        ])
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
        let err = from(&[
            ("LLM_BASE_URL", "http://127.0.0.1:1/v1"),
            ("LLM_MODEL", "m"),
            ("LLM_TIMEOUT_SECS", "soon"),
        ])
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid LLM_TIMEOUT_SECS 'soon': expected seconds, e.g. 20 or 2.5"
        );
    }

    #[test]
    fn json_modes_and_their_aliases_parse_in_any_case() {
        for (value, mode) in [
            ("schema", JsonMode::Schema),
            ("JSON_SCHEMA", JsonMode::Schema),
            ("object", JsonMode::Object),
            ("json_object", JsonMode::Object),
            ("Prompt", JsonMode::Prompt),
            ("none", JsonMode::Prompt),
        ] {
            let c = from(&[
                ("LLM_BASE_URL", "http://127.0.0.1:1/v1"),
                ("LLM_MODEL", "m"),
                ("LLM_JSON_MODE", value),
            ])
            .unwrap()
            .unwrap();
            assert_eq!(c.json_mode, mode, "{value}");
        }
        let err = from(&[
            ("LLM_BASE_URL", "http://127.0.0.1:1/v1"),
            ("LLM_MODEL", "m"),
            ("LLM_JSON_MODE", "xml"),
        ])
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid LLM_JSON_MODE 'xml': expected schema, object or prompt"
        );
    }

    #[test]
    fn from_vars_reads_the_same_variables() {
        let c = LlmConfig::from_vars(|k| match k {
            "LLM_BASE_URL" => Some("http://127.0.0.1:1/v1".into()),
            "LLM_MODEL" => Some("m".into()),
            "LLM_MAX_RETRIES" => Some("5".into()),
            _ => None,
        })
        .unwrap()
        .unwrap();
        assert_eq!((c.model.as_str(), c.max_retries), ("m", 5));
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

    #[test]
    fn a_key_read_from_the_environment_or_a_file_never_shows_in_debug_or_errors() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("key");
        std::fs::write(&file, "sk-from-file-777\n").unwrap();
        let path = file.display().to_string();
        for pairs in [
            vec![("LLM_API_KEY", "sk-from-env-999")],
            vec![("LLM_API_KEY_FILE", path.as_str())],
        ] {
            let mut with_model = pairs.clone();
            with_model.push(("LLM_MODEL", "m"));
            let config = from(&with_model).unwrap().unwrap();
            let key = config.api_key.as_ref().unwrap().expose_secret();
            assert!(key.starts_with("sk-from-"), "{key}");
            let shown = format!("{config:?} {:?}", config.api_key);
            assert!(!shown.contains(key), "{shown}");
            // Without a model the error names the variable, not the key.
            let err = from(&pairs).unwrap_err().to_string();
            assert!(err.contains("LLM_MODEL") && !err.contains(key), "{err}");
        }
    }
}
