//! A real Dovecot (Debian's dovecot-imapd), started by `scripts/test/dovecot-server.sh` on a
//! free loopback port with a Maildir as the test user's INBOX, and stopped (by PID) when
//! dropped. Used by digest-web's `refresh` and `api` test binaries.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::process::free_port;

/// The test user (the Maildir is its INBOX).
pub const USER: &str = "ops@example.com";
/// The test user's password.
pub const PASSWORD: &str = "correct horse battery";

/// A running Dovecot; stopped on drop.
pub struct Dovecot {
    dir: tempfile::TempDir,
    /// The IMAP port (STARTTLS required when started with TLS).
    pub port: u16,
    /// The imaps port when started with TLS.
    pub tls_port: Option<u16>,
}

/// The script that starts and stops the server.
pub fn script() -> PathBuf {
    crate::workspace_root().join("scripts/test/dovecot-server.sh")
}

/// digest-web's sample Maildir, the INBOX [`Dovecot::start`] serves.
pub fn sample_maildir() -> PathBuf {
    crate::workspace_root().join("services/digest-web/sample-mailbox")
}

fn installed() -> bool {
    Path::new("/usr/sbin/dovecot").exists()
        || Command::new("sh")
            .args(["-c", "command -v dovecot"])
            .output()
            .is_ok_and(|o| o.status.success())
}

impl Dovecot {
    /// Starts plain-text Dovecot on the sample Maildir; `None` (with a message) only when
    /// Dovecot is not installed.
    pub fn start() -> Option<Self> {
        Self::start_with(false)
    }

    /// Starts Dovecot with TLS: imaps on `tls_port`, STARTTLS required on `port`.
    pub fn start_tls() -> Option<Self> {
        Self::start_with(true)
    }

    /// A server the caller started itself in `dir` on `port` (through [`script`]): stopped
    /// on drop like the others.
    pub fn adopt(dir: tempfile::TempDir, port: u16) -> Self {
        Self {
            dir,
            port,
            tls_port: None,
        }
    }

    fn start_with(tls: bool) -> Option<Self> {
        if !installed() {
            eprintln!(
                "SKIPPED: dovecot is not installed (scripts/setup/install-deps.sh test installs dovecot-imapd)"
            );
            return None;
        }
        // A port picked by binding to 0 can be taken again before Dovecot binds it (tests
        // run in parallel), and on a loaded machine the script's wait can run out: try a few
        // times.
        let mut failure = String::new();
        for _ in 0..3 {
            let dir = tempfile::tempdir().expect("temp dir");
            let port = free_port();
            let tls_port = tls.then(free_port);
            let mut cmd = Command::new("bash");
            if let Some(p) = tls_port {
                cmd.env("IMAPS_PORT", p.to_string());
            }
            let out = cmd
                .arg(script())
                .arg("start")
                .arg(dir.path())
                .arg(port.to_string())
                .args([USER, PASSWORD])
                .arg(sample_maildir())
                .output()
                .expect("bash runs");
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
            stop(dir.path());
        }
        panic!("dovecot did not start: {failure}");
    }

    /// The folder the server runs in (configuration, `run/master.pid`, certificates).
    pub fn dir(&self) -> &Path {
        self.dir.path()
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

fn stop(dir: &Path) {
    let _ = Command::new("bash")
        .arg(script())
        .arg("stop")
        .arg(dir)
        .status();
}

impl Drop for Dovecot {
    fn drop(&mut self) {
        stop(self.dir.path());
    }
}
