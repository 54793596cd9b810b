//! `POST /ocr`.

use actix_web::{HttpResponse, web};
use serde::Deserialize;

use crate::error::{ApiError, Endpoint, ErrorKind};

/// The OcrRequest body.
#[derive(Debug, Deserialize)]
pub struct OcrRequest {
    /// Base64 image data (required).
    pub image: Option<String>,
}

/// Validates the request; the OCR engine answers valid ones.
pub async fn ocr(body: web::Json<OcrRequest>) -> Result<HttpResponse, ApiError> {
    match body.image.as_deref().map(str::trim) {
        None => Err(ApiError::bad_request(Endpoint::Ocr, "image is required")),
        Some("") => Err(ApiError::bad_request(
            Endpoint::Ocr,
            "image must not be empty",
        )),
        Some(_) => Err(ApiError {
            endpoint: Endpoint::Ocr,
            kind: ErrorKind::NotImplemented,
            message: "the OCR engine is not part of this build yet".into(),
        }),
    }
}
