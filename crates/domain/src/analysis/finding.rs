//! One analysed name ([`Finding`]: a top-level ingredient's head, or one of its
//! sub-ingredients), scored for this user with its concern sentences.

use std::borrow::Cow;

use super::allergy::{allergy_matches, found_by_word_note, word_matches};
use super::context::Context;
use super::prose::dedup;
use super::score::{ALLERGEN_SCORE, UNKNOWN_SCORE, personal_score};
use crate::knowledge::{AllergenGroup, MatchKind, Resolved};
use crate::shared::SharedStr;

/// One analysed name (a top-level ingredient's head, or one of its sub-ingredients).
pub(super) struct Finding<'kb> {
    /// The name as written.
    pub(super) label: &'kb str,
    pub(super) resolved: Option<Resolved<'kb>>,
    /// Personal score after caps, skin type and allergy.
    pub(super) score: u8,
    /// Sentences for `concerns`, most important first (borrowed from the prepared texts
    /// where possible: most of them are the same for every request).
    pub(super) notes: Vec<Cow<'kb, str>>,
    /// Source ids behind the notes.
    pub(super) sources: Vec<&'kb str>,
    /// Allergen groups matched, with the declared allergy that matched.
    pub(super) allergy: Vec<(String, usize)>,
    /// The allergen words that matched in a name not known as a whole (the safety net).
    pub(super) by_word: Vec<String>,
    /// `notes` joined, rendered at start-up ([`EntryText::plain`](crate::knowledge::EntryText::plain), or its skin-type variant),
    /// while no allergy or spelling note is among them.
    pub(super) plain: Option<&'kb SharedStr>,
}

impl Finding<'_> {
    /// Drops an allergen group the law exempts or a claim clears; with no allergen match
    /// left, the score is the ingredient's own again. Whether the group was there.
    pub(super) fn drop_allergen(&mut self, group: AllergenGroup) -> bool {
        let before = self.allergy.len();
        self.allergy.retain(|(g, _)| g != group.label());
        if self.allergy.len() == before {
            return false;
        }
        if self.allergy.is_empty()
            && let Some(r) = self.resolved
        {
            self.score = r.ingredient.safety_score();
        }
        true
    }
}

/// Scores one resolved name for this user and writes its concern sentences.
pub(super) fn finding<'kb>(
    ctx: &Context<'kb>,
    label: &'kb str,
    resolved: Option<Resolved<'kb>>,
) -> Finding<'kb> {
    let Some(r) = resolved else {
        let mut allergy = allergy_matches(ctx, label, None);
        let by_word = word_matches(ctx, label, &mut allergy);
        let mut notes = vec![Cow::Owned(format!(
            "'{label}' is not in the knowledge base (marked CAUTION, not guessed)."
        ))];
        if !by_word.is_empty() {
            notes.insert(0, Cow::Owned(found_by_word_note(label, &by_word)));
        }
        return Finding {
            label,
            resolved: None,
            score: UNKNOWN_SCORE,
            notes,
            sources: Vec::new(),
            allergy,
            by_word,
            plain: None,
        };
    };
    let ing = r.ingredient;
    let cosmetic = ctx.cosmetic_view(r.index);
    let (score, mut notes, plain) = match cosmetic {
        // A food entry in a cosmetic product: its own sentence and score, no dietary notes.
        Some(view) => (
            view.score,
            vec![Cow::Borrowed(view.reason.as_str())],
            Some(&view.reason),
        ),
        None => personal_score(ctx, ing, r.index),
    };
    let mut sources: Vec<&str> = Vec::new();
    let mut allergy = allergy_matches(ctx, label, Some(r));
    // Read by its head only: the other words may still name an allergen.
    let by_word = if r.kind == MatchKind::Head {
        word_matches(ctx, label, &mut allergy)
    } else {
        Vec::new()
    };
    if !allergy.is_empty() {
        let groups: Vec<&str> = allergy.iter().map(|(g, _)| g.as_str()).collect();
        let declared: Vec<&str> = allergy
            .iter()
            .map(|(_, a)| ctx.allergies[*a].given.as_str())
            .collect();
        notes.insert(
            0,
            Cow::Owned(format!(
                "Allergen: {} contains {} (you declared '{}').",
                ing.name,
                groups.join(", "),
                dedup(declared).join("', '")
            )),
        );
        if groups.iter().any(|g| {
            AllergenGroup::ALL
                .iter()
                .any(|x| x.label() == *g && x.is_food_allergen())
        }) {
            sources.push("eu-1169-2011-annex-ii");
        }
    }
    if let Some(view) = cosmetic {
        sources.push(&view.source);
    } else {
        for c in &ing.concerns {
            sources.push(&c.source);
        }
        if ing.concerns.is_empty() {
            sources.extend(ing.sources.iter().map(String::as_str));
        }
    }
    match r.kind {
        MatchKind::Typo => notes.push(Cow::Owned(format!(
            "Read as '{}' (spelling corrected).",
            ing.name
        ))),
        MatchKind::Head => notes.push(Cow::Owned(format!(
            "Understood only by its head: '{label}' is read as {} (the rest of the name is not in the knowledge base); the score and facts are those of {}.",
            ing.name, ing.name
        ))),
        MatchKind::Family => notes.push(Cow::Owned(format!(
            "'{label}' is a member of an INCI family named by rule and has no entry of its own here; the score and facts are those of its family ({}).",
            ing.name
        ))),
        MatchKind::Qualifier | MatchKind::Plural | MatchKind::SlashPart | MatchKind::Exact => {}
    }
    if let (Some(text), None) = (ctx.prepared(r.index), cosmetic) {
        notes.push(Cow::Borrowed(&text.reason));
    }
    let plain = plain.filter(|_| {
        allergy.is_empty()
            && !matches!(
                r.kind,
                MatchKind::Typo | MatchKind::Head | MatchKind::Family
            )
    });
    Finding {
        label,
        plain,
        by_word,
        resolved: Some(r),
        score: if allergy.is_empty() {
            score
        } else {
            score.min(ALLERGEN_SCORE)
        },
        notes,
        sources,
        allergy,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{ProductCategory, SkinType};
    use crate::knowledge::KnowledgeBase;
    use crate::knowledge::allergy::DeclaredAllergy;

    fn context<'a>(kb: &'a KnowledgeBase, skin: SkinType, allergies: &[&str]) -> Context<'a> {
        Context {
            kb,
            extra: None,
            allergies: allergies
                .iter()
                .map(|a| DeclaredAllergy::parse(a))
                .collect(),
            allergy_entries: Vec::new(),
            skin,
            skin_applies: true,
            product_category: ProductCategory::Cosmetics,
            expert: false,
        }
    }

    /// The pre-joined `concerns` stand in for the notes only when they are the same text:
    /// checked for every entry under every skin type, with and without an allergy.
    #[test]
    fn pre_joined_concerns_equal_the_notes_they_stand_for() {
        let kb = KnowledgeBase::embedded();
        let mut shortcuts = 0;
        for allergies in [&[][..], &["milk", "fragrance", "tree nut"][..]] {
            for skin in SkinType::EVERY {
                let ctx = context(kb, skin, allergies);
                for ing in kb.ingredients() {
                    let resolved = kb.resolve(&ing.name);
                    let f = finding(&ctx, &ing.name, resolved);
                    match f.plain {
                        Some(plain) => {
                            assert_eq!(*plain, f.notes.join(" "), "{} ({skin:?})", ing.name);
                            shortcuts += 1;
                        }
                        // Only a personal note (allergy, spelling) may turn the shortcut off.
                        None => assert!(
                            !f.allergy.is_empty()
                                || resolved.is_none_or(|r| r.kind == MatchKind::Typo),
                            "{} ({skin:?}) has no pre-joined concerns",
                            ing.name
                        ),
                    }
                }
            }
        }
        assert!(shortcuts > kb.ingredients().len() * 5, "{shortcuts}");
    }
}
