//! A real Dovecot (Debian's dovecot-imapd) for the tests, started by
//! scripts/test/dovecot-server.sh on a free loopback port with the sample Maildir as the test
//! user's INBOX, and stopped (by PID) when dropped. Shared by the `refresh` and `api` test
//! binaries.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The test user (the sample Maildir is its INBOX).
pub const USER: &str = "ops@example.com";
/// The test user's password.
pub const PASSWORD: &str = "correct horse battery";

pub struct Dovecot {
    dir: tempfile::TempDir,
    /// The IMAP port (STARTTLS required when started with TLS).
    pub port: u16,
    /// The imaps port when started with TLS.
    pub tls_port: Option<u16>,
}

fn free_port() -> u16 {
    // Bind to 0, read the port, release it for Dovecot.
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/test/dovecot-server.sh")
}

fn sample_maildir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-mailbox")
}

impl Dovecot {
    /// Starts plain-text Dovecot; `None` (with a message) only when Dovecot is not installed.
    pub fn start() -> Option<Self> {
        Self::start_with(false)
    }

    /// Starts Dovecot with TLS: imaps on `tls_port`, STARTTLS required on `port`.
    pub fn start_tls() -> Option<Self> {
        Self::start_with(true)
    }

    fn start_with(tls: bool) -> Option<Self> {
        let installed = Path::new("/usr/sbin/dovecot").exists()
            || Command::new("sh")
                .args(["-c", "command -v dovecot"])
                .output()
                .is_ok_and(|o| o.status.success());
        if !installed {
            eprintln!(
                "SKIPPED: dovecot is not installed (scripts/setup/install-deps.sh test installs dovecot-imapd)"
            );
            return None;
        }
        // A port picked by binding to 0 can be taken again before Dovecot binds it (tests
        // run in parallel): try a few times.
        let mut failure = String::new();
        for _ in 0..3 {
            let dir = tempfile::tempdir().unwrap();
            let port = free_port();
            let tls_port = tls.then(free_port);
            let mut cmd = Command::new("bash");
            if let Some(p) = tls_port {
                cmd.env("IMAPS_PORT", p.to_string());
            }
            let out = cmd
                .arg(script())
                .args([
                    "start",
                    dir.path().to_str().unwrap(),
                    &port.to_string(),
                    USER,
                    PASSWORD,
                ])
                .arg(sample_maildir())
                .output()
                .unwrap();
            if out.status.success() {
                return Some(Self {
                    dir,
                    port,
                    tls_port,
                });
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

    /// The `imap://` source URL of the test user's INBOX.
    pub fn source(&self) -> String {
        format!("imap://ops%40example.com@127.0.0.1:{}/INBOX", self.port)
    }

    /// The CA certificate that signed the TLS server's certificate.
    pub fn ca_file(&self) -> PathBuf {
        self.dir.path().join("ca.pem")
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
