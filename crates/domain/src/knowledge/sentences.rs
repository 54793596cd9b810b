//! The sentences the analysis shows for each entry, rendered once at start-up ([`EntryText`]):
//! its concerns, the score's reason, the regulatory and IARC notes, how each skin type lowers
//! it, and its texts as a cosmetic ingredient.

use super::skin::skin_penalty;
use super::{EuCosmetics, EuFood, Ingredient, STAPLE_SCORE};
use crate::shared::SharedStr;
use crate::vocabulary::SkinType;

/// The sentences the analysis shows for one entry, rendered once at start-up.
#[derive(Debug, Clone, Default)]
pub struct EntryText {
    /// The entry's name, shared by every response that names it.
    pub name: SharedStr,
    /// The entry's purpose, shared likewise.
    pub purpose: SharedStr,
    /// Each documented concern as a sentence.
    pub concerns: Vec<String>,
    /// "Knowledge-base score 6/10: <score_reason>".
    pub reason: String,
    /// "Prohibited in EU cosmetics (...Annex II)." for Annex II entries.
    pub annex_ii: Option<String>,
    /// "IARC Group 2A: probably carcinogenic to humans." unless a concern names the group.
    pub iarc: Option<String>,
    /// "No longer authorised as an EU food additive." unless a concern says so.
    pub withdrawn: Option<String>,
    /// The `concerns` text when nothing personal applies (no allergy, skin-type or spelling
    /// note): the sentences above in the engine's order, joined once here rather than on
    /// every request.
    pub plain: SharedStr,
    /// The skin types that lower this entry's score (at most four).
    pub skin: Vec<SkinNote>,
    /// A food entry's texts as a cosmetic ingredient ([`Ingredient::in_cosmetics`]).
    pub cosmetic: Option<CosmeticText>,
}

/// A food entry as an ingredient of a cosmetic product, rendered once at start-up.
#[derive(Debug, Clone)]
pub struct CosmeticText {
    /// The score in cosmetics.
    pub score: u8,
    /// What it does in cosmetics.
    pub purpose: SharedStr,
    /// "Knowledge-base score 9/10 as a cosmetic ingredient: <reason>", the only sentence of
    /// `concerns` then.
    pub reason: SharedStr,
    /// The source id behind it.
    pub source: String,
}

/// How one skin type lowers an entry's score, rendered once at start-up.
#[derive(Debug, Clone)]
pub struct SkinNote {
    /// The skin type.
    pub skin: SkinType,
    /// By how much the score is lowered (1 to 3).
    pub penalty: u8,
    /// "For sensitive skin: <reasons> (score lowered by 2)."
    pub note: String,
    /// [`EntryText::plain`] with `note` before the score's reason.
    pub plain: SharedStr,
}

impl EntryText {
    /// Assembles the sentences of `ing` and joins them into [`EntryText::plain`].
    pub(crate) fn new(
        ing: &Ingredient,
        annex_ii: Option<String>,
        concerns: Vec<String>,
        iarc: Option<String>,
        withdrawn: Option<String>,
        reason: String,
    ) -> Self {
        let join = |skin_note: Option<&String>| -> SharedStr {
            annex_ii
                .iter()
                .chain(&concerns)
                .chain(&iarc)
                .chain(&withdrawn)
                .chain(skin_note)
                .chain(std::iter::once(&reason))
                .map(String::as_str)
                .collect::<Vec<_>>()
                .join(" ")
                .into()
        };
        let skin = SkinType::EVERY
            .into_iter()
            .filter_map(|skin| {
                let (penalty, reasons) = skin_penalty(skin, ing);
                (penalty > 0).then(|| {
                    let note = format!(
                        "For {} skin: {} (score lowered by {penalty}).",
                        skin.as_str(),
                        reasons.join("; ")
                    );
                    SkinNote {
                        skin,
                        penalty,
                        plain: join(Some(&note)),
                        note,
                    }
                })
            })
            .collect();
        let plain = join(None);
        let cosmetic = ing.in_cosmetics.as_ref().map(|c| CosmeticText {
            score: c.score,
            purpose: c.purpose.as_str().into(),
            reason: format!(
                "Knowledge-base score {}/10 as a cosmetic ingredient: {}",
                c.score,
                c.reason.trim()
            )
            .into(),
            source: c.source.clone(),
        });
        Self {
            name: ing.name.as_str().into(),
            purpose: ing.purpose.as_str().into(),
            concerns,
            reason,
            annex_ii,
            iarc,
            withdrawn,
            plain,
            skin,
            cosmetic,
        }
    }

    /// How `skin` lowers this entry, if it does.
    pub fn skin_note(&self, skin: SkinType) -> Option<&SkinNote> {
        self.skin.iter().find(|n| n.skin == skin)
    }

    /// The default sentences in the order the analysis shows them, the score's reason last.
    pub fn sentences(&self) -> impl Iterator<Item = &str> {
        self.annex_ii
            .iter()
            .chain(&self.concerns)
            .chain(&self.iarc)
            .chain(&self.withdrawn)
            .map(String::as_str)
    }

    /// The sentences of `ing`.
    pub(super) fn of(ing: &Ingredient) -> Self {
        let mentions = |needle: &str| {
            ing.concerns
                .iter()
                .any(|c| c.text.to_lowercase().contains(needle))
        };
        let sentence = |t: &str| {
            let t = t.trim();
            if t.ends_with(['.', '!', '?']) {
                t.to_owned()
            } else {
                format!("{t}.")
            }
        };
        Self::new(
            ing,
            (ing.eu_cosmetics == Some(EuCosmetics::AnnexIi))
                .then(|| format!("{}.", EuCosmetics::AnnexIi.note())),
            ing.concerns.iter().map(|c| sentence(&c.text)).collect(),
            ing.iarc
                .filter(|g| !mentions(&g.label().to_lowercase()))
                .map(|g| format!("{}: {}.", g.label(), g.meaning())),
            (ing.eu_food == Some(EuFood::Withdrawn)
                && !mentions("union list")
                && !mentions("authorised")
                && !mentions("banned"))
            .then(|| "No longer authorised as an EU food additive.".to_owned()),
            if ing.is_dietary_staple() && ing.score < STAPLE_SCORE {
                format!(
                    "Dietary advice, not a safety concern (safety score {}/10): {}",
                    ing.safety_score(),
                    ing.score_reason.trim()
                )
            } else {
                format!(
                    "Knowledge-base score {}/10: {}",
                    ing.score,
                    ing.score_reason.trim()
                )
            },
        )
    }
}
