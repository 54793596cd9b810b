//! What a message is about, as a vector: the meaning the sentence-embedding model
//! all-MiniLM-L6-v2 gives its words, carried to the categoriser beside the header evidence.
//!
//! A full pass of the model per message costs tens of milliseconds of CPU (measured in
//! docs/digest.md), far over the refresh budget, so the model is used once, at install time:
//! `scripts/setup/install-embedding-model.sh` passes every vocabulary token through it and keeps
//! the pooled outputs as a static table ([`Embedder`], Model2Vec's distillation). A message's
//! vector is then the mean of its tokens' rows, L2-normalised: microseconds per message.
//!
//! - [`wordpiece::WordPiece`]: the model's own tokenizer (BERT uncased WordPiece);
//! - [`Embedder`]: the table and its tokenizer, read from the installed file, and
//!   [`Embedder::embed`]; the categoriser turns a vector into features ([`Meaning`]).

pub mod wordpiece;

use std::path::Path;

use wordpiece::WordPiece;

use super::text::truncate_chars;

/// Tokens read per message: the subject and the start of the body.
pub const MAX_TOKENS: usize = 384;

/// How much of the body is read (characters), before tokens are counted.
const BODY_CHARS: usize = 2_000;

const MAGIC: &[u8] = b"DGEMB1\n";

/// A static token-embedding table distilled from the sentence-embedding model, with the
/// model's tokenizer.
#[derive(Debug, Clone)]
pub struct Embedder {
    tokenizer: WordPiece,
    dim: usize,
    table: Vec<f32>,
    /// What was loaded (file size and a hash of its header and vocabulary), for the store's
    /// cache: a vector computed from another table is not reused.
    stamp: String,
}

/// An embedding table that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum EmbeddingError {
    /// The file cannot be read.
    #[error("cannot read the embedding table {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a table written by the install script.
    #[error("invalid embedding table {path}: {reason}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
}

/// A message's vector: unit length, [`Embedder::dim`] values.
pub type Meaning = Vec<f32>;

/// A table checked by its header, vocabulary and size, and read in full only when a vector is
/// first needed: a refresh with nothing new to categorise never reads its 31 MB.
#[derive(Debug)]
pub struct LazyEmbedder {
    path: std::path::PathBuf,
    stamp: String,
    loaded: std::sync::OnceLock<Result<std::sync::Arc<Embedder>, String>>,
}

impl LazyEmbedder {
    /// Reads the header and vocabulary of the table at `path` (its [`Embedder::stamp`]) and
    /// checks the file's length against its shape; the rows are read by [`LazyEmbedder::get`].
    pub fn open(path: &Path) -> Result<Self, EmbeddingError> {
        use std::io::Read;
        let invalid = |reason: String| EmbeddingError::Invalid {
            path: path.display().to_string(),
            reason,
        };
        let read = |source| EmbeddingError::Read {
            path: path.display().to_string(),
            source,
        };
        let mut file = std::fs::File::open(path).map_err(read)?;
        let length = file.metadata().map_err(read)?.len();
        let mut head = vec![0u8; MAGIC.len() + 12];
        file.read_exact(&mut head)
            .map_err(|_| invalid("truncated header".into()))?;
        let rest = head
            .strip_prefix(MAGIC)
            .ok_or_else(|| invalid("not an embedding table (magic)".into()))?;
        let u32_at = |at: usize| {
            u32::from_le_bytes([rest[at], rest[at + 1], rest[at + 2], rest[at + 3]]) as u64
        };
        let (count, dim, words_len) = (u32_at(0), u32_at(4), u32_at(8));
        if count == 0 || dim == 0 || dim > 4096 {
            return Err(invalid(format!("implausible shape {count} x {dim}")));
        }
        if length != (MAGIC.len() as u64) + 12 + words_len + count * dim * 4 {
            return Err(invalid("table length does not match its shape".into()));
        }
        let mut words = vec![0u8; words_len as usize];
        file.read_exact(&mut words)
            .map_err(|_| invalid("truncated vocabulary".into()))?;
        let mut stamped = rest.to_vec();
        stamped.extend_from_slice(&words);
        Ok(Self {
            path: path.to_owned(),
            stamp: stamp_of(count as usize, dim as usize, &stamped),
            loaded: std::sync::OnceLock::new(),
        })
    }

    /// A table already in memory.
    pub fn ready(embedder: std::sync::Arc<Embedder>) -> Self {
        let loaded = std::sync::OnceLock::new();
        let stamp = embedder.stamp().to_owned();
        let _ = loaded.set(Ok(embedder));
        Self {
            path: std::path::PathBuf::new(),
            stamp,
            loaded,
        }
    }

    /// The stamp of the table ([`Embedder::stamp`]), known without reading its rows.
    pub fn stamp(&self) -> &str {
        &self.stamp
    }

    /// Whether the rows have been read.
    pub fn is_loaded(&self) -> bool {
        self.loaded.get().is_some()
    }

    /// The whole table, read on the first call (the error, if it cannot be, on every call).
    pub fn get(&self) -> Result<&Embedder, &str> {
        match self.loaded.get_or_init(|| {
            let embedder = Embedder::load(&self.path).map_err(|e| e.to_string())?;
            if embedder.stamp() != self.stamp {
                return Err(format!(
                    "{} changed since it was opened",
                    self.path.display()
                ));
            }
            Ok(std::sync::Arc::new(embedder))
        }) {
            Ok(e) => Ok(e),
            Err(e) => Err(e),
        }
    }
}

/// The stamp of a table: its shape and a hash of its header (after the magic) and vocabulary.
fn stamp_of(count: usize, dim: usize, header_and_words: &[u8]) -> String {
    format!(
        "{count}x{dim}-{:016x}",
        super::text::fnv1a(header_and_words)
    )
}

impl Embedder {
    /// Reads the table the install script wrote (`tokens.bin`).
    pub fn load(path: &Path) -> Result<Self, EmbeddingError> {
        let bytes = std::fs::read(path).map_err(|source| EmbeddingError::Read {
            path: path.display().to_string(),
            source,
        })?;
        Self::from_bytes(&bytes).map_err(|reason| EmbeddingError::Invalid {
            path: path.display().to_string(),
            reason,
        })
    }

    /// Parses a table: magic `DGEMB1\n`, token count, dimension and vocabulary byte length
    /// (u32 LE each), the vocabulary (`\n`-separated, in id order), then count × dimension
    /// f32 LE.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        let rest = bytes
            .strip_prefix(MAGIC)
            .ok_or("not an embedding table (magic)")?;
        let u32_at = |at: usize| -> Result<usize, String> {
            rest.get(at..at + 4)
                .and_then(|s| s.try_into().ok())
                .map(|b| u32::from_le_bytes(b) as usize)
                .ok_or_else(|| "truncated header".to_owned())
        };
        let (count, dim, words_len) = (u32_at(0)?, u32_at(4)?, u32_at(8)?);
        if count == 0 || dim == 0 || dim > 4096 {
            return Err(format!("implausible shape {count} x {dim}"));
        }
        let words = rest.get(12..12 + words_len).ok_or("truncated vocabulary")?;
        let words = std::str::from_utf8(words).map_err(|_| "vocabulary is not UTF-8")?;
        let tokens: Vec<&str> = words.split('\n').collect();
        if tokens.len() != count {
            return Err(format!(
                "{} vocabulary tokens for {count} rows",
                tokens.len()
            ));
        }
        let body = &rest[12 + words_len..];
        if body.len() != count * dim * 4 {
            return Err("table length does not match its shape".into());
        }
        let table: Vec<f32> = body
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        if table.iter().any(|v| !v.is_finite()) {
            return Err("table holds a value that is not finite".into());
        }
        let tokenizer = WordPiece::new(tokens).ok_or("vocabulary has no [UNK]")?;
        let stamp = stamp_of(count, dim, &rest[..12 + words_len]);
        Ok(Self {
            tokenizer,
            dim,
            table,
            stamp,
        })
    }

    /// Values per vector.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Identifies the table (for caches).
    pub fn stamp(&self) -> &str {
        &self.stamp
    }

    /// The tokenizer.
    pub fn tokenizer(&self) -> &WordPiece {
        &self.tokenizer
    }

    /// The vector of a subject and body: the mean of their tokens' rows (the subject's and
    /// the first [`BODY_CHARS`] characters of the body, at most [`MAX_TOKENS`] tokens),
    /// unit length. `None` when no token is known (empty or unreadable text).
    pub fn embed(&self, subject: &str, body: &str) -> Option<Meaning> {
        let mut ids = Vec::with_capacity(MAX_TOKENS);
        self.tokenizer.encode(subject, MAX_TOKENS, &mut ids);
        self.tokenizer
            .encode(truncate_chars(body, BODY_CHARS), MAX_TOKENS, &mut ids);
        let unknown = self.tokenizer.unknown();
        let mut sum = vec![0f32; self.dim];
        let mut used = 0;
        for id in ids.into_iter().filter(|&id| id != unknown) {
            let row = &self.table[id as usize * self.dim..(id as usize + 1) * self.dim];
            for (s, v) in sum.iter_mut().zip(row) {
                *s += v;
            }
            used += 1;
        }
        let norm = sum.iter().map(|v| v * v).sum::<f32>().sqrt();
        (used > 0 && norm > 0.0).then(|| sum.into_iter().map(|v| v / norm).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table in the install script's format.
    pub(crate) fn table_bytes(tokens: &[&str], rows: &[Vec<f32>]) -> Vec<u8> {
        let words = tokens.join("\n");
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&(tokens.len() as u32).to_le_bytes());
        out.extend_from_slice(&(rows[0].len() as u32).to_le_bytes());
        out.extend_from_slice(&(words.len() as u32).to_le_bytes());
        out.extend_from_slice(words.as_bytes());
        for v in rows.iter().flatten() {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }

    fn small() -> Embedder {
        let tokens = ["[PAD]", "[UNK]", "sale", "today", "meeting"];
        let rows = vec![
            vec![0.0, 0.0],
            vec![9.0, 9.0],
            vec![1.0, 0.0],
            vec![1.0, 1.0],
            vec![0.0, 2.0],
        ];
        Embedder::from_bytes(&table_bytes(&tokens, &rows)).unwrap()
    }

    #[test]
    fn a_message_is_the_unit_mean_of_its_known_tokens() {
        let e = small();
        assert_eq!(e.dim(), 2);
        let v = e.embed("Sale", "today! zzz").unwrap();
        // (1,0) + (1,1) = (2,1), normalised; the unknown word adds nothing.
        assert!((v[0] - 2.0 / 5f32.sqrt()).abs() < 1e-6);
        assert!((v[1] - 1.0 / 5f32.sqrt()).abs() < 1e-6);
        assert_eq!(e.embed("", "zzz qqq"), None);
    }

    #[test]
    fn a_lazy_table_knows_its_stamp_before_reading_its_rows() {
        let tokens = ["[PAD]", "[UNK]", "sale", "today", "meeting"];
        let rows = vec![vec![0.5, 0.5]; 5];
        let bytes = table_bytes(&tokens, &rows);
        let dir = std::env::temp_dir().join(format!("domain-lazy-table-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("tokens.bin");
        std::fs::write(&path, &bytes).unwrap();
        let lazy = LazyEmbedder::open(&path).unwrap();
        assert!(!lazy.is_loaded());
        assert_eq!(lazy.stamp(), Embedder::from_bytes(&bytes).unwrap().stamp());
        assert!(lazy.get().unwrap().embed("sale", "").is_some());
        assert!(lazy.is_loaded());
        // A file cut short is refused when opened, before any row is read.
        std::fs::write(&path, &bytes[..bytes.len() - 4]).unwrap();
        assert!(LazyEmbedder::open(&path).is_err());
        std::fs::write(&path, b"DGEMB1\n").unwrap();
        assert!(LazyEmbedder::open(&path).is_err());
        assert!(LazyEmbedder::open(&dir.join("missing.bin")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn broken_tables_are_refused() {
        let good = table_bytes(&["[UNK]", "a"], &[vec![0.0], vec![1.0]]);
        assert!(Embedder::from_bytes(&good).is_ok());
        assert!(Embedder::from_bytes(&good[..good.len() - 1]).is_err());
        assert!(Embedder::from_bytes(b"DGEMB1\n").is_err());
        assert!(Embedder::from_bytes(&table_bytes(&["a", "b"], &[vec![0.0], vec![1.0]])).is_err());
        assert!(
            Embedder::from_bytes(&table_bytes(&["[UNK]", "a"], &[vec![0.0], vec![f32::NAN]]))
                .is_err()
        );
        let mut wrong_count = good.clone();
        wrong_count[7] = 3;
        assert!(Embedder::from_bytes(&wrong_count).is_err());
    }
}
