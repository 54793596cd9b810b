//! Test code that several test binaries (and the OCR accuracy example) share, so none of
//! them includes another's files with `#[path]`.
//!
//! - [`app`]: the generic half of each service's `spawn_app`: the loopback environment the
//!   in-process server starts with and [`app::Http`], the client every `TestApp` wraps.
//! - [`process`]: free ports, waiting for a server to listen, signals, raw HTTP requests.
//! - [`llm`]: a fake OpenAI-compatible server (wiremock) and the refresh job's answerer.
//! - [`dovecot`]: a real Dovecot IMAP server on loopback, stopped by PID on drop.
//! - [`openapi`]: a service's OpenAPI document against its URL map and running app.
//! - [`images`]: hand-made image files (a PNG whose header lies about its size).
//! - [`labels`]: synthetic product labels rendered by pango-view and degraded like photos,
//!   read from a data file, and how `/ocr` answers are scored against them.
#![warn(missing_docs)]

pub mod app;
pub mod dovecot;
pub mod images;
pub mod labels;
pub mod llm;
pub mod openapi;
pub mod process;

use std::path::PathBuf;

/// The workspace's root folder (scripts and fixtures are found from it).
pub fn workspace_root() -> PathBuf {
    // This crate lives two levels below the root: crates/test-support.
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}
