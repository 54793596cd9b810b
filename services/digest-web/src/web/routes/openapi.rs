//! `GET /openapi.json`: the hand-written OpenAPI 3 document of this service
//! (`services/digest-web/openapi.json`), compiled into the binary.
//!
//! Hand-written rather than derived so that it states the spec's contract exactly (enums,
//! error bodies per endpoint, every status code); `tests/api/openapi.rs` keeps it honest
//! against the real URL map, and `make test-api` fuzzes the running service with it.

use actix_web::HttpResponse;

/// The document, as served.
pub const DOCUMENT: &str = include_str!("../../../openapi.json");

/// `GET /openapi.json`.
pub async fn document() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(DOCUMENT)
}
