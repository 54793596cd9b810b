//! The knowledge base as embedded in the binary passes every rule of `data/SCHEMA.md`.
//!
//! `problems` is the checker; `a_broken_base_is_caught` proves each rule can fail.

use std::collections::{BTreeSet, HashMap};

use domain::analysis::ProductCategory;
use domain::knowledge::codes::{ci_number, e_number};
use domain::knowledge::{DATA_FILES, EuCosmetics, Iarc, KnowledgeBase};
use domain::text::fold::fold;

/// At least this many distinct ingredients (the knowledge base's size floor).
const MIN_DISTINCT_INGREDIENTS: usize = 1_500;
/// At least this many entries carry names in all of fr, es, de, it, pt, ko, ja, zh.
const MIN_ALL_LANGUAGES: usize = 400;

const FUNCTIONS: &str = "colour preservative antioxidant emulsifier stabiliser thickener \
    gelling-agent sweetener acidity-regulator acid flavour-enhancer raising-agent \
    anti-caking-agent humectant glazing-agent firming-agent flour-treatment-agent bulking-agent \
    carrier propellant sequestrant modified-starch packaging-gas foaming-agent antifoaming-agent \
    flavouring emollient surfactant cleansing-agent uv-filter colourant fragrance solvent \
    skin-conditioning film-former viscosity-controlling ph-adjuster chelating-agent active \
    exfoliant opacifier abrasive absorbent antimicrobial hair-conditioning occlusive food \
    banned-substance";

/// Every rule violation of `kb`, one line each.
fn problems(kb: &KnowledgeBase) -> Vec<String> {
    let mut out = Vec::new();
    let functions: BTreeSet<&str> = FUNCTIONS.split_whitespace().collect();
    let mut names: HashMap<String, &str> = HashMap::new();
    let mut e_numbers: HashMap<String, &str> = HashMap::new();
    let mut ci_numbers: HashMap<String, &str> = HashMap::new();
    let canonical: BTreeSet<String> = kb.ingredients().iter().map(|i| fold(&i.name)).collect();
    for ing in kb.ingredients() {
        let n = ing.name.as_str();
        for label in std::iter::once(&ing.name).chain(&ing.synonyms) {
            let key = fold(label);
            if key.is_empty() {
                out.push(format!(
                    "{n}: name or synonym '{label}' is empty after folding"
                ));
                continue;
            }
            match names.get(&key) {
                Some(other) if *other != n => {
                    out.push(format!("{n}: name/synonym '{label}' also names '{other}'"));
                }
                _ => {
                    names.insert(key.clone(), n);
                }
            }
            if let Some(e) = e_number(&key) {
                match e_numbers.get(&e) {
                    Some(other) if *other != n => {
                        out.push(format!("{n}: E-number {e} also belongs to '{other}'"));
                    }
                    _ => {
                        e_numbers.insert(e, n);
                    }
                }
            }
            if let Some(ci) = ci_number(&key) {
                match ci_numbers.get(&ci) {
                    Some(other) if *other != n => {
                        out.push(format!("{n}: {ci} also belongs to '{other}'"));
                    }
                    _ => {
                        ci_numbers.insert(ci, n);
                    }
                }
            }
        }
        for (field, value) in [("e_number", &ing.e_number), ("ci_number", &ing.ci_number)] {
            if let Some(v) = value {
                let map = if field == "e_number" {
                    &mut e_numbers
                } else {
                    &mut ci_numbers
                };
                let parsed = if field == "e_number" {
                    e_number(&fold(v))
                } else {
                    ci_number(&fold(v))
                };
                match parsed {
                    None => out.push(format!("{n}: {field} '{v}' is not well formed")),
                    Some(code) => match map.get(&code) {
                        Some(other) if *other != n => {
                            out.push(format!("{n}: {field} {code} also belongs to '{other}'"))
                        }
                        _ => {
                            map.insert(code, n);
                        }
                    },
                }
            }
        }
        if ing.sources.is_empty() {
            out.push(format!("{n}: no source"));
        }
        for id in ing
            .sources
            .iter()
            .chain(ing.concerns.iter().map(|c| &c.source))
        {
            if kb.source(id).is_none() {
                out.push(format!("{n}: cites unknown source '{id}'"));
            }
        }
        if !(1..=10).contains(&ing.score) {
            out.push(format!("{n}: score {} outside 1..=10", ing.score));
        }
        if let Some(c) = &ing.in_cosmetics {
            if ing.category != ProductCategory::Food {
                out.push(format!(
                    "{n}: in_cosmetics on a {:?} entry (Food only)",
                    ing.category
                ));
            }
            if !(1..=10).contains(&c.score) {
                out.push(format!(
                    "{n}: in_cosmetics score {} outside 1..=10",
                    c.score
                ));
            }
            if kb.source(&c.source).is_none() {
                out.push(format!(
                    "{n}: in_cosmetics cites unknown source '{}'",
                    c.source
                ));
            }
            if c.purpose.trim().is_empty() || c.reason.trim().is_empty() {
                out.push(format!("{n}: in_cosmetics without a purpose or a reason"));
            }
        }
        if ing.eu_cosmetics == Some(EuCosmetics::AnnexIi) && ing.score > 3 {
            out.push(format!(
                "{n}: banned in EU cosmetics (annex-ii) but scores {}",
                ing.score
            ));
        }
        if matches!(ing.iarc, Some(Iarc::Group1 | Iarc::Group2A)) && ing.score > 6 {
            out.push(format!("{n}: IARC 1/2A but scores {}", ing.score));
        }
        if !functions.contains(ing.function.as_str()) {
            out.push(format!("{n}: unknown function '{}'", ing.function));
        }
        if ing.comedogenic.is_some_and(|c| c > 5) {
            out.push(format!("{n}: comedogenic rating above 5"));
        }
        if ing.purpose.trim().is_empty() || ing.score_reason.trim().is_empty() {
            out.push(format!("{n}: empty purpose or score_reason"));
        }
        for lang in ing.names.keys() {
            if !domain::language::Language::translations().any(|l| l.code() == lang) {
                out.push(format!("{n}: unknown language '{lang}'"));
            }
        }
        for alt in &ing.alternatives {
            if !canonical.contains(&fold(alt)) {
                out.push(format!(
                    "{n}: alternative '{alt}' is not an entry's canonical name"
                ));
            }
        }
    }
    out
}

/// Count thresholds, separately so the fixture test can check them too.
fn count_problems(kb: &KnowledgeBase, min_distinct: usize, min_languages: usize) -> Vec<String> {
    let mut out = Vec::new();
    let distinct: BTreeSet<String> = kb.ingredients().iter().map(|i| fold(&i.name)).collect();
    if distinct.len() < min_distinct {
        out.push(format!(
            "only {} distinct ingredients (need {min_distinct})",
            distinct.len()
        ));
    }
    let multilingual = kb
        .ingredients()
        .iter()
        .filter(|i| i.has_all_languages())
        .count();
    if multilingual < min_languages {
        out.push(format!(
            "only {multilingual} entries in all 8 languages (need {min_languages})"
        ));
    }
    out
}

#[test]
fn every_name_the_english_tables_map_is_an_entry() {
    let kb = KnowledgeBase::embedded();
    let tables = domain::language::english::LabelEnglish::get();
    assert!(tables.canonical_names().count() > 10);
    for canonical in tables.canonical_names() {
        assert!(
            kb.lookup(canonical).is_some(),
            "label-english.toml: {canonical} is no entry of the knowledge base"
        );
    }
}

#[test]
fn every_data_file_is_embedded() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let embedded: BTreeSet<&str> = DATA_FILES.iter().map(|(f, _)| *f).collect();
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        // Files that are not slices: what users call allergies, additive groups, the families
        // shoppers avoid. The words of the label languages are in data/language/ (read by
        // `domain::language`).
        let not_slices = [
            "allergy-aliases.toml",
            "additive-groups.toml",
            "avoid-families.toml",
        ];
        if name.ends_with(".toml") && !not_slices.contains(&name.as_str()) {
            assert!(
                embedded.contains(name.as_str()),
                "{name} is not in DATA_FILES"
            );
        }
    }
}

#[test]
fn the_embedded_knowledge_base_obeys_every_rule() {
    let kb = KnowledgeBase::from_files(DATA_FILES).expect("every data file parses");
    let mut all = problems(&kb);
    all.extend(count_problems(
        &kb,
        MIN_DISTINCT_INGREDIENTS,
        MIN_ALL_LANGUAGES,
    ));
    assert!(
        all.is_empty(),
        "{} problems:\n{}",
        all.len(),
        all.join("\n")
    );
}

#[test]
fn translated_names_shared_by_entries_are_listed() {
    // Not a failure: 虾 is both shrimp and prawn. The analysis uses the first entry and the
    // union of the allergen groups; this list is printed for the data authors.
    let kb = KnowledgeBase::embedded();
    let mut by_name: HashMap<String, BTreeSet<&str>> = HashMap::new();
    for ing in kb.ingredients() {
        for names in ing.names.values() {
            for n in names.iter() {
                by_name.entry(fold(n)).or_default().insert(&ing.name);
            }
        }
    }
    let mut shared: Vec<_> = by_name.iter().filter(|(_, v)| v.len() > 1).collect();
    shared.sort();
    for (name, entries) in &shared {
        eprintln!("shared translated name '{name}': {entries:?}");
    }
    // Every shared name still resolves, to one of the entries that share it.
    for (name, entries) in shared {
        let hit = kb.lookup(name).expect("shared name resolves");
        assert!(entries.contains(hit.name.as_str()) || kb.lookup(&hit.name).is_some());
    }
}

#[test]
fn a_broken_base_is_caught() {
    let broken = r#"
[sources.s1]
title = "A source"

[[ingredient]]
name = "Alpha"
synonyms = ["E 100", "Beta-Gamma"]
purpose = "x"
function = "colour"
origin = "Natural"
category = "Food"
score = 5
score_reason = "r"
sources = ["s1"]

[[ingredient]]
name = "Beta Gamma"
e_number = "E100"
ci_number = "CI 12345"
purpose = "x"
function = "not-a-class"
origin = "Synthetic"
category = "Cosmetics"
score = 5
score_reason = "r"
sources = []
eu_cosmetics = "annex-ii"
iarc = "2A"
alternatives = ["Nothing"]
concerns = [{ text = "t", source = "missing" }]

[ingredient.in_cosmetics]
purpose = "x"
score = 11
reason = "r"
source = "nowhere"

[[ingredient]]
name = "Delta"
ci_number = "CI12345"
purpose = "x"
function = "colourant"
origin = "Synthetic"
category = "Cosmetics"
score = 9
score_reason = "r"
sources = ["s1"]
iarc = "1"
"#;
    let kb = KnowledgeBase::from_files(&[("broken.toml", broken)]).unwrap();
    let found = problems(&kb).join("\n");
    for expected in [
        "Beta Gamma: name/synonym 'Beta Gamma' also names 'Alpha'",
        "Beta Gamma: e_number E100 also belongs to 'Alpha'",
        "Delta: ci_number CI 12345 also belongs to 'Beta Gamma'",
        "Beta Gamma: no source",
        "Beta Gamma: cites unknown source 'missing'",
        "Beta Gamma: banned in EU cosmetics (annex-ii) but scores 5",
        "Delta: IARC 1/2A but scores 9",
        "Beta Gamma: unknown function 'not-a-class'",
        "Beta Gamma: alternative 'Nothing' is not an entry's canonical name",
        "Beta Gamma: in_cosmetics on a Cosmetics entry (Food only)",
        "Beta Gamma: in_cosmetics score 11 outside 1..=10",
        "Beta Gamma: in_cosmetics cites unknown source 'nowhere'",
    ] {
        assert!(
            found.contains(expected),
            "missing '{expected}' in:\n{found}"
        );
    }
    let counts = count_problems(&kb, MIN_DISTINCT_INGREDIENTS, MIN_ALL_LANGUAGES);
    assert_eq!(
        counts,
        vec![
            "only 3 distinct ingredients (need 1500)".to_owned(),
            "only 0 entries in all 8 languages (need 400)".to_owned()
        ]
    );
}

#[test]
fn unknown_fields_and_values_fail_to_load() {
    let bad_allergen = r#"
[[ingredient]]
name = "X"
purpose = "x"
function = "food"
origin = "Natural"
category = "Food"
allergens = ["wheat"]
score = 5
score_reason = "r"
sources = []
"#;
    assert!(KnowledgeBase::from_files(&[("a.toml", bad_allergen)]).is_err());
    let misspelled = bad_allergen.replace("allergens = [\"wheat\"]", "alergens = []");
    assert!(KnowledgeBase::from_files(&[("b.toml", &misspelled)]).is_err());
}

#[test]
fn every_additive_named_as_a_nutrient_form_is_an_entry() {
    use domain::knowledge::facts::{AdditiveGroups, compact_code};
    let kb = KnowledgeBase::embedded();
    let codes: BTreeSet<String> = kb
        .ingredients()
        .iter()
        .filter_map(|i| i.e_number.as_deref())
        .map(|e| compact_code(e).to_lowercase())
        .collect();
    let groups = AdditiveGroups::embedded();
    assert!(!groups.nutrient_forms().is_empty());
    for form in groups.nutrient_forms() {
        let code = form.code.to_lowercase();
        assert!(
            codes.iter().any(|c| c.starts_with(&code)),
            "additive-groups.toml: nutrient form {} is no entry's E-number",
            form.code
        );
        assert!(
            kb.source(&form.source).is_some(),
            "{}: unknown source {}",
            form.code,
            form.source
        );
    }
}
