//! What Tesseract typically misreads, mended where the knowledge base makes it unambiguous.
//!
//! - Latin script ([`correct_spelling`]): an item the knowledge base does not know but
//!   reaches through its conservative typo match (`Aicool cétéaryiique`) takes the spelling
//!   of the nearest name of that entry (`Alcool cétéarylique`), when the two differ only in
//!   letters Tesseract confuses ([`ocr_class`]: `l`/`1`/`!`/`|`, `o`/`0`, `c`/`e`, …); a
//!   correctly printed spelling variant (`Zitronensäure` for `Citronensäure`) stays.
//! - Korean, Japanese and Chinese: one misread character ([`crate::ocr::repair::cjk`]) with
//!   the pairs the Debian "fast" CJK models were measured to confuse ([`CJK_CONFUSABLE`]).

use domain::knowledge::{KnowledgeBase, MatchKind};
use domain::ocr::label::Language;
use domain::text::distance::bounded_distance;
use domain::text::fold::fold;

use crate::ocr::repair::{cjk, match_case};

/// Character pairs the Debian "fast" CJK models were measured to confuse on the synthetic
/// labels (docs/ocr.md), in either direction.
pub const CJK_CONFUSABLE: &[(char, char)] = &[
    // Han: same radical, similar right-hand part.
    ('榈', '桐'),
    ('榛', '棟'),
    ('榛', '栋'),
    ('榛', '棒'),
    ('榛', '榴'),
    ('榛', '杰'),
    ('塩', '地'),
    ('兰', '三'),
    ('浆', '奖'),
    // Hangul: the final consonant misread (ㅁ/ㅇ/ㅂ, ㄹ/ㅁ).
    ('팜', '팡'),
    ('팜', '팝'),
    ('설', '섬'),
];

/// Each item with Tesseract's misreads mended where the knowledge base recognises the name:
/// CJK items through [`cjk::mend`] with [`CJK_CONFUSABLE`], other items by
/// [`correct_item`]. `language` `None` mends Latin letters only.
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

/// One item mended, or `None` when it stays as read.
fn correct_item(kb: &KnowledgeBase, item: &str, language: Option<Language>) -> Option<String> {
    if let Some(cjk) = language.filter(|l| l.is_cjk()) {
        return cjk::mend(kb, item, cjk, CJK_CONFUSABLE);
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
    let distance = |name: &str| {
        let name: Vec<char> = fold(name).chars().collect();
        bounded_distance(&key, &name, key.len().max(name.len())).unwrap_or(usize::MAX)
    };
    let best = ingredient
        .primary_names()
        .chain(translated)
        .min_by_key(|name| distance(name))?;
    // Only letters Tesseract confuses may differ: a correctly printed spelling variant
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

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(match_case("GLYCERIN", "Glycerin"), "GLYCERIN");
    }

    #[test]
    fn cjk_items_take_the_one_name_a_measured_confusion_reaches() {
        let kb = KnowledgeBase::embedded();
        let items = vec!["棕桐油".to_owned(), "魔法粉末".to_owned()];
        assert_eq!(
            correct_spelling(kb, &items, Some(Language::Chinese)),
            ["棕榈油", "魔法粉末"]
        );
        assert_eq!(ocr_class('!'), ocr_class('l'));
    }
}
