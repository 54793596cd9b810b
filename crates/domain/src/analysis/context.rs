//! What the whole request shares while analysing ([`Context`]: the knowledge base, the
//! optional LLM supplement, the user's allergies and skin type, the kind of product), and how
//! a name is looked up: the knowledge base first, then the supplement, then by the name's
//! parts.

use super::supplement::Supplement;
use super::{ProductCategory, SkinType};
use crate::grammar::is_class_word;
use crate::knowledge::allergy::DeclaredAllergy;
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
}

/// "Süßstoff Natrium-Saccharin", "antioxydant acide ascorbique": a class word written before
/// the item without a colon; the item is what follows it.
fn after_class_word<'a>(kb: &'a KnowledgeBase, name: &str) -> Option<Resolved<'a>> {
    let (first, rest) = name.trim().split_once(' ')?;
    let rest = rest.trim_start_matches(|c: char| !c.is_alphanumeric());
    if rest.is_empty() || !is_class_word(first) {
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
