//! `POST /analyze`: validates the AnalyzeRequest and runs the analysis engine
//! ([`domain::analysis::analyze`]), pure in-memory work on the embedded knowledge base.
//! With an LLM configured ([`AnalyzeLlm`]), names the knowledge base lacks are explained by
//! the model and the summary is written by it, within `LLM_ANALYZE_BUDGET_SECS`; the offline
//! answer stands whenever it fails.

use std::time::{Duration, Instant};

use actix_web::http::header::ContentType;
use actix_web::{HttpResponse, web};
use domain::analysis::supplement::unknown_names;
use domain::analysis::{
    AnalysisInput, AnalysisResponse, Expertise, SkinType, analyze as run_analysis,
    analyze_with_supplement,
};
use domain::knowledge::KnowledgeBase;
use serde::Deserialize;
use serde_json::Value;

use crate::error::{ApiError, Endpoint};
use crate::llm::explain::Explainer;
use crate::llm::summary::Summariser;

/// The LLM backends of `/analyze`; both `None` when offline.
#[derive(Debug, Clone)]
pub struct AnalyzeLlm {
    /// Explains ingredients the knowledge base lacks.
    pub explainer: Option<Explainer>,
    /// Writes the summary.
    pub summariser: Option<Summariser>,
    /// Longest wait for the model per request, both calls together.
    pub budget: Duration,
}

impl AnalyzeLlm {
    /// The offline answer improved by the model where it answers validly in time.
    async fn improve(&self, input: &AnalysisInput, offline: AnalysisResponse) -> AnalysisResponse {
        let started = Instant::now();
        let deadline = started + self.budget;
        let kb = KnowledgeBase::embedded();
        let mut response = offline;
        if let Some(explainer) = &self.explainer {
            let names = unknown_names(kb, input);
            if !names.is_empty() {
                let supplement = explainer
                    .explain(kb.ingredients().len(), &names, self.budget)
                    .await;
                if !supplement.is_empty() {
                    response = analyze_with_supplement(kb, input, Some(&supplement));
                }
            }
        }
        if let Some(summariser) = &self.summariser {
            let left = deadline.saturating_duration_since(Instant::now());
            if left < Duration::from_millis(50) {
                tracing::debug!("no budget left for the LLM summary; the template one stays");
            } else if let Some(summary) = summariser.summarise(input, &response, left).await {
                response.summary = summary;
                response.engine = Some(summariser.label());
            }
        }
        // Time spent waiting for the model counts: it is part of this answer.
        response.execution_time = (input.parse_time + started.elapsed())
            .as_secs_f64()
            .max(response.execution_time);
        response
    }
}

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
pub async fn analyze(
    body: web::Json<AnalyzeRequest>,
    llm: web::Data<AnalyzeLlm>,
) -> Result<HttpResponse, ApiError> {
    let input = body
        .validate()
        .map_err(|m| ApiError::bad_request(Endpoint::Analyze, m))?;
    let mut response = run_analysis(&input);
    if llm.explainer.is_some() || llm.summariser.is_some() {
        response = llm.improve(&input, response).await;
    }
    tracing::info!(
        ingredients = response.ingredients.len(),
        overall_risk = ?response.overall_risk,
        engine = response.engine.as_deref().unwrap_or_default(),
        micros = (response.execution_time * 1e6) as u64,
        "analysed"
    );
    let body = response
        .to_json()
        .map_err(|e| ApiError::internal(Endpoint::Analyze, "serialising the analysis", &e))?;
    Ok(HttpResponse::Ok()
        .content_type(ContentType::json())
        .body(body))
}
