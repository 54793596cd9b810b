//! The web server, served by the `digest-web` binary: the dashboard and the JSON API over the
//! digest and the run store.
//!
//! - [`startup::Application`] binds the server from typed [`configuration::Settings`].
//! - [`routes::configure`] is the whole URL map; [`error::WebError`] is the one place where
//!   failures become the spec's `{"error": "..."}` bodies and status codes.
//! - [`pages`] renders the two HTML pages from `templates/` and serves them.
//! - [`refresh`] starts the `digest-refresh` binary (lock file, time-out, process-group kill)
//!   and answers `/api/refresh` and `/api/status`.
//! - [`diagnostics`] runs the deployment test suites behind `/api/tests/*` (checks of this
//!   deployment, not the developers' cargo tests).
//! - [`unsubscribe`] unsubscribes from a Newsletter or Promotional sender in one confirmed
//!   click (RFC 8058 one-click POST, else `mailto:` over SMTP), refusing hostile targets.
//! - [`conversations`] tells which Need-Action emails the owner answered and which of the
//!   owner's messages wait for a reply.
//! - [`auth`] is the optional access protection; [`state::AppState`] what every handler
//!   shares.

pub mod auth;
pub mod configuration;
pub mod conversations;
pub mod diagnostics;
pub mod error;
pub mod pages;
pub mod refresh;
pub mod routes;
pub mod startup;
pub mod state;
pub mod unsubscribe;
