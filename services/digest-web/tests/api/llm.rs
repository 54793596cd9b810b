//! The dashboard over a refresh job that uses an LLM: the job gets the service's
//! LLM variables, and the digest, metrics, errors and page show what the LLM did.

use crate::fake_llm::{self, Behaviour};
use crate::helpers::{TestApp, json, spawn_app_with};

async fn app_with_llm(base: &str) -> TestApp {
    let job = env!("CARGO_BIN_EXE_digest-refresh");
    let vars = fake_llm::env(base);
    let mut env: Vec<(&str, &str)> =
        vec![("DIGEST_REFRESH_COMMAND", job), ("DIGEST_SOURCE", "sample")];
    env.extend(vars.iter().map(|(k, v)| (*k, v.as_str())));
    spawn_app_with(&env).await
}

#[tokio::test]
async fn metrics_count_real_llm_calls_cost_and_cache_hits_and_the_page_shows_the_engine() {
    let server = fake_llm::start(Behaviour::Good("Social")).await;
    let app = app_with_llm(&format!("{}/v1", server.uri())).await;

    let res = app.post("/api/refresh").await;
    assert_eq!(res.status(), 200);
    let requests = server.received_requests().await.unwrap().len() as u64;
    assert!(requests >= 2, "{requests}");
    let digest = json(app.get("/api/digest").await).await;
    assert_eq!(digest["engine"], "llm:fake-model");
    assert_eq!(digest["stats"]["api_calls"], requests);
    let metrics = json(app.get("/api/metrics?period=24h").await).await;
    let m = &metrics["metrics"];
    assert_eq!(m["api_calls"], requests, "{metrics}");
    let cost = (fake_llm::cost(requests) * 10_000.0).round() / 10_000.0;
    assert_eq!(m["estimated_cost"].as_f64().unwrap(), cost, "{metrics}");
    assert_eq!(m["cache_hit_rate"], 0.0, "{metrics}");
    assert_eq!(m["error_count"], 0, "{metrics}");

    // The second refresh is answered from the caches: no call, half the lookups of the
    // period hit.
    let res = app.post("/api/refresh").await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        server.received_requests().await.unwrap().len() as u64,
        requests
    );
    let metrics = json(app.get("/api/metrics?period=24h").await).await;
    let m = &metrics["metrics"];
    assert_eq!(m["api_calls"], requests, "{metrics}");
    assert_eq!(m["cache_hit_rate"], 50.0, "{metrics}");
    assert_eq!(m["estimated_cost"].as_f64().unwrap(), cost, "{metrics}");

    // The page names the engine and shows the LLM's summary as text.
    let html = app.get("/").await.text().await.unwrap();
    assert!(
        html.contains(r#"<span id="engine">llm:fake-model</span>"#),
        "engine not shown"
    );
    assert!(
        html.contains("LLM summary of Social: Tom &amp; Jerry&#x27;s offers, 5 &lt; 6."),
        "summary not shown escaped"
    );
    assert!(html.contains(r#"<span class="summary-engine">llm:fake-model</span>"#));
}

#[tokio::test]
async fn an_llm_that_is_down_still_gives_a_successful_offline_refresh_and_a_recorded_error() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let app = app_with_llm(&format!("http://127.0.0.1:{port}/v1")).await;
    let res = app.post("/api/refresh").await;
    assert_eq!(res.status(), 200);
    let digest = json(app.get("/api/digest").await).await;
    assert_eq!(digest["engine"], "offline");
    let errors = json(app.get("/api/errors").await).await;
    let errors = errors["errors"].as_array().unwrap();
    assert!(
        errors
            .iter()
            .any(|e| e["module"] == "llm" && e["error_type"] == "Unreachable"),
        "{errors:?}"
    );
    let html = app.get("/").await.text().await.unwrap();
    assert!(html.contains(r#"<span id="engine">offline</span>"#));
    assert!(
        html.contains("Unreachable"),
        "the error is on the dashboard"
    );
}
