//! Why a label could not be read ([`OcrError`]); `routes::ocr` maps each to its status code.

use super::input::InputError;
use super::limiter::Busy;

/// Why a label could not be read.
#[derive(Debug, thiserror::Error)]
pub enum OcrError {
    /// The client's input is unusable (400).
    #[error(transparent)]
    Input(#[from] InputError),
    /// Every slot and queue place is taken (503 with Retry-After).
    #[error(transparent)]
    Busy(#[from] Busy),
    /// No engine can run (500): the message says why.
    #[error("OCR engine unavailable: {0}")]
    Unavailable(String),
    /// The engine failed on this image (500).
    #[error("OCR engine failed: {0}")]
    Engine(String),
    /// Nothing read is credible as an ingredient list, or nothing was read within the time
    /// budget (200 with `success: false`): the message tells the user what to do.
    #[error("{0}")]
    NoList(&'static str),
}
