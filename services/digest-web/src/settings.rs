//! The refresh job's settings that the web server reads too: the web server checks them at
//! start-up (so a bad value stops it rather than every refresh), passes them on to the job's
//! environment and uses them for its diagnostics; the job runs with them.
//!
//! - [`LlmSettings`]: the optional LLM step (`LLM_*`, listed by [`llm_variables`]).
//! - [`ImapAuth`]: IMAP credentials (`DIGEST_IMAP_*`).

use std::fmt;
use std::time::Duration;

use llm_client::LlmConfig;
use service_kit::config::EnvSource;

/// The refresh job's own LLM variables, beyond the client's ([`llm_client::VARIABLES`]).
const REFRESH_VARIABLES: &[&str] = &[
    "LLM_REFRESH_BUDGET_SECS",
    "LLM_REFRESH_MAX_CALLS",
    "LLM_CLASSIFY_BELOW",
    "LLM_REFRESH_SUMMARIES",
];

/// Every variable the refresh job reads for this step (the client's and its own); the web
/// service passes them to the job.
pub fn llm_variables() -> impl Iterator<Item = &'static str> {
    llm_client::VARIABLES
        .iter()
        .chain(REFRESH_VARIABLES)
        .copied()
}

/// Default of `LLM_REFRESH_BUDGET_SECS`: half the spec's 120 s refresh limit.
pub const DEFAULT_BUDGET_SECS: f64 = 60.0;
/// Default of `LLM_REFRESH_MAX_CALLS`.
pub const DEFAULT_MAX_CALLS: u64 = 30;
/// Default of `LLM_CLASSIFY_BELOW`.
pub const DEFAULT_CLASSIFY_BELOW: f64 = 0.6;

/// The LLM step's configuration.
#[derive(Debug, Clone)]
pub struct LlmSettings {
    /// The endpoint (`LLM_*`, see docs/llm.md).
    pub config: LlmConfig,
    /// `LLM_REFRESH_BUDGET_SECS`: wall time of the whole step in one refresh (default 60 s);
    /// what is not answered by then keeps its offline answer.
    pub budget: Duration,
    /// `LLM_REFRESH_MAX_CALLS`: chat calls started per refresh at most (default 30).
    pub max_calls: u64,
    /// `LLM_CLASSIFY_BELOW`: offline categories with a lower confidence are asked of the LLM
    /// (default 0.6; 0 turns categorisation off; user rules have confidence 1).
    pub classify_below: f64,
    /// `LLM_REFRESH_SUMMARIES`: whether the LLM writes the summaries (default true).
    pub summaries: bool,
}

impl LlmSettings {
    /// Reads the step's configuration; `Ok(None)` when no LLM is configured. The error is one
    /// human line naming the variable.
    pub fn from_env(env: &EnvSource) -> Result<Option<Self>, String> {
        let invalid = |e: String| format!("invalid LLM configuration: {e}");
        let Some(config) = LlmConfig::from_vars(|k| env.raw(k).map(str::to_owned))
            .map_err(|e| invalid(e.to_string()))?
        else {
            return Ok(None);
        };
        let budget: f64 = env
            .parse_or(
                "LLM_REFRESH_BUDGET_SECS",
                DEFAULT_BUDGET_SECS,
                "seconds, e.g. 60",
            )
            .map_err(|e| invalid(e.to_string()))?;
        if !(budget.is_finite() && budget > 0.0 && budget <= 3600.0) {
            return Err(invalid(format!(
                "LLM_REFRESH_BUDGET_SECS '{budget}': expected seconds above 0 (well under the \
                 refresh time-out, e.g. 60)"
            )));
        }
        let classify_below: f64 = env
            .parse_or(
                "LLM_CLASSIFY_BELOW",
                DEFAULT_CLASSIFY_BELOW,
                "a confidence from 0 to 1",
            )
            .map_err(|e| invalid(e.to_string()))?;
        if !(0.0..=1.0).contains(&classify_below) {
            return Err(invalid(format!(
                "LLM_CLASSIFY_BELOW '{classify_below}': expected a confidence from 0 to 1"
            )));
        }
        Ok(Some(Self {
            config,
            budget: Duration::from_secs_f64(budget),
            max_calls: env
                .parse_or(
                    "LLM_REFRESH_MAX_CALLS",
                    DEFAULT_MAX_CALLS,
                    "a whole number, e.g. 30",
                )
                .map_err(|e| invalid(e.to_string()))?,
            classify_below,
            summaries: env
                .bool_or("LLM_REFRESH_SUMMARIES", true)
                .map_err(|e| invalid(e.to_string()))?,
        }))
    }
}

/// IMAP credentials. `Debug` never shows the secret.
#[derive(Clone, PartialEq, Eq)]
pub enum ImapAuth {
    /// LOGIN with a password (or an app password for Gmail, Outlook, Fastmail).
    Password(String),
    /// AUTHENTICATE XOAUTH2 with a bearer token.
    OAuth2(String),
}

impl fmt::Debug for ImapAuth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Password(_) => f.write_str("Password(***)"),
            Self::OAuth2(_) => f.write_str("OAuth2(***)"),
        }
    }
}

impl ImapAuth {
    /// Reads `DIGEST_IMAP_OAUTH_TOKEN`, then `DIGEST_IMAP_PASSWORD`, then the file named by
    /// `DIGEST_IMAP_PASSWORD_FILE` (trailing newline dropped). `Ok(None)` when none is set.
    pub fn from_env(env: &EnvSource) -> Result<Option<Self>, String> {
        if let Some(token) = env
            .secret("DIGEST_IMAP_OAUTH_TOKEN")
            .map_err(|e| e.to_string())?
        {
            return Ok(Some(Self::OAuth2(token)));
        }
        Ok(env
            .secret("DIGEST_IMAP_PASSWORD")
            .map_err(|e| e.to_string())?
            .map(Self::Password))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_from_env_prefer_token_then_password_then_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("pw");
        std::fs::write(&file, "s3cret\n").unwrap();
        let env = EnvSource::from_pairs([("DIGEST_IMAP_PASSWORD_FILE", file.to_str().unwrap())]);
        assert_eq!(
            ImapAuth::from_env(&env).unwrap(),
            Some(ImapAuth::Password("s3cret".into()))
        );
        let env = EnvSource::from_pairs([
            ("DIGEST_IMAP_PASSWORD", "pw"),
            ("DIGEST_IMAP_OAUTH_TOKEN", "tok"),
        ]);
        let auth = ImapAuth::from_env(&env).unwrap().unwrap();
        assert_eq!(auth, ImapAuth::OAuth2("tok".into()));
        assert_eq!(format!("{auth:?}"), "OAuth2(***)");
        assert_eq!(ImapAuth::from_env(&EnvSource::default()).unwrap(), None);
    }

    #[test]
    fn settings_default_and_reject_bad_values() {
        assert!(
            LlmSettings::from_env(&EnvSource::default())
                .unwrap()
                .is_none()
        );
        let base = [
            ("LLM_BASE_URL", "http://127.0.0.1:9/v1"),
            ("LLM_MODEL", "m"),
        ];
        let s = LlmSettings::from_env(&EnvSource::from_pairs(base))
            .unwrap()
            .unwrap();
        assert_eq!(s.budget, Duration::from_secs(60));
        assert_eq!(
            (s.max_calls, s.classify_below, s.summaries),
            (30, 0.6, true)
        );
        for (key, value) in [
            ("LLM_REFRESH_BUDGET_SECS", "0"),
            ("LLM_REFRESH_BUDGET_SECS", "soon"),
            ("LLM_CLASSIFY_BELOW", "1.5"),
            ("LLM_REFRESH_MAX_CALLS", "-1"),
            ("LLM_TIMEOUT_SECS", "x"),
        ] {
            let mut env = EnvSource::from_pairs(base);
            env.set(key, value);
            let err = LlmSettings::from_env(&env).unwrap_err();
            assert!(err.starts_with("invalid LLM configuration: "), "{err}");
            assert!(err.contains(key), "{err}");
            assert!(!err.contains('\n'), "{err}");
        }
    }
}
