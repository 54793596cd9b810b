//! The five digest categories of the spec.

use serde::{Deserialize, Serialize};

/// The five digest categories, in display order.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    strum::Display,
    strum::EnumString,
    strum::IntoStaticStr,
)]
#[strum(ascii_case_insensitive)]
pub enum Category {
    /// Someone wants something from the reader.
    #[serde(rename = "Need-Action")]
    #[strum(serialize = "Need-Action")]
    NeedAction,
    /// Receipts, alerts, notifications, list discussion: good to know.
    #[serde(rename = "FYI")]
    #[strum(serialize = "FYI")]
    Fyi,
    /// Editorial mailings.
    Newsletter,
    /// Marketing.
    Promotional,
    /// Social networks.
    Social,
}

impl Category {
    /// Every category in display order.
    pub const ALL: [Category; 5] = [
        Category::NeedAction,
        Category::Fyi,
        Category::Newsletter,
        Category::Promotional,
        Category::Social,
    ];

    /// The spec's key, e.g. `Need-Action`.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Parses a spec key, case-insensitively (`need-action`, `fyi`, ...).
    pub fn parse(value: &str) -> Option<Self> {
        value.trim().parse().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn category_parse_round_trips() {
        for c in Category::ALL {
            assert_eq!(Category::parse(&c.as_str().to_lowercase()), Some(c));
        }
        assert_eq!(Category::parse("spam"), None);
        assert_eq!(Category::parse(" need-ACTION "), Some(Category::NeedAction));
        assert_eq!(Category::Fyi.to_string(), "FYI");
        assert_eq!(Category::NeedAction.as_str(), "Need-Action");
    }
}
