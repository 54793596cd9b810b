//! CORS as the spec says: every origin, method and header, with credentials.

use crate::helpers::{spawn_app, spawn_app_with};

async fn preflight(app: &crate::helpers::TestApp, origin: &str) -> reqwest::Response {
    app.client
        .request(reqwest::Method::OPTIONS, format!("{}/analyze", app.address))
        .header("Origin", origin)
        .header("Access-Control-Request-Method", "POST")
        .header("Access-Control-Request-Headers", "content-type, x-custom")
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn preflight_echoes_any_origin_with_credentials() {
    let app = spawn_app().await;
    let res = preflight(&app, "https://app.example.com").await;
    assert_eq!(res.status(), 200);
    let h = res.headers();
    assert_eq!(h["access-control-allow-origin"], "https://app.example.com");
    assert_eq!(h["access-control-allow-credentials"], "true");
    assert!(
        h["access-control-allow-methods"]
            .to_str()
            .unwrap()
            .contains("POST")
    );
    let allowed = h["access-control-allow-headers"]
        .to_str()
        .unwrap()
        .to_lowercase();
    assert!(
        allowed.contains("x-custom") && allowed.contains("content-type"),
        "{allowed}"
    );
}

#[tokio::test]
async fn simple_request_gets_cors_headers() {
    let app = spawn_app().await;
    let res = app
        .client
        .get(format!("{}/health", app.address))
        .header("Origin", "http://localhost:19006")
        .send()
        .await
        .unwrap();
    assert_eq!(
        res.headers()["access-control-allow-origin"],
        "http://localhost:19006"
    );
    assert_eq!(res.headers()["access-control-allow-credentials"], "true");
}

#[tokio::test]
async fn configured_origins_restrict_access() {
    let app = spawn_app_with(&[("CORS_ALLOWED_ORIGINS", "https://app.example.com")]).await;
    let ok = preflight(&app, "https://app.example.com").await;
    assert_eq!(
        ok.headers()["access-control-allow-origin"],
        "https://app.example.com"
    );
    let denied = preflight(&app, "https://evil.example.net").await;
    assert!(
        denied
            .headers()
            .get("access-control-allow-origin")
            .is_none()
    );
}
