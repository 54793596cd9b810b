use rusqlite::params;
use serde_json::json;

use crate::helpers::{json, spawn_app};

#[tokio::test]
async fn metrics_default_to_24h_with_every_field_and_category() {
    let app = spawn_app().await;
    let res = app.get("/api/metrics").await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        json(res).await,
        json!({
            "period": "24h",
            "metrics": {"emails_processed": 0, "api_calls": 0, "cache_hit_rate": 0.0,
                "avg_execution_time": 0.0, "success_rate": 0.0, "estimated_cost": 0.0,
                "script_run_count": 0, "error_count": 0},
            "category_breakdown": {"Need-Action": 0, "FYI": 0, "Newsletter": 0, "Promotional": 0, "Social": 0},
            "corrections": {"total": 0, "rate": 0.0,
                "per_category": {"Need-Action": 0, "FYI": 0, "Newsletter": 0, "Promotional": 0, "Social": 0}},
            "unsubscribes": {"total": 0, "done": 0, "failed": 0},
            "conversations": {"sent_mail_read": false, "need_action": 0, "answered": 0,
                "unanswered": 0, "waiting": 0, "waiting_days": 3}
        })
    );
}

#[tokio::test]
async fn metrics_count_only_the_periods_runs() {
    let app = spawn_app().await;
    let conn = app.store();
    let now = chrono::Utc::now().naive_utc();
    let at = |hours: i64| {
        (now - chrono::Duration::hours(hours))
            .format("%Y-%m-%dT%H:%M:%S")
            .to_string()
    };
    for (hours, status, counts) in [
        (1, "success", r#"{"FYI": 3}"#),
        (30, "error", "{}"),
        (24 * 30, "success", r#"{"Social": 2}"#),
    ] {
        conn.execute(
            "INSERT INTO runs (started_at, status, emails_processed, api_calls, cache_hits, cache_lookups,
                               estimated_cost, execution_time, category_counts)
             VALUES (?1, ?2, 5, 2, 1, 4, 0.5, 3.0, ?3)",
            params![at(hours), status, counts],
        )
        .unwrap();
    }
    let day = json(app.get("/api/metrics?period=24h").await).await;
    assert_eq!(day["metrics"]["script_run_count"], 1);
    assert_eq!(day["metrics"]["cache_hit_rate"], 25.0);
    assert_eq!(day["category_breakdown"]["FYI"], 3);
    let week = json(app.get("/api/metrics?period=7d").await).await;
    assert_eq!(week["period"], "7d");
    assert_eq!(week["metrics"]["script_run_count"], 2);
    assert_eq!(week["metrics"]["success_rate"], 50.0);
    let all = json(app.get("/api/metrics?period=all").await).await;
    assert_eq!(all["metrics"]["script_run_count"], 3);
    assert_eq!(all["metrics"]["estimated_cost"], 1.5);
    assert_eq!(all["category_breakdown"]["Social"], 2);
}

#[tokio::test]
async fn an_unknown_period_is_400_naming_the_allowed_values() {
    let app = spawn_app().await;
    let res = app.get("/api/metrics?period=1y").await;
    assert_eq!(res.status(), 400);
    assert_eq!(
        json(res).await,
        json!({"error": "unknown period '1y': allowed values are 24h, 7d, all"})
    );
}

fn insert_errors(app: &crate::helpers::TestApp, n: usize) {
    let mut conn = app.store();
    let tx = conn.transaction().unwrap();
    for i in 0..n {
        tx.execute(
            "INSERT INTO errors (timestamp, module, error_type, message, traceback)
             VALUES (?1, 'imap', 'Login', ?2, ?3)",
            params![
                format!(
                    "2026-11-{:02}T{:02}:{:02}:00",
                    1 + i / 1440 % 28,
                    i / 60 % 24,
                    i % 60
                ),
                format!("error {i}"),
                (i == 0).then_some("at line 1")
            ],
        )
        .unwrap();
    }
    tx.commit().unwrap();
}

#[tokio::test]
async fn errors_are_newest_first_default_10_and_clamped_at_100() {
    let app = spawn_app().await;
    assert_eq!(
        json(app.get("/api/errors").await).await,
        json!({"errors": []})
    );
    insert_errors(&app, 120);
    let body = json(app.get("/api/errors").await).await;
    let errors = body["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 10);
    assert_eq!(errors[0]["message"], "error 119");
    assert_eq!(errors[1]["message"], "error 118");
    assert!(errors[0].get("traceback").is_none());
    assert_eq!(
        errors[0].as_object().unwrap().keys().collect::<Vec<_>>(),
        ["error_type", "message", "module", "timestamp"]
    );
    let three = json(app.get("/api/errors?limit=3").await).await;
    assert_eq!(three["errors"].as_array().unwrap().len(), 3);
    let many = json(app.get("/api/errors?limit=500").await).await;
    assert_eq!(many["errors"].as_array().unwrap().len(), 100);
    let oldest = json(app.get("/api/errors?limit=120").await).await;
    assert_eq!(oldest["errors"][99]["message"], "error 20");
}

#[tokio::test]
async fn a_limit_that_is_not_a_positive_integer_is_400() {
    let app = spawn_app().await;
    for bad in ["0", "-3", "abc", "2.5", ""] {
        let res = app.get(&format!("/api/errors?limit={bad}")).await;
        assert_eq!(res.status(), 400, "limit={bad}");
        let body = json(res).await;
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .starts_with("limit must be a positive integer"),
            "{body}"
        );
    }
}
