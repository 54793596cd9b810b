//! `digest-web`: the ops dashboard over the email digest.
//!
//! [`startup::Application`] binds the server from typed [`configuration::Settings`];
//! [`routes::configure`] is the whole URL map; [`error::WebError`] is the one place where
//! failures become the spec's `{"error": "..."}` bodies and status codes.
#![warn(missing_docs)]

pub mod classify;
pub mod configuration;
pub mod error;
pub mod mail;
pub mod refresh;
pub mod routes;
pub mod startup;
pub mod store;
pub mod summarize;
