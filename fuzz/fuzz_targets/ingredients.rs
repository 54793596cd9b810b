//! The ingredient-list parser and normaliser: `split_ingredients`, `fold` (documented as
//! idempotent) and the whole `/analyze` path from validated input to the response.
//! The first line of the input is read as an allergy list, the rest as the label text.
#![no_main]

use domain::analysis::{AnalysisInput, Expertise, SkinType, analyze};
use domain::knowledge::fold::fold;
use domain::parse::split_ingredients;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (first_line, list) = text.split_once('\n').unwrap_or(("", text));
    for item in split_ingredients(list) {
        for name in [&item.name, &item.text] {
            let once = fold(name);
            assert_eq!(fold(&once), once, "fold is not idempotent on {name:?}");
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
