//! The README's quick start is true: each request it shows, sent to the real app, answers what
//! the README prints. The README trims its answers (objects without some keys, lists cut short),
//! so an answer matches when everything the README shows is in it with the same value.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

use crate::helpers::{json, spawn_app};

const README: &str = include_str!("../../../../README.md");

/// The JSON block that follows the README's first code block containing `marker`.
fn shown_answer(marker: &str) -> Value {
    let after = README
        .split_once(marker)
        .unwrap_or_else(|| panic!("README.md no longer shows {marker}"))
        .1;
    let block = after
        .split_once("```json\n")
        .and_then(|(_, rest)| rest.split_once("\n```"))
        .unwrap_or_else(|| panic!("no ```json answer after {marker} in README.md"))
        .0;
    serde_json::from_str(block).unwrap_or_else(|e| panic!("README's answer to {marker}: {e}"))
}

/// Whether everything `shown` holds is in `actual`: the same scalars (numbers to 1e-9), the
/// keys of every shown object, the first entries of every shown list.
fn shows_part_of(shown: &Value, actual: &Value) -> bool {
    match (shown, actual) {
        (Value::Object(s), Value::Object(a)) => s
            .iter()
            .all(|(k, v)| a.get(k).is_some_and(|av| shows_part_of(v, av))),
        (Value::Array(s), Value::Array(a)) => {
            s.len() <= a.len() && s.iter().zip(a).all(|(sv, av)| shows_part_of(sv, av))
        }
        (Value::Number(s), Value::Number(a)) => {
            (s.as_f64().unwrap_or(f64::NAN) - a.as_f64().unwrap_or(f64::NAN)).abs() < 1e-9
        }
        _ => shown == actual,
    }
}

#[tokio::test]
async fn the_readme_analyze_answer_is_what_the_service_answers() {
    let app = spawn_app().await;
    let answer = json(
        app.post_json(
            "/analyze",
            &json!({
                "product_name": "Face cream",
                "ingredients": "Aqua, Glycerin, Parfum, Methylparaben",
                "allergies": ["fragrance"],
                "skin_type": "sensitive"
            }),
        )
        .await,
    )
    .await;
    let shown = shown_answer("curl -s localhost:8000/analyze");
    assert!(
        shows_part_of(&shown, &answer),
        "README.md's quick start shows\n{shown:#}\nbut /analyze answers\n{answer:#}\n\
         (update the README's answer)"
    );
}

#[tokio::test]
async fn the_readme_ocr_answer_is_what_the_service_answers() {
    let app = spawn_app().await;
    let image = include_bytes!("../../fixtures/readme-label-fr.png");
    let answer = json(
        app.post_json("/ocr", &json!({ "image": STANDARD.encode(image) }))
            .await,
    )
    .await;
    let shown = shown_answer("readme-label-fr.png");
    assert!(
        shows_part_of(&shown, &answer),
        "README.md's quick start shows\n{shown:#}\nbut /ocr answers\n{answer:#}\n\
         (update the README's answer)"
    );
}

#[test]
fn a_shown_answer_must_be_part_of_the_real_one() {
    let real = json!({"a": 1.5, "b": [1, 2, 3], "c": {"d": "x", "e": null}});
    assert!(shows_part_of(&json!({"b": [1, 2], "c": {"d": "x"}}), &real));
    assert!(!shows_part_of(&json!({"b": [2]}), &real));
    assert!(!shows_part_of(&json!({"a": 1.6}), &real));
    assert!(!shows_part_of(&json!({"f": 1}), &real));
    assert!(!shows_part_of(&json!({"b": [1, 2, 3, 4]}), &real));
}
