//! What can go wrong talking to an LLM endpoint.

use std::time::Duration;

/// A failed chat call. Every variant means "use the offline path".
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    /// The HTTP client could not be built.
    #[error("LLM client set-up failed: {0}")]
    Setup(String),
    /// No answer within the per-request timeout.
    #[error("LLM request timed out after {0:?}")]
    Timeout(Duration),
    /// The endpoint could not be reached (after retries).
    #[error("LLM endpoint unreachable: {0}")]
    Connect(String),
    /// Still rate-limited after retries, or asked to wait longer than allowed.
    #[error("LLM endpoint rate-limited the request (HTTP 429)")]
    RateLimited,
    /// A non-success status (after retries for 5xx).
    #[error("LLM endpoint answered HTTP {status}: {message}")]
    Status {
        /// The HTTP status code.
        status: u16,
        /// The start of the error body.
        message: String,
    },
    /// The body is not a Chat Completions response.
    #[error("LLM response is not a valid chat completion: {0}")]
    InvalidResponse(String),
    /// The completion holds no JSON that fits the expected shape.
    #[error("LLM answer holds no usable JSON: {0}")]
    Json(String),
}
