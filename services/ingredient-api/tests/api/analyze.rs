//! POST /analyze end to end: shapes, values, personalisation, limits.

use serde_json::{Value, json};

use crate::helpers::{TestApp, json, spawn_app};

fn analyze_error(message: &str) -> Value {
    json!({
        "success": false, "product_name": "Unknown Product", "overall_risk": "unknown",
        "average_safety_score": 0.0, "summary": "", "allergen_warnings": [], "ingredients": [],
        "execution_time": 0.0, "error": message, "detail": message
    })
}

async fn analyze(app: &TestApp, body: Value) -> Value {
    let res = app.post_json("/analyze", &body).await;
    assert_eq!(res.status(), 200, "{body}");
    json(res).await
}

async fn bad(app: &TestApp, body: Value) -> String {
    let res = app.post_json("/analyze", &body).await;
    assert_eq!(res.status(), 400, "{body}");
    let got = json(res).await;
    let message = got["error"].as_str().expect("error text").to_owned();
    assert_eq!(got, analyze_error(&message));
    message
}

fn find<'a>(body: &'a Value, name: &str) -> &'a Value {
    body["ingredients"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["name"] == name)
        .unwrap_or_else(|| panic!("{name} not in {body}"))
}

const DETAIL_KEYS: [&str; 14] = [
    "allergy_risk",
    "alternatives",
    "canonical_name",
    "category",
    "concerns",
    "is_allergen_match",
    "name",
    "origin",
    "purpose",
    "recommendation",
    "references",
    "risk_level",
    "safety_score",
    "source",
];

#[tokio::test]
async fn every_field_has_an_allowed_value() {
    let app = spawn_app().await;
    let body = analyze(
        &app,
        json!({"ingredients": "Water, Glycerin, Parfum, Sodium Benzoate, Xylophonium Extract, Formaldehyde"}),
    )
    .await;
    let mut top: Vec<&str> = body
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    top.sort_unstable();
    assert_eq!(
        top,
        [
            "additives",
            "allergen_warnings",
            "average_safety_score",
            "coverage",
            "diet",
            "engine",
            "error",
            "execution_time",
            "ingredients",
            "overall_risk",
            "processing",
            "product_name",
            "success",
            "summary"
        ]
    );
    assert_eq!(body["success"], true);
    assert_eq!(body["error"], Value::Null);
    assert_eq!(body["engine"], "offline");
    assert_eq!(body["product_name"], "Unknown Product");
    assert!(body["execution_time"].as_f64().unwrap() > 0.0);
    assert!(body["execution_time"].as_f64().unwrap() < 1.0, "seconds");
    let items = body["ingredients"].as_array().unwrap();
    assert_eq!(items.len(), 6);
    let mut sum = 0.0;
    for item in items {
        let mut keys: Vec<&str> = item
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort_unstable();
        assert_eq!(keys, DETAIL_KEYS);
        let score = item["safety_score"].as_u64().unwrap();
        assert!((1..=10).contains(&score));
        sum += score as f64;
        let (risk, rec) = match score {
            7..=10 => ("low", "SAFE"),
            4..=6 => ("medium", "CAUTION"),
            _ => ("high", "AVOID"),
        };
        assert_eq!(
            (
                item["risk_level"].as_str().unwrap(),
                item["recommendation"].as_str().unwrap()
            ),
            (risk, rec),
            "{item}"
        );
        assert!(
            ["Natural", "Synthetic", "Semi-synthetic"].contains(&item["origin"].as_str().unwrap())
        );
        assert!(["Food", "Cosmetics", "Both"].contains(&item["category"].as_str().unwrap()));
        assert_eq!(item["allergy_risk"], "low");
        assert_eq!(item["is_allergen_match"], false);
        let source = if item["canonical_name"].is_null() {
            "unknown"
        } else {
            "knowledge_base"
        };
        assert_eq!(item["source"], source, "{item}");
        if rec != "SAFE" && !item["canonical_name"].is_null() {
            assert!(
                !item["alternatives"].as_array().unwrap().is_empty() || item["name"] == "Parfum",
                "{item}"
            );
        }
    }
    let average = (sum / 6.0 * 10.0).round() / 10.0;
    assert_eq!(body["average_safety_score"].as_f64().unwrap(), average);
    // Formaldehyde is banned in EU cosmetics: the product is high risk.
    assert_eq!(body["overall_risk"], "high");
    let formaldehyde = find(&body, "Formaldehyde");
    assert_eq!(formaldehyde["recommendation"], "AVOID");
    assert!(
        formaldehyde["concerns"]
            .as_str()
            .unwrap()
            .contains("IARC Group 1")
    );
    assert!(
        formaldehyde["concerns"]
            .as_str()
            .unwrap()
            .contains("Annex II")
    );
    assert!(!formaldehyde["references"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn unknown_ingredients_are_caution_and_never_guessed() {
    let app = spawn_app().await;
    let body = analyze(&app, json!({"ingredients": "Xylophonium Extract"})).await;
    let item = &body["ingredients"][0];
    assert_eq!(item["name"], "Xylophonium Extract");
    assert_eq!(item["canonical_name"], Value::Null);
    assert_eq!(item["safety_score"], 5);
    assert_eq!(item["risk_level"], "medium");
    assert_eq!(item["recommendation"], "CAUTION");
    assert!(
        item["concerns"]
            .as_str()
            .unwrap()
            .contains("Not in the knowledge base")
    );
    assert_eq!(body["overall_risk"], "medium");
}

#[tokio::test]
async fn a_clean_list_is_low_risk_with_defaults() {
    let app = spawn_app().await;
    let body = analyze(
        &app,
        json!({"product_name": "Bread", "ingredients": "Wheat Flour, Water, Salt, Yeast"}),
    )
    .await;
    assert_eq!(body["product_name"], "Bread");
    assert_eq!(body["overall_risk"], "low");
    assert_eq!(body["allergen_warnings"], json!([]));
    assert!(
        body["summary"].as_str().unwrap().starts_with("Looks fine"),
        "{}",
        body["summary"]
    );
}

#[tokio::test]
async fn milk_allergy_matches_sub_ingredients_and_every_language() {
    let app = spawn_app().await;
    let body = analyze(
        &app,
        json!({
            "ingredients": "Sugar, chocolate (sugar, cocoa butter, milk powder), lait écrémé, Molke, 우유, 乳清, coconut milk, cream of tartar",
            "allergies": ["Milk/Dairy"]
        }),
    )
    .await;
    let warnings: Vec<&str> = body["allergen_warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    for name in [
        "chocolate (sugar, cocoa butter, milk powder)",
        "lait écrémé",
        "Molke",
        "우유",
        "乳清",
    ] {
        let item = find(&body, name);
        assert_eq!(item["is_allergen_match"], true, "{name}");
        assert_eq!(item["allergy_risk"], "high");
        assert_eq!(item["risk_level"], "high");
        assert_eq!(item["recommendation"], "AVOID");
        let prefix = format!("ALLERGEN WARNING: {name} - ");
        let matching: Vec<_> = warnings.iter().filter(|w| w.starts_with(&prefix)).collect();
        assert_eq!(matching.len(), 1, "{name}: {warnings:?}");
        assert!(matching[0].contains("milk") && matching[0].contains("'Milk/Dairy'"));
    }
    assert_eq!(warnings.len(), 5, "{warnings:?}");
    for trap in ["Sugar", "coconut milk", "cream of tartar"] {
        assert_eq!(find(&body, trap)["is_allergen_match"], false, "{trap}");
    }
    assert_eq!(body["overall_risk"], "high");
}

#[tokio::test]
async fn trap_names_never_match_the_allergen_they_contain() {
    let app = spawn_app().await;
    let body = analyze(
        &app,
        json!({
            "ingredients": "nutmeg, buckwheat, coconut milk, cream of tartar, pea protein",
            "allergies": ["Tree Nut", "Wheat/Gluten", "milk", "peanut"]
        }),
    )
    .await;
    assert_eq!(body["allergen_warnings"], json!([]), "{body}");
    for item in body["ingredients"].as_array().unwrap() {
        assert_eq!(item["is_allergen_match"], false, "{item}");
        assert!(!item["canonical_name"].is_null(), "{item}");
    }
}

#[tokio::test]
async fn cosmetic_sensitivities_and_skin_type() {
    let app = spawn_app().await;
    let base = json!({"ingredients": "Aqua/Water/Eau, Glycerin, Parfum, Linalool, Methylparaben, DMDM Hydantoin, Sodium Lauryl Sulfate"});
    let normal = analyze(&app, base.clone()).await;
    let mut sensitive_req = base.clone();
    sensitive_req["skin_type"] = json!("sensitive");
    sensitive_req["allergies"] = json!(["Fragrance", "Parabens", "Formaldehyde"]);
    let sensitive = analyze(&app, sensitive_req).await;
    for name in ["Parfum", "Linalool", "Methylparaben", "DMDM Hydantoin"] {
        assert_eq!(find(&sensitive, name)["is_allergen_match"], true, "{name}");
    }
    assert_eq!(
        find(&sensitive, "Aqua/Water/Eau")["canonical_name"],
        "Water"
    );
    let sls_normal = find(&normal, "Sodium Lauryl Sulfate")["safety_score"]
        .as_u64()
        .unwrap();
    let sls_sensitive = find(&sensitive, "Sodium Lauryl Sulfate");
    assert!(sls_sensitive["safety_score"].as_u64().unwrap() < sls_normal);
    assert!(
        sls_sensitive["concerns"]
            .as_str()
            .unwrap()
            .contains("For sensitive skin")
    );
    assert_eq!(sensitive["allergen_warnings"].as_array().unwrap().len(), 4);
}

#[tokio::test]
async fn expertise_changes_the_summary() {
    let app = spawn_app().await;
    let list = "Water, Sodium Lauryl Sulfate, Parfum, Formaldehyde";
    let beginner = analyze(&app, json!({"ingredients": list})).await;
    let expert = analyze(&app, json!({"ingredients": list, "expertise": "expert"})).await;
    let b = beginner["summary"].as_str().unwrap();
    let e = expert["summary"].as_str().unwrap();
    assert!(b.starts_with("Better avoid"), "{b}");
    assert!(e.starts_with("Overall risk HIGH (rule:"), "{e}");
    assert!(e.contains("IARC Group 1") && e.contains("Annex II"), "{e}");
    assert!(e.len() > b.len());
}

#[tokio::test]
async fn errors_say_what_is_wrong() {
    let app = spawn_app().await;
    assert_eq!(
        bad(&app, json!({"ingredients": ""})).await,
        "ingredients must not be blank"
    );
    assert_eq!(
        bad(&app, json!({"ingredients": null})).await,
        "ingredients is required"
    );
    assert_eq!(
        bad(&app, json!({"ingredients": "Water", "expertise": "guru"})).await,
        "invalid expertise 'guru': expected one of beginner, expert"
    );
    assert_eq!(
        bad(&app, json!({"ingredients": "a".repeat(20_001)})).await,
        "ingredients is too long: 20001 characters (at most 20000)"
    );
    assert_eq!(
        bad(&app, json!({"ingredients": vec!["salt"; 301].join(", ")})).await,
        "too many ingredients: 301 (at most 300)"
    );
    assert_eq!(
        bad(&app, json!({"ingredients": "Water", "allergies": "milk"})).await,
        "allergies must be an array of strings, not a string"
    );
    assert_eq!(
        bad(
            &app,
            json!({"ingredients": "Water", "allergies": ["milk", 3]})
        )
        .await,
        "allergies must be an array of strings: item 2 is a number"
    );
    assert_eq!(
        bad(
            &app,
            json!({"ingredients": "Water", "allergies": vec!["milk"; 51]})
        )
        .await,
        "too many allergies: 51 (at most 50)"
    );
    assert_eq!(
        bad(&app, json!({"ingredients": " ,;. "})).await,
        "ingredients contains no ingredient names"
    );
    let wrong = bad(&app, json!({"ingredients": ["Water"]})).await;
    assert!(
        wrong.starts_with("invalid JSON body: invalid type: sequence"),
        "{wrong}"
    );
}

#[tokio::test]
async fn odd_unicode_and_html_are_handled() {
    let app = spawn_app().await;
    let body = analyze(
        &app,
        json!({"ingredients": "Wa\u{200B}ter\u{0}, \u{202E}Glycerin, <script>alert(1)</script>, ＧＬＹＣＥＲＩＮ"}),
    )
    .await;
    let names: Vec<&str> = body["ingredients"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "Water",
            "Glycerin",
            "<script>alert(1)</script>",
            "ＧＬＹＣＥＲＩＮ"
        ]
    );
    assert_eq!(body["ingredients"][0]["canonical_name"], "Water");
    assert_eq!(body["ingredients"][2]["canonical_name"], Value::Null);
    assert_eq!(
        body["ingredients"][3]["canonical_name"],
        body["ingredients"][1]["canonical_name"]
    );
}

#[tokio::test]
async fn e_numbers_traces_and_typos() {
    let app = spawn_app().await;
    let body = analyze(
        &app,
        json!({
            "ingredients": "Ingredients: Sugar, Preservative (E211), e-330, INS 322, glycerln. May contain peanuts.",
            "allergies": ["peanut"]
        }),
    )
    .await;
    let names: Vec<(&str, &str)> = body["ingredients"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["name"].as_str().unwrap(),
                i["canonical_name"].as_str().unwrap_or("-"),
            )
        })
        .collect();
    assert_eq!(names[1], ("Preservative (E211)", "Sodium Benzoate"));
    assert_eq!(names[4].0, "glycerln");
    assert_eq!(names[5].0, "peanuts");
    let trace = &body["ingredients"][5];
    assert_eq!(trace["is_allergen_match"], true);
    assert!(
        trace["concerns"]
            .as_str()
            .unwrap()
            .contains("possible trace")
    );
    let warning = body["allergen_warnings"][0].as_str().unwrap();
    assert!(
        warning.starts_with("ALLERGEN WARNING: peanuts - may contain traces of peanut"),
        "{warning}"
    );
}

/// The product verdicts are on every successful answer, with the documented values, and on no
/// error body.
#[tokio::test]
async fn every_successful_answer_has_the_product_verdicts() {
    let app = spawn_app().await;
    let answers = ["yes", "no", "maybe", "unknown"];
    for (list, food) in [
        (
            "Sugar, palm oil, whole milk powder, emulsifier (E471), flavouring",
            true,
        ),
        ("Aqua, Glycerin, Lanolin, Cera Alba, Parfum", false),
        ("xyzzy, blorp, frobnicate", true),
        ("Water", true),
    ] {
        let body = analyze(&app, json!({ "ingredients": list })).await;
        let diet = &body["diet"];
        for field in ["vegan", "vegetarian", "contains_palm_oil"] {
            assert!(
                answers.contains(&diet[field].as_str().unwrap()),
                "{field}: {body}"
            );
            assert!(diet["because"][field].is_array(), "{body}");
        }
        let coverage = &body["coverage"];
        assert!(coverage["items"].as_u64().is_some() && coverage["recognised"].as_u64().is_some());
        let enough = coverage["enough_known"].as_bool().unwrap();
        assert!(body["additives"].is_array(), "{body}");
        if food {
            let nova = &body["processing"]["nova_group"];
            assert!(body["processing"]["markers"].is_array(), "{body}");
            assert_eq!(nova.is_null(), !enough, "{body}");
        } else {
            assert!(body["processing"].is_null(), "{body}");
            assert_eq!(body["additives"], json!([]));
        }
        if !enough {
            assert_eq!(diet["vegan"], "unknown", "{body}");
        }
    }
    let body = analyze(
        &app,
        json!({ "ingredients": "Sugar, palm oil, whole milk powder, emulsifier (E471), flavouring" }),
    )
    .await;
    assert_eq!(body["diet"]["vegan"], "no");
    assert_eq!(
        body["diet"]["because"]["vegan"],
        json!(["whole milk powder"])
    );
    assert_eq!(body["diet"]["contains_palm_oil"], "yes");
    assert_eq!(body["processing"]["nova_group"], 4);
    assert_eq!(
        body["additives"][0],
        json!({"code": "E471", "name": "Mono- and Diglycerides of Fatty Acids",
               "function": "emulsifier", "ingredient": "E471", "concern": ""})
    );
    assert_eq!(
        body["coverage"],
        json!({"items": 5, "recognised": 5, "enough_known": true})
    );
    // Error bodies keep the spec's exact shape.
    let message = bad(&app, json!({ "ingredients": "" })).await;
    assert!(!message.is_empty());
}

/// The synthetic labels of the OCR corpus (and the held-out ones), each in its language and in
/// the English a careful translator writes for it, get the same product verdicts (additives
/// compared by group: a label may name the group or the member, "Natriumcarbonate" or "sodium
/// bicarbonate").
#[tokio::test]
async fn the_same_label_in_the_nine_languages_gets_the_same_verdicts() {
    let app = spawn_app().await;
    async fn verdicts(app: &TestApp, items: &[String]) -> Value {
        let body = analyze(app, json!({ "ingredients": items.join(", ") })).await;
        let groups: std::collections::BTreeSet<String> = body["additives"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| {
                a["code"]
                    .as_str()
                    .unwrap()
                    .trim_end_matches(['i', 'v', 'x'])
                    .to_owned()
            })
            .collect();
        json!({
            "vegan": body["diet"]["vegan"], "vegetarian": body["diet"]["vegetarian"],
            "palm": body["diet"]["contains_palm_oil"], "nova": body["processing"]["nova_group"],
            "additives": groups,
        })
    }
    let mut languages = std::collections::BTreeSet::new();
    let mut compared = 0;
    for label in crate::labels::corpus()
        .into_iter()
        .chain(crate::labels::held_out())
    {
        let Some(english) = &label.english else {
            continue;
        };
        let printed = verdicts(&app, &label.items).await;
        let reference = verdicts(&app, english).await;
        assert_eq!(printed, reference, "{}: {:?}", label.name, label.items);
        languages.insert(label.language.clone());
        compared += 1;
    }
    assert_eq!(languages.len(), 8, "{languages:?}");
    assert!(compared >= 40, "{compared}");
}
