use std::os::unix::process::CommandExt;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::helpers::{TestApp, json, sample_digest, spawn_app_with};

/// A refresh command that writes the sample digest like the job does (temp file + rename).
fn writing_command(dir: &std::path::Path, sleep: &str) -> String {
    let src = dir.join("fixture-digest.json");
    std::fs::write(&src, serde_json::to_vec(&sample_digest()).unwrap()).unwrap();
    format!(
        "sleep {sleep}; cp '{}' \"$DIGEST_DATA_DIR/digest.json.tmp\" && mv \"$DIGEST_DATA_DIR/digest.json.tmp\" \"$DIGEST_DATA_DIR/digest.json\" && echo 'digest rebuilt: 4 emails'",
        src.display()
    )
}

async fn app_with_command(command: &str, timeout: &str) -> (TestApp, tempfile::TempDir) {
    let fixtures = tempfile::tempdir().unwrap();
    let command = command.replace("{FIXTURE}", &writing_command(fixtures.path(), "0.3"));
    let app = spawn_app_with(&[
        ("DIGEST_REFRESH_COMMAND", command.as_str()),
        ("DIGEST_REFRESH_TIMEOUT_SECS", timeout),
    ])
    .await;
    (app, fixtures)
}

#[tokio::test]
async fn status_before_any_run_has_no_last_run() {
    let (app, _f) = app_with_command("true", "5").await;
    let res = app.get("/api/status").await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        json(res).await,
        json!({"running": false, "last_run": null, "lock_file_exists": false})
    );
}

#[tokio::test]
async fn a_successful_refresh_is_200_updates_the_digest_and_records_the_run() {
    let (app, _f) = app_with_command("{FIXTURE}", "10").await;
    let res = app.post("/api/refresh").await;
    assert_eq!(res.status(), 200);
    let body = json(res).await;
    assert_eq!(body["status"], "success");
    assert_eq!(body["message"], "digest rebuilt: 4 emails");
    let time = body["execution_time"].as_f64().unwrap();
    assert!((0.3..10.0).contains(&time), "{time}");

    assert_eq!(
        crate::helpers::as_written(json(app.get("/api/digest").await).await),
        sample_digest()
    );
    let status = json(app.get("/api/status").await).await;
    assert_eq!(status["running"], false);
    assert_eq!(status["lock_file_exists"], false);
    let last_run = status["last_run"].as_str().unwrap();
    assert!(chrono_like(last_run), "{last_run}");

    let prometheus = app.get("/metrics").await.text().await.unwrap();
    assert!(
        prometheus.contains(r#"digest_refreshes_total{outcome="success"}"#),
        "{prometheus}"
    );

    let metrics = json(app.get("/api/metrics").await).await;
    assert_eq!(metrics["metrics"]["script_run_count"], 1);
    assert_eq!(metrics["metrics"]["success_rate"], 100.0);
    assert_eq!(metrics["metrics"]["emails_processed"], 4);
    assert_eq!(metrics["category_breakdown"]["Need-Action"], 2);
}

fn chrono_like(s: &str) -> bool {
    s.len() == 19 && s.as_bytes()[10] == b'T' && !s.ends_with('Z')
}

#[tokio::test]
async fn a_failing_refresh_is_500_with_the_jobs_stderr() {
    let (app, _f) = app_with_command(
        "echo 'progress on stdout'; echo 'IMAP login failed for ops@example.com' >&2; exit 3",
        "5",
    )
    .await;
    let res = app.post("/api/refresh").await;
    assert_eq!(res.status(), 500);
    assert_eq!(
        json(res).await,
        json!({"status": "error", "message": "IMAP login failed for ops@example.com"})
    );
    let errors = json(app.get("/api/errors").await).await;
    assert_eq!(errors["errors"][0]["module"], "refresh");
    assert_eq!(errors["errors"][0]["error_type"], "ScriptFailed");
    assert_eq!(app.get("/api/status").await.status(), 200);
}

#[tokio::test]
async fn a_second_refresh_while_one_runs_is_409_and_starts_nothing() {
    let (app, _f) =
        app_with_command("echo run >> \"$DIGEST_DATA_DIR/starts\"; sleep 3", "10").await;
    let first = {
        let client = app.client.clone();
        let url = format!("{}/api/refresh", app.address);
        tokio::spawn(async move { client.post(url).send().await.unwrap() })
    };
    wait_until_running(&app).await;
    let status = json(app.get("/api/status").await).await;
    assert_eq!(status["running"], true);
    assert_eq!(status["lock_file_exists"], true);
    let pid = std::fs::read_to_string(app.data_dir().join("refresh.lock")).unwrap();
    assert_eq!(pid.trim(), std::process::id().to_string());

    let second = app.post("/api/refresh").await;
    assert_eq!(second.status(), 409);
    let body = json(second).await;
    assert_eq!(body["status"], "busy");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("already running")
    );

    assert_eq!(first.await.unwrap().status(), 200);
    let starts = std::fs::read_to_string(app.data_dir().join("starts")).unwrap();
    assert_eq!(starts.lines().count(), 1, "a second run started");
    assert_eq!(json(app.get("/api/status").await).await["running"], false);
}

async fn wait_until_running(app: &TestApp) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while !app.data_dir().join("starts").exists() {
        assert!(Instant::now() < deadline, "the refresh never started");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_lock_held_by_another_process_is_busy_and_a_stale_one_is_not() {
    let (app, _f) = app_with_command("true", "5").await;
    let lock_path = app.data_dir().join("refresh.lock");

    // Another process's lock: the same OS lock on the same file.
    let held = std::fs::File::create(&lock_path).unwrap();
    held.try_lock().unwrap();
    let res = app.post("/api/refresh").await;
    assert_eq!(res.status(), 409);
    assert_eq!(json(app.get("/api/status").await).await["running"], true);
    drop(held);

    // A crashed owner leaves the file with its PID but no OS lock: it must not block.
    std::fs::write(&lock_path, "999999\n").unwrap();
    let status = json(app.get("/api/status").await).await;
    assert_eq!(
        (
            status["running"].clone(),
            status["lock_file_exists"].clone()
        ),
        (json!(false), json!(true))
    );
    assert_eq!(app.post("/api/refresh").await.status(), 200);
    assert!(!lock_path.exists());
}

#[tokio::test]
async fn a_refresh_over_the_limit_is_504_and_kills_the_whole_group() {
    let (app, _f) = app_with_command(
        "sleep 300 & echo $! > \"$DIGEST_DATA_DIR/grandchild.pid\"; wait",
        "1",
    )
    .await;
    let started = Instant::now();
    let res = app.post("/api/refresh").await;
    assert_eq!(res.status(), 504);
    assert!(started.elapsed() < Duration::from_secs(10));
    let body = json(res).await;
    assert_eq!(body["status"], "error");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("time-out of 1 seconds"),
        "{body}"
    );

    let pid = std::fs::read_to_string(app.data_dir().join("grandchild.pid")).unwrap();
    let proc_dir = std::path::PathBuf::from(format!("/proc/{}", pid.trim()));
    let deadline = Instant::now() + Duration::from_secs(3);
    while alive(&proc_dir) {
        assert!(
            Instant::now() < deadline,
            "the grandchild sleep {} survived",
            pid.trim()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // The store tells the truth: a timed-out run and an error from module "refresh".
    let (status, count): (String, i64) = app
        .store()
        .query_row("SELECT status, count(*) FROM runs", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert_eq!((status.as_str(), count), ("timeout", 1));
    let errors = json(app.get("/api/errors").await).await;
    assert_eq!(errors["errors"][0]["module"], "refresh");
    assert_eq!(errors["errors"][0]["error_type"], "Timeout");
    assert_eq!(json(app.get("/api/status").await).await["running"], false);
}

/// Running, or a zombie not yet reaped (a dead process), counts as gone only when not running.
fn alive(proc_dir: &std::path::Path) -> bool {
    match std::fs::read_to_string(proc_dir.join("stat")) {
        Ok(stat) => !stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z'),
        Err(_) => false,
    }
}

#[tokio::test]
async fn a_command_that_cannot_start_is_a_500_error() {
    // No DIGEST_REFRESH_COMMAND: the default job binary beside the test executable is absent.
    let app = crate::helpers::spawn_app().await;
    let res = app.post("/api/refresh").await;
    assert_eq!(res.status(), 500);
    let body = json(res).await;
    assert_eq!(body["status"], "error");
    assert!(
        body["message"].as_str().unwrap().contains("digest-refresh"),
        "{body}"
    );
}

#[tokio::test]
async fn the_real_job_refreshes_from_the_sample_mailbox_and_records_one_run() {
    let job = env!("CARGO_BIN_EXE_digest-refresh");
    let app = spawn_app_with(&[("DIGEST_REFRESH_COMMAND", job), ("DIGEST_SOURCE", "sample")]).await;
    let res = app.post("/api/refresh").await;
    assert_eq!(res.status(), 200);
    let body = json(res).await;
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .starts_with("digest written to"),
        "{body}"
    );

    let digest = json(app.get("/api/digest").await).await;
    let total = digest["stats"]["total_emails"].as_u64().unwrap();
    assert!(total > 10, "{digest}");
    let metrics = json(app.get("/api/metrics?period=all").await).await;
    // The job recorded its own run; the dashboard must not add a second row.
    assert_eq!(metrics["metrics"]["script_run_count"], 1, "{metrics}");
    assert!(metrics["metrics"]["emails_processed"].as_u64().unwrap() > 0);
    let breakdown: u64 = metrics["category_breakdown"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(breakdown, total);

    // A bad source: the job's one stderr line is the message.
    let app = spawn_app_with(&[
        ("DIGEST_REFRESH_COMMAND", job),
        ("DIGEST_SOURCE", "maildir:/nonexistent/mail"),
    ])
    .await;
    let res = app.post("/api/refresh").await;
    assert_eq!(res.status(), 500);
    let body = json(res).await;
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("/nonexistent/mail"),
        "{body}"
    );
}

#[tokio::test]
async fn two_servers_sharing_a_data_dir_run_one_refresh_at_a_time() {
    let shared = tempfile::tempdir().unwrap();
    let command = "echo run >> \"$DIGEST_DATA_DIR/starts\"; sleep 3";
    let extra = [("DIGEST_REFRESH_COMMAND", command)];
    let a = crate::helpers::spawn_app_in(shared.path(), &extra).await;
    let b = crate::helpers::spawn_app_in(shared.path(), &extra).await;
    let first = {
        let client = a.client.clone();
        let url = format!("{}/api/refresh", a.address);
        tokio::spawn(async move { client.post(url).send().await.unwrap() })
    };
    wait_until_running(&a).await;
    // B has no refresh of its own running: only the lock file can tell it.
    assert_eq!(json(b.get("/api/status").await).await["running"], true);
    let res = b.post("/api/refresh").await;
    assert_eq!(res.status(), 409);
    let body = json(res).await;
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains(&format!("(process {})", std::process::id())),
        "{body}"
    );
    assert_eq!(first.await.unwrap().status(), 200);
    assert_eq!(b.post("/api/refresh").await.status(), 200);
    let starts = std::fs::read_to_string(shared.path().join("starts")).unwrap();
    assert_eq!(starts.lines().count(), 2);
}

#[tokio::test]
async fn a_lock_held_by_another_program_is_respected() {
    // util-linux's flock(1) takes the same flock(2) lock in a separate process.
    let (app, _f) = app_with_command("true", "5").await;
    let lock = app.data_dir().join("refresh.lock");
    // -o: the lock stays with flock itself, not with the sleep it runs.
    let mut holder = std::process::Command::new("flock")
        .arg("-o")
        .arg(&lock)
        .args(["sleep", "30"])
        .process_group(0)
        .spawn()
        .expect("flock(1) from util-linux");
    let deadline = Instant::now() + Duration::from_secs(5);
    while !json(app.get("/api/status").await).await["running"]
        .as_bool()
        .unwrap()
    {
        assert!(Instant::now() < deadline, "flock never took the lock");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(app.post("/api/refresh").await.status(), 409);
    // Kill flock and its sleep together (the test leaves no process behind).
    let group = rustix::process::Pid::from_raw(holder.id() as i32).unwrap();
    rustix::process::kill_process_group(group, rustix::process::Signal::KILL).unwrap();
    holder.wait().unwrap();
    // The holder died without cleaning up: its file stays, its lock is gone.
    let status = json(app.get("/api/status").await).await;
    assert_eq!(status["running"], false);
    assert_eq!(status["lock_file_exists"], true);
    assert_eq!(app.post("/api/refresh").await.status(), 200);
}
