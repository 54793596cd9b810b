//! The HTTP side: one request with timeout, retries, concurrency limit and accounting.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use reqwest::StatusCode;
use reqwest::header::RETRY_AFTER;
use secrecy::ExposeSecret;
use serde::de::DeserializeOwned;
use serde_json::Value;
use tokio::sync::Semaphore;

use crate::config::{JsonMode, LlmConfig};
use crate::error::LlmError;
use crate::json::extract_json;
use crate::request::{ChatRequest, Format};

/// One model answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    /// The assistant's text.
    pub content: String,
    /// The model that answered (as the server reports it).
    pub model: String,
    /// Tokens of the prompt.
    pub prompt_tokens: u64,
    /// Tokens of the answer.
    pub completion_tokens: u64,
}

/// Totals since the client was built.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Usage {
    /// HTTP requests sent, retries included (each one is an external call).
    pub requests: u64,
    /// Prompt tokens reported by the server.
    pub prompt_tokens: u64,
    /// Completion tokens reported by the server.
    pub completion_tokens: u64,
    /// Tokens times the configured prices.
    pub estimated_cost: f64,
}

#[derive(Debug, Default)]
struct Counters {
    requests: AtomicU64,
    prompt_tokens: AtomicU64,
    completion_tokens: AtomicU64,
}

/// A client for one endpoint and model; cheap to clone (shares its pool, limit and totals).
#[derive(Debug, Clone)]
pub struct LlmClient {
    http: reqwest::Client,
    config: Arc<LlmConfig>,
    limiter: Arc<Semaphore>,
    counters: Arc<Counters>,
    /// The strongest JSON format the server has not refused yet (0 schema, 1 object, 2 plain).
    json_level: Arc<AtomicU8>,
}

impl LlmClient {
    /// Builds the client (installing the ring crypto provider if none is).
    pub fn new(config: LlmConfig) -> Result<Self, LlmError> {
        crate::install_crypto_provider();
        let http = reqwest::Client::builder()
            .connect_timeout(config.timeout.min(Duration::from_secs(5)))
            .build()
            .map_err(|e| LlmError::Setup(e.to_string()))?;
        let level = match config.json_mode {
            JsonMode::Schema => 0,
            JsonMode::Object => 1,
            JsonMode::Prompt => 2,
        };
        Ok(Self {
            http,
            limiter: Arc::new(Semaphore::new(config.max_concurrency.max(1))),
            config: Arc::new(config),
            counters: Arc::default(),
            json_level: Arc::new(AtomicU8::new(level)),
        })
    }

    /// The configuration in use.
    pub fn config(&self) -> &LlmConfig {
        &self.config
    }

    /// Totals since the client was built.
    pub fn usage(&self) -> Usage {
        let prompt = self.counters.prompt_tokens.load(Ordering::Relaxed);
        let completion = self.counters.completion_tokens.load(Ordering::Relaxed);
        Usage {
            requests: self.counters.requests.load(Ordering::Relaxed),
            prompt_tokens: prompt,
            completion_tokens: completion,
            estimated_cost: cost(&self.config, prompt, completion),
        }
    }

    /// Sends the request; with a schema, asks for JSON in the strongest format the server
    /// accepts, stepping down (schema → json_object → prompt) when it answers 400 to one.
    pub async fn chat(&self, request: &ChatRequest) -> Result<Completion, LlmError> {
        if request.schema.is_none() {
            return self.send(request, Format::Plain).await;
        }
        loop {
            let level = self.json_level.load(Ordering::Relaxed);
            let format = match level {
                0 => Format::Schema,
                1 => Format::Object,
                _ => Format::Plain,
            };
            match self.send(request, format).await {
                Err(LlmError::Status {
                    status: 400 | 422,
                    message,
                }) if format != Format::Plain && mentions_format(&message) => {
                    tracing::info!(
                        ?format,
                        "LLM endpoint refused this JSON format; stepping down"
                    );
                    // Another request may have stepped down already; never step back up.
                    let _ = self.json_level.compare_exchange(
                        level,
                        level + 1,
                        Ordering::Relaxed,
                        Ordering::Relaxed,
                    );
                }
                other => return other,
            }
        }
    }

    /// [`chat`](Self::chat), then the JSON in the answer deserialised as `T`.
    pub async fn chat_json<T: DeserializeOwned>(
        &self,
        request: &ChatRequest,
    ) -> Result<(T, Completion), LlmError> {
        let completion = self.chat(request).await?;
        let value = extract_json(&completion.content).ok_or_else(|| {
            LlmError::Json(format!("no JSON in {:?}", snippet(&completion.content)))
        })?;
        let parsed = serde_json::from_value(value).map_err(|e| LlmError::Json(e.to_string()))?;
        Ok((parsed, completion))
    }

    async fn send(&self, request: &ChatRequest, format: Format) -> Result<Completion, LlmError> {
        // The semaphore is never closed, so acquire cannot fail.
        let _permit = self
            .limiter
            .acquire()
            .await
            .map_err(|e| LlmError::Setup(e.to_string()))?;
        let body = request.body(&self.config.model, format);
        let url = self.config.completions_url();
        let mut attempt = 0u32;
        loop {
            self.counters.requests.fetch_add(1, Ordering::Relaxed);
            let mut builder = self
                .http
                .post(&url)
                .json(&body)
                .timeout(self.config.timeout);
            if let Some(key) = &self.config.api_key {
                let key = key.expose_secret();
                builder = if self.config.api_key_header == "authorization" {
                    builder.bearer_auth(key)
                } else {
                    builder.header(self.config.api_key_header.as_str(), key)
                };
            }
            let span = tracing::debug_span!("llm.chat", model = %self.config.model, attempt);
            let _guard = span.enter();
            let retry = match builder.send().await {
                Err(e) if e.is_timeout() => return Err(LlmError::Timeout(self.config.timeout)),
                Err(e) => {
                    let err = LlmError::Connect(without_url(&e));
                    (backoff(attempt), err)
                }
                Ok(response) => {
                    let status = response.status();
                    let wait = retry_after(&response);
                    let bytes = response.bytes().await.map_err(|e| {
                        if e.is_timeout() {
                            LlmError::Timeout(self.config.timeout)
                        } else {
                            LlmError::Connect(without_url(&e))
                        }
                    })?;
                    if status.is_success() {
                        let completion = parse_completion(&bytes)?;
                        self.counters
                            .prompt_tokens
                            .fetch_add(completion.prompt_tokens, Ordering::Relaxed);
                        self.counters
                            .completion_tokens
                            .fetch_add(completion.completion_tokens, Ordering::Relaxed);
                        return Ok(completion);
                    }
                    let err = if status == StatusCode::TOO_MANY_REQUESTS {
                        LlmError::RateLimited
                    } else {
                        LlmError::Status {
                            status: status.as_u16(),
                            message: snippet(&String::from_utf8_lossy(&bytes)),
                        }
                    };
                    if !(status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error()) {
                        return Err(err);
                    }
                    (wait.unwrap_or_else(|| backoff(attempt)), err)
                }
            };
            let (wait, err) = retry;
            if attempt >= self.config.max_retries || wait > self.config.max_retry_after {
                tracing::warn!(error = %err, attempt, "LLM request failed");
                return Err(err);
            }
            tracing::debug!(error = %err, ?wait, "LLM request will be retried");
            tokio::time::sleep(wait).await;
            attempt += 1;
        }
    }
}

fn cost(config: &LlmConfig, prompt: u64, completion: u64) -> f64 {
    // Token counts stay far below 2^52, so the conversions are exact.
    prompt as f64 / 1000.0 * config.price_input_per_1k
        + completion as f64 / 1000.0 * config.price_output_per_1k
}

/// Exponential backoff (250 ms doubling, at most 8 s) with jitter of up to half of it.
fn backoff(attempt: u32) -> Duration {
    let base = Duration::from_millis(250)
        .saturating_mul(1 << attempt.min(5))
        .min(Duration::from_secs(8));
    base.mul_f64(0.5 + fastrand::f64() * 0.5)
}

/// `Retry-After` as seconds or an HTTP date.
fn retry_after(response: &reqwest::Response) -> Option<Duration> {
    let value = response.headers().get(RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let when = httpdate::parse_http_date(value).ok()?;
    Some(when.duration_since(SystemTime::now()).unwrap_or_default())
}

fn parse_completion(bytes: &[u8]) -> Result<Completion, LlmError> {
    let value: Value = serde_json::from_slice(bytes)
        .map_err(|e| LlmError::InvalidResponse(format!("body is not JSON: {e}")))?;
    let message = &value["choices"][0]["message"];
    let content = match &message["content"] {
        Value::String(s) => s.clone(),
        // Some servers return content as parts.
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p["text"].as_str())
            .collect::<Vec<_>>()
            .join(""),
        _ => {
            return Err(LlmError::InvalidResponse(
                "no choices[0].message.content".into(),
            ));
        }
    };
    Ok(Completion {
        content,
        model: value["model"].as_str().unwrap_or_default().to_owned(),
        prompt_tokens: value["usage"]["prompt_tokens"].as_u64().unwrap_or(0),
        completion_tokens: value["usage"]["completion_tokens"].as_u64().unwrap_or(0),
    })
}

fn mentions_format(message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    [
        "response_format",
        "json_schema",
        "json_object",
        "json mode",
        "structured output",
    ]
    .iter()
    .any(|needle| m.contains(needle))
}

fn snippet(text: &str) -> String {
    text.chars().take(300).collect()
}

/// reqwest's Display includes the URL; ours has no secret in it, but the message is shorter
/// and stabler without it.
fn without_url(e: &reqwest::Error) -> String {
    let mut source: Option<&dyn std::error::Error> = std::error::Error::source(e);
    let mut text = e.to_string();
    while let Some(s) = source {
        text = s.to_string();
        source = s.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_and_is_capped() {
        for attempt in 0..10 {
            let d = backoff(attempt);
            let base = Duration::from_millis(250) * (1 << attempt.min(5));
            let base = base.min(Duration::from_secs(8));
            assert!(d >= base / 2 && d <= base, "attempt {attempt}: {d:?}");
        }
    }

    #[test]
    fn cost_uses_both_prices() {
        let mut c = LlmConfig::new("http://x", "m");
        c.price_input_per_1k = 0.5;
        c.price_output_per_1k = 2.0;
        assert!((cost(&c, 2000, 500) - 2.0).abs() < 1e-9);
    }
}
