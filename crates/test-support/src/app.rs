//! The generic half of a service's `spawn_app`: each service builds its own `Application`
//! from [`env`] and wraps [`Http`] in a `TestApp` with one method per endpoint.

use service_kit::config::EnvSource;

/// The settings an in-process test server starts with: loopback, a random port (0), two
/// workers, a long OCR budget (60 s: tests run in parallel on a loaded machine; the budget
/// itself has its own test), then `extra` on top. Also installs the test log subscriber
/// (`TEST_LOG=1`).
pub fn env(extra: &[(&str, &str)]) -> EnvSource {
    service_kit::telemetry::init_for_tests();
    let mut env = EnvSource::from_pairs([
        ("HOST", "127.0.0.1"),
        ("PORT", "0"),
        ("WORKERS", "2"),
        ("OCR_TIMEOUT_SECS", "60"),
    ]);
    for (k, v) in extra {
        env.set(*k, *v);
    }
    env
}

/// An HTTP client bound to one server's base address.
#[derive(Debug, Clone)]
pub struct Http {
    /// `http://127.0.0.1:<port>`.
    pub address: String,
    /// The client (connection pool shared by the test's requests).
    pub client: reqwest::Client,
}

impl Http {
    /// A client for the server listening on the loopback `port`.
    pub fn new(port: u16) -> Self {
        Self {
            address: format!("http://127.0.0.1:{port}"),
            client: reqwest::Client::new(),
        }
    }

    /// `GET path`.
    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{path}", self.address))
            .send()
            .await
            .expect("request sent")
    }

    /// `POST path` without a body.
    pub async fn post(&self, path: &str) -> reqwest::Response {
        self.client
            .post(format!("{}{path}", self.address))
            .send()
            .await
            .expect("request sent")
    }

    /// `POST path` with a JSON body.
    pub async fn post_json(&self, path: &str, body: &serde_json::Value) -> reqwest::Response {
        self.client
            .post(format!("{}{path}", self.address))
            .json(body)
            .send()
            .await
            .expect("request sent")
    }

    /// `POST path` with `body` as is, under `content_type`.
    pub async fn post_raw(
        &self,
        path: &str,
        content_type: &str,
        body: Vec<u8>,
    ) -> reqwest::Response {
        self.client
            .post(format!("{}{path}", self.address))
            .header("content-type", content_type)
            .body(body)
            .send()
            .await
            .expect("request sent")
    }
}

/// The response body as JSON (panics when it is not).
pub async fn json(res: reqwest::Response) -> serde_json::Value {
    res.json().await.expect("body is JSON")
}
