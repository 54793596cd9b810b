//! What the whole request shares while analysing ([`Context`]: the knowledge base, the
//! optional LLM supplement, the user's allergies and skin type, the kind of product), and how
//! a name is looked up: the knowledge base first, then the supplement, then by the name's
//! parts.

use super::supplement::Supplement;
use super::{ProductCategory, SkinType};
use crate::grammar::is_class_word;
use crate::knowledge::allergy::DeclaredAllergy;
use crate::knowledge::family::Family;
use crate::knowledge::{CosmeticText, EntryText, KnowledgeBase, Resolved};
use crate::language::Lexicon;
use crate::shared::SharedStr;
use crate::text::fold::fold;

/// What a plant named alone inside `parent` stands for: "Vegetable oils (palm, rapeseed)"
/// lists palm oil and rapeseed oil; "Vegetable fat (shea, coconut)" shea butter and coconut
/// fat. English labels only (other languages build these names differently).
pub(super) fn plant_source_nouns(parent: &str) -> &'static [String] {
    let folded = fold(parent);
    let last = folded.rsplit(' ').next().unwrap_or_default();
    Lexicon::get()
        .names
        .plant_sources
        .get(last)
        .map_or(&[], Vec::as_slice)
}

/// What the whole request shares while analysing.
pub(super) struct Context<'a> {
    pub(super) kb: &'a KnowledgeBase,
    /// Entries for names the knowledge base lacks (LLM-explained), consulted after it.
    pub(super) extra: Option<&'a Supplement>,
    pub(super) allergies: Vec<DeclaredAllergy>,
    /// Entries named by allergy words that are no group ("kiwi" → the Kiwi entry).
    pub(super) allergy_entries: Vec<(usize, usize)>,
    /// Families named by allergy words ("silicones", "huile de palme"), with the allergy.
    pub(super) families: Vec<(usize, &'static Family)>,
    pub(super) skin: SkinType,
    /// Skin adjustments apply unless the product is clearly a food.
    pub(super) skin_applies: bool,
    pub(super) product_category: ProductCategory,
    /// Whether the summary is for experts (collects regulatory notes).
    pub(super) expert: bool,
}

/// The knowledge base first, then the supplement.
pub(super) fn resolve<'a>(
    kb: &'a KnowledgeBase,
    extra: Option<&'a Supplement>,
    name: &str,
) -> Option<Resolved<'a>> {
    kb.resolve(name)
        .or_else(|| extra.and_then(|e| e.resolve(name)))
        .or_else(|| kb.resolve_by_head(name))
        .or_else(|| kb.resolve_by_parts(name))
        .or_else(|| after_class_word(kb, name))
        .or_else(|| before_a_remark(kb, name))
}

/// "soy lecithin - an emulsifier", "vanillin - an artificial flavor": a name followed by a
/// spaced dash and a remark on it; the name is what comes before the dash, when known.
fn before_a_remark<'a>(kb: &'a KnowledgeBase, name: &str) -> Option<Resolved<'a>> {
    let (first, _) = name.split_once(" - ")?;
    kb.resolve(first.trim())
}

/// "Süßstoff Natrium-Saccharin", "antioxydant acide ascorbique", "artificial colors red 40":
/// a class word of one to three words written before the item without a colon; the item is
/// what follows it.
fn after_class_word<'a>(kb: &'a KnowledgeBase, name: &str) -> Option<Resolved<'a>> {
    let name = name.trim();
    // The class word may follow one word that qualifies it ("artificial colors").
    let second = name.find(' ').map_or(0, |at| at + 1);
    let at = name
        .match_indices(' ')
        .take(3)
        .map(|(at, _)| at)
        .find(|&at| {
            is_class_word(&name[..at]) || (second < at && is_class_word(&name[second..at]))
        })?;
    let rest = name[at + 1..].trim_start_matches(|c: char| !c.is_alphanumeric());
    if rest.is_empty() {
        return None;
    }
    // "Natrium-Saccharin" is the compound "Natriumsaccharin" written with a hyphen.
    let joined = rest.replace(['-', ' '], "");
    kb.resolve(rest)
        .or_else(|| kb.resolve(&joined))
        .or_else(|| kb.resolve_by_parts(&joined))
}

impl<'a> Context<'a> {
    pub(super) fn resolve(&self, name: &str) -> Option<Resolved<'a>> {
        resolve(self.kb, self.extra, name)
    }

    pub(super) fn prepared(&self, index: usize) -> Option<&'a EntryText> {
        self.kb
            .prepared(index)
            .or_else(|| self.extra.and_then(|e| e.prepared(index)))
    }

    pub(super) fn reference(&self, id: &str) -> Option<&'a SharedStr> {
        self.kb
            .reference(id)
            .or_else(|| self.extra.and_then(|e| e.reference(id)))
    }

    /// The entry's cosmetic texts when it is a food entry that has them and the product is
    /// a cosmetic ([`Ingredient::in_cosmetics`](crate::knowledge::Ingredient::in_cosmetics); a product that is neither clearly food nor
    /// clearly cosmetic keeps the food view, the stricter one).
    pub(super) fn cosmetic_view(&self, index: usize) -> Option<&'a CosmeticText> {
        if self.product_category != ProductCategory::Cosmetics {
            return None;
        }
        self.prepared(index).and_then(|p| p.cosmetic.as_ref())
    }

    pub(super) fn is_supplemented(&self, resolved: Option<Resolved<'_>>) -> bool {
        match (self.extra, resolved) {
            (Some(extra), Some(r)) => extra.owns(r.index),
            _ => false,
        }
    }
}

/// The two ingredients of a name that joins them, when each is known: both are listed, so
/// that the allergens and facts of either count.
pub(super) fn either_of<'n>(
    kb: &KnowledgeBase,
    extra: Option<&Supplement>,
    name: &'n str,
) -> Option<Vec<&'n str>> {
    // Every joiner tried holds a space.
    if !name.contains(' ') {
        return None;
    }
    // ASCII lower case keeps every byte offset ("SALT AND SPICES").
    let lower = name.to_ascii_lowercase();
    // The words that offer a choice ("présure animale ou coagulant microbien", "sunflower
    // and/or rapeseed oil"), then those that join a list whose comma the label left out
    // ("modified corn starch and citric acid", "shellac and carnauba wax").
    let words = crate::grammar::words();
    let joiners = words.conjunctions.iter().filter(|w| w.starts_with(' '));
    words.choices.iter().chain(joiners).find_map(|word| {
        let at = lower.find(word)?;
        let (a, b) = (name[..at].trim(), name[at + word.len()..].trim());
        (resolve(kb, extra, a).is_some() && resolve(kb, extra, b).is_some()).then(|| vec![a, b])
    })
}
