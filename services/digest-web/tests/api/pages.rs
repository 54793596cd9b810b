use crate::helpers::{sample_digest, spawn_app};

async fn html(res: reqwest::Response) -> String {
    assert_eq!(res.status(), 200);
    let ct = res.headers()["content-type"].to_str().unwrap().to_owned();
    assert!(ct.starts_with("text/html"), "{ct}");
    res.text().await.unwrap()
}

#[tokio::test]
async fn the_digest_page_before_any_refresh_shows_the_empty_state() {
    let app = spawn_app().await;
    let page = html(app.get("/").await).await;
    assert!(page.contains("id=\"empty-state\""));
    assert!(page.contains("Never refreshed"));
    for slug in ["need-action", "fyi", "newsletter", "promotional", "social"] {
        assert!(page.contains(&format!("id=\"cat-{slug}\"")), "{slug}");
    }
    assert!(page.contains("id=\"refresh-button\""));
    assert!(page.contains("No errors recorded."));
    assert!(
        !page.contains("http://") && !page.contains("https://"),
        "external resource"
    );
}

#[tokio::test]
async fn the_digest_page_shows_emails_escaped() {
    let app = spawn_app().await;
    app.write_digest(&sample_digest());
    let page = html(app.get("/?period=7d").await).await;
    assert!(page.contains("&lt;script&gt;alert(1)&lt;&#x2F;script&gt;"));
    assert!(!page.contains("<script>alert(1)"));
    assert!(page.contains("Approve the invoice"));
    assert!(page.contains("Two emails need a reply."));
    assert!(page.contains("Last refreshed"));
    assert!(page.contains("1.25"));
    assert!(!page.contains("id=\"empty-state\""));
    assert!(page.contains("href=\"/?period=7d#metrics\" aria-current"));
}

#[tokio::test]
async fn a_corrupted_digest_still_renders_the_page_with_a_banner() {
    let app = spawn_app().await;
    std::fs::write(app.data_dir().join("digest.json"), "nope").unwrap();
    let page = html(app.get("/").await).await;
    assert!(page.contains("id=\"digest-error\""));
}

#[tokio::test]
async fn the_tests_page_lists_the_three_suites() {
    let app = spawn_app().await;
    let page = html(app.get("/tests").await).await;
    for (suite, secs) in [("basic", 10), ("extended", 30), ("comprehensive", 60)] {
        assert!(page.contains(&format!("data-suite=\"{suite}\"")), "{suite}");
        assert!(page.contains(&format!("about {secs} s")), "{suite}");
    }
    assert!(page.contains("No test has run yet."));
}

#[tokio::test]
async fn static_files_are_served_with_their_types() {
    let app = spawn_app().await;
    let css = app.get("/static/app.css").await;
    assert_eq!(css.headers()["content-type"], "text/css; charset=utf-8");
    assert!(
        css.text()
            .await
            .unwrap()
            .contains("prefers-color-scheme: dark")
    );
    let js = app.get("/static/app.js").await;
    assert_eq!(
        js.headers()["content-type"],
        "text/javascript; charset=utf-8"
    );
}

#[tokio::test]
async fn without_javascript_the_forms_refresh_and_run_suites() {
    let app = crate::helpers::spawn_app_with(&[(
        "DIGEST_REFRESH_COMMAND",
        "echo 'mailbox unreachable' >&2; exit 1",
    )])
    .await;
    let no_redirect = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let res = no_redirect
        .post(format!("{}/refresh", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    assert_eq!(res.headers()["location"], "/?refresh=error#refresh-h");
    let page = html(app.get("/?refresh=error").await).await;
    assert!(page.contains("The refresh failed: its error is listed under Recent errors."));
    assert!(page.contains("mailbox unreachable"));

    let res = no_redirect
        .post(format!("{}/tests/run", app.address))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("suite=basic")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 303);
    assert_eq!(res.headers()["location"], "/tests#latest-results");
    let page = html(app.get("/tests").await).await;
    assert!(page.contains("Suite <strong>basic</strong>"), "{page}");

    let res = no_redirect
        .post(format!("{}/tests/run", app.address))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("suite=weekly")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    let res = app
        .post_raw("/tests/run", "application/json", b"{}".to_vec())
        .await;
    assert_eq!(res.status(), 415);
}
