//! What a user calls an allergy, mapped to allergen groups (`data/allergy-aliases.toml`).
//!
//! [`DeclaredAllergy::parse`] turns "Milk/Dairy", "Wheat/Gluten", "Shellfish", "lait" or "우유"
//! into [`AllergenGroup`]s. A word that names no group is kept as a folded name, which the
//! analysis matches against ingredient names word by word (never inside a word).

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use serde::Deserialize;

use super::AllergenGroup;
use super::fold::fold;

/// The alias file, embedded.
pub const ALIASES_FILE: &str = include_str!("../../data/allergy-aliases.toml");

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AliasFile {
    groups: BTreeMap<AllergenGroup, Vec<String>>,
    #[serde(default)]
    substitutes: BTreeMap<AllergenGroup, Vec<String>>,
}

/// Folded allergy word → groups.
#[derive(Debug)]
pub struct AllergyAliases {
    words: HashMap<String, Vec<AllergenGroup>>,
    substitutes: BTreeMap<AllergenGroup, Vec<String>>,
}

static ALIASES: OnceLock<AllergyAliases> = OnceLock::new();

/// Words a user adds to an allergen that do not change which allergen it is.
const NOISE_SUFFIXES: &[&str] = &[
    " allergy",
    " allergies",
    " intolerance",
    " sensitivity",
    " free",
    " allergie",
    " allergique",
    " alergia",
    " allergia",
    " alergia a",
    " unvertraglichkeit",
];
const NOISE_PREFIXES: &[&str] = &[
    "allergy to ",
    "allergic to ",
    "allergie au ",
    "allergie aux ",
    "allergie a ",
    "alergia a ",
    "alergia al ",
    "allergia a ",
    "allergia al ",
];

impl AllergyAliases {
    /// The embedded alias table.
    pub fn embedded() -> &'static AllergyAliases {
        ALIASES.get_or_init(|| {
            // Embedded at compile time and parsed by the unit tests below.
            Self::parse(ALIASES_FILE).expect("allergy-aliases.toml is valid (unit tested)")
        })
    }

    /// Parses an alias file.
    pub fn parse(text: &str) -> Result<Self, toml::de::Error> {
        let file: AliasFile = toml::from_str(text)?;
        let mut words: HashMap<String, Vec<AllergenGroup>> = HashMap::new();
        for (group, list) in &file.groups {
            let group = *group;
            for word in list {
                let slot = words.entry(fold(word)).or_default();
                if !slot.contains(&group) {
                    slot.push(group);
                }
            }
        }
        Ok(Self {
            words,
            substitutes: file.substitutes,
        })
    }

    /// The groups a folded word names.
    pub fn groups(&self, folded: &str) -> Option<&[AllergenGroup]> {
        self.words.get(folded).map(Vec::as_slice)
    }

    /// Allergen-free swaps for a group (canonical entry names).
    pub fn substitutes(&self, group: AllergenGroup) -> &[String] {
        self.substitutes.get(&group).map_or(&[], Vec::as_slice)
    }

    /// Every group with substitutes.
    pub fn substitute_groups(&self) -> impl Iterator<Item = (AllergenGroup, &[String])> {
        self.substitutes.iter().map(|(g, v)| (*g, v.as_slice()))
    }

    /// Number of known words.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    fn find(&self, folded: &str) -> Option<&[AllergenGroup]> {
        if let Some(g) = self.groups(folded) {
            return Some(g);
        }
        let mut word = folded;
        for p in NOISE_PREFIXES {
            if let Some(rest) = word.strip_prefix(p) {
                word = rest;
            }
        }
        for s in NOISE_SUFFIXES {
            if let Some(rest) = word.strip_suffix(s) {
                word = rest;
            }
        }
        if let Some(g) = self.groups(word) {
            return Some(g);
        }
        word.strip_suffix('s').and_then(|w| self.groups(w))
    }
}

/// One allergy as the user declared it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclaredAllergy {
    /// As given (trimmed).
    pub given: String,
    /// The groups it names (may be empty).
    pub groups: Vec<AllergenGroup>,
    /// Folded parts that named no group: matched against ingredient names by whole words.
    pub words: Vec<String>,
}

impl DeclaredAllergy {
    /// Maps a declared allergy to groups, splitting combined forms ("Milk/Dairy",
    /// "Wheat & Gluten", "nuts and peanuts").
    pub fn parse(given: &str) -> Self {
        let aliases = AllergyAliases::embedded();
        let given = given.trim().to_owned();
        let whole = fold(&given);
        let mut groups = Vec::new();
        let mut words = Vec::new();
        if let Some(g) = aliases.find(&whole) {
            groups.extend_from_slice(g);
        } else {
            let split: Vec<String> = given
                .split(['/', ',', '&', '+', ';', '|', '、', '，'])
                .flat_map(|p| {
                    let f = fold(p);
                    f.split(" and ")
                        .flat_map(|q| q.split(" or "))
                        .map(str::to_owned)
                        .collect::<Vec<_>>()
                })
                .filter(|p| !p.is_empty())
                .collect();
            for part in split {
                match aliases.find(&part) {
                    Some(g) => {
                        for group in g {
                            if !groups.contains(group) {
                                groups.push(*group);
                            }
                        }
                    }
                    None => words.push(part),
                }
            }
        }
        Self {
            given,
            groups,
            words,
        }
    }

    /// Whether nothing could be made of it (blank).
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty() && self.words.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use AllergenGroup::*;

    fn groups(word: &str) -> Vec<AllergenGroup> {
        let mut g = DeclaredAllergy::parse(word).groups;
        g.sort();
        g
    }

    #[test]
    fn every_group_has_words() {
        let file: AliasFile = toml::from_str(ALIASES_FILE).unwrap();
        for g in AllergenGroup::ALL {
            assert!(file.groups.get(&g).is_some_and(|w| !w.is_empty()), "{g:?}");
        }
    }

    #[test]
    fn common_names_map_to_groups() {
        for (word, expected) in [
            ("milk", vec![Milk]),
            ("Milk/Dairy", vec![Milk]),
            ("dairy", vec![Milk]),
            ("Lactose", vec![Milk]),
            ("Wheat/Gluten", vec![Gluten]),
            ("gluten", vec![Gluten]),
            ("Peanut", vec![Peanuts]),
            ("Tree Nut", vec![Nuts]),
            ("Tree Nuts", vec![Nuts]),
            ("Shellfish", vec![Crustaceans, Molluscs]),
            ("Soy", vec![Soybeans]),
            ("Egg", vec![Eggs]),
            ("Sesame", vec![Sesame]),
            ("Sulfites", vec![Sulphites]),
            ("Fragrance", vec![Fragrance]),
            ("Parabens", vec![Parabens]),
            ("Sulfates", vec![Sulfates]),
            ("Formaldehyde", vec![Formaldehyde]),
            ("lait", vec![Milk]),
            ("Milch", vec![Milk]),
            ("우유", vec![Milk]),
            ("牛奶", vec![Milk]),
            ("cacahuète", vec![Peanuts]),
            ("peanut allergy", vec![Peanuts]),
            ("nuts and peanuts", vec![Peanuts, Nuts]),
        ] {
            assert_eq!(groups(word), expected, "{word}");
        }
    }

    #[test]
    fn unknown_words_are_kept_for_name_matching() {
        let a = DeclaredAllergy::parse("Kiwi");
        assert!(a.groups.is_empty());
        assert_eq!(a.words, vec!["kiwi".to_owned()]);
        let b = DeclaredAllergy::parse("Milk / strawberry");
        assert_eq!(b.groups, vec![Milk]);
        assert_eq!(b.words, vec!["strawberry".to_owned()]);
    }
}
