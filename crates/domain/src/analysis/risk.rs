//! The product-level risk: the worst ingredients decide, not the average
//! ([`overall_risk_of`]), and the mean score.

use super::score::UNKNOWN_SCORE;
use super::{IngredientDetail, OverallRisk, Recommendation};

/// Scores up to this one are a significant concern: one such ingredient makes the product at
/// least medium risk. A 6 is a minor concern (e.g. salt, sugar, an authorised preservative).
pub const SIGNIFICANT_CAUTION: u8 = 5;
/// More minor concerns (score 6) than this make the product medium risk.
pub const MAX_MINOR_FOR_LOW: usize = 2;

/// Why the overall risk is what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RiskRule {
    /// An ingredient matches a declared allergy.
    AllergenMatch,
    /// An ingredient (not a trace) is AVOID.
    AvoidIngredient,
    /// An ingredient (not a trace) scores 4 to [`SIGNIFICANT_CAUTION`], unknown ones included.
    SignificantCaution,
    /// More than [`MAX_MINOR_FOR_LOW`] ingredients score 6.
    ManyMinorConcerns,
    /// Nothing above.
    NothingOfConcern,
}

impl RiskRule {
    /// The rule in words, for the expert summary.
    pub(super) fn describe(self) -> String {
        match self {
            Self::AllergenMatch => "an ingredient matches a declared allergy".to_owned(),
            Self::AvoidIngredient => "at least one ingredient scores 1-3 (AVOID)".to_owned(),
            Self::SignificantCaution => format!(
                "at least one ingredient scores 4-{SIGNIFICANT_CAUTION} (CAUTION; unknown ingredients score {UNKNOWN_SCORE})"
            ),
            Self::ManyMinorConcerns => {
                format!("more than {MAX_MINOR_FOR_LOW} ingredients have minor concerns (score 6)")
            }
            Self::NothingOfConcern => {
                format!("no ingredient scores below 6 and at most {MAX_MINOR_FOR_LOW} score 6")
            }
        }
    }
}

/// The product-level rule: the worst ingredients decide, not the average.
/// high: any allergen match (traces included) or any non-trace AVOID ingredient (score 1-3);
/// medium: any non-trace ingredient scoring 4-[`SIGNIFICANT_CAUTION`] (unknown ones score 5),
/// or more than [`MAX_MINOR_FOR_LOW`] scoring 6;
/// low otherwise. Trace ingredients count only through allergen matches.
pub fn overall_risk_of(details: &[IngredientDetail], trace: &[bool]) -> (OverallRisk, RiskRule) {
    if details.iter().any(|d| d.is_allergen_match) {
        return (OverallRisk::High, RiskRule::AllergenMatch);
    }
    let main: Vec<&IngredientDetail> = details
        .iter()
        .zip(trace)
        .filter(|(_, t)| !**t)
        .map(|(d, _)| d)
        .collect();
    if main
        .iter()
        .any(|d| d.recommendation == Recommendation::Avoid)
    {
        return (OverallRisk::High, RiskRule::AvoidIngredient);
    }
    if main.iter().any(|d| d.safety_score <= SIGNIFICANT_CAUTION) {
        return (OverallRisk::Medium, RiskRule::SignificantCaution);
    }
    let minor = main
        .iter()
        .filter(|d| d.recommendation == Recommendation::Caution)
        .count();
    if minor > MAX_MINOR_FOR_LOW {
        return (OverallRisk::Medium, RiskRule::ManyMinorConcerns);
    }
    (OverallRisk::Low, RiskRule::NothingOfConcern)
}

/// The mean of the non-trace ingredients' scores (of all of them when every one is a trace),
/// rounded to one decimal; 0 for no ingredient.
pub(super) fn average_score(details: &[IngredientDetail], trace: &[bool]) -> f64 {
    let counted: Vec<&IngredientDetail> = {
        let main: Vec<&IngredientDetail> = details
            .iter()
            .zip(trace)
            .filter(|(_, t)| !**t)
            .map(|(d, _)| d)
            .collect();
        if main.is_empty() {
            details.iter().collect()
        } else {
            main
        }
    };
    if counted.is_empty() {
        0.0
    } else {
        let sum: u32 = counted.iter().map(|d| u32::from(d.safety_score)).sum();
        (f64::from(sum) / counted.len() as f64 * 10.0).round() / 10.0
    }
}
