//! Loading the knowledge base: the data files, embedded in the binary ([`DATA_FILES`]),
//! parsed into entries and sources, then indexed ([`KnowledgeBase::from_files`]), once for the
//! process ([`KnowledgeBase::embedded`]).

use std::collections::BTreeMap;
use std::sync::OnceLock;
use std::time::Instant;

use serde::Deserialize;

use super::{Ingredient, KnowledgeBase, Source};

/// The data files, embedded so that the binary needs nothing at run time.
pub const DATA_FILES: &[(&str, &str)] = &[
    ("sources.toml", include_str!("../../data/sources.toml")),
    (
        "food-additives.toml",
        include_str!("../../data/food-additives.toml"),
    ),
    (
        "allergens-foods.toml",
        include_str!("../../data/allergens-foods.toml"),
    ),
    ("cosmetics.toml", include_str!("../../data/cosmetics.toml")),
    (
        "colourants-restricted.toml",
        include_str!("../../data/colourants-restricted.toml"),
    ),
    (
        "foods-everyday.toml",
        include_str!("../../data/foods-everyday.toml"),
    ),
    (
        "vitamins-minerals.toml",
        include_str!("../../data/vitamins-minerals.toml"),
    ),
    (
        "cosmetics-inci-extra.toml",
        include_str!("../../data/cosmetics-inci-extra.toml"),
    ),
    (
        "cosmetics-botanicals.toml",
        include_str!("../../data/cosmetics-botanicals.toml"),
    ),
];

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct DataFile {
    #[serde(default)]
    sources: BTreeMap<String, Source>,
    #[serde(default)]
    ingredient: Vec<Ingredient>,
}

/// A data file that cannot be loaded.
#[derive(Debug, thiserror::Error)]
pub enum KbError {
    /// TOML syntax or a field outside the schema.
    #[error("{file}: {message}")]
    Parse {
        /// The file.
        file: String,
        /// What the parser said.
        message: String,
    },
    /// The same source id declared twice.
    #[error("{file}: source id '{id}' declared twice")]
    DuplicateSource {
        /// The file of the second declaration.
        file: String,
        /// The id.
        id: String,
    },
}

static EMBEDDED: OnceLock<KnowledgeBase> = OnceLock::new();

impl KnowledgeBase {
    /// Loaded and indexed once (OnceLock) from the embedded data files.
    pub fn embedded() -> &'static KnowledgeBase {
        EMBEDDED.get_or_init(|| {
            // The embedded files are fixed at compile time and `tests/kb_integrity.rs` loads
            // exactly them, so a failure here cannot reach a tested build.
            Self::from_files(DATA_FILES).expect("embedded knowledge base is valid (kb_integrity)")
        })
    }

    /// Parses and indexes `files` (name, TOML text).
    pub fn from_files(files: &[(&str, &str)]) -> Result<Self, KbError> {
        let started = Instant::now();
        let mut ingredients = Vec::new();
        let mut sources = BTreeMap::new();
        for (file, text) in files {
            let parsed: DataFile = toml::from_str(text).map_err(|e| KbError::Parse {
                file: (*file).to_owned(),
                message: e.to_string(),
            })?;
            for (id, source) in parsed.sources {
                if sources.contains_key(&id) {
                    return Err(KbError::DuplicateSource {
                        file: (*file).to_owned(),
                        id,
                    });
                }
                sources.insert(id, source);
            }
            ingredients.extend(parsed.ingredient);
        }
        Ok(Self::index(ingredients, sources, started))
    }
}
