//! The engine on the embedded knowledge base: matching traps, allergies in many languages,
//! skin types, regulatory caps and the product-level rule.

use domain::analysis::engine::{SIGNIFICANT_CAUTION, overall_risk_of};
use domain::analysis::{
    AllergyRisk, AnalysisInput, AnalysisResponse, Expertise, IngredientDetail, OverallRisk,
    Recommendation, RiskLevel, SkinType, analyze, grade,
};
use domain::knowledge::{EuCosmetics, Iarc, KnowledgeBase};

fn run(list: &str, allergies: &[&str], skin: SkinType, expertise: Expertise) -> AnalysisResponse {
    let allergies: Vec<String> = allergies.iter().map(|a| (*a).to_owned()).collect();
    let input = AnalysisInput::new(None, Some(list), &allergies, skin, expertise).unwrap();
    analyze(&input)
}

fn simple(list: &str, allergies: &[&str]) -> AnalysisResponse {
    run(list, allergies, SkinType::Normal, Expertise::Beginner)
}

fn item<'a>(r: &'a AnalysisResponse, name: &str) -> &'a IngredientDetail {
    r.ingredients
        .iter()
        .find(|i| i.name == name)
        .unwrap_or_else(|| panic!("{name} missing"))
}

fn canonical(name: &str) -> Option<String> {
    simple(name, &[]).ingredients[0]
        .canonical_name
        .as_deref()
        .map(str::to_owned)
}

#[test]
fn every_name_of_every_entry_resolves_to_that_entry() {
    let kb = KnowledgeBase::embedded();
    for ing in kb.ingredients() {
        for name in ing.primary_names() {
            let hit = kb.lookup(name).map(|i| i.name.as_str());
            assert_eq!(hit, Some(ing.name.as_str()), "{name}");
        }
    }
}

#[test]
fn e_number_ci_and_slash_spellings() {
    for s in [
        "E211",
        "E 211",
        "e-211",
        "INS 211",
        "Preservative (E211)",
        "conservateur : E211",
    ] {
        assert_eq!(canonical(s).as_deref(), Some("Sodium Benzoate"), "{s}");
    }
    assert_eq!(canonical("CI 77891"), canonical("CI77891"));
    assert!(canonical("CI 77891").is_some());
    assert_eq!(canonical("Aqua/Water/Eau").as_deref(), Some("Water"));
    assert_eq!(canonical("Hazelnuts").as_deref(), Some("Hazelnut"));
    assert_eq!(canonical("glycerln"), canonical("glycerin"));
    assert_eq!(canonical("ＧＬＹＣＥＲＩＮ"), canonical("glycerin"));
}

#[test]
fn look_alike_names_never_match_the_allergen() {
    let r = simple(
        "coconut milk, nutmeg, buckwheat, cream of tartar, pea, milk thistle, water chestnut, peanut, butter",
        &["milk", "tree nut", "gluten", "peanut"],
    );
    let matched: Vec<&str> = r
        .ingredients
        .iter()
        .filter(|i| i.is_allergen_match)
        .map(|i| i.name.as_str())
        .collect();
    assert_eq!(matched, ["peanut", "butter"]);
    for trap in [
        "coconut milk",
        "nutmeg",
        "buckwheat",
        "cream of tartar",
        "pea",
    ] {
        assert!(item(&r, trap).canonical_name.is_some(), "{trap} is known");
    }
}

#[test]
fn allergies_match_whatever_the_user_calls_them() {
    for (allergy, ingredient) in [
        ("milk", "lait écrémé"),
        ("Milk", "Molke"),
        ("dairy", "우유"),
        ("lactose", "乳清"),
        ("Milk/Dairy", "whey powder (whey, lactose)"),
        ("Wheat/Gluten", "semolina"),
        ("gluten", "Spelt"),
        ("Peanut", "groundnut"),
        ("Tree Nut", "Cashew"),
        ("Shellfish", "Shrimp"),
        ("Shellfish", "Squid"),
        ("Soy", "Emulsifier (Soy Lecithin)"),
        ("Egg", "albumen"),
        ("Sesame", "Tahini"),
        ("Sulfites", "E220"),
        ("Fragrance", "Linalool"),
        ("Parabens", "Propylparaben"),
        ("Sulfates", "SLES"),
        ("Formaldehyde", "DMDM Hydantoin"),
        ("lait", "Milk"),
        ("Milch", "Butter"),
        ("우유", "Whey"),
        ("Kiwi", "Kiwi"),
        ("strawberry", "strawberry puree"),
    ] {
        let r = simple(ingredient, &[allergy]);
        let d = &r.ingredients[0];
        assert!(
            d.is_allergen_match,
            "{allergy} should match {ingredient}: {d:?}"
        );
        assert_eq!(d.allergy_risk, AllergyRisk::High);
        assert_eq!(
            (d.risk_level, d.recommendation),
            (RiskLevel::High, Recommendation::Avoid)
        );
        assert_eq!(r.allergen_warnings.len(), 1, "{ingredient}");
        let w = &r.allergen_warnings[0];
        assert!(
            w.starts_with(&format!("ALLERGEN WARNING: {ingredient} - ")),
            "{w}"
        );
        assert!(w.contains(&format!("'{allergy}'")), "{w}");
        assert_eq!(r.overall_risk, OverallRisk::High);
    }
}

#[test]
fn sub_ingredient_matches_count_once_for_the_parent() {
    let r = simple(
        "Sugar, chocolate (sugar, cocoa butter, milk powder, whey), hazelnuts",
        &["Milk/Dairy", "dairy"],
    );
    assert_eq!(r.allergen_warnings.len(), 1, "{:?}", r.allergen_warnings);
    let w = &r.allergen_warnings[0];
    assert!(
        w.starts_with(
            "ALLERGEN WARNING: chocolate (sugar, cocoa butter, milk powder, whey) - contains milk"
        ),
        "{w}"
    );
    assert!(!item(&r, "hazelnuts").is_allergen_match);
}

#[test]
fn unknown_allergy_words_are_said_in_the_summary() {
    let r = simple("Water, Salt", &["kryptonite"]);
    assert!(r.allergen_warnings.is_empty());
    assert!(
        r.summary
            .contains("'kryptonite' is not an allergen group we know"),
        "{}",
        r.summary
    );
}

#[test]
fn skin_type_lowers_scores_with_reasons() {
    let list = "Water, Alcohol Denat., Sodium Lauryl Sulfate, Persea Gratissima Oil, Parfum";
    let normal = run(list, &[], SkinType::Normal, Expertise::Beginner);
    let score = |r: &AnalysisResponse, n: &str| item(r, n).safety_score;
    let dry = run(list, &[], SkinType::Dry, Expertise::Beginner);
    assert!(score(&dry, "Alcohol Denat.") < score(&normal, "Alcohol Denat."));
    assert!(score(&dry, "Sodium Lauryl Sulfate") < score(&normal, "Sodium Lauryl Sulfate"));
    assert_eq!(score(&dry, "Parfum"), score(&normal, "Parfum"));
    assert!(
        item(&dry, "Alcohol Denat.")
            .concerns
            .contains("For dry skin")
    );
    let oily = run(list, &[], SkinType::Oily, Expertise::Beginner);
    assert!(score(&oily, "Persea Gratissima Oil") < score(&normal, "Persea Gratissima Oil"));
    assert!(
        item(&oily, "Persea Gratissima Oil")
            .concerns
            .contains("comedogenic")
    );
    let sensitive = run(list, &[], SkinType::Sensitive, Expertise::Beginner);
    assert!(score(&sensitive, "Parfum") < score(&normal, "Parfum"));
    assert!(
        sensitive.summary.contains("For your sensitive skin"),
        "{}",
        sensitive.summary
    );
    // A food is not judged by skin type.
    let food = "Sugar, Wheat Flour, Persea Gratissima Oil, Salt";
    let f_normal = run(food, &[], SkinType::Normal, Expertise::Beginner);
    let f_oily = run(food, &[], SkinType::Oily, Expertise::Beginner);
    assert_eq!(
        score(&f_oily, "Persea Gratissima Oil"),
        score(&f_normal, "Persea Gratissima Oil")
    );
}

#[test]
fn regulation_caps_scores_and_is_named() {
    let kb = KnowledgeBase::embedded();
    let mut banned = 0;
    for ing in kb.ingredients() {
        // A name with a comma ("Sodium, Potassium and Calcium Salts of Fatty Acids") is joined
        // again after splitting; a semicolon always separates.
        if ing.name.contains(';') {
            continue;
        }
        let r = simple(&ing.name, &[]);
        let d = &r.ingredients[0];
        assert_eq!(d.canonical_name.as_deref(), Some(ing.name.as_str()));
        assert_eq!(grade(d.safety_score), (d.risk_level, d.recommendation));
        if ing.eu_cosmetics == Some(EuCosmetics::AnnexIi) {
            banned += 1;
            assert_eq!(
                (d.recommendation, d.risk_level),
                (Recommendation::Avoid, RiskLevel::High),
                "{}",
                ing.name
            );
            assert_eq!(r.overall_risk, OverallRisk::High);
        }
        if let Some(iarc) = ing.iarc {
            assert!(
                d.concerns.contains(iarc.label()),
                "{}: {}",
                ing.name,
                d.concerns
            );
            if matches!(iarc, Iarc::Group1 | Iarc::Group2A) {
                assert!(d.risk_level >= RiskLevel::Medium, "{}", ing.name);
            }
        }
        if d.recommendation != Recommendation::Safe {
            assert!(!d.references.is_empty(), "{} has no references", ing.name);
        }
    }
    assert!(banned > 0);
}

#[test]
fn overall_risk_follows_the_worst_ingredients() {
    let low = simple("Wheat Flour, Water, Salt, Yeast", &[]);
    assert_eq!(low.overall_risk, OverallRisk::Low);
    let caution = simple("Water, Glycerin, Parfum", &[]);
    assert_eq!(caution.overall_risk, OverallRisk::Medium);
    assert!(item(&caution, "Parfum").safety_score <= SIGNIFICANT_CAUTION);
    let avoid = simple("Water, Glycerin, Formaldehyde", &[]);
    assert_eq!(avoid.overall_risk, OverallRisk::High);
    // Traces do not make a product risky unless they match an allergy.
    let trace = simple("Sugar, cocoa butter. May contain peanuts.", &[]);
    assert_eq!(trace.overall_risk, OverallRisk::Low);
    assert!(
        trace
            .ingredients
            .last()
            .is_some_and(|i| i.concerns.contains("possible trace"))
    );
    // High average, one banned ingredient: still high.
    let mostly_fine = simple(
        "Water, Glycerin, Salt, Sugar, Wheat Flour, Yeast, Formaldehyde",
        &[],
    );
    assert!(mostly_fine.average_safety_score > 7.0);
    assert_eq!(mostly_fine.overall_risk, OverallRisk::High);
    // The rule itself, without the knowledge base.
    assert_eq!(overall_risk_of(&[], &[]).0, OverallRisk::Low);
}

#[test]
fn summaries_depend_on_expertise() {
    let list = "Water, Glycerin, Parfum, Titanium Dioxide";
    let b = run(list, &["milk"], SkinType::Normal, Expertise::Beginner).summary;
    let e = run(list, &["milk"], SkinType::Normal, Expertise::Expert).summary;
    assert!(b.starts_with("Use with care: watch "), "{b}");
    assert!(b.contains("Titanium Dioxide"), "{b}");
    assert!(e.starts_with("Overall risk MEDIUM (rule:"), "{e}");
    assert!(e.contains("IARC Group 2B"), "{e}");
    assert!(b.len() < e.len());
}

#[test]
fn every_non_safe_known_ingredient_gets_alternatives_or_is_allergen_or_banned() {
    let r = run(
        "Methylparaben, Sodium Benzoate, Sodium Lauryl Sulfate, Alcohol Denat., E250",
        &[],
        SkinType::Sensitive,
        Expertise::Beginner,
    );
    for d in &r.ingredients {
        if d.recommendation != Recommendation::Safe {
            assert!(!d.alternatives.is_empty(), "{} has no alternatives", d.name);
            for alt in &d.alternatives {
                assert!(KnowledgeBase::embedded().lookup(alt).is_some(), "{alt}");
            }
        }
    }
}

#[test]
fn allergen_matches_get_allergen_free_swaps() {
    use domain::knowledge::allergy::AllergyAliases;
    let kb = KnowledgeBase::embedded();
    for (group, names) in AllergyAliases::embedded().substitute_groups() {
        for n in names {
            let entry = kb
                .lookup(n)
                .unwrap_or_else(|| panic!("substitute {n} is not an entry"));
            assert!(!entry.allergens.contains(&group), "{n} carries {group:?}");
        }
    }
    let r = simple("Milk Powder, Wheat Flour", &["milk", "soy"]);
    let milk = item(&r, "Milk Powder");
    assert!(!milk.alternatives.is_empty());
    assert!(
        !milk.alternatives.iter().any(|a| a == "Soy Milk"),
        "{:?}",
        milk.alternatives
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    #[test]
    fn any_text_gives_a_consistent_answer_or_a_clear_error(
        text in "\\PC{0,120}",
        allergy in "\\PC{0,12}",
    ) {
        let allergies = vec![allergy];
        if let Ok(input) = AnalysisInput::new(None, Some(&text), &allergies, SkinType::Sensitive, Expertise::Expert) {
            let r = analyze(&input);
            proptest::prop_assert!(r.success);
            proptest::prop_assert_eq!(r.ingredients.len(), input.parsed.len());
            let matches = r.ingredients.iter().filter(|d| d.is_allergen_match).count();
            proptest::prop_assert_eq!(r.allergen_warnings.len(), matches);
            for d in &r.ingredients {
                proptest::prop_assert!((1..=10).contains(&d.safety_score));
                proptest::prop_assert_eq!(grade(d.safety_score), (d.risk_level, d.recommendation));
            }
            // The hand-laid JSON writer and the derived form agree on any text.
            proptest::prop_assert_eq!(r.to_json().unwrap(), serde_json::to_vec(&r).unwrap());
        }
    }
}

#[test]
fn labels_in_other_languages() {
    let de = simple(
        "Zutaten: Zucker, Weizenmehl, Magermilchpulver, Emulgator: Sojalecithine. Kann Spuren von Erdnüssen enthalten.",
        &["Milch", "Erdnuss"],
    );
    let warned: Vec<&str> = de
        .allergen_warnings
        .iter()
        .map(|w| w.split(" - ").next().unwrap_or_default())
        .collect();
    assert_eq!(
        warned,
        [
            "ALLERGEN WARNING: Magermilchpulver",
            "ALLERGEN WARNING: Erdnüssen"
        ]
    );
    assert_eq!(
        item(&de, "Emulgator: Sojalecithine")
            .canonical_name
            .as_deref(),
        Some("Soy Lecithin")
    );
    let zh = simple("配料：水，白砂糖，全脂奶粉。可能含有花生", &["牛奶"]);
    assert_eq!(zh.ingredients.len(), 4);
    assert!(item(&zh, "全脂奶粉").is_allergen_match);
    assert!(!item(&zh, "花生").is_allergen_match);
    let ko = simple("전성분: 정제수, 글리세린, 향료", &["향료"]);
    assert!(item(&ko, "향료").is_allergen_match);
    assert_eq!(item(&ko, "정제수").canonical_name.as_deref(), Some("Water"));
}

#[test]
fn class_words_and_compounds_are_scored_by_their_parts() {
    let r = simple(
        "Emulsifiers (E471, soy lecithin), Filling (sugar, hazelnut paste), Water (Aqua)",
        &["soy"],
    );
    // The class word is the function of each item it introduces.
    let e471 = item(&r, "E471");
    assert!(e471.canonical_name.is_some());
    assert!(
        e471.purpose.ends_with("(listed as 'Emulsifiers')"),
        "{}",
        e471.purpose
    );
    assert!(!e471.is_allergen_match);
    assert!(item(&r, "soy lecithin").is_allergen_match);
    let filling = item(&r, "Filling (sugar, hazelnut paste)");
    assert_eq!(filling.canonical_name.as_deref(), Some("Filling"));
    assert!(
        filling
            .purpose
            .starts_with("Compound ingredient made of sugar"),
        "{}",
        filling.purpose
    );
    assert!(
        filling
            .concerns
            .contains("'Filling' is read as a component (Filling)")
    );
    // The worst sub-ingredient caps the compound.
    let worst = ["sugar", "hazelnut paste"]
        .iter()
        .map(|n| simple(n, &[]).ingredients[0].safety_score)
        .min();
    assert_eq!(Some(filling.safety_score), worst);
    let water = item(&r, "Water (Aqua)");
    assert_eq!(water.canonical_name.as_deref(), Some("Water"));
    assert_eq!(water.recommendation, Recommendation::Safe);
    assert!(r.execution_time > 0.0);
}

#[test]
fn accents_keep_names_that_fold_alike_apart() {
    // es "cacao" (cocoa) and pt "cação" (dogfish) fold to the same key.
    let r = simple("cacao, cação", &["fish"]);
    assert!(!item(&r, "cacao").is_allergen_match);
    assert!(item(&r, "cação").is_allergen_match);
    // A name two entries really share keeps both entries' allergens: 虾 is shrimp or prawn.
    assert!(simple("虾", &["shellfish"]).ingredients[0].is_allergen_match);
}

#[test]
fn food_entries_in_a_cosmetic_product_are_judged_as_cosmetic_ingredients() {
    // A shampoo: salt thickens it; limits on salt intake do not apply.
    let shampoo = "Aqua, Sodium Laureth Sulfate, Cocamidopropyl Betaine, Sodium Chloride, \
        Glycol Distearate, Parfum, Citric Acid, Sodium Benzoate, Polyquaternium-10";
    let r = simple(shampoo, &[]);
    let salt = item(&r, "Sodium Chloride");
    assert_eq!(salt.canonical_name.as_deref(), Some("Salt"));
    assert_eq!(
        (salt.safety_score, salt.recommendation),
        (9, Recommendation::Safe)
    );
    assert_eq!(salt.purpose.as_str(), "Thickener");
    assert_eq!(salt.category, domain::analysis::ProductCategory::Both);
    assert!(
        salt.concerns
            .starts_with("Knowledge-base score 9/10 as a cosmetic ingredient")
    );
    assert!(!salt.concerns.contains("WHO"), "{}", salt.concerns);
    assert!(
        salt.references.iter().any(|s| s.contains("CosIng")),
        "{:?}",
        salt.references
    );
    assert!(salt.alternatives.is_empty());

    // A sugar scrub (INCI names), where the cosmetic ingredients are the majority.
    let scrub = simple("Sucrose, Maris Sal, Glycerin, Parfum, Tocopherol", &[]);
    for name in ["Sucrose", "Maris Sal"] {
        let d = item(&scrub, name);
        assert_eq!(
            d.recommendation,
            Recommendation::Safe,
            "{name}: {}",
            d.concerns
        );
        assert!(
            d.concerns
                .starts_with("Knowledge-base score 9/10 as a cosmetic ingredient")
        );
        assert!(!d.concerns.contains("energy intake") && !d.concerns.contains("5 g"));
    }

    // In food the same entries keep the dietary view: advice in the concerns, but a staple is
    // no safety concern (its score stays SAFE).
    let soup = simple("Water, Carrots, Potatoes, Onions, Salt, Sugar, Pepper", &[]);
    for name in ["Salt", "Sugar"] {
        let d = item(&soup, name);
        assert_eq!(
            (d.safety_score, d.recommendation),
            (7, Recommendation::Safe),
            "{name}"
        );
        assert!(
            d.concerns.contains("Dietary advice, not a safety concern"),
            "{name}: {}",
            d.concerns
        );
        assert_eq!(d.category, domain::analysis::ProductCategory::Food);
    }
    assert_eq!(soup.overall_risk, OverallRisk::Low);

    // They decide the kind of product only when nothing else does.
    let plain = simple("Sugar, Salt, Water", &[]);
    assert!(
        plain.ingredients[..2]
            .iter()
            .all(|d| d.safety_score == 7 && d.concerns.contains("Dietary advice"))
    );
    // Salt and sugar do not make a product food: the scrub above counted as a cosmetic.
    assert!(
        scrub
            .ingredients
            .iter()
            .all(|d| d.category != domain::analysis::ProductCategory::Food),
        "{:?}",
        scrub
            .ingredients
            .iter()
            .map(|d| d.category)
            .collect::<Vec<_>>()
    );
}

#[test]
fn the_cosmetic_view_is_one_sentence_and_the_pre_joined_text() {
    // For every entry with a cosmetic view: concerns are exactly its sentence, in a product
    // that is clearly cosmetic.
    let kb = KnowledgeBase::embedded();
    let with_view: Vec<&str> = kb
        .ingredients()
        .iter()
        .filter(|i| i.in_cosmetics.is_some())
        .map(|i| i.name.as_str())
        .collect();
    assert!(with_view.len() >= 5, "{with_view:?}");
    for name in with_view {
        let list = format!("Aqua, Glycerin, Parfum, Dimethicone, Phenoxyethanol, {name}");
        for skin in SkinType::EVERY {
            let r = run(&list, &[], skin, Expertise::Expert);
            let d = item(&r, name);
            let view = kb.lookup(name).unwrap().in_cosmetics.as_ref().unwrap();
            assert_eq!(d.safety_score, view.score, "{name}");
            assert_eq!(
                d.concerns.as_str(),
                format!(
                    "Knowledge-base score {}/10 as a cosmetic ingredient: {}",
                    view.score, view.reason
                ),
            );
            assert_eq!(d.purpose.as_str(), view.purpose);
        }
    }
}

#[test]
fn everyday_label_words_are_known() {
    // A toothpaste and a soft drink, as printed.
    let toothpaste = simple(
        "Sorbitol, Aqua, Hydrated Silica, Sodium Lauryl Sulfate, Aroma, Sodium Fluoride, \
         Cellulose Gum, Sodium Saccharin, Limonene",
        &[],
    );
    assert_eq!(
        item(&toothpaste, "Aroma").canonical_name.as_deref(),
        Some("Flavourings")
    );
    let fluoride = item(&toothpaste, "Sodium Fluoride");
    assert_eq!(fluoride.recommendation, Recommendation::Safe);
    assert!(
        fluoride.concerns.contains("pea-sized"),
        "{}",
        fluoride.concerns
    );
    let soda = simple(
        "Carbonated Water, Sugar, Colour (Caramel E150d), Phosphoric Acid, Natural Flavourings",
        &[],
    );
    assert_eq!(
        item(&soda, "Natural Flavourings").canonical_name.as_deref(),
        Some("Flavourings")
    );
    let colour = item(&soda, "Colour (Caramel E150d)");
    assert_ne!(
        colour.purpose.as_str(),
        "Unknown: not in the knowledge base"
    );
    assert!(
        !colour.concerns.contains("not in the knowledge base"),
        "{}",
        colour.concerns
    );
    // In French and German too.
    for name in ["arômes naturels", "natürliche Aromen"] {
        assert_eq!(canonical(name).as_deref(), Some("Flavourings"), "{name}");
    }
}

#[test]
fn plants_listed_under_vegetable_oil_or_fat_are_their_oils() {
    let r = simple(
        "Wheat Flour, Vegetable Oil (Sunflower, Rapeseed), Vegetable Fats (Palm, Shea, Coconut), Salt",
        &[],
    );
    let oil = item(&r, "Vegetable Oil (Sunflower, Rapeseed)");
    assert!(
        !oil.concerns.contains("not in the knowledge base"),
        "{}",
        oil.concerns
    );
    assert!(
        oil.safety_score >= 7,
        "{}: {}",
        oil.safety_score,
        oil.concerns
    );
    let fat = item(&r, "Vegetable Fats (Palm, Shea, Coconut)");
    // Palm oil's concerns reach the parent; nothing is unknown.
    assert!(
        fat.concerns.contains("Contains Palm (6/10)"),
        "{}",
        fat.concerns
    );
    assert!(
        !fat.concerns.contains("not in the knowledge base"),
        "{}",
        fat.concerns
    );
    // A plant alone is not an oil.
    assert_eq!(simple("Sunflower", &[]).ingredients[0].canonical_name, None);
}

fn warned(r: &AnalysisResponse) -> String {
    r.allergen_warnings.join("\n")
}

#[test]
fn unknown_names_with_an_allergen_word_still_warn_by_the_word() {
    for (list, allergy, word) in [
        // Three words nobody knows: too much for a reading by the head noun.
        ("sucre, lait xq zv wk", "milk", "lait"),
        ("Zucker, Vollmilchpulverzubereitung", "milk", "milch"),
        ("香料(乳由来)", "milk", "乳"),
        ("azúcar, harina de trigo xq zv wk", "gluten", "trigo"),
        ("sugar, xq zv peanut wk", "peanut", "peanut"),
        ("jaune d'œufs xq zv wk", "egg", "œufs"),
        ("zucchero, uovo xq zv wk", "egg", "uovo"),
    ] {
        let r = simple(list, &[allergy]);
        let w = warned(&r);
        assert!(w.contains("found by the word"), "{list}: {w}");
        // The word, or the longest known phrase with it ("lait de brebis", "harina de trigo").
        let by = w.split("found by the word").nth(1).unwrap_or_default();
        assert!(by.contains(word), "{list}: {w}");
        assert_eq!(r.overall_risk, OverallRisk::High, "{list}");
    }
}

#[test]
fn negations_and_plant_milks_do_not_trip_the_safety_net() {
    for (list, allergy) in [
        ("riz soufflé sans gluten spécial", "gluten"),
        ("gluten-free bread mix special", "gluten"),
        ("乳化剤（大豆由来）", "milk"),
        ("cacao magro en polvo", "molluscs"),
        ("coconut milk powder special", "milk"),
        ("noix de muscade moulue spéciale", "tree nut"),
        ("lactose free special base", "milk"),
    ] {
        let r = simple(list, &[allergy]);
        assert!(r.allergen_warnings.is_empty(), "{list}: {}", warned(&r));
    }
}

#[test]
fn allergen_declarations_warn_without_becoming_ingredients() {
    for (list, allergy, items) in [
        ("Sugar, cocoa butter. Contains: milk, wheat.", "milk", 2),
        ("Zucker, Kakaobutter. Enthält: Milch.", "milk", 2),
        ("Sucre, cacao. Contient : lait.", "milk", 2),
        ("Azúcar, cacao. Contiene: leche.", "milk", 2),
        ("Açúcar, cacau. Contém: leite.", "milk", 2),
        (
            "砂糖、食塩、(一部に卵・グルテン・乳成分・大豆を含む)",
            "egg",
            2,
        ),
    ] {
        let r = simple(list, &[allergy]);
        assert_eq!(r.ingredients.len(), items, "{list}: {:?}", r.ingredients);
        let w = warned(&r);
        assert!(w.contains("(declared on the label)"), "{list}: {w}");
        assert_eq!(r.overall_risk, OverallRisk::High, "{list}");
        assert!(
            r.summary.starts_with("Not for you"),
            "{list}: {}",
            r.summary
        );
    }
    // "Contains 2% or less of" lists more ingredients; a name with "contient" is a name.
    let r = simple("Sugar, Contains 2% or less of: salt, milk", &["milk"]);
    assert_eq!(r.ingredients.len(), 3, "{:?}", r.ingredients);
    assert!(!warned(&r).contains("declared on the label"));
    let r = simple("Farine de blé contient gluten, sel", &["gluten"]);
    assert_eq!(r.ingredients.len(), 2);
    // A list that is nothing but a declaration is read as its ingredients.
    let r = simple("Contains: milk", &["milk"]);
    assert_eq!(r.ingredients.len(), 1);
    assert!(r.ingredients[0].is_allergen_match);
}

#[test]
fn names_are_understood_by_their_head_and_keep_its_score() {
    for (name, head) in [
        ("emmental râpé*", "emmental"),
        ("olives non dénoyautées*", "olives"),
        ("huile d'olive vierge extra", "huile d'olive"),
        ("farine de riz complet*", "farine de riz"),
        ("gingembre moulu", "gingembre"),
        ("barley malt powder", "barley malt"),
        ("coconut milk powder", "coconut milk"),
        ("romano cheese", "cheese"),
        ("onion flakes", "onion"),
    ] {
        let whole = simple(name, &[]);
        let alone = simple(head, &[]);
        let (w, h) = (&whole.ingredients[0], &alone.ingredients[0]);
        assert!(h.canonical_name.is_some(), "{head} is known");
        // The lexicon may know the whole name as an entry of its own ("Emmental Cheese
        // Grated"); a name read by its head must be its head, with the head's score.
        if w.concerns.contains("Understood only by its head") {
            assert_eq!(w.canonical_name, h.canonical_name, "{name}");
            assert_eq!(w.safety_score, h.safety_score, "{name}: the head's score");
        } else {
            assert!(
                w.canonical_name.is_some(),
                "{name} is recognised as a whole"
            );
        }
    }
    // A word not understood is said in the concerns (a cheese the lexicon does not name).
    let r = simple("kashkaval cheese", &[]);
    assert!(
        r.ingredients[0]
            .concerns
            .contains("Understood only by its head")
    );
    // Claims and INCI names built from parts are not read by a head.
    assert!(
        simple("sans gluten", &[]).ingredients[0]
            .canonical_name
            .is_none()
    );
    assert!(
        simple("Butylphenyl Methylparaben", &[]).ingredients[0]
            .canonical_name
            .is_none()
    );
}

#[test]
fn inci_family_members_are_recognised_by_their_shape() {
    let r = simple(
        "Aqua, PEG-47 Hydrogenated Castor Oil, PPG-33, Polysorbate 61, Ceteareth-33, Quaternium-91, Polyquaternium-77, CI 10999, Acrylates/Vinyl Isodecanoate Crosspolymer",
        &[],
    );
    let names: Vec<Option<&str>> = r
        .ingredients
        .iter()
        .map(|i| i.canonical_name.as_deref())
        .collect();
    assert_eq!(
        names,
        [
            Some("Water"),
            Some("PEG-47 Hydrogenated Castor Oil"),
            Some("PPG-33"),
            Some("Polysorbate 61"),
            Some("Ceteareth-33"),
            Some("Quaternium-91"),
            Some("Polyquaternium-77"),
            Some("CI 10999"),
            Some("Acrylates Vinyl Isodecanoate Crosspolymer"),
        ]
    );
    let peg = &r.ingredients[1];
    assert!(peg.concerns.contains("INCI family"), "{}", peg.concerns);
    assert!(peg.concerns.contains("1,4-dioxane"), "{}", peg.concerns);
    // Known members keep their own entries; non-members stay unknown.
    assert_eq!(canonical("Polysorbate 20"), canonical("E432"));
    // Without a number, PEG is the polymer's own entry, not a family member.
    assert_eq!(canonical("PEG").as_deref(), Some("Polyethylene Glycol"));
    assert_eq!(canonical("CI 1"), None);
    assert_eq!(canonical("Quaternium"), None);
}

#[test]
fn class_words_and_component_labels_introduce_their_items() {
    // A class word over several items: each item, with the class word as its function.
    let r = simple(
        "thickeners (gum arabic, guar gum), épaississants : gomme de guar et de xanthane",
        &[],
    );
    let got: Vec<(&str, Option<&str>)> = r
        .ingredients
        .iter()
        .map(|i| (i.name.as_str(), i.canonical_name.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            ("gum arabic", Some("Gum Arabic")),
            ("guar gum", Some("Guar Gum")),
            ("gomme de guar", Some("Guar Gum")),
            ("gomme de xanthane", Some("Xanthan Gum")),
        ]
    );
    assert!(r.ingredients[0].purpose.contains("listed as 'thickeners'"));
    // A component label over one compound item stands for it, brackets and allergens kept.
    let r = simple("Filling: ricotta cheese (milk, whey, salt)", &["milk"]);
    assert_eq!(r.ingredients.len(), 1);
    assert_eq!(r.ingredients[0].canonical_name.as_deref(), Some("Ricotta"));
    assert!(r.ingredients[0].is_allergen_match);
    // A class word over one compound item: the item, its function kept.
    let r = simple("emulsifier: lecithin (soy)", &["soy"]);
    assert!(r.ingredients[0].canonical_name.is_some());
    assert!(r.ingredients[0].purpose.contains("listed as 'emulsifier'"));
    assert!(r.ingredients[0].is_allergen_match);
    // A component named by its kind, made of the bracket's items.
    let r = simple(
        "sauce 14% (eau, moutarde, sel), romano flavor (romano cheese, salt)",
        &["mustard", "milk"],
    );
    assert_eq!(r.ingredients[0].canonical_name.as_deref(), Some("Sauce"));
    assert_eq!(
        r.ingredients[1].canonical_name.as_deref(),
        Some("Flavouring preparation")
    );
    assert!(r.ingredients.iter().all(|i| i.is_allergen_match));
    // A leading "and" is not part of the name.
    assert_eq!(canonical("and turmeric"), canonical("turmeric"));
    assert!(canonical("turmeric").is_some());
}

#[test]
fn compounds_and_cjk_names_are_understood_by_their_parts() {
    let r = simple(
        "Süßstoff Natrium-Saccharin, Haselnussmasse, 鶏卵の卵白, 대두를 함유",
        &["nuts", "eggs", "soy"],
    );
    let names: Vec<Option<&str>> = r
        .ingredients
        .iter()
        .map(|i| i.canonical_name.as_deref())
        .collect();
    assert_eq!(names[0], Some("Saccharin"));
    assert_eq!(names[1], Some("Hazelnut"));
    assert_eq!(names[2], Some("Egg White"));
    assert!(r.ingredients[1].is_allergen_match);
    assert!(r.ingredients[2].is_allergen_match);
    assert!(
        r.allergen_warnings.iter().any(|w| w.contains("soy")),
        "{:?}",
        r.allergen_warnings
    );
    // Understood by its head: said so.
    assert!(
        r.ingredients[1]
            .concerns
            .contains("Understood only by its head")
    );
}

#[test]
fn annex_ii_exempt_products_do_not_raise_their_source() {
    // Regulation (EU) 1169/2011 Annex II: wheat-based glucose syrups and maltodextrins, fully
    // refined soybean oil, soybean tocopherols and phytosterols, lactitol.
    for list in [
        "Glukosesirup (Weizen)",
        "glucose syrup (wheat)",
        "maltodextrin (wheat)",
        "tocopherols (soy)",
        "soybean tocopherols",
        "huile de soja raffinée",
        "fully refined soybean oil",
        "soy phytosterols",
        "lactitol",
    ] {
        let r = simple(list, &["gluten", "soy", "milk"]);
        assert!(
            r.allergen_warnings.is_empty(),
            "{list}: {:?}",
            r.allergen_warnings
        );
        assert!(r.ingredients[0].canonical_name.is_some(), "{list}");
    }
    let r = simple("Glukosesirup (Weizen)", &["gluten"]);
    assert!(
        r.ingredients[0].concerns.contains("Annex II"),
        "{}",
        r.ingredients[0].concerns
    );
    // The source itself, or an oil not said to be refined, still does.
    for list in ["Weizen", "soybean oil", "Weizenmehl", "soja"] {
        let r = simple(list, &["gluten", "soy"]);
        assert!(!r.allergen_warnings.is_empty(), "{list}");
    }
}

#[test]
fn a_listed_composition_decides_over_a_generic_name() {
    let r = simple(
        "nougat (invert sugar, corn syrup, egg white, potato starch)",
        &["nuts", "eggs"],
    );
    let w = r.allergen_warnings.join(" | ");
    assert!(w.contains("egg"), "{w}");
    assert!(!w.contains("tree nuts"), "{w}");
    assert!(
        r.ingredients[0]
            .concerns
            .contains("listed ingredients do not include")
    );
    // Without a list, or when the name itself says the allergen, the group stays.
    assert!(!simple("nougat", &["nuts"]).allergen_warnings.is_empty());
    assert!(
        !simple("almond paste (sugar, apricot kernels)", &["nuts"])
            .allergen_warnings
            .is_empty()
    );
}

#[test]
fn a_flour_named_by_its_grain_is_that_grains_flour() {
    // "farine de lentilles corail": not in the knowledge base as a whole, read by its head;
    // the word net does not read "farine" as wheat when a preposition names the grain.
    let r = simple("farine de lentilles corail", &["gluten"]);
    assert!(r.allergen_warnings.is_empty(), "{:?}", r.allergen_warnings);
    for list in [
        "farine",
        "farine de blé T65 bio",
        "farina di grano tenero tipo 00",
    ] {
        assert!(
            !simple(list, &["gluten"]).allergen_warnings.is_empty(),
            "{list}"
        );
    }
}

#[test]
fn a_class_word_alone_is_recognised_as_its_function_class() {
    let r = simple("farine de blé, émulsifiant, sel", &[]);
    let class = item(&r, "émulsifiant");
    assert_eq!(class.canonical_name.as_deref(), Some("Emulsifier"));
    assert!(class.purpose.starts_with("Emulsifier (a function class"));
    assert!(
        class
            .concerns
            .contains("names a function class (Emulsifier)")
    );
    // The ingredient is still unknown: scored as an unknown name.
    assert_eq!(class.safety_score, 5);
    assert_eq!(class.recommendation, Recommendation::Caution);
    let ja = simple("小麦粉、膨脹剤", &[]);
    assert_eq!(
        item(&ja, "膨脹剤").canonical_name.as_deref(),
        Some("Raising agent")
    );
    let de = simple("Aqua, 15-30%: Anionische Tenside", &[]);
    assert_eq!(
        item(&de, "15-30%: Anionische Tenside")
            .canonical_name
            .as_deref(),
        Some("Anionic surfactant")
    );
}

#[test]
fn names_run_together_or_cut_by_a_comma_are_repaired_against_the_lexicon() {
    let r = simple(
        "Aqua, Limonene Linalool, Caprylic/Capric, Triglyceride",
        &[],
    );
    let got: Vec<(&str, Option<&str>)> = r
        .ingredients
        .iter()
        .map(|i| (i.name.as_str(), i.canonical_name.as_deref()))
        .collect();
    assert_eq!(got.len(), 4, "{got:?}");
    assert_eq!(got[1].0, "Limonene");
    assert_eq!(got[2].0, "Linalool");
    assert_eq!(got[3].0, "Caprylic/Capric, Triglyceride");
    assert!(got.iter().all(|(_, c)| c.is_some()), "{got:?}");
    // The parts keep their facts: the fragrance allergens match a fragrance allergy.
    let allergic = simple("Aqua, Limonene Linalool", &["fragrance"]);
    assert_eq!(allergic.allergen_warnings.len(), 2);
    // A known name with an unknown word is not split.
    let unknown = simple("Aqua, Limonene Zorblax", &[]);
    assert_eq!(unknown.ingredients.len(), 2);
}

#[test]
fn a_gluten_free_claim_on_a_compound_clears_only_the_generic_names_gluten() {
    let gluten = ["cereals containing gluten"];
    let r = simple(
        "pasta: gluten free flour (maize starch, rice flour, potato starch), salt",
        &gluten,
    );
    assert!(r.allergen_warnings.is_empty(), "{:?}", r.allergen_warnings);
    let pasta = &r.ingredients[0];
    assert!(
        pasta.concerns.contains("labelled gluten-free"),
        "{}",
        pasta.concerns
    );
    // A cereal named in the list still raises it, and so does the compound without the claim.
    let named = simple(
        "pasta: gluten free flour (wheat starch, rice flour), salt",
        &gluten,
    );
    assert_eq!(
        named.allergen_warnings.len(),
        1,
        "{:?}",
        named.allergen_warnings
    );
    assert!(named.allergen_warnings[0].contains("wheat starch"));
    let plain = simple("pasta: flour (maize starch, rice flour), salt", &gluten);
    assert_eq!(plain.allergen_warnings.len(), 1);
    // The claim is about gluten only.
    let milk = simple(
        "pasta: gluten free flour (rice flour, milk powder)",
        &["milk"],
    );
    assert_eq!(milk.allergen_warnings.len(), 1);
}

#[test]
fn a_choice_between_two_known_ingredients_lists_both() {
    // Names no other step reads as a whole: a typo on one side, INCI names.
    let r = simple("lait, présule animale ou coagulant microbien, sel", &[]);
    let names: Vec<&str> = r.ingredients.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(
        names,
        ["lait", "présule animale", "coagulant microbien", "sel"]
    );
    assert!(r.ingredients.iter().all(|i| i.canonical_name.is_some()));
    let inci = simple("Aqua, Linalool or Limonene", &["fragrance"]);
    assert_eq!(inci.ingredients.len(), 3);
    assert_eq!(inci.allergen_warnings.len(), 2);
    // One side unknown: one item, as before.
    let unknown = simple("sucre ou zorblax", &[]);
    assert_eq!(unknown.ingredients.len(), 1);
}

#[test]
fn class_lists_with_dashes_and_cjk_form_words_are_read() {
    let r = simple(
        "harina, gasificantes: carbonatos de amonio - carbonatos de sodio - difosfatos",
        &[],
    );
    let got: Vec<Option<&str>> = r
        .ingredients
        .iter()
        .map(|i| i.canonical_name.as_deref())
        .collect();
    assert_eq!(got.len(), 4, "{got:?}");
    assert!(got.iter().all(Option::is_some), "{got:?}");
    assert!(
        r.ingredients[1]
            .purpose
            .contains("listed as 'gasificantes'")
    );
    // "混合物" (a mixture of) says how the rest is presented.
    assert_eq!(
        canonical("たん白加水分解物混合物"),
        canonical("たん白加水分解物")
    );
    assert!(canonical("たん白加水分解物").is_some());
}
