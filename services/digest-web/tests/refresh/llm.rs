//! The refresh job with an LLM: a fake OpenAI-compatible endpoint (wiremock) on
//! loopback, the real `digest-refresh` binary on a copy of the sample Maildir.

use std::collections::HashMap;
use std::path::Path;
use std::process::Output;
use std::time::Duration;

use rusqlite::Connection;
use serde_json::Value;
use tempfile::TempDir;

use crate::fake_llm::{self, Behaviour};
use crate::helpers::*;

/// A copy of the sample Maildir and a data dir.
struct Setup {
    mail: TempDir,
    data: TempDir,
}

impl Setup {
    fn new() -> Self {
        let mail = tempfile::tempdir().unwrap();
        copy_sample(mail.path());
        Self {
            mail,
            data: tempfile::tempdir().unwrap(),
        }
    }

    /// Runs the job (off the async runtime, which serves the fake) with extra variables.
    async fn run(&self, env: Vec<(&'static str, String)>) -> Output {
        let source = format!("maildir:{}", self.mail.path().display());
        let data = self.data.path().to_str().unwrap().to_owned();
        tokio::task::spawn_blocking(move || {
            let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
            refresh(
                &["--source", &source, "--data-dir", &data, "--window", "all"],
                &env,
            )
        })
        .await
        .unwrap()
    }

    /// The digest of the same mailbox with no LLM (in its own data dir).
    async fn offline_digest(&self) -> Value {
        let other = Setup {
            mail: tempfile::tempdir().unwrap(),
            data: tempfile::tempdir().unwrap(),
        };
        copy_sample(other.mail.path());
        let out = other.run(Vec::new()).await;
        digest(&out, other.data.path())
    }
}

/// Message id → (offline category, offline confidence), from the message cache.
fn offline_answers(data: &Path) -> HashMap<String, (String, f64)> {
    let conn = Connection::open(data.join("runs.sqlite3")).unwrap();
    let mut stmt = conn
        .prepare("SELECT item, category, confidence FROM message_cache")
        .unwrap();
    stmt.query_map([], |r| {
        let item: String = r.get(0)?;
        Ok((item, r.get::<_, String>(1)?, r.get::<_, f64>(2)?))
    })
    .unwrap()
    .map(Result::unwrap)
    .map(|(item, category, confidence)| {
        let item: Value = serde_json::from_str(&item).unwrap();
        (
            item["id"].as_str().unwrap().to_owned(),
            (category, confidence),
        )
    })
    .collect()
}

/// (api_calls, llm_tokens, estimated_cost, llm_cache_hits, llm_cache_lookups, engine) of the
/// last run.
fn llm_figures(data: &Path) -> (i64, i64, f64, i64, i64, String) {
    last_run_columns(
        data,
        "api_calls, llm_tokens, estimated_cost, llm_cache_hits, llm_cache_lookups, engine",
    )
}

fn category_of(digest: &Value) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for (category, items) in digest["categories"].as_object().unwrap() {
        for item in items.as_array().unwrap() {
            out.insert(item["id"].as_str().unwrap().to_owned(), category.to_owned());
        }
    }
    out
}

fn non_empty_categories(digest: &Value) -> Vec<String> {
    digest["categories"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, items)| !items.as_array().unwrap().is_empty())
        .map(|(c, _)| c.clone())
        .collect()
}

async fn bodies(server: &wiremock::MockServer) -> Vec<Value> {
    server
        .received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .map(|r| serde_json::from_slice(&r.body).unwrap())
        .collect()
}

#[tokio::test]
async fn low_confidence_mail_is_categorised_and_summaries_written_then_all_cached() {
    let setup = Setup::new();
    let server = fake_llm::start(Behaviour::Good("Promotional")).await;
    let env = fake_llm::env(&format!("{}/v1", server.uri()));

    let out = setup.run(env.clone()).await;
    let first = digest(&out, setup.data.path());

    // Categories: the LLM's answer for every message below 0.9, the offline one for the rest.
    let offline = offline_answers(setup.data.path());
    let low = offline.values().filter(|(_, c)| *c < 0.9).count();
    assert!(low > 0 && low < offline.len(), "{low} of {}", offline.len());
    for (id, category) in category_of(&first) {
        let (offline_category, confidence) = &offline[&id];
        let expected = if *confidence < 0.9 {
            "Promotional"
        } else {
            offline_category.as_str()
        };
        assert_eq!(category, expected, "{id} (confidence {confidence})");
    }
    assert_eq!(first["categorised_by_llm"], low as u64);

    // Summaries: the LLM's for every non-empty category.
    let categories = non_empty_categories(&first);
    for category in &categories {
        assert_eq!(
            first["summaries"][category],
            fake_llm::summary_for(category).as_str()
        );
        assert_eq!(first["summary_engines"][category], "llm:fake-model");
    }
    assert_eq!(first["engine"], "llm:fake-model");

    // Accounting: every HTTP request, the tokens and the cost of this run.
    let requests = low.div_ceil(20) + categories.len();
    assert_eq!(bodies(&server).await.len(), requests);
    let (api_calls, tokens, cost, hits, lookups, engine) = llm_figures(setup.data.path());
    assert_eq!(api_calls, requests as i64);
    assert_eq!(first["stats"]["api_calls"], requests as u64);
    assert_eq!(
        tokens as u64,
        requests as u64 * (fake_llm::PROMPT_TOKENS + fake_llm::COMPLETION_TOKENS)
    );
    assert!(
        (cost - fake_llm::cost(requests as u64)).abs() < 1e-9,
        "{cost}"
    );
    assert_eq!((hits, lookups), (0, (low + categories.len()) as i64));
    assert_eq!(engine, "llm:fake-model");
    assert!(
        stdout(&out).contains("engine llm:fake-model"),
        "{}",
        stdout(&out)
    );
    assert!(errors(setup.data.path()).is_empty());

    // The second run asks nothing: every answer comes from the cache.
    let out = setup.run(env).await;
    let second = digest(&out, setup.data.path());
    assert_eq!(bodies(&server).await.len(), requests, "no new request");
    let (api_calls, tokens, cost, hits, lookups, engine) = llm_figures(setup.data.path());
    assert_eq!((api_calls, tokens, cost), (0, 0, 0.0));
    assert_eq!(second["stats"]["api_calls"], 0);
    assert_eq!((hits, lookups), (lookups, (low + categories.len()) as i64));
    assert_eq!(engine, "llm:fake-model");
    assert_eq!(second["categories"], first["categories"]);
    assert_eq!(second["summaries"], first["summaries"]);
    assert_eq!(second["engine"], "llm:fake-model");
}

#[tokio::test]
async fn only_the_needed_fields_are_sent_delimited_with_the_versioned_prompts() {
    let setup = Setup::new();
    let server = fake_llm::start(Behaviour::Good("FYI")).await;
    let out = setup
        .run(fake_llm::env(&format!("{}/v1", server.uri())))
        .await;
    let digest = digest(&out, setup.data.path());
    let requests = server.received_requests().await.unwrap();
    let classify_prompt = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("prompts/classify.v1.md"),
    )
    .unwrap();
    let summary_prompt = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("prompts/summary.v1.md"),
    )
    .unwrap();
    let message_ids: Vec<String> = offline_answers(setup.data.path()).into_keys().collect();
    let (mut classify, mut summaries) = (0, 0);
    for request in &requests {
        assert_eq!(
            request.headers.get("authorization").unwrap(),
            &format!("Bearer {}", fake_llm::KEY)
        );
        let raw = String::from_utf8_lossy(&request.body).into_owned();
        assert!(!raw.contains(fake_llm::KEY), "the key is not in the body");
        for id in &message_ids {
            assert!(!raw.contains(id.as_str()), "message id {id} sent");
        }
        let body: Value = serde_json::from_slice(&request.body).unwrap();
        assert_eq!(body["model"], fake_llm::MODEL);
        assert_eq!(body["messages"].as_array().unwrap().len(), 2);
        let user = fake_llm::user_text(&body);
        assert!(user.contains("BEGIN UNTRUSTED EMAILS\n["), "{user}");
        assert!(user.ends_with("]\nEND UNTRUSTED EMAILS"), "{user}");
        let emails = fake_llm::emails_in(&body);
        assert!(!emails.is_empty());
        for email in &emails {
            assert!(
                email["snippet"].as_str().unwrap().chars().count() <= 160,
                "{email}"
            );
        }
        if fake_llm::is_classify(&body) {
            classify += 1;
            assert_eq!(body["messages"][0]["content"], classify_prompt.as_str());
            let format = &body["response_format"];
            assert_eq!(format["type"], "json_schema");
            assert_eq!(format["json_schema"]["name"], "email_categories");
            let item = &format["json_schema"]["schema"]["properties"]["categories"]["items"];
            assert_eq!(
                item["properties"]["category"]["enum"],
                serde_json::json!(["Need-Action", "FYI", "Newsletter", "Promotional", "Social"])
            );
            for (n, email) in emails.iter().enumerate() {
                let mut keys: Vec<&String> = email.as_object().unwrap().keys().collect();
                keys.sort();
                assert_eq!(keys, ["from", "id", "snippet", "subject"]);
                assert_eq!(email["id"], (n + 1).to_string());
            }
        } else {
            summaries += 1;
            assert_eq!(body["messages"][0]["content"], summary_prompt.as_str());
            assert!(body.get("response_format").is_none());
            assert!(user.starts_with("Category: "), "{user}");
            for email in &emails {
                let mut keys: Vec<&String> = email.as_object().unwrap().keys().collect();
                keys.sort();
                assert_eq!(keys, ["from", "snippet", "subject"]);
            }
        }
    }
    assert_eq!(classify, 1);
    assert_eq!(summaries, non_empty_categories(&digest).len());
}

/// Runs the job against a failing endpoint and checks the run is the offline one, marked so,
/// with the failure recorded as an `llm` error of `error_type`.
async fn falls_back(base: &str, extra: &[(&'static str, &str)], error_type: &str) -> Setup {
    let setup = Setup::new();
    let mut env = fake_llm::env(base);
    env.extend(extra.iter().map(|(k, v)| (*k, (*v).to_owned())));
    let out = setup.run(env).await;
    let digest = digest(&out, setup.data.path());
    let offline = setup.offline_digest().await;
    assert_eq!(digest["categories"], offline["categories"]);
    assert_eq!(digest["summaries"], offline["summaries"]);
    assert_eq!(digest["engine"], "offline");
    assert!(digest.get("categorised_by_llm").is_none());
    let (status, ..) = last_run(setup.data.path());
    assert_eq!(status, "success");
    let (_, _, _, _, _, engine) = llm_figures(setup.data.path());
    assert_eq!(engine, "offline");
    let errors = errors(setup.data.path());
    assert!(
        errors
            .iter()
            .any(|(module, kind, _)| module == "llm" && kind == error_type),
        "{errors:?}"
    );
    assert!(
        errors.iter().all(|(module, ..)| module == "llm"),
        "{errors:?}"
    );
    for (_, _, message) in &errors {
        assert!(!message.contains(fake_llm::KEY), "{message}");
    }
    setup
}

#[tokio::test]
async fn llm_down_gives_the_offline_digest_and_an_llm_error() {
    // A port nothing listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let setup = falls_back(&format!("http://127.0.0.1:{port}/v1"), &[], "Unreachable").await;
    // After the endpoint failed, the summaries were not even tried.
    assert!(
        errors(setup.data.path())
            .iter()
            .any(|(_, kind, message)| kind == "Skipped" && message.starts_with("summarise")),
        "{:?}",
        errors(setup.data.path())
    );
}

#[tokio::test]
async fn llm_slower_than_the_budget_gives_the_offline_digest() {
    let server = fake_llm::start(Behaviour::Slow(Duration::from_secs(20))).await;
    falls_back(
        &format!("{}/v1", server.uri()),
        &[("LLM_REFRESH_BUDGET_SECS", "1"), ("LLM_TIMEOUT_SECS", "30")],
        "BudgetExceeded",
    )
    .await;
}

#[tokio::test]
async fn llm_garbage_gives_the_offline_digest() {
    let server = fake_llm::start(Behaviour::Garbage).await;
    let setup = falls_back(&format!("{}/v1", server.uri()), &[], "InvalidAnswer").await;
    // Both steps were tried and both answers rejected; nothing was cached.
    let rejected: Vec<String> = errors(setup.data.path())
        .into_iter()
        .map(|(_, _, message)| message)
        .collect();
    assert!(
        rejected.iter().any(|m| m.starts_with("categorising")),
        "{rejected:?}"
    );
    assert!(
        rejected.iter().any(|m| m.starts_with("summarising")),
        "{rejected:?}"
    );
    let conn = Connection::open(setup.data.path().join("runs.sqlite3")).unwrap();
    let cached: i64 = conn
        .query_row(
            "SELECT (SELECT count(*) FROM category_cache) + (SELECT count(*) FROM summary_cache)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(cached, 0);
}

#[tokio::test]
async fn invalid_categories_keep_the_offline_answers() {
    let server = fake_llm::start(Behaviour::InvalidCategory).await;
    let setup = falls_back(
        &format!("{}/v1", server.uri()),
        &[("LLM_REFRESH_SUMMARIES", "false")],
        "InvalidAnswer",
    )
    .await;
    let errors = errors(setup.data.path());
    assert!(
        errors.iter().any(|(_, _, m)| m.contains("Urgent")),
        "{errors:?}"
    );
}

#[test]
fn a_bad_llm_configuration_exits_2_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    for (env, needle) in [
        (vec![("LLM_BASE_URL", "http://127.0.0.1:9/v1")], "LLM_MODEL"),
        (
            vec![
                ("LLM_BASE_URL", "http://127.0.0.1:9/v1"),
                ("LLM_MODEL", "m"),
                ("LLM_REFRESH_BUDGET_SECS", "soon"),
            ],
            "LLM_REFRESH_BUDGET_SECS",
        ),
        (
            vec![
                ("LLM_BASE_URL", "http://127.0.0.1:9/v1"),
                ("LLM_MODEL", "m"),
                ("LLM_CLASSIFY_BELOW", "2"),
            ],
            "LLM_CLASSIFY_BELOW",
        ),
    ] {
        let out = refresh(&["--data-dir", data], &env);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{err}");
        assert!(!dir.path().join("digest.json").exists());
    }
}

#[tokio::test]
async fn the_call_cap_stops_calls_and_the_rest_stays_offline() {
    let setup = Setup::new();
    let server = fake_llm::start(Behaviour::Good("Promotional")).await;
    let mut env = fake_llm::env(&format!("{}/v1", server.uri()));
    env.push(("LLM_REFRESH_MAX_CALLS", "1".to_owned()));
    let out = setup.run(env).await;
    let digest = digest(&out, setup.data.path());
    // The one call categorised; every summary is the extractive one.
    assert_eq!(bodies(&server).await.len(), 1);
    assert_eq!(digest["engine"], "llm:fake-model");
    assert!(digest["categorised_by_llm"].as_u64().unwrap() > 0);
    for (category, engine) in digest["summary_engines"].as_object().unwrap() {
        assert_eq!(engine, "offline", "{category}");
        assert!(
            !digest["summaries"][category]
                .as_str()
                .unwrap()
                .starts_with("LLM")
        );
    }
    let errors = errors(setup.data.path());
    assert!(
        errors
            .iter()
            .any(|(m, kind, _)| m == "llm" && kind == "CallCapReached"),
        "{errors:?}"
    );
}
