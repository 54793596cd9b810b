//! Safer ingredients to suggest instead of one that is not SAFE for this user: the entry's
//! own alternatives, peers of its function class, or an allergen group's usual swaps.

use super::ProductCategory;
use super::context::Context;
use super::score::personal_value;
use crate::knowledge::{AllergenGroup, EuCosmetics, EuFood, Ingredient, Resolved};
use crate::shared::SharedStr;

/// Most alternatives suggested per ingredient.
pub const MAX_ALTERNATIVES: usize = 3;

/// Allergen-free swaps for matched groups (`allergy-aliases.toml`), without any entry that
/// carries one of the user's declared groups.
pub(super) fn substitutes_for(ctx: &Context<'_>, groups: &[AllergenGroup]) -> Vec<SharedStr> {
    let aliases = crate::knowledge::allergy::AllergyAliases::embedded();
    let mut out: Vec<SharedStr> = Vec::new();
    for g in groups {
        for name in aliases.substitutes(*g) {
            if out.len() >= MAX_ALTERNATIVES {
                return out;
            }
            if let Some(cand) = ctx.kb.lookup(name)
                && !cand
                    .allergens
                    .iter()
                    .any(|a| ctx.allergies.iter().any(|d| d.groups.contains(a)))
                && !out.iter().any(|o| *o == cand.name)
            {
                out.push(cand.name.as_str().into());
            }
        }
    }
    out
}

/// Safer entries with the same purpose: the entry's own list first, then entries of the same
/// function class (and, for basic foods, the same purpose) that score 7+ for this user and
/// carry none of the user's allergen groups.
pub(super) fn alternatives_for(ctx: &Context<'_>, r: Resolved<'_>) -> Vec<SharedStr> {
    let ing = r.ingredient;
    let fits = |i: usize, cand: &Ingredient| {
        !cand.trace_only
            && cand.eu_cosmetics != Some(EuCosmetics::AnnexIi)
            && cand.eu_food != Some(EuFood::Withdrawn)
            && !cand
                .allergens
                .iter()
                .any(|g| ctx.allergies.iter().any(|a| a.groups.contains(g)))
            && personal_value(ctx, i, cand) >= 7
    };
    // Names are unique across entries, so an index stands for its entry's name.
    let mut picked: Vec<usize> = Vec::with_capacity(MAX_ALTERNATIVES);
    let own: Vec<usize> = match ctx.kb.alternatives_of(r.index) {
        Some(ids) => ids.iter().map(|i| *i as usize).collect(),
        // A supplement entry (indexed past the knowledge base): its names are looked up now.
        None => ing
            .alternatives
            .iter()
            .filter_map(|alt| ctx.kb.lookup_index(alt))
            .collect(),
    };
    for i in own {
        if let Some(cand) = ctx.kb.get(i)
            && fits(i, cand)
            && !picked.contains(&i)
        {
            picked.push(i);
        }
    }
    if picked.is_empty() && ing.function != "banned-substance" {
        // Basic foods are alternatives only for foods with the same purpose ("Vegetable oil").
        let candidates: Box<dyn Iterator<Item = (usize, &Ingredient)>> = if ing.function == "food" {
            Box::new(ctx.kb.with_purpose(&ing.purpose))
        } else {
            Box::new(ctx.kb.with_function(&ing.function))
        };
        for (i, cand) in candidates {
            if picked.len() >= MAX_ALTERNATIVES || cand.score < 8 {
                break;
            }
            let compatible_category = cand.category == ing.category
                || cand.category == ProductCategory::Both
                || ing.category == ProductCategory::Both;
            if cand.name != ing.name && compatible_category && fits(i, cand) {
                picked.push(i);
            }
        }
    }
    picked.truncate(MAX_ALTERNATIVES);
    picked
        .into_iter()
        .filter_map(|i| ctx.kb.prepared(i).map(|p| p.name.clone()))
        .collect()
}
