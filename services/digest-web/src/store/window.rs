//! [`Window`]: a span of time counted back from now. The refresh job keeps the messages of its
//! window (`--window`, `DIGEST_WINDOW`: `24h`, `7d`, `30d` or `all`); the dashboard's metrics
//! and run history use it as their `period` (`24h`, `7d` or `all`).

use chrono::{DateTime, Duration, Utc};
use strum::{EnumIter, EnumString, IntoEnumIterator, IntoStaticStr};

/// A span of time back from now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, EnumString, IntoStaticStr, EnumIter)]
#[strum(ascii_case_insensitive)]
pub enum Window {
    /// The last 24 hours.
    #[default]
    #[strum(to_string = "24h", serialize = "1d")]
    Day,
    /// The last 7 days.
    #[strum(to_string = "7d", serialize = "1w")]
    Week,
    /// The last 30 days (the job's window only).
    #[strum(to_string = "30d")]
    Month,
    /// Everything.
    #[strum(to_string = "all")]
    All,
}

impl Window {
    /// The API's `period` values, for error messages.
    pub const PERIODS: &'static str = "24h, 7d, all";

    /// Parses a job window: `24h`, `7d`, `30d` or `all` (also `1d`, `1w`; any case).
    pub fn parse(value: &str) -> Option<Self> {
        value.trim().parse().ok()
    }

    /// [`Window::parse`] with the one-line error the job's command line and environment show.
    pub fn parse_arg(value: &str) -> Result<Self, String> {
        Self::parse(value)
            .ok_or_else(|| format!("invalid window '{value}': expected 24h, 7d, 30d or all"))
    }

    /// Parses the API's `period`: exactly `24h`, `7d` or `all`.
    pub fn parse_period(value: &str) -> Option<Self> {
        Self::iter()
            .filter(|w| *w != Self::Month)
            .find(|w| w.as_str() == value)
    }

    /// The canonical spelling (the one the API echoes).
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// The earliest time inside the window, `None` for `all`.
    pub fn since(self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        match self {
            Self::Day => Some(now - Duration::hours(24)),
            Self::Week => Some(now - Duration::days(7)),
            Self::Month => Some(now - Duration::days(30)),
            Self::All => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_window_keeps_its_spelling() {
        let spellings: Vec<&str> = Window::iter().map(Window::as_str).collect();
        assert_eq!(spellings, ["24h", "7d", "30d", "all"]);
        for w in Window::iter() {
            assert_eq!(Window::parse(w.as_str()), Some(w));
        }
        assert_eq!(Window::parse(" 1W "), Some(Window::Week));
        assert_eq!(Window::parse_period("30d"), None);
        assert_eq!(Window::parse_period("7D"), None);
        assert_eq!(Window::parse_period("all"), Some(Window::All));
    }
}
