//! Translating a label's items to English through the knowledge base's multilingual names.
//!
//! A name printed in a label language that the knowledge base knows becomes its canonical
//! English name (`Farine de blé` → `Wheat Flour`, `정제수` → `Water`). Names it does not know
//! stay as printed, and so do names that already are one of the entry's primary names (INCI
//! `Aqua`, `Parfum`, `Butyrospermum Parkii Butter`: INCI is the same in every language).
//! Brackets are translated part by part: `Noisettes (12,5 %)` → `Hazelnut (12,5 %)`.
//!
//! [`correct_spelling`] runs first: an item the knowledge base does not know but reaches
//! through its conservative OCR-typo match (`Aicool cétéaryiique`) takes the spelling of the
//! nearest name of that entry (`Alcool cétéarylique`). Korean, Japanese and Chinese items go
//! through [`super::cjk_spelling::mend`] instead (one misread character, `棕桐油` → `棕榈油`).

use crate::knowledge::fold::fold;
use crate::knowledge::{KnowledgeBase, MatchKind};

use super::label::{Language, split_items};

/// The items in English; English labels and unknown names are left as printed.
pub fn to_english(kb: &KnowledgeBase, items: &[String], language: Option<Language>) -> Vec<String> {
    if matches!(language, None | Some(Language::English)) {
        return items.to_vec();
    }
    items.iter().map(|item| translate_item(kb, item)).collect()
}

/// Each item with OCR typos mended where the knowledge base recognises the name.
pub fn correct_spelling(
    kb: &KnowledgeBase,
    items: &[String],
    language: Option<Language>,
) -> Vec<String> {
    items
        .iter()
        .map(|item| correct_item(kb, item, language).unwrap_or_else(|| item.clone()))
        .collect()
}

fn correct_item(kb: &KnowledgeBase, item: &str, language: Option<Language>) -> Option<String> {
    if let Some(cjk) = language.filter(|l| l.is_cjk()) {
        return super::cjk_spelling::mend(kb, item, cjk);
    }
    if item.contains(['(', ')']) || item.chars().any(|c| c.is_ascii_digit()) {
        return None;
    }
    if kb.lookup(item).is_some() {
        return None;
    }
    let resolved = kb.resolve(item)?;
    if resolved.kind != MatchKind::Typo {
        return None;
    }
    let ingredient = resolved.ingredient;
    let key: Vec<char> = fold(item).chars().collect();
    let translated = language
        .and_then(|l| ingredient.names.get(l.code()))
        .into_iter()
        .flat_map(|names| names.iter());
    let best = ingredient
        .primary_names()
        .chain(translated)
        .min_by_key(|name| distance(&key, &fold(name).chars().collect::<Vec<_>>()))?;
    // Only letters OCR confuses may differ: a correctly printed spelling variant
    // ("Zitronensäure" for "Citronensäure") stays as printed.
    let confusable = |s: &str| fold(s).chars().map(ocr_class).collect::<String>();
    (confusable(item) == confusable(best)).then(|| match_case(item, best))
}

/// Letters Tesseract mixes up, mapped to one representative.
fn ocr_class(c: char) -> char {
    match c {
        'i' | 'l' | '1' | 'j' | '!' | '|' | 't' | 'f' => 'l',
        'o' | '0' => 'o',
        'c' | 'e' => 'e',
        'n' | 'h' | 'r' => 'n',
        'u' | 'v' => 'u',
        '5' | 's' => 's',
        _ => c,
    }
}

/// `name` with the capitalisation style of `printed` (all caps, or a capital first letter).
fn match_case(printed: &str, name: &str) -> String {
    let letters = printed.chars().filter(|c| c.is_alphabetic());
    if letters.clone().count() > 1 && letters.clone().all(char::is_uppercase) {
        return name.to_uppercase();
    }
    let mut chars = name.chars();
    match (printed.chars().next(), chars.next()) {
        (Some(p), Some(first)) if p.is_uppercase() => first.to_uppercase().chain(chars).collect(),
        _ => name.to_owned(),
    }
}

/// Levenshtein distance.
fn distance(a: &[char], b: &[char]) -> usize {
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut current = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            current[j + 1] = (previous[j] + usize::from(ca != cb))
                .min(previous[j + 1] + 1)
                .min(current[j] + 1);
        }
        previous = current;
    }
    previous[b.len()]
}

/// One item, with any bracketed part translated item by item.
pub fn translate_item(kb: &KnowledgeBase, item: &str) -> String {
    if let Some(whole) = translate_name(kb, item) {
        return whole;
    }
    let (Some(open), Some(close)) = (item.find('('), item.rfind(')')) else {
        return item.to_owned();
    };
    if close < open {
        return item.to_owned();
    }
    let head = item[..open].trim();
    let inner = &item[open + 1..close];
    let tail = item[close + 1..].trim();
    let head = translate_name(kb, head).unwrap_or_else(|| head.to_owned());
    let inner: Vec<String> = split_items(inner)
        .iter()
        .map(|part| translate_item(kb, part))
        .collect();
    let mut out = format!("{head} ({})", inner.join(", "));
    if !tail.is_empty() {
        out.push(' ');
        out.push_str(tail);
    }
    out
}

/// The English name of a translated name, or `None` when the name is unknown or already a
/// primary (English or INCI) name. The name is resolved as `/analyze` resolves it, but only by
/// the steps that keep its whole meaning (its own name, an INCI slash part, its plural or
/// singular, an INCI family member): a name known only by its head, without a qualifier or
/// as a typo stays as printed rather than being rendered as something less than it says
/// (typos are mended before, by [`correct_spelling`]).
fn translate_name(kb: &KnowledgeBase, name: &str) -> Option<String> {
    let resolved = kb.resolve(name)?;
    if !matches!(
        resolved.kind,
        MatchKind::Exact | MatchKind::SlashPart | MatchKind::Plural | MatchKind::Family
    ) {
        return None;
    }
    let ingredient = resolved.ingredient;
    let key = fold(name);
    if ingredient.primary_names().any(|n| fold(n) == key) {
        return None;
    }
    Some(ingredient.name.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn english(items: &[&str], language: Language) -> Vec<String> {
        let items: Vec<String> = items.iter().map(|s| s.to_string()).collect();
        to_english(KnowledgeBase::embedded(), &items, Some(language))
    }

    #[test]
    fn known_names_become_english_and_unknown_ones_stay() {
        let out = english(
            &["Sheabutter", "Niacinamid", "Zauberpulver"],
            Language::German,
        );
        assert_eq!(out, ["Shea Butter", "Niacinamide", "Zauberpulver"]);
    }

    #[test]
    fn plurals_are_translated_and_names_known_only_in_part_stay() {
        // A plural of a known name is that name; a typo-only match is not translated here.
        let out = english(&["Noisettes", "Noisettes (12,5 %)"], Language::French);
        assert_eq!(out, ["Hazelnut", "Hazelnut (12,5 %)"]);
        let kb = KnowledgeBase::embedded();
        let typo = "Zitronensäure";
        assert!(kb.lookup(typo).is_none());
        assert!(matches!(
            kb.resolve(typo).map(|r| r.kind),
            Some(MatchKind::Typo) | None
        ));
        assert_eq!(english(&[typo], Language::German), [typo]);
    }

    #[test]
    fn inci_names_stay_as_printed() {
        let out = english(&["Aqua", "Butyrospermum Parkii Butter"], Language::French);
        assert_eq!(out, ["Aqua", "Butyrospermum Parkii Butter"]);
    }

    #[test]
    fn cjk_names_are_translated() {
        let kb = KnowledgeBase::embedded();
        let expected = kb
            .english_name("小麦粉")
            .expect("the knowledge base knows 小麦粉");
        assert_eq!(english(&["小麦粉"], Language::Chinese), [expected]);
    }

    #[test]
    fn brackets_are_translated_part_by_part() {
        let kb = KnowledgeBase::embedded();
        let shea = kb.english_name("Sheabutter").unwrap();
        assert_eq!(
            translate_item(kb, "Emulgator (Sheabutter, 12,5 %)"),
            format!("Emulgator ({shea}, 12,5 %)")
        );
    }

    #[test]
    fn ocr_typos_take_the_spelling_of_the_nearest_known_name() {
        let kb = KnowledgeBase::embedded();
        let items = vec!["Aicool cétéaryiique".to_owned(), "Zauberpulver".to_owned()];
        let fixed = correct_spelling(kb, &items, Some(Language::French));
        assert_eq!(fixed, ["Alcool cétéarylique", "Zauberpulver"]);
        // A spelling variant that is no OCR confusion stays as printed.
        let variant = vec!["Zitronensäure".to_owned()];
        assert_eq!(
            correct_spelling(kb, &variant, Some(Language::German)),
            variant
        );
        assert_eq!(distance(&['a', 'b'], &['b']), 1);
        assert_eq!(match_case("GLYCERIN", "Glycerin"), "GLYCERIN");
    }

    #[test]
    fn english_labels_are_untouched() {
        assert_eq!(
            english(&["Wheat flour"], Language::English),
            ["Wheat flour"]
        );
    }
}
