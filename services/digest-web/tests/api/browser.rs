//! The pages in a real headless Chromium, driven over W3C WebDriver by Debian's
//! `chromedriver` (a thin client over reqwest: the handful of commands used here do not
//! justify fantoccini's dependency tree). Screenshots go to `docs/screenshots/` (gitignored).

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::{Value, json};

use crate::helpers::{TestApp, sample_digest, spawn_app_with};
use test_support::process::free_port;

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// `chromedriver` on a free loopback port; killed (by PID) on drop.
struct Driver {
    child: Child,
    base: String,
    http: reqwest::Client,
    _profile: tempfile::TempDir,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Session<'a> {
    driver: &'a Driver,
    url: String,
}

impl Driver {
    async fn start() -> Self {
        let port = free_port();
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver not found: install Debian's chromium and chromium-driver (scripts/setup/install-deps.sh test)");
        let driver = Self {
            child,
            base: format!("http://127.0.0.1:{port}"),
            http: reqwest::Client::new(),
            _profile: tempfile::tempdir().unwrap(),
        };
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            if let Ok(res) = driver
                .http
                .get(format!("{}/status", driver.base))
                .send()
                .await
                && res.status().is_success()
            {
                break;
            }
            assert!(Instant::now() < deadline, "chromedriver did not start");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        driver
    }

    async fn session(&self) -> Session<'_> {
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            "--window-size=1280,2000",
            &format!("--user-data-dir={}", self._profile.path().display()),
        ];
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": "/usr/bin/chromium", "args": args}
        }}});
        let res: Value = self
            .http
            .post(format!("{}/session", self.base))
            .json(&caps)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let id = res["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {res}"));
        Session {
            driver: self,
            url: format!("{}/session/{id}", self.base),
        }
    }
}

impl Session<'_> {
    async fn cmd(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> (u16, Value) {
        let mut req = self
            .driver
            .http
            .request(method, format!("{}{path}", self.url));
        if let Some(body) = body {
            req = req.json(&body);
        }
        let res = req.send().await.unwrap();
        let status = res.status().as_u16();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    async fn ok(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let (status, value) = self.cmd(method, path, body).await;
        assert_eq!(status, 200, "{path}: {value}");
        value["value"].clone()
    }

    async fn goto(&self, url: &str) {
        self.ok(reqwest::Method::POST, "/url", Some(json!({"url": url})))
            .await;
    }

    /// The WebDriver id of the first element matching `css`.
    async fn element(&self, css: &str) -> String {
        let el = self
            .ok(
                reqwest::Method::POST,
                "/element",
                Some(json!({"using": "css selector", "value": css})),
            )
            .await;
        el[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("no element {css}: {el}"))
            .to_owned()
    }

    async fn click(&self, css: &str) {
        let id = self.element(css).await;
        self.ok(
            reqwest::Method::POST,
            &format!("/element/{id}/click"),
            Some(json!({})),
        )
        .await;
    }

    /// Sends keys (WebDriver key codes, e.g. `\u{E007}` for Enter) to an element.
    async fn keys(&self, css: &str, text: &str) {
        let id = self.element(css).await;
        self.ok(
            reqwest::Method::POST,
            &format!("/element/{id}/value"),
            Some(json!({"text": text})),
        )
        .await;
    }

    async fn js(&self, script: &str) -> Value {
        self.ok(
            reqwest::Method::POST,
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
        .await
    }

    /// Polls `script` (a JS expression) until it is true.
    async fn wait_for(&self, expr: &str, secs: u64) {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            // Navigation in progress answers errors: keep polling.
            let (status, value) = self
                .cmd(
                    reqwest::Method::POST,
                    "/execute/sync",
                    Some(json!({"script": format!("return !!({expr});"), "args": []})),
                )
                .await;
            if status == 200 && value["value"] == json!(true) {
                return;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {expr}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    async fn no_alert(&self) -> bool {
        let (status, value) = self.cmd(reqwest::Method::GET, "/alert/text", None).await;
        status == 404 && value["value"]["error"] == "no such alert"
    }

    async fn dark(&self, on: bool) {
        let value = if on { "dark" } else { "light" };
        self.ok(
            reqwest::Method::POST,
            "/goog/cdp/execute",
            Some(json!({"cmd": "Emulation.setEmulatedMedia",
                "params": {"features": [{"name": "prefers-color-scheme", "value": value}]}})),
        )
        .await;
    }

    async fn screenshot(&self, name: &str) {
        let data = self.ok(reqwest::Method::GET, "/screenshot", None).await;
        let png = base64::engine::general_purpose::STANDARD
            .decode(data.as_str().unwrap())
            .unwrap();
        assert!(png.starts_with(b"\x89PNG"));
        let dir = PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/screenshots"
        ));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(name), png).unwrap();
    }

    async fn quit(self) {
        let _ = self.cmd(reqwest::Method::DELETE, "", None).await;
    }
}

/// A refresh command that takes a moment, then writes the sample digest as the job does.
fn slow_writer(fixtures: &std::path::Path) -> String {
    let src = fixtures.join("digest.json");
    std::fs::write(&src, serde_json::to_vec(&sample_digest()).unwrap()).unwrap();
    format!(
        "sleep 2.5; cp '{}' \"$DIGEST_DATA_DIR/d.tmp\" && mv \"$DIGEST_DATA_DIR/d.tmp\" \"$DIGEST_DATA_DIR/digest.json\" && echo 'digest rebuilt'",
        src.display()
    )
}

/// Starts a refresh through the API (another client) and waits until it holds the lock.
async fn background_refresh(app: &TestApp) -> tokio::task::JoinHandle<reqwest::StatusCode> {
    let client = app.client.clone();
    let url = format!("{}/api/refresh", app.address);
    let handle = tokio::spawn(async move { client.post(url).send().await.unwrap().status() });
    let deadline = Instant::now() + Duration::from_secs(5);
    while !app.data_dir().join("refresh.lock").exists() {
        assert!(Instant::now() < deadline, "the other refresh never started");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    handle
}

#[tokio::test]
async fn pages_work_in_a_real_browser() {
    let fixtures = tempfile::tempdir().unwrap();
    let command = slow_writer(fixtures.path());
    let app: TestApp = spawn_app_with(&[("DIGEST_REFRESH_COMMAND", command.as_str())]).await;
    let failing = spawn_app_with(&[(
        "DIGEST_REFRESH_COMMAND",
        "echo 'IMAP login failed for ops@example.com' >&2; exit 1",
    )])
    .await;
    let slow = spawn_app_with(&[
        ("DIGEST_REFRESH_COMMAND", "sleep 30"),
        ("DIGEST_REFRESH_TIMEOUT_SECS", "1"),
    ])
    .await;
    let driver = Driver::start().await;
    let s = driver.session().await;

    // The empty digest page.
    s.goto(&app.address).await;
    s.wait_for("document.querySelector('#empty-state')", 5)
        .await;
    s.screenshot("digest-empty.png").await;

    // Refresh: the button disables, progress shows, and the page updates when done.
    s.click("#refresh-button").await;
    assert_eq!(
        s.js("return document.querySelector('#refresh-button').disabled")
            .await,
        json!(true)
    );
    s.wait_for(
        "document.querySelector('#refresh-progress').textContent.includes('Refreshing')",
        3,
    )
    .await;
    s.wait_for("document.querySelectorAll('li.email').length === 4", 20)
        .await;
    assert_eq!(
        s.js("return !!document.querySelector('#empty-state')")
            .await,
        json!(false)
    );
    assert_eq!(
        s.js("return document.querySelector('#refresh-button').disabled")
            .await,
        json!(false)
    );

    // Escaping: the script subject is visible text and never ran.
    assert!(
        s.no_alert().await,
        "an alert is open: the subject's script ran"
    );
    let subjects = s
        .js("return [...document.querySelectorAll('.subject')].map(e => e.textContent)")
        .await;
    assert!(
        subjects
            .as_array()
            .unwrap()
            .contains(&json!("<script>alert(1)</script>")),
        "{subjects}"
    );
    assert_eq!(
        s.js("return document.querySelectorAll('main script').length")
            .await,
        json!(0)
    );
    assert_eq!(
        s.js("return document.querySelector('#m-runs').textContent")
            .await,
        json!("1")
    );
    s.screenshot("digest.png").await;

    // Clicked while another client's refresh runs: the 409 is a readable message, the page
    // waits for that refresh and reloads when it ends (the run count goes to 2).
    let other = background_refresh(&app).await;
    s.click("#refresh-button").await;
    s.wait_for(
        "document.querySelector('#refresh-progress').textContent.includes('A refresh is already running')",
        5,
    )
    .await;
    s.wait_for("document.querySelector('#m-runs').textContent === '2'", 20)
        .await;
    assert_eq!(other.await.unwrap(), 200);

    // Opened while another client's refresh runs: the button starts disabled, the page polls
    // the status and reloads when that refresh ends.
    let other = background_refresh(&app).await;
    s.goto(&app.address).await;
    assert_eq!(
        s.js("return document.querySelector('#refresh-button').disabled")
            .await,
        json!(true)
    );
    s.wait_for("document.querySelector('#m-runs').textContent === '3'", 20)
        .await;
    assert_eq!(other.await.unwrap(), 200);
    assert_eq!(
        s.js("return document.querySelector('#refresh-button').disabled")
            .await,
        json!(false)
    );
    s.dark(true).await;
    s.screenshot("digest-dark.png").await;
    s.dark(false).await;

    // A failing refresh shows the job's message.
    s.goto(&failing.address).await;
    s.click("#refresh-button").await;
    s.wait_for(
        "document.querySelector('#refresh-progress').textContent.includes('The refresh failed: IMAP login failed')",
        10,
    )
    .await;
    // The page reloaded with the failed run in the error list, the message kept.
    s.wait_for(
        "document.querySelector('#errors').textContent.includes('IMAP login failed')",
        10,
    )
    .await;
    s.wait_for(
        "document.querySelector('#refresh-progress').textContent.includes('The refresh failed')",
        5,
    )
    .await;
    s.screenshot("digest-refresh-failed.png").await;

    // A refresh over the limit: the 504 is a readable message too.
    s.goto(&slow.address).await;
    s.click("#refresh-button").await;
    s.wait_for(
        "document.querySelector('#refresh-progress').textContent.includes('took too long and was stopped')",
        15,
    )
    .await;

    // Run the basic suite from /tests and see its results.
    s.goto(&format!("{}/tests", app.address)).await;
    s.wait_for("document.querySelector('#latest-summary')", 5)
        .await;
    s.click("button[data-suite=basic]").await;
    s.wait_for(
        "document.querySelector('#latest-summary').textContent.includes('Suite basic')",
        30,
    )
    .await;
    let summary = s
        .js("return document.querySelector('#latest-summary').textContent")
        .await;
    assert!(summary.as_str().unwrap().contains("passed"), "{summary}");
    s.screenshot("tests.png").await;
    s.quit().await;
}

/// Top edges of every email and section, to see that opening the reasons moves nothing.
const LAYOUT: &str = "return [...document.querySelectorAll('li.email, section.category')].map(e => Math.round(e.getBoundingClientRect().top))";

#[tokio::test]
async fn emails_show_their_reasons_and_move_in_one_click_and_back() {
    let app: TestApp = spawn_app_with(&[("DIGEST_REFRESH_COMMAND", "true")]).await;
    let mut digest = sample_digest();
    digest["categories"]["FYI"][0]["reasons"] = json!([
        "Auto-Submitted: auto-generated",
        "<img src=x onerror=alert(9)>"
    ]);
    app.write_digest(&digest);
    let driver = Driver::start().await;
    let s = driver.session().await;
    s.goto(&app.address).await;
    s.wait_for("document.querySelectorAll('li.email').length === 4", 5)
        .await;
    // A marker that a reload would lose.
    s.js("window.notReloaded = true; return true").await;

    // Reasons on demand: a keyboard-reachable disclosure whose popover moves nothing.
    let before = s.js(LAYOUT).await;
    let summary = "li[data-id=m3] details.reasons summary";
    assert_eq!(
        s.js(&format!(
            "const e = document.querySelector('{summary}'); e.focus(); return document.activeElement === e"
        ))
        .await,
        json!(true)
    );
    s.keys(summary, "\u{E007}").await;
    s.wait_for(
        "document.querySelector('li[data-id=m3] details.reasons').open",
        3,
    )
    .await;
    let shown = s
        .js("return document.querySelector('li[data-id=m3] details.reasons ul').innerText")
        .await;
    assert!(
        shown
            .as_str()
            .unwrap()
            .contains("Auto-Submitted: auto-generated")
            && shown
                .as_str()
                .unwrap()
                .contains("<img src=x onerror=alert(9)>"),
        "{shown}"
    );
    assert!(s.no_alert().await, "a reason's markup ran");
    assert_eq!(
        s.js(LAYOUT).await,
        before,
        "opening the reasons moved the list"
    );
    s.screenshot("digest-reasons.png").await;
    s.keys(summary, "\u{E007}").await;
    s.wait_for(
        "!document.querySelector('li[data-id=m3] details.reasons').open",
        3,
    )
    .await;

    // Move m3 from FYI to Need-Action with its category control: it moves without a reload.
    s.click("li[data-id=m3] select.move-to option[value='Need-Action']")
        .await;
    s.wait_for(
        "document.querySelector('section[data-category=\"Need-Action\"] li[data-id=m3]')",
        5,
    )
    .await;
    s.wait_for(
        "document.querySelector('#correction-toast').textContent.includes('Moved to Need-Action')",
        5,
    )
    .await;
    assert_eq!(
        s.js("return window.notReloaded === true").await,
        json!(true)
    );
    assert_eq!(
        s.js("return [...document.querySelectorAll('section.category .count')].map(e => e.textContent)")
            .await,
        json!(["3", "0", "0", "1", "0"])
    );
    assert_eq!(
        s.js("return document.querySelector('section[data-category=FYI] p.none').hidden")
            .await,
        json!(false)
    );
    let reason = s
        .js("return document.querySelector('li[data-id=m3] details.reasons li').textContent")
        .await;
    assert!(
        reason
            .as_str()
            .unwrap()
            .starts_with("corrected by anonymous on "),
        "{reason}"
    );
    let stored = crate::helpers::json(app.get("/api/digest").await).await;
    assert!(
        stored["categories"]["Need-Action"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["id"] == "m3")
    );
    s.screenshot("digest-corrected.png").await;

    // Undo from the toast: back in FYI, still no reload, the correction marked undone.
    s.click("#correction-toast button.undo").await;
    s.wait_for(
        "document.querySelector('section[data-category=FYI] li[data-id=m3]')",
        5,
    )
    .await;
    s.wait_for(
        "document.querySelector('#correction-toast').textContent.includes('Moved back to FYI')",
        5,
    )
    .await;
    assert_eq!(
        s.js("return window.notReloaded === true").await,
        json!(true)
    );
    assert_eq!(
        s.js("return document.querySelector('li[data-id=m3] select.move-to').value")
            .await,
        json!("FYI")
    );
    let list = crate::helpers::json(app.get("/api/corrections").await).await;
    assert_eq!(list["corrections"][0]["email_id"], "m3");
    assert_ne!(list["corrections"][0]["undone_at"], Value::Null);
    let stored = crate::helpers::json(app.get("/api/digest").await).await;
    assert_eq!(stored["categories"]["FYI"][0]["id"], "m3");
    s.quit().await;
}

#[tokio::test]
async fn a_sender_is_unsubscribed_in_one_confirmed_click_and_nothing_else_changes() {
    use crate::acting::{EVIL, NEWS, SHOP, refresh, spawn};
    let server = crate::servers::OneClickServer::start(200, None).await;
    let app = spawn(&server, &[("DIGEST_REFRESH_COMMAND", "true")]).await;
    let _mail = refresh(
        &app,
        &format!("https://localhost:{}/unsub?u=b1", server.port),
    );
    let before = crate::helpers::json(app.get("/api/digest").await).await;
    let senders_before = crate::helpers::json(app.get("/api/unsubscribe").await).await;

    let driver = Driver::start().await;
    let s = driver.session().await;
    s.goto(&app.address).await;
    s.wait_for(
        "document.querySelectorAll('#senders tr.sender').length === 3",
        5,
    )
    .await;
    // Hostile header text and subjects stay text.
    let reason = s
        .js(&format!(
            "return document.querySelector('tr[data-sender=\"{EVIL}\"] .cannot').textContent"
        ))
        .await;
    assert!(reason.as_str().unwrap().contains("javascript:"), "{reason}");
    assert!(s.no_alert().await, "email content ran as script");
    // The sender without SMTP says why; the page says mailto: is off.
    let shop = s
        .js(&format!(
            "return document.querySelector('tr[data-sender=\"{SHOP}\"]').textContent"
        ))
        .await;
    assert!(shop.as_str().unwrap().contains("SMTP_URL"), "{shop}");
    assert_eq!(
        s.js("return !!document.querySelector('#smtp-off')").await,
        json!(true)
    );

    // One click opens the confirmation; nothing is sent before it is confirmed.
    let row = format!("tr[data-sender=\"{NEWS}\"]");
    s.click(&format!("{row} details.unsubscribe summary")).await;
    s.wait_for(
        &format!("document.querySelector('{row} details.unsubscribe').open"),
        3,
    )
    .await;
    assert!(
        server.seen().is_empty(),
        "opening the confirmation contacted the sender"
    );
    s.click(&format!("{row} button.confirm-unsubscribe")).await;
    s.wait_for(
        "document.querySelector('#unsubscribe-notice') && document.querySelector('#unsubscribe-notice').textContent.includes('Unsubscribed from')",
        10,
    )
    .await;
    let seen = server.seen();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0].method, "POST");
    assert_eq!(seen[0].body, "List-Unsubscribe=One-Click");
    assert_eq!(
        s.js(&format!(
            "return document.querySelector('{row}').textContent.includes('unsubscribed on')"
        ))
        .await,
        json!(true)
    );
    // Nothing else changed: the digest's emails, the other senders, no other unsubscribe.
    let after = crate::helpers::json(app.get("/api/digest").await).await;
    assert_eq!(after["categories"], before["categories"]);
    assert_eq!(after["summaries"], before["summaries"]);
    let senders_after = crate::helpers::json(app.get("/api/unsubscribe").await).await;
    assert_eq!(senders_after["unsubscribes"].as_array().unwrap().len(), 1);
    for who in [SHOP, EVIL] {
        let pick = |list: &Value| {
            list["senders"]
                .as_array()
                .unwrap()
                .iter()
                .find(|x| x["sender"] == who)
                .cloned()
        };
        assert_eq!(pick(&senders_after), pick(&senders_before), "{who} changed");
    }

    // Mail the sender sends later is marked; what came before is not.
    crate::acting::deliver_newsletter(_mail.path(), 1);
    crate::acting::run_job(&app, _mail.path());
    s.goto(&app.address).await;
    s.wait_for("document.querySelectorAll('li.email').length === 7", 5)
        .await;
    let marked = s
        .js(&format!(
            "return [...document.querySelectorAll('li.email')].filter(e => e.querySelector('.from').textContent === '{NEWS}').map(e => [e.dataset.id, !!e.querySelector('.mark-unsubscribed')])"
        ))
        .await;
    assert_eq!(
        marked,
        json!([
            ["later1@letters.example", true],
            ["news2@letters.example", false],
            ["news1@letters.example", false]
        ])
    );
    assert_eq!(server.seen().len(), 1, "a refresh contacted the sender");
    s.screenshot("digest-unsubscribed.png").await;
    s.quit().await;
}
