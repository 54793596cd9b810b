//! Acting on mail against real components on loopback: the real refresh job over a Maildir
//! (with a `.Sent` folder) built here, an HTTPS one-click endpoint with a test CA, an SMTP
//! sink; the API's answers to good and bad input; "waiting for a reply" in the digest JSON
//! and `/api/metrics`.

use chrono::{Duration, Utc};
use digest_web::job::mail::MailSource;
use digest_web::job::{self, RefreshOptions};
use digest_web::store::window::Window;
use serde_json::{Value, json};

use crate::helpers::{TestApp, spawn_app_with};
use crate::servers::{OneClickServer, SmtpSink};

pub const OWNER: &str = "dana@example.com";
pub const NEWS: &str = "news@letters.example";
pub const SHOP: &str = "deals@shop.example";
pub const EVIL: &str = "evil@bad.example";
pub const BOSS: &str = "boss@corp.example";

fn message(headers: &[(&str, String)], body: &str) -> String {
    let mut text = String::new();
    for (k, v) in headers {
        text.push_str(&format!("{k}: {v}\r\n"));
    }
    text.push_str("Content-Type: text/plain; charset=utf-8\r\n\r\n");
    text.push_str(body);
    text.push_str("\r\n");
    text
}

fn date(days_ago: i64) -> String {
    (Utc::now() - Duration::days(days_ago)).to_rfc2822()
}

/// A Maildir with one newsletter offering one-click at `one_click` (an https URL), a shop
/// offering only mailto:, a sender with hostile headers, a Need-Action question and, in
/// `.Sent`, the owner's answer to it and an unanswered question of their own.
pub fn write_mailbox(root: &std::path::Path, one_click: &str) {
    for dir in ["cur", "new", "tmp", ".Sent/cur", ".Sent/new", ".Sent/tmp"] {
        std::fs::create_dir_all(root.join(dir)).unwrap();
    }
    let put = |name: &str, text: String| std::fs::write(root.join(name), text).unwrap();
    for (i, days) in [(1, 2), (2, 1)] {
        put(
            &format!("cur/news{i}:2,S"),
            message(
                &[
                    ("From", format!("Letters Weekly <{NEWS}>")),
                    ("To", OWNER.into()),
                    ("Subject", format!("Letters Weekly issue #{i}")),
                    ("Date", date(days)),
                    ("Message-ID", format!("<news{i}@letters.example>")),
                    ("List-Id", "Letters Weekly <weekly.letters.example>".into()),
                    (
                        "List-Unsubscribe",
                        format!("<{one_click}>, <mailto:leave@letters.example>"),
                    ),
                    ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click".into()),
                ],
                "This week's stories: <b>bold</b> reading.",
            ),
        );
    }
    put(
        "cur/shop:2,S",
        message(
            &[
                ("From", format!("Shop <{SHOP}>")),
                ("To", OWNER.into()),
                ("Subject", "50% off everything".into()),
                ("Date", date(1)),
                ("Message-ID", "<deal1@shop.example>".into()),
                (
                    "List-Unsubscribe",
                    "<mailto:leave@shop.example?subject=unsubscribe%20me>".into(),
                ),
            ],
            "Prices slashed this weekend.",
        ),
    );
    put(
        "cur/evil:2,S",
        message(
            &[
                ("From", format!("<{EVIL}>")),
                ("To", OWNER.into()),
                ("Subject", "<script>alert('x')</script> Deals".into()),
                ("Date", date(1)),
                ("Message-ID", "<evil1@bad.example>".into()),
                (
                    "List-Unsubscribe",
                    "<javascript:alert(1)>, <http://10.0.0.1/u>, <https://10.0.0.2/u>, <https://[::ffff:192.168.1.1]/u>, <mailto:a@bad.example?bcc=victim@example.com>".into(),
                ),
                ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click".into()),
            ],
            "Buy now.",
        ),
    );
    put(
        "cur/question:2,S",
        message(
            &[
                ("From", format!("Boss <{BOSS}>")),
                ("To", OWNER.into()),
                ("Subject", "Approve the Q3 budget?".into()),
                ("Date", date(3)),
                ("Message-ID", "<q1@corp.example>".into()),
            ],
            "Can you approve the budget by Friday?",
        ),
    );
    put(
        "cur/question2:2,S",
        message(
            &[
                ("From", format!("Boss <{BOSS}>")),
                ("To", OWNER.into()),
                ("Subject", "Sign the vendor form?".into()),
                ("Date", date(2)),
                ("Message-ID", "<q2@corp.example>".into()),
            ],
            "Please sign the vendor form today.",
        ),
    );
    put(
        ".Sent/cur/answer:2,S",
        message(
            &[
                ("From", format!("Dana <{OWNER}>")),
                ("To", BOSS.into()),
                ("Subject", "Re: Approve the Q3 budget?".into()),
                ("Date", date(2)),
                ("Message-ID", "<a1@example.com>".into()),
                ("In-Reply-To", "<q1@corp.example>".into()),
                ("References", "<q1@corp.example>".into()),
            ],
            "Approved.",
        ),
    );
    put(
        ".Sent/cur/ask:2,S",
        message(
            &[
                ("From", format!("Dana <{OWNER}>")),
                ("To", "lawyer@firm.example".into()),
                ("Subject", "Contract draft".into()),
                ("Date", date(5)),
                ("Message-ID", "<ask1@example.com>".into()),
            ],
            "Could you send the draft?",
        ),
    );
}

/// The categories of the test's senders, as user rules (what the categoriser would decide is
/// not this test's subject).
pub fn write_rules(path: &std::path::Path) {
    std::fs::write(
        path,
        format!(
            "[senders]\n\"{NEWS}\" = \"Newsletter\"\n\"{SHOP}\" = \"Promotional\"\n\"{EVIL}\" = \"Promotional\"\n\"{BOSS}\" = \"Need-Action\"\n"
        ),
    )
    .unwrap();
}

/// Builds the mailbox in `app`'s temp space and runs the real refresh job over it into
/// `app`'s data dir.
pub fn refresh(app: &TestApp, one_click: &str) -> tempfile::TempDir {
    let mail = tempfile::tempdir().unwrap();
    write_mailbox(mail.path(), one_click);
    write_rules(&mail.path().join("rules.toml"));
    run_job(app, mail.path());
    mail
}

/// Runs the real refresh job over the Maildir at `root` (with its rules) into `app`'s data.
pub fn run_job(app: &TestApp, root: &std::path::Path) {
    let mut options = RefreshOptions::new(MailSource::Maildir(root.into()), app.data_dir());
    options.window = Window::All;
    options.rules_file = Some(root.join("rules.toml"));
    options.owner_addresses = vec![OWNER.into()];
    options.embedding_model = None;
    job::run(&options).expect("the refresh job runs");
}

/// Delivers one more issue of the newsletter, sent now.
pub fn deliver_newsletter(root: &std::path::Path, n: u32) {
    std::fs::write(
        root.join(format!("cur/news-later{n}:2,S")),
        message(
            &[
                ("From", format!("Letters Weekly <{NEWS}>")),
                ("To", OWNER.into()),
                ("Subject", format!("Letters Weekly issue #{}", 10 + n)),
                ("Date", date(0)),
                ("Message-ID", format!("<later{n}@letters.example>")),
            ],
            "More stories.",
        ),
    )
    .unwrap();
}

/// The app, with the loopback networks opened and the test CA trusted, plus `extra`.
pub async fn spawn(server: &OneClickServer, extra: &[(&str, &str)]) -> TestApp {
    let ca = server.ca_file.path().display().to_string();
    let mut vars = vec![
        ("DIGEST_UNSUBSCRIBE_ALLOW", "127.0.0.0/8, ::1/128"),
        ("DIGEST_UNSUBSCRIBE_CA_FILE", ca.as_str()),
        ("DIGEST_UNSUBSCRIBE_TIMEOUT_SECS", "5"),
        ("DIGEST_OWNER_ADDRESSES", OWNER),
    ];
    vars.extend_from_slice(extra);
    spawn_app_with(&vars).await
}

fn sender<'a>(list: &'a Value, who: &str) -> &'a Value {
    list["senders"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["sender"] == who)
        .unwrap_or_else(|| panic!("{who} not listed: {list:#}"))
}

#[tokio::test]
async fn one_click_posts_once_over_https_and_is_recorded_and_shown() {
    let server = OneClickServer::start(200, None).await;
    let url = format!("https://localhost:{}/unsub?u=a1", server.port);
    let app = spawn(&server, &[]).await;
    let _mail = refresh(&app, &url);

    let list: Value = app.get("/api/unsubscribe").await.json().await.unwrap();
    let news = sender(&list, NEWS);
    assert_eq!(news["count"], 2);
    assert_eq!(news["category"], "Newsletter");
    assert_eq!(news["can_unsubscribe"], true);
    assert_eq!(news["method"], "one-click");
    assert_eq!(news["target"], url.as_str());
    assert_eq!(list["smtp_enabled"], false);
    assert!(
        list["smtp_off_reason"]
            .as_str()
            .unwrap()
            .contains("SMTP_URL is not set")
    );
    let shop = sender(&list, SHOP);
    assert_eq!(shop["can_unsubscribe"], false);
    assert!(
        shop["reason"].as_str().unwrap().contains("SMTP_URL"),
        "{shop}"
    );
    let evil = sender(&list, EVIL);
    assert_eq!(evil["can_unsubscribe"], false);
    let why = evil["reason"].as_str().unwrap();
    for needle in [
        "javascript:",
        "http:, not https:",
        "a private address 10.0.0.2",
        "192.168.1.1",
        "adds recipients",
    ] {
        assert!(why.contains(needle), "{needle} missing from: {why}");
    }
    assert!(server.seen().is_empty(), "listing contacted the target");

    let res = app
        .post_json("/api/unsubscribe", &json!({"sender": NEWS}))
        .await;
    assert_eq!(res.status(), 201);
    let done: Value = res.json().await.unwrap();
    assert_eq!(done["sender"], NEWS);
    assert_eq!(done["method"], "one-click");
    assert_eq!(done["outcome"], "done");
    assert_eq!(done["answer_status"], 200);
    assert_eq!(done["created_by"], "anonymous");
    let seen = server.seen();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0].method, "POST");
    assert_eq!(seen[0].path, "/unsub?u=a1");
    assert_eq!(seen[0].content_type, "application/x-www-form-urlencoded");
    assert_eq!(seen[0].body, "List-Unsubscribe=One-Click");

    // Shown, and not done twice.
    let list: Value = app.get("/api/unsubscribe").await.json().await.unwrap();
    assert_eq!(sender(&list, NEWS)["unsubscribed"]["id"], done["id"]);
    assert_eq!(list["unsubscribes"][0]["id"], done["id"]);
    let again = app
        .post_json("/api/unsubscribe", &json!({"sender": NEWS}))
        .await;
    assert_eq!(again.status(), 409);
    assert!(
        again.json::<Value>().await.unwrap()["error"]
            .as_str()
            .unwrap()
            .contains("already unsubscribed")
    );
    assert_eq!(server.seen().len(), 1);

    // The digest JSON and the page carry it; the sender's mail is marked.
    let digest: Value = app.get("/api/digest").await.json().await.unwrap();
    assert_eq!(
        digest["categories"]["Newsletter"].as_array().unwrap().len(),
        2
    );
    let row = digest["unsubscribe"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["sender"] == NEWS)
        .unwrap();
    assert_eq!(row["unsubscribed"]["outcome"], "done");
    let page = app.get("/").await.text().await.unwrap();
    let day = &done["created_at"].as_str().unwrap()[..10];
    assert!(
        page.contains(&format!("unsubscribed on {day}")),
        "no mark on the page"
    );
    assert!(
        !page.contains("<script>alert('x')</script>"),
        "email content unescaped"
    );
    let metrics: Value = app
        .get("/api/metrics?period=24h")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        metrics["unsubscribes"],
        json!({"total": 1, "done": 1, "failed": 0})
    );
}

#[tokio::test]
async fn mailto_goes_through_the_smtp_server_and_refusals_touch_nothing() {
    let server = OneClickServer::start(200, None).await;
    let sink = SmtpSink::start().await;
    let smtp = format!("smtp://127.0.0.1:{}", sink.port);
    let app = spawn(&server, &[("SMTP_URL", smtp.as_str())]).await;
    let _mail = refresh(&app, &format!("https://localhost:{}/u", server.port));

    let res = app
        .post_json("/api/unsubscribe", &json!({"sender": SHOP}))
        .await;
    assert_eq!(res.status(), 201);
    let done: Value = res.json().await.unwrap();
    assert_eq!(done["method"], "mailto");
    assert_eq!(done["target"], "leave@shop.example");
    assert_eq!(done["answer_status"], 250);
    let mail = sink.mail();
    assert_eq!(mail.len(), 1);
    assert_eq!(mail[0].to, vec!["<leave@shop.example>"]);
    assert_eq!(mail[0].from, format!("<{OWNER}>"));
    assert!(
        mail[0].data.contains("Subject: unsubscribe me"),
        "{}",
        mail[0].data
    );

    // Hostile headers: refused with the reason, logged in errors, nothing contacted.
    let res = app
        .post_json("/api/unsubscribe", &json!({"sender": EVIL}))
        .await;
    assert_eq!(res.status(), 422);
    let body: Value = res.json().await.unwrap();
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("cannot be unsubscribed"),
        "{body}"
    );
    let errors: Value = app.get("/api/errors?limit=5").await.json().await.unwrap();
    assert!(
        errors["errors"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["module"] == "unsubscribe" && e["message"].as_str().unwrap().contains(EVIL))
    );
    assert_eq!(sink.mail().len(), 1);
    assert!(server.seen().is_empty());
    let list: Value = app.get("/api/unsubscribe").await.json().await.unwrap();
    assert_eq!(
        list["unsubscribes"].as_array().unwrap().len(),
        1,
        "a refusal was recorded as an unsubscribe"
    );
}

#[tokio::test]
async fn without_the_allowlist_loopback_is_never_contacted_and_redirects_are_not_followed() {
    let server = OneClickServer::start(200, None).await;
    // Default settings: no allowlist. localhost resolves to loopback: refused.
    let ca = server.ca_file.path().display().to_string();
    let app = spawn_app_with(&[("DIGEST_UNSUBSCRIBE_CA_FILE", ca.as_str())]).await;
    let _mail = refresh(&app, &format!("https://localhost:{}/u", server.port));
    let res = app
        .post_json("/api/unsubscribe", &json!({"sender": NEWS}))
        .await;
    assert_eq!(res.status(), 422);
    let why = res.json::<Value>().await.unwrap()["error"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(why.contains("loopback"), "{why}");
    assert!(server.seen().is_empty());

    // A redirect is recorded as a failure, and its target never requested.
    let redirect = OneClickServer::start(302, Some("https://127.0.0.2/elsewhere")).await;
    let app = spawn(&redirect, &[]).await;
    let _mail = refresh(&app, &format!("https://localhost:{}/u", redirect.port));
    let res = app
        .post_json("/api/unsubscribe", &json!({"sender": NEWS}))
        .await;
    assert_eq!(res.status(), 502);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["unsubscribe"]["outcome"], "failed");
    assert_eq!(body["unsubscribe"]["answer_status"], 302);
    assert!(
        body["error"].as_str().unwrap().contains("not followed"),
        "{body}"
    );
    assert_eq!(redirect.seen().len(), 1);
    // A failed attempt can be tried again.
    let list: Value = app.get("/api/unsubscribe").await.json().await.unwrap();
    assert_eq!(sender(&list, NEWS)["can_unsubscribe"], true);
}

#[tokio::test]
async fn bad_input_is_a_4xx_with_the_error_body() {
    let server = OneClickServer::start(200, None).await;
    let app = spawn(&server, &[]).await;
    let _mail = refresh(&app, &format!("https://localhost:{}/u", server.port));
    for (body, status) in [
        ("{", 400),
        ("[]", 400),
        ("{\"sender\": 5}", 400),
        ("{\"sender\": null}", 400),
        ("{}", 400),
        ("{\"sender\": \"x@y\", \"extra\": 1}", 400),
        ("{\"sender\": \"  \"}", 400),
        ("{\"sender\": \"nobody@nowhere.example\"}", 404),
        ("{\"sender\": \"boss@corp.example\"}", 404),
    ] {
        let res = app
            .post_raw(
                "/api/unsubscribe",
                "application/json",
                body.as_bytes().to_vec(),
            )
            .await;
        assert_eq!(res.status(), status, "{body}");
        let answer: Value = res.json().await.unwrap();
        assert!(answer["error"].is_string(), "{body}: {answer}");
    }
    let big = format!("{{\"sender\": \"{}\"}}", "a".repeat(100 << 10));
    let res = app
        .post_raw("/api/unsubscribe", "application/json", big.into_bytes())
        .await;
    assert_eq!(res.status(), 413);
    let res = app
        .post_raw("/api/unsubscribe", "text/plain", b"{}".to_vec())
        .await;
    assert_eq!(res.status(), 415);
    let res = app
        .post_raw(
            "/unsubscribe",
            "application/x-www-form-urlencoded",
            b"nope=1".to_vec(),
        )
        .await;
    assert_eq!(res.status(), 400);
    // A cross-site form post is refused before anything happens.
    let res = app
        .client
        .post(format!("{}/unsubscribe", app.address))
        .header("sec-fetch-site", "cross-site")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(format!("sender={NEWS}"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    let res = app
        .client
        .post(format!("{}/api/unsubscribe", app.address))
        .header("origin", "https://attacker.example")
        .json(&json!({"sender": NEWS}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 403);
    assert!(server.seen().is_empty());
}

#[tokio::test]
async fn replies_and_waiting_come_from_the_sent_folder() {
    let server = OneClickServer::start(200, None).await;
    let app = spawn(&server, &[("DIGEST_WAITING_DAYS", "3")]).await;
    let _mail = refresh(&app, &format!("https://localhost:{}/u", server.port));
    let digest: Value = app.get("/api/digest").await.json().await.unwrap();
    assert_eq!(digest["sent_mail_read"], true);
    assert_eq!(
        digest["replies"]["q1@corp.example"]["answered"], true,
        "{:#}",
        digest["replies"]
    );
    assert_eq!(digest["replies"]["q2@corp.example"]["answered"], false);
    let waiting = digest["waiting"].as_array().unwrap();
    assert_eq!(waiting.len(), 1, "{waiting:?}");
    assert_eq!(waiting[0]["id"], "ask1@example.com");
    assert_eq!(waiting[0]["to"], json!(["lawyer@firm.example"]));
    assert_eq!(waiting[0]["days"], 5);
    let metrics: Value = app.get("/api/metrics").await.json().await.unwrap();
    assert_eq!(
        metrics["conversations"],
        json!({"sent_mail_read": true, "need_action": 2, "answered": 1, "unanswered": 1, "waiting": 1, "waiting_days": 3})
    );
    let page = app.get("/").await.text().await.unwrap();
    assert!(page.contains("You are waiting") && page.contains("Contract draft"));
    assert!(page.contains("not answered yet") && page.contains("answered on"));
}

#[tokio::test]
async fn two_clicks_at_once_unsubscribe_once() {
    let server = OneClickServer::start(200, None).await;
    let app = spawn(&server, &[]).await;
    let _mail = refresh(&app, &format!("https://localhost:{}/u", server.port));
    let body = json!({"sender": NEWS});
    let (a, b) = tokio::join!(
        app.post_json("/api/unsubscribe", &body),
        app.post_json("/api/unsubscribe", &body)
    );
    let mut statuses = [a.status().as_u16(), b.status().as_u16()];
    statuses.sort_unstable();
    assert_eq!(statuses, [201, 409]);
    assert_eq!(server.seen().len(), 1);
}
