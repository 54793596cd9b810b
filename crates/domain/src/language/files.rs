//! The shapes of the files of `data/language/` (see `data/SCHEMA.md`), as they are read
//! before the loader checks them and builds the [`Lexicon`](super::Lexicon).

use std::collections::BTreeMap;

use serde::Deserialize;

/// `list.toml`: the words of the list grammar.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ListFile {
    pub headers: Vec<HeaderEntry>,
    pub abbreviations: Vec<String>,
    pub sections: BTreeMap<String, Vec<String>>,
    pub notices: Vec<String>,
    pub claims: Vec<String>,
    pub notice_sections: Vec<String>,
    pub traces: Vec<String>,
    pub trace_sections: Vec<String>,
    pub declarations: Vec<String>,
    pub amounts: Vec<String>,
    pub trace_tails: Vec<String>,
    pub energy_units: Vec<String>,
    pub japanese_declaration: Bracketing,
    pub conjunctions: ConjunctionsEntry,
    pub bands: Vec<String>,
    pub components: BTreeMap<String, Vec<String>>,
    pub statement_words: BTreeMap<String, Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct HeaderEntry {
    pub phrase: String,
    #[serde(default)]
    pub language: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Bracketing {
    pub open: String,
    pub close: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ConjunctionsEntry {
    pub split: Vec<String>,
    pub leading: Vec<String>,
    pub choice: Vec<String>,
}

/// `names.toml`: the words that say what a name is made of.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct NamesFile {
    pub qualifiers: Vec<String>,
    pub modifiers: BTreeMap<String, Vec<String>>,
    pub written: BTreeMap<String, BTreeMap<String, Written>>,
    pub naming: BTreeMap<String, BTreeMap<String, String>>,
    pub forms: FormsEntry,
    pub little: LittleEntry,
    pub negations: NegationsEntry,
    pub compounds: CompoundsEntry,
    pub cjk_particles: Vec<String>,
    pub seed_oils: Vec<SeedOil>,
    pub singular_in_s: Vec<String>,
    pub colour_lakes: Vec<String>,
    pub plant_sources: BTreeMap<String, Vec<String>>,
    /// By language: a masculine singular ending → the endings of its other genders and numbers.
    pub inflections: BTreeMap<String, BTreeMap<String, Vec<String>>>,
}

/// A modifier as /ocr writes it in English: its English, and what else it is.
#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum Written {
    Plain(String),
    Also { english: String, also: Also },
}

impl Written {
    pub fn english(&self) -> &str {
        match self {
            Written::Plain(english) | Written::Also { english, .. } => english,
        }
    }

    pub fn also(&self) -> Option<Also> {
        match self {
            Written::Plain(_) => None,
            Written::Also { also, .. } => Some(*also),
        }
    }
}

/// The other class of a written modifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum Also {
    /// Set aside when a name is read by its head.
    Modifier,
    /// Dropped from the start of a name.
    Qualifier,
    /// Chooses among an entry's English names.
    Naming,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FormsEntry {
    pub flours: Vec<String>,
    pub flour_of: Vec<String>,
    pub other: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct LittleEntry {
    pub prepositions: Vec<String>,
    pub other: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct NegationsEntry {
    pub before: Vec<String>,
    pub after: Vec<String>,
    pub before_allergen: Vec<String>,
    pub after_allergen: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CompoundsEntry {
    pub links: Vec<String>,
    pub forms: Vec<String>,
    pub modifiers: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SeedOil {
    pub oil: String,
    pub seeds: Vec<String>,
}

/// `allergy.toml`: the words around allergen words.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AllergyFile {
    pub not_ingredient: Vec<String>,
    pub plant: Vec<String>,
    pub plant_milk: Vec<String>,
    pub whole_word_only: Vec<String>,
    pub noise: NoiseEntry,
    pub cjk: CjkEntry,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct NoiseEntry {
    pub before: Vec<String>,
    pub after: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CjkEntry {
    pub not_allergen: Vec<String>,
}

/// `cues.toml`: what tells the Latin-script languages apart, by language code.
pub(super) type CuesFile = BTreeMap<String, CueEntry>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CueEntry {
    #[serde(default)]
    pub strong: String,
    #[serde(default)]
    pub letters: String,
    #[serde(default)]
    pub phrases: Vec<String>,
    pub words: Vec<String>,
}
