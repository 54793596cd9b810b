//! How a translated list is written in English, beside the names the knowledge base holds
//! (`data/language/label-english.toml`): the INCI names of entries whose canonical name is a
//! food name, UK/EU label spelling, and the names label English writes in the plural; with the
//! words of `names.toml` that qualify a name (`entier` → Whole) or say which English name it
//! is (`pâte` → Mass).

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::Deserialize;

use super::Language;
use super::classes::FunctionClasses;
pub use super::classes::{Class, Number};
use crate::text::fold::fold;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    inci: BTreeMap<String, String>,
    traditional: TraditionalFile,
    food_names: BTreeMap<String, String>,
    label_names: BTreeMap<String, BTreeMap<String, String>>,
    vitamins: BTreeMap<String, Vec<String>>,
    cosmetic_names: BTreeMap<String, BTreeMap<String, String>>,
    contains: BTreeMap<String, Vec<String>>,
    including: BTreeMap<String, Vec<String>>,
    proportions: BTreeMap<String, Vec<String>>,
    derived: DerivedFile,
    bracket_words: BTreeMap<String, BTreeMap<String, String>>,
    quantity_units: Vec<String>,
    capitals: CapitalsFile,
    plural_in_lists: PluralFile,
    spelling: BTreeMap<String, String>,
    joiners: BTreeMap<String, BTreeMap<String, String>>,
    household: HouseholdFile,
    and_so_on: AndSoOnFile,
    compounds: CompoundsFile,
    origins: OriginsFile,
    bounds: BTreeMap<String, BTreeMap<String, String>>,
    protected: ProtectedFile,
    grades: BTreeMap<String, Vec<String>>,
}

#[derive(Deserialize)]
struct TraditionalFile {
    characters: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CapitalsFile {
    keep: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DerivedFile {
    words: BTreeMap<String, Vec<String>>,
    names: BTreeMap<String, BTreeMap<String, String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProtectedFile {
    designations: BTreeMap<String, String>,
    kinds: BTreeMap<String, BTreeMap<String, String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CompoundsFile {
    heads: BTreeMap<String, BTreeMap<String, String>>,
    heads_first: BTreeMap<String, BTreeMap<String, String>>,
    animals: BTreeMap<String, BTreeMap<String, String>>,
    abbreviations: BTreeMap<String, BTreeMap<String, String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OriginsFile {
    words: BTreeMap<String, BTreeMap<String, String>>,
    countries: BTreeMap<String, BTreeMap<String, String>>,
    suffixes: BTreeMap<String, Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AndSoOnFile {
    words: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HouseholdFile {
    prepositions: Vec<String>,
    bands: BTreeMap<String, BTreeMap<String, String>>,
    names: BTreeMap<String, BTreeMap<String, String>>,
}

/// The modifiers and naming words of `names.toml` by language: printed form → English.
#[derive(Debug, Default)]
pub(super) struct WrittenTables {
    pub modifiers: BTreeMap<Language, BTreeMap<String, String>>,
    pub naming: BTreeMap<Language, BTreeMap<String, String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PluralFile {
    names: Vec<String>,
    #[serde(default)]
    mass_nouns: Vec<String>,
}

/// The loaded tables, keys folded.
#[derive(Debug)]
pub struct LabelEnglish {
    inci: HashMap<String, String>,
    /// Traditional Chinese characters and their simplified forms.
    simplified: HashMap<char, char>,
    food_names: HashMap<String, String>,
    /// The English a label translator writes for a food name of a label language whose
    /// knowledge-base entry is named otherwise (`현미` Brown Rice, not the entry Rice), by
    /// language, folded.
    label_names: HashMap<Language, HashMap<String, String>>,
    /// The words a CJK label prints before a vitamin's letter (`비타민`, `ビタミン`, `维生素`), by
    /// language, as printed.
    vitamins: HashMap<Language, Vec<String>>,
    /// The INCI names of Korean, Japanese and Chinese cosmetic labelling names no
    /// knowledge-base entry holds (`헥실라우레이트` Hexyl Laurate), by language, folded.
    cosmetic_names: HashMap<Language, HashMap<String, String>>,
    /// The words opening a bracket that names an allergen the product contains (`contient`,
    /// `contiene`), by language, folded, longest first.
    contains: HashMap<Language, Vec<String>>,
    /// The words opening a bracket's part that says what an item includes (`di cui`,
    /// `dont`), by language, folded, longest first.
    including: HashMap<Language, Vec<String>>,
    /// The words saying a mixture's ingredients are in varying proportions, by language,
    /// folded, longest first.
    proportions: HashMap<Language, Vec<String>>,
    /// The CJK words saying what an additive is derived from (`由来`), by language, and the
    /// short English of the sources they follow (`大豆` soy).
    derived_words: HashMap<Language, Vec<String>>,
    derived_names: HashMap<Language, HashMap<String, String>>,
    /// The CJK words a bracket's part prints after a name or between a name and a quantity
    /// (`コンドロイチン含有`, `캡슐향 포함`, `フッ素として1450ppm`), by language, with their
    /// English template (`{before}`, `{after}`: the parts around the word).
    bracket_words: HashMap<Language, Vec<(String, String)>>,
    /// The units a share or quantity is printed in after a name (`%`, `ppm`), as printed.
    quantity_units: Vec<String>,
    /// Words a food label prints in capitals that are no emphasised allergen (`DOP`, `UHT`),
    /// as printed.
    kept_in_capitals: HashSet<String>,
    plural_in_lists: HashSet<String>,
    /// Last words label English never puts in the plural (`Peel`, `Zest`), folded.
    mass_nouns: HashSet<String>,
    spelling: Vec<(String, String)>,
    modifiers: HashMap<Language, Vec<(String, String)>>,
    words: HashMap<Language, Vec<(String, String)>>,
    joiners: HashMap<Language, HashMap<String, String>>,
    /// The words of a household list's weight bands by language (folded, longest first).
    bands: HashMap<Language, Vec<(Vec<String>, String)>>,
    /// Household names by language (folded); `None` holds the names printed alike in all.
    household: HashMap<Option<Language>, HashMap<String, String>>,
    /// The words a band puts before its component, as printed.
    band_prepositions: Vec<String>,
    /// CJK words for "and so on", as printed.
    and_so_on: Vec<String>,
    /// The last parts of a CJK compound name that say what is made of the part before them
    /// (`분말` Powder, `エキス` Extract), by language, as printed, longest first.
    compound_heads: HashMap<Language, Vec<(String, String)>>,
    /// The head nouns a Romance name prints first, before a preposition and what it is
    /// made of (`pulpe` in `pulpe de mangue`: Pulp), by language, folded, longest first.
    heads_first: HashMap<Language, Vec<(String, String)>>,
    /// The first parts of a German compound naming the animal (`Kalbs-` Veal), folded,
    /// longest first.
    animals: HashMap<Language, Vec<(String, String)>>,
    /// Abbreviations of a CJK label (`Na` for ナトリウム), by language, as printed.
    abbreviations: HashMap<Language, Vec<(String, String)>>,
    /// Words of origin of a CJK label (`국산`, `国産`), by language, as printed.
    origin_words: HashMap<Language, HashMap<String, String>>,
    /// Countries by language, as printed, and the suffixes making them an origin (`산`, `産`).
    countries: HashMap<Language, (HashMap<String, String>, Vec<String>)>,
    /// The words bounding a share printed after it in CJK lists (`미만` → less than {}).
    bounds: HashMap<Language, Vec<(String, String)>>,
    /// The marks of a protected name printed after it (`DOP`, `g.U.`), as printed, → PDO or PGI.
    designations: HashMap<String, String>,
    /// The words naming the kind of food a protected name is (`formaggio` → cheese), by
    /// language, folded.
    protected_kinds: HashMap<Language, HashMap<String, String>>,
    /// The words printed before the grade of a flour or semolina (`tipo "0"`, `Type 550`,
    /// `T65`), by language, folded.
    grades: HashMap<Language, Vec<String>>,
}

impl LabelEnglish {
    /// The embedded tables.
    pub fn get() -> &'static LabelEnglish {
        &super::Lexicon::get().english
    }

    /// Parses the file's text, with the written modifiers and naming words of `names.toml`.
    pub(super) fn parse(text: &str, written: WrittenTables) -> Result<Self, toml::de::Error> {
        let file: File = toml::from_str(text)?;
        let by_language = |table: BTreeMap<Language, BTreeMap<String, String>>| {
            let mut out: HashMap<Language, Vec<(String, String)>> = HashMap::new();
            for (language, entries) in table {
                let mut list: Vec<(String, String)> =
                    entries.into_iter().map(|(k, v)| (fold(&k), v)).collect();
                // Longest first, so "vierge extra" is found before "extra".
                list.sort_by_key(|(k, _)| std::cmp::Reverse(k.len()));
                out.insert(language, list);
            }
            out
        };
        let mut joiners = HashMap::new();
        for (code, words) in file.joiners {
            let language = Language::from_code(&code).ok_or_else(|| {
                <toml::de::Error as serde::de::Error>::custom(format!(
                    "joiners: `{code}` is not a label language"
                ))
            })?;
            joiners.insert(language, words.into_iter().collect());
        }
        let language_of = |code: &str, table: &str| {
            Language::from_code(code).ok_or_else(|| {
                <toml::de::Error as serde::de::Error>::custom(format!(
                    "{table}: `{code}` is not a label language"
                ))
            })
        };
        let mut bands = HashMap::new();
        for (code, words) in file.household.bands {
            let mut list: Vec<(Vec<String>, String)> = words
                .into_iter()
                .map(|(k, v)| (fold(&k).split(' ').map(str::to_owned).collect(), v))
                .collect();
            list.sort_by_key(|(k, _)| std::cmp::Reverse(k.len()));
            bands.insert(language_of(&code, "household.bands")?, list);
        }
        let mut household = HashMap::new();
        for (code, names) in file.household.names {
            let language = match code.as_str() {
                "all" => None,
                code => Some(language_of(code, "household.names")?),
            };
            household.insert(
                language,
                names.into_iter().map(|(k, v)| (fold(&k), v)).collect(),
            );
        }
        let mut compound_heads = HashMap::new();
        for (code, heads) in file.compounds.heads {
            let mut list: Vec<(String, String)> = heads.into_iter().collect();
            list.sort_by_key(|(k, _)| std::cmp::Reverse(k.chars().count()));
            compound_heads.insert(language_of(&code, "compounds.heads")?, list);
        }
        let folded_longest_first =
            |table: BTreeMap<String, BTreeMap<String, String>>,
             what: &str|
             -> Result<HashMap<Language, Vec<(String, String)>>, toml::de::Error> {
                let mut out = HashMap::new();
                for (code, words) in table {
                    let mut list: Vec<(String, String)> =
                        words.into_iter().map(|(k, v)| (fold(&k), v)).collect();
                    list.sort_by_key(|(k, _)| std::cmp::Reverse(k.chars().count()));
                    out.insert(language_of(&code, what)?, list);
                }
                Ok(out)
            };
        let heads_first =
            folded_longest_first(file.compounds.heads_first, "compounds.heads_first")?;
        let animals = folded_longest_first(file.compounds.animals, "compounds.animals")?;
        let mut abbreviations = HashMap::new();
        for (code, words) in file.compounds.abbreviations {
            let mut list: Vec<(String, String)> = words.into_iter().collect();
            list.sort_by_key(|(k, _)| std::cmp::Reverse(k.len()));
            abbreviations.insert(language_of(&code, "compounds.abbreviations")?, list);
        }
        let mut origin_words = HashMap::new();
        for (code, words) in file.origins.words {
            origin_words.insert(
                language_of(&code, "origins.words")?,
                words.into_iter().collect(),
            );
        }
        let mut countries = HashMap::new();
        for (code, names) in file.origins.countries {
            let suffixes = file
                .origins
                .suffixes
                .get(&code)
                .cloned()
                .unwrap_or_default();
            countries.insert(
                language_of(&code, "origins.countries")?,
                (names.into_iter().collect(), suffixes),
            );
        }
        let mut bounds = HashMap::new();
        for (code, words) in file.bounds {
            bounds.insert(
                language_of(&code, "bounds")?,
                words.into_iter().collect::<Vec<_>>(),
            );
        }
        let mut protected_kinds = HashMap::new();
        for (code, words) in file.protected.kinds {
            protected_kinds.insert(
                language_of(&code, "protected.kinds")?,
                words.into_iter().map(|(k, v)| (fold(&k), v)).collect(),
            );
        }
        let mut grades = HashMap::new();
        for (code, words) in file.grades {
            grades.insert(
                language_of(&code, "grades")?,
                words.iter().map(|w| fold(w)).collect(),
            );
        }
        let mut label_names = HashMap::new();
        for (code, names) in file.label_names {
            label_names.insert(
                language_of(&code, "label_names")?,
                names.into_iter().map(|(k, v)| (fold(&k), v)).collect(),
            );
        }
        let longest_first = |words: Vec<String>| {
            let mut words: Vec<String> = words.iter().map(|w| fold(w)).collect();
            words.sort_by_key(|w| std::cmp::Reverse(w.chars().count()));
            words
        };
        let mut vitamins = HashMap::new();
        for (code, words) in file.vitamins {
            vitamins.insert(language_of(&code, "vitamins")?, words);
        }
        let mut cosmetic_names = HashMap::new();
        for (code, names) in file.cosmetic_names {
            cosmetic_names.insert(
                language_of(&code, "cosmetic_names")?,
                names.into_iter().map(|(k, v)| (fold(&k), v)).collect(),
            );
        }
        let mut contains = HashMap::new();
        for (code, words) in file.contains {
            contains.insert(language_of(&code, "contains")?, longest_first(words));
        }
        let mut including = HashMap::new();
        for (code, words) in file.including {
            including.insert(language_of(&code, "including")?, longest_first(words));
        }
        let mut proportions = HashMap::new();
        for (code, words) in file.proportions {
            proportions.insert(language_of(&code, "proportions")?, longest_first(words));
        }
        let mut derived_words = HashMap::new();
        for (code, words) in file.derived.words {
            derived_words.insert(language_of(&code, "derived.words")?, words);
        }
        let mut bracket_words = HashMap::new();
        for (code, words) in file.bracket_words {
            let mut words: Vec<(String, String)> = words.into_iter().collect();
            words.sort_by_key(|(word, _)| std::cmp::Reverse(word.chars().count()));
            bracket_words.insert(language_of(&code, "bracket_words")?, words);
        }
        let mut derived_names = HashMap::new();
        for (code, names) in file.derived.names {
            derived_names.insert(
                language_of(&code, "derived.names")?,
                names.into_iter().collect(),
            );
        }
        let mut spelling: Vec<(String, String)> = file.spelling.into_iter().collect();
        spelling.sort_by_key(|(k, _)| std::cmp::Reverse(k.len()));
        let mut simplified = HashMap::new();
        for pair in &file.traditional.characters {
            let mut chars = pair.chars();
            let (Some(traditional), Some(simple), None) =
                (chars.next(), chars.next(), chars.next())
            else {
                return Err(<toml::de::Error as serde::de::Error>::custom(format!(
                    "traditional: `{pair}` is not a traditional character and its simplified form"
                )));
            };
            simplified.insert(traditional, simple);
        }
        Ok(Self {
            inci: file.inci.into_iter().collect(),
            simplified,
            food_names: file.food_names.into_iter().collect(),
            label_names,
            vitamins,
            cosmetic_names,
            contains,
            including,
            proportions,
            derived_words,
            derived_names,
            bracket_words,
            quantity_units: file.quantity_units,
            kept_in_capitals: file
                .capitals
                .keep
                .into_iter()
                .chain(file.protected.designations.keys().cloned())
                .collect(),
            plural_in_lists: file.plural_in_lists.names.iter().map(|n| fold(n)).collect(),
            mass_nouns: file
                .plural_in_lists
                .mass_nouns
                .iter()
                .map(|n| fold(n))
                .collect(),
            spelling,
            modifiers: by_language(written.modifiers),
            words: by_language(written.naming),
            joiners,
            bands,
            household,
            band_prepositions: file.household.prepositions,
            and_so_on: file.and_so_on.words,
            compound_heads,
            heads_first,
            animals,
            abbreviations,
            origin_words,
            countries,
            bounds,
            designations: file.protected.designations.into_iter().collect(),
            protected_kinds,
            grades,
        })
    }

    /// A name ending in the grade of a flour or semolina, parted from it: the name, then the
    /// grade as English writes it (`farina di grano tenero tipo "0"` → (`farina di grano
    /// tenero`, `type "0"`); `Weizenmehl Type 550`; `farine de blé T65` keeps `T65`). The
    /// grade is a number or a word of digits, quoted or not, after one of the language's
    /// grade words (or glued to it).
    pub fn grade<'n>(&self, language: Language, name: &'n str) -> Option<(&'n str, String)> {
        let words = self.grades.get(&language)?;
        let name = name.trim();
        let (rest, last) = name.rsplit_once(char::is_whitespace)?;
        let is_grade = |mark: &str| {
            let mark = mark.trim_matches(['"', '\'', '«', '»', '“', '”']);
            !mark.is_empty() && mark.chars().all(|c| c.is_ascii_digit())
        };
        if let Some((before, word)) = rest.trim_end().rsplit_once(char::is_whitespace)
            && words.contains(&fold(word))
            && is_grade(last)
            && !before.trim().is_empty()
        {
            return Some((before.trim_end(), format!("type {last}")));
        }
        // Glued to its word (`T65`).
        let glued = words.iter().any(|w| {
            fold(last)
                .strip_prefix(w.as_str())
                .is_some_and(|mark| is_grade(mark) && !mark.is_empty())
        });
        (glued && !rest.trim().is_empty()).then(|| (rest.trim_end(), last.to_owned()))
    }

    /// A name ending in the mark of a protected name, parted from it: the name as printed
    /// and the mark in English (`basilico genovese DOP` → (`basilico genovese`, PDO)).
    pub fn designation<'n>(&self, name: &'n str) -> Option<(&'n str, &str)> {
        let (rest, mark) = name.trim().rsplit_once(char::is_whitespace)?;
        let mark = self.designations.get(mark)?;
        (!rest.trim().is_empty()).then(|| (rest.trim(), mark.as_str()))
    }

    /// A protected name (a PDO or PGI, Regulation (EU) No 1151/2012) in the English word order:
    /// the name as printed, its mark in English, then the kind of food when the label names
    /// it before the name (`Formaggio Grana Padano DOP` → Grana Padano PDO cheese, `Prosciutto
    /// di Parma DOP` → Prosciutto di Parma PDO); `None` when no mark ends `name`.
    pub fn protected(&self, language: Language, name: &str) -> Option<String> {
        let name = name.trim();
        let (rest, mark) = name.rsplit_once(char::is_whitespace)?;
        // As printed: the marks are capitals and dots (`DO` is no Portuguese `do`).
        let mark = self.designations.get(mark)?;
        let rest = rest.trim();
        let kind = rest
            .split_once(char::is_whitespace)
            .and_then(|(first, after)| {
                let kind = self.protected_kinds.get(&language)?.get(&fold(first))?;
                // The kind word is a kind only before a proper name (`Formaggio Grana Padano`);
                // before a preposition it is part of the name (`Prosciutto di Parma`).
                after
                    .chars()
                    .next()
                    .is_some_and(char::is_uppercase)
                    .then_some((kind, after.trim()))
            });
        (!rest.is_empty()).then(|| match kind {
            Some((kind, proper)) => format!("{proper} {mark} {kind}"),
            None => format!("{rest} {mark}"),
        })
    }

    /// The function class a printed name is, with the number it is printed in (the
    /// grammar's table, [`FunctionClasses`]).
    pub fn class(&self, name: &str) -> Option<(&'static Class, Number)> {
        FunctionClasses::get().class(name)
    }

    /// The INCI name of an entry whose canonical name is not its INCI name.
    pub fn inci(&self, canonical: &str) -> Option<&str> {
        self.inci.get(canonical).map(String::as_str)
    }

    /// Chinese text with its traditional characters in their simplified forms, or `None`
    /// when it holds none (`鹽` → `盐`, `麵粉` → `面粉`).
    pub fn simplified(&self, text: &str) -> Option<String> {
        text.chars()
            .any(|c| self.simplified.contains_key(&c))
            .then(|| {
                text.chars()
                    .map(|c| self.simplified.get(&c).copied().unwrap_or(c))
                    .collect()
            })
    }

    /// The food label name of a cosmetic entry (Parfum → Flavouring), if it has one.
    pub fn food_name(&self, canonical: &str) -> Option<&str> {
        self.food_names.get(canonical).map(String::as_str)
    }

    /// The English a label translator writes for a food name printed in `language` when it
    /// says more or other than the name of the entry it resolves to (`현미` Brown Rice,
    /// `ぶどう糖` Glucose), or names what the knowledge base lacks.
    pub fn label_name(&self, language: Language, name: &str) -> Option<&str> {
        self.label_names
            .get(&language)?
            .get(&fold(name))
            .map(String::as_str)
    }

    /// The INCI name of a CJK cosmetic labelling name the knowledge base lacks.
    pub fn cosmetic_name(&self, language: Language, name: &str) -> Option<&str> {
        self.cosmetic_names
            .get(&language)?
            .get(&fold(name))
            .map(String::as_str)
    }

    /// A country or place printed alone in a CJK bracket of origins, without the suffix that
    /// says "from" (`大豆（アメリカ）`, `鳳梨（台灣）`: 食品表示基準 lets 原料原産地 name the country
    /// alone); its English, or `None` when `name` is no place the tables know.
    pub fn place(&self, language: Language, name: &str) -> Option<String> {
        let (countries, _) = self.countries.get(&language)?;
        let name = name.trim();
        if let Some(english) = countries.get(name) {
            return Some(english.clone());
        }
        // Either of two countries (`アメリカ又はカナダ`: the 大括り表示 of 原料原産地).
        let (first, second) = ["又は", "または", "또는", "或"]
            .iter()
            .find_map(|or| name.split_once(or))?;
        Some(format!(
            "{} or {}",
            countries.get(first.trim())?,
            countries.get(second.trim())?
        ))
    }

    /// A vitamin a CJK label names by its letter (`비타민A`, `ビタミンD3`, `维生素B2`): Vitamin
    /// and the letter as printed (Vitamin D3), not the entry's name (Retinol, Vitamin D);
    /// `None` for any other name.
    pub fn vitamin(&self, language: Language, name: &str) -> Option<String> {
        let name = name.trim();
        let rest = self
            .vitamins
            .get(&language)?
            .iter()
            .find_map(|word| name.strip_prefix(word.as_str()))?
            .trim();
        let mut chars = rest.chars();
        let letter = chars.next().filter(|c| ('A'..='K').contains(c))?;
        let number: String = chars.collect();
        (number.len() <= 2 && number.chars().all(|c| c.is_ascii_digit()))
            .then(|| format!("Vitamin {letter}{number}"))
    }

    /// Whether a word printed in capitals on a food label is a mark or abbreviation, not an
    /// allergen emphasised (`DOP`, `UHT`).
    pub fn kept_in_capitals(&self, word: &str) -> bool {
        self.kept_in_capitals.contains(word)
    }

    /// Whether the tables know `word` as a whole name of the label language (a label name or
    /// an origin), so that a reader's mending leaves it as printed.
    pub fn knows(&self, language: Language, word: &str) -> bool {
        self.label_name(language, word).is_some()
            || self.origin(language, word).is_some()
            || self.household_name(language, word).is_some()
    }

    /// The rest of a bracketed part that says the product contains it (`contiene SULFITOS` →
    /// `SULFITOS`); `None` when the part opens with no such word.
    pub fn contained<'t>(&self, language: Language, part: &'t str) -> Option<&'t str> {
        let part = part.trim();
        let words = self.contains.get(&language)?;
        if language.is_cjk() {
            // Written without a space before the name (`含维生素E`).
            return words
                .iter()
                .find_map(|word| part.strip_prefix(word.as_str()))
                .map(str::trim)
                .filter(|rest| !rest.is_empty());
        }
        opened_by(words, part)
    }

    /// Where `name` says its ingredients are in varying proportions (`oli vegetali in
    /// proporzione variabile`): the byte range of those words, whole words matched folded.
    pub fn varying_proportions(&self, language: Language, name: &str) -> Option<(usize, usize)> {
        let words: Vec<(usize, &str)> = name
            .split_whitespace()
            .map(|w| (w.as_ptr() as usize - name.as_ptr() as usize, w))
            .collect();
        self.proportions.get(&language)?.iter().find_map(|phrase| {
            let count = phrase.split(' ').count();
            words.windows(count).find_map(|run| {
                let joined: Vec<&str> = run.iter().map(|(_, w)| *w).collect();
                let (start, _) = run[0];
                let (last, word) = run[count - 1];
                (fold(&joined.join(" ")) == *phrase).then_some((start, last + word.len()))
            })
        })
    }

    /// The rest of a bracket's part opening with a word saying what the item includes
    /// (`di cui estratto di chinotto 0,5 %`, `dont sucre`): "including" in English.
    pub fn including<'t>(&self, language: Language, part: &'t str) -> Option<&'t str> {
        opened_by(self.including.get(&language)?, part.trim())
    }

    /// A CJK name followed by a word saying it is derived from it (`大豆由来`): the name
    /// before the word; `None` otherwise.
    pub fn derived_from<'t>(&self, language: Language, name: &'t str) -> Option<&'t str> {
        let name = name.trim();
        self.derived_words
            .get(&language)?
            .iter()
            .find_map(|word| name.strip_suffix(word.as_str()))
            .map(str::trim)
            .filter(|source| !source.is_empty())
    }

    /// A CJK bracket part holding a word that says how the name before it is there
    /// (`コンドロイチン含有` → containing {before}): the text before the word, the text after
    /// it and the English template; `None` when the part holds no such word or nothing
    /// before it.
    pub fn bracket_word<'t>(
        &self,
        language: Language,
        part: &'t str,
    ) -> Option<(&'t str, &'t str, &str)> {
        let part = part.trim();
        self.bracket_words
            .get(&language)?
            .iter()
            .find_map(|(word, english)| {
                let (before, after) = part.split_once(word.as_str())?;
                let (before, after) = (before.trim(), after.trim());
                // A suffix (`포함`) ends the part; a word before a quantity (`として`) has
                // the quantity after it.
                let quantity = after.starts_with(|c: char| c.is_ascii_digit());
                let fits = if english.contains("{after}") {
                    quantity
                } else {
                    after.is_empty()
                };
                (!before.is_empty() && fits).then_some((before, after, english.as_str()))
            })
    }

    /// The units a share or quantity is printed in after a name (`%`, `ppm`).
    pub fn quantity_units(&self) -> &[String] {
        &self.quantity_units
    }

    /// The short English of a source an additive is derived from (`大豆` soy), if listed.
    pub fn derived_name(&self, language: Language, source: &str) -> Option<&str> {
        self.derived_names
            .get(&language)?
            .get(source)
            .map(String::as_str)
    }

    /// Whether the name's last word is one label English keeps singular (`Peel`).
    pub fn is_mass_noun(&self, name: &str) -> bool {
        let last = name.rsplit(' ').next().unwrap_or(name);
        self.mass_nouns.contains(&fold(last))
    }

    /// Whether label English writes this name in the plural when the print does not say.
    pub fn plural_in_lists(&self, name: &str) -> bool {
        self.plural_in_lists.contains(&fold(name))
    }

    /// `name` in UK/EU label spelling (whole words).
    pub fn spelled(&self, name: &str) -> String {
        let mut out = name.to_owned();
        for (from, to) in &self.spelling {
            out = replace_words(&out, from, to);
        }
        out
    }

    /// The qualifying words of a language (folded), with their English, longest first.
    pub fn modifiers(&self, language: Language) -> &[(String, String)] {
        self.modifiers.get(&language).map_or(&[], Vec::as_slice)
    }

    /// The words that choose among an entry's English names (folded), with their English.
    pub fn words(&self, language: Language) -> &[(String, String)] {
        self.words.get(&language).map_or(&[], Vec::as_slice)
    }

    /// The head nouns a Romance name prints first (`pulpe` → Pulp), folded, longest first.
    pub fn heads_first(&self, language: Language) -> &[(String, String)] {
        self.heads_first.get(&language).map_or(&[], Vec::as_slice)
    }

    /// The first parts of a German compound naming the animal (`kalbs` → Veal), folded,
    /// longest first.
    pub fn animals(&self, language: Language) -> &[(String, String)] {
        self.animals.get(&language).map_or(&[], Vec::as_slice)
    }

    /// The last parts of compound names in `language` (`분말` → Powder, German `pulver`), as
    /// printed, longest first.
    pub fn compound_heads(&self, language: Language) -> &[(String, String)] {
        self.compound_heads
            .get(&language)
            .map_or(&[], Vec::as_slice)
    }

    /// `name` with the abbreviations of `language` written out at the end of a name or before
    /// a bracket (`ラウレス硫酸Na` → ラウレス硫酸ナトリウム); `None` when it has none.
    pub fn expanded(&self, language: Language, name: &str) -> Option<String> {
        let list = self.abbreviations.get(&language)?;
        let trimmed = name.trim();
        list.iter().find_map(|(short, long)| {
            let stem = trimmed.strip_suffix(short.as_str())?;
            // Only after a name written in the label's script (`塩化Na`, not `DNA`).
            let last = stem.chars().last()?;
            (!last.is_ascii()).then(|| format!("{stem}{long}"))
        })
    }

    /// The English of a CJK word of origin (`국산` → Korea, `中国産` → China, `进口` →
    /// Imported), printed in brackets after a name; `None` when `name` is none.
    pub fn origin(&self, language: Language, name: &str) -> Option<String> {
        let name = name.trim();
        if let Some(english) = self.origin_words.get(&language)?.get(name) {
            return Some(english.clone());
        }
        let (countries, suffixes) = self.countries.get(&language)?;
        suffixes.iter().find_map(|suffix| {
            let place = name.strip_suffix(suffix.as_str())?.trim();
            // A place with a smaller one after it (`경북 의성`) is named by its first word.
            let first = place.split_whitespace().next()?;
            countries
                .get(place)
                .or_else(|| countries.get(first))
                .cloned()
        })
    }

    /// A CJK item ending in a bounded share (`대두 5% 미만`): the name before the share and the
    /// bound in English (`less than 5%`); `None` when the item ends otherwise.
    pub fn bounded_share<'t>(
        &self,
        language: Language,
        item: &'t str,
    ) -> Option<(&'t str, String)> {
        let item = item.trim();
        self.bounds
            .get(&language)?
            .iter()
            .find_map(|(word, english)| {
                let before = item.strip_suffix(word.as_str())?.trim_end();
                let percent = before.strip_suffix(['%', '％'])?;
                let at = percent
                    .rfind(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
                    .map_or(0, |i| {
                        i + percent[i..].chars().next().map_or(1, char::len_utf8)
                    });
                let number = &percent[at..];
                if number.is_empty() {
                    return None;
                }
                let name = before[..at].trim_end();
                Some((name, english.replace("{}", &format!("{number}%"))))
            })
    }

    /// The English of a word joining items in `language` (`und` → and), if it is one.
    pub fn joiner(&self, language: Language, word: &str) -> Option<&str> {
        self.joiners.get(&language)?.get(word).map(String::as_str)
    }

    /// The English of a name on a household product (a detergent's component, `Seife` →
    /// Soap; `Aqua` → Water), in `language` or printed alike in every language.
    pub fn household_name(&self, language: Language, name: &str) -> Option<&str> {
        let key = fold(name);
        [Some(language), None]
            .iter()
            .find_map(|l| self.household.get(l)?.get(&key))
            .map(String::as_str)
    }

    /// `name` without the preposition a weight band puts before its component
    /// (`d'agents de surface` → agents de surface).
    pub fn without_band_preposition<'n>(&self, name: &'n str) -> &'n str {
        for word in &self.band_prepositions {
            if let Some(rest) = name.strip_prefix(word.as_str()) {
                let elided = word.ends_with(['\'', '’']);
                if elided || rest.starts_with(' ') {
                    return rest.trim_start();
                }
            }
        }
        name
    }

    /// `name` without a trailing CJK "and so on" (`アミノ酸等` → アミノ酸), if it has one.
    pub fn without_and_so_on<'n>(&self, name: &'n str) -> Option<&'n str> {
        self.and_so_on
            .iter()
            .find_map(|word| name.trim_end().strip_suffix(word.as_str()))
    }

    /// A household list's weight band in English (`5 % ou plus mais moins de 15 %` → 5 % or
    /// more but less than 15 %): every word of it a band word of `language`, numbers and `%`
    /// as printed. `None` when a word is not a band word.
    pub fn band(&self, language: Language, band: &str) -> Option<String> {
        let words = self.bands.get(&language)?;
        let tokens: Vec<&str> = band.split_whitespace().collect();
        let folded: Vec<String> = tokens.iter().map(|t| fold(t)).collect();
        let mut out: Vec<&str> = Vec::new();
        let mut at = 0;
        while at < tokens.len() {
            let token = tokens[at];
            if token
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '%' | ',' | '.' | '-' | '–' | '<' | '>'))
            {
                out.push(token);
                at += 1;
                continue;
            }
            let (phrase, english) = words
                .iter()
                .find(|(phrase, _)| folded[at..].starts_with(phrase))?;
            out.push(english);
            at += phrase.len();
        }
        Some(out.join(" "))
    }

    /// Every canonical name the tables map (to an INCI name or a food name), for checking
    /// against the knowledge base.
    pub fn canonical_names(&self) -> impl Iterator<Item = &str> {
        self.inci
            .keys()
            .chain(self.food_names.keys())
            .map(String::as_str)
    }
}

/// `text` with every whole-word occurrence of `from` replaced by `to`.
fn replace_words(text: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(from) {
        let before = rest[..at].chars().next_back();
        let after = rest[at + from.len()..].chars().next();
        out.push_str(&rest[..at]);
        if before.is_some_and(char::is_alphanumeric) || after.is_some_and(char::is_alphanumeric) {
            out.push_str(from);
        } else {
            out.push_str(to);
        }
        rest = &rest[at + from.len()..];
    }
    out.push_str(rest);
    out
}

/// The rest of `part` after the first of `words` (folded, whole words, longest first) that
/// opens it; `None` when none does or nothing follows.
fn opened_by<'t>(words: &[String], part: &'t str) -> Option<&'t str> {
    words.iter().find_map(|word| {
        let count = word.split(' ').count();
        let mut tokens = part.splitn(count + 1, char::is_whitespace);
        let opening: Vec<&str> = tokens.by_ref().take(count).collect();
        let rest = tokens.next()?.trim();
        (fold(&opening.join(" ")) == *word && !rest.is_empty()).then_some(rest)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_parses_with_words_in_every_language() {
        let tables = LabelEnglish::get();
        assert_eq!(tables.inci("Water"), Some("Aqua"));
        assert_eq!(tables.food_name("Parfum"), Some("Flavouring"));
        assert!(tables.plural_in_lists("hazelnut"));
        for code in ["fr", "es", "de", "it", "pt", "ko", "ja", "zh"] {
            let language = Language::from_code(code).unwrap();
            assert!(!tables.modifiers(language).is_empty(), "{code} modifiers");
            assert!(!tables.words(language).is_empty(), "{code} words");
        }
    }

    #[test]
    fn class_names_carry_their_number() {
        let tables = LabelEnglish::get();
        let (class, number) = tables.class("Poudres à lever").unwrap();
        assert_eq!(
            (class.many.as_str(), number),
            ("Raising agents", Number::Many)
        );
        let (class, number) = tables.class("乳化剤").unwrap();
        assert_eq!(
            (class.one.as_str(), number),
            ("Emulsifier", Number::Unmarked)
        );
        assert!(tables.class("Sucre").is_none());
    }

    #[test]
    fn spelling_replaces_whole_words_only() {
        let tables = LabelEnglish::get();
        assert_eq!(tables.spelled("Soy Lecithin"), "Soya Lecithin");
        assert_eq!(
            tables.spelled("Modified Corn Starch"),
            "Modified Maize Starch"
        );
        assert_eq!(
            replace_words("Colorful Color", "Color", "Colour"),
            "Colorful Colour"
        );
    }
}
