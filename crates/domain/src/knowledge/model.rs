//! What an entry of the knowledge base is ([`Ingredient`]) and the facts it carries: allergen
//! groups, regulatory statuses, the IARC group, concerns with their sources, its names in the
//! label languages (`crates/domain/data/SCHEMA.md`).

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::language::Language;
use crate::vocabulary::{Origin, ProductCategory};

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
    /// A preparation named by the plant it is made from ("huile essentielle de rose",
    /// "Absolue de tonka (Dipteryx odorata)"): whatever plant the label names beside it, it
    /// is this preparation.
    #[serde(default)]
    pub named_by_plant: bool,
    /// Translated label names by language code.
    #[serde(default)]
    pub names: BTreeMap<String, Names>,
    /// A food entry's judgement when it is an ingredient of a cosmetic product, where limits
    /// on what is eaten do not apply (salt in shampoo, sugar in a scrub).
    #[serde(default)]
    pub in_cosmetics: Option<CosmeticUse>,
    /// Vegan, vegetarian or of animal origin ([`super::facts::Diet`]; vegan when absent).
    #[serde(default)]
    pub diet: super::facts::Diet,
    /// Made from the oil palm, or maybe ([`super::facts::Palm`]; not when absent).
    #[serde(default)]
    pub palm: Option<super::facts::Palm>,
    /// NOVA role: 1 unprocessed food, 2 culinary ingredient, 3 processed food, 4 a marker of
    /// ultra-processing; absent, 1 for a food and none for a cosmetic-only entry.
    #[serde(default)]
    pub nova: Option<u8>,
    /// The INS number when it is more specific than the E-number (`322(i)` for lecithin).
    #[serde(default)]
    pub ins: Option<String>,
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
