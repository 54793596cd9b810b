//! A client for OpenAI-compatible Chat Completions endpoints: OpenAI, Azure OpenAI, Ollama,
//! vLLM, llama.cpp's server, LM Studio, OpenRouter and Gemini's compatible endpoint all speak
//! `POST {base_url}/chat/completions`.
//!
//! - [`LlmConfig`] says where the endpoint is, how to authenticate and what to spend; it is
//!   read from `LLM_*` variables by [`LlmConfig::from_env`] (through `env-config`'s
//!   `EnvSource`, the services' one configuration mechanism) and never shows the key
//!   (a `secrecy::SecretString`).
//! - [`LlmClient::chat`] sends a [`ChatRequest`] (text and base64 images) with a per-request
//!   timeout, retries 429/5xx/connection errors with exponential backoff and jitter (honouring
//!   `Retry-After`), limits concurrency, and counts tokens and cost ([`Usage`]).
//! - [`LlmClient::chat_json`] asks for JSON (a JSON schema where the server supports it,
//!   falling back to JSON mode, then to plain prompting) and extracts it robustly from prose or
//!   markdown fences ([`extract_json`]).
//! - [`LlmError`] tells the caller what failed, so services can fall back to their offline path.
#![warn(missing_docs)]

mod client;
mod config;
mod error;
mod json;
mod request;

pub use client::{Completion, LlmClient, Usage};
pub use config::{ConfigError, JsonMode, LlmConfig, VARIABLES};
pub use error::LlmError;
pub use json::extract_json;
pub use request::{ChatRequest, JsonSchema, Message, Part, Role};

/// Installs rustls' ring crypto provider as the process default (idempotent). Every
/// `reqwest` client in the process needs one; services call this once at start-up.
pub fn install_crypto_provider() {
    // Fails only when a provider is already installed, which is what we want anyway.
    let _ = rustls::crypto::ring::default_provider().install_default();
}
