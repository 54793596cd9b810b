//! The engines that read a label, peers behind one interface: PP-OCR (`ppocr`, the main
//! engine) and Tesseract (`tesseract`). Each reads a page into an [`EngineReading`] (the list
//! the grammar found, the page text, the recogniser's evidence), named by its [`Engine`], and
//! [`EngineReading::repaired_items`] mends the misreads typical of the engine that read it,
//! next to that engine (`ppocr::repair`, `tesseract::repair`). Which engine reads a photo,
//! within which budget, and what happens when one fails is the orchestration's
//! ([`crate::ocr::service`]), not an engine's.

use domain::knowledge::KnowledgeBase;
use domain::ocr::label::{self, Extraction, Language};

use super::ppocr::{self, TextLine};
use super::tesseract;

/// An engine that reads labels offline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// PP-OCR models through ONNX Runtime ([`crate::ocr::ppocr`]): the main engine.
    PpOcr,
    /// The Tesseract CLI with its language packs ([`crate::ocr::tesseract`]).
    Tesseract,
}

impl Engine {
    /// The name reported in the response's `engine` field.
    pub fn name(self) -> &'static str {
        match self {
            Engine::PpOcr => "ppocr",
            Engine::Tesseract => "tesseract",
        }
    }
}

/// What one engine read on a page.
#[derive(Debug, Clone)]
pub struct EngineReading {
    /// The engine that read it.
    pub engine: Engine,
    /// The list the grammar found in the page's text.
    pub found: Extraction,
    /// The page's text, as the grammar got it.
    pub text: String,
    /// The recognised lines with their confidences (PP-OCR; empty for Tesseract).
    pub lines: Vec<TextLine>,
}

impl EngineReading {
    /// The list's items with the misreads typical of the engine that read them mended where
    /// the knowledge base makes it unambiguous; `cjk_mending` off leaves Korean, Japanese and
    /// Chinese items as read (measurements).
    pub fn repaired_items(&self, kb: &KnowledgeBase, cjk_mending: bool) -> Vec<String> {
        let language = self.found.language;
        match self.engine {
            Engine::PpOcr => {
                ppocr::repair::repair(kb, &self.found.items, &self.lines, language, cjk_mending)
            }
            Engine::Tesseract => {
                let mending = language.filter(|l| cjk_mending || !l.is_cjk());
                tesseract::repair::correct_spelling(kb, &self.found.items, mending)
            }
        }
    }
}

/// How good an extraction looks: a header, then more items.
pub fn score(found: &Extraction) -> (bool, usize) {
    (found.header_found, found.items.len())
}

/// A list good enough to answer without another engine: a header and two items (Korean
/// cannot be read by the PP-OCR models; its header is never found by them, and a list found
/// by its shape alone may be their misreading of Hangul).
pub fn list_is_enough(found: &Extraction) -> bool {
    found.header_found && found.items.len() >= 2 && found.language != Some(Language::Korean)
}

/// How many of `items` name something the knowledge base resolves or a function class (by
/// their name before any bracket, or its first word when qualifiers follow:
/// [`label::names_known`]).
pub fn known_items(items: &[String]) -> usize {
    items.iter().filter(|item| label::names_known(item)).count()
}
