//! What an entry is made from and how processed it is, for the product verdicts of
//! `/analyze`: its diet status ([`Diet`]), palm origin ([`Palm`]) and NOVA role (the
//! entry's `nova`), written per entry in `data/*.toml` (SCHEMA.md, "Product facts"); and the
//! names of the additive groups whose members carry a sub-number (`data/additive-groups.toml`:
//! E 500 "Sodium carbonates" for E 500(ii) sodium hydrogen carbonate).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::Source;

/// Whether an ingredient suits vegans and vegetarians, by the definitions of ISO 23662:2021
/// (source `iso-23662-2021`): vegetarian excludes what comes from slaughtered or killed
/// animals, vegan excludes every ingredient of animal origin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Diet {
    /// No animal material: plants, fungi, micro-organisms, minerals, synthesis. The default.
    #[default]
    Vegan,
    /// Of animals that are not killed for it: milk, eggs, honey, beeswax, lanolin.
    Vegetarian,
    /// Not vegan; vegetarian unless made with animal rennet or gelatine, which the list does
    /// not say (cheese, whey, gummy sweets).
    MaybeVegetarian,
    /// Of a killed animal: meat, fish, seafood, gelatine, animal fats, rennet, carmine, shellac.
    Animal,
    /// Vegetarian; vegan unless made from egg or wool grease, which the list does not say
    /// (lecithin, cholesterol, baked goods that may hold milk or egg).
    MaybeVegan,
    /// May come from a slaughtered animal or not (mono- and diglycerides, stearic acid and
    /// stearates, natural flavourings, vitamin D3).
    Maybe,
}

/// One of a product's answers: `yes`, `no`, `maybe`, or `unknown` when too little of the list
/// is recognised to say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Answer {
    /// Yes.
    Yes,
    /// It depends on what the list does not say.
    Maybe,
    /// No.
    No,
    /// Too much of the list is unrecognised to say.
    Unknown,
}

impl Answer {
    /// The answer as the API writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Yes => "yes",
            Self::Maybe => "maybe",
            Self::No => "no",
            Self::Unknown => "unknown",
        }
    }
}

impl Diet {
    /// Whether an ingredient of this status is vegan.
    pub fn vegan(self) -> Answer {
        match self {
            Self::Vegan => Answer::Yes,
            Self::Maybe | Self::MaybeVegan => Answer::Maybe,
            Self::Vegetarian | Self::MaybeVegetarian | Self::Animal => Answer::No,
        }
    }

    /// Whether an ingredient of this status is vegetarian.
    pub fn vegetarian(self) -> Answer {
        match self {
            Self::Vegan | Self::Vegetarian | Self::MaybeVegan => Answer::Yes,
            Self::Maybe | Self::MaybeVegetarian => Answer::Maybe,
            Self::Animal => Answer::No,
        }
    }
}

/// Whether an entry is made from the oil palm (source `eu-1169-2011-annex-vii`: refined
/// vegetable oils and fats must name their plant, "palm", on a label).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Palm {
    /// Palm oil or fat, palm kernel oil, their fractions and soaps.
    Yes,
    /// An oil or fat whose plant the name does not say, or partial glycerides of fatty
    /// acids (mono- and diglycerides, E 471, E 472a–f), most often made from palm oil.
    Maybe,
}

/// The source every explicit fact of a kind cites, which an entry with that fact lists among
/// its `sources` (checked by `tests/kb_integrity.rs`). They support the fact, not a concern,
/// so they are not among an ingredient's `references`.
pub const FACT_SOURCES: [(&str, &str); 3] = [
    ("diet", "iso-23662-2021"),
    ("palm", "eu-1169-2011-annex-vii"),
    ("nova", "monteiro-2019-nova"),
];

/// The source of the vitamins and minerals that may be added to foods (Regulation (EC)
/// No 1925/2006 Annex II): an entry citing it is a nutrient.
pub const NUTRIENT_SOURCE: &str = "vm-eu-1925-2006-annex-ii";

/// Whether the entry is a vitamin or mineral that may be added to foods as a nutrient.
pub fn is_nutrient(ing: &super::Ingredient) -> bool {
    ing.sources.iter().any(|s| s == NUTRIENT_SOURCE)
}

/// Whether `id` is one of [`FACT_SOURCES`].
pub fn is_fact_source(id: &str) -> bool {
    FACT_SOURCES.iter().any(|(_, s)| *s == id)
}

/// The additive groups file, embedded.
pub const GROUPS_FILE: &str = include_str!("../../data/additive-groups.toml");

/// The names of additive groups whose members carry a sub-number: `E500` → "Sodium
/// carbonates" (Regulation (EC) No 1333/2008 Annex II; Codex CXG 36-1989 for INS
/// sub-numbers the Union list does not use).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdditiveGroups {
    #[serde(default)]
    sources: BTreeMap<String, Source>,
    group: Vec<AdditiveGroup>,
    /// Additives that are as often a nutrient: listed only with their function or number.
    #[serde(default)]
    named_with_function: Vec<AdditiveGroup>,
    /// Additives that can be a vitamin or mineral form added for its own sake.
    #[serde(default)]
    nutrient_form: Vec<AdditiveGroup>,
}

/// One additive group.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdditiveGroup {
    /// The group's number, `E500` style.
    pub code: String,
    /// Its name on the Union list.
    pub name: String,
    /// A source id.
    pub source: String,
}

impl AdditiveGroups {
    /// The embedded groups, parsed once.
    pub fn embedded() -> &'static AdditiveGroups {
        static GROUPS: OnceLock<AdditiveGroups> = OnceLock::new();
        GROUPS.get_or_init(|| {
            toml::from_str(GROUPS_FILE).expect("additive-groups.toml is valid (unit tested)")
        })
    }

    /// The group's name, by its code (`E500`, case-insensitive).
    pub fn name(&self, code: &str) -> Option<&str> {
        self.group
            .iter()
            .find(|g| g.code.eq_ignore_ascii_case(code))
            .map(|g| g.name.as_str())
    }

    /// Whether the additive `code` (`E509`, case-insensitive) is also a vitamin or mineral
    /// form, an additive only where the label names its function or its number.
    pub fn needs_function(&self, code: &str) -> bool {
        self.named_with_function
            .iter()
            .any(|g| g.code.eq_ignore_ascii_case(code))
    }

    /// Whether the additive `code` (`E300`, `E341iii`: a sub-numbered member by its group) can
    /// be a vitamin or mineral form added to a food for its own sake (Regulation (EC) No
    /// 1925/2006 Annex II), so that printed among nutrients it is one.
    pub fn can_be_nutrient(&self, code: &str) -> bool {
        let code = compact_code(code);
        let group = group_of(&code).unwrap_or(&code);
        self.nutrient_form
            .iter()
            .any(|g| g.code.eq_ignore_ascii_case(&code) || g.code.eq_ignore_ascii_case(group))
    }

    /// Every additive that can be a nutrient (see [`Self::can_be_nutrient`]).
    pub fn nutrient_forms(&self) -> &[AdditiveGroup] {
        &self.nutrient_form
    }

    /// Every additive that needs its function named (see [`Self::needs_function`]).
    pub fn named_with_function(&self) -> &[AdditiveGroup] {
        &self.named_with_function
    }

    /// Every group.
    pub fn groups(&self) -> &[AdditiveGroup] {
        &self.group
    }

    /// The sources the file declares.
    pub fn sources(&self) -> &BTreeMap<String, Source> {
        &self.sources
    }
}

/// An E-number with a sub-number written as one code: `E500(ii)` → `E500ii`, `E160a` stays.
pub fn compact_code(code: &str) -> String {
    code.chars()
        .filter(|c| !matches!(c, '(' | ')' | ' '))
        .collect()
}

/// The group part of a code with a roman sub-number (`E500ii` → `E500`, `E160ai` →
/// `E160a`); `None` for a code without one (`E471`; `E150c`: a letter suffix is an additive
/// of its own).
pub fn group_of(code: &str) -> Option<&str> {
    let base = code.trim_end_matches(['i', 'v', 'x']);
    (base.len() < code.len() && base.len() > 1).then_some(base)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diet_answers_follow_the_definitions() {
        assert_eq!(Diet::Vegan.vegan(), Answer::Yes);
        assert_eq!(Diet::Vegetarian.vegan(), Answer::No);
        assert_eq!(Diet::Vegetarian.vegetarian(), Answer::Yes);
        assert_eq!(Diet::MaybeVegetarian.vegetarian(), Answer::Maybe);
        assert_eq!(Diet::Animal.vegetarian(), Answer::No);
        assert_eq!(Diet::MaybeVegan.vegetarian(), Answer::Yes);
        assert_eq!(Diet::Maybe.vegan(), Answer::Maybe);
        assert_eq!(Diet::Maybe.vegetarian(), Answer::Maybe);
    }

    #[test]
    fn codes_compact_and_find_their_group() {
        assert_eq!(compact_code("E500(ii)"), "E500ii");
        assert_eq!(compact_code("E160a"), "E160a");
        assert_eq!(group_of("E500ii"), Some("E500"));
        assert_eq!(group_of("E322i"), Some("E322"));
        assert_eq!(group_of("E160ai"), Some("E160a"));
        assert_eq!(group_of("E471"), None);
        assert_eq!(group_of("E150c"), None);
        assert_eq!(group_of("E472e"), None);
    }

    #[test]
    fn the_groups_file_parses_and_names_its_groups() {
        let groups = AdditiveGroups::embedded();
        assert_eq!(groups.name("E500"), Some("Sodium carbonates"));
        assert!(groups.groups().len() >= 5);
    }

    #[test]
    fn vitamins_and_mineral_salts_can_be_nutrients_gums_cannot() {
        let groups = AdditiveGroups::embedded();
        assert!(groups.can_be_nutrient("E300"));
        assert!(groups.can_be_nutrient("E341(iii)"));
        assert!(groups.can_be_nutrient("e101"));
        assert!(!groups.can_be_nutrient("E414"));
        assert!(!groups.can_be_nutrient("E407"));
        assert!(!groups.can_be_nutrient("E500ii"));
    }
}
