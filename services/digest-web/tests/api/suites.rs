use serde_json::json;

use crate::helpers::{json, sample_digest, spawn_app, spawn_app_with};

#[tokio::test]
async fn results_before_any_run_are_404() {
    let app = spawn_app().await;
    let res = app.get("/api/tests/results").await;
    assert_eq!(res.status(), 404);
    assert_eq!(
        json(res).await,
        json!({"error": "no test has run yet: POST /api/tests/run to run one"})
    );
}

#[tokio::test]
async fn an_empty_body_runs_basic_and_the_result_is_stored() {
    let app = spawn_app_with(&[("DIGEST_REFRESH_COMMAND", "true")]).await;
    app.write_digest(&sample_digest());
    let res = app.post("/api/tests/run").await;
    assert_eq!(res.status(), 200);
    let body = json(res).await;
    assert_eq!(body["status"], "success", "{body}");
    assert_eq!(body["suite"], "basic");
    let results = &body["results"];
    assert_eq!(results["failed"], 0);
    assert_eq!(
        results["total"].as_i64().unwrap(),
        results["passed"].as_i64().unwrap() + results["skipped"].as_i64().unwrap()
    );
    assert!(results["duration"].is_number());
    assert_eq!(body["failures"], json!([]));

    let latest = json(app.get("/api/tests/results").await).await;
    assert_eq!(latest["suite"], "basic");
    assert_eq!(&latest["results"], results);
    assert!(latest["last_run"].as_str().unwrap().len() == 19);
}

#[tokio::test]
async fn a_broken_deployment_fails_with_named_checks() {
    // No refresh command and no job binary, and a corrupted digest.
    let app = spawn_app().await;
    std::fs::write(app.data_dir().join("digest.json"), "garbage").unwrap();
    let res = app
        .post_json("/api/tests/run", &json!({"suite": "extended"}))
        .await;
    assert_eq!(res.status(), 200);
    let body = json(res).await;
    assert_eq!(body["status"], "failure");
    assert_eq!(body["suite"], "extended");
    let failed: Vec<&str> = body["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["test"].as_str().unwrap())
        .collect();
    assert_eq!(failed, ["configuration_valid", "digest_readable_and_valid"]);
    assert_eq!(body["results"]["failed"], 2);
    let latest = json(app.get("/api/tests/results").await).await;
    assert_eq!(latest["failures"], body["failures"]);
}

#[tokio::test]
async fn an_unknown_suite_is_400() {
    let app = spawn_app().await;
    let res = app
        .post_json("/api/tests/run", &json!({"suite": "nightly"}))
        .await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        json(res).await,
        json!({"error": "unknown suite 'nightly': allowed values are basic, extended, comprehensive"})
    );
    let res = app.post_json("/api/tests/run", &json!({})).await;
    assert_eq!(json(res).await["suite"], "basic");
}

#[tokio::test]
async fn one_test_run_at_a_time_and_an_unreachable_mailbox_fails_the_check() {
    // An "IMAP server" that accepts connections and never greets: the login check hangs
    // until the listener goes away, which keeps the first run busy for as long as we need.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let source = format!(
        "imap://ops@127.0.0.1:{}/INBOX",
        silent.local_addr().unwrap().port()
    );
    let app = spawn_app_with(&[
        ("DIGEST_REFRESH_COMMAND", "true"),
        ("DIGEST_SOURCE", source.as_str()),
        ("DIGEST_IMAP_PASSWORD", "x"),
    ])
    .await;
    let first = {
        let client = app.client.clone();
        let url = format!("{}/api/tests/run", app.address);
        tokio::spawn(async move { client.post(url).send().await.unwrap() })
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !app
        .get("/tests")
        .await
        .text()
        .await
        .unwrap()
        .contains("A test run is in progress")
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the first run never started"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let second = app
        .post_json("/api/tests/run", &json!({"suite": "basic"}))
        .await;
    assert_eq!(second.status(), 409);
    assert_eq!(
        json(second).await,
        json!({"error": "a test run is already in progress; try again when it has finished"})
    );

    drop(silent);
    let first = first.await.unwrap();
    assert_eq!(first.status(), 200);
    let body = json(first).await;
    assert_eq!(body["status"], "failure");
    assert_eq!(
        body["failures"][0]["test"], "mail_source_reachable",
        "{body}"
    );
}
