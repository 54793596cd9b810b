//! The product verdicts of `/analyze` (vegan, vegetarian, palm oil, NOVA group, additives,
//! coverage) on lists written for each rule, the allergy families a shopper names in the nine
//! label languages, and the same products translated into the nine languages.

use std::collections::BTreeSet;

use domain::analysis::{
    AnalysisInput, AnalysisResponse, Answer, Expertise, SkinType, Verdicts, analyze,
};
use serde::Deserialize;

fn run(list: &str, allergies: &[&str], expertise: Expertise) -> AnalysisResponse {
    let allergies: Vec<String> = allergies.iter().map(|a| (*a).to_owned()).collect();
    let input =
        AnalysisInput::new(None, Some(list), &allergies, SkinType::Normal, expertise).unwrap();
    analyze(&input)
}

fn verdicts(list: &str) -> Verdicts {
    run(list, &[], Expertise::Beginner)
        .verdicts
        .expect("a successful answer has verdicts")
}

fn codes(v: &Verdicts) -> Vec<&str> {
    v.additives.iter().map(|a| a.code.as_str()).collect()
}

#[test]
fn diet_answers_follow_the_ingredients_and_name_them() {
    let v = verdicts("Sugar, cocoa butter, whole milk powder, emulsifier (soya lecithin)");
    assert_eq!(v.diet.vegan, Answer::No);
    assert_eq!(v.diet.because.vegan, ["whole milk powder"]);
    assert_eq!(v.diet.vegetarian, Answer::Yes);
    assert!(v.diet.because.vegetarian.is_empty());

    let v = verdicts("Glucose syrup, sugar, gelatine, citric acid");
    assert_eq!(v.diet.vegetarian, Answer::No);
    assert_eq!(v.diet.because.vegetarian, ["gelatine"]);

    // May be of animal origin: maybe, with the ingredient named.
    let v = verdicts("Wheat flour, water, mono- and diglycerides of fatty acids, salt");
    assert_eq!(v.diet.vegan, Answer::Maybe);
    assert_eq!(v.diet.contains_palm_oil, Answer::Maybe);
    assert_eq!(
        v.diet.because.contains_palm_oil,
        ["mono- and diglycerides of fatty acids"]
    );

    // The listed source settles a maybe.
    assert_eq!(
        verdicts("Sugar, cocoa mass, lecithin (soy)").diet.vegan,
        Answer::Yes
    );
    assert_eq!(
        verdicts("Sugar, cocoa mass, soya lecithin").diet.vegan,
        Answer::Yes
    );
    assert_eq!(
        verdicts("Sugar, cocoa mass, lecithin").diet.vegan,
        Answer::Maybe
    );

    // Palm oil: named, unnamed, or named as one of several plants.
    let palm = |l: &str| verdicts(l).diet.contains_palm_oil;
    assert_eq!(palm("Flour, vegetable oil, salt"), Answer::Maybe);
    assert_eq!(
        palm("Flour, vegetable oil (sunflower, rapeseed), salt"),
        Answer::No
    );
    assert_eq!(
        palm("Flour, vegetable oil (palm, rapeseed), salt"),
        Answer::Yes
    );
    assert_eq!(
        palm("Flour, partially hydrogenated palm and canola oils, salt"),
        Answer::Yes
    );
    assert_eq!(palm("Farine de blé, huile de palme, sel"), Answer::Yes);
    assert_eq!(palm("Flour, palm sugar, salt"), Answer::No);

    // Honey and beeswax are vegetarian, not vegan; carmine and shellac neither.
    let v = verdicts("Sugar, honey, beeswax");
    assert_eq!((v.diet.vegan, v.diet.vegetarian), (Answer::No, Answer::Yes));
    let v = verdicts("Sugar, glucose syrup, carmine, shellac");
    assert_eq!(v.diet.vegetarian, Answer::No);
    assert_eq!(v.diet.because.vegetarian, ["carmine", "shellac"]);
}

#[test]
fn cosmetics_answer_the_diet_but_have_no_processing_nor_additives() {
    let v = verdicts("Aqua, Lanolin, Cera Alba, Glycerin, CI 75470, Parfum");
    assert_eq!(v.diet.vegan, Answer::No);
    assert_eq!(v.diet.vegetarian, Answer::No);
    assert_eq!(v.diet.because.vegetarian, ["CI 75470"]);
    assert!(v.processing.is_none());
    assert!(v.additives.is_empty());
    let v = verdicts("Aqua, Glycerin, Hydrolyzed Collagen, Cetearyl Alcohol, Dimethicone");
    assert_eq!(v.diet.vegetarian, Answer::No);
    assert_eq!(
        verdicts("Aqua, Glycerin, Cetearyl Alcohol, Dimethicone")
            .diet
            .vegan,
        Answer::Yes
    );
}

#[test]
fn nova_groups_come_from_the_markers_that_decide_them() {
    let nova = |l: &str| {
        let v = verdicts(l);
        let p = v.processing.expect("a food has processing");
        let markers: Vec<String> = p.markers.iter().map(|m| m.ingredient.clone()).collect();
        (p.nova_group, markers)
    };
    assert_eq!(nova("Apples"), (Some(1), vec![]));
    assert_eq!(nova("Sea salt"), (Some(2), vec!["Sea salt".to_owned()]));
    assert_eq!(nova("Extra virgin olive oil").0, Some(2));
    assert_eq!(
        nova("Potatoes, sunflower oil, salt"),
        (Some(3), vec!["sunflower oil".to_owned(), "salt".to_owned()])
    );
    assert_eq!(nova("Milk, salt, cultures, rennet").0, Some(3));
    let (group, markers) = nova("Potatoes, sunflower oil, salt, flavouring, emulsifier (E471)");
    assert_eq!(group, Some(4));
    assert_eq!(markers, ["flavouring", "E471"]);
    let v = verdicts("Potatoes, sunflower oil, salt, emulsifier (E471)");
    let marker = &v.processing.unwrap().markers[0];
    assert_eq!(
        (marker.group, marker.marker.as_str()),
        (4, "emulsifier E471")
    );
    // Whey and maltodextrin are substances of rare culinary use.
    assert_eq!(nova("Sugar, whey powder, cocoa").0, Some(4));
    assert_eq!(nova("Rice, maltodextrin").0, Some(4));
    // Vitamins added to enrich a flour are nutrients, not colours.
    assert_eq!(
        nova("Durum wheat semolina, niacin, iron, thiamin mononitrate, riboflavin, folic acid").0,
        Some(1)
    );
}

#[test]
fn additives_are_found_by_name_number_and_class_in_the_order_printed_each_once() {
    let v = verdicts(
        "Flour, sugar, emulsifier (E471), lecithins (soy), Säuerungsmittel Citronensäure, \
         raising agent: sodium bicarbonate, E471, citric acid",
    );
    assert_eq!(
        codes(&v),
        ["E471", "E322", "E322i", "E330", "E500ii", "E500"],
        "{:?}",
        v.additives
    );
    let e471 = &v.additives[0];
    assert_eq!(e471.name.as_str(), "Mono- and Diglycerides of Fatty Acids");
    assert_eq!(e471.function, "emulsifier");
    assert_eq!(e471.ingredient, "E471");
    // A group named as a group is no member.
    assert_eq!(
        codes(&verdicts("Flour, ammonium carbonates, E503")),
        ["E503"]
    );
    // Nutrients added to a flour are not additives; the same substance as an antioxidant is.
    assert!(
        codes(&verdicts(
            "Wheat flour, calcium carbonate, iron, niacin, thiamin, riboflavin"
        ))
        .is_empty()
    );
    assert_eq!(
        codes(&verdicts("Apple juice, antioxidant: ascorbic acid")),
        ["E300"]
    );
    // A substance that is as often a nutrient is an additive where the label names its
    // function or its number, not by its name alone.
    assert!(codes(&verdicts("Cucumbers, water, salt, calcium chloride")).is_empty());
    for list in [
        "Cucumbers, water, salt, calcium chloride (firming agent)",
        "Cucumbers, water, salt, firming agent: calcium chloride",
        "Cucumbers, water, salt, calcium chloride as firming agent",
        "Cucumbers, water, salt, calcium chloride (E509)",
        "Cucumbers, water, salt, E509",
    ] {
        assert_eq!(codes(&verdicts(list)), ["E509"], "{list}");
    }
    assert_eq!(
        codes(&verdicts(
            "Cookies (flour, sugar, antioxidant: ascorbic acid), salt"
        )),
        ["E300"]
    );
    // Magnesium stearate under its own INS number, not the Union list's group of salts.
    assert_eq!(
        codes(&verdicts("Dextrose, magnesium stearate, citric acid")),
        ["E572", "E330"]
    );
    // An additive with a documented concern says it, with who said so.
    let v = verdicts("Water, sugar, sodium benzoate");
    assert!(v.additives[0].concern.contains("EFSA"), "{:?}", v.additives);
}

/// Two additives joined by "and" with their function in brackets are both additives; a class
/// word before a member without a colon names the member; a bare "caramel" is the food.
#[test]
fn additives_joined_under_one_function_or_after_a_class_word_are_each_found() {
    for (list, want) in [
        (
            "Water, sodium benzoate and potassium sorbate (as preservatives), salt",
            &["E211", "E202"][..],
        ),
        (
            "Water, sucralose and acesulfame potassium (nonnutritive sweeteners), salt",
            &["E955", "E950"],
        ),
        (
            "Milk, dipotassium phosphate & carrageenan [stabilizers], salt",
            &["E340ii", "E340", "E407"],
        ),
        (
            "Sugar, citric acid, artificial colors red 40, blue 1",
            &["E330", "E129", "E133"],
        ),
        ("Sugar, caramel color, salt", &["E150"]),
        ("Sugar, colour: caramel, salt", &["E150"]),
        ("Sugar, E150, salt", &["E150"]),
    ] {
        assert_eq!(codes(&verdicts(list)), want, "{list}");
    }
    // Caramel with its recipe, or printed bare, is a confection, not the colour E150.
    for list in [
        "Sugar, caramel (sugar, cream, butter), salt",
        "Sugar, cocoa butter, caramel, salt",
    ] {
        assert!(
            codes(&verdicts(list)).is_empty(),
            "{list}: {:?}",
            codes(&verdicts(list))
        );
    }
    // Each of two joined names is shown as printed, with the function it was listed with.
    let v = verdicts("Water, sodium benzoate and potassium sorbate (as preservatives)");
    assert_eq!(v.additives[0].ingredient, "sodium benzoate");
    assert_eq!(v.additives[1].ingredient, "potassium sorbate");
}

/// A preparation named by its plant (an essential oil, an absolute) is known whatever plant
/// the label names, in French or English, with or without the Latin name.
#[test]
fn only_a_vitamin_or_mineral_form_is_a_nutrient_among_nutrients() {
    // Riboflavin among the nutrients of an enriched flour is the vitamin.
    let v = verdicts("Wheat flour (wheat flour, niacin, reduced iron, riboflavin), sugar, salt");
    assert!(!codes(&v).contains(&"E101"), "{:?}", codes(&v));
    // A gum or a stabiliser beside a mineral or a vitamin stays an additive.
    let v = verdicts("Sugar, rice starch, gum arabic, magnesium, ascorbic acid, carnauba wax");
    assert!(codes(&v).contains(&"E414"), "{:?}", codes(&v));
    let v = verdicts("Milk, dipotassium phosphate, carrageenan, vitamin D3");
    assert!(codes(&v).contains(&"E407"), "{:?}", codes(&v));
}

#[test]
fn a_word_beside_an_additive_names_another_substance_not_that_additive() {
    // "Hydrogen carbonate" is no hydrogen (E949), "calcium monophosphate" no calcium that
    // would make its neighbours nutrients, "chloride" no chlorine (E925).
    let v = verdicts("Wheat flour, sugar, leavening (potassium carbonate, hydrogen carbonate)");
    assert!(!codes(&v).contains(&"E949"), "{:?}", codes(&v));
    assert!(codes(&v).contains(&"E501"), "{:?}", codes(&v));
    let v = verdicts(
        "Orange, sugar, thickening agents: sodium alginate, calcium monophosphate, citric acid",
    );
    for code in ["E401", "E341", "E330"] {
        assert!(codes(&v).contains(&code), "{code}: {:?}", codes(&v));
    }
    let v = verdicts("Magnesium, potassium, chloride, zinc");
    assert!(!codes(&v).contains(&"E925"), "{:?}", codes(&v));
    let r = run("Calcium, chloride, sodium", &[], Expertise::Beginner);
    assert!(
        r.ingredients
            .iter()
            .all(|i| i.recommendation != domain::analysis::Recommendation::Avoid),
        "chloride is a mineral"
    );
}

#[test]
fn colour_lakes_and_run_together_mono_diglycerides_are_their_additives() {
    let v = verdicts(
        "Sugar, corn syrup, red #40 lake, fd&c blue #1 aluminum lake, mono & diglycerides",
    );
    for code in ["E129", "E133", "E471"] {
        assert!(codes(&v).contains(&code), "{code}: {:?}", codes(&v));
    }
}

#[test]
fn caramel_is_the_colour_under_a_colour_class_and_the_food_alone() {
    let v = verdicts(
        "Wheat flour, sugar, natural coloring (beet red, beta carotene and caramel), salt",
    );
    assert!(codes(&v).contains(&"E150"), "{:?}", codes(&v));
    let v = verdicts("Wheat flour, sugar, caramel (sugar, cream, butter), salt");
    assert!(!codes(&v).contains(&"E150"), "{:?}", codes(&v));
}

#[test]
fn essential_oils_and_absolutes_are_known_whatever_the_plant() {
    for list in [
        "Aqua, Huile essentielle de rose (Rosa damascena), Glycerin",
        "Aqua, Absolue de tonka (Dipteryx odorata), Glycerin",
        "Aqua, rose essential oil, Glycerin",
        "Aqua, essential oil of bergamot, Glycerin",
    ] {
        let v = verdicts(list);
        assert_eq!(v.coverage.recognised, 3, "{list}: {:?}", v.coverage);
        assert_eq!(v.diet.vegan, Answer::Yes, "{list}");
    }
}

#[test]
fn the_fibres_of_hygiene_products_are_known_in_every_language() {
    for list in [
        "Tampons (100% coton)",
        "100 % Baumwolle",
        "Viscose, Polyester",
        "algodón, viscosa, poliéster",
    ] {
        let v = verdicts(list);
        assert!(v.coverage.enough_known, "{list}: {:?}", v.coverage);
        assert_eq!(v.diet.vegetarian, Answer::Yes, "{list}");
    }
}

#[test]
fn a_claim_standing_as_an_item_is_no_ingredient() {
    let v = verdicts("Certified organic, raw apple cider vinegar");
    assert_eq!(v.coverage.items, 1, "{:?}", v.coverage);
    assert!(v.coverage.enough_known);
    assert_eq!(v.diet.vegan, Answer::Yes);
    // Only the whole item: a name the claim qualifies is the ingredient.
    let v = verdicts("Organic sugar, organic cocoa butter");
    assert_eq!(v.coverage.items, 2, "{:?}", v.coverage);
}

/// Every `because`, marker and additive names an ingredient of the request as printed.
#[test]
fn every_named_ingredient_is_one_of_the_request_as_printed() {
    for list in [
        "Milk chocolate 30% (sugar, cocoa butter, whole milk powder, emulsifier: soya lecithin), \
         hazelnuts, vegetable fat (palm, shea), whey powder, E471, flavouring",
        "Aqua, Lanolin, Glyceryl Stearate, Cetearyl Alcohol, Parfum, Cera Alba",
        "Zucker, Glukosesirup, Gelatine, Säuerungsmittel: Citronensäure, Aroma, Farbstoff: Karmin",
        "砂糖、乳糖、植物油脂（パーム油）、乳化剤、香料",
    ] {
        let v = verdicts(list);
        let printed = v
            .diet
            .because
            .vegan
            .iter()
            .chain(&v.diet.because.vegetarian)
            .chain(&v.diet.because.contains_palm_oil)
            .chain(
                v.processing
                    .iter()
                    .flat_map(|p| p.markers.iter().map(|m| &m.ingredient)),
            )
            .chain(v.additives.iter().map(|a| &a.ingredient));
        let mut n = 0;
        for name in printed {
            n += 1;
            assert!(list.contains(name.as_str()), "'{name}' is not in '{list}'");
        }
        assert!(n > 0, "{list}: nothing named");
    }
}

#[test]
fn not_enough_known_gives_unknown_and_no_nova_group_never_a_guess() {
    let v = verdicts("Milk, xyzzy, qwerty flakes, blorp, frobnicate");
    assert!(!v.coverage.enough_known, "{:?}", v.coverage);
    assert_eq!(v.coverage.items, 5);
    assert_eq!(v.coverage.recognised, 1);
    for answer in [v.diet.vegan, v.diet.vegetarian, v.diet.contains_palm_oil] {
        assert_eq!(answer, Answer::Unknown);
    }
    assert!(v.diet.because.vegan.is_empty());
    let p = v.processing.unwrap();
    assert_eq!(p.nova_group, None);
    assert!(p.markers.is_empty());
    // Two thirds recognised is enough.
    let v = verdicts("Apples, sugar, blorp");
    assert!(v.coverage.enough_known);
    assert_eq!(v.diet.vegan, Answer::Yes);
    // Traces do not count.
    let v = verdicts("Apples, sugar. May contain xyzzy, blorp, frobnicate");
    assert_eq!((v.coverage.items, v.coverage.recognised), (2, 2));
}

#[test]
fn the_summaries_mention_the_verdicts() {
    let list = "Sugar, palm oil, whole milk powder, emulsifier (E471), flavouring";
    let beginner = run(list, &[], Expertise::Beginner).summary;
    assert!(
        beginner.contains("Not vegan (whole milk powder"),
        "{beginner}"
    );
    assert!(
        beginner.contains("contains palm oil (palm oil)"),
        "{beginner}"
    );
    assert!(beginner.contains("ultra-processed (NOVA 4"), "{beginner}");
    let expert = run(list, &[], Expertise::Expert).summary;
    assert!(expert.contains("Additives: E471 (emulsifier)"), "{expert}");
    assert!(expert.contains("5 of 5 ingredients recognised"), "{expert}");
    let unknown = run("xyzzy, blorp, frobnicate", &[], Expertise::Beginner).summary;
    assert!(
        unknown.contains("Too little of the list is recognised"),
        "{unknown}"
    );
}

#[test]
fn allergy_families_a_shopper_names_work_in_the_nine_languages() {
    let list = "Aqua, Dimethicone, Cyclopentasiloxane, PEG-12 Dimethicone, Glycerin, Elaeis \
                Guineensis Oil, Paraffinum Liquidum, Methylparaben, Sodium Laureth Sulfate";
    let warned = |allergy: &str| -> BTreeSet<String> {
        run(list, &[allergy], Expertise::Beginner)
            .ingredients
            .into_iter()
            .filter(|d| d.is_allergen_match)
            .map(|d| d.name)
            .collect()
    };
    let silicones: BTreeSet<String> = ["Dimethicone", "Cyclopentasiloxane", "PEG-12 Dimethicone"]
        .map(str::to_owned)
        .into();
    for word in [
        "silicones",
        "siliconas",
        "Silikone",
        "siliconi",
        "silicones",
        "실리콘",
        "シリコーン",
        "硅油",
    ] {
        assert_eq!(warned(word), silicones, "{word}");
    }
    for word in [
        "palm oil",
        "huile de palme",
        "aceite de palma",
        "Palmöl",
        "olio di palma",
        "óleo de palma",
        "팜유",
        "パーム油",
        "棕榈油",
    ] {
        assert_eq!(
            warned(word),
            ["Elaeis Guineensis Oil".to_owned()].into(),
            "{word}"
        );
    }
    for word in ["mineral oils", "huiles minérales", "Mineralöle", "鉱物油"] {
        assert_eq!(
            warned(word),
            ["Paraffinum Liquidum".to_owned()].into(),
            "{word}"
        );
    }
    for word in ["parabens", "parabènes", "パラベン"] {
        assert_eq!(warned(word), ["Methylparaben".to_owned()].into(), "{word}");
    }
    for word in ["sulfates", "Sulfate", "황산염"] {
        assert_eq!(
            warned(word),
            ["Sodium Laureth Sulfate".to_owned()].into(),
            "{word}"
        );
    }
    // The summary says which allergies matched as a family and which by name only.
    let r = run(
        list,
        &["palm oil", "silicones", "kiwi"],
        Expertise::Beginner,
    );
    assert!(
        r.summary.contains("Matched as a family")
            && r.summary.contains("'palm oil' (palm oil)")
            && r.summary.contains("'silicones' (silicones)"),
        "{}",
        r.summary
    );
    assert!(
        r.summary
            .contains("'kiwi' is not an allergen group we know nor a family"),
        "{}",
        r.summary
    );
    assert!(
        !r.summary.contains("'palm oil', 'silicones'"),
        "{}",
        r.summary
    );
    let warning = r
        .allergen_warnings
        .iter()
        .find(|w| w.starts_with("ALLERGEN WARNING: Dimethicone - "))
        .expect("a warning for Dimethicone");
    assert!(warning.contains("silicones"), "{warning}");
}

/// The same products, translated by hand into the nine label languages from real lists
/// (`tests/data/translations.toml`), get the same answers in every language.
#[test]
fn the_same_product_gets_the_same_answers_in_the_nine_languages() {
    #[derive(Deserialize)]
    struct File {
        product: Vec<Product>,
    }
    #[derive(Deserialize)]
    struct Product {
        name: String,
        lists: std::collections::BTreeMap<String, String>,
    }
    let file: File = toml::from_str(include_str!("data/translations.toml")).unwrap();
    assert!(file.product.len() >= 4);
    for product in &file.product {
        assert_eq!(product.lists.len(), 9, "{}: nine languages", product.name);
        let answers = |list: &str| {
            let v = verdicts(list);
            let groups: BTreeSet<String> =
                v.additives.iter().map(|a| group_code(&a.code)).collect();
            (
                v.diet.vegan,
                v.diet.vegetarian,
                v.diet.contains_palm_oil,
                v.processing.and_then(|p| p.nova_group),
                groups,
                v.coverage.enough_known,
            )
        };
        let english = answers(&product.lists["en"]);
        assert!(english.5, "{}: enough known in English", product.name);
        for (lang, list) in &product.lists {
            assert_eq!(answers(list), english, "{} in {lang}: {list}", product.name);
        }
    }
}

/// An additive's code without its roman sub-number (`E500ii` → `E500`): a label may name the
/// member or the group.
fn group_code(code: &str) -> String {
    code.trim_end_matches(['i', 'v', 'x']).to_owned()
}

/// Each fact an entry states cites its source; every additive (an E-number) has a NOVA role;
/// an entry that carries an animal allergen group (milk, eggs, fish, crustaceans, molluscs)
/// is not vegan.
#[test]
fn every_stated_fact_cites_its_source_and_animal_allergens_are_not_vegan() {
    use domain::analysis::ProductCategory;
    use domain::knowledge::AllergenGroup;
    use domain::knowledge::KnowledgeBase;
    use domain::knowledge::facts::{Diet, FACT_SOURCES};
    let kb = KnowledgeBase::embedded();
    let source = |kind: &str| FACT_SOURCES.iter().find(|(k, _)| *k == kind).unwrap().1;
    let mut problems = Vec::new();
    for ing in kb.ingredients() {
        let cites = |kind: &str| ing.sources.iter().any(|s| s == source(kind));
        if ing.diet != Diet::Vegan && !cites("diet") {
            problems.push(format!("{}: diet without {}", ing.name, source("diet")));
        }
        if ing.palm.is_some() && !cites("palm") {
            problems.push(format!("{}: palm without {}", ing.name, source("palm")));
        }
        if ing.nova.is_some() && !cites("nova") {
            problems.push(format!("{}: nova without {}", ing.name, source("nova")));
        }
        if ing.nova.is_some_and(|n| !(1..=4).contains(&n)) {
            problems.push(format!("{}: nova {:?}", ing.name, ing.nova));
        }
        if ing.e_number.is_some() && ing.nova.is_none() {
            problems.push(format!("{}: an additive without a NOVA role", ing.name));
        }
        let animal = ing.allergens.iter().any(|g| {
            matches!(
                g,
                AllergenGroup::Milk
                    | AllergenGroup::Eggs
                    | AllergenGroup::Fish
                    | AllergenGroup::Crustaceans
                    | AllergenGroup::Molluscs
            )
        });
        // Exempt derivatives carry no group; a named plant milk carries none either.
        if animal && ing.diet == Diet::Vegan && ing.category != ProductCategory::Cosmetics {
            problems.push(format!("{}: an animal allergen, called vegan", ing.name));
        }
    }
    for id in FACT_SOURCES.iter().map(|(_, s)| s) {
        assert!(kb.source(id).is_some(), "source {id} is not declared");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
