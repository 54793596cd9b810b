//! The basic suite's login check against a real Dovecot (Debian's dovecot-imapd), started by
//! scripts/dovecot-test-server.sh on a loopback port and stopped by PID.

use std::path::Path;
use std::process::Command;

use serde_json::json;

use crate::helpers::{json, spawn_app_with};

const USER: &str = "ops@example.com";
const PASSWORD: &str = "correct horse battery";

struct Dovecot {
    dir: tempfile::TempDir,
    port: u16,
}

fn script() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/dovecot-test-server.sh")
}

impl Dovecot {
    /// `None` (with a message) only when Dovecot is not installed.
    fn start() -> Option<Self> {
        if !Path::new("/usr/sbin/dovecot").exists() {
            eprintln!("SKIPPED: dovecot is not installed (scripts/install-deps.sh test)");
            return None;
        }
        // A port picked by binding to 0 can be taken again before Dovecot binds it (tests run
        // in parallel): try a few times.
        let seed = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-mailbox");
        let mut failure = String::new();
        for _ in 0..3 {
            let dir = tempfile::tempdir().unwrap();
            let port = std::net::TcpListener::bind("127.0.0.1:0")
                .unwrap()
                .local_addr()
                .unwrap()
                .port();
            let out = Command::new("bash")
                .arg(script())
                .args([
                    "start",
                    dir.path().to_str().unwrap(),
                    &port.to_string(),
                    USER,
                    PASSWORD,
                ])
                .arg(&seed)
                .output()
                .unwrap();
            if out.status.success() {
                return Some(Self { dir, port });
            }
            failure = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            let _ = Command::new("bash")
                .arg(script())
                .args(["stop", dir.path().to_str().unwrap()])
                .status();
        }
        panic!("dovecot did not start: {failure}");
    }
}

impl Drop for Dovecot {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(script())
            .args(["stop", self.dir.path().to_str().unwrap()])
            .status();
    }
}

#[tokio::test]
async fn the_basic_suite_logs_in_to_the_real_imap_server() {
    let Some(server) = Dovecot::start() else {
        return;
    };
    let source = format!("imap://ops%40example.com@127.0.0.1:{}/INBOX", server.port);
    for (password, failures) in [
        (PASSWORD, json!([])),
        ("wrong password", json!(["mail_source_reachable"])),
    ] {
        let app = spawn_app_with(&[
            ("DIGEST_REFRESH_COMMAND", "true"),
            ("DIGEST_SOURCE", source.as_str()),
            ("DIGEST_IMAP_PASSWORD", password),
        ])
        .await;
        let body = json(app.post("/api/tests/run").await).await;
        let failed: Vec<_> = body["failures"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["test"].clone())
            .collect();
        assert_eq!(json!(failed), failures, "{body}");
        if let Some(message) = body["failures"][0]["message"].as_str() {
            assert!(message.to_lowercase().contains("login"), "{message}");
        }
    }
}
