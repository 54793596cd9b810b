//! The pure domain model shared by both services.
//!
//! - [`analysis`]: the ingredient-analysis contract of `ingredient-api` (request enums such as
//!   [`analysis::SkinType`] and [`analysis::Expertise`], the response types
//!   [`analysis::AnalysisResponse`] and [`analysis::IngredientDetail`], and the one mapping from a
//!   safety score to risk level and recommendation), and the engine behind `/analyze`:
//!   [`analysis::AnalysisInput`] (validated request) → [`analysis::analyze`] →
//!   [`analysis::AnalysisResponse`]; every rule is written out in `docs/analysis.md`.
//! - [`text`]: the text utilities every module imports: folding, scripts, the edit distance.
//! - [`language`]: the label languages ([`language::Language`]) and their words, read once
//!   from `data/language/*.toml` into the [`language::Lexicon`].
//! - [`knowledge`]: the offline ingredient knowledge base ([`knowledge::KnowledgeBase`]),
//!   embedded from `data/*.toml` and indexed once; allergy words ([`knowledge::allergy`]).
//! - [`grammar`]: the one grammar of ingredient lists (headers, abbreviations, function
//!   classes, components), used by [`parse`] and [`ocr::label`].
//! - [`parse`]: splitting a label's ingredient list ([`parse::split_ingredients`]).
//! - [`ocr`]: the `/ocr` response shape.
//! - [`shared`]: [`shared::SharedStr`], knowledge-base text shared by responses.
//! - [`email`]: the digest model of `digest-web` ([`email::Category`], [`email::EmailItem`],
//!   [`email::Digest`]).
//!
//! Modules point one way: [`text`] → [`language`] → [`knowledge`] → [`grammar`] and [`parse`]
//! → [`analysis`] (`make lint` checks it).
//!
//! This crate knows nothing of HTTP, async runtimes or storage: the services own those.
#![warn(missing_docs)]

pub mod analysis;
pub mod email;
pub mod grammar;
pub mod knowledge;
pub mod language;
pub mod ocr;
pub mod parse;
pub mod shared;
pub mod text;
pub mod vocabulary;
