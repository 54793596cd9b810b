//! CPU time per analysis, for machines too busy for criterion's wall clock:
//! `perf stat -e task-clock target/release/examples/analyze_cpu analyze 20000`, minus the same
//! with 0 iterations, divided by the iteration count (`make bench-domain-cpu` does this).
//! Modes: `analyze` (40-ingredient list, pre-parsed), `parse` (`split_ingredients` only),
//! `parse-with` (`split_ingredients_with` and the knowledge base's names with commas),
//! `input` (`AnalysisInput::new` as the handler calls it: limits, cleaning, parsing), `build`
//! (the index), and `respond`: what `POST /analyze` does besides HTTP (validate and parse,
//! analyse, write the JSON answer with `AnalysisResponse::to_json`, as the handler does).

use domain::analysis::{AnalysisInput, Expertise, SkinType, analyze};
use domain::knowledge::{DATA_FILES, KnowledgeBase};

/// The list of `benches/analyze.rs`.
const LIST: &str = "Ingredients: Aqua/Water/Eau, Glycerin, Caprylic/Capric Triglyceride, \
    Cetearyl Alcohol, Butyrospermum Parkii Butter, Dimethicone, Glyceryl Stearate, \
    PEG-100 Stearate, Niacinamide, Panthenol, Tocopheryl Acetate, Sodium Hyaluronate, Allantoin, \
    Xanthan Gum, Carbomer, Sodium Hydroxide, Disodium EDTA, Phenoxyethanol, Ethylhexylglycerin, \
    Methylparaben, Parfum, Linalool, Limonene, Citronellol, Geraniol, Alcohol Denat., \
    Sodium Lauryl Sulfate, Cocos Nucifera Oil, CI 77891, Titanium Dioxide, glycerln, Sugar, \
    Cocoa Butter, Whole Milk Powder, Cocoa Mass, Emulsifier (Soy Lecithin), Hazelnuts 5%, \
    chocolate (sugar, cocoa butter, milk powder), Preservative (E211), Salt. \
    May contain peanuts and other nuts.";

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_else(|| "analyze".to_owned());
    let n: usize = args
        .next()
        .unwrap_or_else(|| "1000".to_owned())
        .parse()
        .map_err(|e| format!("iterations: {e}"))?;
    let kb = KnowledgeBase::embedded();
    let allergies = vec![
        "Milk/Dairy".to_owned(),
        "Tree Nut".to_owned(),
        "fragrance".to_owned(),
    ];
    let input = AnalysisInput::new(
        None,
        Some(LIST),
        &allergies,
        SkinType::Sensitive,
        Expertise::Expert,
    )
    .map_err(|e| e.to_string())?;
    let mut sink = 0usize;
    for _ in 0..n {
        sink += match mode.as_str() {
            "analyze" => analyze(std::hint::black_box(&input)).ingredients.len(),
            "parse" => domain::parse::split_ingredients(std::hint::black_box(LIST)).len(),
            "parse-with" => domain::parse::split_ingredients_with(
                std::hint::black_box(LIST),
                &|first, second| kb.joins_with_comma(first, second),
            )
            .len(),
            "input" => AnalysisInput::new(
                Some("Bench cream"),
                Some(std::hint::black_box(LIST)),
                &allergies,
                SkinType::Sensitive,
                Expertise::Expert,
            )
            .map_err(|e| e.to_string())?
            .parsed
            .len(),
            "respond" => {
                let input = AnalysisInput::new(
                    Some("Bench cream"),
                    Some(std::hint::black_box(LIST)),
                    &allergies,
                    SkinType::Sensitive,
                    Expertise::Expert,
                )
                .map_err(|e| e.to_string())?;
                let response = analyze(&input);
                response.to_json().map_err(|e| e.to_string())?.len()
            }
            "build" => KnowledgeBase::from_files(DATA_FILES)
                .map_err(|e| e.to_string())?
                .ingredients()
                .len(),
            other => return Err(format!("unknown mode {other}")),
        };
    }
    std::hint::black_box(sink);
    Ok(())
}
