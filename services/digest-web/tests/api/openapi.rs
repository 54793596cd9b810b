//! The OpenAPI document (`GET /openapi.json`) against the real URL map: every route of
//! `routes::configure` is documented, every documented operation answers on the running app
//! with a documented status and content type, and no undocumented method is served.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::helpers::{TestApp, spawn_app_with};
use test_support::openapi::{self, METHODS, concrete, document, operations};

const URL_MAP: &str = include_str!("../../src/web/routes/mod.rs");

fn routes_in_url_map() -> BTreeSet<(String, String)> {
    openapi::routes_in_url_map(URL_MAP)
}

async fn app() -> TestApp {
    spawn_app_with(&[("DIGEST_REFRESH_COMMAND", "true")]).await
}

#[tokio::test]
async fn the_document_lists_exactly_the_routes_of_the_url_map() {
    let app = app().await;
    let doc = document(&app).await;
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.0"));
    let routes = routes_in_url_map();
    // Every `.route(` of the URL map sits on a `web::resource` the parser read.
    assert_eq!(URL_MAP.matches(".route(").count(), routes.len());
    assert!(routes.len() >= 14, "the URL map parser found {routes:?}");
    let documented: BTreeSet<_> = operations(&doc).into_iter().collect();
    assert_eq!(documented, routes);
}

#[tokio::test]
async fn every_documented_operation_answers_with_a_documented_status_and_type() {
    let app = app().await;
    let doc = document(&app).await;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    for (path, method) in operations(&doc) {
        let url = format!("{}{}", app.address, concrete(&doc, &path, &method));
        let mut req = client.request(method.to_uppercase().parse().unwrap(), url);
        req = match path.as_str() {
            "/api/tests/run" => req.json(&serde_json::json!({"suite": "basic"})),
            "/tests/run" => req
                .header("content-type", "application/x-www-form-urlencoded")
                .body("suite=basic"),
            _ => req,
        };
        let res = req.send().await.unwrap();
        let status = res.status().as_u16();
        // A 404 is a missing route unless the operation documents one (an unknown id).
        let documents_404 = doc["paths"][&path][&method]["responses"]
            .get("404")
            .is_some();
        assert!(
            (status != 404 || documents_404) && status != 405,
            "{method} {path} answered {status}"
        );
        assert!(status < 500, "{method} {path} answered {status}");
        let documented = doc["paths"][&path][&method]["responses"]
            .get(status.to_string())
            .unwrap_or_else(|| panic!("{method} {path}: status {status} is not documented"));
        match documented.get("content") {
            None => assert_eq!(res.content_length(), Some(0), "{method} {path}"),
            Some(content) => {
                let ct = res.headers()["content-type"].to_str().unwrap().to_owned();
                let essence = ct.split(';').next().unwrap();
                assert!(
                    content.get(essence).is_some(),
                    "{method} {path}: content type {ct} is not documented"
                );
            }
        }
    }
}

#[tokio::test]
async fn methods_the_document_does_not_list_are_405() {
    let app = app().await;
    let doc = document(&app).await;
    let documented: BTreeSet<_> = operations(&doc).into_iter().collect();
    for path in doc["paths"].as_object().unwrap().keys() {
        for method in METHODS {
            if documented.contains(&(path.clone(), method.to_owned())) {
                continue;
            }
            let get = if documented.contains(&(path.clone(), "get".into())) {
                "get"
            } else {
                "post"
            };
            let url = format!("{}{}", app.address, concrete(&doc, path, get));
            let res = app
                .client
                .request(method.to_uppercase().parse().unwrap(), url)
                .send()
                .await
                .unwrap();
            assert_eq!(res.status(), 405, "{method} {path}");
        }
    }
}

#[tokio::test]
async fn the_enums_are_the_ones_the_code_uses() {
    let doc: Value = serde_json::from_str(digest_web::web::routes::openapi::DOCUMENT).unwrap();
    let schemas = &doc["components"]["schemas"];
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .filter_map(|s| s.as_str().map(str::to_owned))
            .collect()
    };
    let categories: Vec<String> = domain::email::Category::ALL
        .iter()
        .map(|c| c.as_str().to_owned())
        .collect();
    assert_eq!(
        strings(&schemas["Digest"]["properties"]["categories"]["required"]),
        categories
    );
    assert_eq!(
        strings(&schemas["MetricsResponse"]["properties"]["category_breakdown"]["required"]),
        categories
    );
    for field in ["from_category", "category"] {
        assert_eq!(
            strings(&schemas["Correction"]["properties"][field]["enum"]),
            categories
        );
    }
    assert_eq!(
        strings(&schemas["CorrectionStats"]["properties"]["per_category"]["required"]),
        categories
    );
    let suites: Vec<String> = digest_web::web::diagnostics::Suite::all()
        .map(|s| s.as_str().to_owned())
        .collect();
    assert_eq!(
        strings(&schemas["TestRunResult"]["properties"]["suite"]["enum"]),
        suites
    );
    let run = &doc["paths"]["/api/tests/run"]["post"]["requestBody"]["content"]["application/json"];
    assert_eq!(
        strings(&run["schema"]["properties"]["suite"]["enum"]),
        suites
    );
    let periods = &doc["paths"]["/api/metrics"]["get"]["parameters"][0]["schema"]["enum"];
    assert_eq!(
        strings(periods).join(", "),
        digest_web::store::window::Window::PERIODS
    );
}
