//! The plumbing both services share around actix-web, so each service's code is about its
//! own contract:
//!
//! - [`server`]: the skeleton of a service: listening settings, binding, the middleware
//!   every request passes through, the 404/405 handlers and `main` itself.
//! - [`config`]: typed configuration from defaults, an optional `KEY=VALUE` file and the
//!   environment ([`config::EnvSource`]), with one clear error per invalid value.
//! - [`telemetry`]: `tracing` set up for readable text or JSON (`LOG_FORMAT=json`).
//! - [`metrics`]: Prometheus request count and latency by route and status
//!   ([`metrics::track`] middleware, [`metrics::render`] for `GET /metrics`).
//! - [`panic`]: a middleware that turns a panicking handler into the service's 500 body.
//! - [`request_id`]: echoes the per-request id of the tracing span as `x-request-id`.
#![warn(missing_docs)]

pub use env_config as config;
pub mod metrics;
pub mod panic;
pub mod request_id;
pub mod server;
pub mod telemetry;
