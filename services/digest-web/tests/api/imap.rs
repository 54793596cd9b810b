//! The basic suite's login check against a real Dovecot (Debian's dovecot-imapd), started by
//! scripts/test/dovecot-server.sh on a loopback port and stopped by PID (tests/support/dovecot.rs).

use serde_json::json;

use crate::dovecot::{Dovecot, PASSWORD};
use crate::helpers::{json, spawn_app_with};

#[tokio::test]
async fn the_basic_suite_logs_in_to_the_real_imap_server() {
    let Some(server) = Dovecot::start() else {
        return;
    };
    let source = server.source();
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
