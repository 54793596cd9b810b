//! What a user calls an allergy, mapped to allergen groups (`data/allergy-aliases.toml`).
//!
//! [`DeclaredAllergy::parse`] turns "Milk/Dairy", "Wheat/Gluten", "Shellfish", "lait" or "우유"
//! into [`AllergenGroup`]s. A word that names no group is kept as a folded name, which the
//! analysis matches against ingredient names word by word (never inside a word).

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use serde::Deserialize;

use super::AllergenGroup;
use crate::language::{AllergyWords, Lexicon};
use crate::text::fold::fold;
use crate::text::script::is_cjk;

/// The words around allergen words ([`crate::language`]).
fn words() -> &'static AllergyWords {
    &Lexicon::get().allergy
}

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
    /// The words of food allergen groups written in a script without spaces (乳, 小麦, 밀),
    /// longest first: looked for inside names.
    cjk_words: Vec<(String, Vec<AllergenGroup>)>,
    /// Words of five letters or more that also name their group at the start or end of a
    /// compound ("Weizenmehl", "Vollmilch", "Sojasoße" need "soja" at the start only).
    stems: Vec<(String, Vec<AllergenGroup>)>,
}

/// Adds the food groups of `word` to `out`, each group once (its first word kept).
fn push_found(groups: &[AllergenGroup], word: &str, out: &mut Vec<FoundWord>) {
    for g in groups {
        if g.is_food_allergen() && !out.iter().any(|f| f.group == *g) {
            out.push(FoundWord {
                group: *g,
                word: word.to_owned(),
            });
        }
    }
}

/// One allergen word found in a name by [`AllergyAliases::words_in`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundWord {
    /// The group it names.
    pub group: AllergenGroup,
    /// The word as folded ("lait", "weizen", "乳").
    pub word: String,
}

static ALIASES: OnceLock<AllergyAliases> = OnceLock::new();

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
        let food = |groups: &[AllergenGroup]| -> Vec<AllergenGroup> {
            groups
                .iter()
                .copied()
                .filter(|g| g.is_food_allergen())
                .collect()
        };
        let mut cjk_words: Vec<(String, Vec<AllergenGroup>)> = Vec::new();
        let mut stems: Vec<(String, Vec<AllergenGroup>)> = Vec::new();
        let lexicon = self::words();
        for (word, groups) in &words {
            let groups = food(groups);
            if groups.is_empty() || lexicon.not_ingredient.contains(word) {
                continue;
            }
            if word.chars().any(is_cjk) {
                cjk_words.push((word.clone(), groups));
            } else if word.chars().count() >= 5
                && !word.contains(' ')
                && !lexicon.whole_word_only.contains(word)
            {
                stems.push((word.clone(), groups));
            }
        }
        // Longest first, so that "乳製品" is found before "乳"; then by word, for stable output.
        let by_length = |a: &(String, Vec<AllergenGroup>), b: &(String, Vec<AllergenGroup>)| {
            b.0.len().cmp(&a.0.len()).then_with(|| a.0.cmp(&b.0))
        };
        cjk_words.sort_by(by_length);
        stems.sort_by(by_length);
        Ok(Self {
            words,
            substitutes: file.substitutes,
            cjk_words,
            stems,
        })
    }

    /// The food allergen words in a folded ingredient name, for names the knowledge base does
    /// not know as a whole: whole words and runs of up to three words ("lait", "egg white"),
    /// German-style compounds that start or end with a word of five letters or more
    /// ("weizenmehl", "vollmilch"), and words written without spaces inside CJK names (乳,
    /// 小麦, 밀가루). A word next to a negation ("sans gluten", "gluten free") does not count,
    /// nor "milk" or "nut" in a name that says whose ("coconut milk", "noix de muscade").
    pub fn words_in(&self, folded: &str) -> Vec<FoundWord> {
        self.words_in_with(folded, &|_| Vec::new())
    }

    /// [`AllergyAliases::words_in`], also asking `lookup` for the groups of each run of words
    /// the alias table does not know (the knowledge base's names: "emmental", "mozzarella").
    pub fn words_in_with(
        &self,
        folded: &str,
        lookup: &dyn Fn(&str) -> Vec<AllergenGroup>,
    ) -> Vec<FoundWord> {
        let mut out: Vec<FoundWord> = Vec::new();
        let push = push_found;
        let lexicon = words();
        let tokens: Vec<&str> = folded.split(' ').filter(|t| !t.is_empty()).collect();
        let plant = tokens.iter().any(|t| lexicon.plant.iter().any(|p| p == t));
        let negated = |start: usize, end: usize| {
            let before = start.checked_sub(1).map(|i| tokens[i]);
            let before2 = start
                .checked_sub(2)
                .map(|i| format!("{} {}", tokens[i], tokens[i + 1]));
            let after = tokens.get(end).copied();
            before.is_some_and(|b| lexicon.negations_before.contains(b))
                || before2.is_some_and(|b| lexicon.negations_before.contains(&b))
                || after.is_some_and(|a| lexicon.negations_after.iter().any(|n| n == a))
        };
        let keep = |groups: &[AllergenGroup]| -> Vec<AllergenGroup> {
            groups
                .iter()
                .copied()
                .filter(|g| {
                    g.is_food_allergen()
                        && !(plant && matches!(g, AllergenGroup::Milk | AllergenGroup::Nuts))
                })
                .collect()
        };
        // Groups a negation names ("gluten-free bread"): the whole name is free of them.
        let mut refused: Vec<AllergenGroup> = Vec::new();
        let mut i = 0;
        while i < tokens.len() {
            let mut matched = 0;
            for n in (1..=3.min(tokens.len() - i)).rev() {
                let phrase = tokens[i..i + n].join(" ");
                if lexicon.not_ingredient.contains(&phrase) {
                    continue;
                }
                let hit = self
                    .groups(&phrase)
                    .or_else(|| {
                        phrase
                            .strip_suffix('s')
                            .filter(|p| p.len() >= 3)
                            .and_then(|p| self.groups(p))
                    })
                    .map(<[AllergenGroup]>::to_vec)
                    .or_else(|| {
                        let groups = lookup(&phrase);
                        (!groups.is_empty()).then_some(groups)
                    });
                if let Some(groups) = hit {
                    if negated(i, i + n) {
                        refused.extend(groups.iter().copied());
                    } else {
                        push(&keep(&groups), &phrase, &mut out);
                    }
                    matched = n;
                    break;
                }
            }
            if matched == 0 {
                let token = tokens[i];
                if token.chars().any(is_cjk) {
                    self.cjk_in(token, &keep, &mut out);
                } else if !negated(i, i + 1)
                    && !lexicon
                        .negations_after
                        .iter()
                        .any(|n| token.ends_with(n.as_str()))
                {
                    for (stem, groups) in &self.stems {
                        if token.len() >= stem.len() + 3
                            && token.contains(stem.as_str())
                            && !lexicon.plant.iter().any(|p| token.starts_with(p.as_str()))
                        {
                            // "Mandelmilch" names the almond, not milk.
                            let plant_milk = lexicon
                                .plant_milk
                                .iter()
                                .any(|p| token.starts_with(p.as_str()));
                            let groups: Vec<AllergenGroup> = keep(groups)
                                .into_iter()
                                .filter(|g| !(plant_milk && *g == AllergenGroup::Milk))
                                .collect();
                            push(&groups, stem, &mut out);
                        }
                    }
                }
            }
            i += matched.max(1);
        }
        out.retain(|f| !refused.contains(&f.group));
        out
    }

    /// The food allergen groups a folded name says it is free of: a group's word next to a
    /// negation ("gluten free flour", "sans gluten", "senza glutine") or written with one
    /// ("glutenfrei").
    pub fn negated_groups(&self, folded: &str) -> Vec<AllergenGroup> {
        let lexicon = words();
        let tokens: Vec<&str> = folded.split(' ').filter(|t| !t.is_empty()).collect();
        let mut out: Vec<AllergenGroup> = Vec::new();
        for i in 0..tokens.len() {
            for n in 1..=3.min(tokens.len() - i) {
                let phrase = tokens[i..i + n].join(" ");
                let Some(groups) = self.groups(&phrase) else {
                    continue;
                };
                let before = i.checked_sub(1).map(|b| tokens[b]);
                let before2 = i
                    .checked_sub(2)
                    .map(|b| format!("{} {}", tokens[b], tokens[b + 1]));
                let after = tokens.get(i + n).copied();
                if before.is_some_and(|b| lexicon.negations_before.contains(b))
                    || before2.is_some_and(|b| lexicon.negations_before.contains(&b))
                    || after.is_some_and(|a| lexicon.negations_after.iter().any(|n| n == a))
                {
                    out.extend(groups.iter().filter(|g| g.is_food_allergen()));
                }
            }
            for negation in &lexicon.negations_after {
                if let Some(stem) = tokens[i].strip_suffix(negation.as_str())
                    && let Some(groups) = self.groups(stem)
                {
                    out.extend(groups.iter().filter(|g| g.is_food_allergen()));
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// The CJK allergen words inside one token, longest first, each character read once.
    fn cjk_in(
        &self,
        token: &str,
        keep: &dyn Fn(&[AllergenGroup]) -> Vec<AllergenGroup>,
        out: &mut Vec<FoundWord>,
    ) {
        // Compounds where the word means something else: 乳化 (emulsified), 乳酸 (lactic
        // acid), 豆乳 (soy milk), 無乳 / 不含 (without), ココナッツミルク.
        let mut rest = token.to_owned();
        for n in &words().cjk_not_allergen {
            if rest.contains(n.as_str()) {
                rest = rest.replace(n.as_str(), " ");
            }
        }
        for (word, groups) in &self.cjk_words {
            if rest.contains(word.as_str()) {
                push_found(&keep(groups), word, out);
                rest = rest.replace(word.as_str(), " ");
            }
        }
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
        let lexicon = words();
        for p in &lexicon.noise_before {
            if let Some(rest) = word.strip_prefix(p.as_str()) {
                word = rest;
            }
        }
        for s in &lexicon.noise_after {
            if let Some(rest) = word.strip_suffix(s.as_str()) {
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
    fn allergen_words_are_found_inside_names_by_word_compound_and_script() {
        let found = |name: &str| -> Vec<(AllergenGroup, String)> {
            AllergyAliases::embedded()
                .words_in(&fold(name))
                .into_iter()
                .map(|f| (f.group, f.word))
                .collect()
        };
        assert_eq!(
            found("lait de brebis pasteurisé"),
            [(Milk, "lait".to_owned())]
        );
        assert_eq!(found("_Weizen_mehl"), [(Gluten, "weizen".to_owned())]);
        assert_eq!(
            found("Weizenmehl Type 550"),
            [(Gluten, "weizen".to_owned())]
        );
        assert_eq!(found("Vollmilchpulver"), [(Milk, "milch".to_owned())]);
        assert_eq!(found("Mandelmilch"), [(Nuts, "mandel".to_owned())]);
        // Oats are an Annex II cereal; the drink is no milk.
        assert_eq!(found("Hafermilch"), [(Gluten, "hafer".to_owned())]);
        assert_eq!(found("香料(乳由来)"), [(Milk, "乳".to_owned())]);
        assert_eq!(found("밀가루"), [(Gluten, "밀".to_owned())]);
        assert_eq!(
            found("egg whites powder"),
            [(Eggs, "egg whites".to_owned())]
        );
        for none in [
            "sans gluten",
            "gluten free",
            "glutenfrei",
            "lactose-free",
            "乳化剤",
            "乳酸",
            "豆乳",
            "coconut milk",
            "noix de coco râpée",
            "buckwheat groats",
            "cacao en polvo",
            "cereal bar",
            "Kokosmilch",
        ] {
            assert!(found(none).is_empty(), "{none}: {:?}", found(none));
        }
        // Fragrance and other cosmetic groups are no food allergens: never found by word.
        assert!(found("parfum naturel").is_empty());
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
