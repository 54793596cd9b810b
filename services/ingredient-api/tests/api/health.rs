use serde_json::json;

use crate::helpers::{json, spawn_app};

#[tokio::test]
async fn root_returns_ok_and_the_service_title() {
    let app = spawn_app().await;
    let res = app.get("/").await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        json(res).await,
        json!({"status": "ok", "message": "Ingredient Safety Analysis API"})
    );
}

#[tokio::test]
async fn health_returns_healthy() {
    let app = spawn_app().await;
    let res = app.get("/health").await;
    assert_eq!(res.status(), 200);
    assert_eq!(json(res).await, json!({"status": "healthy"}));
}
