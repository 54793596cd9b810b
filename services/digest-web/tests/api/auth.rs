use crate::helpers::{json, spawn_app_with};

#[tokio::test]
async fn with_a_token_everything_but_health_needs_it() {
    let app = spawn_app_with(&[("DIGEST_AUTH_TOKEN", "s3cret-token")]).await;
    assert_eq!(app.get("/health").await.status(), 200);
    for path in [
        "/",
        "/tests",
        "/api/digest",
        "/api/status",
        "/metrics",
        "/static/app.css",
    ] {
        let res = app.get(path).await;
        assert_eq!(res.status(), 401, "{path}");
        assert_eq!(
            json(res).await,
            serde_json::json!({"error": "authentication required: send a Bearer token"})
        );
    }
    let url = format!("{}/api/digest", app.address);
    let res = app
        .client
        .get(&url)
        .bearer_auth("s3cret-token")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let res = app
        .client
        .get(&url)
        .bearer_auth("wrong")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 401);

    // A browser opens /?token=..., gets the cookie and uses it for the API calls.
    let res = app.get("/?token=s3cret-token").await;
    assert_eq!(res.status(), 200);
    let cookie = res.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(cookie.starts_with("digest_token=s3cret-token;") && cookie.contains("HttpOnly"));
    let res = app
        .client
        .get(&url)
        .header("cookie", "other=1; digest_token=s3cret-token")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
}

#[tokio::test]
async fn basic_auth_asks_the_browser_and_accepts_the_credentials() {
    let app = spawn_app_with(&[
        ("DIGEST_BASIC_AUTH_USER", "ops"),
        ("DIGEST_BASIC_AUTH_PASSWORD", "pa:ss"),
    ])
    .await;
    let res = app.get("/api/status").await;
    assert_eq!(res.status(), 401);
    assert!(
        res.headers()["www-authenticate"]
            .to_str()
            .unwrap()
            .starts_with("Basic")
    );
    let url = format!("{}/api/status", app.address);
    let ok = app
        .client
        .get(&url)
        .basic_auth("ops", Some("pa:ss"))
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), 200);
    let bad = app
        .client
        .get(&url)
        .basic_auth("ops", Some("nope"))
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 401);
}

#[tokio::test]
async fn without_protection_everything_is_open() {
    let app = spawn_app_with(&[]).await;
    assert_eq!(app.get("/api/status").await.status(), 200);
    assert_eq!(app.get("/").await.status(), 200);
}
