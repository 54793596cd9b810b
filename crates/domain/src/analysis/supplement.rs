//! Facts about ingredients the knowledge base lacks, from another source (in practice an
//! LLM, through `ingredient-api`), already validated by the caller.
//!
//! A [`Supplement`] is consulted only for names the knowledge base does not resolve. Its
//! entries are turned into ordinary [`Ingredient`]s, so the engine treats them exactly like
//! knowledge-base entries: the user's allergies match through their allergen groups, the skin
//! type through their skin flags, [`grade`](super::grade) maps the personal score to risk level
//! and recommendation, and alternatives are taken only from the knowledge base. Each detail
//! built from one says so in its `source` field ([`FactSource::Llm`]).

use crate::knowledge::facts::Diet;
use crate::knowledge::{
    AllergenGroup, EntryText, Ingredient, KnowledgeBase, MatchKind, Resolved, SkinFlag,
};
use crate::text::fold::fold;

use super::input::AnalysisInput;
use super::{Origin, ProductCategory};
use crate::grammar::is_class_word;
use crate::parse::flatten_subs;
use crate::shared::SharedStr;

/// The names of `input` that the engine would look up in `kb` and not find, in list order,
/// without repeats (by folded name): what a [`Supplement`] could explain.
pub fn unknown_names(kb: &KnowledgeBase, input: &AnalysisInput) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let mut push = |name: &str| {
        let key = fold(name);
        if !key.is_empty() && !seen.contains(&key) && kb.resolve(name).is_none() {
            seen.push(key);
            out.push(name.trim().to_owned());
        }
    };
    for item in &input.parsed {
        if !item.sub.is_empty() && kb.resolve_exact(&item.text).is_some() {
            continue;
        }
        if !item.name.is_empty() && (item.sub.is_empty() || !is_class_word(&item.name)) {
            push(&item.name);
        }
        for sub in flatten_subs(item) {
            push(&sub.name);
        }
        if item.name.is_empty() && item.sub.is_empty() {
            push(&item.text);
        }
    }
    out
}

/// The source id under which supplement entries cite their origin in `references`.
pub const SUPPLEMENT_SOURCE_ID: &str = "supplement";

/// Validated facts about one ingredient.
#[derive(Debug, Clone, PartialEq)]
pub struct ExternalFacts {
    /// The ingredient's usual English (or INCI) name.
    pub canonical_name: String,
    /// What it is for.
    pub purpose: String,
    /// Safety score 1..=10 before personalisation (clamped).
    pub score: u8,
    /// Why the score is what it is, one or two sentences.
    pub concerns: String,
    /// Natural, Synthetic or Semi-synthetic.
    pub origin: Origin,
    /// Food, Cosmetics or Both.
    pub category: ProductCategory,
    /// Allergen groups it carries (matched against the user's allergies).
    pub allergens: Vec<AllergenGroup>,
    /// Skin-type flags (matched against the user's skin type).
    pub skin: Vec<SkinFlag>,
    /// Safer ingredients with the same purpose; only knowledge-base names are used.
    pub alternatives: Vec<String>,
}

#[derive(Debug, Clone)]
struct Entry {
    key: String,
    ingredient: Ingredient,
    prepared: EntryText,
}

/// Entries for names the knowledge base does not know, indexed after its own entries.
#[derive(Debug, Clone)]
pub struct Supplement {
    /// Index of the first entry: the knowledge base's length.
    base: usize,
    entries: Vec<Entry>,
    /// Who produced the facts (e.g. `llm:gpt-4o-mini`), for `references` and `engine`.
    label: String,
    reference: SharedStr,
}

impl Supplement {
    /// An empty supplement for a knowledge base of `kb_len` entries; `label` names the
    /// producer (e.g. `llm:gpt-4o-mini`).
    pub fn new(kb_len: usize, label: impl Into<String>) -> Self {
        let label = label.into();
        Self {
            base: kb_len,
            entries: Vec::new(),
            reference: format!(
                "Explained by a language model ({label}); not from the knowledge base and not reviewed"
            )
            .into(),
            label,
        }
    }

    /// Who produced the facts.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Whether no entry was added.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Adds the facts for `name` (as written on the label). A name already present is kept.
    pub fn add(&mut self, name: &str, facts: ExternalFacts) {
        let key = fold(name);
        if key.is_empty() || self.entries.iter().any(|e| e.key == key) {
            return;
        }
        let score = facts.score.clamp(1, 10);
        let sentence = |t: &str| {
            let t = t.trim();
            if t.is_empty() || t.ends_with(['.', '!', '?']) {
                t.to_owned()
            } else {
                format!("{t}.")
            }
        };
        let concerns = sentence(&facts.concerns);
        let ingredient = Ingredient {
            name: facts.canonical_name,
            synonyms: Vec::new(),
            e_number: None,
            ci_number: None,
            purpose: facts.purpose,
            // No function class: alternatives come only from the entry's own list.
            function: String::new(),
            origin: facts.origin,
            category: facts.category,
            allergens: facts.allergens,
            score,
            score_reason: concerns.clone(),
            concerns: Vec::new(),
            sources: vec![SUPPLEMENT_SOURCE_ID.to_owned()],
            eu_cosmetics: None,
            eu_food: None,
            iarc: None,
            skin: facts.skin,
            comedogenic: None,
            alternatives: facts.alternatives,
            trace_only: false,
            named_by_plant: false,
            names: Default::default(),
            in_cosmetics: None,
            // The model is not asked what the ingredient is made from: it may be anything.
            diet: Diet::Maybe,
            palm: None,
            nova: None,
            ins: None,
        };
        let prepared = EntryText::new(
            &ingredient,
            None,
            if concerns.is_empty() {
                Vec::new()
            } else {
                vec![concerns]
            },
            None,
            None,
            format!(
                "Not in the knowledge base: explained by a language model ({}), score {score}/10; not reviewed.",
                self.label
            ),
        );
        self.entries.push(Entry {
            key,
            ingredient,
            prepared,
        });
    }

    /// The entry for `name`, if any (exact folded match).
    pub(crate) fn resolve(&self, name: &str) -> Option<Resolved<'_>> {
        let key = fold(name);
        self.entries
            .iter()
            .position(|e| e.key == key)
            .map(|i| Resolved {
                ingredient: &self.entries[i].ingredient,
                index: self.base + i,
                kind: MatchKind::Exact,
                also: &[],
            })
    }

    /// Whether `index` belongs to this supplement.
    pub(crate) fn owns(&self, index: usize) -> bool {
        index >= self.base && index < self.base + self.entries.len()
    }

    pub(crate) fn prepared(&self, index: usize) -> Option<&EntryText> {
        index
            .checked_sub(self.base)
            .and_then(|i| self.entries.get(i))
            .map(|e| &e.prepared)
    }

    pub(crate) fn reference(&self, id: &str) -> Option<&SharedStr> {
        (id == SUPPLEMENT_SOURCE_ID).then_some(&self.reference)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{
        AllergyRisk, Expertise, FactSource, Recommendation, RiskLevel, SkinType,
        analyze_with_supplement,
    };

    fn input(list: &str, allergies: &[&str], skin: SkinType) -> AnalysisInput {
        let allergies: Vec<String> = allergies.iter().map(|a| (*a).to_owned()).collect();
        AnalysisInput::new(None, Some(list), &allergies, skin, Expertise::Beginner).unwrap()
    }

    fn facts(score: u8) -> ExternalFacts {
        ExternalFacts {
            canonical_name: "Zorbitan Nutlate".into(),
            purpose: "Emulsifier".into(),
            score,
            concerns: "A mild emulsifier made from nut oil".into(),
            origin: Origin::SemiSynthetic,
            category: ProductCategory::Cosmetics,
            allergens: vec![AllergenGroup::Nuts],
            skin: vec![SkinFlag::Comedogenic],
            alternatives: vec!["Glycerin".into(), "Not A Kb Name".into()],
        }
    }

    #[test]
    fn unknown_names_are_what_the_knowledge_base_lacks() {
        let kb = KnowledgeBase::embedded();
        let i = input(
            "Water, Zorbitan Nutlate, Emulsifier (Quuxine), zorbitan nutlate, Glycerin",
            &[],
            SkinType::Normal,
        );
        assert_eq!(unknown_names(kb, &i), ["Zorbitan Nutlate", "Quuxine"]);
    }

    #[test]
    fn supplement_entries_are_personalised_like_knowledge_base_entries() {
        let kb = KnowledgeBase::embedded();
        let mut extra = Supplement::new(kb.ingredients().len(), "llm:test-model");
        extra.add("Zorbitan Nutlate", facts(8));
        let list = "Water, Zorbitan Nutlate, Xylophonium Extract";

        let plain = analyze_with_supplement(kb, &input(list, &[], SkinType::Normal), Some(&extra));
        assert_eq!(plain.engine.as_deref(), Some("llm:test-model"));
        let z = &plain.ingredients[1];
        assert_eq!(z.source, FactSource::Llm);
        assert_eq!(z.canonical_name.as_deref(), Some("Zorbitan Nutlate"));
        assert_eq!((z.safety_score, z.risk_level), (8, RiskLevel::Low));
        assert!(
            z.references[0].contains("llm:test-model"),
            "{:?}",
            z.references
        );
        assert!(z.concerns.contains("A mild emulsifier made from nut oil."));
        assert_eq!(plain.ingredients[0].source, FactSource::KnowledgeBase);
        assert_eq!(plain.ingredients[2].source, FactSource::Unknown);
        assert!(plain.summary.contains("AI model"), "{}", plain.summary);

        // The declared nut allergy matches through the explained allergen group.
        let allergic =
            analyze_with_supplement(kb, &input(list, &["nuts"], SkinType::Normal), Some(&extra));
        let z = &allergic.ingredients[1];
        assert!(z.is_allergen_match);
        assert_eq!(z.allergy_risk, AllergyRisk::High);
        assert_eq!(z.recommendation, Recommendation::Avoid);
        assert_eq!(
            allergic.allergen_warnings.len(),
            1,
            "{:?}",
            allergic.allergen_warnings
        );

        // Oily skin lowers a comedogenic entry's score, as for the knowledge base.
        let oily = analyze_with_supplement(kb, &input(list, &[], SkinType::Oily), Some(&extra));
        let z = &oily.ingredients[1];
        assert!(z.safety_score < 8, "{z:?}");
        assert!(z.concerns.contains("For oily skin"), "{}", z.concerns);
        assert_eq!(z.alternatives, ["Glycerol"]);
    }

    #[test]
    fn without_a_used_supplement_the_engine_is_offline() {
        let kb = KnowledgeBase::embedded();
        let extra = Supplement::new(kb.ingredients().len(), "llm:test-model");
        let i = input("Water, Xylophonium Extract", &[], SkinType::Normal);
        let with = analyze_with_supplement(kb, &i, Some(&extra));
        let without = crate::analysis::analyze_with(kb, &i);
        assert_eq!(with.engine.as_deref(), Some("offline"));
        assert_eq!(with.summary, without.summary);
        assert_eq!(with.ingredients, without.ingredients);
    }
}
