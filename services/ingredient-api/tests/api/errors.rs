//! Framework-level failures answered in each endpoint's documented error shape.

use serde_json::{Value, json};

use crate::helpers::{json, spawn_app, spawn_app_with};

fn analyze_error(message: &str) -> Value {
    json!({
        "success": false, "product_name": "Unknown Product", "overall_risk": "unknown",
        "average_safety_score": 0.0, "summary": "", "allergen_warnings": [], "ingredients": [],
        "execution_time": 0.0, "error": message, "detail": message
    })
}

#[tokio::test]
async fn malformed_json_on_analyze_is_400_with_the_spec_body() {
    let app = spawn_app().await;
    let res = app
        .post_raw(
            "/analyze",
            "application/json",
            b"{\"ingredients\": ".to_vec(),
        )
        .await;
    assert_eq!(res.status(), 400);
    let body = json(res).await;
    let message = body["error"].as_str().unwrap().to_owned();
    assert!(message.starts_with("invalid JSON body: EOF"), "{message}");
    assert_eq!(body, analyze_error(&message));
}

#[tokio::test]
async fn wrong_field_type_on_analyze_is_400() {
    let app = spawn_app().await;
    let res = app.post_json("/analyze", &json!({"ingredients": 42})).await;
    assert_eq!(res.status(), 400);
    let body = json(res).await;
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("invalid type: integer `42`"),
        "{body}"
    );
    assert_eq!(body["overall_risk"], "unknown");
}

#[tokio::test]
async fn missing_and_blank_ingredients_are_400() {
    let app = spawn_app().await;
    for (body, message) in [
        (json!({}), "ingredients is required"),
        (
            json!({"ingredients": "   "}),
            "ingredients must not be blank",
        ),
    ] {
        let res = app.post_json("/analyze", &body).await;
        assert_eq!(res.status(), 400);
        assert_eq!(json(res).await, analyze_error(message));
    }
}

#[tokio::test]
async fn invalid_skin_type_is_400_naming_the_allowed_values() {
    let app = spawn_app().await;
    let res = app
        .post_json(
            "/analyze",
            &json!({"ingredients": "Water", "skin_type": "greasy"}),
        )
        .await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        json(res).await,
        analyze_error(
            "invalid skin_type 'greasy': expected one of normal, dry, oily, combination, sensitive"
        )
    );
}

#[tokio::test]
async fn wrong_content_type_is_415() {
    let app = spawn_app().await;
    let res = app
        .post_raw(
            "/analyze",
            "text/plain",
            b"{\"ingredients\":\"Water\"}".to_vec(),
        )
        .await;
    assert_eq!(res.status(), 415);
    assert_eq!(
        json(res).await,
        analyze_error("Content-Type must be application/json")
    );
}

#[tokio::test]
async fn oversized_body_is_413_in_the_endpoint_shape() {
    let app = spawn_app_with(&[("MAX_BODY_BYTES", "1KiB"), ("OCR_MAX_BODY_BYTES", "2KiB")]).await;
    let big = json!({"ingredients": "a".repeat(4096)});
    let res = app.post_json("/analyze", &big).await;
    assert_eq!(res.status(), 413);
    assert_eq!(
        json(res).await,
        analyze_error("request body is larger than the limit of 1024 bytes")
    );

    let res = app
        .post_json("/ocr", &json!({"image": "A".repeat(4096)}))
        .await;
    assert_eq!(res.status(), 413);
    assert_eq!(
        json(res).await,
        json!({"success": false, "text": "", "error": "request body is larger than the limit of 2048 bytes",
            "detail": "request body is larger than the limit of 2048 bytes"})
    );
}

#[tokio::test]
async fn ocr_errors_use_the_ocr_body() {
    let app = spawn_app().await;
    let res = app.post_json("/ocr", &json!({})).await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        json(res).await,
        json!({"success": false, "text": "", "error": "image is required", "detail": "image is required"})
    );
    let res = app
        .post_raw("/ocr", "application/json", b"not json".to_vec())
        .await;
    assert_eq!(res.status(), 400);
    assert_eq!(json(res).await["text"], "");
}

#[tokio::test]
async fn unknown_path_is_404_json() {
    let app = spawn_app().await;
    let res = app.get("/nope").await;
    assert_eq!(res.status(), 404);
    assert_eq!(
        json(res).await,
        json!({"success": false, "error": "not found: GET /nope", "detail": "not found: GET /nope"})
    );
}

#[tokio::test]
async fn wrong_method_is_405_with_allow() {
    let app = spawn_app().await;
    let res = app.get("/analyze").await;
    assert_eq!(res.status(), 405);
    assert_eq!(res.headers()["allow"], "POST");
    assert_eq!(
        json(res).await,
        analyze_error("method GET is not allowed on /analyze; use POST")
    );
}
