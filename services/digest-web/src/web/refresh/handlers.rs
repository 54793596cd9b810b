//! `POST /api/refresh` (the state machine in [`super`]) and `GET /api/status`.

use actix_web::{HttpResponse, web};
use serde_json::json;

use crate::web::error::WebError;
use crate::web::refresh::RefreshOutcome;
use crate::web::state::AppState;

/// `POST /api/refresh`: 200 success, 409 busy, 500 error (the job's stderr), 504 time-out.
/// Any request body is ignored.
pub async fn post(state: web::Data<AppState>) -> HttpResponse {
    match state.refresh.run().await {
        RefreshOutcome::Success {
            message,
            execution_time,
        } => HttpResponse::Ok().json(json!({
            "status": "success",
            "message": message,
            "execution_time": execution_time,
        })),
        RefreshOutcome::Busy(message) => {
            HttpResponse::Conflict().json(json!({"status": "busy", "message": message}))
        }
        RefreshOutcome::Failed(message) => {
            HttpResponse::InternalServerError().json(json!({"status": "error", "message": message}))
        }
        RefreshOutcome::TimedOut(message) => {
            HttpResponse::GatewayTimeout().json(json!({"status": "error", "message": message}))
        }
    }
}

/// `GET /api/status`.
pub async fn status(state: web::Data<AppState>) -> Result<HttpResponse, WebError> {
    let status = web::block(move || state.refresh.status())
        .await
        .map_err(|e| WebError::Internal(format!("internal server error: {e}")))?;
    Ok(HttpResponse::Ok().json(status))
}
