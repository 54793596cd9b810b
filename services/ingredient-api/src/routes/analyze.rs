//! `POST /analyze`: validates the AnalyzeRequest and runs the analysis engine
//! ([`domain::analysis::analyze`]), pure in-memory work on the embedded knowledge base.

use actix_web::{HttpResponse, web};
use domain::analysis::{AnalysisInput, Expertise, SkinType, analyze as run_analysis};
use serde::Deserialize;
use serde_json::Value;

use crate::error::{ApiError, Endpoint};

/// The AnalyzeRequest body. Optional fields take their documented defaults; `null` counts as
/// absent.
#[derive(Debug, Deserialize)]
pub struct AnalyzeRequest {
    /// Echoed back; `Unknown Product` when absent or blank.
    pub product_name: Option<String>,
    /// The comma-separated ingredient list (required).
    pub ingredients: Option<String>,
    /// The user's allergies (default none). Kept as JSON to answer a wrong type clearly.
    #[serde(default)]
    pub allergies: Option<Value>,
    /// One of the spec's skin types (default `normal`).
    pub skin_type: Option<String>,
    /// `beginner` (default) or `expert`.
    pub expertise: Option<String>,
}

impl AnalyzeRequest {
    /// Applies the defaults and limits; the error text is the 400 body's `error`.
    pub fn validate(&self) -> Result<AnalysisInput, String> {
        let skin = match &self.skin_type {
            Some(s) => SkinType::parse(s).map_err(|e| e.to_string())?,
            None => SkinType::default(),
        };
        let expertise = match &self.expertise {
            Some(e) => Expertise::parse(e).map_err(|e| e.to_string())?,
            None => Expertise::default(),
        };
        let allergies = allergies(self.allergies.as_ref())?;
        AnalysisInput::new(
            self.product_name.as_deref(),
            self.ingredients.as_deref(),
            &allergies,
            skin,
            expertise,
        )
        .map_err(|e| e.to_string())
    }
}

fn allergies(value: Option<&Value>) -> Result<Vec<String>, String> {
    match value {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::String(s) => Ok(s.clone()),
                other => Err(format!(
                    "allergies must be an array of strings: item {} is {}",
                    i + 1,
                    json_type(other)
                )),
            })
            .collect(),
        Some(other) => Err(format!(
            "allergies must be an array of strings, not {}",
            json_type(other)
        )),
    }
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Analyses the list, or answers 400 with the spec's error body.
pub async fn analyze(body: web::Json<AnalyzeRequest>) -> Result<HttpResponse, ApiError> {
    let input = body
        .validate()
        .map_err(|m| ApiError::bad_request(Endpoint::Analyze, m))?;
    let response = run_analysis(&input);
    tracing::info!(
        ingredients = response.ingredients.len(),
        overall_risk = ?response.overall_risk,
        micros = (response.execution_time * 1e6) as u64,
        "analysed"
    );
    Ok(HttpResponse::Ok().json(response))
}
