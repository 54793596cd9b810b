//! The scores the engine gives before the product is looked at as a whole: an unknown name's,
//! the cap of an allergen match, and an entry's personal score (its knowledge-base score
//! after regulatory caps and the user's skin type).

use std::borrow::Cow;

use super::ProductCategory;
use super::context::Context;
use crate::knowledge::skin::skin_penalty;
use crate::knowledge::{EuCosmetics, EuFood, Iarc, Ingredient};
use crate::shared::SharedStr;

/// The score of an ingredient that is not in the knowledge base: the middle of the scale,
/// CAUTION, never guessed either way.
pub const UNKNOWN_SCORE: u8 = 5;
/// The highest score an ingredient that matches a declared allergy can have (AVOID).
pub const ALLERGEN_SCORE: u8 = 2;

/// The entry's score after regulatory caps and the user's skin type, with the reasons, and
/// the reasons and the score's reason joined ([`EntryText::plain`](crate::knowledge::EntryText::plain) or its skin-type variant).
pub(super) fn personal_score<'kb>(
    ctx: &Context<'kb>,
    ing: &'kb Ingredient,
    index: usize,
) -> (u8, Vec<Cow<'kb, str>>, Option<&'kb SharedStr>) {
    let score = personal_value(ctx, index, ing);
    let mut notes: Vec<Cow<'kb, str>> = Vec::with_capacity(6);
    let Some(text) = ctx.prepared(index) else {
        return (score, notes, None);
    };
    // Annex II, the concerns, the IARC group (named exactly once, in the words users and
    // experts search for), a withdrawn additive.
    notes.extend(text.sentences().map(Cow::Borrowed));
    let mut plain = &text.plain;
    if ctx.skin_applies
        && ing.category != ProductCategory::Food
        && let Some(skin) = text.skin_note(ctx.skin)
    {
        notes.push(Cow::Borrowed(&skin.note));
        plain = &skin.plain;
    }
    (score, notes, Some(plain))
}

/// [`personal_score`] without the sentences (for ranking alternatives). The skin penalty is
/// the one rendered at start-up ([`EntryText::skin`](crate::knowledge::EntryText::skin)); it is worked out only for an entry
/// without prepared texts.
pub(super) fn personal_value(ctx: &Context<'_>, index: usize, ing: &Ingredient) -> u8 {
    let mut score = ing.safety_score();
    if ing.eu_cosmetics == Some(EuCosmetics::AnnexIi) {
        score = score.min(3);
    }
    if matches!(ing.iarc, Some(Iarc::Group1 | Iarc::Group2A)) {
        score = score.min(6);
    }
    if ing.eu_food == Some(EuFood::Withdrawn) && ctx.product_category == ProductCategory::Food {
        score = score.min(3);
    }
    if ctx.skin_applies && ing.category != ProductCategory::Food {
        let penalty = match ctx.prepared(index) {
            Some(text) => text.skin_note(ctx.skin).map_or(0, |n| n.penalty),
            None => skin_penalty(ctx.skin, ing).0,
        };
        score = score.saturating_sub(penalty).max(1);
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::SkinType;
    use crate::knowledge::{AllergenGroup, KnowledgeBase, SkinFlag};

    #[test]
    fn skin_rules_take_the_largest_penalty_and_every_reason() {
        let kb = KnowledgeBase::embedded();
        let entry = |name: &str| kb.resolve(name).unwrap().ingredient;
        // Fragrance by allergen group (no skin flag needed).
        let linalool = entry("Linalool");
        assert!(
            !linalool.skin.contains(&SkinFlag::Fragrance)
                || linalool.allergens.contains(&AllergenGroup::Fragrance)
        );
        let (p, why) = skin_penalty(SkinType::Sensitive, linalool);
        assert_eq!(p, 2);
        assert!(why[0].starts_with("fragrance ingredients"), "{why:?}");
        assert_eq!(skin_penalty(SkinType::Normal, linalool), (0, Vec::new()));
        // Drying alcohol: sensitive and dry skin, each with its own reason.
        let alcohol = entry("Alcohol Denat.");
        let (p, why) = skin_penalty(SkinType::Dry, alcohol);
        assert_eq!((p, why.len()), (2, 1));
        assert!(why[0].starts_with("drying alcohol"));
        assert!(
            skin_penalty(SkinType::Sensitive, alcohol)
                .1
                .contains(&"denatured/volatile alcohol strips the skin barrier and stings")
        );
        // Oily and combination skin go by the comedogenic rating.
        let coconut = entry("Cocos Nucifera Oil");
        assert_eq!(coconut.comedogenic, Some(4));
        assert_eq!(skin_penalty(SkinType::Oily, coconut).0, 3);
        assert_eq!(
            skin_penalty(SkinType::Combination, coconut),
            skin_penalty(SkinType::Oily, coconut)
        );
        assert_eq!(
            skin_penalty(SkinType::Sensitive, entry("Glycerin")),
            (0, Vec::new())
        );
    }
}
