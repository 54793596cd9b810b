//! Hostile input: each case gets the documented `{"error"}` 4xx, or is shown as
//! inert text, and the server keeps serving. The email subject `<script>` on the page is
//! `pages::the_digest_page_shows_emails_escaped`.

use serde_json::{Value, json};

use crate::helpers::{TestApp, json, sample_digest, spawn_app, spawn_app_with};

async fn error_400(res: reqwest::Response) -> String {
    assert_eq!(res.status(), 400);
    assert_eq!(res.headers()["content-type"], "application/json");
    let body: Value = json(res).await;
    assert_eq!(body.as_object().unwrap().len(), 1, "{body}");
    body["error"].as_str().unwrap().to_owned()
}

async fn still_up(app: &TestApp) {
    assert_eq!(app.get("/health").await.status(), 200);
    assert_eq!(app.get("/api/status").await.status(), 200);
}

#[tokio::test]
async fn a_50_mb_body_is_413_and_the_server_stays_up() {
    let app = spawn_app_with(&[("DIGEST_REFRESH_COMMAND", "echo refreshed")]).await;
    // The refresh takes no body: one is ignored (docs/decisions.md), however large.
    let res = app
        .post_raw(
            "/api/refresh",
            "application/octet-stream",
            vec![0u8; 50 << 20],
        )
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(json(res).await["message"], "refreshed");
    let huge = format!("{{\"suite\": \"{}\"}}", "x".repeat(50 << 20));
    let res = app
        .post_raw("/api/tests/run", "application/json", huge.into_bytes())
        .await;
    assert_eq!(res.status(), 413);
    assert_eq!(
        json(res).await,
        json!({"error": "request body is larger than the limit of 65536 bytes"})
    );
    let form = format!("suite={}", "x".repeat(50 << 20));
    let res = app
        .post_raw(
            "/tests/run",
            "application/x-www-form-urlencoded",
            form.into_bytes(),
        )
        .await;
    assert_eq!(res.status(), 413);
    assert!(
        json(res).await["error"]
            .as_str()
            .unwrap()
            .starts_with("request body is larger than the limit")
    );
    still_up(&app).await;
}

#[tokio::test]
async fn deeply_nested_json_is_400() {
    let app = spawn_app().await;
    let depth = 30_000; // 60 KB, under the 64 KiB body limit
    let nested = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    for body in [nested.clone(), format!("{{\"suite\": {nested}}}")] {
        let res = app
            .post_raw("/api/tests/run", "application/json", body.into_bytes())
            .await;
        let message = error_400(res).await;
        assert!(message.starts_with("invalid JSON body: "), "{message}");
    }
    still_up(&app).await;
}

#[tokio::test]
async fn raw_null_bytes_and_invalid_utf8_are_400() {
    let app = spawn_app().await;
    let cases: [&[u8]; 4] = [
        b"{\"suite\": \"basic\x00\"}",
        b"{\"suite\": \"\xff\xfe\"}",
        b"\x00\x00\x00\x00",
        b"{\"suite\": \"\\udc00\"}",
    ];
    for body in cases {
        let res = app
            .post_raw("/api/tests/run", "application/json", body.to_vec())
            .await;
        let message = error_400(res).await;
        assert!(message.starts_with("invalid JSON body: "), "{message}");
    }
    // Valid JSON with an escaped NUL is an unknown suite, named without the NUL breaking JSON.
    let res = app
        .post_json("/api/tests/run", &json!({"suite": "basic\u{0}"}))
        .await;
    assert_eq!(
        error_400(res).await,
        "unknown suite 'basic\u{0}': allowed values are basic, extended, comprehensive"
    );
    // Invalid UTF-8 in the query string.
    let res = app.get("/api/metrics?period=%FF%FE").await;
    let message = error_400(res).await;
    assert!(message.starts_with("unknown period '"), "{message}");
    still_up(&app).await;
}

#[tokio::test]
async fn script_in_queries_and_subjects_is_data_in_json() {
    let app = spawn_app().await;
    app.write_digest(&sample_digest());
    let res = app.get("/api/digest").await;
    assert_eq!(res.headers()["content-type"], "application/json");
    assert_eq!(
        json(res).await["categories"]["Need-Action"][0]["subject"],
        "<script>alert(1)</script>"
    );
    let res = app
        .get("/api/metrics?period=%3Cscript%3Ealert(1)%3C/script%3E")
        .await;
    assert_eq!(
        error_400(res).await,
        "unknown period '<script>alert(1)</script>': allowed values are 24h, 7d, all"
    );
    // Not reflected into the page at all (an unknown period shows 24h).
    let res = app.get("/?period=%3Cscript%3Ealert(1)%3C/script%3E").await;
    assert_eq!(res.status(), 200);
    let page = res.text().await.unwrap();
    assert!(!page.contains("<script>alert(1)"), "reflected script");
}

#[tokio::test]
async fn script_in_a_refresh_error_is_escaped_on_the_dashboard() {
    let app = spawn_app_with(&[(
        "DIGEST_REFRESH_COMMAND",
        "echo '<script>alert(\"job\")</script> & <b>bold</b>' >&2; exit 1",
    )])
    .await;
    let res = app.post("/api/refresh").await;
    assert_eq!(res.status(), 500);
    assert_eq!(res.headers()["content-type"], "application/json");
    assert_eq!(
        json(res).await["message"],
        "<script>alert(\"job\")</script> & <b>bold</b>"
    );
    let page = app.get("/").await.text().await.unwrap();
    assert!(
        page.contains("&lt;script&gt;alert(&quot;job&quot;)&lt;&#x2F;script&gt; &amp; &lt;b&gt;bold&lt;&#x2F;b&gt;"),
        "the error is not shown escaped"
    );
    assert!(!page.contains("<script>alert(\"job\")"));
    assert!(!page.contains("<b>bold</b>"));
}

/// One message in a fresh Maildir, dated now, as a mail server would deliver it.
fn maildir_with(dir: &std::path::Path, subject: &str, body: &str) {
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    let message = format!(
        "From: Mallory <mallory@example.com>\r\nTo: ops@example.com\r\nSubject: {subject}\r\nDate: {}\r\nMessage-ID: <hostile-1@example.com>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n",
        chrono::Utc::now().to_rfc2822()
    );
    std::fs::write(dir.join("new/1.M1P1.hostile"), message).unwrap();
}

#[tokio::test]
async fn script_in_a_real_email_is_escaped_from_mailbox_to_page() {
    use base64::Engine as _;
    let mail = tempfile::tempdir().unwrap();
    // RFC 2047-encoded, so only the decoder can produce the markup.
    let encoded = base64::engine::general_purpose::STANDARD
        .encode("<img src=x onerror=alert(1)> & <script>alert(2)</script>");
    maildir_with(
        mail.path(),
        &format!("=?utf-8?b?{encoded}?="),
        "Please click <a href=\"javascript:alert(3)\">here</a>",
    );
    let source = format!("maildir:{}", mail.path().display());
    let app = spawn_app_with(&[
        (
            "DIGEST_REFRESH_COMMAND",
            env!("CARGO_BIN_EXE_digest-refresh"),
        ),
        ("DIGEST_SOURCE", source.as_str()),
    ])
    .await;
    assert_eq!(app.post("/api/refresh").await.status(), 200);

    let digest = json(app.get("/api/digest").await).await;
    let item = digest["categories"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|items| items.as_array().unwrap())
        .find(|i| i["id"] == "hostile-1@example.com")
        .unwrap_or_else(|| panic!("the message is not in {digest}"))
        .clone();
    assert_eq!(
        item["subject"],
        "<img src=x onerror=alert(1)> & <script>alert(2)</script>"
    );

    let snippet = item["snippet"].as_str().unwrap();
    assert!(snippet.starts_with("Please click"), "{snippet}");

    let page = app.get("/").await.text().await.unwrap();
    assert!(page.contains("Please click"));
    assert!(
        page.contains(
            "&lt;img src=x onerror=alert(1)&gt; &amp; &lt;script&gt;alert(2)&lt;&#x2F;script&gt;"
        ),
        "the subject is not shown escaped"
    );
    assert!(!page.contains("<img src=x"));
    assert!(!page.contains("<script>alert(2)"));
    assert!(!page.contains("<a href=\"javascript:"));
}

/// The page's email list is rendered once per digest and cached: a new digest written by a
/// refresh (a file renamed into place) replaces it, and its hostile subject is escaped too.
#[tokio::test]
async fn a_new_digest_with_a_hostile_subject_is_escaped_after_the_cache_refreshes() {
    let app = spawn_app().await;
    app.write_digest(&sample_digest());
    let before = app.get("/").await.text().await.unwrap();
    assert!(before.contains("Approve the invoice"));
    assert_eq!(before, app.get("/").await.text().await.unwrap());

    let mut digest = sample_digest();
    digest["generated_at"] = json!("2026-11-21T10:45:00");
    digest["categories"]["FYI"][0]["subject"] = json!("<img src=x onerror=alert(9)>");
    digest["categories"]["FYI"][0]["from"] = json!("\"<b>evil</b>\" <e@example.com>");
    digest["summaries"]["FYI"] = json!("</p><script>alert(10)</script>");
    let tmp = app.data_dir().join("digest.json.tmp");
    std::fs::write(&tmp, serde_json::to_vec(&digest).unwrap()).unwrap();
    std::fs::rename(&tmp, app.data_dir().join("digest.json")).unwrap();

    let page = app.get("/").await.text().await.unwrap();
    assert!(
        !page.contains("Build passed"),
        "the cached email list was served"
    );
    assert!(
        page.contains("&lt;img src=x onerror=alert(9)&gt;"),
        "{page}"
    );
    assert!(page.contains("&lt;b&gt;evil&lt;&#x2F;b&gt;"));
    assert!(page.contains("&lt;&#x2F;p&gt;&lt;script&gt;alert(10)"));
    assert!(!page.contains("<img src=x"));
    assert!(!page.contains("<b>evil"));
    assert!(!page.contains("<script>alert(10)"));
    assert!(page.contains("2026-11-21 10:45:00"));
    assert_eq!(
        crate::helpers::as_written(json(app.get("/api/digest").await).await),
        digest
    );
}
