//! One grammar splits a list: the items `/ocr`'s label finder returns, joined with `", "` as
//! `/ocr` answers them and sent to `/analyze`, come back as the same items (the `text` of
//! each item `/analyze`'s splitter finds, its statements aside: the allergens a Japanese
//! `(一部に…を含む)` declares are added after the items, which keep their text), for every
//! label of the corpus and for labels made of generated lists.

use domain::ocr::label::extract;
use domain::parse::split_ingredients;
use proptest::prelude::*;

use crate::labels::{Label, corpus, held_out};

/// The items `/analyze` finds in the list `/ocr` answers for `items` (not the traces or the
/// allergens a statement declares).
fn split_again(items: &[String]) -> Vec<String> {
    split_ingredients(&items.join(", "))
        .into_iter()
        .filter(|item| !item.trace && !item.declared)
        .map(|item| item.text)
        .collect()
}

#[test]
fn the_items_found_on_every_label_split_again_alike() {
    for label in corpus().iter().chain(&held_out()) {
        let found = extract(&label.text());
        assert!(!found.items.is_empty(), "{}: no list found", label.name);
        assert_eq!(found.list, found.items.join(", "), "{}", label.name);
        assert_eq!(split_again(&found.items), found.items, "{}", label.name);
    }
}

/// An item as labels print them: a name of one to three words, in Latin letters (accents
/// too) or CJK, maybe a share ("12 %", "13,5 %"), maybe a bracket listing sub-ingredients.
fn item() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        4 => "[A-Za-z][a-zàéèüöçñ]{2,9}",
        1 => "[\u{4E00}-\u{4E80}\u{AC00}-\u{AC40}]{1,4}",
    ];
    let name = prop::collection::vec(word, 1..=3).prop_map(|w| w.join(" "));
    let share = prop_oneof![
        3 => Just(String::new()),
        1 => (1u8..100).prop_map(|n| format!(" {n} %")),
        1 => (1u8..100, 1u8..10).prop_map(|(n, d)| format!(" ({n},{d} %)")),
    ];
    let inner = (
        prop::collection::vec("[a-z]{3,8}( [a-z]{3,8})?", 1..4),
        prop::sample::select(vec![("(", ")"), ("[", "]"), ("《", "》"), ("【", "】")]),
        prop::sample::select(vec![", ", ",", "、", "; "]),
    )
        .prop_map(|(parts, (open, close), comma)| format!(" {open}{}{close}", parts.join(comma)));
    let bracket = prop_oneof![3 => Just(String::new()), 1 => inner];
    (name, share, bracket).prop_map(|(name, share, bracket)| format!("{name}{share}{bracket}"))
}

/// The text of a label of the corpus that prints `items` with `separator` between them.
fn label_text(template: &Label, items: &[String], separator: &str) -> String {
    let mut lines = template.before.clone();
    lines.push(format!("{} {}.", template.header, items.join(separator)));
    lines.extend(template.after.iter().cloned());
    lines.join("\n")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn generated_lists_split_again_alike(
        which in 0usize..1000,
        items in prop::collection::vec(item(), 1..12),
        separator in prop::sample::select(vec![", ", "; ", " • ", " · ", "、", ","]),
    ) {
        let labels = corpus();
        let text = label_text(&labels[which % labels.len()], &items, separator);
        let found = extract(&text);
        prop_assert!(!found.items.is_empty(), "{}", text);
        prop_assert_eq!(split_again(&found.items), found.items.clone(), "{}", text);
    }
}
