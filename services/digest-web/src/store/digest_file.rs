//! `<data-dir>/digest.json`: the refresh job writes it atomically ([`write_atomically`]), the
//! web service reads it.
//!
//! Before the first refresh there is no file: [`load_or_empty`] then answers an empty digest
//! with all five categories and `generated_at` set to the Unix epoch (see docs/decisions.md).
//!
//! The web service reads it through a [`DigestCache`]: the file is parsed once per version
//! (its inode, length, mtime and ctime), and what is derived from it (the `/api/digest` body,
//! the page's rendered email list) is kept beside it in a [`CachedDigest`].

use std::io::{Read, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use actix_web::web::Bytes;
use domain::email::{Category, Digest};

/// The digest's file name inside the data dir.
pub const FILE_NAME: &str = "digest.json";

/// `generated_at` of the digest served before any refresh.
pub const NEVER: &str = "1970-01-01T00:00:00";

/// The digest file exists but cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum DigestFileError {
    /// Reading failed (permissions, I/O).
    #[error("cannot read digest.json: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not a valid Digest.
    #[error("digest.json is corrupted: {reason}")]
    Corrupted {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
}

/// The digest file's path in `data_dir`.
pub fn path(data_dir: &Path) -> PathBuf {
    data_dir.join(FILE_NAME)
}

/// The digest, or `None` when no refresh has written one yet.
pub fn load(data_dir: &Path) -> Result<Option<Digest>, DigestFileError> {
    let path = path(data_dir);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(DigestFileError::Read { path, source }),
    };
    parse(&bytes, path).map(Some)
}

/// A valid digest from the file's bytes, or why it is corrupted.
fn parse(bytes: &[u8], path: PathBuf) -> Result<Digest, DigestFileError> {
    let digest: Digest = serde_json::from_slice(bytes).map_err(|e| DigestFileError::Corrupted {
        path: path.clone(),
        reason: e.to_string(),
    })?;
    let problems = problems(&digest);
    if let Some(first) = problems.first() {
        return Err(DigestFileError::Corrupted {
            path,
            reason: first.clone(),
        });
    }
    Ok(digest)
}

/// The digest, or the empty digest before the first refresh.
pub fn load_or_empty(data_dir: &Path) -> Result<Digest, DigestFileError> {
    Ok(load(data_dir)?.unwrap_or_else(|| Digest::empty(NEVER)))
}

/// One version of the digest file: the same inode, length, mtime and ctime. The refresh job
/// replaces the file by a rename, so each new digest has a new inode and times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Identity {
    dev: u64,
    ino: u64,
    len: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl Identity {
    fn of(meta: &std::fs::Metadata) -> Self {
        Self {
            dev: meta.dev(),
            ino: meta.ino(),
            len: meta.len(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        }
    }
}

/// A parsed digest and what is derived from it, each made at most once.
pub struct CachedDigest {
    /// The digest (the empty one before the first refresh).
    pub digest: Digest,
    json: OnceLock<Bytes>,
    sections_html: OnceLock<String>,
}

impl CachedDigest {
    fn new(digest: Digest) -> Self {
        Self {
            digest,
            json: OnceLock::new(),
            sections_html: OnceLock::new(),
        }
    }

    /// The empty digest served before the first refresh (and shown beside a digest error).
    pub fn empty() -> Self {
        Self::new(Digest::empty(NEVER))
    }

    /// The digest as JSON, the `GET /api/digest` body (serialized once).
    pub fn json(&self) -> Result<Bytes, serde_json::Error> {
        if let Some(json) = self.json.get() {
            return Ok(json.clone());
        }
        let json = Bytes::from(serde_json::to_vec(&self.digest)?);
        Ok(self.json.get_or_init(|| json).clone())
    }

    /// The HTML `render` makes of the digest, rendered at most once per digest (two requests
    /// arriving together may both render; one result is kept).
    pub fn sections_html<E>(
        &self,
        render: impl FnOnce(&Digest) -> Result<String, E>,
    ) -> Result<&str, E> {
        if let Some(html) = self.sections_html.get() {
            return Ok(html);
        }
        let html = render(&self.digest)?;
        Ok(self.sections_html.get_or_init(|| html))
    }
}

/// The digest file of one data dir, parsed once per version. A file that cannot be read or
/// parsed is not cached: every request reads it again and gets the same error, until the next
/// refresh replaces it.
pub struct DigestCache {
    data_dir: PathBuf,
    current: Mutex<Option<(Option<Identity>, Arc<CachedDigest>)>>,
}

impl DigestCache {
    /// An empty cache for `data_dir`'s digest.
    pub fn new(data_dir: &Path) -> Self {
        Self {
            data_dir: data_dir.to_owned(),
            current: Mutex::new(None),
        }
    }

    /// Like [`load_or_empty`], from the cache while the file is unchanged.
    pub fn load_or_empty(&self) -> Result<Arc<CachedDigest>, DigestFileError> {
        let path = path(&self.data_dir);
        // Open first and take the identity from the open file, so the bytes read below are
        // those of that version even if the job renames a new file into place meanwhile.
        let file = match std::fs::File::open(&path) {
            Ok(file) => Some(file),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(source) => return Err(DigestFileError::Read { path, source }),
        };
        let identity = match &file {
            Some(file) => match file.metadata() {
                Ok(meta) => Some(Identity::of(&meta)),
                Err(source) => return Err(DigestFileError::Read { path, source }),
            },
            None => None,
        };
        if let Some((cached, digest)) = self.lock().as_ref()
            && *cached == identity
        {
            return Ok(digest.clone());
        }
        let digest = match file {
            None => CachedDigest::empty(),
            Some(mut file) => {
                let mut bytes = Vec::new();
                if let Err(source) = file.read_to_end(&mut bytes) {
                    return Err(DigestFileError::Read { path, source });
                }
                CachedDigest::new(parse(&bytes, path)?)
            }
        };
        let digest = Arc::new(digest);
        *self.lock() = Some((identity, digest.clone()));
        Ok(digest)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<(Option<Identity>, Arc<CachedDigest>)>> {
        // The guarded value is replaced whole, so a panic elsewhere cannot leave it half-made.
        self.current
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Everything that makes a parsed digest break the spec's rules (empty when valid): every
/// category present, `generated_at` an ISO 8601 datetime without zone, dates `YYYY-MM-DD`.
pub fn problems(digest: &Digest) -> Vec<String> {
    let mut out = Vec::new();
    if chrono::NaiveDateTime::parse_from_str(&digest.generated_at, "%Y-%m-%dT%H:%M:%S%.f").is_err()
    {
        out.push(format!(
            "generated_at '{}' is not an ISO 8601 datetime without zone",
            digest.generated_at
        ));
    }
    for category in Category::ALL {
        if !digest.categories.contains_key(&category) {
            out.push(format!("category {category} is missing"));
        }
    }
    for (category, items) in &digest.categories {
        for item in items {
            if chrono::NaiveDate::parse_from_str(&item.date, "%Y-%m-%d").is_err() {
                out.push(format!(
                    "email {} in {category} has date '{}', not YYYY-MM-DD",
                    item.id, item.date
                ));
            }
        }
    }
    out
}

/// Writes JSON to a temp file in the same directory, syncs it, renames it over `path` and
/// syncs the directory: readers see the old digest or the new one, never half of one.
pub fn write_atomically(path: &Path, digest: &Digest) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        path.file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("digest.json"),
        std::process::id()
    ));
    let result = (|| {
        // Buffered: serde_json writes in small pieces (one syscall each otherwise).
        let mut out = std::io::BufWriter::with_capacity(256 << 10, std::fs::File::create(&tmp)?);
        serde_json::to_writer_pretty(&mut out, digest)?;
        out.write_all(b"\n")?;
        let file = out
            .into_inner()
            .map_err(std::io::IntoInnerError::into_error)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)?;
        std::fs::File::open(dir)?.sync_all()
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_file_is_none_and_empty_digest_has_all_categories() {
        let dir = tempfile::tempdir().unwrap();
        assert!(load(dir.path()).unwrap().is_none());
        let digest = load_or_empty(dir.path()).unwrap();
        assert_eq!(digest.categories.len(), 5);
        assert!(problems(&digest).is_empty());
    }

    #[test]
    fn garbage_and_missing_categories_are_corrupted() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(path(dir.path()), "{not json").unwrap();
        let err = load(dir.path()).unwrap_err();
        assert!(err.to_string().contains("corrupted"), "{err}");

        let mut digest = Digest::empty("2026-11-21T10:00:00");
        digest.categories.remove(&Category::Social);
        std::fs::write(path(dir.path()), serde_json::to_vec(&digest).unwrap()).unwrap();
        let err = load(dir.path()).unwrap_err();
        assert!(err.to_string().contains("Social is missing"), "{err}");
    }

    #[test]
    fn the_cache_reloads_when_the_file_is_replaced_and_never_caches_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let cache = DigestCache::new(dir.path());
        let empty = cache.load_or_empty().unwrap();
        assert_eq!(empty.digest.generated_at, NEVER);
        assert!(Arc::ptr_eq(&empty, &cache.load_or_empty().unwrap()));

        let write = |digest: &Digest| {
            // Like the job: a new file renamed into place.
            let tmp = dir.path().join("digest.json.tmp");
            std::fs::write(&tmp, serde_json::to_vec(digest).unwrap()).unwrap();
            std::fs::rename(&tmp, path(dir.path())).unwrap();
        };
        write(&Digest::empty("2026-11-21T10:00:00"));
        let first = cache.load_or_empty().unwrap();
        assert_eq!(first.digest.generated_at, "2026-11-21T10:00:00");
        let again = cache.load_or_empty().unwrap();
        assert!(
            Arc::ptr_eq(&first, &again),
            "an unchanged file was parsed again"
        );
        assert_eq!(
            first.json().unwrap(),
            serde_json::to_vec(&first.digest).unwrap()
        );

        // Same length, new file: reloaded.
        write(&Digest::empty("2026-11-21T11:00:00"));
        let second = cache.load_or_empty().unwrap();
        assert_eq!(second.digest.generated_at, "2026-11-21T11:00:00");

        // Corrupted: the error every time, then the next good file.
        std::fs::write(path(dir.path()), "{not json").unwrap();
        for _ in 0..2 {
            let err = cache
                .load_or_empty()
                .err()
                .expect("a corrupted file is an error");
            assert!(err.to_string().contains("corrupted"), "{err}");
        }
        write(&Digest::empty("2026-11-21T12:00:00"));
        let third = cache.load_or_empty().unwrap();
        assert_eq!(third.digest.generated_at, "2026-11-21T12:00:00");

        // Removed: the empty digest again.
        std::fs::remove_file(path(dir.path())).unwrap();
        assert_eq!(cache.load_or_empty().unwrap().digest.generated_at, NEVER);
    }

    #[test]
    fn atomic_write_replaces_the_file_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        std::fs::write(&path, "old").unwrap();
        write_atomically(&path, &Digest::empty("2026-11-21T00:00:00")).unwrap();
        let back: Digest = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(back, Digest::empty("2026-11-21T00:00:00"));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
