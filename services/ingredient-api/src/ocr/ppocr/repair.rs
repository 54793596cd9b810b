//! What PP-OCR typically misreads, mended where the knowledge base and the recogniser's
//! confidence make it unambiguous ([`repair`]).
//!
//! Latin script ([`mend`]): an item the knowledge base does not know becomes the name it is a
//! typo of only when
//! - the recogniser was unsure of the line it came from (mean character probability under
//!   [`SURE`]: a line read with confidence is taken as printed, even when unknown), and
//! - the knowledge base resolves it as a typo (its conservative edit-distance threshold, one
//!   entry only: [`domain::knowledge::MatchKind::Typo`]), and
//! - that entry has a name (English/INCI, or in the label's language) within
//!   [`max_edits`] of the item as read: `SOOUM LAURETH SULFATE` → `SODIUM LAURETH SULFATE`.
//!
//! Names that are unknown and not a near miss of one known name stay as printed. Tesseract's
//! readings go through `tesseract::repair` instead, tuned to the letters that engine
//! confuses; the neural engine's mistakes are not those (it drops or merges letters rather
//! than swapping `l`/`1`).
//!
//! Korean, Japanese and Chinese items then go through the one-character mending
//! ([`crate::ocr::repair::cjk`]) with the character pairs measured on Tesseract's CJK models
//! (no pairs were measured for PP-OCR; its CJK readings are mended as they always were).

use domain::knowledge::{KnowledgeBase, MatchKind};
use domain::ocr::label::Language;
use domain::text::distance::bounded_distance;
use domain::text::fold::fold;

use super::TextLine;
use crate::ocr::repair::{cjk, match_case};
use crate::ocr::tesseract::repair::CJK_CONFUSABLE;

/// Mean character probability from which a line is taken as printed.
pub const SURE: f32 = 0.97;

/// Edits allowed between an item and the name it becomes: one per six letters, at most three.
pub fn max_edits(len: usize) -> usize {
    (len / 6).clamp(1, 3)
}

/// The items of a PP-OCR reading with its misreads mended: Latin items by [`mend`], CJK
/// items then by the one-character mending (`cjk_mending`: off for measurements only).
pub fn repair(
    kb: &KnowledgeBase,
    items: &[String],
    lines: &[TextLine],
    language: Option<Language>,
    cjk_mending: bool,
) -> Vec<String> {
    let items = mend(kb, items, lines, language);
    match language.filter(|l| l.is_cjk() && cjk_mending) {
        Some(cjk) => items
            .iter()
            .map(|item| cjk::mend(kb, item, cjk, CJK_CONFUSABLE).unwrap_or_else(|| item.clone()))
            .collect(),
        None => items,
    }
}

/// The items, each mended when the rules above allow it.
pub fn mend(
    kb: &KnowledgeBase,
    items: &[String],
    lines: &[TextLine],
    language: Option<Language>,
) -> Vec<String> {
    items
        .iter()
        .map(|item| {
            let confidence = confidence_of(item, lines);
            mend_item(kb, item, confidence, language).unwrap_or_else(|| item.clone())
        })
        .collect()
}

/// The lowest confidence of the lines the item's words were read on (1.0 when none is found:
/// then nothing is changed).
fn confidence_of(item: &str, lines: &[TextLine]) -> f32 {
    let words: Vec<&str> = item.split_whitespace().collect();
    lines
        .iter()
        .filter(|l| words.iter().any(|w| w.len() >= 3 && l.text.contains(w)))
        .map(|l| l.confidence)
        .fold(1.0, f32::min)
}

/// The knowledge-base spelling of one item, when it is an unsure near miss of one name.
pub fn mend_item(
    kb: &KnowledgeBase,
    item: &str,
    confidence: f32,
    language: Option<Language>,
) -> Option<String> {
    if confidence >= SURE
        || item
            .chars()
            .any(|c| c.is_ascii_digit() || "()[]".contains(c))
    {
        return None;
    }
    if kb.lookup(item).is_some() {
        return None;
    }
    let resolved = kb.resolve(item)?;
    if resolved.kind != MatchKind::Typo {
        return None;
    }
    let key: Vec<char> = fold(item).chars().collect();
    let translated = language
        .and_then(|l| resolved.ingredient.names.get(l.code()))
        .into_iter()
        .flat_map(|names| names.iter());
    let (distance, best) = resolved
        .ingredient
        .primary_names()
        .chain(translated)
        .filter_map(|name| {
            let folded: Vec<char> = fold(name).chars().collect();
            bounded_distance(&key, &folded, max_edits(key.len())).map(|d| (d, name))
        })
        .min_by_key(|(d, _)| *d)?;
    (distance > 0).then(|| match_case(item, best))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unsure_near_miss_of_one_known_name_is_mended() {
        let kb = KnowledgeBase::embedded();
        assert_eq!(
            mend_item(kb, "SOOUM LAURETH SULFATE", 0.80, Some(Language::English)).as_deref(),
            Some("SODIUM LAURETH SULFATE")
        );
        assert_eq!(
            mend_item(kb, "Glycerln", 0.85, Some(Language::English)).as_deref(),
            Some("Glycerin")
        );
    }

    #[test]
    fn a_sure_reading_or_a_known_name_stays_as_printed() {
        let kb = KnowledgeBase::embedded();
        // The recogniser was sure: printed that way.
        assert_eq!(
            mend_item(kb, "SOOUM LAURETH SULFATE", 0.99, Some(Language::English)),
            None
        );
        assert_eq!(
            mend_item(kb, "Glycerin", 0.5, Some(Language::English)),
            None
        );
    }

    #[test]
    fn names_the_knowledge_base_does_not_know_stay_as_printed() {
        let kb = KnowledgeBase::embedded();
        for unknown in [
            "Zorblax extract",
            "Quintessence of Moonpetal",
            "Frobnicated starch blend",
            "Hydrolyzed Unobtainium",
        ] {
            assert_eq!(
                mend_item(kb, unknown, 0.5, Some(Language::English)),
                None,
                "{unknown}"
            );
        }
    }

    #[test]
    fn an_items_confidence_is_that_of_its_least_sure_line() {
        use crate::ocr::ppocr::geometry::RotatedRect;
        let rect = RotatedRect {
            cx: 0.0,
            cy: 0.0,
            width: 1.0,
            height: 1.0,
            axis: (1.0, 0.0),
        };
        let line = |text: &str, confidence| TextLine {
            rect,
            text: text.into(),
            confidence,
        };
        let lines = [
            line("Aqua, SOOUM LAURETH", 0.8),
            line("SULFATE, Glycerin", 0.99),
        ];
        assert_eq!(confidence_of("SOOUM LAURETH SULFATE", &lines), 0.8);
        assert_eq!(confidence_of("Glycerin", &lines), 0.99);
        assert_eq!(confidence_of("Parfum", &lines), 1.0);
    }
}
