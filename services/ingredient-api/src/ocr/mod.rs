//! `/ocr`'s engine room: from a base64 label photo to the English ingredient list.
//!
//! - [`service`]: the orchestration ([`OcrService`]): which engine reads, in which order,
//!   within which budget, what happens when one fails; the response ([`OcrOutcome`]).
//! - [`engine`]: the engines as peers behind one interface ([`engine::Engine`],
//!   [`engine::EngineReading`]): [`ppocr`] (PP-OCR models through ONNX Runtime, the main
//!   engine) and [`tesseract`] (the Tesseract CLI), each with the repairs of what it typically
//!   misreads beside it (`ppocr::repair`, `tesseract::repair`; what every engine misreads:
//!   [`repair`]).
//! - [`layout`]: PP-OCR's text boxes into lines, blocks and a reading order, and the list found
//!   in them by the list grammar of `domain` (`domain::ocr::label`, which knows no engine).
//! - [`input`] (base64 and image limits), [`prepare`] (rescale, deskew, re-encode for
//!   Tesseract), [`limiter`] (slots and the wait queue), [`threads`] (one OCR thread per slot),
//!   [`vision`] (an optional vision LLM read first), [`memory`] (glibc's allocator settings
//!   for ONNX Runtime's activations), [`settings`] and [`error`].
//!
//! Decoding, preparation and the neural engine run on the OCR threads and Tesseract in child
//! processes, so the HTTP workers stay free for `/analyze`.

pub mod engine;
pub mod error;
pub mod input;
pub mod layout;
pub mod limiter;
pub mod memory;
pub mod ppocr;
pub mod prepare;
pub mod repair;
pub mod service;
pub mod settings;
pub mod tesseract;
pub mod threads;
pub mod vision;

pub use self::error::OcrError;
pub use self::service::{OcrOutcome, OcrService, translate};
pub use self::settings::OcrSettings;
