//! The OpenAPI document (`GET /openapi.json`) against the real URL map: every route of
//! `routes::configure` is documented, every documented operation answers on the running app
//! with a documented status, and no undocumented method is served.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use crate::helpers::spawn_app;
use test_support::openapi::{self, METHODS, document};

const URL_MAP: &str = include_str!("../../src/routes/mod.rs");

fn routes_in_url_map() -> BTreeSet<(String, String)> {
    openapi::routes_in_url_map(URL_MAP)
}

/// Documented operations, by path.
fn operations(doc: &Value) -> BTreeSet<(String, String)> {
    openapi::operations(doc).into_iter().collect()
}

#[tokio::test]
async fn the_document_lists_exactly_the_routes_of_the_url_map() {
    let app = spawn_app().await;
    let doc = document(&app).await;
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.0"));
    let routes = routes_in_url_map();
    // Every `.route(` of the URL map sits on a `web::resource` the parser read.
    assert_eq!(URL_MAP.matches(".route(").count(), routes.len());
    assert!(routes.len() >= 6, "the URL map parser found {routes:?}");
    assert_eq!(operations(&doc), routes);
}

/// A request body that the operation accepts (or rejects with a documented 4xx).
fn body_for(path: &str) -> Option<Value> {
    match path {
        "/analyze" => Some(json!({"ingredients": "Water, Glycerin"})),
        // Not an image: a documented 400, enough to show the route exists.
        "/ocr" => Some(json!({"image": "bm90IGFuIGltYWdl"})),
        _ => None,
    }
}

#[tokio::test]
async fn every_documented_operation_answers_with_a_documented_status_and_type() {
    let app = spawn_app().await;
    let doc = document(&app).await;
    for (path, method) in operations(&doc) {
        let url = format!("{}{path}", app.address);
        let mut req = app
            .client
            .request(method.to_uppercase().parse().unwrap(), url);
        if let Some(body) = body_for(&path) {
            req = req.json(&body);
        }
        let res = req.send().await.unwrap();
        let status = res.status().as_u16();
        assert!(
            status != 404 && status != 405,
            "{method} {path} answered {status}"
        );
        let responses = &doc["paths"][&path][&method]["responses"];
        let documented = responses
            .get(status.to_string())
            .unwrap_or_else(|| panic!("{method} {path}: status {status} is not documented"));
        let documented = match documented.get("$ref").and_then(Value::as_str) {
            Some(r) => &doc["components"]["responses"][r.rsplit('/').next().unwrap()],
            None => documented,
        };
        let ct = res.headers()["content-type"].to_str().unwrap().to_owned();
        let essence = ct.split(';').next().unwrap();
        assert!(
            documented["content"].get(essence).is_some(),
            "{method} {path}: content type {ct} is not documented"
        );
    }
}

#[tokio::test]
async fn methods_the_document_does_not_list_are_405() {
    let app = spawn_app().await;
    let doc = document(&app).await;
    let documented = operations(&doc);
    for path in doc["paths"].as_object().unwrap().keys() {
        for method in METHODS {
            if documented.contains(&(path.clone(), method.to_owned())) {
                continue;
            }
            let res = app
                .client
                .request(
                    method.to_uppercase().parse().unwrap(),
                    format!("{}{path}", app.address),
                )
                .send()
                .await
                .unwrap();
            assert_eq!(res.status(), 405, "{method} {path}");
        }
    }
}

#[tokio::test]
async fn the_request_enums_are_the_ones_the_code_parses() {
    let doc: Value = serde_json::from_str(ingredient_api::routes::openapi::DOCUMENT).unwrap();
    let request = &doc["components"]["schemas"]["AnalyzeRequest"]["properties"];
    let listed = |field: &str| -> Vec<String> {
        request[field]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect()
    };
    assert_eq!(listed("skin_type"), domain::analysis::SkinType::ALL);
    assert_eq!(listed("expertise"), domain::analysis::Expertise::ALL);
    let limits = &request["ingredients"];
    assert_eq!(
        limits["maxLength"],
        json!(domain::analysis::input::MAX_CHARS)
    );
    assert_eq!(
        request["allergies"]["maxItems"],
        json!(domain::analysis::input::MAX_ALLERGIES)
    );
    assert_eq!(
        request["allergies"]["items"]["maxLength"],
        json!(domain::analysis::input::MAX_ALLERGY_CHARS)
    );
}

#[tokio::test]
async fn the_extra_llm_fields_are_documented_as_the_code_writes_them() {
    use domain::analysis::FactSource;
    let doc: Value = serde_json::from_str(ingredient_api::routes::openapi::DOCUMENT).unwrap();
    let schemas = &doc["components"]["schemas"];
    let source = &schemas["IngredientDetail"]["properties"]["source"];
    let written: Vec<Value> = [
        FactSource::KnowledgeBase,
        FactSource::Llm,
        FactSource::Unknown,
    ]
    .iter()
    .map(|s| serde_json::to_value(s).unwrap())
    .collect();
    assert_eq!(source["enum"], Value::Array(written));
    assert!(
        schemas["IngredientDetail"]["required"]
            .as_array()
            .unwrap()
            .contains(&json!("source"))
    );
    // The engine patterns accept what the services write.
    let analysis = schemas["AnalysisResponse"]["properties"]["engine"]["pattern"]
        .as_str()
        .unwrap();
    let ocr = schemas["OcrResponse"]["properties"]["engine"]["pattern"]
        .as_str()
        .unwrap();
    assert_eq!(analysis, "^(offline|llm:.+)$");
    assert_eq!(ocr, "^(ppocr|tesseract|llm:.+)$");
    assert_eq!(domain::analysis::OFFLINE_ENGINE, "offline");
}

#[tokio::test]
async fn every_error_body_documents_detail_beside_error() {
    let doc: Value = serde_json::from_str(ingredient_api::routes::openapi::DOCUMENT).unwrap();
    let schemas = &doc["components"]["schemas"];
    let resolve = |v: &Value, section: &str| -> Value {
        match v.get("$ref").and_then(Value::as_str) {
            Some(r) => doc["components"][section][r.rsplit('/').next().unwrap()].clone(),
            None => v.clone(),
        }
    };
    let mut error_schemas = BTreeSet::from(["Error".to_owned()]);
    for (path, method) in operations(&doc) {
        for (status, response) in doc["paths"][&path][&method]["responses"]
            .as_object()
            .unwrap()
        {
            if !status.starts_with('4') && !status.starts_with('5') {
                continue;
            }
            let response = resolve(response, "responses");
            let schema = &response["content"]["application/json"]["schema"]["$ref"];
            let name = schema.as_str().unwrap_or_else(|| {
                panic!("{method} {path} {status}: no JSON error schema: {response}")
            });
            error_schemas.insert(name.rsplit('/').next().unwrap().to_owned());
        }
    }
    assert!(error_schemas.len() >= 3, "{error_schemas:?}");
    for name in &error_schemas {
        let schema = &schemas[name.as_str()];
        let required = schema["required"].as_array().unwrap();
        assert!(required.contains(&json!("error")), "{name}");
        assert!(required.contains(&json!("detail")), "{name} lacks detail");
        assert_eq!(schema["properties"]["detail"]["type"], "string", "{name}");
    }

    // And the running service sends it: the same text as `error` on each error shape.
    let app = spawn_app().await;
    for res in [
        app.get("/nope").await,
        app.post_json("/analyze", &json!({})).await,
        app.post_json("/ocr", &json!({})).await,
    ] {
        assert!(res.status().is_client_error());
        let body: Value = res.json().await.unwrap();
        assert!(
            body["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{body}"
        );
        assert_eq!(body["detail"], body["error"], "{body}");
    }
}
