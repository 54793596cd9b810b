//! How a skin type lowers an entry's score (docs/analysis.md): facts of the entry (its skin
//! flags, fragrance allergens, comedogenic rating) weighed for each skin type. The knowledge
//! base renders these once per entry at start-up; the engine applies them.

use crate::knowledge::{AllergenGroup, Ingredient, SkinFlag};
use crate::vocabulary::SkinType;

/// One way a skin type lowers a score: an entry carrying any of `flags` loses `penalty`.
struct SkinRule {
    skin: SkinType,
    flags: &'static [SkinFlag],
    penalty: u8,
    reason: &'static str,
}

/// The flag rules of docs/analysis.md, in the order their reasons are shown. Oily and
/// combination skin go by the comedogenic rating instead ([`comedogenic_penalty`]).
const SKIN_RULES: [SkinRule; 9] = [
    SkinRule {
        skin: SkinType::Sensitive,
        // Fragrance allergens count too (the entry's allergen groups, see `skin_penalty`).
        flags: &[SkinFlag::Fragrance],
        penalty: 2,
        reason: "fragrance ingredients are the most frequent cause of cosmetic contact allergy",
    },
    SkinRule {
        skin: SkinType::Sensitive,
        flags: &[SkinFlag::EssentialOil],
        penalty: 2,
        reason: "essential oils carry fragrance allergens and irritate reactive skin",
    },
    SkinRule {
        skin: SkinType::Sensitive,
        flags: &[SkinFlag::DryingAlcohol],
        penalty: 2,
        reason: "denatured/volatile alcohol strips the skin barrier and stings",
    },
    SkinRule {
        skin: SkinType::Sensitive,
        flags: &[SkinFlag::HarshSurfactant],
        penalty: 2,
        reason: "harsh surfactants such as SLS disrupt the barrier and irritate",
    },
    SkinRule {
        skin: SkinType::Sensitive,
        flags: &[SkinFlag::SensitisingPreservative],
        penalty: 2,
        reason: "this preservative is a known contact sensitiser",
    },
    SkinRule {
        skin: SkinType::Sensitive,
        flags: &[SkinFlag::Irritant, SkinFlag::ExfoliatingAcid],
        penalty: 1,
        reason: "irritant or exfoliating at usual concentrations",
    },
    SkinRule {
        skin: SkinType::Dry,
        flags: &[SkinFlag::DryingAlcohol],
        penalty: 2,
        reason: "drying alcohol removes lipids and worsens dryness",
    },
    SkinRule {
        skin: SkinType::Dry,
        flags: &[SkinFlag::HarshSurfactant],
        penalty: 2,
        reason: "harsh surfactants such as SLS strip the skin's lipids",
    },
    SkinRule {
        skin: SkinType::Dry,
        flags: &[SkinFlag::ExfoliatingAcid],
        penalty: 1,
        reason: "exfoliating acids can increase dryness",
    },
];

/// How much the user's skin type lowers an entry's score, and why (docs/analysis.md): the
/// largest penalty of the rules that apply, with every applying rule's reason.
pub fn skin_penalty(skin: SkinType, ing: &Ingredient) -> (u8, Vec<&'static str>) {
    if matches!(skin, SkinType::Oily | SkinType::Combination) {
        return comedogenic_penalty(ing);
    }
    let has = |f: &SkinFlag| {
        ing.skin.contains(f)
            || (*f == SkinFlag::Fragrance && ing.allergens.contains(&AllergenGroup::Fragrance))
    };
    let mut penalty = 0u8;
    let mut reasons = Vec::new();
    for rule in SKIN_RULES.iter().filter(|r| r.skin == skin) {
        if rule.flags.iter().any(has) {
            penalty = penalty.max(rule.penalty);
            reasons.push(rule.reason);
        }
    }
    (penalty, reasons)
}

/// Oily and combination skin: a comedogenic rating of 3 lowers the score by 2, 4 or 5 by 3;
/// an entry flagged comedogenic without a rating counts as 3.
fn comedogenic_penalty(ing: &Ingredient) -> (u8, Vec<&'static str>) {
    let rating = ing.comedogenic.unwrap_or(0);
    if rating >= 3 || (ing.skin.contains(&SkinFlag::Comedogenic) && rating == 0) {
        let penalty = if rating >= 4 { 3 } else { 2 };
        (
            penalty,
            vec!["comedogenic: can clog pores and promote breakouts"],
        )
    } else {
        (0, Vec::new())
    }
}
