//! The ingredient-list grammar and normaliser: `split_ingredients` (items, traces, allergen
//! declarations, label notes), `fold` (documented as idempotent), the allergen safety net
//! (`AllergyAliases::words_in`), reading a name by its head (`resolve_by_head`) and the whole
//! `/analyze` path from validated input to the response.
//! The first line of the input is read as an allergy list, the rest as the label text.
#![no_main]

use domain::analysis::{AnalysisInput, Expertise, SkinType, analyze};
use domain::knowledge::KnowledgeBase;
use domain::knowledge::allergy::AllergyAliases;
use domain::parse::split_ingredients;
use domain::text::fold::fold;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (first_line, list) = text.split_once('\n').unwrap_or(("", text));
    let items = split_ingredients(list);
    // The list reads: ingredients, then declared allergens, then traces.
    let rank = |i: &domain::parse::ParsedIngredient| u8::from(i.declared) + 2 * u8::from(i.trace);
    assert!(items.windows(2).all(|w| rank(&w[0]) <= rank(&w[1])));
    let kb = KnowledgeBase::embedded();
    for item in &items {
        assert!(!(item.trace && item.declared), "an item is a trace or declared, not both");
        for name in [&item.name, &item.text] {
            let once = fold(name);
            assert_eq!(fold(&once), once, "fold is not idempotent on {name:?}");
            for found in AllergyAliases::embedded().words_in(&once) {
                assert!(found.group.is_food_allergen());
            }
            let _ = kb.resolve_by_head(name);
        }
    }
    let allergies: Vec<String> = first_line.split(',').map(str::to_owned).collect();
    if let Ok(input) = AnalysisInput::new(
        Some("fuzz"),
        Some(list),
        &allergies,
        SkinType::Sensitive,
        Expertise::Expert,
    ) {
        let response = analyze(&input);
        for ingredient in &response.ingredients {
            assert!((1.0..=10.0).contains(&f64::from(ingredient.safety_score)));
        }
    }
});
