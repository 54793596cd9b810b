//! Logging with `tracing`: readable text by default, one JSON object per line when
//! `LOG_FORMAT=json`. `RUST_LOG` sets the filter (default `info`). Text is coloured only on a
//! terminal and never when `NO_COLOR` is set (<https://no-color.org>), so a log written to a
//! file or a pipe (`make run > log 2>&1`, a container's log) holds no escape codes.

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

/// The log output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LogFormat {
    /// Human-readable lines (the default).
    #[default]
    Text,
    /// One JSON object per line, with the current span's fields (request id included).
    Json,
}

impl std::str::FromStr for LogFormat {
    type Err = ();

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "text" | "pretty" | "plain" => Ok(Self::Text),
            "json" => Ok(Self::Json),
            _ => Err(()),
        }
    }
}

/// Installs the global subscriber, writing to stderr. Safe to call more than once (later
/// calls do nothing), so tests can call it from every `spawn_app`.
pub fn init(format: LogFormat, default_filter: &str) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default_filter));
    let colour = colour(
        std::io::stderr().is_terminal(),
        std::env::var_os("NO_COLOR").as_deref(),
    );
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(colour)
        .with_writer(std::io::stderr);
    // A second init in the same process fails harmlessly; the first subscriber stays.
    let _ = match format {
        LogFormat::Json => builder
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .flatten_event(true)
            .try_init(),
        LogFormat::Text => builder.compact().try_init(),
    };
}

/// Whether text logs get colours: on a terminal, unless `NO_COLOR` holds a non-empty value.
fn colour(terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
    terminal && no_color.is_none_or(std::ffi::OsStr::is_empty)
}

/// For integration tests: logs only when `TEST_LOG` is set, so test output stays quiet.
pub fn init_for_tests() {
    if std::env::var_os("TEST_LOG").is_some() {
        init(LogFormat::Text, "debug");
    }
}

#[cfg(test)]
mod tests {
    use std::ffi::OsStr;

    use super::colour;

    #[test]
    fn colours_only_on_a_terminal_without_no_color() {
        assert!(colour(true, None));
        assert!(colour(true, Some(OsStr::new(""))));
        assert!(!colour(true, Some(OsStr::new("1"))));
        assert!(!colour(false, None));
        assert!(!colour(false, Some(OsStr::new(""))));
    }
}
