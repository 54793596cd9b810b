//! Local mailboxes: Maildir folders, mbox files and the embedded sample Maildir.

use std::io::BufReader;
use std::path::{Path, PathBuf};

use chrono::{DateTime, TimeZone, Utc};
use mail_parser::mailbox::mbox::MessageIterator;

use super::{MailError, MailSource, fnv1a};

// The sample Maildir compiled into the binary (`SAMPLE_MESSAGES`, written by build.rs): the
// default mail source, and the golden messages of the fixtures.
include!(concat!(env!("OUT_DIR"), "/sample_mailbox.rs"));

/// A message found in a mailbox, before it is read: its cache key and delivery time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Maildir base name (before `:2,`), `mbox-<hash of the bytes>`, or
    /// `<uidvalidity>:<uid>` for IMAP.
    pub key: String,
    /// When the message arrived (file time, mbox `From ` line, INTERNALDATE), if known.
    pub delivered_at: Option<DateTime<Utc>>,
}

enum Location {
    File(PathBuf),
    Memory(Vec<u8>),
    Static(&'static [u8]),
    /// An mbox message whose bytes were not kept (already cached).
    NotKept,
}

/// An opened local mailbox: the entry list is read at open, bodies on demand.
pub struct LocalMailbox {
    entries: Vec<Entry>,
    locations: Vec<Location>,
}

impl LocalMailbox {
    /// Lists the messages of a Maildir, mbox or the sample. IMAP is not local: `InvalidSource`.
    pub fn open(source: &MailSource) -> Result<Self, MailError> {
        Self::open_keeping(source, &|_| true)
    }

    /// Like [`open`](Self::open), but an mbox keeps in memory only the messages whose key
    /// `keep` accepts (the cache misses), so a large mbox is not held whole.
    pub fn open_keeping(
        source: &MailSource,
        keep: &dyn Fn(&str) -> bool,
    ) -> Result<Self, MailError> {
        match source {
            MailSource::Maildir(path) => open_maildir(path),
            MailSource::Mbox(path) => open_mbox(path, keep),
            MailSource::Sample => Ok(open_sample()),
            MailSource::Imap(url) => Err(MailError::InvalidSource {
                value: url.to_string(),
                reason: "not a local mailbox".into(),
            }),
        }
    }

    /// How many messages the mailbox holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The messages, in mailbox order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The raw bytes of entry `index`.
    pub fn load(&self, index: usize) -> std::io::Result<Vec<u8>> {
        match self.locations.get(index) {
            Some(Location::File(path)) => std::fs::read(path),
            Some(Location::Memory(bytes)) => Ok(bytes.clone()),
            Some(Location::Static(bytes)) => Ok(bytes.to_vec()),
            Some(Location::NotKept) => Err(std::io::Error::other(
                "message not kept in memory (it was cached)",
            )),
            None => Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "no such message",
            )),
        }
    }
}

/// The Maildir key of a file name: the unique part before the `:2,FLAGS` info.
pub fn maildir_key(file_name: &str) -> &str {
    file_name
        .split_once(':')
        .or_else(|| file_name.split_once(';'))
        .map_or(file_name, |(base, _)| base)
}

fn open_maildir(root: &Path) -> Result<LocalMailbox, MailError> {
    let err = |source| MailError::Local {
        kind: "Maildir",
        path: root.display().to_string(),
        source,
    };
    let mut found = Vec::new();
    let mut any_dir = false;
    for sub in ["cur", "new"] {
        let dir = root.join(sub);
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(err(e)),
        };
        any_dir = true;
        for entry in entries {
            let entry = entry.map_err(err)?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let meta = match entry.metadata() {
                Ok(m) if m.is_file() => m,
                _ => continue,
            };
            let delivered_at = meta.modified().ok().map(DateTime::<Utc>::from);
            found.push((maildir_key(&name).to_owned(), delivered_at, entry.path()));
        }
    }
    if !any_dir {
        return Err(err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            "no cur/ or new/ folder (not a Maildir)",
        )));
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    let (entries, locations) = found
        .into_iter()
        .map(|(key, delivered_at, path)| (Entry { key, delivered_at }, Location::File(path)))
        .unzip();
    Ok(LocalMailbox { entries, locations })
}

fn open_mbox(path: &Path, keep: &dyn Fn(&str) -> bool) -> Result<LocalMailbox, MailError> {
    let err = |source| MailError::Local {
        kind: "mbox",
        path: path.display().to_string(),
        source,
    };
    let file = std::fs::File::open(path).map_err(err)?;
    let mut entries = Vec::new();
    let mut locations = Vec::new();
    for message in MessageIterator::new(BufReader::new(file)) {
        let message = message.map_err(err)?;
        let seconds = i64::try_from(message.internal_date()).unwrap_or(0);
        let delivered_at = (seconds > 0)
            .then(|| Utc.timestamp_opt(seconds, 0).single())
            .flatten();
        let bytes = message.unwrap_contents();
        let key = format!("mbox-{:016x}", fnv1a(&bytes));
        locations.push(if keep(&key) {
            Location::Memory(bytes)
        } else {
            Location::NotKept
        });
        entries.push(Entry { key, delivered_at });
    }
    Ok(LocalMailbox { entries, locations })
}

fn open_sample() -> LocalMailbox {
    let (entries, locations) = SAMPLE_MESSAGES
        .iter()
        .map(|(name, bytes)| {
            (
                Entry {
                    key: maildir_key(name).to_owned(),
                    delivered_at: None,
                },
                Location::Static(bytes),
            )
        })
        .unzip();
    LocalMailbox { entries, locations }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maildir_key_drops_flags() {
        assert_eq!(
            maildir_key("1700000000.M1P2.host:2,RS"),
            "1700000000.M1P2.host"
        );
        assert_eq!(maildir_key("1700000000.M1P2.host"), "1700000000.M1P2.host");
    }

    #[test]
    fn reads_cur_and_new_and_skips_tmp() {
        let dir = tempfile::tempdir().unwrap();
        for sub in ["cur", "new", "tmp"] {
            std::fs::create_dir(dir.path().join(sub)).unwrap();
        }
        std::fs::write(dir.path().join("cur/a:2,S"), b"Subject: a\n\nA").unwrap();
        std::fs::write(dir.path().join("new/b"), b"Subject: b\n\nB").unwrap();
        std::fs::write(dir.path().join("tmp/c"), b"Subject: c\n\nC").unwrap();
        let mailbox = LocalMailbox::open(&MailSource::Maildir(dir.path().into())).unwrap();
        let keys: Vec<_> = mailbox.entries().iter().map(|e| e.key.as_str()).collect();
        assert_eq!(keys, ["a", "b"]);
        assert!(mailbox.entries()[0].delivered_at.is_some());
        assert_eq!(mailbox.load(1).unwrap(), b"Subject: b\n\nB");
    }

    #[test]
    fn missing_maildir_is_a_clear_error() {
        let err = LocalMailbox::open(&MailSource::Maildir("/nonexistent/mail".into()))
            .err()
            .unwrap();
        assert!(
            err.to_string()
                .starts_with("cannot read Maildir /nonexistent/mail")
        );
    }

    #[test]
    fn mbox_splits_messages_and_reads_from_line_dates() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("in.mbox");
        std::fs::write(
            &path,
            "From alice@example.com Sat Nov 21 10:00:00 2026\nSubject: one\n\nbody\n\n\
             From bob@example.com Sat Nov 21 11:00:00 2026\nSubject: two\n\n>From here\n",
        )
        .unwrap();
        let mailbox = LocalMailbox::open(&MailSource::Mbox(path)).unwrap();
        assert_eq!(mailbox.len(), 2);
        assert_eq!(
            mailbox.entries()[1].delivered_at.unwrap().to_rfc3339(),
            "2026-11-21T11:00:00+00:00"
        );
        assert_ne!(mailbox.entries()[0].key, mailbox.entries()[1].key);

        let first = mailbox.entries()[0].key.clone();
        let partial =
            LocalMailbox::open_keeping(&MailSource::Mbox(dir.path().join("in.mbox")), &|key| {
                key != first
            })
            .unwrap();
        assert_eq!(partial.len(), 2);
        assert!(partial.load(0).is_err(), "the cached message is not kept");
        assert!(partial.load(1).unwrap().starts_with(b"Subject: two"));
    }
}
