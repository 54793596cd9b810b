//! Typed settings from the environment (see docs/configuration.md).

use service_kit::config::{ConfigError, EnvSource};
use service_kit::server::ServerSettings;

use crate::llm::LlmSettings;
use crate::ocr::OcrSettings;

/// Everything the service reads at start-up.
#[derive(Debug, Clone)]
pub struct Settings {
    /// `HOST`, `PORT` (default 8000), `LOG_FORMAT`, `WORKERS`, `SHUTDOWN_TIMEOUT_SECS`.
    pub server: ServerSettings,
    /// `MAX_BODY_BYTES`: body limit of JSON endpoints other than `/ocr` (default 1 MiB).
    pub max_body_bytes: usize,
    /// `OCR_MAX_BODY_BYTES`: body limit of `/ocr` (default 16 MiB: a 10 MB image in base64).
    pub ocr_max_body_bytes: usize,
    /// `CORS_ALLOWED_ORIGINS`: comma list of allowed origins; unset allows every origin.
    pub cors_allowed_origins: Option<Vec<String>>,
    /// `OCR_*`: limits, concurrency and engine of `/ocr`.
    pub ocr: OcrSettings,
    /// `LLM_*`: the optional LLM backends (none unless configured).
    pub llm: LlmSettings,
}

impl Settings {
    /// Reads and validates every variable; the error names the first invalid one.
    pub fn from_env(env: &EnvSource) -> Result<Self, ConfigError> {
        Ok(Self {
            server: ServerSettings::from_env(env, 8000)?,
            max_body_bytes: env.bytes_or("MAX_BODY_BYTES", 1 << 20)?,
            ocr_max_body_bytes: env.bytes_or("OCR_MAX_BODY_BYTES", 16 << 20)?,
            cors_allowed_origins: env.list("CORS_ALLOWED_ORIGINS"),
            ocr: OcrSettings::from_env(env)?,
            llm: LlmSettings::from_env(env)?,
        })
    }
}

impl AsRef<ServerSettings> for Settings {
    fn as_ref(&self) -> &ServerSettings {
        &self.server
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use service_kit::telemetry::LogFormat;

    #[test]
    fn defaults_follow_the_spec() {
        let s = Settings::from_env(&EnvSource::default()).unwrap();
        assert_eq!((s.server.host.as_str(), s.server.port), ("0.0.0.0", 8000));
        assert_eq!(s.server.log_format, LogFormat::Text);
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
