//! Corrections through the real app: `POST /api/corrections` moves an email in the stored
//! digest at once and records who and when, `GET` lists, `DELETE /api/corrections/{id}`
//! undoes; the real refresh job applies a correction to its sender; bad input is a 4xx with
//! the spec's `{"error": ...}`.

use serde_json::{Value, json};

use crate::helpers::{TestApp, json, sample_digest, spawn_app, spawn_app_with};

fn ids_in(digest: &Value, category: &str) -> Vec<String> {
    digest["categories"][category]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_owned())
        .collect()
}

async fn delete(app: &TestApp, path: &str) -> reqwest::Response {
    app.client
        .delete(format!("{}{path}", app.address))
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_correction_moves_the_email_at_once_is_listed_counted_and_undone() {
    let app = spawn_app().await;
    app.write_digest(&sample_digest());

    let res = app
        .post_json(
            "/api/corrections",
            &json!({"email_id": "m3", "category": "Need-Action"}),
        )
        .await;
    assert_eq!(res.status(), 201);
    let correction = json(res).await;
    assert_eq!(correction["email_id"], "m3");
    assert_eq!(correction["from_category"], "FYI");
    assert_eq!(correction["category"], "Need-Action");
    assert_eq!(correction["created_by"], "anonymous");
    assert_eq!(correction["sender"], "ops@example.com");
    assert_eq!(correction["undone_at"], Value::Null);
    let id = correction["id"].as_i64().unwrap();
    let day = &correction["created_at"].as_str().unwrap()[..10];

    // The digest changed without a refresh, the reason says who and when.
    let digest = json(app.get("/api/digest").await).await;
    assert!(ids_in(&digest, "FYI").is_empty(), "{digest}");
    assert!(ids_in(&digest, "Need-Action").contains(&"m3".to_owned()));
    let moved = digest["categories"]["Need-Action"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == "m3")
        .unwrap();
    assert_eq!(
        moved["reasons"][0],
        format!("corrected by anonymous on {day}")
    );
    // And so did the page.
    let page = app.get("/").await.text().await.unwrap();
    let need_action = page.split("data-category=\"FYI\"").next().unwrap();
    assert!(need_action.contains("data-id=\"m3\""));

    let list = json(app.get("/api/corrections").await).await;
    assert_eq!(list["corrections"].as_array().unwrap().len(), 1);
    assert_eq!(list["corrections"][0]["id"], id);

    let metrics = json(app.get("/api/metrics?period=all").await).await;
    assert_eq!(metrics["corrections"]["total"], 1, "{metrics}");
    assert_eq!(metrics["corrections"]["per_category"]["Need-Action"], 1);
    assert_eq!(metrics["corrections"]["per_category"]["FYI"], 0);
    // No run recorded any email: the rate has nothing to divide by.
    assert_eq!(metrics["corrections"]["rate"], 0.0);

    // Undo: the email goes back, the correction is marked, a second undo is a conflict.
    let res = delete(&app, &format!("/api/corrections/{id}")).await;
    assert_eq!(res.status(), 200);
    let undone = json(res).await;
    assert_eq!(undone["undone_by"], "anonymous");
    let digest = json(app.get("/api/digest").await).await;
    assert_eq!(ids_in(&digest, "FYI"), vec!["m3".to_owned()]);
    let back = &digest["categories"]["FYI"][0];
    assert!(
        !back["reasons"]
            .as_array()
            .map(|r| r
                .iter()
                .any(|r| r.as_str().unwrap().starts_with("corrected by")))
            .unwrap_or(false),
        "{back}"
    );
    let res = delete(&app, &format!("/api/corrections/{id}")).await;
    assert_eq!(res.status(), 409);
    let metrics = json(app.get("/api/metrics?period=all").await).await;
    assert_eq!(metrics["corrections"]["total"], 0, "{metrics}");
}

#[tokio::test]
async fn bad_corrections_are_4xx_with_the_error_shape() {
    let app = spawn_app().await;
    app.write_digest(&sample_digest());
    let cases: [(Value, u16, &str); 5] = [
        (
            json!({"email_id": "m1", "category": "Spam"}),
            400,
            "unknown category 'Spam'",
        ),
        (
            json!({"email_id": "nope", "category": "FYI"}),
            404,
            "no email with id 'nope'",
        ),
        (json!({"email_id": "m1"}), 400, "invalid JSON body"),
        (
            json!({"email_id": "m1", "category": "FYI", "x": 1}),
            400,
            "invalid JSON body",
        ),
        (
            json!({"email_id": "m3", "category": "FYI"}),
            409,
            "already in FYI",
        ),
    ];
    for (body, status, needle) in cases {
        let res = app.post_json("/api/corrections", &body).await;
        assert_eq!(res.status(), status, "{body}");
        let error = json(res).await;
        assert_eq!(error.as_object().unwrap().len(), 1, "{error}");
        assert!(error["error"].as_str().unwrap().contains(needle), "{error}");
    }
    let res = app
        .post_raw("/api/corrections", "text/plain", b"email_id=m1".to_vec())
        .await;
    assert_eq!(res.status(), 415);
    for path in [
        "/api/corrections/99",
        "/api/corrections/abc",
        "/api/corrections/-1",
    ] {
        let res = delete(&app, path).await;
        assert_eq!(res.status(), 404, "{path}");
        assert!(
            json(res).await["error"]
                .as_str()
                .unwrap()
                .starts_with("no correction")
        );
    }
    let res = app.get("/api/corrections?limit=0").await;
    assert_eq!(res.status(), 400);
    // Nothing was recorded, nothing moved.
    let list = json(app.get("/api/corrections").await).await;
    assert_eq!(list["corrections"], json!([]));
    assert_eq!(
        ids_in(&json(app.get("/api/digest").await).await, "FYI"),
        ["m3"]
    );
}

#[tokio::test]
async fn the_signed_in_user_is_recorded() {
    let app = spawn_app_with(&[
        ("DIGEST_BASIC_AUTH_USER", "ops"),
        ("DIGEST_BASIC_AUTH_PASSWORD", "pa:ss"),
    ])
    .await;
    app.write_digest(&sample_digest());
    let res = app
        .client
        .post(format!("{}/api/corrections", app.address))
        .basic_auth("ops", Some("pa:ss"))
        .json(&json!({"email_id": "m4", "category": "Newsletter"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    assert_eq!(json(res).await["created_by"], "ops");
    // Without credentials: 401, nothing recorded.
    let res = app
        .post_json(
            "/api/corrections",
            &json!({"email_id": "m1", "category": "FYI"}),
        )
        .await;
    assert_eq!(res.status(), 401);
}

#[tokio::test]
async fn the_next_real_refresh_applies_the_correction_to_the_sender() {
    let job = env!("CARGO_BIN_EXE_digest-refresh");
    let app = spawn_app_with(&[("DIGEST_REFRESH_COMMAND", job), ("DIGEST_SOURCE", "sample")]).await;
    assert_eq!(app.post("/api/refresh").await.status(), 200);
    let digest = json(app.get("/api/digest").await).await;
    let email = digest["categories"]["FYI"][0].clone();
    let sender = email["from"].as_str().unwrap().to_owned();
    let res = app
        .post_json(
            "/api/corrections",
            &json!({"email_id": email["id"], "category": "Promotional"}),
        )
        .await;
    assert_eq!(res.status(), 201);

    assert_eq!(app.post("/api/refresh").await.status(), 200);
    let digest = json(app.get("/api/digest").await).await;
    let from_sender: Vec<(&str, &Value)> = digest["categories"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(c, items)| {
            items
                .as_array()
                .unwrap()
                .iter()
                .map(move |e| (c.as_str(), e))
        })
        .filter(|(_, e)| e["from"].as_str().unwrap().eq_ignore_ascii_case(&sender))
        .collect();
    assert!(!from_sender.is_empty());
    for (category, e) in from_sender {
        assert_eq!(category, "Promotional", "{e}");
        assert!(
            e["reasons"][0]
                .as_str()
                .unwrap()
                .starts_with("corrected by anonymous on "),
            "{e}"
        );
    }
    let metrics = json(app.get("/api/metrics?period=all").await).await;
    let rate = metrics["corrections"]["rate"].as_f64().unwrap();
    assert!(rate > 0.0 && rate < 10.0, "{metrics}");
}
