//! The `/ocr` response shape (see `shared/spec/ingredient-api.md`) and [`label`], which finds
//! the ingredient list in the text read from a label, and [`translate`], which makes it English
//! through the knowledge base. Nothing here knows an OCR engine: what an engine typically
//! misreads is repaired in the service's OCR code, next to that engine.

pub mod label;
pub mod translate;

use serde::{Deserialize, Serialize};

/// The `/ocr` response for success and failure alike.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OcrResponse {
    /// true on success.
    pub success: bool,
    /// The ingredient list, comma-separated English; empty on failure.
    pub text: String,
    /// `null` on success; a description on failure.
    pub error: Option<String>,
    /// Extra field on success: ISO 639-1 code of the label's language, when detected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Extra field on success: the list as printed, before translation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original_text: Option<String>,
    /// Extra field on success: which engine read the label, as the service names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
}

impl OcrResponse {
    /// The spec's error body of `/ocr`.
    pub fn error(message: impl Into<String>) -> Self {
        Self {
            success: false,
            text: String::new(),
            error: Some(message.into()),
            language: None,
            original_text: None,
            engine: None,
        }
    }

    /// A success body: `text` is the English list, `original_text` the list as printed.
    pub fn success(
        text: impl Into<String>,
        original_text: impl Into<String>,
        language: Option<&str>,
        engine: &str,
    ) -> Self {
        Self {
            success: true,
            text: text.into(),
            error: None,
            language: language.map(str::to_owned),
            original_text: Some(original_text.into()),
            engine: Some(engine.to_owned()),
        }
    }
}
