//! The `/analyze` summary written by the model for the user's expertise, from the analysis'
//! own facts; validated, cached, and replaced by the template summary on any failure.

use std::hash::{Hash, Hasher};
use std::time::Duration;

use domain::analysis::{AnalysisInput, AnalysisResponse, Expertise};
use llm_client::{ChatRequest, JsonSchema, LlmClient, Message};
use serde::Deserialize;
use serde_json::json;

use super::cache::Lru;
use super::within;

/// The prompt, versioned: the version is part of every cache key and log line.
pub const PROMPT: &str = include_str!("../../prompts/summary.v1.md");
/// Version of [`PROMPT`].
pub const PROMPT_VERSION: &str = "summary.v1";
/// Longest accepted summary, in characters.
pub const MAX_CHARS: usize = 1200;

#[derive(Debug, Deserialize)]
struct Answer {
    summary: String,
}

/// The JSON schema sent with the request.
pub fn schema() -> JsonSchema {
    JsonSchema {
        name: "analysis_summary".into(),
        schema: json!({
            "type": "object",
            "additionalProperties": false,
            "required": ["summary"],
            "properties": {"summary": {"type": "string"}}
        }),
    }
}

/// The facts the model may use: nothing the response does not already say.
pub fn facts(input: &AnalysisInput, response: &AnalysisResponse) -> String {
    let first_sentence = |s: &str| -> String {
        let end = s.find(". ").map_or(s.len(), |i| i + 1);
        s[..end].chars().take(200).collect()
    };
    json!({
        "product": response.product_name,
        "overall_risk": response.overall_risk,
        "average_safety_score": response.average_safety_score,
        "skin_type": input.skin_type,
        "expertise": input.expertise,
        "allergies": input.allergies,
        "allergen_warnings": response.allergen_warnings,
        "ingredients": response.ingredients.iter().take(60).map(|d| json!({
            "name": d.name,
            "score": d.safety_score,
            "recommendation": d.recommendation,
            "allergen_match": d.is_allergen_match,
            "source": d.source,
            "concern": first_sentence(&d.concerns),
        })).collect::<Vec<_>>(),
    })
    .to_string()
}

/// The request for the facts.
pub fn request(facts: String) -> ChatRequest {
    ChatRequest {
        messages: vec![Message::system(PROMPT), Message::user(facts)],
        schema: Some(schema()),
        temperature: Some(0.2),
        max_tokens: Some(600),
    }
}

/// Why a summary cannot be shown.
fn validate(summary: &str, response: &AnalysisResponse) -> Result<String, String> {
    let summary = summary.trim();
    if !super::plain_text(summary, MAX_CHARS) {
        return Err(format!(
            "summary is blank, over {MAX_CHARS} characters or has control characters"
        ));
    }
    // The one fact a summary must never drop.
    if !response.allergen_warnings.is_empty() && !summary.to_lowercase().contains("allerg") {
        return Err("summary does not mention the allergen match".into());
    }
    Ok(summary.to_owned())
}

/// Writes summaries with the model, caching them by prompt version and facts.
#[derive(Debug, Clone)]
pub struct Summariser {
    client: LlmClient,
    cache: Lru<String>,
}

impl Summariser {
    /// A backend over `client` with a cache of `entries`.
    pub fn new(client: LlmClient, entries: usize) -> Self {
        Self {
            client,
            cache: Lru::new(entries),
        }
    }

    /// The engine label (`llm:<model>`).
    pub fn label(&self) -> String {
        self.client.config().engine_label()
    }

    /// The model's summary for this analysis, or `None` (the template one stays).
    pub async fn summarise(
        &self,
        input: &AnalysisInput,
        response: &AnalysisResponse,
        budget: Duration,
    ) -> Option<String> {
        let facts = facts(input, response);
        let key = {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            facts.hash(&mut h);
            format!("{PROMPT_VERSION}:{:016x}:{}", h.finish(), facts.len())
        };
        if let Some(summary) = self.cache.get(&key) {
            return Some(summary);
        }
        let expertise = match input.expertise {
            Expertise::Beginner => "beginner",
            Expertise::Expert => "expert",
        };
        let result = within(budget, self.client.chat_json::<Answer>(&request(facts)))
            .await
            .and_then(|(answer, _)| validate(&answer.summary, response));
        match result {
            Ok(summary) => {
                tracing::info!(
                    prompt = PROMPT_VERSION,
                    expertise,
                    "summary written by the LLM"
                );
                self.cache.insert(key, summary.clone());
                Some(summary)
            }
            Err(reason) => {
                tracing::warn!(prompt = PROMPT_VERSION, %reason, "LLM summary not used; the template summary answers");
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::analysis::{SkinType, analyze};

    fn analysed(allergies: &[&str]) -> (AnalysisInput, AnalysisResponse) {
        let allergies: Vec<String> = allergies.iter().map(|a| (*a).to_owned()).collect();
        let input = AnalysisInput::new(
            Some("Cream"),
            Some("Water, Almond Oil, Parfum"),
            &allergies,
            SkinType::Normal,
            Expertise::Beginner,
        )
        .unwrap();
        let response = analyze(&input);
        (input, response)
    }

    #[test]
    fn summaries_are_checked() {
        let (_, plain) = analysed(&[]);
        assert_eq!(validate("  Looks fine. ", &plain).unwrap(), "Looks fine.");
        assert!(validate("   ", &plain).is_err());
        assert!(validate(&"a".repeat(MAX_CHARS + 1), &plain).is_err());
        assert!(validate("bell\u{7}", &plain).is_err());
        let (_, allergic) = analysed(&["nuts"]);
        assert!(!allergic.allergen_warnings.is_empty());
        assert!(validate("Looks fine.", &allergic).is_err());
        assert!(
            validate(
                "Not for you: almond oil matches your nut allergy.",
                &allergic
            )
            .is_ok()
        );
    }

    #[test]
    fn the_facts_are_the_responses_own() {
        let (input, response) = analysed(&["nuts"]);
        let facts: serde_json::Value = serde_json::from_str(&facts(&input, &response)).unwrap();
        assert_eq!(facts["product"], "Cream");
        assert_eq!(facts["expertise"], "beginner");
        assert_eq!(facts["ingredients"].as_array().unwrap().len(), 3);
        assert_eq!(facts["allergies"], json!(["nuts"]));
    }
}
