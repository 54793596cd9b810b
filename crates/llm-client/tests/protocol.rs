//! The client against a local HTTP server that speaks the Chat Completions protocol.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use llm_client::{ChatRequest, JsonSchema, LlmClient, LlmConfig, LlmError, Message};
use serde::Deserialize;
use serde_json::{Value, json};
use wiremock::matchers::{body_partial_json, header, method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

fn completion(content: &str) -> Value {
    json!({
        "id": "chatcmpl-1", "object": "chat.completion", "model": "test-model",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17}
    })
}

fn config(server: &MockServer) -> LlmConfig {
    let mut c = LlmConfig::new(format!("{}/v1", server.uri()), "test-model");
    c.api_key = Some("sk-test-key".into());
    c.timeout = Duration::from_millis(500);
    c.max_retries = 2;
    c.price_input_per_1k = 1.0;
    c.price_output_per_1k = 2.0;
    c
}

fn ask(text: &str) -> ChatRequest {
    ChatRequest {
        messages: vec![Message::system("be brief"), Message::user(text)],
        ..Default::default()
    }
}

#[derive(Debug, Deserialize, PartialEq)]
struct Items {
    items: Vec<String>,
}

fn items_schema() -> JsonSchema {
    JsonSchema {
        name: "items".into(),
        schema: json!({"type": "object", "properties": {"items": {"type": "array", "items": {"type": "string"}}},
                       "required": ["items"], "additionalProperties": false}),
    }
}

#[tokio::test]
async fn success_sends_model_messages_and_key_and_counts_usage() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .and(header("authorization", "Bearer sk-test-key"))
        .and(body_partial_json(json!({
            "model": "test-model",
            "messages": [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hello"}]
        })))
        .respond_with(ResponseTemplate::new(200).set_body_json(completion("hi there")))
        .expect(1)
        .mount(&server)
        .await;
    let client = LlmClient::new(config(&server)).unwrap();
    let answer = client.chat(&ask("hello")).await.unwrap();
    assert_eq!(answer.content, "hi there");
    assert_eq!((answer.prompt_tokens, answer.completion_tokens), (12, 5));
    let usage = client.usage();
    assert_eq!(
        (usage.requests, usage.prompt_tokens, usage.completion_tokens),
        (1, 12, 5)
    );
    assert!(
        (usage.estimated_cost - (0.012 + 0.010)).abs() < 1e-9,
        "{usage:?}"
    );
}

#[tokio::test]
async fn rate_limited_then_success_honours_retry_after() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(429).insert_header("retry-after", "1"))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(completion("ok")))
        .mount(&server)
        .await;
    let client = LlmClient::new(config(&server)).unwrap();
    let start = Instant::now();
    assert_eq!(client.chat(&ask("x")).await.unwrap().content, "ok");
    assert!(
        start.elapsed() >= Duration::from_millis(950),
        "Retry-After ignored: {:?}",
        start.elapsed()
    );
    assert_eq!(client.usage().requests, 2);
}

#[tokio::test]
async fn server_error_is_retried_then_reported() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(500).set_body_string("upstream exploded"))
        .expect(3)
        .mount(&server)
        .await;
    let client = LlmClient::new(config(&server)).unwrap();
    match client.chat(&ask("x")).await {
        Err(LlmError::Status {
            status: 500,
            message,
        }) => assert_eq!(message, "upstream exploded"),
        other => panic!("expected a 500 error, got {other:?}"),
    }
}

#[tokio::test]
async fn client_errors_are_not_retried() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(401).set_body_string("bad key"))
        .expect(1)
        .mount(&server)
        .await;
    let client = LlmClient::new(config(&server)).unwrap();
    assert!(matches!(
        client.chat(&ask("x")).await,
        Err(LlmError::Status { status: 401, .. })
    ));
}

#[tokio::test]
async fn slow_server_times_out() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(completion("late"))
                .set_delay(Duration::from_secs(3)),
        )
        .mount(&server)
        .await;
    let client = LlmClient::new(config(&server)).unwrap();
    let start = Instant::now();
    assert!(matches!(
        client.chat(&ask("x")).await,
        Err(LlmError::Timeout(_))
    ));
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}

#[tokio::test]
async fn unreachable_endpoint_is_a_connect_error() {
    // Bind then drop to get a port nobody listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut c = LlmConfig::new(format!("http://127.0.0.1:{port}/v1"), "m");
    c.max_retries = 1;
    let client = LlmClient::new(c).unwrap();
    assert!(matches!(
        client.chat(&ask("x")).await,
        Err(LlmError::Connect(_))
    ));
    assert_eq!(client.usage().requests, 2);
}

#[tokio::test]
async fn malformed_body_is_an_invalid_response() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_string("{\"choices\": [tru"))
        .mount(&server)
        .await;
    let client = LlmClient::new(config(&server)).unwrap();
    assert!(matches!(
        client.chat(&ask("x")).await,
        Err(LlmError::InvalidResponse(_))
    ));
}

#[tokio::test]
async fn json_inside_prose_is_extracted() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(body_partial_json(
            json!({"response_format": {"type": "json_schema",
            "json_schema": {"name": "items", "strict": true}}}),
        ))
        .respond_with(ResponseTemplate::new(200).set_body_json(completion(
            "Sure! Here is the list:\n```json\n{\"items\": [\"Water\", \"Glycerin\"]}\n```",
        )))
        .mount(&server)
        .await;
    let client = LlmClient::new(config(&server)).unwrap();
    let request = ChatRequest {
        schema: Some(items_schema()),
        ..ask("list")
    };
    let (items, _): (Items, _) = client.chat_json(&request).await.unwrap();
    assert_eq!(
        items,
        Items {
            items: vec!["Water".into(), "Glycerin".into()]
        }
    );
}

#[tokio::test]
async fn answer_without_json_is_a_json_error() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(completion("I cannot read this label.")),
        )
        .mount(&server)
        .await;
    let client = LlmClient::new(config(&server)).unwrap();
    let request = ChatRequest {
        schema: Some(items_schema()),
        ..ask("list")
    };
    assert!(matches!(
        client.chat_json::<Items>(&request).await,
        Err(LlmError::Json(_))
    ));
}

#[tokio::test]
async fn refused_schema_steps_down_to_json_object() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(body_partial_json(
            json!({"response_format": {"type": "json_schema"}}),
        ))
        .respond_with(ResponseTemplate::new(400).set_body_string(
            r#"{"error": {"message": "response_format.type json_schema is not supported"}}"#,
        ))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(body_partial_json(
            json!({"response_format": {"type": "json_object"}}),
        ))
        .respond_with(ResponseTemplate::new(200).set_body_json(completion("{\"items\": []}")))
        .expect(2)
        .mount(&server)
        .await;
    let client = LlmClient::new(config(&server)).unwrap();
    let request = ChatRequest {
        schema: Some(items_schema()),
        ..ask("list")
    };
    let (first, _): (Items, _) = client.chat_json(&request).await.unwrap();
    assert!(first.items.is_empty());
    // The client remembers: the second call goes straight to json_object.
    client.chat_json::<Items>(&request).await.unwrap();
}

#[tokio::test]
async fn images_are_sent_as_data_urls() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(body_partial_json(
            json!({"messages": [{"role": "user", "content": [
                {"type": "text", "text": "read the label"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}
            ]}]}),
        ))
        .respond_with(ResponseTemplate::new(200).set_body_json(completion("Water")))
        .expect(1)
        .mount(&server)
        .await;
    let client = LlmClient::new(config(&server)).unwrap();
    let request = ChatRequest {
        messages: vec![Message::user_with_image(
            "read the label",
            "image/png",
            "iVBORw0KGgo=",
        )],
        ..Default::default()
    };
    assert_eq!(client.chat(&request).await.unwrap().content, "Water");
}

/// Records when each request arrived, answering after a delay.
struct Timed(Arc<Mutex<Vec<Instant>>>);

impl Respond for Timed {
    fn respond(&self, _: &Request) -> ResponseTemplate {
        self.0.lock().unwrap().push(Instant::now());
        ResponseTemplate::new(200)
            .set_body_json(completion("ok"))
            .set_delay(Duration::from_millis(300))
    }
}

#[tokio::test]
async fn concurrency_limit_holds_requests_back() {
    let server = MockServer::start().await;
    let arrivals = Arc::new(Mutex::new(Vec::new()));
    Mock::given(method("POST"))
        .respond_with(Timed(arrivals.clone()))
        .mount(&server)
        .await;
    let mut c = config(&server);
    c.max_concurrency = 1;
    c.timeout = Duration::from_secs(5);
    let client = LlmClient::new(c).unwrap();
    let (ra, rb) = (ask("a"), ask("b"));
    let (a, b) = tokio::join!(client.chat(&ra), client.chat(&rb));
    a.unwrap();
    b.unwrap();
    let times = arrivals.lock().unwrap().clone();
    assert_eq!(times.len(), 2);
    let gap = times[1].duration_since(times[0]);
    assert!(
        gap >= Duration::from_millis(250),
        "second request was not held back: {gap:?}"
    );
}

#[tokio::test]
async fn azure_style_key_header_and_api_version() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/openai/deployments/d/chat/completions"))
        .and(wiremock::matchers::query_param("api-version", "2024-06-01"))
        .and(header("api-key", "sk-test-key"))
        .respond_with(ResponseTemplate::new(200).set_body_json(completion("ok")))
        .expect(1)
        .mount(&server)
        .await;
    let mut c = config(&server);
    c.base_url = format!("{}/openai/deployments/d", server.uri());
    c.api_key_header = "api-key".into();
    c.api_version = Some("2024-06-01".into());
    let client = LlmClient::new(c).unwrap();
    assert_eq!(client.chat(&ask("x")).await.unwrap().content, "ok");
}
