use serde_json::json;

use crate::helpers::{json, spawn_app};

#[tokio::test]
async fn malformed_json_is_400() {
    let app = spawn_app().await;
    let res = app
        .post_raw(
            "/api/tests/run",
            "application/json",
            b"{\"suite\": ".to_vec(),
        )
        .await;
    assert_eq!(res.status(), 400);
    assert!(
        json(res).await["error"]
            .as_str()
            .unwrap()
            .starts_with("invalid JSON body")
    );
    let res = app
        .post_raw(
            "/api/tests/run",
            "application/json",
            b"[\"basic\"]".to_vec(),
        )
        .await;
    assert_eq!(res.status(), 400);
    let res = app.post_json("/api/tests/run", &json!({"suite": 3})).await;
    assert_eq!(res.status(), 400);
}

#[tokio::test]
async fn wrong_content_type_is_415() {
    let app = spawn_app().await;
    let res = app
        .post_raw("/api/tests/run", "text/plain", b"suite=basic".to_vec())
        .await;
    assert_eq!(res.status(), 415);
    assert_eq!(
        json(res).await,
        json!({"error": "Content-Type must be application/json"})
    );
}

#[tokio::test]
async fn a_huge_body_is_413() {
    let app = spawn_app().await;
    let body = format!("{{\"suite\": \"{}\"}}", "x".repeat(200_000)).into_bytes();
    let res = app
        .post_raw("/api/tests/run", "application/json", body)
        .await;
    assert_eq!(res.status(), 413);
    assert!(
        json(res).await["error"]
            .as_str()
            .unwrap()
            .contains("larger than the limit")
    );
}

#[tokio::test]
async fn unknown_paths_and_methods_answer_json() {
    let app = spawn_app().await;
    for path in ["/api/nope", "/static/evil.js", "/tests/x"] {
        let res = app.get(path).await;
        assert_eq!(res.status(), 404, "{path}");
        assert!(
            json(res).await["error"]
                .as_str()
                .unwrap()
                .starts_with("not found")
        );
    }
    let res = app.get("/api/refresh").await;
    assert_eq!(res.status(), 405);
    assert_eq!(res.headers()["allow"], "POST");
    let res = app.post("/api/digest").await;
    assert_eq!(res.status(), 405);
}
