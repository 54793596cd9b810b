//! Hostile input: each case gets the endpoint's documented 4xx body, or a bounded,
//! documented answer, and the server keeps serving. Cases already covered elsewhere are listed
//! in docs/proof.md (the 10,000×10,000 PNG bomb: `ocr::a_decompression_bomb_is_400_without_decoding`).

use serde_json::{Value, json};

use crate::helpers::{TestApp, json, spawn_app};

fn analyze_error(message: &str) -> Value {
    json!({
        "success": false, "product_name": "Unknown Product", "overall_risk": "unknown",
        "average_safety_score": 0.0, "summary": "", "allergen_warnings": [], "ingredients": [],
        "execution_time": 0.0, "error": message, "detail": message
    })
}

async fn error_text(res: reqwest::Response) -> String {
    assert_eq!(res.status(), 400);
    assert_eq!(res.headers()["content-type"], "application/json");
    let body = json(res).await;
    let message = body["error"].as_str().expect("error text").to_owned();
    assert_eq!(body, analyze_error(&message));
    message
}

async fn names(app: &TestApp, body: Value) -> Vec<String> {
    let res = app.post_json("/analyze", &body).await;
    assert_eq!(res.status(), 200);
    json(res).await["ingredients"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["name"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn a_50_mb_body_is_413_on_both_endpoints_and_the_server_stays_up() {
    // Default limits: 1 MiB for /analyze, 16 MiB for /ocr.
    let app = spawn_app().await;
    let huge = format!("{{\"ingredients\": \"{}\"}}", "a".repeat(50 << 20));
    let res = app
        .post_raw("/analyze", "application/json", huge.into_bytes())
        .await;
    assert_eq!(res.status(), 413);
    assert_eq!(
        json(res).await,
        analyze_error("request body is larger than the limit of 1048576 bytes")
    );
    let huge = format!("{{\"image\": \"{}\"}}", "A".repeat(50 << 20));
    let res = app
        .post_raw("/ocr", "application/json", huge.into_bytes())
        .await;
    assert_eq!(res.status(), 413);
    assert_eq!(
        json(res).await,
        json!({"success": false, "text": "",
            "error": "request body is larger than the limit of 16777216 bytes",
            "detail": "request body is larger than the limit of 16777216 bytes"})
    );
    assert_eq!(app.get("/health").await.status(), 200);
    let res = app
        .post_json("/analyze", &json!({"ingredients": "Water"}))
        .await;
    assert_eq!(res.status(), 200);
}

#[tokio::test]
async fn deeply_nested_json_is_400_not_a_stack_overflow() {
    let app = spawn_app().await;
    let depth = 100_000;
    let nested = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    for body in [
        format!("{{\"ingredients\": {nested}}}"),
        format!("{{\"ingredients\": \"Water\", \"allergies\": {nested}}}"),
        nested.clone(),
    ] {
        let res = app
            .post_raw("/analyze", "application/json", body.into_bytes())
            .await;
        let message = error_text(res).await;
        assert!(message.starts_with("invalid JSON body: "), "{message}");
    }
    let res = app
        .post_raw(
            "/ocr",
            "application/json",
            format!("{{\"image\": {nested}}}").into_bytes(),
        )
        .await;
    assert_eq!(res.status(), 400);
    let body = json(res).await;
    assert_eq!(body["text"], "");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .starts_with("invalid JSON body: "),
        "{body}"
    );
    assert_eq!(app.get("/health").await.status(), 200);
}

#[tokio::test]
async fn raw_null_bytes_invalid_utf8_and_lone_surrogates_are_400() {
    let app = spawn_app().await;
    let cases: [&[u8]; 4] = [
        b"{\"ingredients\": \"Water\x00, Salt\"}",
        b"{\"ingredients\": \"Water, \xff\xfe Salt\"}",
        b"{\"ingredients\": \"Water, \xc3\x28 Salt\"}",
        b"{\"ingredients\": \"Water, \\ud800 Salt\"}",
    ];
    for body in cases {
        let res = app
            .post_raw("/analyze", "application/json", body.to_vec())
            .await;
        let message = error_text(res).await;
        assert!(message.starts_with("invalid JSON body: "), "{message}");
    }
    let res = app
        .post_raw(
            "/ocr",
            "application/json",
            b"{\"image\": \"\xff\"}".to_vec(),
        )
        .await;
    assert_eq!(res.status(), 400);
    assert_eq!(json(res).await["success"], false);
    // An escaped NUL is valid JSON: it is removed like every invisible character.
    assert_eq!(
        names(&app, json!({"ingredients": "Wa\u{0}ter, \u{0}Salt\u{0}"})).await,
        ["Water", "Salt"]
    );
}

#[tokio::test]
async fn ten_thousand_commas_are_a_bounded_answer() {
    let app = spawn_app().await;
    // Only separators: no ingredient at all.
    let res = app
        .post_json("/analyze", &json!({"ingredients": ",".repeat(10_000)}))
        .await;
    assert_eq!(
        error_text(res).await,
        "ingredients contains no ingredient names"
    );
    // Empty items between the commas are dropped: two ingredients.
    let list = format!("Water{}Salt", ",".repeat(10_000));
    assert_eq!(
        names(&app, json!({"ingredients": list})).await,
        ["Water", "Salt"]
    );
    // 10,000 one-letter items: over the 300-ingredient limit.
    let list = "a,".repeat(10_000);
    let res = app
        .post_json("/analyze", &json!({"ingredients": list}))
        .await;
    let message = error_text(res).await;
    assert!(
        message.starts_with("too many ingredients: ") && message.ends_with("(at most 300)"),
        "{message}"
    );
}

#[tokio::test]
async fn bidirectional_and_zero_width_characters_are_removed_from_names() {
    let app = spawn_app().await;
    let list = "\u{202B}Water\u{202C}, Gly\u{200D}cerin\u{FEFF}, \u{2067}Salt\u{2069}, Su\u{00AD}gar\u{2060}, \u{061C}Niacinamide\u{200E}";
    assert_eq!(
        names(
            &app,
            json!({"ingredients": list, "product_name": "\u{202E}Cream\u{200B}"})
        )
        .await,
        ["Water", "Glycerin", "Salt", "Sugar", "Niacinamide"]
    );
    let res = app
        .post_json(
            "/analyze",
            &json!({"ingredients": "\u{202E}Water", "product_name": "\u{202E}Cream\u{200B}"}),
        )
        .await;
    let body = json(res).await;
    assert_eq!(body["product_name"], "Cream");
    assert_eq!(body["ingredients"][0]["canonical_name"], "Water");
    // Right-to-left scripts themselves are text, kept as given.
    assert_eq!(
        names(&app, json!({"ingredients": "ماء, מלח"})).await,
        ["ماء", "מלח"]
    );
    // Nothing but invisible characters is a blank list.
    let res = app
        .post_json(
            "/analyze",
            &json!({"ingredients": "\u{200B}\u{202E}\u{FEFF}\u{2066}"}),
        )
        .await;
    assert_eq!(error_text(res).await, "ingredients must not be blank");
}

#[tokio::test]
async fn html_and_script_are_echoed_as_json_data() {
    let app = spawn_app().await;
    let script = "<script>alert(1)</script>";
    let img = "<img src=x onerror=alert(1)>";
    let res = app
        .post_json(
            "/analyze",
            &json!({"ingredients": format!("Water, {script}, {img}"), "product_name": script}),
        )
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "application/json");
    let body = json(res).await;
    assert_eq!(body["product_name"], script);
    let names: Vec<&str> = body["ingredients"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Water", script, img]);
    // An echo inside an error message is JSON too.
    let res = app
        .post_json(
            "/analyze",
            &json!({"ingredients": "Water", "skin_type": script}),
        )
        .await;
    assert_eq!(
        error_text(res).await,
        format!(
            "invalid skin_type '{script}': expected one of normal, dry, oily, combination, sensitive"
        )
    );
}

#[tokio::test]
async fn huge_allergy_lists_are_400() {
    let app = spawn_app().await;
    let res = app
        .post_json(
            "/analyze",
            &json!({"ingredients": "Water", "allergies": vec!["milk"; 10_000]}),
        )
        .await;
    assert_eq!(
        error_text(res).await,
        "too many allergies: 10000 (at most 50)"
    );
    let res = app
        .post_json(
            "/analyze",
            &json!({"ingredients": "Water", "allergies": ["milk", "x".repeat(500_000)]}),
        )
        .await;
    assert_eq!(
        error_text(res).await,
        "allergy 2 is too long (at most 100 characters)"
    );
}
