//! The refresh state machine behind `POST /api/refresh` and `GET /api/status`.
//!
//! One refresh at a time, across the server's workers (an in-process flag) and across
//! processes (`<data-dir>/refresh.lock`, an OS file lock holding the owner's PID: the kernel
//! drops it when the owner dies, so a crash never leaves a lock that blocks forever). The
//! command runs in its own process group; on time-out the whole group is killed, so no
//! grandchild survives. The command runs in a detached task: a client that hangs up does not
//! cancel it or release the lock early.

pub mod handlers;

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::process::Command;

use crate::store::digest_file;
use crate::store::{self, queries};
use crate::web::configuration::Settings;

/// The lock file's name inside the data dir.
pub const LOCK_FILE: &str = "refresh.lock";
/// The job binary started when no `DIGEST_REFRESH_COMMAND` is set, looked up beside the server.
pub const JOB_BINARY: &str = "digest-refresh";
/// The most stderr kept as the error message (its end, where the job's line is).
const MAX_MESSAGE: usize = 2000;

/// How one `POST /api/refresh` ended.
#[derive(Debug, Clone, PartialEq)]
pub enum RefreshOutcome {
    /// Exit status 0 (HTTP 200).
    Success {
        /// Human line.
        message: String,
        /// Seconds.
        execution_time: f64,
    },
    /// Another refresh holds the lock (HTTP 409); nothing was started.
    Busy(String),
    /// Non-zero exit, or the command could not start (HTTP 500); the job's stderr.
    Failed(String),
    /// Killed after the time-out (HTTP 504).
    TimedOut(String),
}

/// What `GET /api/status` reports.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ScriptStatus {
    /// A refresh is running here or in another process sharing the data dir.
    pub running: bool,
    /// `started_at` of the newest run in the store, else the digest's `generated_at`, else
    /// `null` before any run.
    pub last_run: Option<String>,
    /// Whether `refresh.lock` exists (it may outlive a crashed owner: then `running` is false).
    pub lock_file_exists: bool,
}

/// The shared refresh controller (cheap to clone).
#[derive(Clone)]
pub struct RefreshControl {
    inner: Arc<Inner>,
}

struct Inner {
    data_dir: PathBuf,
    command: Option<String>,
    source: Option<String>,
    job_env: Vec<(String, String)>,
    timeout: Duration,
    running: AtomicBool,
    store: Arc<store::Pool>,
}

/// Resets the in-process flag however the run ends (a panic included).
struct RunningFlag(Arc<Inner>);

impl Drop for RunningFlag {
    fn drop(&mut self) {
        self.0.running.store(false, Ordering::SeqCst);
    }
}

impl RefreshControl {
    /// A controller for the settings' data dir, command and time-out, reading and recording
    /// runs through `store`.
    pub fn new(settings: &Settings, store: Arc<store::Pool>) -> Self {
        Self {
            inner: Arc::new(Inner {
                data_dir: settings.data_dir.clone(),
                command: settings.refresh_command.clone(),
                source: settings.source.clone(),
                job_env: settings.job_env.0.clone(),
                timeout: Duration::from_secs(settings.refresh_timeout_secs),
                running: AtomicBool::new(false),
                store,
            }),
        }
    }

    /// The configured time-out.
    pub fn timeout(&self) -> Duration {
        self.inner.timeout
    }

    /// Runs one refresh to its end, or answers busy at once.
    pub async fn run(&self) -> RefreshOutcome {
        if self
            .inner
            .running
            .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            count(&RefreshOutcome::Busy(String::new()));
            return RefreshOutcome::Busy(busy_message(None));
        }
        let flag = RunningFlag(self.inner.clone());
        let inner = self.inner.clone();
        let task = actix_web::rt::spawn(async move {
            let _flag = flag;
            inner.run_locked().await
        });
        let outcome = task.await.unwrap_or_else(|e| {
            tracing::error!(error = %e, "refresh task failed");
            RefreshOutcome::Failed(format!("the refresh task failed: {e}"))
        });
        count(&outcome);
        outcome
    }

    /// Whether a refresh is running (here, or in another process holding the lock).
    pub fn is_running(&self) -> bool {
        self.inner.running.load(Ordering::SeqCst) || held_elsewhere(&self.lock_path())
    }

    /// The `GET /api/status` answer.
    pub fn status(&self) -> ScriptStatus {
        let last_run = self
            .inner
            .store
            .get()
            .ok()
            .and_then(|conn| queries::last_run(&conn).ok().flatten())
            .or_else(|| {
                digest_file::load(&self.inner.data_dir)
                    .ok()
                    .flatten()
                    .map(|d| d.generated_at)
            });
        ScriptStatus {
            running: self.is_running(),
            last_run,
            lock_file_exists: self.lock_path().exists(),
        }
    }

    fn lock_path(&self) -> PathBuf {
        self.inner.data_dir.join(LOCK_FILE)
    }
}

/// Prometheus: `digest_refreshes_total{outcome="success|busy|error|timeout"}`.
fn count(outcome: &RefreshOutcome) {
    let label = match outcome {
        RefreshOutcome::Success { .. } => "success",
        RefreshOutcome::Busy(_) => "busy",
        RefreshOutcome::Failed(_) => "error",
        RefreshOutcome::TimedOut(_) => "timeout",
    };
    metrics::counter!("digest_refreshes_total", "outcome" => label).increment(1);
}

fn busy_message(pid: Option<&str>) -> String {
    match pid {
        Some(pid) => {
            format!("a refresh is already running (process {pid}); try again when it has finished")
        }
        None => "a refresh is already running; try again when it has finished".to_owned(),
    }
}

impl Inner {
    async fn run_locked(&self) -> RefreshOutcome {
        if let Err(e) = std::fs::create_dir_all(&self.data_dir) {
            return RefreshOutcome::Failed(format!(
                "cannot create the data dir {}: {e}",
                self.data_dir.display()
            ));
        }
        let lock_path = self.data_dir.join(LOCK_FILE);
        let _lock = match LockFile::acquire(&lock_path) {
            Ok(Some(lock)) => lock,
            Ok(None) => {
                let pid = std::fs::read_to_string(&lock_path).unwrap_or_default();
                return RefreshOutcome::Busy(busy_message(Some(pid.trim())));
            }
            Err(e) => {
                return RefreshOutcome::Failed(format!(
                    "cannot take the refresh lock {}: {e}",
                    lock_path.display()
                ));
            }
        };
        let before = self
            .store
            .get()
            .and_then(|conn| {
                queries::max_run_id(&conn).map_err(|source| store::StoreError::Sqlite {
                    path: store::path(&self.data_dir),
                    source,
                })
            })
            .unwrap_or_else(|e| {
                tracing::warn!(error = %e, "cannot read the run store before a refresh");
                0
            });
        let started_at = queries::format_time(queries::now());
        let start = Instant::now();
        let ran = self.execute().await;
        let execution_time = (start.elapsed().as_secs_f64() * 100.0).round() / 100.0;
        let (outcome, record) = self.judge(ran, &started_at, execution_time);
        let pool = self.store.clone();
        let recorded = tokio::task::spawn_blocking(move || {
            let conn = pool.get().map_err(|e| e.to_string())?;
            queries::record_outcome(&conn, before, &record).map_err(|e| e.to_string())
        })
        .await;
        match recorded {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::error!(error = %e, "cannot record the refresh in the run store"),
            Err(e) => tracing::error!(error = %e, "recording the refresh failed"),
        }
        tracing::info!(?outcome, "refresh finished");
        metrics::histogram!("digest_refresh_duration_seconds").record(execution_time);
        outcome
    }

    fn command(&self) -> Result<Command, String> {
        let mut cmd = match &self.command {
            Some(line) => {
                let mut cmd = Command::new("sh");
                cmd.arg("-c").arg(line);
                cmd
            }
            None => Command::new(default_job_path()?),
        };
        cmd.env("DIGEST_DATA_DIR", &self.data_dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(false);
        if let Some(source) = &self.source {
            cmd.env("DIGEST_SOURCE", source);
        }
        // The job's LLM variables are exactly those this service read (environment or
        // CONFIG_FILE, or a test's settings): set them, and unset the ones it did not read.
        for key in crate::settings::llm_variables() {
            if !self.job_env.iter().any(|(k, _)| k == key) {
                cmd.env_remove(key);
            }
        }
        cmd.envs(self.job_env.iter().map(|(k, v)| (k, v)));
        Ok(cmd)
    }

    async fn execute(&self) -> Ran {
        let mut cmd = match self.command() {
            Ok(cmd) => cmd,
            Err(e) => return Ran::NotStarted(e),
        };
        let mut child = match cmd.spawn() {
            Ok(child) => child,
            Err(e) => {
                let program = cmd.as_std().get_program().to_string_lossy().into_owned();
                return Ran::NotStarted(format!("cannot start the refresh command {program}: {e}"));
            }
        };
        // The child leads its own group (process_group(0)), so its pid is the group id.
        let group = child.id();
        // Should this future be dropped mid-run (the server shutting down), the group dies
        // with it rather than living on without its lock.
        let mut guard = GroupGuard(group);
        let stdout = child
            .stdout
            .take()
            .map(|s| actix_web::rt::spawn(read_tail(s)));
        let stderr = child
            .stderr
            .take()
            .map(|s| actix_web::rt::spawn(read_tail(s)));
        let waited = tokio::time::timeout(self.timeout, child.wait()).await;
        // Whatever happened, nothing the job started may outlive it.
        kill_group(group);
        guard.0 = None;
        let status = match waited {
            Ok(Ok(status)) => Some(status),
            Ok(Err(e)) => {
                tracing::error!(error = %e, "waiting for the refresh command failed");
                None
            }
            Err(_) => {
                // Reap the killed child so it does not stay a zombie.
                let _ = child.wait().await;
                return Ran::TimedOut;
            }
        };
        let stdout = collect(stdout).await;
        let stderr = collect(stderr).await;
        match status {
            Some(status) => Ran::Exited {
                status,
                stdout,
                stderr,
            },
            None => Ran::NotStarted("lost track of the refresh command".into()),
        }
    }

    fn judge(
        &self,
        ran: Ran,
        started_at: &str,
        execution_time: f64,
    ) -> (RefreshOutcome, queries::Outcome) {
        let mut record = queries::Outcome {
            status: "error",
            started_at: started_at.to_owned(),
            execution_time,
            exit_code: None,
            message: None,
            error: None,
            emails: 0,
            category_counts: BTreeMap::new(),
        };
        let outcome = match ran {
            Ran::TimedOut => {
                let message = format!(
                    "the refresh did not finish within the time-out of {} seconds and was stopped",
                    self.timeout.as_secs()
                );
                record.status = "timeout";
                record.error = Some(("Timeout", message.clone()));
                RefreshOutcome::TimedOut(message)
            }
            Ran::NotStarted(message) => {
                record.error = Some(("CommandFailed", message.clone()));
                RefreshOutcome::Failed(message)
            }
            Ran::Exited {
                status,
                stdout,
                stderr,
            } if status.success() => {
                if !stderr.trim().is_empty() {
                    tracing::info!(stderr = %tail(stderr.trim(), MAX_MESSAGE), "refresh job said");
                }
                record.status = "success";
                record.exit_code = Some(0);
                if let Ok(Some(digest)) = digest_file::load(&self.data_dir) {
                    record.emails = i64::try_from(digest.stats.total_emails).unwrap_or(i64::MAX);
                    record.category_counts = digest
                        .categories
                        .iter()
                        .map(|(c, items)| (*c, items.len() as i64))
                        .collect();
                }
                let message = last_line(&stdout)
                    .unwrap_or_else(|| format!("refresh completed in {execution_time:.2} s"));
                record.message = Some(message.clone());
                RefreshOutcome::Success {
                    message,
                    execution_time,
                }
            }
            Ran::Exited { status, stderr, .. } => {
                let text = stderr.trim();
                let message = if text.is_empty() {
                    format!("the refresh command failed ({status}) and printed nothing on stderr")
                } else {
                    tail(text, MAX_MESSAGE).to_owned()
                };
                record.exit_code = status.code();
                if status.code().is_none() {
                    record.status = "killed";
                }
                record.message = Some(message.clone());
                record.error = Some(("ScriptFailed", message.clone()));
                RefreshOutcome::Failed(message)
            }
        };
        (outcome, record)
    }
}

enum Ran {
    NotStarted(String),
    TimedOut,
    Exited {
        status: ExitStatus,
        stdout: String,
        stderr: String,
    },
}

/// `digest-refresh` in the directory of the running server binary.
fn default_job_path() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the server binary: {e}"))?;
    let dir = exe
        .parent()
        .ok_or_else(|| format!("the server binary {} has no directory", exe.display()))?;
    Ok(dir.join(JOB_BINARY))
}

/// The command a refresh runs, for display (`sh -c ...` or the job's path).
pub fn describe_command(settings: &Settings) -> String {
    match &settings.refresh_command {
        Some(line) => format!("sh -c {line:?}"),
        None => default_job_path()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|e| e),
    }
}

/// Whether the configured refresh command can be started (the default binary exists).
pub fn command_problem(settings: &Settings) -> Option<String> {
    if settings.refresh_command.is_some() {
        return None;
    }
    match default_job_path() {
        Ok(path) if path.is_file() => None,
        Ok(path) => Some(format!(
            "the refresh job {} does not exist; install it beside the server or set DIGEST_REFRESH_COMMAND",
            path.display()
        )),
        Err(e) => Some(e),
    }
}

/// Kills the process group on drop unless disarmed (its field set to `None`).
struct GroupGuard(Option<u32>);

impl Drop for GroupGuard {
    fn drop(&mut self) {
        kill_group(self.0);
    }
}

fn kill_group(group: Option<u32>) {
    let Some(pid) = group
        .and_then(|g| i32::try_from(g).ok())
        .and_then(rustix::process::Pid::from_raw)
    else {
        return;
    };
    match rustix::process::kill_process_group(pid, rustix::process::Signal::KILL) {
        // ESRCH: the group is already empty, the normal case after a clean exit.
        Ok(()) | Err(rustix::io::Errno::SRCH) => {}
        Err(e) => tracing::warn!(error = %e, "cannot kill the refresh process group"),
    }
}

/// Reads a pipe to its end, keeping the last 64 KiB.
async fn read_tail(mut pipe: impl AsyncRead + Unpin) -> String {
    const KEEP: usize = 64 << 10;
    let mut kept = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match pipe.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                kept.extend_from_slice(&buf[..n]);
                if kept.len() > 2 * KEEP {
                    kept.drain(..kept.len() - KEEP);
                }
            }
        }
    }
    String::from_utf8_lossy(&kept).into_owned()
}

async fn collect(reader: Option<actix_web::rt::task::JoinHandle<String>>) -> String {
    let Some(reader) = reader else {
        return String::new();
    };
    // The group was killed, so the pipes close promptly; the bound is a safety net.
    match tokio::time::timeout(Duration::from_secs(2), reader).await {
        Ok(Ok(text)) => text,
        _ => String::new(),
    }
}

fn tail(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut start = text.len() - max;
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}

fn last_line(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .rfind(|l| !l.is_empty())
        .map(|l| tail(l, MAX_MESSAGE).to_owned())
}

/// `refresh.lock`, held (OS lock) from acquisition to drop; removed on drop.
struct LockFile {
    path: PathBuf,
    _file: File,
}

impl LockFile {
    /// Takes the lock, or `None` when another process (or worker) holds it.
    fn acquire(path: &Path) -> std::io::Result<Option<Self>> {
        loop {
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(path)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => return Ok(None),
                Err(TryLockError::Error(e)) => return Err(e),
            }
            // The previous owner unlinks the file before unlocking it: if we locked such an
            // unlinked file, someone else may already hold the new one; start again.
            let ours = file.metadata()?;
            match std::fs::metadata(path) {
                Ok(now) if now.ino() == ours.ino() && now.dev() == ours.dev() => {}
                _ => continue,
            }
            file.set_len(0)?;
            writeln!(file, "{}", std::process::id())?;
            return Ok(Some(Self {
                path: path.to_owned(),
                _file: file,
            }));
        }
    }
}

impl Drop for LockFile {
    fn drop(&mut self) {
        // Unlink first, then the file is closed (and unlocked) when `_file` drops.
        if let Err(e) = std::fs::remove_file(&self.path) {
            tracing::warn!(error = %e, path = %self.path.display(), "cannot remove the refresh lock");
        }
    }
}

/// Whether some open file description other than ours holds the lock.
fn held_elsewhere(path: &Path) -> bool {
    let Ok(file) = File::open(path) else {
        return false;
    };
    matches!(file.try_lock_shared(), Err(TryLockError::WouldBlock))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lock_is_exclusive_holds_the_pid_and_is_removed_on_release() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(LOCK_FILE);
        let first = LockFile::acquire(&path).unwrap().expect("free lock");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap().trim(),
            std::process::id().to_string()
        );
        assert!(LockFile::acquire(&path).unwrap().is_none());
        assert!(held_elsewhere(&path));
        drop(first);
        assert!(!path.exists());
        assert!(!held_elsewhere(&path));
        assert!(LockFile::acquire(&path).unwrap().is_some());
    }

    #[test]
    fn a_stale_lock_file_of_a_dead_owner_does_not_block() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(LOCK_FILE);
        std::fs::write(&path, "999999\n").unwrap();
        assert!(!held_elsewhere(&path));
        assert!(LockFile::acquire(&path).unwrap().is_some());
    }

    #[test]
    fn tail_keeps_the_end_on_a_char_boundary() {
        assert_eq!(tail("abcdef", 3), "def");
        assert_eq!(tail("ééé", 3), "é");
        assert_eq!(last_line("one\ntwo\n\n").as_deref(), Some("two"));
    }
}
