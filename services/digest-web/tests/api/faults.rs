//! Faults: the mail server down or refusing the password, the refresh job killed,
//! a corrupted digest, a read-only data dir, SIGTERM during a request. Each ends in a clear
//! error that is recorded and shown, and the next refresh works.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::dovecot::{Dovecot, PASSWORD, USER};
use crate::helpers::{TestApp, json, sample_digest, spawn_app_with};
use test_support::process::{alive, free_port, wait_for_port};

const JOB: &str = env!("CARGO_BIN_EXE_digest-refresh");
const SERVER: &str = env!("CARGO_BIN_EXE_digest-web");

/// A test process killed hard never runs `Dovecot::drop`: the server must not outlive it.
#[test]
fn dovecot_stops_when_the_process_that_started_it_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    // A stand-in for the test process: starts the server, then waits to be killed.
    let mut parent = Command::new("bash")
        .arg("-c")
        .arg(r#"bash "$0" start "$1" "$2" u p >/dev/null && exec sleep 60"#)
        .arg(test_support::dovecot::script())
        .arg(dir.path())
        .arg(port.to_string())
        .spawn()
        .unwrap();
    let server = Dovecot::adopt(dir, port); // stopped on drop should an assertion fail
    let pid_file = server.dir().join("run/master.pid");
    let deadline = Instant::now() + Duration::from_secs(15);
    while !(pid_file.exists() && TcpStream::connect(("127.0.0.1", server.port)).is_ok()) {
        assert!(Instant::now() < deadline, "dovecot did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    let master = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .to_owned();
    assert!(alive(&master));

    parent.kill().unwrap(); // SIGKILL: nothing of the parent's runs any more
    parent.wait().unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while alive(&master) {
        assert!(
            Instant::now() < deadline,
            "dovecot {master} outlived its parent"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(TcpStream::connect(("127.0.0.1", server.port)).is_err());
}

/// A server whose refresh runs the real job on `source` with `password`.
async fn app_on_imap(port: u16, password: &str) -> TestApp {
    let source = format!("imap://ops%40example.com@127.0.0.1:{port}/INBOX");
    let command = format!("DIGEST_IMAP_PASSWORD='{password}' exec '{JOB}'");
    spawn_app_with(&[
        ("DIGEST_REFRESH_COMMAND", command.as_str()),
        ("DIGEST_SOURCE", source.as_str()),
    ])
    .await
}

/// The failed refresh is a 500 with `message`, is the newest of `/api/errors` with
/// (`module`, `error_type`), and is on the dashboard page.
async fn assert_recorded_and_shown(app: &TestApp, message: &str, module: &str, error_type: &str) {
    let errors = json(app.get("/api/errors").await).await;
    let newest = &errors["errors"][0];
    assert_eq!(newest["module"], module, "{errors}");
    assert_eq!(newest["error_type"], error_type, "{errors}");
    assert!(
        newest["message"].as_str().unwrap().contains(message),
        "{errors}"
    );
    let metrics = json(app.get("/api/metrics").await).await;
    assert!(metrics["metrics"]["error_count"].as_i64().unwrap() >= 1);
    let page = app.get("/").await.text().await.unwrap();
    assert!(page.contains(message), "the page does not show {message}");
    assert!(
        page.contains(error_type),
        "the page does not show {error_type}"
    );
    // The server is still fine and the previous digest (none) is untouched.
    assert_eq!(app.get("/api/digest").await.status(), 200);
    assert_eq!(json(app.get("/api/status").await).await["running"], false);
}

#[tokio::test]
async fn imap_server_down_is_a_500_recorded_and_shown_on_the_dashboard() {
    let port = free_port(); // nothing listens there
    let app = app_on_imap(port, PASSWORD).await;
    let res = app.post("/api/refresh").await;
    assert_eq!(res.status(), 500);
    let body = json(res).await;
    assert_eq!(body["status"], "error");
    let message = body["message"].as_str().unwrap();
    let expected = format!("cannot connect to IMAP server 127.0.0.1:{port}");
    assert!(message.starts_with(&expected), "{message}");
    assert_eq!(message.lines().count(), 1, "{message}");
    assert_recorded_and_shown(&app, &expected, "mail.imap", "ConnectFailed").await;
}

#[tokio::test]
async fn a_wrong_imap_password_is_a_500_recorded_and_shown_on_the_dashboard() {
    let server =
        Dovecot::start().expect("dovecot is installed (scripts/setup/install-deps.sh test)");
    let app = app_on_imap(server.port, "wrong").await;
    let res = app.post("/api/refresh").await;
    assert_eq!(res.status(), 500);
    let expected = format!(
        "IMAP login failed for {USER} at 127.0.0.1:{}: authentication failed",
        server.port
    );
    assert_eq!(
        json(res).await,
        json!({"status": "error", "message": expected})
    );
    assert_recorded_and_shown(&app, &expected, "mail.imap", "LoginFailed").await;

    // The right password on the same server works at once: nothing was left locked.
    let app = app_on_imap(server.port, PASSWORD).await;
    assert_eq!(app.post("/api/refresh").await.status(), 200);
    let digest = json(app.get("/api/digest").await).await;
    assert!(digest["stats"]["total_emails"].as_u64().unwrap() > 0);
}

/// A job that, while `hang` exists in the data dir, starts writing its temp file and hangs
/// (recording its PID); otherwise writes `digest` atomically like the real job.
fn hanging_or_writing_job(fixtures: &Path) -> String {
    let src = fixtures.join("digest.json");
    std::fs::write(&src, serde_json::to_vec(&sample_digest()).unwrap()).unwrap();
    format!(
        r#"cd "$DIGEST_DATA_DIR"; if [ -e hang ]; then rm hang; printf '{{"generated_at": "2026-' > digest.json.tmp; echo $$ > job.pid; exec sleep 60; fi; cp '{}' digest.json.tmp && mv digest.json.tmp digest.json && echo rebuilt"#,
        src.display()
    )
}

async fn wait_for(path: &Path) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !path.exists() || std::fs::read_to_string(path).unwrap().trim().is_empty() {
        assert!(
            Instant::now() < deadline,
            "{} never appeared",
            path.display()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_job_killed_mid_run_keeps_the_previous_digest_and_releases_the_lock() {
    let fixtures = tempfile::tempdir().unwrap();
    let command = hanging_or_writing_job(fixtures.path());
    let app = spawn_app_with(&[("DIGEST_REFRESH_COMMAND", command.as_str())]).await;
    assert_eq!(app.post("/api/refresh").await.status(), 200);
    let previous = json(app.get("/api/digest").await).await;
    assert_eq!(
        crate::helpers::as_written(previous.clone()),
        sample_digest()
    );

    std::fs::write(app.data_dir().join("hang"), "").unwrap();
    let refresh = {
        let client = app.client.clone();
        let url = format!("{}/api/refresh", app.address);
        tokio::spawn(async move { client.post(url).send().await.unwrap() })
    };
    let pid_file = app.data_dir().join("job.pid");
    wait_for(&pid_file).await;
    assert_eq!(json(app.get("/api/status").await).await["running"], true);
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    let killed = Command::new("kill")
        .args(["-KILL", pid.trim()])
        .status()
        .unwrap();
    assert!(killed.success());

    let res = refresh.await.unwrap();
    assert_eq!(res.status(), 500);
    let body = json(res).await;
    assert_eq!(body["status"], "error");
    let message = body["message"].as_str().unwrap();
    assert!(message.contains("SIGKILL"), "{message}");
    // The half-written temp file never replaced the digest.
    assert_eq!(json(app.get("/api/digest").await).await, previous);
    let status = json(app.get("/api/status").await).await;
    assert_eq!(status["running"], false);
    assert_eq!(status["lock_file_exists"], false);
    let (state, n): (String, i64) = app
        .store()
        .query_row(
            "SELECT status, count(*) FROM runs WHERE status != 'success'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!((state.as_str(), n), ("killed", 1));
    let errors = json(app.get("/api/errors").await).await;
    assert_eq!(errors["errors"][0]["error_type"], "ScriptFailed");

    // The next refresh takes the lock and works.
    let res = app.post("/api/refresh").await;
    assert_eq!(res.status(), 200);
    assert_eq!(json(res).await["message"], "rebuilt");
}

#[tokio::test]
async fn a_corrupted_digest_is_a_clear_500_until_the_next_refresh_repairs_it() {
    let fixtures = tempfile::tempdir().unwrap();
    let command = hanging_or_writing_job(fixtures.path());
    let app = spawn_app_with(&[("DIGEST_REFRESH_COMMAND", command.as_str())]).await;
    std::fs::write(
        app.data_dir().join("digest.json"),
        b"\x00\xff{\"generated_at",
    )
    .unwrap();
    let res = app.get("/api/digest").await;
    assert_eq!(res.status(), 500);
    let error = json(res).await["error"].as_str().unwrap().to_owned();
    assert!(
        error.starts_with("internal server error: digest.json is corrupted: "),
        "{error}"
    );
    let page = app.get("/").await;
    assert_eq!(page.status(), 200);
    assert!(page.text().await.unwrap().contains("id=\"digest-error\""));

    assert_eq!(app.post("/api/refresh").await.status(), 200);
    let res = app.get("/api/digest").await;
    assert_eq!(res.status(), 200);
    assert_eq!(crate::helpers::as_written(json(res).await), sample_digest());
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Runs `program` with `dir` read-only: as root in a private mount namespace with a read-only
/// bind mount (root ignores permission bits), otherwise with the write bits removed.
fn read_only(dir: &Path, program: &str) -> Command {
    if is_root() {
        let mut cmd = Command::new("unshare");
        cmd.args(["--mount", "sh", "-c"])
            .arg(r#"mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" "$1" && shift && exec "$@""#)
            .args(["sh", dir.to_str().unwrap(), program]);
        cmd
    } else {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let mut perms = std::fs::metadata(&path).unwrap().permissions();
            perms.set_readonly(true);
            std::fs::set_permissions(&path, perms).unwrap();
        }
        let mut perms = std::fs::metadata(dir).unwrap().permissions();
        perms.set_readonly(true);
        std::fs::set_permissions(dir, perms).unwrap();
        Command::new(program)
    }
}

fn clean_env(cmd: &mut Command, data: &Path) {
    cmd.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DIGEST_DATA_DIR", data)
        .env("DIGEST_SOURCE", "sample");
}

#[test]
fn a_read_only_data_dir_is_a_clear_error_not_a_panic() {
    let data = tempfile::tempdir().unwrap();
    let mut first = Command::new(JOB);
    clean_env(&mut first, data.path());
    assert!(first.output().unwrap().status.success());
    let digest = std::fs::read(data.path().join("digest.json")).unwrap();

    // The refresh job: exit 1 with one line, the digest untouched.
    let mut job = read_only(data.path(), JOB);
    clean_env(&mut job, data.path());
    let out = job.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let dir = data.path().to_str().unwrap();
    // Says what is wrong in the reader's terms (not SQLite's "unable to open database file").
    assert!(
        stderr.starts_with(&format!("data dir {dir} is not writable (read-only")),
        "the error does not say the data dir is not writable: {stderr}"
    );
    assert!(!stderr.contains("unable to open database file"), "{stderr}");
    assert_eq!(
        std::fs::read(data.path().join("digest.json")).unwrap(),
        digest
    );

    // The server: refuses to start with the same line.
    let mut server = read_only(data.path(), SERVER);
    clean_env(&mut server, data.path());
    server.env("HOST", "127.0.0.1").env("PORT", "0");
    let out = server.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!stderr.contains("unable to open database file"), "{stderr}");
    assert!(
        stderr.lines().any(|l| l.starts_with(&format!(
            "Error: data dir {dir} is not writable (read-only, or no write permission): "
        ))),
        "no error line saying the data dir is not writable: {stderr}"
    );
}

fn start_server(port: u16, data: &Path, command: &str) -> Child {
    let mut cmd = Command::new(SERVER);
    clean_env(&mut cmd, data);
    cmd.env("HOST", "127.0.0.1")
        .env("PORT", port.to_string())
        .env("WORKERS", "1")
        .env("DIGEST_REFRESH_COMMAND", command)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let child = cmd.spawn().expect("digest-web starts");
    wait_for_port(port, Duration::from_secs(10), "digest-web");
    child
}

#[test]
fn sigterm_lets_an_in_flight_refresh_finish() {
    let data = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut child = start_server(port, data.path(), "sleep 1.5; echo finished after SIGTERM");
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .write_all(b"POST /api/refresh HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        .unwrap();
    let lock = data.path().join("refresh.lock");
    let deadline = Instant::now() + Duration::from_secs(5);
    while !lock.exists() {
        assert!(Instant::now() < deadline, "the refresh never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let term = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains("finished after SIGTERM"), "{response}");
    let status = child.wait().unwrap();
    assert!(status.success(), "graceful exit expected, got {status}");
    assert!(!lock.exists(), "the lock outlived the server");
}
