//! `digest-web`: the ops dashboard over the email digest, and the refresh job that writes
//! the digest. Two binaries share this library; the folders say which one a module serves:
//!
//! - [`job`]: the refresh job (`digest-refresh` binary): mail sources, the categoriser, the
//!   summaries, the optional LLM step and the run itself.
//! - [`web`]: the web server (`digest-web` binary): start-up, configuration, routes, pages,
//!   access protection, refresh control and deployment diagnostics.
//! - [`store`]: what both share on disk: the SQLite run store (runs, errors, caches, test
//!   runs, metrics queries), the digest file, and [`store::window::Window`].
//! - [`settings`]: the job's settings the web server reads too (LLM step, IMAP credentials).
//!
//! Modules point one way: `web` → `store` ← `job`, both → `settings`. The web server starts
//! the job as a separate process; in-process it calls only [`job::checks`] (the self-checks
//! of its diagnostics).
#![warn(missing_docs)]

pub mod job;
pub mod settings;
pub mod store;
pub mod web;
