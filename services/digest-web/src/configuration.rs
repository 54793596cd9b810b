//! Typed settings from the environment (see docs/configuration.md).

use std::path::PathBuf;

use service_kit::config::{ConfigError, EnvSource};
use service_kit::telemetry::LogFormat;

/// Everything the service reads at start-up.
#[derive(Debug, Clone)]
pub struct Settings {
    /// `HOST`: interface to bind (default `0.0.0.0`).
    pub host: String,
    /// `PORT`: port to bind (default 8001; 0 picks a free port).
    pub port: u16,
    /// `LOG_FORMAT`: `text` (default) or `json`.
    pub log_format: LogFormat,
    /// `DIGEST_DATA_DIR`: where the digest, the run store and the lock live (default `data`).
    pub data_dir: PathBuf,
    /// `MAX_BODY_BYTES`: body limit of JSON endpoints (default 64 KiB).
    pub max_body_bytes: usize,
    /// `WORKERS`: HTTP worker threads (default: one per core).
    pub workers: usize,
    /// `SHUTDOWN_TIMEOUT_SECS`: how long in-flight requests may finish after SIGTERM (30).
    pub shutdown_timeout_secs: u64,
}

impl Settings {
    /// Reads and validates every variable; the error names the first invalid one.
    pub fn from_env(env: &EnvSource) -> Result<Self, ConfigError> {
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        Ok(Self {
            host: env.string_or("HOST", "0.0.0.0"),
            port: env.parse_or("PORT", 8001, "an integer from 0 to 65535")?,
            log_format: env.parse_or("LOG_FORMAT", LogFormat::Text, "text or json")?,
            data_dir: PathBuf::from(env.string_or("DIGEST_DATA_DIR", "data")),
            max_body_bytes: env.bytes_or("MAX_BODY_BYTES", 64 << 10)?,
            workers: env.parse_or("WORKERS", cores, "a positive integer")?.max(1),
            shutdown_timeout_secs: env.parse_or(
                "SHUTDOWN_TIMEOUT_SECS",
                30,
                "a whole number of seconds",
            )?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_the_spec() {
        let s = Settings::from_env(&EnvSource::default()).unwrap();
        assert_eq!((s.host.as_str(), s.port), ("0.0.0.0", 8001));
        assert_eq!(s.data_dir, PathBuf::from("data"));
    }

    #[test]
    fn invalid_port_is_a_clear_error() {
        let err = Settings::from_env(&EnvSource::from_pairs([("PORT", "-1")])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid PORT '-1': expected an integer from 0 to 65535"
        );
    }
}
