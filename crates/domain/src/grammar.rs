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

/// Words that name a function class rather than an ingredient ("Preservative (E211)"), folded,
/// with the English name of the class.
const CLASS_WORDS: &[(&str, &str)] = &[
    ("preservative", "Preservative"),
    ("preservatives", "Preservative"),
    ("emulsifier", "Emulsifier"),
    ("emulsifiers", "Emulsifier"),
    ("colour", "Colour"),
    ("colours", "Colour"),
    ("color", "Colour"),
    ("colors", "Colour"),
    ("colouring", "Colour"),
    ("coloring", "Colour"),
    ("antioxidant", "Antioxidant"),
    ("antioxidants", "Antioxidant"),
    ("stabiliser", "Stabiliser"),
    ("stabilisers", "Stabiliser"),
    ("stabilizer", "Stabiliser"),
    ("stabilizers", "Stabiliser"),
    ("thickener", "Thickener"),
    ("thickeners", "Thickener"),
    ("thickening agent", "Thickener"),
    ("gelling agent", "Gelling agent"),
    ("gelling agents", "Gelling agent"),
    ("sweetener", "Sweetener"),
    ("sweeteners", "Sweetener"),
    ("acidity regulator", "Acidity regulator"),
    ("acidity regulators", "Acidity regulator"),
    ("acidifier", "Acid"),
    ("acid", "Acid"),
    ("acids", "Acid"),
    ("flavour enhancer", "Flavour enhancer"),
    ("flavour enhancers", "Flavour enhancer"),
    ("flavor enhancer", "Flavour enhancer"),
    ("raising agent", "Raising agent"),
    ("raising agents", "Raising agent"),
    ("leavening agent", "Raising agent"),
    ("leavening agents", "Raising agent"),
    ("anti caking agent", "Anti-caking agent"),
    ("anticaking agent", "Anti-caking agent"),
    ("humectant", "Humectant"),
    ("humectants", "Humectant"),
    ("glazing agent", "Glazing agent"),
    ("glazing agents", "Glazing agent"),
    ("firming agent", "Firming agent"),
    ("flour treatment agent", "Flour treatment agent"),
    ("bulking agent", "Bulking agent"),
    ("carrier", "Carrier"),
    ("propellant", "Propellant"),
    ("sequestrant", "Sequestrant"),
    ("packaging gas", "Packaging gas"),
    ("foaming agent", "Foaming agent"),
    ("antifoaming agent", "Antifoaming agent"),
    ("vegetable oils", "Vegetable oil"),
    ("vegetable oil", "Vegetable oil"),
    ("vegetable fats", "Vegetable fat"),
    ("vegetable fat", "Vegetable fat"),
    ("conservateur", "Preservative"),
    ("conservateurs", "Preservative"),
    ("emulsifiant", "Emulsifier"),
    ("emulsifiants", "Emulsifier"),
    ("colorant", "Colour"),
    ("colorants", "Colour"),
    ("antioxydant", "Antioxidant"),
    ("antioxydants", "Antioxidant"),
    ("stabilisant", "Stabiliser"),
    ("stabilisants", "Stabiliser"),
    ("epaississant", "Thickener"),
    ("epaississants", "Thickener"),
    ("edulcorant", "Sweetener"),
    ("edulcorants", "Sweetener"),
    ("correcteur d acidite", "Acidity regulator"),
    ("acidifiant", "Acid"),
    ("gelifiant", "Gelling agent"),
    ("poudre a lever", "Raising agent"),
    ("agent levant", "Raising agent"),
    ("huiles vegetales", "Vegetable oil"),
    ("conservante", "Preservative"),
    ("conservantes", "Preservative"),
    ("emulgente", "Emulsifier"),
    ("emulgentes", "Emulsifier"),
    ("emulsionante", "Emulsifier"),
    ("emulsionantes", "Emulsifier"),
    ("colorante", "Colour"),
    ("colorantes", "Colour"),
    ("antioxidante", "Antioxidant"),
    ("antioxidantes", "Antioxidant"),
    ("estabilizante", "Stabiliser"),
    ("estabilizantes", "Stabiliser"),
    ("espesante", "Thickener"),
    ("espesantes", "Thickener"),
    ("edulcorante", "Sweetener"),
    ("edulcorantes", "Sweetener"),
    ("corrector de acidez", "Acidity regulator"),
    ("gasificante", "Raising agent"),
    ("konservierungsstoff", "Preservative"),
    ("konservierungsstoffe", "Preservative"),
    ("emulgator", "Emulsifier"),
    ("emulgatoren", "Emulsifier"),
    ("farbstoff", "Colour"),
    ("farbstoffe", "Colour"),
    ("antioxidationsmittel", "Antioxidant"),
    ("stabilisator", "Stabiliser"),
    ("stabilisatoren", "Stabiliser"),
    ("verdickungsmittel", "Thickener"),
    ("sussungsmittel", "Sweetener"),
    ("saureregulator", "Acidity regulator"),
    ("sauerungsmittel", "Acid"),
    ("backtriebmittel", "Raising agent"),
    ("geliermittel", "Gelling agent"),
    ("pflanzliche ole", "Vegetable oil"),
    ("addensante", "Thickener"),
    ("addensanti", "Thickener"),
    ("emulsionanti", "Emulsifier"),
    ("coloranti", "Colour"),
    ("conservanti", "Preservative"),
    ("antiossidante", "Antioxidant"),
    ("antiossidanti", "Antioxidant"),
    ("stabilizzante", "Stabiliser"),
    ("stabilizzanti", "Stabiliser"),
    ("edulcoranti", "Sweetener"),
    ("correttore di acidita", "Acidity regulator"),
    ("agente lievitante", "Raising agent"),
    ("espessante", "Thickener"),
    ("estabilizador", "Stabiliser"),
    ("regulador de acidez", "Acidity regulator"),
    ("reguladores de acidez", "Acidity regulator"),
    ("intensificador de sabor", "Flavour enhancer"),
    ("espessantes", "Thickener"),
    ("estabilizadores", "Stabiliser"),
    ("conservadores", "Preservative"),
    ("corantes", "Colour"),
    ("fermento quimico", "Raising agent"),
    ("fermentos quimicos", "Raising agent"),
    ("gasificantes", "Raising agent"),
    ("correctores de acidez", "Acidity regulator"),
    ("acidulante", "Acid"),
    ("acidulantes", "Acid"),
    ("gelificante", "Gelling agent"),
    ("gelificantes", "Gelling agent"),
    ("humectantes", "Humectant"),
    ("sussstoff", "Sweetener"),
    ("sussstoffe", "Sweetener"),
    ("feuchthaltemittel", "Humectant"),
    ("trennmittel", "Anti-caking agent"),
    ("uberzugsmittel", "Glazing agent"),
    ("geschmacksverstarker", "Flavour enhancer"),
    ("saureregulatoren", "Acidity regulator"),
    ("emulsifying agent", "Emulsifier"),
    ("emulsifying agents", "Emulsifier"),
    ("firming agents", "Firming agent"),
    ("acidulant", "Acid"),
    ("acidulants", "Acid"),
    ("colorings", "Colour"),
    ("colourings", "Colour"),
    ("correcteurs d acidite", "Acidity regulator"),
    ("acidifiants", "Acid"),
    ("gelifiants", "Gelling agent"),
    ("affermissant", "Firming agent"),
    ("affermissants", "Firming agent"),
    ("agents levants", "Raising agent"),
    ("poudres a lever", "Raising agent"),
    ("exhausteur de gout", "Flavour enhancer"),
    ("agenti lievitanti", "Raising agent"),
    ("correttori di acidita", "Acidity regulator"),
    ("acidificante", "Acid"),
    ("acidificanti", "Acid"),
    ("gelificanti", "Gelling agent"),
    ("umidificante", "Humectant"),
    ("umidificanti", "Humectant"),
    ("esaltatore di sapidita", "Flavour enhancer"),
    ("膨脹剤", "Raising agent"),
    ("膨張剤", "Raising agent"),
    ("ph調整剤", "Acidity regulator"),
    ("安定剤", "Stabiliser"),
    ("ゲル化剤", "Gelling agent"),
    ("発色剤", "Colour retention agent"),
    ("漂白剤", "Bleaching agent"),
    ("유화제", "Emulsifier"),
    ("보존료", "Preservative"),
    ("산화방지제", "Antioxidant"),
    ("착색료", "Colour"),
    ("감미료", "Sweetener"),
    ("증점제", "Thickener"),
    ("산도조절제", "Acidity regulator"),
    ("乳化剤", "Emulsifier"),
    ("保存料", "Preservative"),
    ("酸化防止剤", "Antioxidant"),
    ("着色料", "Colour"),
    ("甘味料", "Sweetener"),
    ("増粘剤", "Thickener"),
    ("酸味料", "Acid"),
    ("乳化剂", "Emulsifier"),
    ("防腐剂", "Preservative"),
    ("抗氧化剂", "Antioxidant"),
    ("着色剂", "Colour"),
    ("甜味剂", "Sweetener"),
    ("增稠剂", "Thickener"),
    ("酸度调节剂", "Acidity regulator"),
    ("levedante", "Raising agent"),
    ("levedantes", "Raising agent"),
    ("agente de fermentacao", "Raising agent"),
    ("agent de traitement de la farine", "Flour treatment agent"),
    (
        "agente de tratamiento de la harina",
        "Flour treatment agent",
    ),
    ("mehlbehandlungsmittel", "Flour treatment agent"),
    (
        "agente di trattamento della farina",
        "Flour treatment agent",
    ),
    ("food additive", "Food additive"),
    ("food additives", "Food additive"),
    ("食品添加剂", "Food additive"),
    ("食品添加物", "Food additive"),
    ("anionic surfactants", "Anionic surfactants"),
    ("anionische tenside", "Anionic surfactants"),
    ("tensioactifs anioniques", "Anionic surfactants"),
    ("agents de surface anioniques", "Anionic surfactants"),
    ("tensioactivos anionicos", "Anionic surfactants"),
    ("tensioattivi anionici", "Anionic surfactants"),
    ("non ionic surfactants", "Non-ionic surfactants"),
    ("nonionic surfactants", "Non-ionic surfactants"),
    ("nichtionische tenside", "Non-ionic surfactants"),
    ("tensioactifs non ioniques", "Non-ionic surfactants"),
    ("agents de surface non ioniques", "Non-ionic surfactants"),
    ("tensioactivos no ionicos", "Non-ionic surfactants"),
    ("tensioattivi non ionici", "Non-ionic surfactants"),
    ("amphoteric surfactants", "Amphoteric surfactants"),
    ("amphotere tenside", "Amphoteric surfactants"),
    ("tensioactifs amphoteres", "Amphoteric surfactants"),
    ("agents de surface amphoteres", "Amphoteric surfactants"),
    ("tensioactivos anfoteros", "Amphoteric surfactants"),
    ("tensioattivi anfoteri", "Amphoteric surfactants"),
    ("cationic surfactants", "Cationic surfactants"),
    ("kationische tenside", "Cationic surfactants"),
    ("tensioactifs cationiques", "Cationic surfactants"),
    ("agents de surface cationiques", "Cationic surfactants"),
    ("tensioactivos cationicos", "Cationic surfactants"),
    ("tensioattivi cationici", "Cationic surfactants"),
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
    static FIRST: std::sync::OnceLock<std::collections::HashSet<&'static [u8]>> =
        std::sync::OnceLock::new();
    let first = FIRST.get_or_init(|| {
        CLASS_WORDS
            .iter()
            .map(|(w, _)| w.split(' ').next().unwrap_or(w).as_bytes())
            .collect()
    });
    let word = name.split(' ').next().unwrap_or(name);
    if !word.is_ascii() {
        return first.contains(fold(word).as_bytes());
    }
    let mut buf = [0u8; 32];
    if word.len() > buf.len() {
        return false;
    }
    for (b, c) in buf.iter_mut().zip(word.bytes()) {
        *b = c.to_ascii_lowercase();
    }
    first.contains(&buf[..word.len()])
}

/// The English name of the function class `name` names ("émulsifiant" → Emulsifier, "膨脹剤"
/// → Raising agent, "Anionische Tenside" → Anionic surfactants).
pub(crate) fn class_of(name: &str) -> Option<&'static str> {
    static MAP: std::sync::OnceLock<std::collections::HashMap<&'static str, &'static str>> =
        std::sync::OnceLock::new();
    MAP.get_or_init(|| CLASS_WORDS.iter().copied().collect())
        .get(fold(name).as_str())
        .copied()
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
