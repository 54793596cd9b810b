//! The one grammar of ingredient lists, shared by `/analyze` ([`crate::parse`], which splits a
//! list) and `/ocr` ([`crate::ocr::label`], which finds where a list starts and ends in the
//! text read from a label): the label [`Language`]s, the [`HEADERS`] that open a list in each
//! of them, the [`ABBREVIATIONS`] whose full stop ends neither an item nor the list, and the
//! words that name a function class rather than an ingredient ([`classes`]).

pub mod classes;

use crate::knowledge::fold::fold;

use classes::FunctionClasses;

/// The nine label languages of the spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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

    /// Parses an ISO 639-1 code.
    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|l| l.code().eq_ignore_ascii_case(code))
    }

    /// Korean, Japanese and Chinese: no spaces between words, `、` separators.
    pub fn is_cjk(self) -> bool {
        matches!(
            self,
            Language::Korean | Language::Japanese | Language::Chinese
        )
    }
}

/// Headers that open the ingredient list, lower-case, with the language they imply (`None`:
/// shared by several languages). Longer headers first where one starts another (`全成分`
/// before `成分`, `ingredients` before `ingredient`).
pub const HEADERS: &[(&str, Option<Language>)] = &[
    ("ingredients/ingrédients", None),
    ("ingredients list", Some(Language::English)),
    ("ingredient list", Some(Language::English)),
    ("ingredients", Some(Language::English)),
    ("ingredient", Some(Language::English)),
    ("ingrédients", Some(Language::French)),
    ("ingrédient", Some(Language::French)),
    ("composition", Some(Language::French)),
    ("ingredientes", None),
    ("inhaltsstoffe", Some(Language::German)),
    ("zutaten", Some(Language::German)),
    ("ingredienti", Some(Language::Italian)),
    ("전성분", Some(Language::Korean)),
    ("성분", Some(Language::Korean)),
    ("원재료명", Some(Language::Korean)),
    ("원재료", Some(Language::Korean)),
    ("全成分", Some(Language::Japanese)),
    ("原材料名", Some(Language::Japanese)),
    ("原材料", Some(Language::Japanese)),
    ("配料表", Some(Language::Chinese)),
    ("配料", Some(Language::Chinese)),
    ("成分", None),
];

/// Words after which a full stop is part of the name (`Alcohol Denat.`, `Vit. C`, INCI
/// botanical abbreviations), lower-case.
pub const ABBREVIATIONS: &[&str] = &[
    "denat", "ext", "extr", "fil", "sp", "spp", "ssp", "subsp", "var", "vit", "no", "nr", "st",
    "dest", "aq", "min", "max", "approx", "ca", "conc", "hydrog", "incl", "ol", "pulv", "sq",
    "fol", "rad", "sem", "fruct", "flor", "cf",
];

/// Whether `name` names a function class rather than an ingredient ("Preservative (E211)",
/// "Emulsifier: lecithin").
pub(crate) fn is_class_word(name: &str) -> bool {
    class_of(name).is_some()
}

/// Whether the first word of `name` is the first word of a class word ("Süßungsmittel
/// Aspartam …", "raising agent …"): a cheap test, without allocating for ASCII names, before
/// the class word is looked for.
pub(crate) fn starts_with_class_word(name: &str) -> bool {
    FunctionClasses::get().starts_a_class_name(name)
}

/// The English name of the function class `name` names ("émulsifiant" → Emulsifier, "膨脹剤"
/// → Raising agent, "Anionische Tenside" → Anionic surfactants).
pub(crate) fn class_of(name: &str) -> Option<&'static str> {
    FunctionClasses::get()
        .class(name)
        .map(|(class, _)| class.one.as_str())
}

/// Words that name a component of a product rather than one ingredient ("filling", "sauce",
/// "préparation au caramel"), folded, with their English name: the bracket after them lists
/// what the component is made of.
const COMPONENT_WORDS: &[(&str, &str)] = &[
    ("filling", "Filling"),
    ("garniture", "Filling"),
    ("fourrage", "Filling"),
    ("fullung", "Filling"),
    ("relleno", "Filling"),
    ("ripieno", "Filling"),
    ("recheio", "Filling"),
    ("sauce", "Sauce"),
    ("sosse", "Sauce"),
    ("salsa", "Sauce"),
    ("molho", "Sauce"),
    ("coating", "Coating"),
    ("enrobage", "Coating"),
    ("uberzug", "Coating"),
    ("topping", "Topping"),
    ("nappage", "Topping"),
    ("preparation", "Preparation"),
    ("zubereitung", "Preparation"),
    ("preparado", "Preparation"),
    ("preparazione", "Preparation"),
    ("preparacao", "Preparation"),
    ("dough", "Dough"),
    ("pate", "Dough"),
    ("teig", "Dough"),
    ("impasto", "Dough"),
    ("crust", "Crust"),
    ("puffs", "Puffs"),
    ("crisps", "Crisps"),
    ("pieces", "Pieces"),
    ("dressing", "Dressing"),
    ("marinade", "Marinade"),
    ("flavor", "Flavouring preparation"),
    ("flavour", "Flavouring preparation"),
    ("mix", "Mix"),
    ("blend", "Blend"),
    ("melange", "Mix"),
    ("mischung", "Mix"),
    ("mezcla", "Mix"),
    ("miscela", "Mix"),
    ("mistura", "Mix"),
];

/// The English name of the component a compound item's name says it is ("romano flavor" →
/// Flavouring preparation, "sauce 14%" → Sauce), when a word of the name is a component word.
pub(crate) fn component_of(name: &str) -> Option<&'static str> {
    let folded = fold(name);
    folded.split(' ').find_map(|w| {
        COMPONENT_WORDS
            .iter()
            .find(|(word, _)| *word == w)
            .map(|(_, english)| *english)
    })
}
