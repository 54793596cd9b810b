//! `POST /analyze`.

use actix_web::{HttpResponse, web};
use domain::analysis::{Expertise, SkinType};
use serde::Deserialize;

use crate::error::{ApiError, Endpoint, ErrorKind};

/// The AnalyzeRequest body. Optional fields take their documented defaults.
#[derive(Debug, Deserialize)]
pub struct AnalyzeRequest {
    /// Echoed back; `Unknown Product` when absent.
    pub product_name: Option<String>,
    /// The comma-separated ingredient list (required).
    pub ingredients: Option<String>,
    /// The user's allergies (default none).
    #[serde(default)]
    pub allergies: Option<Vec<String>>,
    /// One of the spec's skin types (default `normal`).
    pub skin_type: Option<String>,
    /// `beginner` (default) or `expert`.
    pub expertise: Option<String>,
}

/// Validates the request; the analysis engine answers valid ones.
pub async fn analyze(body: web::Json<AnalyzeRequest>) -> Result<HttpResponse, ApiError> {
    let request = body.into_inner();
    let bad = |m: String| ApiError::bad_request(Endpoint::Analyze, m);
    match request.ingredients.as_deref().map(str::trim) {
        None => return Err(bad("ingredients is required".into())),
        Some("") => return Err(bad("ingredients must not be blank".into())),
        Some(_) => {}
    }
    if let Some(skin) = &request.skin_type {
        SkinType::parse(skin).map_err(|e| bad(e.to_string()))?;
    }
    if let Some(expertise) = &request.expertise {
        Expertise::parse(expertise).map_err(|e| bad(e.to_string()))?;
    }
    Err(ApiError {
        endpoint: Endpoint::Analyze,
        kind: ErrorKind::NotImplemented,
        message: "the analysis engine is not part of this build yet".into(),
    })
}
