//! `POST /ocr`: a base64 label photo in, the English ingredient list out.
//!
//! Status codes: 200 (with `success: false`, `text: ""` and an error that says what to do when
//! no credible list is found or none was read within the time budget), 400 for unusable input
//! (missing field, invalid base64, not an image, over the byte or pixel limit, a `lang` that
//! is not one of the nine languages' codes), 503 with
//! Retry-After when every OCR slot and queue place is taken, 500 when the engine is missing
//! or fails. Every failure carries the OcrResponse error body.

use actix_web::{HttpResponse, web};
use domain::ocr::OcrResponse;
use domain::ocr::label::Language;
use serde::Deserialize;

use crate::error::{ApiError, Endpoint, ErrorKind};
use crate::ocr::{OcrError, OcrService};

/// The 400 message of a `lang` that is not one of [`Language::ALL`]'s codes.
const LANG_ERROR: &str = "lang must be the ISO 639-1 code of one of the label languages: en, fr, es, de, it, pt, ko, ja or zh";

/// The OcrRequest body.
#[derive(Debug, Deserialize)]
pub struct OcrRequest {
    /// Base64 image data (required).
    pub image: Option<String>,
    /// ISO 639-1 code of one of the nine label languages: the list printed in that language
    /// answers on a multilingual pack (optional; otherwise the first list printed).
    pub lang: Option<String>,
}

/// Reads the label; see the module docs for the status codes.
pub async fn ocr(
    body: web::Json<OcrRequest>,
    service: web::Data<OcrService>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let language = match body.lang.as_deref() {
        None => None,
        Some(code) => Some(
            Language::from_code(code.trim())
                .ok_or_else(|| ApiError::bad_request(Endpoint::Ocr, LANG_ERROR))?,
        ),
    };
    let image = match body.image {
        None => return Err(ApiError::bad_request(Endpoint::Ocr, "image is required")),
        Some(image) if image.trim().is_empty() => {
            return Err(ApiError::bad_request(
                Endpoint::Ocr,
                "image must not be empty",
            ));
        }
        Some(image) => image,
    };
    let outcome = service
        .recognise_in(image, language)
        .await
        .map_err(|e| to_api_error(&e))?;
    Ok(HttpResponse::Ok().json(OcrResponse::success(
        outcome.text,
        outcome.original_text,
        outcome.language.map(Language::code),
        &outcome.engine,
    )))
}

fn to_api_error(err: &OcrError) -> ApiError {
    let (kind, message) = match err {
        OcrError::Input(e) => (ErrorKind::BadRequest, e.to_string()),
        OcrError::Busy(busy) => (ErrorKind::Busy(busy.retry_after), err.to_string()),
        OcrError::Unavailable(_) => (ErrorKind::Internal, err.to_string()),
        // A photo without a readable list is not a fault of the request or of the service.
        OcrError::NoList(message) => (ErrorKind::Unanswerable, (*message).to_owned()),
        OcrError::Engine(cause) => {
            tracing::error!(%cause, "OCR failed");
            (
                ErrorKind::Internal,
                "the image could not be processed: the OCR engine failed".to_owned(),
            )
        }
    };
    ApiError {
        endpoint: Endpoint::Ocr,
        kind,
        message,
    }
}
