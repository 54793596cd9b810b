use serde_json::json;

use crate::helpers::{as_written, json, sample_digest, spawn_app};

#[tokio::test]
async fn before_the_first_refresh_the_digest_is_empty_with_all_five_categories() {
    let app = spawn_app().await;
    let res = app.get("/api/digest").await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        json(res).await,
        json!({
            "generated_at": "1970-01-01T00:00:00",
            "categories": {"Need-Action": [], "FYI": [], "Newsletter": [], "Promotional": [], "Social": []},
            "summaries": {},
            "stats": {"total_emails": 0, "api_calls": 0, "execution_time": 0.0},
            "unsubscribe": [],
            "replies": {},
            "waiting": [],
            "sent_mail_read": false
        })
    );
}

#[tokio::test]
async fn the_digest_file_is_served_as_written() {
    let app = spawn_app().await;
    app.write_digest(&sample_digest());
    let res = app.get("/api/digest").await;
    assert_eq!(res.status(), 200);
    assert_eq!(as_written(json(res).await), sample_digest());
}

#[tokio::test]
async fn a_corrupted_digest_is_a_clear_500() {
    let app = spawn_app().await;
    std::fs::write(app.data_dir().join("digest.json"), "{\"generated_at\": tru").unwrap();
    let res = app.get("/api/digest").await;
    assert_eq!(res.status(), 500);
    let body = json(res).await;
    let error = body["error"].as_str().unwrap();
    assert!(
        error.starts_with("internal server error: digest.json is corrupted"),
        "{error}"
    );

    // Valid JSON that breaks the spec's rule (categories always present) is corrupted too.
    let mut digest = sample_digest();
    digest.as_object_mut().unwrap().remove("categories");
    app.write_digest(&digest);
    assert_eq!(app.get("/api/digest").await.status(), 500);
}
