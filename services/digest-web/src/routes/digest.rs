//! `GET /api/digest`: the Digest, or an empty one with all five categories before the first
//! refresh; a corrupted file is a 500 `{"error": ...}`.

use actix_web::{HttpResponse, web};

use crate::digest_file;
use crate::error::WebError;
use crate::state::AppState;

/// `GET /api/digest`.
pub async fn get(state: web::Data<AppState>) -> Result<HttpResponse, WebError> {
    let dir = state.settings.data_dir.clone();
    let digest = web::block(move || digest_file::load_or_empty(&dir))
        .await
        .map_err(|e| WebError::Internal(format!("internal server error: {e}")))?
        .map_err(|e| {
            tracing::error!(error = %e, "digest unreadable");
            WebError::Internal(format!("internal server error: {e}"))
        })?;
    Ok(HttpResponse::Ok().json(digest))
}
