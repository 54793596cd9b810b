//! `GET /` and `GET /health`.

use actix_web::HttpResponse;
use serde_json::json;

/// `GET /`: HealthRoot.
pub async fn root() -> HttpResponse {
    HttpResponse::Ok().json(json!({ "status": "ok", "message": crate::SERVICE_TITLE }))
}

/// `GET /health`: HealthStatus.
pub async fn health() -> HttpResponse {
    HttpResponse::Ok().json(json!({ "status": "healthy" }))
}
