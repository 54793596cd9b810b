//! `digest-web`: the ops dashboard over the email digest.
//!
//! [`startup::Application`] binds the server from typed [`configuration::Settings`];
//! [`routes::configure`] is the whole URL map; [`error::WebError`] is the one place where
//! failures become the spec's `{"error": "..."}` bodies and status codes.
//!
//! The dashboard (issue 6): [`control::RefreshControl`] is the refresh state machine (lock
//! file, time-out, process-group kill); [`store::queries`] computes metrics and errors from
//! the run store; [`diagnostics`] runs the test suites; [`pages`] renders the two HTML pages
//! from the templates in `templates/`; [`auth`] is the optional access protection.
#![warn(missing_docs)]

pub mod auth;
pub mod classify;
pub mod configuration;
pub mod control;
pub mod diagnostics;
pub mod digest_file;
pub mod error;
pub mod mail;
pub mod pages;
pub mod refresh;
pub mod routes;
pub mod startup;
pub mod state;
pub mod store;
pub mod summarize;
