//! Typed settings from the environment (see docs/configuration.md).

use std::path::PathBuf;

use service_kit::config::{ConfigError, EnvSource};
use service_kit::server::ServerSettings;

/// Everything the service reads at start-up.
#[derive(Debug, Clone)]
pub struct Settings {
    /// `HOST`, `PORT` (default 8001), `LOG_FORMAT`, `WORKERS`, `SHUTDOWN_TIMEOUT_SECS`.
    pub server: ServerSettings,
    /// `DIGEST_DATA_DIR`: where the digest, the run store and the lock live (default `data`).
    pub data_dir: PathBuf,
    /// `MAX_BODY_BYTES`: body limit of JSON endpoints (default 64 KiB).
    pub max_body_bytes: usize,
    /// `DIGEST_SOURCE`: the mailbox the refresh job reads (passed to it in its environment).
    pub source: Option<String>,
    /// `DIGEST_REFRESH_COMMAND`: a shell command line run by `sh -c` instead of the
    /// `digest-refresh` binary beside the server (operators wrap or replace the job with it).
    pub refresh_command: Option<String>,
    /// `DIGEST_REFRESH_TIMEOUT_SECS`: the run-time limit of one refresh (default 120).
    pub refresh_timeout_secs: u64,
    /// `DIGEST_AUTH_TOKEN` (or `DIGEST_AUTH_TOKEN_FILE`): when set, every page and API but
    /// `/health` needs it as a Bearer token, a `digest_token` cookie or a `?token=` query.
    pub auth_token: Option<Secret>,
    /// `DIGEST_BASIC_AUTH_USER` + `DIGEST_BASIC_AUTH_PASSWORD` (or `_FILE`): HTTP basic auth.
    pub basic_auth: Option<(String, Secret)>,
    /// IMAP credentials (`DIGEST_IMAP_PASSWORD`, `DIGEST_IMAP_OAUTH_TOKEN`, or `_FILE`), for
    /// the diagnostics' login check; the refresh job reads the same variables itself.
    pub imap_auth: Option<crate::settings::ImapAuth>,
    /// The `LLM_*` variables (see docs/llm.md): the comprehensive suite checks the endpoint
    /// answers; `None` when no LLM is configured.
    pub llm: Option<llm_client::LlmConfig>,
    /// The refresh job's LLM variables (`LLM_*`, see [`crate::settings::llm_variables`]) as
    /// this service read them (environment or `CONFIG_FILE`), passed on to the job's
    /// environment. Holds the API key: never printed by `Debug`.
    pub job_env: JobEnv,
    /// Unsubscribing from the dashboard: `SMTP_URL`, `DIGEST_UNSUBSCRIBE_*`.
    pub unsubscribe: crate::web::unsubscribe::UnsubscribeSettings,
    /// The mailbox owner's addresses (`DIGEST_OWNER_ADDRESSES`, comma-separated), lower-cased:
    /// whose sent mail counts as an answer.
    pub owner_addresses: Vec<String>,
    /// `DIGEST_WAITING_DAYS`: a message the owner sent counts as waiting for a reply once it
    /// is this many days old with no answer.
    pub waiting_days: u32,
}

/// Variables passed to the refresh job; `Debug` shows only their names.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct JobEnv(pub Vec<(String, String)>);

impl std::fmt::Debug for JobEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.0.iter().map(|(k, _)| k))
            .finish()
    }
}

/// A secret value: never printed by `Debug`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(pub String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(***)")
    }
}

impl Settings {
    /// Reads and validates every variable; the error names the first invalid one.
    pub fn from_env(env: &EnvSource) -> Result<Self, ConfigError> {
        let owner_addresses: Vec<String> = env
            .raw("DIGEST_OWNER_ADDRESSES")
            .unwrap_or_default()
            .split(',')
            .map(|a| a.trim().to_ascii_lowercase())
            .filter(|a| !a.is_empty())
            .collect();
        Ok(Self {
            server: ServerSettings::from_env(env, 8001)?,
            data_dir: PathBuf::from(env.string_or("DIGEST_DATA_DIR", "data")),
            max_body_bytes: env.bytes_or("MAX_BODY_BYTES", 64 << 10)?,
            source: env.raw("DIGEST_SOURCE").map(str::to_owned),
            refresh_command: env.raw("DIGEST_REFRESH_COMMAND").map(str::to_owned),
            refresh_timeout_secs: positive(env.parse_or(
                "DIGEST_REFRESH_TIMEOUT_SECS",
                120,
                "a positive whole number of seconds",
            )?)
            .ok_or_else(|| ConfigError::Invalid {
                key: "DIGEST_REFRESH_TIMEOUT_SECS".into(),
                value: "0".into(),
                expected: "a positive whole number of seconds".into(),
            })?,
            auth_token: env.secret("DIGEST_AUTH_TOKEN")?.map(Secret),
            basic_auth: basic_auth(env)?,
            imap_auth: crate::settings::ImapAuth::from_env(env).map_err(|e| {
                ConfigError::Invalid {
                    key: "DIGEST_IMAP_PASSWORD".into(),
                    value: "***".into(),
                    expected: e,
                }
            })?,
            llm: llm_client::LlmConfig::from_vars(|k| env.raw(k).map(str::to_owned)).map_err(
                |e| ConfigError::Invalid {
                    key: "LLM_*".into(),
                    value: String::new(),
                    expected: e.to_string(),
                },
            )?,
            job_env: job_env(env)?,
            unsubscribe: unsubscribe(env, &owner_addresses)?,
            waiting_days: positive(env.parse_or(
                "DIGEST_WAITING_DAYS",
                3,
                "a positive whole number of days",
            )?)
            .and_then(|d| u32::try_from(d).ok())
            .ok_or_else(|| ConfigError::Invalid {
                key: "DIGEST_WAITING_DAYS".into(),
                value: "0".into(),
                expected: "a positive whole number of days".into(),
            })?,
            owner_addresses,
        })
    }

    /// Whether any access protection is configured.
    pub fn auth_enabled(&self) -> bool {
        self.auth_token.is_some() || self.basic_auth.is_some()
    }
}

impl AsRef<ServerSettings> for Settings {
    fn as_ref(&self) -> &ServerSettings {
        &self.server
    }
}

/// The job's LLM variables, checked now so a bad one stops start-up rather than every refresh.
fn job_env(env: &EnvSource) -> Result<JobEnv, ConfigError> {
    crate::settings::LlmSettings::from_env(env).map_err(|e| ConfigError::Invalid {
        key: "LLM_*".into(),
        value: String::new(),
        expected: e,
    })?;
    Ok(JobEnv(
        crate::settings::llm_variables()
            .filter_map(|k| env.raw(k).map(|v| (k.to_owned(), v.to_owned())))
            .collect(),
    ))
}

fn unsubscribe(
    env: &EnvSource,
    owners: &[String],
) -> Result<crate::web::unsubscribe::UnsubscribeSettings, ConfigError> {
    let allow_text = env.raw("DIGEST_UNSUBSCRIBE_ALLOW").unwrap_or_default();
    let allow = crate::web::unsubscribe::address::Allowlist::parse(allow_text).map_err(|e| {
        ConfigError::Invalid {
            key: "DIGEST_UNSUBSCRIBE_ALLOW".into(),
            value: allow_text.into(),
            expected: format!("comma-separated networks in CIDR form ({e})"),
        }
    })?;
    let timeout = positive(env.parse_or(
        "DIGEST_UNSUBSCRIBE_TIMEOUT_SECS",
        10,
        "a positive whole number of seconds",
    )?)
    .ok_or_else(|| ConfigError::Invalid {
        key: "DIGEST_UNSUBSCRIBE_TIMEOUT_SECS".into(),
        value: "0".into(),
        expected: "a positive whole number of seconds".into(),
    })?;
    Ok(crate::web::unsubscribe::UnsubscribeSettings {
        smtp_url: env
            .secret("SMTP_URL")?
            .map(crate::web::unsubscribe::SmtpUrl),
        from: env
            .raw("DIGEST_UNSUBSCRIBE_FROM")
            .map(str::to_owned)
            .or_else(|| owners.first().cloned()),
        allow,
        ca_file: env.raw("DIGEST_UNSUBSCRIBE_CA_FILE").map(PathBuf::from),
        timeout: std::time::Duration::from_secs(timeout),
    })
}

fn positive(n: u64) -> Option<u64> {
    (n > 0).then_some(n)
}

fn basic_auth(env: &EnvSource) -> Result<Option<(String, Secret)>, ConfigError> {
    let user = env.raw("DIGEST_BASIC_AUTH_USER").map(str::to_owned);
    let password = env.secret("DIGEST_BASIC_AUTH_PASSWORD")?;
    match (user, password) {
        (None, None) => Ok(None),
        (Some(user), Some(password)) => Ok(Some((user, Secret(password)))),
        (None, Some(_)) => Err(ConfigError::Missing {
            key: "DIGEST_BASIC_AUTH_USER".into(),
            expected: "the user name that goes with DIGEST_BASIC_AUTH_PASSWORD".into(),
        }),
        (Some(_), None) => Err(ConfigError::Missing {
            key: "DIGEST_BASIC_AUTH_PASSWORD".into(),
            expected: "the password that goes with DIGEST_BASIC_AUTH_USER".into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_the_spec() {
        let s = Settings::from_env(&EnvSource::default()).unwrap();
        assert_eq!((s.server.host.as_str(), s.server.port), ("0.0.0.0", 8001));
        assert_eq!(s.data_dir, PathBuf::from("data"));
        assert_eq!(s.refresh_timeout_secs, 120);
        assert!(!s.auth_enabled());
    }

    #[test]
    fn zero_timeout_and_half_basic_auth_are_rejected() {
        let err = Settings::from_env(&EnvSource::from_pairs([(
            "DIGEST_REFRESH_TIMEOUT_SECS",
            "0",
        )]))
        .unwrap_err();
        assert!(
            err.to_string().contains("DIGEST_REFRESH_TIMEOUT_SECS"),
            "{err}"
        );
        let err = Settings::from_env(&EnvSource::from_pairs([("DIGEST_BASIC_AUTH_USER", "ops")]))
            .unwrap_err();
        assert!(
            err.to_string().contains("DIGEST_BASIC_AUTH_PASSWORD"),
            "{err}"
        );
    }

    #[test]
    fn secrets_are_not_debug_printed() {
        let s = Settings::from_env(&EnvSource::from_pairs([
            ("DIGEST_AUTH_TOKEN", "hunter2"),
            ("LLM_BASE_URL", "http://127.0.0.1:9/v1"),
            ("LLM_MODEL", "m"),
            ("LLM_API_KEY", "sk-hunter3"),
        ]))
        .unwrap();
        assert!(s.auth_enabled());
        let shown = format!("{s:?}");
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(!shown.contains("hunter3"), "{shown}");
        // The job gets the LLM variables it needs, key included.
        assert!(
            s.job_env
                .0
                .contains(&("LLM_API_KEY".to_owned(), "sk-hunter3".to_owned()))
        );
        assert_eq!(s.job_env.0.len(), 3);
    }

    #[test]
    fn a_bad_refresh_llm_variable_stops_start_up() {
        let err = Settings::from_env(&EnvSource::from_pairs([
            ("LLM_BASE_URL", "http://127.0.0.1:9/v1"),
            ("LLM_MODEL", "m"),
            ("LLM_CLASSIFY_BELOW", "high"),
        ]))
        .unwrap_err();
        assert!(err.to_string().contains("LLM_CLASSIFY_BELOW"), "{err}");
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
