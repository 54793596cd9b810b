//! The analysis engine: from an [`AnalysisInput`] to an [`AnalysisResponse`].
//!
//! Every rule here is written out in `docs/analysis.md`. In short: each ingredient gets its
//! knowledge-base score, capped by regulation (EU cosmetics Annex II ≤ 3, IARC 1/2A ≤ 6),
//! lowered for the user's skin type, and capped at [`ALLERGEN_SCORE`] on an allergen match;
//! [`grade`](super::grade) maps the score to risk level and recommendation; the product's
//! overall risk follows [`overall_risk_of`].
//!
//! The steps, one module each: [`listing`](super::listing) (which items, repaired against the
//! lexicon, and the kind of product), [`item`](super::item) (one top-level ingredient and its
//! sub-ingredients, through [`finding`](super::finding), [`allergy`](super::allergy),
//! [`score`](super::score) and [`alternatives`](super::alternatives)),
//! [`risk`](super::risk) (the product's risk and mean score) and [`summary`](super::summary).

use std::time::Instant;

use super::allergy::{declared_allergies, declared_matches};
use super::context::Context;
use super::input::AnalysisInput;
use super::item::analyze_item;
use super::listing::{list_items, product_category, repaired, repairs};
use super::risk::average_score;
use super::summary::summarize;
use super::supplement::Supplement;
use super::{
    AnalysisResponse, Expertise, FactSource, OFFLINE_ENGINE, OverallRisk, ProductCategory,
};
use crate::knowledge::KnowledgeBase;

pub use super::alternatives::MAX_ALTERNATIVES;
pub use super::risk::{MAX_MINOR_FOR_LOW, RiskRule, SIGNIFICANT_CAUTION, overall_risk_of};
pub use super::score::{ALLERGEN_SCORE, UNKNOWN_SCORE};

/// Analyses a validated request against the embedded knowledge base.
pub fn analyze(input: &AnalysisInput) -> AnalysisResponse {
    analyze_with(KnowledgeBase::embedded(), input)
}

/// Analyses a validated request against `kb`.
pub fn analyze_with(kb: &KnowledgeBase, input: &AnalysisInput) -> AnalysisResponse {
    analyze_with_supplement(kb, input, None)
}

/// Analyses a validated request against `kb`, then `extra` for names `kb` does not know.
/// Supplement entries are personalised like knowledge-base entries; details built from them
/// have `source: llm`, and the response's `engine` is the supplement's label when any is used.
pub fn analyze_with_supplement(
    kb: &KnowledgeBase,
    input: &AnalysisInput,
    extra: Option<&Supplement>,
) -> AnalysisResponse {
    let started = Instant::now();
    let (allergies, allergy_entries) = declared_allergies(kb, &input.allergies);
    // Allergen declarations ("Contains: milk") are statements about the list, not items of
    // it; a list of nothing else is read as the ingredients it names.
    let all_declared = input.parsed.iter().all(|p| p.declared);
    let listing = list_items(kb, extra, &input.parsed, all_declared);
    let repairs = repairs(kb, extra, &listing);
    let listing = repaired(kb, extra, listing, &repairs);
    let product_category = product_category(&listing.heads);
    let ctx = Context {
        kb,
        extra,
        allergies,
        allergy_entries,
        skin: input.skin_type,
        skin_applies: product_category != ProductCategory::Food,
        product_category,
        expert: input.expertise == Expertise::Expert,
    };

    let mut details = Vec::with_capacity(listing.items.len());
    let mut warnings = Vec::new();
    let mut items = Vec::with_capacity(listing.items.len());
    for ((parsed, head), function) in listing
        .items
        .iter()
        .copied()
        .zip(&listing.heads)
        .zip(&listing.functions)
    {
        let (mut detail, item) = analyze_item(&ctx, parsed, *head);
        if let Some(function) = function {
            detail.purpose = format!("{} (listed as '{function}')", detail.purpose).into();
        }
        if let Some(w) = &item.warning {
            warnings.push(format!("ALLERGEN WARNING: {} - {w}", detail.name));
        }
        details.push(detail);
        items.push(item);
    }

    let trace: Vec<bool> = items.iter().map(|i| i.trace).collect();
    let average = average_score(&details, &trace);
    let declared = if all_declared {
        Vec::new()
    } else {
        declared_matches(&ctx, &input.parsed)
    };
    for (text, groups, ai) in &declared {
        warnings.push(format!(
            "ALLERGEN WARNING: {text} - contains {} (declared on the label), which matches your declared allergy '{}'",
            groups.join(" and "),
            ctx.allergies[*ai].given
        ));
    }
    let (mut overall, mut rule) = overall_risk_of(&details, &trace);
    if !declared.is_empty() {
        (overall, rule) = (OverallRisk::High, RiskRule::AllergenMatch);
    }
    let summary = summarize(
        &ctx,
        input,
        &details,
        &items,
        (overall, rule),
        average,
        &declared,
    );
    let engine = match extra {
        Some(extra) if details.iter().any(|d| d.source == FactSource::Llm) => extra.label(),
        _ => OFFLINE_ENGINE,
    };
    AnalysisResponse {
        success: true,
        product_name: input.product_name.clone(),
        overall_risk: overall,
        average_safety_score: average,
        summary,
        allergen_warnings: warnings,
        ingredients: details,
        execution_time: (input.parse_time + started.elapsed()).as_secs_f64(),
        error: None,
        engine: Some(engine.to_owned()),
    }
}
