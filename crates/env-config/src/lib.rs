//! Typed configuration from defaults, an optional file and environment variables.
//!
//! Precedence, lowest first: the caller's defaults, the `KEY=VALUE` file named by
//! `CONFIG_FILE` (if set), then the process environment (the Kubernetes way). Every read names
//! its variable, so an invalid value fails start-up with a line such as
//! `invalid PORT 'abc': expected an integer from 0 to 65535`.
//!
//! [`EnvSource`] is the one configuration mechanism of the workspace: both services read
//! their settings through it (re-exported as `service_kit::config`) and so does
//! `llm-client` for its `LLM_*` variables, which is why it sits below both in a crate of its
//! own with no dependency on actix or HTTP.
#![warn(missing_docs)]

use std::collections::HashMap;
use std::path::Path;
use std::str::FromStr;

/// A configuration value that could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The variable is set but its value does not parse.
    #[error("invalid {key} '{value}': expected {expected}")]
    Invalid {
        /// The variable name.
        key: String,
        /// The value found (secrets are never put here).
        value: String,
        /// What would have been accepted.
        expected: String,
    },
    /// A required variable is missing.
    #[error("missing {key}: {expected}")]
    Missing {
        /// The variable name.
        key: String,
        /// What it should hold.
        expected: String,
    },
    /// The configuration file could not be read.
    #[error("cannot read configuration file {path}: {source}")]
    File {
        /// The file's path.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// The merged view of the configuration file and the environment.
#[derive(Clone, Default)]
pub struct EnvSource {
    vars: HashMap<String, String>,
}

// Values may be secrets (API keys, passwords): Debug shows the names only.
impl std::fmt::Debug for EnvSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut keys: Vec<&str> = self.vars.keys().map(String::as_str).collect();
        keys.sort_unstable();
        f.debug_struct("EnvSource")
            .field("keys", &keys)
            .finish_non_exhaustive()
    }
}

impl EnvSource {
    /// Reads `CONFIG_FILE` (if set) and overlays the process environment.
    pub fn from_process() -> Result<Self, ConfigError> {
        let env: HashMap<String, String> = std::env::vars().collect();
        let mut vars = match env.get("CONFIG_FILE").filter(|p| !p.is_empty()) {
            Some(path) => parse_file(Path::new(path))?,
            None => HashMap::new(),
        };
        vars.extend(env);
        Ok(Self { vars })
    }

    /// A source from explicit pairs (tests, embedding).
    pub fn from_pairs<I, K, V>(pairs: I) -> Self
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<String>,
        V: Into<String>,
    {
        Self {
            vars: pairs
                .into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
        }
    }

    /// Sets one value, overriding what was there.
    pub fn set(&mut self, key: impl Into<String>, value: impl Into<String>) {
        self.vars.insert(key.into(), value.into());
    }

    /// The raw value, `None` when unset or blank.
    pub fn raw(&self, key: &str) -> Option<&str> {
        self.vars
            .get(key)
            .map(|v| v.trim())
            .filter(|v| !v.is_empty())
    }

    /// The parsed value, or `default` when unset; `expected` describes valid values.
    pub fn parse_or<T: FromStr>(
        &self,
        key: &str,
        default: T,
        expected: &str,
    ) -> Result<T, ConfigError> {
        Ok(self.parse_opt(key, expected)?.unwrap_or(default))
    }

    /// The parsed value, `None` when unset.
    pub fn parse_opt<T: FromStr>(
        &self,
        key: &str,
        expected: &str,
    ) -> Result<Option<T>, ConfigError> {
        match self.raw(key) {
            None => Ok(None),
            Some(raw) => raw.parse().map(Some).map_err(|_| ConfigError::Invalid {
                key: key.to_owned(),
                value: raw.chars().take(80).collect(),
                expected: expected.to_owned(),
            }),
        }
    }

    /// A string value or `default`.
    pub fn string_or(&self, key: &str, default: &str) -> String {
        self.raw(key).unwrap_or(default).to_owned()
    }

    /// A boolean: `1/true/yes/on` or `0/false/no/off`, any case.
    pub fn bool_or(&self, key: &str, default: bool) -> Result<bool, ConfigError> {
        match self.raw(key).map(str::to_ascii_lowercase).as_deref() {
            None => Ok(default),
            Some("1" | "true" | "yes" | "on") => Ok(true),
            Some("0" | "false" | "no" | "off") => Ok(false),
            Some(other) => Err(ConfigError::Invalid {
                key: key.to_owned(),
                value: other.to_owned(),
                expected: "true or false".to_owned(),
            }),
        }
    }

    /// A comma-separated list, items trimmed, blanks dropped; `None` when unset.
    pub fn list(&self, key: &str) -> Option<Vec<String>> {
        self.raw(key).map(|raw| {
            raw.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect()
        })
    }

    /// A byte size such as `16MiB`, `10MB`, `512KiB` or `1048576`.
    pub fn bytes_or(&self, key: &str, default: usize) -> Result<usize, ConfigError> {
        match self.raw(key) {
            None => Ok(default),
            Some(raw) => parse_bytes(raw).ok_or_else(|| ConfigError::Invalid {
                key: key.to_owned(),
                value: raw.to_owned(),
                expected: "a byte size such as 1048576, 512KiB, 16MiB or 10MB".to_owned(),
            }),
        }
    }

    /// A secret from `KEY`, or from the file named by `KEY_FILE` (Kubernetes secrets mounted
    /// as files). The value never appears in an error.
    pub fn secret(&self, key: &str) -> Result<Option<String>, ConfigError> {
        if let Some(value) = self.raw(key) {
            return Ok(Some(value.to_owned()));
        }
        let file_key = format!("{key}_FILE");
        match self.raw(&file_key) {
            None => Ok(None),
            Some(path) => std::fs::read_to_string(path)
                .map(|s| Some(s.trim().to_owned()).filter(|s| !s.is_empty()))
                .map_err(|source| ConfigError::File {
                    path: format!("{path} (from {file_key})"),
                    source,
                }),
        }
    }
}

fn parse_file(path: &Path) -> Result<HashMap<String, String>, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::File {
        path: path.display().to_string(),
        source,
    })?;
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| {
            let v = v.trim();
            let v = v
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .unwrap_or(v);
            (k.trim().to_owned(), v.to_owned())
        })
        .collect())
}

fn parse_bytes(raw: &str) -> Option<usize> {
    let raw = raw.trim();
    let split = raw.find(|c: char| !c.is_ascii_digit()).unwrap_or(raw.len());
    let (digits, unit) = raw.split_at(split);
    let n: usize = digits.parse().ok()?;
    let mult: usize = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "kb" | "k" => 1_000,
        "kib" => 1 << 10,
        "mb" | "m" => 1_000_000,
        "mib" => 1 << 20,
        "gb" | "g" => 1_000_000_000,
        "gib" => 1 << 30,
        _ => return None,
    };
    n.checked_mul(mult)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_value_names_the_variable() {
        let env = EnvSource::from_pairs([("PORT", "abc")]);
        let err = env
            .parse_or::<u16>("PORT", 8000, "an integer from 0 to 65535")
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid PORT 'abc': expected an integer from 0 to 65535"
        );
    }

    #[test]
    fn defaults_apply_when_unset_or_blank() {
        let env = EnvSource::from_pairs([("PORT", "  ")]);
        assert_eq!(env.parse_or::<u16>("PORT", 8000, "port").unwrap(), 8000);
        assert_eq!(env.string_or("HOST", "0.0.0.0"), "0.0.0.0");
    }

    #[test]
    fn byte_sizes_parse_with_units() {
        assert_eq!(parse_bytes("16MiB"), Some(16 << 20));
        assert_eq!(parse_bytes("10MB"), Some(10_000_000));
        assert_eq!(parse_bytes("4096"), Some(4096));
        assert_eq!(parse_bytes("ten"), None);
        assert_eq!(parse_bytes("5 parsecs"), None);
    }

    #[test]
    fn lists_and_bools() {
        let env = EnvSource::from_pairs([("L", " a, ,b "), ("B", "Yes"), ("X", "maybe")]);
        assert_eq!(env.list("L").unwrap(), vec!["a", "b"]);
        assert!(env.bool_or("B", false).unwrap());
        assert!(env.bool_or("X", false).is_err());
    }

    #[test]
    fn file_values_are_overridden_by_env() {
        let dir = std::env::temp_dir().join(format!("svc-kit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("app.env");
        std::fs::write(&file, "# comment\nPORT=9000\nHOST=\"127.0.0.1\"\n").unwrap();
        let mut vars = parse_file(&file).unwrap();
        vars.insert("PORT".into(), "9100".into());
        let env = EnvSource { vars };
        assert_eq!(env.string_or("HOST", "x"), "127.0.0.1");
        assert_eq!(env.parse_or::<u16>("PORT", 1, "port").unwrap(), 9100);
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn debug_shows_names_not_values() {
        let env = EnvSource::from_pairs([("LLM_API_KEY", "sk-hidden-1234"), ("PORT", "8000")]);
        let shown = format!("{env:?}");
        assert!(
            shown.contains("LLM_API_KEY") && shown.contains("PORT"),
            "{shown}"
        );
        assert!(!shown.contains("sk-hidden-1234"), "{shown}");
        assert!(!shown.contains("8000"), "{shown}");
    }

    #[test]
    fn secret_from_file() {
        let dir = std::env::temp_dir().join(format!("svc-kit-secret-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("key");
        std::fs::write(&file, "s3cret\n").unwrap();
        let env = EnvSource::from_pairs([("API_KEY_FILE", file.display().to_string())]);
        assert_eq!(env.secret("API_KEY").unwrap().as_deref(), Some("s3cret"));
        std::fs::remove_dir_all(dir).ok();
    }
}
