//! The offline ingredient knowledge base: the TOML files of `crates/domain/data/`, embedded in
//! the binary, parsed and indexed once. One file per concern:
//!
//! - `model`: what an entry is ([`Ingredient`], [`AllergenGroup`], the regulatory statuses);
//! - `load`: the data files ([`DATA_FILES`]) and [`KnowledgeBase::embedded`], the
//!   process-wide instance, built by [`KnowledgeBase::from_files`] ([`KbError`]);
//! - `index`: [`KnowledgeBase`], every name folded once into the keys lookups use, and what
//!   else is worked out at start-up (typo buckets, names with commas, alternatives);
//! - `lookup`: finding an entry by a name. [`KnowledgeBase::lookup`] finds an [`Ingredient`]
//!   by any name it is known by (canonical, synonym, INCI, E/INS number, CI number, or a
//!   translated name), after [`fold`](crate::text::fold::fold)ing case, accents, width,
//!   whitespace and hyphens; [`KnowledgeBase::resolve`] adds the tolerant steps the analysis
//!   uses (INCI slash forms, plurals, qualifiers, INCI families by the shape of the name
//!   ([`inci_family`]), conservative OCR typo correction) and says how it matched
//!   ([`Resolved`], [`MatchKind`]);
//! - `parts`: reading a name no other step knows by its parts: its head noun
//!   ([`KnowledgeBase::resolve_by_head`]), its German compound parts or CJK segments
//!   ([`KnowledgeBase::resolve_by_parts`]), several names run together
//!   ([`KnowledgeBase::split_run_together`]); the words it sets aside are the label language's
//!   ([`crate::language::NameWords`]);
//! - `sentences`: the sentences the analysis shows for each entry, rendered once
//!   ([`EntryText`]).
//!
//! The file format is documented in `crates/domain/data/SCHEMA.md`.

pub mod allergy;
pub mod codes;
pub mod inci_family;
mod index;
mod load;
mod lookup;
mod model;
mod parts;
mod sentences;
pub mod skin;

pub use index::KnowledgeBase;
pub use load::{DATA_FILES, KbError};
pub use lookup::{MatchKind, Resolved};
pub use model::{
    AllergenGroup, Concern, CosmeticUse, DIETARY_ADVICE_SOURCES, EuCosmetics, EuFood, Iarc,
    Ingredient, Names, STAPLE_SCORE, SkinFlag, Source,
};
pub use sentences::{CosmeticText, EntryText, SkinNote};
