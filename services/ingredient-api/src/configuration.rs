//! Typed settings from the environment (see docs/configuration.md).

use service_kit::config::{ConfigError, EnvSource};
use service_kit::telemetry::LogFormat;

use crate::llm::LlmSettings;
use crate::ocr::OcrSettings;

/// Everything the service reads at start-up.
#[derive(Debug, Clone)]
pub struct Settings {
    /// `HOST`: interface to bind (default `0.0.0.0`).
    pub host: String,
    /// `PORT`: port to bind (default 8000; 0 picks a free port).
    pub port: u16,
    /// `LOG_FORMAT`: `text` (default) or `json`.
    pub log_format: LogFormat,
    /// `MAX_BODY_BYTES`: body limit of JSON endpoints other than `/ocr` (default 1 MiB).
    pub max_body_bytes: usize,
    /// `OCR_MAX_BODY_BYTES`: body limit of `/ocr` (default 16 MiB: a 10 MB image in base64).
    pub ocr_max_body_bytes: usize,
    /// `CORS_ALLOWED_ORIGINS`: comma list of allowed origins; unset allows every origin.
    pub cors_allowed_origins: Option<Vec<String>>,
    /// `WORKERS`: HTTP worker threads (default: one per core).
    pub workers: usize,
    /// `SHUTDOWN_TIMEOUT_SECS`: how long in-flight requests may finish after SIGTERM (30).
    pub shutdown_timeout_secs: u64,
    /// `OCR_*`: limits, concurrency and engine of `/ocr`.
    pub ocr: OcrSettings,
    /// `LLM_*`: the optional LLM backends (none unless configured).
    pub llm: LlmSettings,
}

impl Settings {
    /// Reads and validates every variable; the error names the first invalid one.
    pub fn from_env(env: &EnvSource) -> Result<Self, ConfigError> {
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        Ok(Self {
            host: env.string_or("HOST", "0.0.0.0"),
            port: env.parse_or("PORT", 8000, "an integer from 0 to 65535")?,
            log_format: env.parse_or("LOG_FORMAT", LogFormat::Text, "text or json")?,
            max_body_bytes: env.bytes_or("MAX_BODY_BYTES", 1 << 20)?,
            ocr_max_body_bytes: env.bytes_or("OCR_MAX_BODY_BYTES", 16 << 20)?,
            cors_allowed_origins: env.list("CORS_ALLOWED_ORIGINS"),
            workers: env.parse_or("WORKERS", cores, "a positive integer")?.max(1),
            shutdown_timeout_secs: env.parse_or(
                "SHUTDOWN_TIMEOUT_SECS",
                30,
                "a whole number of seconds",
            )?,
            ocr: OcrSettings::from_env(env)?,
            llm: LlmSettings::from_env(env)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_the_spec() {
        let s = Settings::from_env(&EnvSource::default()).unwrap();
        assert_eq!((s.host.as_str(), s.port), ("0.0.0.0", 8000));
        assert_eq!(s.log_format, LogFormat::Text);
        assert!(s.cors_allowed_origins.is_none());
    }

    #[test]
    fn invalid_values_fail_with_the_variable_named() {
        for (key, value) in [
            ("PORT", "99999"),
            ("LOG_FORMAT", "xml"),
            ("MAX_BODY_BYTES", "big"),
        ] {
            let err = Settings::from_env(&EnvSource::from_pairs([(key, value)])).unwrap_err();
            assert!(
                err.to_string()
                    .starts_with(&format!("invalid {key} '{value}'")),
                "{err}"
            );
        }
    }
}
