use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use rusqlite::Connection;

/// The sample Maildir in the repository.
pub fn sample_maildir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-mailbox")
}

/// The fixture mbox.
pub fn fixture_mbox() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/mailbox.mbox")
}

/// Copies the sample Maildir to `dest` (a fresh Maildir with cur/new/tmp).
pub fn copy_sample(dest: &Path) -> usize {
    let mut n = 0;
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(dest.join(sub)).unwrap();
    }
    for entry in std::fs::read_dir(sample_maildir().join("cur")).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if !name.to_string_lossy().starts_with('.') {
            std::fs::copy(entry.path(), dest.join("cur").join(name)).unwrap();
            n += 1;
        }
    }
    n
}

/// Runs `digest-refresh` with `args` and `env`, with every inherited DIGEST_* and LLM_*
/// variable removed.
pub fn refresh(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_digest-refresh"));
    for (key, _) in std::env::vars() {
        if key.starts_with("DIGEST_")
            || key.starts_with("LLM_")
            || key == "CONFIG_FILE"
            || key == "RUST_LOG"
        {
            cmd.env_remove(key);
        }
    }
    cmd.args(args).envs(env.iter().copied());
    cmd.output().expect("digest-refresh runs")
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts success and returns the digest JSON.
pub fn digest(out: &Output, data_dir: &Path) -> serde_json::Value {
    assert!(
        out.status.success(),
        "exit {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        stdout(out),
        stderr(out)
    );
    let text = std::fs::read_to_string(data_dir.join("digest.json")).expect("digest.json written");
    serde_json::from_str(&text).expect("digest.json is JSON")
}

/// The last run row: (status, emails_processed, api_calls, cache_hits, cache_lookups, message).
pub type RunRow = (String, i64, i64, i64, i64, Option<String>);

pub fn last_run(data_dir: &Path) -> RunRow {
    last_run_columns(
        data_dir,
        "status, emails_processed, api_calls, cache_hits, cache_lookups, message",
    )
}

/// `columns` (comma-separated) of the last run row, as a tuple.
pub fn last_run_columns<T>(data_dir: &Path, columns: &str) -> T
where
    T: for<'a> TryFrom<&'a rusqlite::Row<'a>, Error = rusqlite::Error>,
{
    let conn = Connection::open(data_dir.join("runs.sqlite3")).unwrap();
    conn.query_row(
        &format!("SELECT {columns} FROM runs ORDER BY id DESC LIMIT 1"),
        [],
        |r| r.try_into(),
    )
    .unwrap()
}

/// Every error row: (module, error_type, message).
pub fn errors(data_dir: &Path) -> Vec<(String, String, String)> {
    let conn = Connection::open(data_dir.join("runs.sqlite3")).unwrap();
    let mut stmt = conn
        .prepare("SELECT module, error_type, message FROM errors ORDER BY id")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// Number of emails over all categories.
pub fn count(digest: &serde_json::Value) -> usize {
    digest["categories"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_array().unwrap().len())
        .sum()
}

/// One RFC 5322 message with the given Date header.
pub fn message(id: &str, date: &str, subject: &str) -> String {
    format!(
        "From: Test Person <test@example.com>\r\nTo: dana@example.com\r\nSubject: {subject}\r\n\
         Date: {date}\r\nMessage-ID: <{id}>\r\n\r\nCould you look at {subject} by Friday?\r\n"
    )
}
