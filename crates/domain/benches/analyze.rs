//! Analysing a 40-ingredient list (parse + match + personalise + summarise), and building the
//! knowledge-base index. `cargo bench -p domain --bench analyze`; numbers in docs/analysis.md.

use criterion::{Criterion, criterion_group, criterion_main};
use domain::analysis::{AnalysisInput, Expertise, SkinType, analyze};
use domain::knowledge::{DATA_FILES, KnowledgeBase};
use domain::parse::split_ingredients;

/// A realistic face-cream label (31) plus a chocolate bar (9): 40 top-level ingredients, with
/// sub-ingredients, an E-number, an INCI slash form, a typo and a "may contain" statement.
const LIST: &str = "Ingredients: Aqua/Water/Eau, Glycerin, Caprylic/Capric Triglyceride, Cetearyl Alcohol, \
    Butyrospermum Parkii Butter, Dimethicone, Glyceryl Stearate, PEG-100 Stearate, Niacinamide, \
    Panthenol, Tocopheryl Acetate, Sodium Hyaluronate, Allantoin, Xanthan Gum, Carbomer, \
    Sodium Hydroxide, Disodium EDTA, Phenoxyethanol, Ethylhexylglycerin, Methylparaben, \
    Parfum, Linalool, Limonene, Citronellol, Geraniol, Alcohol Denat., Sodium Lauryl Sulfate, \
    Cocos Nucifera Oil, CI 77891, Titanium Dioxide, glycerln, Sugar, Cocoa Butter, \
    Whole Milk Powder, Cocoa Mass, Emulsifier (Soy Lecithin), Hazelnuts 5%, \
    chocolate (sugar, cocoa butter, milk powder), Preservative (E211), Salt. \
    May contain peanuts and other nuts.";

fn bench(c: &mut Criterion) {
    let kb = KnowledgeBase::embedded();
    let allergies = vec![
        "Milk/Dairy".to_owned(),
        "Tree Nut".to_owned(),
        "fragrance".to_owned(),
    ];
    let input = AnalysisInput::new(
        Some("Bench"),
        Some(LIST),
        &allergies,
        SkinType::Sensitive,
        Expertise::Expert,
    )
    .expect("valid bench input");
    assert!(input.parsed.len() >= 40, "{} items", input.parsed.len());
    let _ = kb;
    c.bench_function("split_ingredients_40", |b| {
        b.iter(|| split_ingredients(std::hint::black_box(LIST)))
    });
    c.bench_function("analyze_40_ingredients", |b| {
        b.iter(|| analyze(std::hint::black_box(&input)))
    });
    c.bench_function("validate_and_analyze_40_ingredients", |b| {
        b.iter(|| {
            let input = AnalysisInput::new(
                None,
                Some(std::hint::black_box(LIST)),
                &allergies,
                SkinType::Sensitive,
                Expertise::Expert,
            )
            .expect("valid");
            analyze(&input)
        })
    });
    let mut group = c.benchmark_group("knowledge_base");
    group.sample_size(10);
    group.bench_function("build_index", |b| {
        b.iter(|| KnowledgeBase::from_files(std::hint::black_box(DATA_FILES)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
