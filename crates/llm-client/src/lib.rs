//! A client for OpenAI-compatible Chat Completions endpoints (OpenAI, Azure OpenAI, Ollama,
//! vLLM, llama.cpp's server, LM Studio, OpenRouter, Gemini's compatible endpoint).
//!
//! [`LlmConfig`] says where the endpoint is and how to authenticate. The services treat an LLM
//! as optional: with no configuration, they run on their offline engines.
#![warn(missing_docs)]

use std::fmt;

/// Where the LLM endpoint is. Built by each service from its environment.
#[derive(Clone, PartialEq, Eq)]
pub struct LlmConfig {
    /// Base URL up to and including the API version, e.g. `https://api.openai.com/v1`.
    pub base_url: String,
    /// Model name sent with every request.
    pub model: String,
    /// Bearer token; `None` for local servers that need none.
    pub api_key: Option<String>,
}

impl LlmConfig {
    /// The engine label used in responses, e.g. `llm:gpt-4o-mini`.
    pub fn engine_label(&self) -> String {
        format!("llm:{}", self.model)
    }
}

// The key must never reach a log line, so Debug is written by hand.
impl fmt::Debug for LlmConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LlmConfig")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_shows_the_key() {
        let config = LlmConfig {
            base_url: "http://127.0.0.1:1/v1".into(),
            model: "m".into(),
            api_key: Some("sk-secret".into()),
        };
        let shown = format!("{config:?}");
        assert!(!shown.contains("sk-secret"), "{shown}");
        assert!(shown.contains("<redacted>"));
        assert_eq!(config.engine_label(), "llm:m");
    }
}
