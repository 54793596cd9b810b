//! Types of the `/analyze` contract (see `shared/spec/ingredient-api.md`).

use serde::{Deserialize, Serialize};

use crate::shared::SharedStr;

mod allergy;
mod alternatives;
mod context;
pub mod engine;
mod finding;
pub mod input;
mod item;
mod json;
mod listing;
mod prose;
mod risk;
mod score;
mod summary;
pub mod supplement;

pub use crate::vocabulary::*;
pub use engine::{analyze, analyze_with, analyze_with_supplement};
pub use input::{AnalysisInput, RequestError};
pub use supplement::{ExternalFacts, Supplement};

/// The `engine` of a response produced without any LLM.
pub const OFFLINE_ENGINE: &str = "offline";

/// The product name used when a request gives none, and in every error body.
pub const UNKNOWN_PRODUCT: &str = "Unknown Product";

/// One analysed ingredient (the spec's IngredientDetail, plus `canonical_name` and `references`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IngredientDetail {
    /// The ingredient as given by the user.
    pub name: String,
    /// The knowledge-base English name, `null` when unknown.
    pub canonical_name: Option<SharedStr>,
    /// What the ingredient is for.
    pub purpose: SharedStr,
    /// 1 (worst) to 10 (safest).
    pub safety_score: u8,
    /// Derived from the score through [`grade`], raised to high on an allergen match.
    pub risk_level: RiskLevel,
    /// Why the score is what it is.
    pub concerns: SharedStr,
    /// Derived from the score through [`grade`], AVOID on an allergen match.
    pub recommendation: Recommendation,
    /// Natural, Synthetic or Semi-synthetic.
    pub origin: Origin,
    /// Food, Cosmetics or Both.
    pub category: ProductCategory,
    /// high when the ingredient matches a declared allergy.
    pub allergy_risk: AllergyRisk,
    /// true when the ingredient matches a declared allergy.
    pub is_allergen_match: bool,
    /// Safer ingredients with the same purpose (may be empty).
    pub alternatives: Vec<SharedStr>,
    /// The sources behind the concerns.
    pub references: Vec<SharedStr>,
    /// Extra field: where the facts come from (`knowledge_base`, `llm` or `unknown`).
    #[serde(default)]
    pub source: FactSource,
}

/// The `/analyze` response, both for success and (through [`AnalysisResponse::error`]) failure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnalysisResponse {
    /// true on success.
    pub success: bool,
    /// The request's product name, or `Unknown Product`.
    pub product_name: String,
    /// low, medium or high; unknown in error bodies.
    pub overall_risk: OverallRisk,
    /// Mean of the ingredients' safety scores; 0 in error bodies.
    pub average_safety_score: f64,
    /// Advice written for the user's expertise; empty in error bodies.
    pub summary: String,
    /// `ALLERGEN WARNING: <ingredient> - <reason>`, one per matching ingredient.
    pub allergen_warnings: Vec<String>,
    /// One entry per ingredient of the list.
    pub ingredients: Vec<IngredientDetail>,
    /// Seconds spent analysing; 0 in error bodies.
    pub execution_time: f64,
    /// `null` on success; a description on failure.
    pub error: Option<String>,
    /// Extra field on success: which path produced the answer, `offline` or `llm:<model>`.
    /// Absent from error bodies, which keep the spec's exact shape.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
}

impl AnalysisResponse {
    /// The response as JSON bytes, as `POST /analyze` sends it.
    ///
    /// The values are written by sonic-rs rather than serde_json: the answer for a
    /// 40-ingredient list is ~36 KB of text, and serde_json escapes strings one byte at a time
    /// (a quarter of the request's instructions in callgrind); sonic-rs scans 16 bytes at a
    /// time. Keys, punctuation and enum values are literals ([`json`]); the bytes are the
    /// derived `Serialize`'s (`json_matches_serde_json`, and `json` checks every
    /// knowledge-base entry). The buffer is sized up front (about 0.9 KB per ingredient) so a
    /// large answer is not regrown.
    pub fn to_json(&self) -> Result<Vec<u8>, sonic_rs::Error> {
        let mut out = Vec::with_capacity(1024 + 1024 * self.ingredients.len());
        json::write_response(&mut out, self)?;
        Ok(out)
    }

    /// The spec's error body of `/analyze`.
    pub fn error(message: impl Into<String>) -> Self {
        Self {
            success: false,
            product_name: UNKNOWN_PRODUCT.to_owned(),
            overall_risk: OverallRisk::Unknown,
            average_safety_score: 0.0,
            summary: String::new(),
            allergen_warnings: Vec::new(),
            ingredients: Vec::new(),
            execution_time: 0.0,
            error: Some(message.into()),
            engine: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grade_never_pairs_safe_with_high_risk() {
        for score in 0..=10u8 {
            let (risk, rec) = grade(score);
            assert_eq!(
                risk == RiskLevel::Low,
                rec == Recommendation::Safe,
                "score {score}"
            );
            assert_eq!(
                risk == RiskLevel::High,
                rec == Recommendation::Avoid,
                "score {score}"
            );
        }
        assert_eq!(grade(7), (RiskLevel::Low, Recommendation::Safe));
        assert_eq!(grade(6), (RiskLevel::Medium, Recommendation::Caution));
        assert_eq!(grade(3), (RiskLevel::High, Recommendation::Avoid));
    }

    #[test]
    fn skin_type_parses_spec_values_only() {
        assert_eq!(SkinType::parse(" Sensitive "), Ok(SkinType::Sensitive));
        let err = SkinType::parse("greasy").unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid skin_type 'greasy': expected one of normal, dry, oily, combination, sensitive"
        );
    }

    #[test]
    fn json_matches_serde_json() {
        let list = "Aqua, Glycerin, Parfum (Fragrance), Sodium Lauryl Sulfate, \"Quoted\" \\ back, \
            tab\there, <script>alert(1)</script>, 乳清, café, 🥜 nuts, CI 77891, glycerln";
        let input = AnalysisInput::new(
            Some("Cream \"<b>\" \u{1}"),
            Some(list),
            &["milk".to_owned(), "fragrance".to_owned()],
            SkinType::Sensitive,
            Expertise::Expert,
        )
        .unwrap();
        let response = analyze(&input);
        assert_eq!(
            String::from_utf8(response.to_json().unwrap()).unwrap(),
            serde_json::to_string(&response).unwrap()
        );
        let error = AnalysisResponse::error("bad \"input\"\n");
        assert_eq!(
            error.to_json().unwrap(),
            serde_json::to_vec(&error).unwrap()
        );
    }

    #[test]
    fn error_body_matches_the_spec() {
        let body = serde_json::to_value(AnalysisResponse::error("boom")).unwrap();
        assert_eq!(
            body,
            serde_json::json!({
                "success": false, "product_name": "Unknown Product", "overall_risk": "unknown",
                "average_safety_score": 0.0, "summary": "", "allergen_warnings": [],
                "ingredients": [], "execution_time": 0.0, "error": "boom"
            })
        );
    }
}
