//! The `/ocr` response shape (see `shared/spec/ingredient-api.md`).

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
}

impl OcrResponse {
    /// The spec's error body of `/ocr`.
    pub fn error(message: impl Into<String>) -> Self {
        Self {
            success: false,
            text: String::new(),
            error: Some(message.into()),
        }
    }
}
