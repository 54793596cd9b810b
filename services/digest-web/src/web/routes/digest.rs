//! `GET /api/digest`: the Digest, or an empty one with all five categories before the first
//! refresh; a corrupted file is a 500 `{"error": ...}`.

use actix_web::http::header::ContentType;
use actix_web::{HttpResponse, web};

use crate::web::error::WebError;
use crate::web::state::AppState;

/// `GET /api/digest`.
pub async fn get(state: web::Data<AppState>) -> Result<HttpResponse, WebError> {
    let digest = web::block(move || state.digest.load_or_empty())
        .await
        .map_err(|e| WebError::Internal(format!("internal server error: {e}")))?
        .map_err(|e| {
            tracing::error!(error = %e, "digest unreadable");
            WebError::Internal(format!("internal server error: {e}"))
        })?;
    let body = digest.json().map_err(|e| {
        tracing::error!(error = %e, "digest not serializable");
        WebError::Internal(format!("internal server error: {e}"))
    })?;
    Ok(HttpResponse::Ok()
        .content_type(ContentType::json())
        .body(body))
}
