//! The vocabulary of the `/analyze` contract (see `shared/spec/ingredient-api.md`): the user's
//! skin type and expertise, risk levels and recommendations (and the one mapping from a safety
//! score to both, [`grade`]), origins, categories and allergy risk. The knowledge base describes
//! its entries in these words and the analysis answers in them, so they sit below both.

use serde::{Deserialize, Serialize};

/// The user's skin type. Parsed, never validated afterwards.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    Default,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantNames,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase", ascii_case_insensitive)]
pub enum SkinType {
    /// No particular sensitivity (the default).
    #[default]
    Normal,
    /// Dry skin: drying alcohols and harsh surfactants weigh more.
    Dry,
    /// Oily skin: comedogenic oils and butters weigh more.
    Oily,
    /// Combination skin: treated like oily for comedogenicity.
    Combination,
    /// Sensitive skin: fragrance, essential oils and sensitisers weigh more.
    Sensitive,
}

impl SkinType {
    /// Every accepted value, in the spec's order.
    pub const ALL: &'static [&'static str] = <Self as strum::VariantNames>::VARIANTS;
    /// Every skin type, in the spec's order.
    pub const EVERY: [SkinType; 5] = [
        Self::Normal,
        Self::Dry,
        Self::Oily,
        Self::Combination,
        Self::Sensitive,
    ];

    /// Parses the spec's lowercase value, tolerating surrounding whitespace and case.
    pub fn parse(value: &str) -> Result<Self, InvalidValue> {
        value
            .trim()
            .parse()
            .map_err(|_| InvalidValue::new("skin_type", value, Self::ALL))
    }

    /// The spec's lowercase name.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// How the summary is written.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    Default,
    strum::EnumString,
    strum::VariantNames,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase", ascii_case_insensitive)]
pub enum Expertise {
    /// Short, plain and actionable (the default).
    #[default]
    Beginner,
    /// Names mechanisms, regulations and sources.
    Expert,
}

impl Expertise {
    /// Every accepted value.
    pub const ALL: &'static [&'static str] = <Self as strum::VariantNames>::VARIANTS;

    /// Parses `beginner` or `expert`, tolerating surrounding whitespace and case.
    pub fn parse(value: &str) -> Result<Self, InvalidValue> {
        value
            .trim()
            .parse()
            .map_err(|_| InvalidValue::new("expertise", value, Self::ALL))
    }
}

/// A request value outside its allowed set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid {field} '{value}': expected one of {allowed}")]
pub struct InvalidValue {
    /// The request field.
    pub field: &'static str,
    /// The value as given (truncated to 64 characters).
    pub value: String,
    /// The allowed values, comma-separated.
    pub allowed: String,
}

impl InvalidValue {
    /// Builds the error for `field`, keeping at most 64 characters of the offending value.
    pub fn new(field: &'static str, value: &str, allowed: &[&str]) -> Self {
        Self {
            field,
            value: value.chars().take(64).collect(),
            allowed: allowed.join(", "),
        }
    }
}

/// Risk of one ingredient.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RiskLevel {
    /// Score 7 to 10.
    Low,
    /// Score 4 to 6.
    Medium,
    /// Score 1 to 3, or an allergen match.
    High,
}

/// What the user should do with an ingredient.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Recommendation {
    /// Score 7 to 10.
    Safe,
    /// Score 4 to 6.
    Caution,
    /// Score 1 to 3, or an allergen match.
    Avoid,
}

/// The one documented mapping from a safety score (1 = worst, 10 = safest) to risk level and
/// recommendation. Every code path goes through it, so SAFE never meets a high risk.
pub fn grade(score: u8) -> (RiskLevel, Recommendation) {
    match score {
        7..=u8::MAX => (RiskLevel::Low, Recommendation::Safe),
        4..=6 => (RiskLevel::Medium, Recommendation::Caution),
        _ => (RiskLevel::High, Recommendation::Avoid),
    }
}

/// Where an ingredient comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Origin {
    /// From plants, animals or minerals with little processing.
    Natural,
    /// Made by chemical synthesis.
    Synthetic,
    /// A natural material chemically modified.
    #[serde(rename = "Semi-synthetic")]
    SemiSynthetic,
}

/// Which kind of product an ingredient is used in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ProductCategory {
    /// Food only.
    Food,
    /// Cosmetics only.
    Cosmetics,
    /// Both food and cosmetics.
    Both,
}

/// Whether an ingredient is a likely allergen for this user.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AllergyRisk {
    /// Carries a declared allergy's group.
    High,
    /// Does not.
    Low,
}

/// Where an ingredient's facts come from (extra field `source`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum FactSource {
    /// The curated knowledge base.
    KnowledgeBase,
    /// A language model, validated but not reviewed ([`Supplement`]).
    Llm,
    /// Not identified: scored as unknown.
    #[default]
    Unknown,
}

/// The product-level verdict. `unknown` appears only in error bodies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OverallRisk {
    /// Only used in error responses.
    Unknown,
    /// Nothing worse than minor concerns.
    Low,
    /// Some ingredients deserve caution.
    Medium,
    /// An allergen match or an ingredient to avoid.
    High,
}
