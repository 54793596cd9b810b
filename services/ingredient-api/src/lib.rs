//! `ingredient-api`: the JSON backend of the ingredient-safety mobile app.
//!
//! [`startup::Application`] binds the server from typed [`configuration::Settings`];
//! [`routes::configure`] is the whole URL map; [`error::ApiError`] is the one place where
//! failures become the spec's JSON bodies and status codes. [`ocr::OcrService`] reads label
//! photos for `/ocr`; [`llm`] holds the optional LLM backends.
#![warn(missing_docs)]

pub mod cli;
pub mod configuration;
pub mod error;
pub mod llm;
pub mod ocr;
pub mod routes;
pub mod startup;

/// The title returned by `GET /`.
pub const SERVICE_TITLE: &str = "Ingredient Safety Analysis API";
