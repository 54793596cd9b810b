//! The fake answers to the digest refresh job's two prompts (categorisation and summaries),
//! well or badly, and the environment that points the job at it. Used by digest-web's `refresh`
//! and `api` test binaries.

use std::time::Duration;

use serde_json::{Value, json};
use wiremock::{MockServer, Request, ResponseTemplate};

/// The model the fake reports; the digest's engine is `llm:fake-model`.
pub const MODEL: &str = "fake-model";
/// The API key the job is given (must never appear in a body or an error).
pub const KEY: &str = "sk-test-secret-4242";
/// Tokens the fake reports per answer.
pub const PROMPT_TOKENS: u64 = 100;
/// Completion tokens the fake reports per answer.
pub const COMPLETION_TOKENS: u64 = 20;

/// How the fake answers.
#[derive(Clone, Copy)]
pub enum Behaviour {
    /// Every email of a categorisation batch gets this category; summaries are
    /// `summary_for(category)`.
    Good(&'static str),
    /// HTTP 200 whose content is neither JSON nor plain text.
    Garbage,
    /// Categories outside the five, and an id that was not sent.
    InvalidCategory,
    /// Good answers, after this delay.
    Slow(Duration),
}

/// The summary the fake writes for a category (plain text with characters HTML must escape).
pub fn summary_for(category: &str) -> String {
    format!("LLM summary of {category}: Tom & Jerry's offers, 5 < 6.")
}

/// Whether a received body is a categorisation request (else a summary request).
pub fn is_classify(body: &Value) -> bool {
    body["messages"][0]["content"]
        .as_str()
        .is_some_and(|s| s.starts_with("You sort emails"))
}

/// The user message of a request.
pub fn user_text(body: &Value) -> String {
    body["messages"][1]["content"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// The JSON array between the untrusted-data markers of the user message.
pub fn emails_in(body: &Value) -> Vec<Value> {
    let text = user_text(body);
    let start = text.find("BEGIN UNTRUSTED EMAILS\n").expect("begin marker") + 23;
    let end = text.rfind("\nEND UNTRUSTED EMAILS").expect("end marker");
    serde_json::from_str(&text[start..end]).expect("the emails are a JSON array")
}

fn completion(content: &str) -> ResponseTemplate {
    super::completion_with_usage(MODEL, content, PROMPT_TOKENS, COMPLETION_TOKENS)
}

fn answer(behaviour: Behaviour, request: &Request) -> ResponseTemplate {
    let Some(body) = super::body_of(request) else {
        return ResponseTemplate::new(400);
    };
    match behaviour {
        Behaviour::Garbage => completion("<div>sorry</div> {{{ not json"),
        Behaviour::Slow(delay) => answer(Behaviour::Good("Social"), request).set_delay(delay),
        Behaviour::InvalidCategory if is_classify(&body) => {
            let mut entries: Vec<Value> = emails_in(&body)
                .iter()
                .map(|e| json!({"id": e["id"], "category": "Urgent"}))
                .collect();
            entries.push(json!({"id": "999", "category": "FYI"}));
            completion(&json!({ "categories": entries }).to_string())
        }
        Behaviour::Good(category) if is_classify(&body) => {
            let entries: Vec<Value> = emails_in(&body)
                .iter()
                .map(|e| json!({"id": e["id"], "category": category}))
                .collect();
            completion(&json!({ "categories": entries }).to_string())
        }
        Behaviour::Good(_) | Behaviour::InvalidCategory => {
            let text = user_text(&body);
            let category = text
                .lines()
                .next()
                .and_then(|l| l.strip_prefix("Category: "))
                .unwrap_or("?");
            completion(&summary_for(category))
        }
    }
}

/// Starts the fake on a free loopback port.
pub async fn start(behaviour: Behaviour) -> MockServer {
    super::start(move |request: &Request| answer(behaviour, request)).await
}

/// The job's LLM variables for an endpoint (`base` up to `/v1`): no retries (the fault
/// tests stay fast), prices 1 and 2 per 1,000 tokens, categorisation below 0.9.
pub fn env(base: &str) -> Vec<(&'static str, String)> {
    vec![
        ("LLM_BASE_URL", base.to_owned()),
        ("LLM_MODEL", MODEL.to_owned()),
        ("LLM_API_KEY", KEY.to_owned()),
        ("LLM_MAX_RETRIES", "0".to_owned()),
        ("LLM_CLASSIFY_BELOW", "0.9".to_owned()),
        ("LLM_PRICE_INPUT_PER_1K", "1".to_owned()),
        ("LLM_PRICE_OUTPUT_PER_1K", "2".to_owned()),
    ]
}

/// The cost the fake's answers add up to for `requests` requests.
pub fn cost(requests: u64) -> f64 {
    requests as f64
        * (PROMPT_TOKENS as f64 / 1000.0 * 1.0 + COMPLETION_TOKENS as f64 / 1000.0 * 2.0)
}
