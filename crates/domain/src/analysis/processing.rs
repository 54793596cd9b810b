//! The NOVA group of a food from its ingredient list (Monteiro et al. 2019, "Ultra-processed
//! foods: what they are and how to identify them"), with the ingredients that decided it.
//!
//! Each recognised part has a role ([`role`]): 1 a food, 2 a processed culinary ingredient
//! (salt, sugar, oils, butter, starch, vinegar, honey), 3 a processed food (cheese, bread,
//! cured meat), 4 a marker of ultra-processing (substances of rare culinary use such as whey,
//! maltodextrin or hydrogenated fat, and additives with cosmetic functions: flavourings,
//! colours, emulsifiers, thickeners, sweeteners, glazing agents). The product is group 4 with
//! any marker of 4; group 2 when it is a culinary ingredient (its first ingredient is one and
//! nothing is more processed); group 3 with any culinary ingredient or processed food; else 1.

use super::diet::{FLAVOURING_CLASS, function_of_class, is_flavouring_in_food};
use super::item::{ItemFacts, Part, added_as_nutrient};
use super::{NovaMarker, Processing};
use crate::knowledge::{Ingredient, KnowledgeBase};
use crate::vocabulary::ProductCategory;

/// The NOVA group of a food's non-trace items; `null` when not `enough_known`.
pub(super) fn processing(
    kb: &KnowledgeBase,
    product: ProductCategory,
    items: &[&ItemFacts<'_>],
    enough_known: bool,
) -> Processing {
    if !enough_known {
        return Processing {
            nova_group: None,
            markers: Vec::new(),
        };
    }
    let roles: Vec<Vec<(&Part<'_>, u8)>> = items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            item.parts
                .iter()
                .enumerate()
                .filter_map(|(j, p)| {
                    // A nutrient added for its own sake marks nothing (riboflavin's E101 is
                    // a colour only when added as one).
                    let r = if added_as_nutrient(items, i, j) {
                        Some(1)
                    } else if p.entry.is_some_and(|e| is_flavouring_in_food(product, e)) {
                        class_role(kb, FLAVOURING_CLASS)
                    } else {
                        role(kb, p)
                    };
                    r.map(|r| (p, r))
                })
                .collect()
        })
        .collect();
    let all = || roles.iter().flatten();
    let highest = all().map(|(_, r)| *r).max().unwrap_or(1);
    let first_is_culinary = roles
        .first()
        .and_then(|parts| parts.first())
        .is_some_and(|(_, r)| *r == 2);
    let group = match highest {
        4 => 4,
        2 if first_is_culinary => 2,
        2 | 3 => 3,
        _ => 1,
    };
    let marks = |r: u8| match group {
        4 => r == 4,
        3 => r == 2 || r == 3,
        2 => r == 2,
        _ => false,
    };
    let mut markers: Vec<NovaMarker> = Vec::new();
    for (part, r) in all() {
        if marks(*r) && !markers.iter().any(|m| m.ingredient == part.printed) {
            markers.push(NovaMarker {
                group: *r,
                ingredient: part.printed.to_owned(),
                marker: marker_text(part, *r),
            });
        }
    }
    Processing {
        nova_group: Some(group),
        markers,
    }
}

/// A part's NOVA role: the entry's (1 for a food without one; none for an ingredient of
/// cosmetics only); a function class named alone takes its class's.
fn role(kb: &KnowledgeBase, part: &Part<'_>) -> Option<u8> {
    match (part.entry, part.class) {
        (Some(ing), _) => entry_role(ing),
        (None, Some(class)) => class_role(kb, class),
        (None, None) => None,
    }
}

fn entry_role(ing: &Ingredient) -> Option<u8> {
    match ing.nova {
        Some(r) => Some(r),
        None if ing.category == ProductCategory::Cosmetics => None,
        None => Some(1),
    }
}

/// The role most additives of a class have ("émulsifiant" alone is a marker of 4).
fn class_role(kb: &KnowledgeBase, class: &str) -> Option<u8> {
    let mut counts = [0usize; 5];
    for (_, ing) in kb.with_function(&function_of_class(class)) {
        if ing.e_number.is_some()
            && let Some(r) = ing.nova
        {
            counts[usize::from(r.min(4))] += 1;
        }
    }
    (1..=4u8)
        .max_by_key(|r| (counts[usize::from(*r)], *r))
        .filter(|r| counts[usize::from(*r)] > 0)
}

/// What a marker is: "emulsifier E471", "whey (a substance of rare culinary use)".
fn marker_text(part: &Part<'_>, role: u8) -> String {
    match (part.entry, part.class) {
        (Some(ing), _) => match &ing.e_number {
            Some(code) => format!("{} {code}", ing.function.replace('-', " ")),
            None => format!("{} ({})", ing.name.to_lowercase(), role_words(role)),
        },
        (None, Some(class)) => format!("{} (class named alone)", class.to_lowercase()),
        (None, None) => role_words(role).to_owned(),
    }
}

fn role_words(role: u8) -> &'static str {
    match role {
        2 => "a processed culinary ingredient",
        3 => "a processed food",
        4 => "a substance of rare culinary use",
        _ => "a food",
    }
}
