//! The run store: a SQLite file in the data dir (`runs.sqlite3`, WAL mode) shared by the
//! refresh job (writer of runs, errors and caches) and the web service (reader, and writer of
//! test runs). The schema is in `schema.sql` beside this file.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::Connection;

pub mod cache;
pub mod queries;
pub mod runs;
pub mod test_runs;

/// The file name of the store inside the data dir.
pub const FILE_NAME: &str = "runs.sqlite3";

const SCHEMA: &str = include_str!("schema.sql");
/// Bumped when `schema.sql` changes incompatibly.
const SCHEMA_VERSION: i32 = 1;

/// Failures of the run store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The data dir could not be created.
    #[error("cannot create data dir {path}: {source}")]
    DataDir {
        /// The directory.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// SQLite failed (open, migrate, query).
    #[error("run store {path}: {source}")]
    Sqlite {
        /// The database file.
        path: PathBuf,
        /// SQLite's error.
        source: rusqlite::Error,
    },
}

/// The store's path inside `data_dir`.
pub fn path(data_dir: &Path) -> PathBuf {
    data_dir.join(FILE_NAME)
}

/// Opens (creating if needed) the store in `data_dir`, in WAL mode with a busy timeout so the
/// job and the web service can use it at once.
pub fn open(data_dir: &Path) -> Result<Connection, StoreError> {
    std::fs::create_dir_all(data_dir).map_err(|source| StoreError::DataDir {
        path: data_dir.to_owned(),
        source,
    })?;
    let file = path(data_dir);
    let wrap = |source| StoreError::Sqlite {
        path: file.clone(),
        source,
    };
    let conn = Connection::open(&file).map_err(wrap)?;
    conn.busy_timeout(Duration::from_secs(5)).map_err(wrap)?;
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(wrap)?;
    conn.pragma_update(None, "synchronous", "NORMAL")
        .map_err(wrap)?;
    conn.pragma_update(None, "foreign_keys", "ON")
        .map_err(wrap)?;
    let version: i32 = conn
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .map_err(wrap)?;
    if version < SCHEMA_VERSION {
        conn.execute_batch(SCHEMA).map_err(wrap)?;
        conn.pragma_update(None, "user_version", SCHEMA_VERSION)
            .map_err(wrap)?;
    }
    Ok(conn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_creates_every_table_in_wal_mode() {
        let dir = tempfile::tempdir().unwrap();
        let conn = open(dir.path()).unwrap();
        let mode: String = conn
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        for table in [
            "runs",
            "errors",
            "message_cache",
            "summary_cache",
            "test_runs",
        ] {
            let n: i64 = conn
                .query_row(
                    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1",
                    [table],
                    |r| r.get(0),
                )
                .unwrap();
            assert_eq!(n, 1, "{table} missing");
        }
        // Opening again is a no-op on an up-to-date store.
        drop(conn);
        open(dir.path()).unwrap();
    }
}
