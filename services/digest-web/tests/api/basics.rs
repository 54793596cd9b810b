use serde_json::json;

use crate::helpers::{json, spawn_app};

#[tokio::test]
async fn health_returns_healthy() {
    let app = spawn_app().await;
    let res = app.get("/health").await;
    assert_eq!(res.status(), 200);
    assert_eq!(json(res).await, json!({"status": "healthy"}));
}

#[tokio::test]
async fn unknown_path_is_404_with_error() {
    let app = spawn_app().await;
    let res = app.get("/api/nope").await;
    assert_eq!(res.status(), 404);
    assert_eq!(
        json(res).await,
        json!({"error": "not found: GET /api/nope"})
    );
}

#[tokio::test]
async fn wrong_method_is_405_json() {
    let app = spawn_app().await;
    let res = app
        .client
        .delete(format!("{}/health", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 405);
    assert_eq!(res.headers()["allow"], "GET");
    assert_eq!(
        json(res).await,
        json!({"error": "method DELETE is not allowed on /health; use GET"})
    );
}

#[tokio::test]
async fn metrics_are_exposed() {
    let app = spawn_app().await;
    app.get("/health").await;
    let text = app.get("/metrics").await.text().await.unwrap();
    assert!(
        text.contains(r#"http_requests_total{method="GET",route="/health",status="200"}"#),
        "{text}"
    );
}
