//! The label languages and their words: the one home of every multilingual word list.
//!
//! [`Language`] lists the nine label languages of the spec, once. Their words are data, in
//! `crates/domain/data/language/` (each file says what its classes are for and where the words
//! come from; `data/SCHEMA.md` gives the shapes), embedded in the binary and read once, here,
//! into the [`Lexicon`] ([`Lexicon::get`]):
//!
//! - `list.toml` ([`ListWords`]): the grammar of ingredient lists: headers, abbreviations,
//!   section starts, notices, trace and declaration phrases, conjunctions, weight bands,
//!   component words, the words of statements;
//! - `names.toml` ([`NameWords`]): what a name is made of: qualifiers, modifiers, forms,
//!   little words, negations, compound parts, CJK particles, seed-oil names, singulars in -s;
//!   and the modifiers and naming words /ocr's English writes ([`english`]);
//! - `allergy.toml` ([`AllergyWords`]): the words around allergen words;
//! - `cues.toml` ([`Cues`]): what tells the Latin-script languages apart;
//! - `function-classes.toml` ([`classes`]): the function class names with their English;
//! - `label-english.toml` ([`english`]): how a translated list is written in English.
//!
//! The code holds the passes that use the words (the grammar, the knowledge base's name
//! reading, the allergy words, the label finder); no word list is written in Rust elsewhere
//! (`tests/no_word_lists.rs` keeps it so).
//!
//! # Ambiguity
//!
//! A pass reads some classes at one place of a text; a word in two of them would mean two
//! things there, so [`Lexicon::parse`] refuses a word (compared in the class's own form:
//! lower case and trimmed, or folded) found in two classes of one of these groups:
//!
//! - statements (where a line, item or sentence starts): headers, sections, notices,
//!   notice sections, traces, trace sections, declarations;
//! - the name before a bracket or colon: function class names and component words;
//! - the words of one name read by its parts: qualifiers, modifiers, written modifiers, forms
//!   and flours, little words and prepositions, claim negations;
//! - /ocr's English: written modifiers and naming words;
//! - the words around allergen words: not-ingredient words, plant words, plant-milk stems,
//!   whole-word-only stems, CJK non-allergen compounds, the four kinds of negation;
//! - German compound parts: forms and modifiers.
//!
//! A word that does two things is one entry of a class of its own (`notice_sections`,
//! `trace_sections`), or one entry that says what else it is (`also` on a written modifier),
//! never two entries. Classes of different passes may share words, since the place decides
//! what the word is: "and" joins a trace list's items (`conjunctions.split`), starts an item
//! (`conjunctions.leading`), is a band word ("5 % and more") and a little word of a name;
//! "contient" declares allergens at the start of a statement and is a little word inside a
//! name; "pulver" is a form word alone and a compound part in "Milchpulver". A class never
//! lists a word twice, and a folded class holds only folded words.

pub mod classes;
pub mod english;
mod files;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::OnceLock;

use crate::text::fold::fold;

use classes::{ClassesError, FunctionClasses};
use english::LabelEnglish;
use files::{AllergyFile, Also, CuesFile, ListFile, NamesFile};

/// The nine label languages of the spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Language {
    /// English.
    English,
    /// French.
    French,
    /// Spanish.
    Spanish,
    /// German.
    German,
    /// Italian.
    Italian,
    /// Portuguese.
    Portuguese,
    /// Korean.
    Korean,
    /// Japanese.
    Japanese,
    /// Chinese (simplified).
    Chinese,
}

impl Language {
    /// Every language, Latin scripts first.
    pub const ALL: [Language; 9] = [
        Language::English,
        Language::French,
        Language::Spanish,
        Language::German,
        Language::Italian,
        Language::Portuguese,
        Language::Korean,
        Language::Japanese,
        Language::Chinese,
    ];

    /// The ISO 639-1 code (`en`, `fr`, …, `zh`).
    pub fn code(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::French => "fr",
            Language::Spanish => "es",
            Language::German => "de",
            Language::Italian => "it",
            Language::Portuguese => "pt",
            Language::Korean => "ko",
            Language::Japanese => "ja",
            Language::Chinese => "zh",
        }
    }

    /// Parses an ISO 639-1 code, in any case.
    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|l| l.code().eq_ignore_ascii_case(code))
    }

    /// The languages a knowledge-base entry's names are translated into: all but English,
    /// whose names are the entry's own.
    pub fn translations() -> impl Iterator<Item = Language> {
        Self::ALL.into_iter().filter(|l| *l != Language::English)
    }

    /// Korean, Japanese and Chinese: no spaces between words, `、` separators.
    pub fn is_cjk(self) -> bool {
        matches!(
            self,
            Language::Korean | Language::Japanese | Language::Chinese
        )
    }
}

/// The texts of the files of `data/language/`.
#[derive(Debug, Clone, Copy)]
pub struct Files<'a> {
    /// `list.toml`.
    pub list: &'a str,
    /// `names.toml`.
    pub names: &'a str,
    /// `allergy.toml`.
    pub allergy: &'a str,
    /// `cues.toml`.
    pub cues: &'a str,
    /// `function-classes.toml`.
    pub classes: &'a str,
    /// `label-english.toml`.
    pub english: &'a str,
}

impl Files<'static> {
    /// The files, embedded so that the binary needs nothing at run time.
    pub const EMBEDDED: Files<'static> = Files {
        list: include_str!("../../data/language/list.toml"),
        names: include_str!("../../data/language/names.toml"),
        allergy: include_str!("../../data/language/allergy.toml"),
        cues: include_str!("../../data/language/cues.toml"),
        classes: include_str!("../../data/language/function-classes.toml"),
        english: include_str!("../../data/language/label-english.toml"),
    };
}

/// Why the files cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum LexiconError {
    /// Not the file's shape.
    #[error("{file}: {error}")]
    Toml {
        /// The file.
        file: &'static str,
        /// What the parser said.
        error: toml::de::Error,
    },
    /// The function classes (a name in two classes).
    #[error(transparent)]
    Classes(#[from] ClassesError),
    /// A word in two classes that one pass reads at the same place.
    #[error("'{word}' is both one of {first} and one of {second}")]
    Ambiguous {
        /// The word, in the form compared.
        word: String,
        /// One class.
        first: String,
        /// The other.
        second: String,
    },
    /// A word listed twice in one class.
    #[error("'{word}' is listed twice in {class}")]
    Repeated {
        /// The word.
        word: String,
        /// The class.
        class: String,
    },
    /// A word not written in its class's form (folded, or lower case and trimmed).
    #[error("'{word}' in {class} is not written {form}")]
    Form {
        /// The word.
        word: String,
        /// The class.
        class: String,
        /// The form the class holds.
        form: &'static str,
    },
    /// A language code that is none of the nine.
    #[error("{class}: '{code}' is not the code of a label language")]
    UnknownLanguage {
        /// Where.
        class: String,
        /// The code.
        code: String,
    },
}

/// FNV-1a: the words are short and trusted (our own files); a lookup hashes a word of a
/// label, where a collision only costs time.
type Fnv = fnv::FnvBuildHasher;

/// A set of words of one or more classes.
pub type WordSet = HashSet<String, Fnv>;

/// A header that opens an ingredient list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// Lower case, as printed.
    pub phrase: String,
    /// The language it implies (`None`: shared by several).
    pub language: Option<Language>,
}

/// Phrases grouped by their first byte, so that a position of a text is compared with the
/// few phrases that can start there.
#[derive(Debug)]
pub struct PhraseIndex {
    phrases: Vec<String>,
    by_first_byte: [(u32, u32); 256],
}

impl PhraseIndex {
    /// `phrases` grouped by first byte, each group in the order given.
    fn new(mut phrases: Vec<String>) -> Self {
        phrases.retain(|p| !p.is_empty());
        phrases.sort_by_key(|p| p.as_bytes()[0]);
        let mut by_first_byte = [(0, 0); 256];
        for (i, p) in phrases.iter().enumerate() {
            let slot = &mut by_first_byte[usize::from(p.as_bytes()[0])];
            if slot.0 == slot.1 {
                *slot = (i as u32, i as u32 + 1);
            } else {
                slot.1 = i as u32 + 1;
            }
        }
        Self {
            phrases,
            by_first_byte,
        }
    }

    /// The phrases that start with `byte`.
    pub fn starting_with(&self, byte: u8) -> &[String] {
        let (start, end) = self.by_first_byte[usize::from(byte)];
        &self.phrases[start as usize..end as usize]
    }

    /// Every phrase.
    pub fn all(&self) -> &[String] {
        &self.phrases
    }

    /// The first character of every phrase, each once.
    pub fn first_chars(&self) -> Vec<char> {
        let mut out: Vec<char> = self
            .phrases
            .iter()
            .filter_map(|p| p.chars().next())
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// The words of the list grammar (`list.toml`).
#[derive(Debug)]
pub struct ListWords {
    /// Headers that open a list, in the file's order (it counts: see the file).
    pub headers: Vec<Header>,
    /// Words after which a full stop is part of the name, lower case.
    pub abbreviations: Vec<String>,
    /// Lines that start another section: sections, notice sections and trace sections.
    pub section_starts: Vec<String>,
    /// Notes that are no ingredients: notices and notice sections.
    pub notices: PhraseIndex,
    /// Claims that are no ingredient when they are a whole item ("Certified organic"), folded.
    pub claims: HashSet<String>,
    /// What introduces traces or declares allergens (traces, trace sections, declarations),
    /// the longer first among those of one first byte, so that the first match is the
    /// longest.
    pub markers: PhraseIndex,
    /// The markers that declare allergens.
    pub declarations: Vec<String>,
    /// What follows a declaration that introduces an amount.
    pub amounts: Vec<String>,
    /// Words that close a trace list.
    pub trace_tails: Vec<String>,
    /// Units of a nutrition table's energy line, after a figure (`2489 kJ`).
    pub energy_units: Vec<String>,
    /// The Japanese declaration's opening and closing phrases.
    pub japanese_declaration: (String, String),
    /// Conjunctions between items, with their spaces (" and ", "和"), in the order tried.
    pub conjunctions: Vec<String>,
    /// Conjunctions that may start an item, with the space after them ("and ").
    pub leading_conjunctions: Vec<String>,
    /// Words that offer a choice between two ingredients, with their spaces (" and/or ").
    pub choices: Vec<String>,
    /// Weight-band words, folded.
    pub bands: Vec<String>,
    /// Component words, folded, with their English name.
    pub components: Vec<(String, String)>,
    /// Words of statements after a list, lower case.
    pub statement_words: WordSet,
}

/// The words that say what a name is made of (`names.toml`).
#[derive(Debug)]
pub struct NameWords {
    /// Qualifiers dropped from the start of a name, folded, with the space after them.
    pub qualifiers: Vec<String>,
    /// Words set aside when a name is read by its head: modifiers and qualifiers, folded.
    pub modifiers: WordSet,
    /// Words that name a form, folded (flours included).
    pub forms: WordSet,
    /// The Romance words for flour, folded.
    pub flours: Vec<String>,
    /// The prepositions after a flour word that name what it is ground from, folded.
    pub flour_of: Vec<String>,
    /// Little words (prepositions included), folded.
    pub little: WordSet,
    /// Prepositions that put the head first, folded.
    pub prepositions: WordSet,
    /// Negations that make a name a claim, folded.
    pub claims: WordSet,
    /// Linking elements of German compounds, in the order tried.
    pub compound_links: Vec<String>,
    /// German compound parts that say how the head is presented.
    pub compound_forms: WordSet,
    /// German compound modifiers that are no entry themselves.
    pub compound_modifiers: WordSet,
    /// CJK particles, in the order tried.
    pub cjk_particles: Vec<String>,
    /// Seed-oil names: the oil with its space, and its seeds phrases with theirs.
    pub seed_oils: Vec<(String, Vec<String>)>,
    /// French, Spanish and Portuguese words in -s or -x that are singular, folded.
    pub singular_in_s: WordSet,
    /// The words of a colour's lake set aside from the end of its name, longest first, folded.
    pub colour_lakes: Vec<String>,
    /// The last word of a vegetable oil's or fat's name → the nouns a plant named alone in it
    /// stands with, in the order tried.
    pub plant_sources: HashMap<String, Vec<String>, Fnv>,
}

/// The words around allergen words (`allergy.toml`, and the negations of `names.toml`).
#[derive(Debug)]
pub struct AllergyWords {
    /// Allergy words that describe the user, never looked for in names.
    pub not_ingredient: WordSet,
    /// Words that make "milk" or "nut" a plant's.
    pub plant: Vec<String>,
    /// Compound starts of plant drinks.
    pub plant_milk: Vec<String>,
    /// Allergen words read only as whole words.
    pub whole_word_only: WordSet,
    /// Negations before an allergen word (one or two words).
    pub negations_before: WordSet,
    /// Negations after an allergen word, or written at its end.
    pub negations_after: Vec<String>,
    /// What a user writes before an allergen, with the space after it, in the order tried.
    pub noise_before: Vec<String>,
    /// What a user writes after an allergen, with the space before it, in the order tried.
    pub noise_after: Vec<String>,
    /// CJK compounds in which an allergen's character means something else.
    pub cjk_not_allergen: Vec<String>,
}

/// What tells one Latin-script language (`cues.toml`).
#[derive(Debug, Default)]
pub struct Cue {
    /// Letters worth 3 points each.
    pub strong: Vec<char>,
    /// Letters worth 1 point each.
    pub letters: Vec<char>,
    /// Phrases worth 3 points once.
    pub phrases: Vec<String>,
    /// Words worth 1 point each, lower case.
    pub words: WordSet,
}

/// What tells the Latin-script languages apart, in the order of [`Language::ALL`].
#[derive(Debug)]
pub struct Cues {
    /// One per Latin-script language.
    pub languages: Vec<(Language, Cue)>,
}

/// Every word class of `data/language/`, checked and indexed.
#[derive(Debug)]
pub struct Lexicon {
    /// The list grammar's words.
    pub list: ListWords,
    /// The words of names.
    pub names: NameWords,
    /// The words around allergen words.
    pub allergy: AllergyWords,
    /// The language cues.
    pub cues: Cues,
    /// The function classes.
    pub classes: FunctionClasses,
    /// How a translated list is written in English.
    pub english: LabelEnglish,
}

impl Lexicon {
    /// The embedded files, read once.
    pub fn get() -> &'static Lexicon {
        static LEXICON: OnceLock<Lexicon> = OnceLock::new();
        LEXICON.get_or_init(|| {
            // The embedded files are fixed at compile time and parsed by the unit tests.
            Self::parse(Files::EMBEDDED).expect("data/language is valid (unit tested)")
        })
    }

    /// Reads and checks the files (see the module documentation for what is refused).
    pub fn parse(files: Files<'_>) -> Result<Self, LexiconError> {
        let list: ListFile = parse_toml("list.toml", files.list)?;
        let names: NamesFile = parse_toml("names.toml", files.names)?;
        let allergy: AllergyFile = parse_toml("allergy.toml", files.allergy)?;
        let cues: CuesFile = parse_toml("cues.toml", files.cues)?;
        let classes = FunctionClasses::parse(files.classes)?;
        let mut check = Checker::default();
        check_list(&mut check, &list)?;
        check_names(&mut check, &names)?;
        check_allergy(&mut check, &allergy, &names)?;
        check_components(&list, &classes)?;
        check.cues(&cues)?;
        let english =
            LabelEnglish::parse(files.english, written_tables(&names)?).map_err(|error| {
                LexiconError::Toml {
                    file: "label-english.toml",
                    error,
                }
            })?;
        Ok(Self {
            list: list_words(list)?,
            allergy: allergy_words(allergy, &names),
            names: name_words(names),
            cues: cues_of(cues)?,
            classes,
            english,
        })
    }
}

fn parse_toml<T: serde::de::DeserializeOwned>(
    file: &'static str,
    text: &str,
) -> Result<T, LexiconError> {
    toml::from_str(text).map_err(|error| LexiconError::Toml { file, error })
}

/// How words of a class are compared and what form they must have.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    /// Lower case and trimmed, accents kept (matched case-insensitively as printed).
    Lower,
    /// Folded ([`fold`]).
    Folded,
}

impl Form {
    fn key(self, word: &str) -> String {
        match self {
            Form::Lower => word.trim().to_lowercase(),
            Form::Folded => fold(word),
        }
    }

    /// Whether `word` is written in this form.
    fn holds(self, word: &str) -> bool {
        match self {
            Form::Lower => word.to_lowercase() == word,
            Form::Folded => fold(word) == word,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Form::Lower => "in lower case",
            Form::Folded => "folded",
        }
    }
}

/// The classes seen so far in each group: one pass reads a group's classes at one place.
#[derive(Default)]
struct Checker {
    /// Group → word (compared form) → the class that has it.
    groups: HashMap<String, HashMap<String, String>>,
}

impl Checker {
    /// Checks the words of the list `list` of class `class` (their form, no word twice in the
    /// list) and, when the class belongs to `group`, that no other class of the group has
    /// them.
    fn words(
        &mut self,
        group: Option<&str>,
        class: &str,
        list: &str,
        form: Form,
        words: &[String],
    ) -> Result<(), LexiconError> {
        let mut seen = HashSet::new();
        for word in words {
            if !form.holds(word) {
                return Err(LexiconError::Form {
                    word: word.clone(),
                    class: list.to_owned(),
                    form: form.name(),
                });
            }
            let key = form.key(word);
            if !seen.insert(key.clone()) {
                return Err(LexiconError::Repeated {
                    word: word.clone(),
                    class: list.to_owned(),
                });
            }
            let Some(group) = group else { continue };
            let owners = self.groups.entry(group.to_owned()).or_default();
            match owners.get(&key) {
                Some(owner) if owner != class => {
                    return Err(LexiconError::Ambiguous {
                        word: key,
                        first: owner.clone(),
                        second: class.to_owned(),
                    });
                }
                Some(_) => {}
                None => {
                    owners.insert(key, class.to_owned());
                }
            }
        }
        Ok(())
    }

    /// [`Checker::words`] for a class that is one list.
    fn class(
        &mut self,
        group: Option<&str>,
        class: &str,
        form: Form,
        words: &[String],
    ) -> Result<(), LexiconError> {
        self.words(group, class, class, form, words)
    }

    /// [`Checker::words`] for a class listed per language: a word may be in two languages'
    /// lists of one class.
    fn by_language(
        &mut self,
        group: Option<&str>,
        class: &str,
        form: Form,
        lists: &BTreeMap<String, Vec<String>>,
    ) -> Result<(), LexiconError> {
        for (code, words) in lists {
            language_of(class, code)?;
            self.words(group, class, &format!("{class}.{code}"), form, words)?;
        }
        Ok(())
    }

    fn cues(&mut self, cues: &CuesFile) -> Result<(), LexiconError> {
        for (code, cue) in cues {
            language_of("cues", code)?;
            self.class(None, &format!("cues.{code}.words"), Form::Lower, &cue.words)?;
            self.class(
                None,
                &format!("cues.{code}.phrases"),
                Form::Lower,
                &cue.phrases,
            )?;
        }
        Ok(())
    }
}

const STATEMENTS: Option<&str> = Some("statements");
const NAME_WORDS: Option<&str> = Some("name words");
const ALLERGY: Option<&str> = Some("allergy words");
const COMPOUNDS: Option<&str> = Some("compound parts");

fn language_of(class: &str, code: &str) -> Result<Language, LexiconError> {
    Language::from_code(code)
        .filter(|l| l.code() == code)
        .ok_or_else(|| LexiconError::UnknownLanguage {
            class: class.to_owned(),
            code: code.to_owned(),
        })
}

fn check_list(check: &mut Checker, list: &ListFile) -> Result<(), LexiconError> {
    let headers: Vec<String> = list.headers.iter().map(|h| h.phrase.clone()).collect();
    check.class(STATEMENTS, "headers", Form::Lower, &headers)?;
    check.by_language(STATEMENTS, "sections", Form::Lower, &list.sections)?;
    for (class, words) in [
        ("notices", &list.notices),
        ("claims", &list.claims),
        ("notice_sections", &list.notice_sections),
        ("traces", &list.traces),
        ("trace_sections", &list.trace_sections),
        ("declarations", &list.declarations),
    ] {
        check.class(STATEMENTS, class, Form::Lower, words)?;
    }
    for (class, words, form) in [
        ("abbreviations", &list.abbreviations, Form::Lower),
        ("amounts", &list.amounts, Form::Lower),
        ("trace_tails", &list.trace_tails, Form::Lower),
        ("energy_units", &list.energy_units, Form::Lower),
        ("conjunctions.split", &list.conjunctions.split, Form::Lower),
        (
            "conjunctions.leading",
            &list.conjunctions.leading,
            Form::Lower,
        ),
        (
            "conjunctions.choice",
            &list.conjunctions.choice,
            Form::Lower,
        ),
        ("bands", &list.bands, Form::Folded),
    ] {
        check.class(None, class, form, words)?;
    }
    check.by_language(None, "statement_words", Form::Lower, &list.statement_words)?;
    let components: Vec<String> = list.components.values().flatten().cloned().collect();
    check.class(None, "components", Form::Folded, &components)
}

/// The class a written modifier stands for among the words of a name.
fn written_class(also: Option<Also>) -> &'static str {
    match also {
        Some(Also::Modifier) => "written modifiers (also modifiers)",
        Some(Also::Qualifier) => "written modifiers (also qualifiers)",
        Some(Also::Naming) | None => "written modifiers",
    }
}

fn check_names(check: &mut Checker, names: &NamesFile) -> Result<(), LexiconError> {
    check.class(NAME_WORDS, "qualifiers", Form::Folded, &names.qualifiers)?;
    check.by_language(NAME_WORDS, "modifiers", Form::Folded, &names.modifiers)?;
    for (code, table) in &names.written {
        language_of("written", code)?;
        let list = format!("written.{code}");
        // Several printed forms may fold alike: one word each, then.
        let mut by_class: BTreeMap<&str, HashSet<String>> = BTreeMap::new();
        for (printed, written) in table {
            by_class
                .entry(written_class(written.also()))
                .or_default()
                .insert(fold(printed));
        }
        for (class, words) in by_class {
            let words: Vec<String> = words.into_iter().collect();
            check.words(NAME_WORDS, class, &list, Form::Folded, &words)?;
        }
        // /ocr's English, a pass of its own in each language: a written modifier that also
        // chooses among English names says so, rather than being a naming word too.
        let group = Some(format!("English ({code})"));
        let (naming_too, written): (Vec<_>, Vec<_>) = table
            .iter()
            .partition(|(_, w)| w.also() == Some(Also::Naming));
        let folded = |entries: Vec<(&String, &files::Written)>| -> Vec<String> {
            let set: HashSet<String> = entries.into_iter().map(|(p, _)| fold(p)).collect();
            set.into_iter().collect()
        };
        let group = group.as_deref();
        check.words(
            group,
            "written modifiers",
            &list,
            Form::Folded,
            &folded(written),
        )?;
        check.words(
            group,
            "written modifiers (also naming)",
            &list,
            Form::Folded,
            &folded(naming_too),
        )?;
        if let Some(naming) = names.naming.get(code) {
            let words: HashSet<String> = naming.keys().map(|p| fold(p)).collect();
            let words: Vec<String> = words.into_iter().collect();
            check.words(
                group,
                "naming",
                &format!("naming.{code}"),
                Form::Folded,
                &words,
            )?;
        }
    }
    for code in names.naming.keys() {
        language_of("naming", code)?;
    }
    for (class, words, group) in [
        ("forms.flours", &names.forms.flours, NAME_WORDS),
        ("forms.other", &names.forms.other, NAME_WORDS),
        (
            "little.prepositions",
            &names.little.prepositions,
            NAME_WORDS,
        ),
        ("little.other", &names.little.other, NAME_WORDS),
        ("negations.before", &names.negations.before, NAME_WORDS),
        ("negations.after", &names.negations.after, NAME_WORDS),
        ("compounds.forms", &names.compounds.forms, COMPOUNDS),
        ("compounds.modifiers", &names.compounds.modifiers, COMPOUNDS),
    ] {
        check.class(group, class, Form::Folded, words)?;
    }
    check.class(
        None,
        "compounds.links",
        Form::Folded,
        &names.compounds.links,
    )?;
    check.class(None, "cjk_particles", Form::Folded, &names.cjk_particles)?;
    check.class(None, "singular_in_s", Form::Folded, &names.singular_in_s)?;
    check.class(None, "colour_lakes", Form::Folded, &names.colour_lakes)?;
    check.class(None, "forms.flour_of", Form::Folded, &names.forms.flour_of)?;
    for (last, nouns) in &names.plant_sources {
        check.class(None, &format!("plant_sources.{last}"), Form::Folded, nouns)?;
    }
    let oils: Vec<String> = names.seed_oils.iter().map(|s| s.oil.clone()).collect();
    check.class(None, "seed_oils", Form::Folded, &oils)?;
    for oil in &names.seed_oils {
        check.class(None, "seed_oils.seeds", Form::Folded, &oil.seeds)?;
    }
    Ok(())
}

fn check_allergy(
    check: &mut Checker,
    allergy: &AllergyFile,
    names: &NamesFile,
) -> Result<(), LexiconError> {
    for (class, words) in [
        ("not_ingredient", &allergy.not_ingredient),
        ("plant", &allergy.plant),
        ("plant_milk", &allergy.plant_milk),
        ("whole_word_only", &allergy.whole_word_only),
        ("cjk.not_allergen", &allergy.cjk.not_allergen),
        ("negations.before", &names.negations.before),
        ("negations.after", &names.negations.after),
        (
            "negations.before_allergen",
            &names.negations.before_allergen,
        ),
        ("negations.after_allergen", &names.negations.after_allergen),
    ] {
        check.class(ALLERGY, class, Form::Folded, words)?;
    }
    check.class(None, "noise.before", Form::Folded, &allergy.noise.before)?;
    check.class(None, "noise.after", Form::Folded, &allergy.noise.after)
}

/// No component word is a function class name: both are read on the name before a bracket.
fn check_components(list: &ListFile, classes: &FunctionClasses) -> Result<(), LexiconError> {
    for (english, words) in &list.components {
        for word in words {
            if let Some((class, _)) = classes.class(word) {
                return Err(LexiconError::Ambiguous {
                    word: word.clone(),
                    first: format!("components ({english})"),
                    second: format!("function classes ({})", class.one),
                });
            }
        }
    }
    Ok(())
}

/// The written modifiers and naming words of each language, for [`LabelEnglish`]: printed
/// form → English, and which printed forms are also modifiers, qualifiers or naming words.
fn written_tables(names: &NamesFile) -> Result<english::WrittenTables, LexiconError> {
    let mut tables = english::WrittenTables::default();
    for (code, table) in &names.written {
        let language = language_of("written", code)?;
        let endings = names.inflections.get(code);
        let modifiers = tables.modifiers.entry(language).or_default();
        for (printed, written) in table {
            modifiers.insert(printed.clone(), written.english().to_owned());
        }
        inflect(modifiers, endings);
        let naming = tables.naming.entry(language).or_default();
        for (printed, written) in table {
            if written.also() == Some(Also::Naming) {
                naming.insert(printed.clone(), written.english().to_owned());
            }
        }
        inflect(naming, endings);
    }
    for (code, table) in &names.naming {
        let language = language_of("naming", code)?;
        let naming = tables.naming.entry(language).or_default();
        for (printed, english) in table {
            naming.insert(printed.clone(), english.clone());
        }
    }
    Ok(tables)
}

/// Adds to a language's written modifiers (printed form → English) the other genders and
/// numbers of each form whose last word ends in one of the language's masculine singular
/// `endings` (`cotto` → `cotta`, `cotti`, `cotte`; `fumé` → `fumée`, `fumés`, `fumées`), with
/// the same English; the longest ending decides, and a form already listed keeps its own.
fn inflect(table: &mut BTreeMap<String, String>, endings: Option<&BTreeMap<String, Vec<String>>>) {
    let Some(endings) = endings else {
        return;
    };
    let mut added = Vec::new();
    for (printed, english) in table.iter() {
        let last = printed.rsplit(' ').next().unwrap_or(printed);
        let Some((ending, others)) = endings
            .iter()
            .filter(|(ending, _)| last.ends_with(ending.as_str()) && last.len() >= ending.len() + 2)
            .max_by_key(|(ending, _)| ending.chars().count())
        else {
            continue;
        };
        let stem = &printed[..printed.len() - ending.len()];
        for other in others {
            added.push((format!("{stem}{other}"), english.clone()));
        }
    }
    for (printed, english) in added {
        table.entry(printed).or_insert(english);
    }
}

/// A Latin conjunction with a space on each side; a CJK one as it is.
fn spaced(word: &str) -> String {
    if word.chars().any(crate::text::script::is_cjk) {
        word.to_owned()
    } else {
        format!(" {word} ")
    }
}

fn list_words(list: ListFile) -> Result<ListWords, LexiconError> {
    let headers = list
        .headers
        .into_iter()
        .map(|h| {
            let language = h
                .language
                .map(|code| language_of("headers", &code))
                .transpose()?;
            Ok(Header {
                phrase: h.phrase,
                language,
            })
        })
        .collect::<Result<_, LexiconError>>()?;
    let mut section_starts: Vec<String> = list.sections.into_values().flatten().collect();
    section_starts.extend(list.notice_sections.iter().cloned());
    section_starts.extend(list.trace_sections.iter().cloned());
    let mut notices = list.notices;
    notices.extend(list.notice_sections);
    let mut markers = list.traces;
    markers.extend(list.trace_sections);
    markers.extend(list.declarations.iter().cloned());
    // Of two markers that both start a text, one starts the other: the longer first, so that
    // the first found is the longest.
    markers.sort_by_key(|m| std::cmp::Reverse(m.chars().count()));
    Ok(ListWords {
        headers,
        abbreviations: list.abbreviations,
        section_starts,
        notices: PhraseIndex::new(notices),
        claims: list.claims.iter().map(|c| fold(c)).collect(),
        markers: PhraseIndex::new(markers),
        declarations: list.declarations,
        amounts: list.amounts,
        trace_tails: list.trace_tails,
        energy_units: list.energy_units,
        japanese_declaration: (
            list.japanese_declaration.open,
            list.japanese_declaration.close,
        ),
        conjunctions: list.conjunctions.split.iter().map(|c| spaced(c)).collect(),
        leading_conjunctions: list
            .conjunctions
            .leading
            .iter()
            .map(|c| format!("{c} "))
            .collect(),
        choices: list.conjunctions.choice.iter().map(|c| spaced(c)).collect(),
        bands: list.bands,
        components: list
            .components
            .into_iter()
            .flat_map(|(english, words)| words.into_iter().map(move |w| (w, english.clone())))
            .collect(),
        statement_words: list.statement_words.into_values().flatten().collect(),
    })
}

fn name_words(names: NamesFile) -> NameWords {
    let marked = |also: Also| -> Vec<String> {
        let mut out: Vec<String> = names
            .written
            .values()
            .flat_map(|t| t.iter())
            .filter(|(_, w)| w.also() == Some(also))
            .map(|(p, _)| fold(p))
            .collect();
        out.sort();
        out.dedup();
        out
    };
    let mut qualifiers = names.qualifiers.clone();
    qualifiers.extend(marked(Also::Qualifier));
    let mut modifiers: WordSet = names.modifiers.values().flatten().cloned().collect();
    modifiers.extend(marked(Also::Modifier));
    modifiers.extend(qualifiers.iter().cloned());
    let mut forms: WordSet = names.forms.other.into_iter().collect();
    forms.extend(names.forms.flours.iter().cloned());
    let prepositions: WordSet = names.little.prepositions.into_iter().collect();
    let mut little: WordSet = names.little.other.into_iter().collect();
    little.extend(prepositions.iter().cloned());
    NameWords {
        qualifiers: qualifiers.into_iter().map(|q| format!("{q} ")).collect(),
        modifiers,
        forms,
        flours: names.forms.flours,
        flour_of: names.forms.flour_of,
        little,
        prepositions,
        claims: names
            .negations
            .before
            .iter()
            .chain(&names.negations.after)
            .cloned()
            .collect(),
        compound_links: names.compounds.links,
        compound_forms: names.compounds.forms.into_iter().collect(),
        compound_modifiers: names.compounds.modifiers.into_iter().collect(),
        cjk_particles: names.cjk_particles,
        seed_oils: names
            .seed_oils
            .into_iter()
            .map(|s| {
                let seeds = s.seeds.iter().map(|seed| format!("{seed} ")).collect();
                (format!("{} ", s.oil), seeds)
            })
            .collect(),
        singular_in_s: names.singular_in_s.into_iter().collect(),
        colour_lakes: names.colour_lakes,
        plant_sources: names.plant_sources.into_iter().collect(),
    }
}

fn allergy_words(allergy: AllergyFile, names: &NamesFile) -> AllergyWords {
    let negations = &names.negations;
    AllergyWords {
        not_ingredient: allergy.not_ingredient.into_iter().collect(),
        plant: allergy.plant,
        plant_milk: allergy.plant_milk,
        whole_word_only: allergy.whole_word_only.into_iter().collect(),
        negations_before: negations
            .before
            .iter()
            .chain(&negations.before_allergen)
            .cloned()
            .collect(),
        negations_after: negations
            .after
            .iter()
            .chain(&negations.after_allergen)
            .cloned()
            .collect(),
        noise_before: allergy
            .noise
            .before
            .iter()
            .map(|n| format!("{n} "))
            .collect(),
        noise_after: allergy
            .noise
            .after
            .iter()
            .map(|n| format!(" {n}"))
            .collect(),
        cjk_not_allergen: allergy.cjk.not_allergen,
    }
}

fn cues_of(file: CuesFile) -> Result<Cues, LexiconError> {
    let mut by_language: BTreeMap<Language, files::CueEntry> = BTreeMap::new();
    for (code, entry) in file {
        by_language.insert(language_of("cues", &code)?, entry);
    }
    let languages = Language::ALL
        .into_iter()
        .filter(|l| !l.is_cjk())
        .map(|language| {
            let cue = by_language
                .remove(&language)
                .map(|e| Cue {
                    strong: e.strong.chars().collect(),
                    letters: e.letters.chars().collect(),
                    phrases: e.phrases,
                    words: e.words.into_iter().collect(),
                })
                .unwrap_or_default();
            (language, cue)
        })
        .collect();
    Ok(Cues { languages })
}

#[cfg(test)]
mod tests;
