//! `GET /health`, for probes.

use actix_web::HttpResponse;
use serde_json::json;

/// `GET /health`: `{"status": "healthy"}`.
pub async fn health() -> HttpResponse {
    HttpResponse::Ok().json(json!({ "status": "healthy" }))
}
