//! The offline ingredient knowledge base: the TOML files of `crates/domain/data/`, embedded in
//! the binary, parsed and indexed once.
//!
//! [`KnowledgeBase::embedded`] is the process-wide instance. [`KnowledgeBase::lookup`] finds an
//! [`Ingredient`] by any name it is known by (canonical, synonym, INCI, E/INS number, CI number,
//! or a translated name), after [`fold`](crate::text::fold::fold)ing case, accents, width, whitespace and
//! hyphens. [`KnowledgeBase::resolve`] adds the tolerant steps the analysis uses (INCI slash
//! forms, plurals, INCI families by the shape of the name ([`inci_family`]), conservative OCR
//! typo correction) and says how it matched; [`KnowledgeBase::resolve_by_head`] and
//! [`KnowledgeBase::resolve_by_parts`] read a name by its head noun, its German compound
//! parts or its CJK segments.
//!
//! The file format is documented in `crates/domain/data/SCHEMA.md`.

pub mod allergy;
pub mod codes;
pub mod inci_family;
pub mod skin;

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde::Deserialize;

use crate::language::{Language, Lexicon, NameWords};
use crate::shared::SharedStr;
use crate::text::distance::{bounded_distance, byte_histogram, byte_mask, histogram_distance};
use crate::text::fold::{fold, fold_keep_accents};
use crate::text::script::is_cjk;
use crate::vocabulary::{Origin, ProductCategory, SkinType};
use codes::{ci_number, e_number};
use skin::skin_penalty;

/// The data files, embedded so that the binary needs nothing at run time.
pub const DATA_FILES: &[(&str, &str)] = &[
    ("sources.toml", include_str!("../../data/sources.toml")),
    (
        "food-additives.toml",
        include_str!("../../data/food-additives.toml"),
    ),
    (
        "allergens-foods.toml",
        include_str!("../../data/allergens-foods.toml"),
    ),
    ("cosmetics.toml", include_str!("../../data/cosmetics.toml")),
    (
        "colourants-restricted.toml",
        include_str!("../../data/colourants-restricted.toml"),
    ),
    (
        "foods-everyday.toml",
        include_str!("../../data/foods-everyday.toml"),
    ),
    (
        "vitamins-minerals.toml",
        include_str!("../../data/vitamins-minerals.toml"),
    ),
    (
        "cosmetics-inci-extra.toml",
        include_str!("../../data/cosmetics-inci-extra.toml"),
    ),
    (
        "cosmetics-botanicals.toml",
        include_str!("../../data/cosmetics-botanicals.toml"),
    ),
];

/// An allergen group: the 14 of Regulation (EU) No 1169/2011 Annex II, plus four cosmetic
/// sensitivity groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[allow(missing_docs)] // the names are the groups
pub enum AllergenGroup {
    Gluten,
    Crustaceans,
    Eggs,
    Fish,
    Peanuts,
    Soybeans,
    Milk,
    Nuts,
    Celery,
    Mustard,
    Sesame,
    Sulphites,
    Lupin,
    Molluscs,
    Fragrance,
    Parabens,
    Sulfates,
    Formaldehyde,
}

impl AllergenGroup {
    /// Every group, in declaration order.
    pub const ALL: [AllergenGroup; 18] = [
        Self::Gluten,
        Self::Crustaceans,
        Self::Eggs,
        Self::Fish,
        Self::Peanuts,
        Self::Soybeans,
        Self::Milk,
        Self::Nuts,
        Self::Celery,
        Self::Mustard,
        Self::Sesame,
        Self::Sulphites,
        Self::Lupin,
        Self::Molluscs,
        Self::Fragrance,
        Self::Parabens,
        Self::Sulfates,
        Self::Formaldehyde,
    ];

    /// How the group is named to a user.
    pub fn label(self) -> &'static str {
        match self {
            Self::Gluten => "gluten (cereals containing gluten)",
            Self::Crustaceans => "crustaceans",
            Self::Eggs => "egg",
            Self::Fish => "fish",
            Self::Peanuts => "peanut",
            Self::Soybeans => "soy",
            Self::Milk => "milk",
            Self::Nuts => "tree nuts",
            Self::Celery => "celery",
            Self::Mustard => "mustard",
            Self::Sesame => "sesame",
            Self::Sulphites => "sulphites",
            Self::Lupin => "lupin",
            Self::Molluscs => "molluscs",
            Self::Fragrance => "fragrance",
            Self::Parabens => "parabens",
            Self::Sulfates => "sulfates",
            Self::Formaldehyde => "formaldehyde and formaldehyde releasers",
        }
    }

    /// Whether the group is one of the 14 food allergens of Reg. (EU) 1169/2011 Annex II.
    pub fn is_food_allergen(self) -> bool {
        !matches!(
            self,
            Self::Fragrance | Self::Parabens | Self::Sulfates | Self::Formaldehyde
        )
    }
}

/// A skin-type flag of an entry (see SCHEMA.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[allow(missing_docs)]
pub enum SkinFlag {
    Fragrance,
    EssentialOil,
    DryingAlcohol,
    HarshSurfactant,
    SensitisingPreservative,
    Comedogenic,
    ExfoliatingAcid,
    Irritant,
}

/// Status under Regulation (EC) No 1223/2009 on cosmetic products.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EuCosmetics {
    /// Annex II: prohibited.
    AnnexIi,
    /// Annex III: restricted.
    AnnexIii,
    /// Annex IV: authorised colourant.
    AnnexIv,
    /// Annex V: authorised preservative.
    AnnexV,
    /// Annex VI: authorised UV filter.
    AnnexVi,
}

impl EuCosmetics {
    /// A short regulatory note naming the annex.
    pub fn note(self) -> &'static str {
        match self {
            Self::AnnexIi => "Prohibited in EU cosmetics (Reg. (EC) 1223/2009 Annex II)",
            Self::AnnexIii => "Restricted in EU cosmetics (Reg. (EC) 1223/2009 Annex III)",
            Self::AnnexIv => "Authorised EU cosmetic colourant (Reg. (EC) 1223/2009 Annex IV)",
            Self::AnnexV => "Authorised EU cosmetic preservative (Reg. (EC) 1223/2009 Annex V)",
            Self::AnnexVi => "Authorised EU UV filter (Reg. (EC) 1223/2009 Annex VI)",
        }
    }
}

/// Status under Regulation (EC) No 1333/2008 on food additives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EuFood {
    /// On the Union list.
    Authorised,
    /// Removed from the Union list (e.g. E171 since 2022).
    Withdrawn,
}

/// An IARC Monographs classification.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
pub enum Iarc {
    /// Carcinogenic to humans.
    #[serde(rename = "1")]
    Group1,
    /// Probably carcinogenic.
    #[serde(rename = "2A")]
    Group2A,
    /// Possibly carcinogenic.
    #[serde(rename = "2B")]
    Group2B,
}

impl Iarc {
    /// "IARC Group 2A" style label.
    pub fn label(self) -> &'static str {
        match self {
            Self::Group1 => "IARC Group 1",
            Self::Group2A => "IARC Group 2A",
            Self::Group2B => "IARC Group 2B",
        }
    }

    /// What the group means.
    pub fn meaning(self) -> &'static str {
        match self {
            Self::Group1 => "carcinogenic to humans",
            Self::Group2A => "probably carcinogenic to humans",
            Self::Group2B => "possibly carcinogenic to humans",
        }
    }
}

/// One documented concern and the source that supports it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Concern {
    /// The concern, one sentence.
    pub text: String,
    /// A source id.
    pub source: String,
}

/// A source a fact cites.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// Title (regulation and annex, journal reference, ...).
    pub title: String,
    /// Where to read it.
    #[serde(default)]
    pub url: Option<String>,
}

/// One or several names of a language.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum Names {
    /// A single label form.
    One(String),
    /// Several common label forms, the first being the usual one.
    Many(Vec<String>),
}

impl Names {
    /// Every form.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        let slice: &[String] = match self {
            Self::One(s) => std::slice::from_ref(s),
            Self::Many(v) => v,
        };
        slice.iter().map(String::as_str)
    }
}

/// One knowledge-base entry (see `crates/domain/data/SCHEMA.md`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ingredient {
    /// Canonical English name.
    pub name: String,
    /// Other label forms (INCI, E/INS number, CI number, spellings).
    #[serde(default)]
    pub synonyms: Vec<String>,
    /// EU E-number, `E160a` style.
    #[serde(default)]
    pub e_number: Option<String>,
    /// Colour Index number, `CI 77491` style.
    #[serde(default)]
    pub ci_number: Option<String>,
    /// What it does.
    pub purpose: String,
    /// Function class (SCHEMA.md lists them).
    pub function: String,
    /// Natural, Synthetic or Semi-synthetic.
    pub origin: Origin,
    /// Food, Cosmetics or Both.
    pub category: ProductCategory,
    /// Allergen groups it carries.
    #[serde(default)]
    pub allergens: Vec<AllergenGroup>,
    /// Safety score 1..=10 (10 safest).
    pub score: u8,
    /// Why the score is what it is.
    pub score_reason: String,
    /// Documented concerns with sources.
    #[serde(default)]
    pub concerns: Vec<Concern>,
    /// Source ids of the entry's facts.
    pub sources: Vec<String>,
    /// EU cosmetics status.
    #[serde(default)]
    pub eu_cosmetics: Option<EuCosmetics>,
    /// EU food-additive status.
    #[serde(default)]
    pub eu_food: Option<EuFood>,
    /// IARC group.
    #[serde(default)]
    pub iarc: Option<Iarc>,
    /// Skin-type flags.
    #[serde(default)]
    pub skin: Vec<SkinFlag>,
    /// Comedogenic rating 0..=5.
    #[serde(default)]
    pub comedogenic: Option<u8>,
    /// Safer ingredients with the same purpose (canonical names).
    #[serde(default)]
    pub alternatives: Vec<String>,
    /// Present in products only as a trace or impurity.
    #[serde(default)]
    pub trace_only: bool,
    /// Translated label names by language code.
    #[serde(default)]
    pub names: BTreeMap<String, Names>,
    /// A food entry's judgement when it is an ingredient of a cosmetic product, where limits
    /// on what is eaten do not apply (salt in shampoo, sugar in a scrub).
    #[serde(default)]
    pub in_cosmetics: Option<CosmeticUse>,
}

/// How a food entry is judged as a cosmetic ingredient (`[ingredient.in_cosmetics]`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CosmeticUse {
    /// What it does in cosmetics ("Thickener").
    pub purpose: String,
    /// Safety score 1..=10 in cosmetics.
    pub score: u8,
    /// Why, in a sentence or two.
    pub reason: String,
    /// Source id of the cosmetic use.
    pub source: String,
}

/// Sources whose concerns are dietary advice about how much to eat (WHO guidelines on free
/// sugars and on sodium), not about the safety of the ingredient.
pub const DIETARY_ADVICE_SOURCES: &[&str] = &["who-sugars-2015", "who-sodium-2012"];

/// The lowest score graded SAFE: a staple food is never scored below it for dietary advice.
pub const STAPLE_SCORE: u8 = 7;

impl Ingredient {
    /// Whether the entry is a staple food whose only concerns are dietary advice (sugar,
    /// salt, syrups): in a food that advice belongs in the concerns, not in the risk level.
    pub fn is_dietary_staple(&self) -> bool {
        self.category == ProductCategory::Food
            && !self.concerns.is_empty()
            && self
                .concerns
                .iter()
                .all(|c| DIETARY_ADVICE_SOURCES.contains(&c.source.as_str()))
            && self.iarc.is_none()
            && self.eu_food != Some(EuFood::Withdrawn)
    }

    /// The entry's safety score: its knowledge-base score, but at least [`STAPLE_SCORE`] for a
    /// dietary staple (the dietary advice stays in its concerns).
    pub fn safety_score(&self) -> u8 {
        if self.is_dietary_staple() {
            self.score.max(STAPLE_SCORE)
        } else {
            self.score
        }
    }

    /// Whether the entry is prohibited in EU cosmetics (Annex II).
    pub fn is_cosmetics_banned(&self) -> bool {
        self.eu_cosmetics == Some(EuCosmetics::AnnexIi)
    }

    /// Whether the entry carries names in all eight label languages.
    pub fn has_all_languages(&self) -> bool {
        Language::translations().all(|l| {
            self.names
                .get(l.code())
                .is_some_and(|n| n.iter().any(|s| !s.trim().is_empty()))
        })
    }

    /// Every name the entry is known by that is not a translation: canonical name, synonyms,
    /// E-number and CI number.
    pub fn primary_names(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.name.as_str())
            .chain(self.synonyms.iter().map(String::as_str))
            .chain(self.e_number.as_deref())
            .chain(self.ci_number.as_deref())
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct DataFile {
    #[serde(default)]
    sources: BTreeMap<String, Source>,
    #[serde(default)]
    ingredient: Vec<Ingredient>,
}

/// A data file that cannot be loaded.
#[derive(Debug, thiserror::Error)]
pub enum KbError {
    /// TOML syntax or a field outside the schema.
    #[error("{file}: {message}")]
    Parse {
        /// The file.
        file: String,
        /// What the parser said.
        message: String,
    },
    /// The same source id declared twice.
    #[error("{file}: source id '{id}' declared twice")]
    DuplicateSource {
        /// The file of the second declaration.
        file: String,
        /// The id.
        id: String,
    },
}

/// FNV-1a ([`fnv`]): the index keys are short, trusted strings from our own files, so a fast
/// non-keyed hash is fine (lookups hash user text, but a collision only costs time).
type Fnv = fnv::FnvBuildHasher;

/// One typo-correctable name.
#[derive(Debug, Clone)]
struct FuzzyKey {
    mask: u64,
    histogram: [u8; 32],
    key: Box<str>,
    entry: u32,
}

/// How a name was resolved to an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchKind {
    /// The folded name is a name of the entry (any language), its E-number or CI number.
    Exact,
    /// One part of an INCI slash form ("Aqua/Water/Eau").
    SlashPart,
    /// Singular or plural of a name.
    Plural,
    /// A qualifier such as "organic" was dropped.
    Qualifier,
    /// A typo within the conservative edit-distance threshold, unique.
    Typo,
    /// Only a part of the name is known: its head noun ("romano cheese" → Cheese), the other
    /// words not understood ([`KnowledgeBase::resolve_by_head`]).
    Head,
    /// A member of an INCI family built by a naming rule ("PEG-40 Hydrogenated Castor Oil",
    /// "Laureth-4"), with no entry of its own: the entry is the family's
    /// ([`inci_family`]), the canonical name is the label's name rendered the INCI way.
    Family,
}

/// A resolved name.
#[derive(Debug, Clone, Copy)]
pub struct Resolved<'kb> {
    /// The entry.
    pub ingredient: &'kb Ingredient,
    /// Its index in [`KnowledgeBase::ingredients`].
    pub index: usize,
    /// How the name matched.
    pub kind: MatchKind,
    /// Other entries that share the matched name (a translated name used by several
    /// entries, e.g. 虾 for shrimp and prawn); their allergen groups count too.
    pub also: &'kb [u32],
}

/// The indexed knowledge base.
#[derive(Debug)]
pub struct KnowledgeBase {
    ingredients: Vec<Ingredient>,
    sources: BTreeMap<String, Source>,
    /// Folded name → entries. Primary names come first, so they win over translations.
    index: HashMap<String, Vec<u32>, Fnv>,
    /// `E211` → entry.
    e_numbers: HashMap<String, u32, Fnv>,
    /// `CI 77491` → entry.
    ci_numbers: HashMap<String, u32, Fnv>,
    /// The entry of each INCI family, in the order of [`inci_family::Family::ALL`].
    families: [Option<u32>; inci_family::Family::ALL.len()],
    /// Language → names as printed.
    by_language: HashMap<&'static str, Vec<(String, u32)>>,
    /// Folded ASCII keys for typo correction, bucketed by (length, first byte) and by
    /// (length, last byte): one edit leaves the first or the last letter in place.
    fuzzy: HashMap<(usize, u8, bool), Vec<FuzzyKey>, Fnv>,
    /// Function class → entries, safest first (alternatives).
    by_function: HashMap<String, Vec<u32>, Fnv>,
    /// Lower-cased purpose → entries, safest first (alternatives among basic foods).
    by_purpose: HashMap<String, Vec<u32>, Fnv>,
    /// For folded keys shared by several entries: each entry's name with its accents, so an
    /// accented query can still tell them apart.
    accents: HashMap<String, Vec<(String, u32)>, Fnv>,
    /// Folded names that contain a comma in the data ("Sodium, Potassium and Calcium Salts of
    /// Fatty Acids"): the parser joins such names again after splitting on commas.
    comma_names: std::collections::HashSet<String>,
    /// The leading ASCII word of each of `comma_names` (those that start with one): a folded
    /// name with a comma begins with the first word of its first part, so a neighbour whose
    /// first word is not here cannot begin one.
    comma_name_starts: std::collections::HashSet<Vec<u8>, Fnv>,
    /// For each first letter or digit of `comma_name_starts`, the lengths of those words as bits
    /// (63 for longer ones): most words are told apart without hashing.
    comma_start_lengths: [u64; 128],
    /// The first two words of each of `comma_names` that starts with two ASCII words, joined by
    /// a space: a neighbour of two words or more must begin with one of these.
    comma_name_heads: std::collections::HashSet<Vec<u8>, Fnv>,
    /// Sentences prepared once per entry (same order as `ingredients`).
    prepared: Vec<Prepared>,
    /// Source id → "Title (url)".
    references: HashMap<String, SharedStr, Fnv>,
    /// Each entry's `alternatives` resolved to entry indices (names no entry has are left out).
    alternatives: Vec<Vec<u32>>,
    build_time: Duration,
}

/// The sentences the analysis shows for one entry, rendered once at start-up.
#[derive(Debug, Clone, Default)]
pub struct Prepared {
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
    /// [`Prepared::plain`] with `note` before the score's reason.
    pub plain: SharedStr,
}

impl Prepared {
    /// Assembles the sentences of `ing` and joins them into [`Prepared::plain`].
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

    fn of(ing: &Ingredient) -> Self {
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

static EMBEDDED: OnceLock<KnowledgeBase> = OnceLock::new();

impl KnowledgeBase {
    /// Loaded and indexed once (OnceLock) from the embedded data files.
    pub fn embedded() -> &'static KnowledgeBase {
        EMBEDDED.get_or_init(|| {
            // The embedded files are fixed at compile time and `tests/kb_integrity.rs` loads
            // exactly them, so a failure here cannot reach a tested build.
            Self::from_files(DATA_FILES).expect("embedded knowledge base is valid (kb_integrity)")
        })
    }

    /// Parses and indexes `files` (name, TOML text).
    pub fn from_files(files: &[(&str, &str)]) -> Result<Self, KbError> {
        let started = Instant::now();
        let mut ingredients = Vec::new();
        let mut sources = BTreeMap::new();
        for (file, text) in files {
            let parsed: DataFile = toml::from_str(text).map_err(|e| KbError::Parse {
                file: (*file).to_owned(),
                message: e.to_string(),
            })?;
            for (id, source) in parsed.sources {
                if sources.contains_key(&id) {
                    return Err(KbError::DuplicateSource {
                        file: (*file).to_owned(),
                        id,
                    });
                }
                sources.insert(id, source);
            }
            ingredients.extend(parsed.ingredient);
        }
        let mut kb = Self {
            ingredients,
            sources,
            index: HashMap::default(),
            e_numbers: HashMap::default(),
            ci_numbers: HashMap::default(),
            families: [None; inci_family::Family::ALL.len()],
            by_language: HashMap::new(),
            fuzzy: HashMap::default(),
            by_function: HashMap::default(),
            by_purpose: HashMap::default(),
            accents: HashMap::default(),
            comma_names: std::collections::HashSet::new(),
            comma_name_starts: std::collections::HashSet::default(),
            comma_start_lengths: [0; 128],
            comma_name_heads: std::collections::HashSet::default(),
            prepared: Vec::new(),
            references: HashMap::default(),
            alternatives: Vec::new(),
            build_time: Duration::ZERO,
        };
        kb.build_index();
        for (slot, family) in kb.families.iter_mut().zip(inci_family::Family::ALL) {
            *slot = kb
                .index
                .get(&fold(family.entry_name()))
                .and_then(|v| v.first().copied());
        }
        kb.build_time = started.elapsed();
        Ok(kb)
    }

    fn build_index(&mut self) {
        // Every name with its folded key, folded once (folding is most of the start-up):
        // (key, 0 for a primary name or 1 for a translation, entry, name as written).
        let mut folded: Vec<(String, u8, u32, &str)> =
            Vec::with_capacity(self.ingredients.len() * 12);
        for (i, ing) in self.ingredients.iter().enumerate() {
            let i = i as u32;
            if let Some(e) = &ing.e_number {
                self.e_numbers.entry(e.clone()).or_insert(i);
            }
            if let Some(ci) = &ing.ci_number {
                self.ci_numbers.entry(ci.clone()).or_insert(i);
            }
            for name in ing.primary_names() {
                folded.push((fold(name), 0, i, name));
            }
            // The synonyms' keys (after the canonical name's): E and CI numbers among them.
            let synonyms = folded.len() - ing.primary_names().count() + 1;
            for (key, ..) in &folded[synonyms..synonyms + ing.synonyms.len()] {
                if let Some(e) = e_number(key) {
                    self.e_numbers.entry(e).or_insert(i);
                }
                if let Some(ci) = ci_number(key) {
                    self.ci_numbers.entry(ci).or_insert(i);
                }
            }
            for (lang, names) in &ing.names {
                let lang_key = Language::translations()
                    .map(Language::code)
                    .find(|l| *l == lang.as_str());
                for name in names.iter() {
                    folded.push((fold(name), 1, i, name));
                    if let Some(l) = lang_key {
                        self.by_language
                            .entry(l)
                            .or_default()
                            .push((name.to_owned(), i));
                    }
                }
            }
        }
        // Primary names first so that, when a translation collides with another entry's
        // primary name, the primary name wins the lookup; then in entry order. Sorted, each
        // key's names are neighbours: the key moves into the index, no copy.
        folded.sort_unstable_by(|a, b| (&a.0, a.1, a.2).cmp(&(&b.0, b.1, b.2)));
        let mut index: HashMap<String, Vec<u32>, Fnv> =
            HashMap::with_capacity_and_hasher(folded.len(), Fnv::default());
        let mut accents: HashMap<String, Vec<(String, u32)>, Fnv> = HashMap::default();
        let mut at = 0;
        while at < folded.len() {
            let key = &folded[at].0;
            let n = folded[at..].iter().take_while(|(k, ..)| k == key).count();
            let group = &folded[at..at + n];
            at += n;
            if key.is_empty() {
                continue;
            }
            let mut entries: Vec<u32> = Vec::with_capacity(1);
            for (_, _, i, _) in group {
                if !entries.contains(i) {
                    entries.push(*i);
                }
            }
            if entries.len() > 1 {
                // A name several entries share: its spellings with accents tell them apart.
                let mut forms: Vec<(u32, String)> = group
                    .iter()
                    .map(|(_, _, i, name)| (*i, fold_keep_accents(name)))
                    .collect();
                forms.sort_by_key(|(i, _)| *i);
                accents.insert(
                    key.clone(),
                    forms.into_iter().map(|(i, form)| (form, i)).collect(),
                );
            }
            let key = std::mem::take(&mut folded[at - n].0);
            index.insert(key, entries);
        }
        drop(folded);
        let mut fuzzy: HashMap<(usize, u8, bool), Vec<FuzzyKey>, Fnv> = HashMap::default();
        for (key, entries) in &index {
            // Typos are corrected only for Latin names (one wrong CJK character is a different
            // word far more often than an OCR slip); names with digits only in their letters
            // (see `typo`).
            if !key.is_ascii() || key.len() < 6 {
                continue;
            }
            let bytes = key.as_bytes();
            let fk = FuzzyKey {
                mask: byte_mask(bytes),
                histogram: byte_histogram(bytes),
                key: key.clone().into_boxed_str(),
                entry: entries[0],
            };
            let (first, last) = (bytes[0], bytes[bytes.len() - 1]);
            fuzzy
                .entry((bytes.len(), first, true))
                .or_default()
                .push(fk.clone());
            fuzzy
                .entry((bytes.len(), last, false))
                .or_default()
                .push(fk);
        }
        for bucket in fuzzy.values_mut() {
            bucket.sort_by(|a, b| a.key.cmp(&b.key));
        }
        let mut by_function: HashMap<String, Vec<u32>, Fnv> = HashMap::default();
        for (i, ing) in self.ingredients.iter().enumerate() {
            by_function
                .entry(ing.function.clone())
                .or_default()
                .push(i as u32);
        }
        let mut by_purpose: HashMap<String, Vec<u32>, Fnv> = HashMap::default();
        for (i, ing) in self.ingredients.iter().enumerate() {
            by_purpose
                .entry(ing.purpose.trim().to_lowercase())
                .or_default()
                .push(i as u32);
        }
        for list in by_function.values_mut().chain(by_purpose.values_mut()) {
            list.sort_by(|a, b| {
                let (a, b) = (
                    &self.ingredients[*a as usize],
                    &self.ingredients[*b as usize],
                );
                b.score.cmp(&a.score).then_with(|| a.name.cmp(&b.name))
            });
        }
        self.index = index;
        self.fuzzy = fuzzy;
        self.by_function = by_function;
        self.by_purpose = by_purpose;
        self.accents = accents;
        self.prepared = self.ingredients.iter().map(Prepared::of).collect();
        self.comma_names = self
            .ingredients
            .iter()
            .flat_map(|i| {
                i.primary_names()
                    .chain(i.names.values().flat_map(Names::iter))
                    .filter(|n| n.contains([',', '，']))
                    .map(fold)
            })
            .collect();
        self.comma_name_starts = self
            .comma_names
            .iter()
            .filter_map(|name| leading_ascii_word(name))
            .map(|word| word.as_bytes().to_vec())
            .collect();
        self.comma_name_heads = self
            .comma_names
            .iter()
            .filter_map(|name| {
                let first = leading_ascii_word(name)?;
                let second = leading_ascii_word(name[first.len()..].strip_prefix(' ')?)?;
                Some(format!("{first} {second}").into_bytes())
            })
            .collect();
        self.comma_start_lengths = [0; 128];
        for word in &self.comma_name_starts {
            let initial = usize::from(word[0]);
            self.comma_start_lengths[initial] |= 1 << word.len().min(63);
        }
        self.references = self
            .sources
            .iter()
            .map(|(id, src)| {
                let text = match &src.url {
                    Some(url) => format!("{} ({url})", src.title),
                    None => src.title.clone(),
                };
                (id.clone(), SharedStr::from(text))
            })
            .collect();
        // Every entry's own alternatives, resolved once (the analysis filters them per user).
        self.alternatives = self
            .ingredients
            .iter()
            .map(|ing| {
                ing.alternatives
                    .iter()
                    .filter_map(|alt| self.lookup_index(alt))
                    .map(|i| i as u32)
                    .collect()
            })
            .collect();
    }

    /// Finds an entry by any name it is known by: canonical, synonym, INCI, E-number (any
    /// spelling), CI number, or a translated name in fr/es/de/it/pt/ko/ja/zh; folds case,
    /// accents, width, whitespace and hyphens.
    pub fn lookup(&self, name: &str) -> Option<&Ingredient> {
        self.lookup_index(name).map(|i| &self.ingredients[i])
    }

    /// [`KnowledgeBase::lookup`], giving the entry's index.
    pub fn lookup_index(&self, name: &str) -> Option<usize> {
        let key = fold(name);
        self.lookup_folded(&key)
            .map(|hit| self.disambiguate(&key, name, hit))
            .map(|(i, _)| i as usize)
    }

    /// The entry's own alternatives (its `alternatives` names), as entry indices.
    pub fn alternatives_of(&self, index: usize) -> Option<&[u32]> {
        self.alternatives.get(index).map(Vec::as_slice)
    }

    /// When several entries share a folded name, the one whose accented name is exactly the
    /// query wins alone ("cacao" is cocoa, "cação" dogfish); otherwise all of them stay.
    fn disambiguate<'a>(&'a self, key: &str, raw: &str, hit: (u32, &'a [u32])) -> (u32, &'a [u32]) {
        if hit.1.is_empty() {
            return hit;
        }
        let Some(forms) = self.accents.get(key) else {
            return hit;
        };
        let wanted = fold_keep_accents(raw);
        let mut matching = forms.iter().filter(|(f, _)| *f == wanted).map(|(_, i)| *i);
        let Some(first) = matching.next() else {
            return hit;
        };
        if matching.all(|i| i == first) {
            (first, &[])
        } else {
            hit
        }
    }

    fn lookup_folded(&self, key: &str) -> Option<(u32, &[u32])> {
        if key.is_empty() {
            return None;
        }
        if let Some(v) = self.index.get(key) {
            return Some((v[0], &v[1..]));
        }
        if let Some(e) = e_number(key)
            && let Some(i) = self.e_numbers.get(&e)
        {
            return Some((*i, &[]));
        }
        if let Some(ci) = ci_number(key)
            && let Some(i) = self.ci_numbers.get(&ci)
        {
            return Some((*i, &[]));
        }
        None
    }

    /// Resolves a label name with every tolerant step the analysis allows, in order: exact
    /// (folded) name, INCI slash parts, plural/singular of the last word, without a leading
    /// qualifier ("organic"), then a unique OCR typo within the conservative threshold
    /// (distance 1 for 6+ characters, 2 for 10+; never across digits, never for CJK text).
    pub fn resolve(&self, name: &str) -> Option<Resolved<'_>> {
        let key = fold(name);
        self.resolve_folded(&key, name)
    }

    fn resolved<'a>(&'a self, (i, also): (u32, &'a [u32]), kind: MatchKind) -> Resolved<'a> {
        Resolved {
            ingredient: &self.ingredients[i as usize],
            index: i as usize,
            kind,
            also,
        }
    }

    fn resolve_folded(&self, key: &str, raw: &str) -> Option<Resolved<'_>> {
        if let Some(hit) = self.lookup_folded(key) {
            let hit = self.disambiguate(key, raw, hit);
            return Some(self.resolved(hit, MatchKind::Exact));
        }
        if raw.contains('/') {
            for part in raw.split('/') {
                if let Some(hit) = self.lookup_folded(&fold(part)) {
                    return Some(self.resolved(hit, MatchKind::SlashPart));
                }
            }
        }
        for variant in number_variants(key) {
            if let Some(hit) = self.lookup_folded(&variant) {
                return Some(self.resolved(hit, MatchKind::Plural));
            }
        }
        if let Some(short) = mono_and_di(key)
            && let Some(hit) = self.lookup_folded(&short)
        {
            return Some(self.resolved(hit, MatchKind::Plural));
        }
        if let Some(rest) = strip_qualifier(key) {
            if let Some(hit) = self.lookup_folded(rest) {
                return Some(self.resolved(hit, MatchKind::Qualifier));
            }
            for variant in number_variants(rest) {
                if let Some(hit) = self.lookup_folded(&variant) {
                    return Some(self.resolved(hit, MatchKind::Plural));
                }
            }
        }
        // A name ending in its E-number ("Caramel E150d", "colour e330"): the number names
        // the additive. One token only, so "Vitamin E 300" is no E300.
        if let Some((_, last)) = key.rsplit_once(' ')
            && last.starts_with('e')
            && let Some(code) = e_number(last)
            && let Some(i) = self.e_numbers.get(&code)
        {
            return Some(self.resolved((*i, &[]), MatchKind::Qualifier));
        }
        if let Some(i) = self.family_entry(key) {
            return Some(self.resolved((i, &[]), MatchKind::Family));
        }
        if let Some(oil) = seed_oil(key)
            && let Some(hit) = self.lookup_folded(&oil)
        {
            return Some(self.resolved(hit, MatchKind::Qualifier));
        }
        // "PEG-9OM": a letter O read or typed for a zero after a digit.
        if let Some(zeros) = o_for_zero(key) {
            if let Some(hit) = self.lookup_folded(&zeros) {
                return Some(self.resolved(hit, MatchKind::Typo));
            }
            if let Some(i) = self.family_entry(&zeros) {
                return Some(self.resolved((i, &[]), MatchKind::Typo));
            }
        }
        self.typo(key)
            .map(|i| self.resolved((i, &[]), MatchKind::Typo))
    }

    /// The entry of the INCI family `key` (folded) belongs to by its shape, if any.
    fn family_entry(&self, key: &str) -> Option<u32> {
        let family = inci_family::classify(key)?;
        let at = inci_family::Family::ALL.iter().position(|f| *f == family)?;
        self.families[at]
    }

    /// A unique entry within the typo threshold of `key`, if any.
    fn typo(&self, key: &str) -> Option<u32> {
        if !key.is_ascii() {
            return None;
        }
        // Never across digits (E211/E212, PEG-40/PEG-60): a candidate must have the same
        // digits in the same order, so only letters differ ("C13-14 lsoparaffin").
        fn digits(k: &[u8]) -> impl Iterator<Item = u8> + '_ {
            k.iter().copied().filter(u8::is_ascii_digit)
        }
        let bytes = key.as_bytes();
        let max = match bytes.len() {
            0..=5 => return None,
            6..=9 => 1,
            _ => 2,
        };
        let mask = byte_mask(bytes);
        let histogram = byte_histogram(bytes);
        let mut best: Option<(usize, u32)> = None;
        let mut tie = false;
        let lo = bytes.len().saturating_sub(max).max(6);
        let hi = bytes.len() + max;
        let (first, last) = (bytes[0], bytes[bytes.len() - 1]);
        let buckets = (lo..=hi).flat_map(|len| {
            [(len, first, true), (len, last, false)]
                .into_iter()
                .filter_map(move |k| self.fuzzy.get(&k).map(|b| (len, b)))
        });
        for (len, bucket) in buckets {
            // The threshold must hold from the candidate's side too: a 9-letter name may not
            // be reached with 2 edits.
            let limit = if len >= 10 { max } else { max.min(1) };
            for cand in bucket {
                if (cand.mask ^ mask).count_ones() as usize > 2 * limit
                    || !histogram_distance(&cand.histogram, &histogram, 2 * limit)
                    || !digits(cand.key.as_bytes()).eq(digits(bytes))
                {
                    continue;
                }
                let Some(d) = bounded_distance(bytes, cand.key.as_bytes(), limit) else {
                    continue;
                };
                match best {
                    Some((bd, bi)) if d == bd && bi != cand.entry => tie = true,
                    Some((bd, _)) if d >= bd => {}
                    _ => {
                        best = Some((d, cand.entry));
                        tie = false;
                    }
                }
            }
        }
        if tie { None } else { best.map(|(_, i)| i) }
    }

    /// Resolves a name no other step knows by its parts: the words that only say how it is
    /// processed, cut or presented ("râpé", "moulu", "non dénoyautées", "flakes", "extra
    /// virgin") and the little words ("de", "of", "d'") are set aside, and the longest known
    /// run of the remaining words is its head: the first such run when the name is built
    /// like "farine de riz complet" (a preposition joins the words: Romance languages), the
    /// last one otherwise ("barley malt powder", "romano cheese"). All other words set aside
    /// as modifiers gives [`MatchKind::Qualifier`], any word not understood gives
    /// [`MatchKind::Head`]; more than two such words and the name is not read at all (a
    /// sentence is no ingredient). Exact names only, no typo steps.
    pub fn resolve_by_head(&self, name: &str) -> Option<Resolved<'_>> {
        let key = fold(name);
        let tokens: Vec<&str> = key.split(' ').filter(|t| !t.is_empty()).collect();
        if tokens.len() < 2 || tokens.len() > 12 || key.chars().any(is_cjk) {
            return None;
        }
        let words = words();
        let is_modifier = |t: &str| words.modifiers.contains(t);
        let is_little = |t: &str| words.little.contains(t);
        // A claim ("sans gluten", "gluten-free") names what the product lacks.
        if tokens.iter().any(|t| words.claims.contains(*t)) {
            return None;
        }
        let romance = tokens.iter().any(|t| words.prepositions.contains(*t));
        // Known runs: (start, end, entry), longest first at each start.
        let mut runs: Vec<Run<'_>> = Vec::new();
        for start in 0..tokens.len() {
            if is_little(tokens[start]) || is_modifier(tokens[start]) {
                continue;
            }
            for end in (start + 1..=tokens.len()).rev() {
                if is_little(tokens[end - 1]) {
                    continue;
                }
                let phrase = tokens[start..end].join(" ");
                let hit = self.lookup_folded(&phrase).or_else(|| {
                    number_variants(&phrase)
                        .iter()
                        .find_map(|v| self.lookup_folded(v))
                });
                if let Some(hit) = hit {
                    runs.push((start, end, hit));
                    break;
                }
            }
        }
        let form =
            |r: &(usize, usize, (u32, &[u32]))| r.1 - r.0 == 1 && words.forms.contains(tokens[r.0]);
        // Left to right, each word in one run: "coconut milk powder" is coconut milk and a
        // form, not "milk powder".
        let mut outer: Vec<&Run<'_>> = Vec::new();
        for r in &runs {
            if outer.last().is_none_or(|last| r.0 >= last.1) {
                outer.push(r);
            }
        }
        let pick = |skip_form: bool| {
            let mut candidates = outer.iter().filter(|r| !(skip_form && form(r)));
            if romance {
                candidates.next().copied()
            } else {
                candidates.next_back().copied()
            }
        };
        let &(start, end, hit) = pick(true).or_else(|| pick(false))?;
        let unknown = tokens
            .iter()
            .enumerate()
            .filter(|(i, t)| {
                // Words of another known run are understood (a complement: "au basilic").
                !outer.iter().any(|r| (r.0..r.1).contains(i))
                    && !is_little(t)
                    && !is_modifier(t)
                    && !words.forms.contains(**t)
                    // A percentage or weight left in the name ("0.05%").
                    && !t.bytes().all(|b| b.is_ascii_digit())
            })
            .count();
        if unknown > 2 {
            return None;
        }
        let kind = if unknown == 0 && outer.len() == 1 {
            MatchKind::Qualifier
        } else {
            MatchKind::Head
        };
        // The run with its accents tells "cacao" (cocoa) from "cação" (dogfish).
        let accented = fold_keep_accents(name);
        let accented: Vec<&str> = accented.split(' ').collect();
        let raw = if accented.len() == tokens.len() {
            accented[start..end].join(" ")
        } else {
            tokens[start..end].join(" ")
        };
        let hit = self.disambiguate(&tokens[start..end].join(" "), &raw, hit);
        let resolved = self.resolved(hit, kind);
        // INCI names are built from parts that change the substance ("Diacetone Alcohol",
        // "Butylphenyl Methylparaben"): a cosmetic head stands for the name only when the
        // words left over are numbers of its family ("PEG-40").
        let named_by_words = tokens.iter().enumerate().any(|(i, t)| {
            !(start..end).contains(&i)
                && !is_little(t)
                && !is_modifier(t)
                && !t.bytes().all(|b| b.is_ascii_digit())
        });
        if kind == MatchKind::Head
            && named_by_words
            && resolved.ingredient.category != ProductCategory::Food
        {
            return None;
        }
        Some(resolved)
    }

    /// Resolves a name that is none of the knowledge base's names by splitting it against the
    /// lexicon, for the languages that write a name as one word:
    ///
    /// - German compounds: the longest known head at the end, the modifier before it known
    ///   too, with or without a linking element ("Haselnuss-s-", "-n-", "-en-", "-es-"):
    ///   "Vollkornweizenmehl" → Wheat Flour; when the end is only a form ("-masse",
    ///   "-pulver") the word before it is the head ("Haselnussmasse" → Hazelnut);
    /// - Chinese and Japanese, and Korean once its particles are set aside ("을", "의", ...):
    ///   segmented left to right by the longest known name, the last segment is the head
    ///   ("小麦胚芽" → germ of wheat: its head, with 小麦 for the allergen net).
    ///
    /// Any part not understood and the name is not read. A head found this way is
    /// [`MatchKind::Head`]: the modifiers are not in its facts (the allergen word net reads
    /// them).
    pub fn resolve_by_parts(&self, name: &str) -> Option<Resolved<'_>> {
        let key = fold(name);
        if key.is_empty() || key.contains(' ') && !key.chars().any(is_cjk) {
            return None;
        }
        let hit = if key.chars().any(is_cjk) {
            self.segment_cjk(&key)
        } else {
            self.split_compound(&key)
        }?;
        // A cosmetic head never stands for a longer INCI-like word.
        let resolved = self.resolved(hit, MatchKind::Head);
        (resolved.ingredient.category != ProductCategory::Cosmetics).then_some(resolved)
    }

    /// Splits a name that is several names run together without commas ("Limonene
    /// Linalool", "Tetrasodium EDTA Methylparaben": a label's line breaks lost, or OCR) into
    /// the fewest runs of words that each resolve ([`Self::resolve`]). `None` unless every
    /// word belongs to such a run and there are at least two; CJK names and texts of more
    /// than [`MAX_RUN_TOGETHER_WORDS`] words (sentences) are not read this way. Ties in the
    /// number of runs go to the split with fewer typo corrections.
    pub fn split_run_together<'n>(&self, name: &'n str) -> Option<Vec<&'n str>> {
        /// Longest run of words tried as one name.
        const MAX_RUN: usize = 6;
        if name.chars().any(is_cjk) {
            return None;
        }
        // Word boundaries (start, end) in `name`, so that runs are slices of it.
        let words: Vec<(usize, usize)> = name
            .split_whitespace()
            .map(|w| {
                let start = w.as_ptr() as usize - name.as_ptr() as usize;
                (start, start + w.len())
            })
            .collect();
        let n = words.len();
        if !(2..=MAX_RUN_TOGETHER_WORDS).contains(&n) {
            return None;
        }
        // best[i]: (runs, typos, start of the last run) of the best split of words[..i].
        let mut best: Vec<Option<(usize, usize, usize)>> = vec![None; n + 1];
        best[0] = Some((0, 0, 0));
        for i in 1..=n {
            for j in i.saturating_sub(MAX_RUN)..i {
                let Some((runs, typos, _)) = best[j] else {
                    continue;
                };
                // Skip runs that cannot improve on the best split found.
                if best[i].is_some_and(|(r, _, _)| r < runs + 1) {
                    continue;
                }
                let run = &name[words[j].0..words[i - 1].1];
                let Some(r) = self.resolve(run) else {
                    continue;
                };
                let cost = (runs + 1, typos + usize::from(r.kind == MatchKind::Typo), j);
                if best[i].is_none_or(|b| (cost.0, cost.1) < (b.0, b.1)) {
                    best[i] = Some(cost);
                }
            }
        }
        let (runs, _, _) = best[n]?;
        if runs < 2 {
            return None;
        }
        let mut out = Vec::with_capacity(runs);
        let mut i = n;
        while i > 0 {
            let (_, _, j) = best[i]?;
            out.push(&name[words[j].0..words[i - 1].1]);
            i = j;
        }
        out.reverse();
        Some(out)
    }

    fn lookup_word(&self, word: &str) -> Option<(u32, &[u32])> {
        self.lookup_folded(word).or_else(|| {
            number_variants(word)
                .iter()
                .find_map(|v| self.lookup_folded(v))
        })
    }

    /// A German compound's head (see [`KnowledgeBase::resolve_by_parts`]).
    fn split_compound(&self, word: &str) -> Option<(u32, &[u32])> {
        let chars: Vec<(usize, char)> = word.char_indices().collect();
        if chars.len() < 7 || !word.chars().all(char::is_alphabetic) {
            return None;
        }
        let words = words();
        let known_modifier = |left: &str| {
            words.compound_links.iter().any(|link| {
                left.strip_suffix(link.as_str()).is_some_and(|m| {
                    m.chars().count() >= 3
                        && (self.lookup_word(m).is_some() || words.compound_modifiers.contains(m))
                })
            })
        };
        // Longest head first: split after at least three letters, keep three or more.
        for &(at, _) in chars.iter().skip(3).take(chars.len().saturating_sub(6)) {
            let (left, right) = word.split_at(at);
            if words.compound_forms.contains(right) {
                // "Haselnuss|masse": the form says how the head is presented.
                if let Some(hit) = words
                    .compound_links
                    .iter()
                    .filter_map(|link| left.strip_suffix(link.as_str()))
                    .find_map(|m| self.lookup_word(m))
                {
                    return Some(hit);
                }
                continue;
            }
            if let Some(hit) = self.lookup_word(right)
                && known_modifier(left)
            {
                return Some(hit);
            }
        }
        None
    }

    /// The head of a CJK name segmented by the longest known names (see
    /// [`KnowledgeBase::resolve_by_parts`]).
    fn segment_cjk(&self, key: &str) -> Option<(u32, &[u32])> {
        let particles = &words().cjk_particles;
        let chars: Vec<char> = key.chars().filter(|c| *c != ' ').collect();
        if chars.len() < 2 || chars.len() > 24 {
            return None;
        }
        let mut last = None;
        let mut at = 0;
        let mut buf = String::new();
        while at < chars.len() {
            let mut found = None;
            for end in (at + 1..=chars.len().min(at + 10)).rev() {
                buf.clear();
                buf.extend(&chars[at..end]);
                if end - at >= 2 || chars.len() == 1 {
                    if let Some(hit) = self.lookup_folded(&buf) {
                        found = Some((end, hit));
                        break;
                    }
                } else if let Some(hit) = self.lookup_folded(&buf)
                    && !particles.contains(&buf)
                {
                    found = Some((end, hit));
                    break;
                }
            }
            match found {
                Some((end, hit)) => {
                    last = Some(hit);
                    at = end;
                }
                None => {
                    let particle = particles.iter().find(|p| {
                        let p: Vec<char> = p.chars().collect();
                        chars[at..].starts_with(&p)
                    })?;
                    at += particle.chars().count();
                }
            }
        }
        last
    }

    /// Resolves by exact (folded) name, E-number or CI number only: no tolerant steps.
    pub fn resolve_exact(&self, name: &str) -> Option<Resolved<'_>> {
        let key = fold(name);
        self.lookup_folded(&key)
            .map(|hit| self.disambiguate(&key, name, hit))
            .map(|hit| self.resolved(hit, MatchKind::Exact))
    }

    /// For OCR translation: the canonical English name when `label_name` is a known name in
    /// any language, else None.
    pub fn english_name(&self, label_name: &str) -> Option<&str> {
        self.lookup(label_name).map(|i| i.name.as_str())
    }

    /// All names of one language (e.g. "fr"), for OCR spelling correction. `"en"` gives the
    /// canonical names and synonyms.
    pub fn names_in(&self, lang: &str) -> impl Iterator<Item = &str> {
        let translated = self
            .by_language
            .get(lang)
            .map(|v| v.as_slice())
            .unwrap_or_default()
            .iter()
            .map(|(n, _)| n.as_str());
        let english = (lang == "en")
            .then(|| {
                self.ingredients.iter().flat_map(|i| {
                    std::iter::once(i.name.as_str()).chain(i.synonyms.iter().map(String::as_str))
                })
            })
            .into_iter()
            .flatten();
        translated.chain(english)
    }

    /// Every entry, in file order.
    pub fn ingredients(&self) -> &[Ingredient] {
        &self.ingredients
    }

    /// Every declared source by id.
    pub fn sources(&self) -> &BTreeMap<String, Source> {
        &self.sources
    }

    /// A source by id.
    pub fn source(&self, id: &str) -> Option<&Source> {
        self.sources.get(id)
    }

    /// An entry by its canonical name (folded).
    pub fn by_name(&self, name: &str) -> Option<&Ingredient> {
        self.lookup(name)
    }

    /// Entries of one function class, safest first.
    pub fn with_function(&self, function: &str) -> impl Iterator<Item = (usize, &Ingredient)> {
        self.by_function
            .get(function)
            .map(|v| v.as_slice())
            .unwrap_or_default()
            .iter()
            .map(|i| (*i as usize, &self.ingredients[*i as usize]))
    }

    /// Whether `text` is a known name written with a comma (see `parse::split_ingredients_with`):
    /// "Sodium, Potassium and Calcium Salts of Fatty Acids" yes, "Peanut, Butter" no.
    pub fn is_name_with_comma(&self, text: &str) -> bool {
        self.comma_names.contains(&fold(text))
    }

    /// Whether "first, second" is a known name written with a comma: the check
    /// `parse::split_ingredients_with` makes for every pair of neighbours in a list. Most pairs
    /// are told apart by the first word of `first` alone, without building the joined text.
    pub fn joins_with_comma(&self, first: &str, second: &str) -> bool {
        if let Some((word, next)) = first_folded_words(first) {
            let initial = usize::from(word.as_bytes()[0].to_ascii_lowercase());
            if self.comma_start_lengths[initial] & (1 << word.len().min(63)) == 0
                || !contains_lowercased(&self.comma_name_starts, &[word])
                || next
                    .is_some_and(|next| !contains_lowercased(&self.comma_name_heads, &[word, next]))
            {
                return false;
            }
        }
        self.is_name_with_comma(&format!("{first}, {second}"))
    }

    /// The prepared sentences of the entry at `index`.
    pub fn prepared(&self, index: usize) -> Option<&Prepared> {
        self.prepared.get(index)
    }

    /// A source as shown in `references`: "Title (url)".
    pub fn reference(&self, id: &str) -> Option<&SharedStr> {
        self.references.get(id)
    }

    /// Entries with the same purpose text (case-insensitive), safest first.
    pub fn with_purpose(&self, purpose: &str) -> impl Iterator<Item = (usize, &Ingredient)> {
        self.by_purpose
            .get(&purpose.trim().to_lowercase())
            .map(|v| v.as_slice())
            .unwrap_or_default()
            .iter()
            .map(|i| (*i as usize, &self.ingredients[*i as usize]))
    }

    /// The entry at `index`.
    pub fn get(&self, index: usize) -> Option<&Ingredient> {
        self.ingredients.get(index)
    }

    /// How long parsing and indexing took.
    pub fn build_time(&self) -> Duration {
        self.build_time
    }

    /// Number of distinct folded names in the index.
    pub fn indexed_names(&self) -> usize {
        self.index.len()
    }
}

/// The first word of `fold(first, ...)` when `first` is ASCII without control characters,
/// and its second word if `first` has one: runs of ASCII letters and digits, each ending at a
/// space, at a CJK character or at the end of the folded text. `None` when that cannot be
/// told without folding.
fn first_folded_words(first: &str) -> Option<(&str, Option<&str>)> {
    let bytes = first.as_bytes();
    // `fold` drops controls without leaving a space: a word around one is not a slice.
    let plain = bytes.iter().fold(true, |plain, b| {
        plain & ((b' '..0x7f).contains(b) || matches!(b, b'\t' | b'\n' | b'\r'))
    });
    if !plain {
        return None;
    }
    let start = bytes.iter().position(u8::is_ascii_alphanumeric)?;
    let word = leading_ascii_word(&first[start..])?;
    let rest = &first[start + word.len()..];
    let next = rest
        .bytes()
        .position(|b| b.is_ascii_alphanumeric())
        .and_then(|at| leading_ascii_word(&rest[at..]));
    Some((word, next))
}

/// Whether `set` holds `words` (ASCII), lower-cased and joined by spaces; built on the stack.
fn contains_lowercased(set: &std::collections::HashSet<Vec<u8>, Fnv>, words: &[&str]) -> bool {
    let mut key = [0u8; 64];
    let mut len = 0;
    for word in words {
        let space = usize::from(len > 0);
        let Some(slot) = key.get_mut(len + space..len + space + word.len()) else {
            // Longer than any name's first words in practice: the slow way.
            return set.contains(words.join(" ").to_ascii_lowercase().as_bytes());
        };
        slot.copy_from_slice(word.as_bytes());
        if space == 1 {
            key[len] = b' ';
        }
        len += space + word.len();
    }
    key[..len].make_ascii_lowercase();
    set.contains(&key[..len])
}

/// The run of ASCII letters and digits that `text` starts with, if any.
fn leading_ascii_word(text: &str) -> Option<&str> {
    let len = text.bytes().take_while(u8::is_ascii_alphanumeric).count();
    (len > 0).then(|| &text[..len])
}

/// Singular and plural forms of the last word of a folded Latin name ("tomatoes" →
/// "tomato", "cherries" → "cherry", "almond" → "almonds").
fn number_variants(key: &str) -> Vec<String> {
    if key.chars().any(is_cjk) || key.len() < 4 {
        return Vec::new();
    }
    let mut out = Vec::new();
    if let Some(stem) = key.strip_suffix("ies") {
        out.push(format!("{stem}y"));
    }
    if let Some(stem) = key.strip_suffix("oes") {
        out.push(format!("{stem}o"));
    }
    for suffix in ["ches", "shes", "sses", "xes"] {
        if let Some(stem) = key.strip_suffix(suffix) {
            out.push(format!("{stem}{}", &suffix[..suffix.len() - 2]));
        }
    }
    if let Some(stem) = key.strip_suffix('s')
        && !key.ends_with("ss")
    {
        out.push(stem.to_owned());
    }
    // German and Romance plurals of longer words ("Erdnüssen", "Haselnüsse"), exact hits only.
    if key.len() >= 6 {
        for suffix in ["en", "e", "n"] {
            if let Some(stem) = key.strip_suffix(suffix) {
                out.push(stem.to_owned());
            }
        }
    }
    if !key.ends_with('s') {
        out.push(format!("{key}s"));
        if let Some(stem) = key.strip_suffix('y') {
            out.push(format!("{stem}ies"));
        }
    }
    out
}

/// The oil named by a seed-oil construction ("olio di semi di girasole", "olio di semi
/// girasole", "aceite de semillas de girasol", "óleo de sementes de girassol", "huile de
/// graines de tournesol"): the seeds are where every such oil comes from, so the name
/// without them ("olio di girasole") is the same oil.
fn seed_oil(key: &str) -> Option<String> {
    words().seed_oils.iter().find_map(|(oil, seeds)| {
        let rest = key.strip_prefix(oil.as_str())?;
        let plant = seeds.iter().find_map(|s| rest.strip_prefix(s.as_str()))?;
        (!plant.is_empty()).then(|| format!("{oil}{plant}"))
    })
}

/// `key` with each letter o that follows a digit, in a word that starts with a digit, read
/// as a zero ("peg 9om" → "peg 90m", "peg 4o" → "peg 40"), if there is one.
fn o_for_zero(key: &str) -> Option<String> {
    let mut changed = false;
    let words: Vec<String> = key
        .split(' ')
        .map(|w| {
            if !w.starts_with(|c: char| c.is_ascii_digit()) {
                return w.to_owned();
            }
            let mut out = String::with_capacity(w.len());
            let mut prev_digit = false;
            for c in w.chars() {
                let c = if c == 'o' && prev_digit {
                    changed = true;
                    '0'
                } else {
                    c
                };
                prev_digit = c.is_ascii_digit();
                out.push(c);
            }
            out
        })
        .collect();
    changed.then(|| words.join(" "))
}

/// "monoglicéridos y diglicéridos", "monoglycerides and diglycerides": the short form the
/// additive names use ("mono y digliceridos"), for a folded key that spells both out.
fn mono_and_di(key: &str) -> Option<String> {
    let tokens: Vec<&str> = key.split(' ').collect();
    let at = tokens.windows(3).position(|w| {
        w[0].len() > 4
            && w[0]
                .strip_prefix("mono")
                .is_some_and(|rest| w[2].strip_prefix("di") == Some(rest))
            && words().little.contains(w[1])
    })?;
    let mut out = tokens[..at].join(" ");
    if !out.is_empty() {
        out.push(' ');
    }
    out.push_str("mono ");
    out.push_str(&tokens[at + 1..].join(" "));
    Some(out)
}

/// Most words in a name read as several names run together ([`KnowledgeBase::split_run_together`]):
/// more is a sentence, not a run of INCI names.
const MAX_RUN_TOGETHER_WORDS: usize = 12;

/// A known run of a name's words: start, end, and its entry (see
/// [`KnowledgeBase::resolve_by_head`]).
type Run<'a> = (usize, usize, (u32, &'a [u32]));

/// The words of names ([`crate::language`]).
fn words() -> &'static NameWords {
    &Lexicon::get().names
}

/// `key` without up to three leading qualifiers ("roasted chopped hazelnuts" → "hazelnuts").
fn strip_qualifier(key: &str) -> Option<&str> {
    let qualifiers = &words().qualifiers;
    let mut rest = key;
    for _ in 0..3 {
        match qualifiers
            .iter()
            .find_map(|q| rest.strip_prefix(q.as_str()))
        {
            Some(r) if !r.is_empty() => rest = r,
            _ => break,
        }
    }
    (rest.len() < key.len()).then_some(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kb() -> &'static KnowledgeBase {
        KnowledgeBase::embedded()
    }

    fn canonical(name: &str) -> Option<&'static str> {
        kb().resolve(name).map(|r| r.ingredient.name.as_str())
    }

    #[test]
    fn a_name_ending_in_its_e_number_is_that_additive() {
        assert_eq!(canonical("Caramel E150d"), canonical("E150d"));
        assert!(canonical("E150d").is_some());
        assert_eq!(canonical("colour e330"), Some("Citric Acid"));
        // The number must be one token, and known.
        assert_ne!(canonical("Vitamin E 300"), Some("Ascorbic Acid"));
        assert_eq!(canonical("Mystery Blend E999"), canonical("E999"));
        assert!(canonical("E198").is_none());
        assert_eq!(canonical("Mystery Blend E198"), None);
    }

    #[test]
    fn lookup_by_every_kind_of_name() {
        let benzoate = kb().lookup("Sodium Benzoate").expect("sodium benzoate");
        for name in [
            "E211",
            "E 211",
            "e-211",
            "INS 211",
            "sodium  benzoate",
            "SODIUM-BENZOATE",
        ] {
            assert_eq!(
                kb().lookup(name).map(|i| &i.name),
                Some(&benzoate.name),
                "{name}"
            );
        }
        assert_eq!(
            kb().english_name("benzoate de sodium"),
            Some(benzoate.name.as_str())
        );
        assert_eq!(kb().english_name("Molke"), Some("Whey"));
        assert_eq!(kb().english_name("no such thing"), None);
    }

    /// The names with a comma in the data, split at every comma.
    fn comma_name_pairs() -> Vec<(String, String)> {
        let names: Vec<&str> = kb()
            .ingredients()
            .iter()
            .flat_map(|i| {
                i.primary_names()
                    .chain(i.names.values().flat_map(Names::iter))
            })
            .filter(|n| n.contains([',', '，']))
            .collect();
        assert!(!names.is_empty());
        names
            .iter()
            .flat_map(|n| {
                n.match_indices([',', '，'])
                    .map(|(at, c)| (*n, at, c.len()))
            })
            .map(|(n, at, len)| (n[..at].to_owned(), n[at + len..].trim().to_owned()))
            .collect()
    }

    #[test]
    fn pairs_join_exactly_when_the_joined_text_is_a_comma_name() {
        let pairs = comma_name_pairs();
        for (first, second) in &pairs {
            let joined = format!("{first}, {second}");
            assert_eq!(
                kb().joins_with_comma(first, second),
                kb().is_name_with_comma(&joined),
                "{joined}"
            );
        }
        assert!(kb().joins_with_comma("SODIUM", "Potassium and Calcium Salts of Fatty Acids"));
        // Every first part against every second part: mostly not names, told apart early.
        for (first, _) in pairs.iter().take(40) {
            for (_, second) in pairs.iter().take(40) {
                let joined = format!("{first}, {second}");
                assert_eq!(
                    kb().joins_with_comma(first, second),
                    kb().is_name_with_comma(&joined),
                    "{joined}"
                );
            }
        }
        assert!(!kb().joins_with_comma("Peanut", "Butter"));
        assert!(!kb().joins_with_comma("Sodium Hyaluronate", "Allantoin"));
        // Two words before the comma, told by the first two words of the names.
        assert!(pairs.iter().any(|(first, second)| {
            first.split_whitespace().count() > 1 && kb().joins_with_comma(first, second)
        }));
    }

    fn by_parts(name: &str) -> Option<&'static str> {
        kb().resolve_by_parts(name)
            .map(|r| r.ingredient.name.as_str())
    }

    #[test]
    fn german_compounds_split_against_the_lexicon() {
        // Longest known head at the end, a known modifier before it, linking -s-/-n-/-en-.
        assert_eq!(by_parts("Vollkornweizenmehl"), Some("Wheat Flour"));
        assert_eq!(by_parts("Bioweizenmehl"), Some("Wheat Flour"));
        // A form at the end: the word before it is the head.
        assert_eq!(by_parts("Haselnussmasse"), Some("Hazelnut"));
        assert_eq!(by_parts("NatriumSaccharin"), Some("Saccharin"));
        // Nothing known before the head, or too short: not read.
        assert_eq!(by_parts("Xyzqweizenmehl"), None);
        assert_eq!(by_parts("Mehl"), None);
        assert_eq!(by_parts("Weizen mehl extra"), None);
    }

    #[test]
    fn cjk_names_segment_by_the_longest_known_names() {
        // Japanese and Chinese: the last segment is the head; particles are set aside.
        assert_eq!(by_parts("鶏卵の卵白"), Some("Egg White"));
        assert!(by_parts("大豆由来").is_some());
        // Korean particles.
        assert_eq!(by_parts("대두를 함유"), by_parts("대두"));
        assert!(by_parts("대두를 함유").is_some());
        assert_eq!(
            by_parts("牛乳의").map(|n| n.to_owned()),
            kb().lookup("牛乳").map(|i| i.name.clone())
        );
        // A part not understood: not read.
        assert_eq!(by_parts("鶏卵の謎謎"), None);
    }

    #[test]
    fn ci_numbers_match_with_or_without_space() {
        let a = kb().lookup("CI 77491").expect("iron oxide");
        assert_eq!(kb().lookup("CI77491").map(|i| &i.name), Some(&a.name));
    }

    #[test]
    fn typos_are_corrected_only_when_unique_and_long() {
        assert_eq!(canonical("glycerln"), canonical("glycerin"));
        assert!(canonical("glycerin").is_some());
        // Traps: never a false match.
        assert_eq!(canonical("nutmeg"), Some("Nutmeg"));
        assert_eq!(canonical("coconut milk"), Some("Coconut Milk"));
        assert_eq!(canonical("buckwheat"), Some("Buckwheat"));
        assert_eq!(canonical("peanut"), Some("Peanut"));
        assert_eq!(canonical("pea"), Some("Pea"));
        assert_eq!(canonical("xylophonium"), None);
        assert_eq!(canonical("E108"), None);
        // Letters of a name with digits, the digits kept: "l" read for "I".
        assert_eq!(canonical("C13-14 lsoparaffin"), Some("C13-14 Isoparaffin"));
        // Never across digits.
        assert_eq!(canonical("C13-15 Isoparaffin"), None);
        assert_eq!(canonical("Cl 77491"), canonical("CI 77491"));
    }

    fn runs(name: &str) -> Option<Vec<&str>> {
        kb().split_run_together(name)
    }

    #[test]
    fn names_run_together_split_only_when_every_part_is_known() {
        assert_eq!(
            runs("Limonene Linalool"),
            Some(vec!["Limonene", "Linalool"])
        );
        assert_eq!(
            runs("Tetrasodium EDTA Methylparaben"),
            Some(vec!["Tetrasodium EDTA", "Methylparaben"])
        );
        // The fewest runs: a two-word name stays whole.
        assert_eq!(
            runs("C12-15 Alkyl Benzoate Cetearyl Alcohol"),
            Some(vec!["C12-15 Alkyl Benzoate", "Cetearyl Alcohol"])
        );
        // A typo inside a run, as the whole-name step would correct it.
        assert_eq!(
            runs("Ethylhexlgylcerin Parfum"),
            Some(vec!["Ethylhexlgylcerin", "Parfum"])
        );
        // A word not known, one name, CJK text, a sentence: not split.
        assert_eq!(runs("Natural Rose Fragrance"), None);
        assert_eq!(runs("Glycerin"), None);
        assert_eq!(runs("砂糖 食塩"), None);
        assert_eq!(runs(&"salt ".repeat(MAX_RUN_TOGETHER_WORDS + 1)), None);
    }

    #[test]
    fn seed_oils_and_zeros_read_as_letters() {
        assert_eq!(canonical("olio di semi di girasole"), Some("Sunflower Oil"));
        assert_eq!(canonical("olio di semi girasole"), Some("Sunflower Oil"));
        assert_eq!(
            canonical("aceite de semillas de girasol"),
            Some("Sunflower Oil")
        );
        assert_eq!(seed_oil("olio di semi"), None);
        assert_eq!(canonical("PEG-9OM"), canonical("PEG-90M"));
        assert!(canonical("PEG-90M").is_some());
        assert_eq!(o_for_zero("peg 9om").as_deref(), Some("peg 90m"));
        // Only after a digit, in a word that starts with one.
        assert_eq!(o_for_zero("polyoxyl 40"), None);
        assert_eq!(o_for_zero("b2o"), None);
    }

    #[test]
    fn mono_and_diglycerides_spelled_out_are_the_additive() {
        assert!(canonical("monoglycerides and diglycerides of fatty acids").is_some());
        assert_eq!(mono_and_di("monoglycerides and triglycerides"), None);
        assert_eq!(
            mono_and_di("esteres lacticos de monogliceridos y digliceridos de acidos grasos")
                .as_deref(),
            Some("esteres lacticos de mono y digliceridos de acidos grasos")
        );
        assert!(
            kb().lookup("esteres lacticos de mono y digliceridos de acidos grasos")
                .is_some()
        );
        assert_eq!(
            canonical("ésteres lácticos de monoglicéridos y diglicéridos de ácidos grasos"),
            canonical("ésteres lácticos de mono- y diglicéridos de ácidos grasos")
        );
    }

    #[test]
    fn plurals_and_slash_forms() {
        assert_eq!(canonical("Peanuts"), Some("Peanut"));
        assert_eq!(canonical("Erdnüssen"), Some("Peanut"));
        // Accents tell apart names that fold alike: es "cacao" is cocoa, pt "cação" dogfish.
        let cacao = kb().resolve("cacao").expect("cacao");
        assert_eq!(
            (cacao.ingredient.name.as_str(), cacao.also.len()),
            ("Cocoa", 0)
        );
        assert_eq!(canonical("cação"), Some("Shark"));
        assert_eq!(canonical("roasted chopped hazelnuts"), Some("Hazelnut"));
        assert_eq!(canonical("fat-reduced cocoa"), canonical("cocoa"));
        assert_eq!(canonical("other nuts"), canonical("nuts"));
        assert_eq!(canonical("Parfum/Fragrance"), Some("Parfum"));
        let r = kb().resolve("Glycerin/Glycerine/Glycérol").expect("slash");
        assert!(matches!(r.kind, MatchKind::Exact | MatchKind::SlashPart));
    }

    #[test]
    fn names_in_a_language_include_translations() {
        assert!(kb().names_in("fr").any(|n| n == "benzoate de sodium"));
        assert!(kb().names_in("xx").next().is_none());
    }
}
