//! Families of ingredients a shopper avoids by one word ("silicones", "palm oil", "mineral
//! oils"), in the nine label languages (`data/avoid-families.toml`), and which ingredients
//! belong to each: by a product fact, a skin flag, canonical names, or the stems of INCI
//! names.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

use super::{Ingredient, SkinFlag};
use crate::text::fold::fold;
use crate::text::script::is_cjk;

/// The families file, embedded.
pub const FAMILIES_FILE: &str = include_str!("../../data/avoid-families.toml");

/// One family.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Family {
    /// How the family is named to the user.
    pub label: String,
    /// What shoppers call it, in the nine languages.
    pub names: Vec<String>,
    /// Members: entries made from the oil palm.
    #[serde(default)]
    pub palm: bool,
    /// Members: entries with this skin flag.
    #[serde(default)]
    pub skin: Option<SkinFlag>,
    /// Members: these entries (canonical names).
    #[serde(default)]
    pub entries: Vec<String>,
    /// Members: entries with a name (canonical or synonym), or names as printed, with a word
    /// starting with one of these (folded).
    #[serde(default)]
    pub stems: Vec<String>,
    /// A source id.
    pub source: String,
    /// `names`, folded, as whole words (filled at load): single words, phrases that hold none
    /// of the single words, and CJK names.
    #[serde(skip)]
    folded: FoldedNames,
}

/// A family's names folded for [`Family::named_in`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct FoldedNames {
    words: Vec<String>,
    phrases: Vec<String>,
    cjk: Vec<String>,
}

impl FoldedNames {
    fn of(names: &[String]) -> Self {
        let mut out = Self::default();
        let all: Vec<String> = names.iter().map(|n| fold(n)).collect();
        for n in &all {
            if n.chars().any(is_cjk) {
                out.cjk.push(n.clone());
            } else if !n.contains(' ') {
                out.words.push(n.clone());
            }
        }
        for n in all
            .iter()
            .filter(|n| n.contains(' ') && !n.chars().any(is_cjk))
        {
            // "palm oil" is found by "palm" already.
            if !n.split(' ').any(|w| out.words.iter().any(|x| x == w)) {
                out.phrases.push(n.clone());
            }
        }
        out.words.sort();
        out.words.dedup();
        out
    }
}

impl Family {
    /// Whether the entry belongs to the family.
    pub fn has(&self, ing: &Ingredient) -> bool {
        (self.palm && ing.palm == Some(super::facts::Palm::Yes))
            || self.skin.is_some_and(|s| ing.skin.contains(&s))
            || self.entries.contains(&ing.name)
            || (!self.stems.is_empty()
                && ing.primary_names().any(|n| self.names_a_member(&fold(n))))
    }

    /// Whether a folded text names the family ("partially hydrogenated palm and canola oils"
    /// names palm oil): one of its names as whole words, or inside CJK text.
    pub fn named_in(&self, folded: &str) -> bool {
        let names = &self.folded;
        folded
            .split(' ')
            .any(|w| names.words.iter().any(|n| n == w))
            || names.phrases.iter().any(|n| {
                // As whole words: at the start or after a space, and at the end or before one.
                folded.match_indices(n.as_str()).any(|(at, _)| {
                    let end = at + n.len();
                    (at == 0 || folded.as_bytes()[at - 1] == b' ')
                        && (end == folded.len() || folded.as_bytes()[end] == b' ')
                })
            })
            || (!folded.is_ascii() && names.cjk.iter().any(|n| folded.contains(n.as_str())))
    }

    /// Whether a folded name has a word that starts with one of the family's stems.
    pub fn names_a_member(&self, folded: &str) -> bool {
        !self.stems.is_empty()
            && folded.split([' ', '/']).any(|word| {
                self.stems
                    .iter()
                    .any(|s| word.starts_with(s.as_str()) && !word.is_empty())
            })
    }
}

/// Every family, with its names folded for lookup.
#[derive(Debug)]
pub struct Families {
    families: Vec<Family>,
    by_name: BTreeMap<String, usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FamiliesFile {
    family: Vec<Family>,
}

/// Why the families file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum FamiliesError {
    /// The file is not valid TOML of the expected shape.
    #[error("avoid-families.toml: {0}")]
    Toml(#[from] toml::de::Error),
    /// Two families share a name.
    #[error("avoid-families.toml: '{0}' names two families")]
    Ambiguous(String),
}

impl Families {
    /// The embedded families, parsed once.
    pub fn embedded() -> &'static Families {
        static FAMILIES: OnceLock<Families> = OnceLock::new();
        FAMILIES.get_or_init(|| {
            Families::parse(FAMILIES_FILE).expect("avoid-families.toml is valid (unit tested)")
        })
    }

    /// Parses a families file; a name of two families is refused.
    pub fn parse(text: &str) -> Result<Self, FamiliesError> {
        let mut file: FamiliesFile = toml::from_str(text)?;
        for family in &mut file.family {
            family.folded = FoldedNames::of(&family.names);
        }
        let mut by_name = BTreeMap::new();
        for (i, family) in file.family.iter().enumerate() {
            for name in &family.names {
                let key = fold(name);
                if by_name
                    .insert(key.clone(), i)
                    .is_some_and(|other| other != i)
                {
                    return Err(FamiliesError::Ambiguous(name.clone()));
                }
            }
        }
        Ok(Self {
            families: file.family,
            by_name,
        })
    }

    /// The family a declared allergy names ("Silikone", "huile de palme"), if any.
    pub fn named(&self, allergy: &str) -> Option<&Family> {
        self.by_name.get(&fold(allergy)).map(|i| &self.families[*i])
    }

    /// Every family.
    pub fn all(&self) -> &[Family] {
        &self.families
    }

    /// The family of the oil palm.
    pub fn palm(&self) -> Option<&Family> {
        self.families.iter().find(|f| f.palm)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knowledge::KnowledgeBase;

    #[test]
    fn the_file_parses_and_every_name_is_found() {
        let families = Families::embedded();
        assert!(families.all().len() >= 7);
        for f in families.all() {
            for name in &f.names {
                assert_eq!(
                    families.named(name).map(|x| &x.label),
                    Some(&f.label),
                    "{name}"
                );
            }
        }
        assert_eq!(families.named("Silikone").unwrap().label, "silicones");
        assert_eq!(families.named("HUILE DE PALME").unwrap().label, "palm oil");
        assert!(families.named("kiwi").is_none());
    }

    #[test]
    fn a_name_of_two_families_is_refused() {
        let text = "[[family]]\nlabel = \"a\"\nnames = [\"x\"]\nsource = \"s\"\n\
                    [[family]]\nlabel = \"b\"\nnames = [\"X\"]\nsource = \"s\"\n";
        assert!(matches!(
            Families::parse(text),
            Err(FamiliesError::Ambiguous(_))
        ));
    }

    #[test]
    fn members_are_found_by_fact_flag_name_and_stem() {
        let kb = KnowledgeBase::embedded();
        let families = Families::embedded();
        let entry = |n: &str| kb.resolve(n).unwrap().ingredient;
        let silicones = families.named("silicones").unwrap();
        for member in ["Dimethicone", "Cyclopentasiloxane", "Amodimethicone"] {
            assert!(silicones.has(entry(member)), "{member}");
        }
        assert!(!silicones.has(entry("Silica")));
        assert!(silicones.names_a_member(&fold("PEG-12 Dimethicone")));
        let palm = families.named("palm oil").unwrap();
        assert!(palm.has(entry("Palm Kernel Oil")));
        assert!(!palm.has(entry("Vegetable Oil")));
        let mineral = families.named("mineral oils").unwrap();
        assert!(mineral.has(entry("Paraffinum Liquidum")));
    }

    /// Every entry a family names exists, and no family name is an allergen-group word.
    #[test]
    fn families_name_real_entries_and_no_allergen_group() {
        let kb = KnowledgeBase::embedded();
        let aliases = crate::knowledge::allergy::AllergyAliases::embedded();
        for f in Families::embedded().all() {
            for e in &f.entries {
                assert!(kb.lookup(e).is_some(), "{}: no entry '{e}'", f.label);
            }
            for n in &f.names {
                assert!(
                    aliases.groups(&fold(n)).is_none(),
                    "'{n}' is an allergen-group word"
                );
            }
            assert!(
                kb.source(&f.source).is_some(),
                "{}: source {}",
                f.label,
                f.source
            );
        }
    }
}
