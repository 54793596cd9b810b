//! The one grammar of ingredient lists, shared by `/analyze` ([`crate::parse`], which splits a
//! list) and `/ocr` ([`crate::ocr::label`], which finds where a list starts and ends in the
//! text read from a label): the label [`Language`]s, the [`HEADERS`] that open a list in each
//! of them, the [`ABBREVIATIONS`] whose full stop ends neither an item nor the list, and the
//! words that name a function class rather than an ingredient (`is_class_word`).

use crate::knowledge::fold::fold;

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

    /// The Tesseract language pack.
    pub fn tesseract_pack(self) -> &'static str {
        match self {
            Language::English => "eng",
            Language::French => "fra",
            Language::Spanish => "spa",
            Language::German => "deu",
            Language::Italian => "ita",
            Language::Portuguese => "por",
            Language::Korean => "kor",
            Language::Japanese => "jpn",
            Language::Chinese => "chi_sim",
        }
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

/// Words that name a function class rather than an ingredient ("Preservative (E211)").
const CLASS_WORDS: &[&str] = &[
    "preservative",
    "preservatives",
    "emulsifier",
    "emulsifiers",
    "colour",
    "colours",
    "color",
    "colors",
    "colouring",
    "coloring",
    "antioxidant",
    "antioxidants",
    "stabiliser",
    "stabilisers",
    "stabilizer",
    "stabilizers",
    "thickener",
    "thickeners",
    "thickening agent",
    "gelling agent",
    "gelling agents",
    "sweetener",
    "sweeteners",
    "acidity regulator",
    "acidity regulators",
    "acidifier",
    "acid",
    "acids",
    "flavour enhancer",
    "flavour enhancers",
    "flavor enhancer",
    "raising agent",
    "raising agents",
    "leavening agent",
    "leavening agents",
    "anti caking agent",
    "anticaking agent",
    "humectant",
    "humectants",
    "glazing agent",
    "glazing agents",
    "firming agent",
    "flour treatment agent",
    "bulking agent",
    "carrier",
    "propellant",
    "sequestrant",
    "packaging gas",
    "foaming agent",
    "antifoaming agent",
    "gelling agent",
    "vegetable oils",
    "vegetable oil",
    "vegetable fats",
    "vegetable fat",
    "conservateur",
    "conservateurs",
    "emulsifiant",
    "emulsifiants",
    "colorant",
    "colorants",
    "antioxydant",
    "antioxydants",
    "stabilisant",
    "stabilisants",
    "epaississant",
    "epaississants",
    "edulcorant",
    "edulcorants",
    "correcteur d acidite",
    "acidifiant",
    "gelifiant",
    "poudre a lever",
    "agent levant",
    "huiles vegetales",
    "conservante",
    "conservantes",
    "emulgente",
    "emulgentes",
    "emulsionante",
    "emulsionantes",
    "colorante",
    "colorantes",
    "antioxidante",
    "antioxidantes",
    "estabilizante",
    "estabilizantes",
    "espesante",
    "espesantes",
    "edulcorante",
    "edulcorantes",
    "corrector de acidez",
    "gasificante",
    "konservierungsstoff",
    "konservierungsstoffe",
    "emulgator",
    "emulgatoren",
    "farbstoff",
    "farbstoffe",
    "antioxidationsmittel",
    "stabilisator",
    "stabilisatoren",
    "verdickungsmittel",
    "sussungsmittel",
    "saureregulator",
    "sauerungsmittel",
    "backtriebmittel",
    "geliermittel",
    "pflanzliche ole",
    "addensante",
    "addensanti",
    "emulsionanti",
    "coloranti",
    "conservanti",
    "antiossidante",
    "antiossidanti",
    "stabilizzante",
    "stabilizzanti",
    "edulcoranti",
    "correttore di acidita",
    "agente lievitante",
    "emulsionante",
    "espessante",
    "estabilizador",
    "regulador de acidez",
    "reguladores de acidez",
    "intensificador de sabor",
    "espessantes",
    "estabilizadores",
    "conservadores",
    "antioxidantes",
    "corantes",
    "emulsionantes",
    "edulcorantes",
    "fermento quimico",
    "fermentos quimicos",
    "gasificantes",
    "correctores de acidez",
    "acidulante",
    "acidulantes",
    "gelificante",
    "gelificantes",
    "humectantes",
    "sussstoff",
    "sussstoffe",
    "sussungsmittel",
    "feuchthaltemittel",
    "trennmittel",
    "uberzugsmittel",
    "geschmacksverstarker",
    "saureregulatoren",
    "sauerungsmittel",
    "raising agents",
    "emulsifying agent",
    "emulsifying agents",
    "firming agents",
    "acidulant",
    "acidulants",
    "colorings",
    "colourings",
    "correcteurs d acidite",
    "acidifiants",
    "gelifiants",
    "affermissant",
    "affermissants",
    "agents levants",
    "poudres a lever",
    "exhausteur de gout",
    "humectants",
    "agenti lievitanti",
    "correttori di acidita",
    "correttore di acidita",
    "acidificante",
    "acidificanti",
    "gelificanti",
    "umidificante",
    "umidificanti",
    "esaltatore di sapidita",
    "膨脹剤",
    "膨張剤",
    "ph調整剤",
    "安定剤",
    "ゲル化剤",
    "発色剤",
    "漂白剤",
    "유화제",
    "보존료",
    "산화방지제",
    "착색료",
    "감미료",
    "증점제",
    "산도조절제",
    "乳化剤",
    "保存料",
    "酸化防止剤",
    "着色料",
    "甘味料",
    "増粘剤",
    "酸味料",
    "乳化剂",
    "防腐剂",
    "抗氧化剂",
    "着色剂",
    "甜味剂",
    "增稠剂",
    "酸度调节剂",
];

/// Whether `name` names a function class rather than an ingredient ("Preservative (E211)",
/// "Emulsifier: lecithin").
pub(crate) fn is_class_word(name: &str) -> bool {
    static SET: std::sync::OnceLock<std::collections::HashSet<&'static str>> =
        std::sync::OnceLock::new();
    SET.get_or_init(|| CLASS_WORDS.iter().copied().collect())
        .contains(fold(name).as_str())
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
