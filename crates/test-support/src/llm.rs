//! A fake OpenAI-compatible server: wiremock speaking Chat Completions on loopback (the one
//! fake the house allows: a hosted LLM). The generic pieces serve every test binary;
//! [`refresh_job`] answers the digest refresh job's two prompts.

use serde_json::{Value, json};
use wiremock::matchers::{body_partial_json, method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

pub mod refresh_job;

/// The path every request goes to (below the base URL's `/v1`).
pub const COMPLETIONS_PATH: &str = "/v1/chat/completions";

/// A Chat Completions answer from `model` whose message is `content`, reporting
/// `prompt_tokens` and `completion_tokens`.
pub fn completion_with_usage(
    model: &str,
    content: &str,
    prompt_tokens: u64,
    completion_tokens: u64,
) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": model,
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens}
    }))
}

/// A Chat Completions answer from `model` whose message is `content` (100 + 20 tokens).
pub fn completion(model: &str, content: &str) -> ResponseTemplate {
    completion_with_usage(model, content, 100, 20)
}

/// Starts a fake on a free loopback port that answers every completion with `responder`.
pub async fn start(responder: impl Respond + 'static) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path(COMPLETIONS_PATH))
        .respond_with(responder)
        .mount(&server)
        .await;
    server
}

/// Mounts `response` on `server` for requests whose JSON schema is named `schema`.
pub async fn answer_schema(server: &MockServer, schema: &str, response: ResponseTemplate) {
    Mock::given(method("POST"))
        .and(path(COMPLETIONS_PATH))
        .and(body_partial_json(
            json!({"response_format": {"json_schema": {"name": schema}}}),
        ))
        .respond_with(response)
        .mount(server)
        .await;
}

/// The JSON bodies `server` received, in order.
pub async fn received(server: &MockServer) -> Vec<Value> {
    server
        .received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .map(|r| serde_json::from_slice(&r.body).expect("request body is JSON"))
        .collect()
}

/// The name of the JSON schema a request body asks for (empty when none).
pub fn schema_name(body: &Value) -> &str {
    body["response_format"]["json_schema"]["name"]
        .as_str()
        .unwrap_or_default()
}

/// A base URL (up to `/v1`) where nothing listens.
pub fn closed_port_url() -> String {
    format!("http://127.0.0.1:{}/v1", crate::process::free_port())
}

/// The request body, when it is JSON.
pub fn body_of(request: &Request) -> Option<Value> {
    serde_json::from_slice(&request.body).ok()
}
