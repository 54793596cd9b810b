//! Request ids and Prometheus metrics.

use crate::helpers::spawn_app;

#[tokio::test]
async fn every_response_carries_a_request_id() {
    let app = spawn_app().await;
    let a = app.get("/health").await.headers()["x-request-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let b = app.get("/health").await.headers()["x-request-id"]
        .to_str()
        .unwrap()
        .to_owned();
    assert_eq!(a.len(), 36, "uuid expected: {a}");
    assert_ne!(a, b);
}

#[tokio::test]
async fn metrics_count_requests_by_route_and_status() {
    let app = spawn_app().await;
    app.get("/health").await;
    app.get("/no/such/path").await;
    let res = app.get("/metrics").await;
    assert_eq!(res.status(), 200);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain")
    );
    let text = res.text().await.unwrap();
    assert!(
        text.contains(r#"http_requests_total{method="GET",route="/health",status="200"}"#),
        "{text}"
    );
    assert!(text.contains(r#"route="unmatched",status="404""#), "{text}");
    assert!(
        text.contains("http_request_duration_seconds_bucket"),
        "{text}"
    );
}
