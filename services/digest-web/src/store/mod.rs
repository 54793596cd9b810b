//! What the refresh job and the web server share on disk, in the data dir.
//!
//! The run store: a SQLite file (`runs.sqlite3`, WAL mode) written by the refresh job (runs,
//! errors and caches) and read by the web service (which writes test runs). The schema is in
//! `schema.sql` beside this file.
//!
//! - [`runs`]: the job's run rows and errors; [`cache`]: parsed messages; [`llm_cache`]: the
//!   LLM's answers; [`test_runs`]: the diagnostics' results; [`queries`]: what the dashboard
//!   reads (metrics, errors, run history); [`corrections`]: categories ops staff corrected;
//!   [`mail_facts`]: what each message says about unsubscribing and its thread (inbox and
//!   sent mail); [`unsubscribes`]: the unsubscribes made on the dashboard.
//! - [`digest_file`]: `digest.json`, written by the job, read by the web service.
//! - [`window::Window`]: the job's window and the dashboard's period, one type.
//!
//! The web service keeps its connections in a [`Pool`] rather than opening one per request:
//! opening costs a directory check, the pragmas, a schema-version read and a fresh statement
//! cache, which was a good part of a `GET /`.

use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use rusqlite::{Connection, TransactionBehavior};
use rusqlite_migration::{M, Migrations};

pub mod cache;
pub mod corrections;
pub mod digest_file;
pub mod llm_cache;
pub mod mail_facts;
pub mod queries;
pub mod runs;
pub mod test_runs;
pub mod unsubscribes;
pub mod window;

/// How many days the store keeps what it read of a message (the message cache, the inbox's
/// and the sent mail's `mail_facts`): also how far back conversations are read.
pub const RETENTION_DAYS: i64 = 90;

/// The file name of the store inside the data dir.
pub const FILE_NAME: &str = "runs.sqlite3";

/// The schema's migrations, in order, each keeping the data: the first builds a schema-1
/// store, each later one brings it one version up. `schema.sql` beside this file is the whole
/// current schema for readers (a test holds the migrations to it).
const MIGRATIONS: [&str; 5] = [
    include_str!("migrations/v1.sql"),
    include_str!("migrations/v2.sql"),
    include_str!("migrations/v3.sql"),
    include_str!("migrations/v4.sql"),
    include_str!("migrations/v5.sql"),
];
/// `PRAGMA user_version` of an up-to-date store: the number of migrations applied.
pub const SCHEMA_VERSION: i32 = MIGRATIONS.len() as i32;

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
    /// The data dir exists but this process cannot write in it (a read-only mount, or no
    /// write permission): SQLite needs to create its WAL files there.
    #[error("data dir {path} is not writable (read-only, or no write permission): {source}")]
    ReadOnly {
        /// The directory.
        path: PathBuf,
        /// Why a file could not be created in it.
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
    let opened = (|| {
        let mut conn = Connection::open(&file)?;
        conn.busy_timeout(Duration::from_secs(5))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        migrate(&mut conn)?;
        Ok(conn)
    })();
    opened.map_err(|source| {
        // SQLite only says "unable to open database file" when it cannot create its WAL
        // files: name the real cause when the directory is not writable.
        match not_writable(data_dir) {
            Some(io) => StoreError::ReadOnly {
                path: data_dir.to_owned(),
                source: io,
            },
            None => StoreError::Sqlite { path: file, source },
        }
    })
}

/// Why nothing can be created in `dir`, or `None` if a probe file can be.
fn not_writable(dir: &Path) -> Option<std::io::Error> {
    let probe = dir.join(format!(".write-probe-{}", std::process::id()));
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            None
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => None,
        Err(e) => Some(e),
    }
}

/// Idle connections a [`Pool`] keeps; more are opened under load and closed after use.
const POOL_IDLE: usize = 8;

/// Connections to one data dir's store, opened on first use and reused. Every query here runs
/// in autocommit mode, so a pooled connection holds no read transaction between requests and
/// sees the rows the refresh job (another process) commits. Should the store file be removed
/// or replaced (an operator resetting it), the idle connections to the old file are dropped
/// and a new one opened, as when every request opened its own.
pub struct Pool {
    data_dir: PathBuf,
    idle: Mutex<Vec<(FileId, Connection)>>,
}

/// Device and inode of the store file a connection opened.
type FileId = (u64, u64);

fn file_id(data_dir: &Path) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path(data_dir))
        .ok()
        .map(|m| (m.dev(), m.ino()))
}

/// A connection taken from a [`Pool`]; it goes back when dropped.
pub struct Pooled<'a> {
    pool: &'a Pool,
    conn: Option<(FileId, Connection)>,
}

impl Pool {
    /// An empty pool for the store in `data_dir` (nothing is opened yet).
    pub fn new(data_dir: &Path) -> Self {
        Self {
            data_dir: data_dir.to_owned(),
            idle: Mutex::new(Vec::new()),
        }
    }

    /// An idle connection, or a new one from [`open`] (whose errors it returns).
    pub fn get(&self) -> Result<Pooled<'_>, StoreError> {
        let current = file_id(&self.data_dir);
        let idle = {
            let mut idle = self.lock();
            idle.retain(|(id, _)| Some(*id) == current);
            idle.pop()
        };
        let conn = match idle {
            Some(conn) => conn,
            None => {
                let conn = open(&self.data_dir)?;
                // `open` made the file if it was missing; should it be gone again already,
                // (0, 0) matches no file and the connection is dropped at the next `get`.
                (file_id(&self.data_dir).unwrap_or((0, 0)), conn)
            }
        };
        Ok(Pooled {
            pool: self,
            conn: Some(conn),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(FileId, Connection)>> {
        // A panic while holding the lock leaves only a Vec of connections, still valid.
        self.idle
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Deref for Pooled<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        // Set in `Pool::get`, taken only in `drop`.
        &self
            .conn
            .as_ref()
            .expect("a pooled connection until dropped")
            .1
    }
}

impl Drop for Pooled<'_> {
    fn drop(&mut self) {
        let Some(conn) = self.conn.take() else { return };
        // A connection left inside a transaction would pin an old snapshot: close it instead.
        if !conn.1.is_autocommit() {
            return;
        }
        let mut idle = self.pool.lock();
        if idle.len() < POOL_IDLE {
            idle.push(conn);
        }
    }
}

/// Brings the store to [`SCHEMA_VERSION`] with the migrations it lacks (a new store gets
/// them all), in one transaction. A store of a newer build is left as it is.
///
/// The job and the web service may open an old store at once: the migrations run in an
/// immediate transaction, so one waits for the other, and should the loser then fail
/// (re-applying a migration the winner committed), the store is current and that is success.
fn migrate(conn: &mut Connection) -> rusqlite::Result<()> {
    let version = |conn: &Connection| -> rusqlite::Result<i32> {
        conn.query_row("PRAGMA user_version", [], |row| row.get(0))
    };
    if version(conn)? >= SCHEMA_VERSION {
        return Ok(());
    }
    let migrations = Migrations::new(MIGRATIONS.iter().map(|sql| M::up(sql)).collect());
    conn.set_transaction_behavior(TransactionBehavior::Immediate);
    let result = migrations.to_latest(conn);
    conn.set_transaction_behavior(TransactionBehavior::Deferred);
    match result {
        Ok(()) => Ok(()),
        Err(_) if version(conn)? >= SCHEMA_VERSION => Ok(()),
        Err(rusqlite_migration::Error::RusqliteError { err, .. }) => Err(err),
        Err(other) => Err(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_ERROR),
            Some(format!("schema migration: {other}")),
        )),
    }
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
            "category_cache",
            "test_runs",
            "corrections",
            "message_features",
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

    #[test]
    fn a_pooled_connection_is_reused_and_sees_rows_another_process_commits() {
        let dir = tempfile::tempdir().unwrap();
        let pool = Pool::new(dir.path());
        let runs = |conn: &Connection| -> i64 {
            conn.query_row("SELECT count(*) FROM runs", [], |r| r.get(0))
                .unwrap()
        };
        assert_eq!(runs(&pool.get().unwrap()), 0);
        assert_eq!(pool.lock().len(), 1, "the connection was not kept");

        // The refresh job writes through its own connection.
        open(dir.path())
            .unwrap()
            .execute(
                "INSERT INTO runs (started_at, status) VALUES ('2026-11-21T10:00:00', 'success')",
                [],
            )
            .unwrap();
        assert_eq!(runs(&pool.get().unwrap()), 1);
        assert_eq!(pool.lock().len(), 1, "a second connection was opened");

        // A connection dropped inside a transaction is closed, not pooled.
        let conn = pool.get().unwrap();
        conn.execute_batch("BEGIN").unwrap();
        drop(conn);
        assert_eq!(pool.lock().len(), 0);

        // A store removed under the server: the next request gets a new, empty one.
        drop(pool.get().unwrap());
        assert_eq!(pool.lock().len(), 1);
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path(dir.path()).display()));
        }
        assert_eq!(runs(&pool.get().unwrap()), 0);
        assert!(path(dir.path()).exists());
        assert_eq!(pool.lock().len(), 1);
    }

    #[test]
    fn a_file_as_data_dir_is_a_data_dir_error_and_the_write_probe_works() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("not-a-dir");
        std::fs::write(&file, "").unwrap();
        // A plain file cannot hold the store: that is an I/O problem, not a read-only dir.
        let err = open(&file).expect_err("a file is not a data dir");
        assert!(matches!(err, StoreError::DataDir { .. }), "{err}");
        assert!(not_writable(dir.path()).is_none());
        assert!(not_writable(&dir.path().join("missing")).is_some());
    }

    #[test]
    fn a_schema_1_store_is_migrated_and_keeps_its_rows() {
        let dir = tempfile::tempdir().unwrap();
        {
            let conn = Connection::open(path(dir.path())).unwrap();
            conn.execute_batch(MIGRATIONS[0]).unwrap();
            conn.pragma_update(None, "user_version", 1).unwrap();
            conn.execute(
                "INSERT INTO runs (started_at, status, api_calls, cache_hits, cache_lookups)
                 VALUES ('2026-11-20T10:00:00', 'success', 3, 4, 5)",
                [],
            )
            .unwrap();
            conn.execute(
                "INSERT INTO summary_cache (key, summary, engine, created_at)
                 VALUES ('k', 's', 'offline', '2026-11-20T10:00:00')",
                [],
            )
            .unwrap();
        }
        let conn = open(dir.path()).unwrap();
        let version: i32 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION);
        let row: (i64, i64, i64, i64, String) = conn
            .query_row(
                "SELECT api_calls, cache_hits, llm_cache_hits, llm_cache_lookups, engine FROM runs",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
            )
            .unwrap();
        assert_eq!(row, (3, 4, 0, 0, "offline".to_owned()));
        let summaries: i64 = conn
            .query_row("SELECT count(*) FROM summary_cache", [], |r| r.get(0))
            .unwrap();
        assert_eq!(summaries, 1);
        conn.execute(
            "INSERT INTO category_cache (key, category, engine, created_at)
             VALUES ('k', 'FYI', 'llm:m', '2026-11-21T10:00:00')",
            [],
        )
        .unwrap();
        // And the migration is not applied twice.
        drop(conn);
        open(dir.path()).unwrap();
    }

    #[test]
    fn the_migrations_build_the_schema_of_schema_sql() {
        let columns = |conn: &Connection| -> Vec<(String, String, String, bool, Option<String>)> {
            let mut stmt = conn
                .prepare(
                    "SELECT m.name, p.name, p.type, p.\"notnull\", p.dflt_value
                     FROM sqlite_master m, pragma_table_info(m.name) p
                     WHERE m.type = 'table' ORDER BY m.name, p.name",
                )
                .unwrap();
            stmt.query_map([], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap()
        };
        let indexes = |conn: &Connection| -> Vec<String> {
            let mut stmt = conn
                .prepare("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name")
                .unwrap();
            stmt.query_map([], |r| r.get(0))
                .unwrap()
                .collect::<rusqlite::Result<_>>()
                .unwrap()
        };
        let dir = tempfile::tempdir().unwrap();
        let migrated = open(dir.path()).unwrap();
        let documented = Connection::open_in_memory().unwrap();
        documented
            .execute_batch(include_str!("schema.sql"))
            .unwrap();
        assert!(columns(&migrated).len() > 20);
        assert_eq!(columns(&migrated), columns(&documented));
        assert_eq!(indexes(&migrated), indexes(&documented));
    }
}
