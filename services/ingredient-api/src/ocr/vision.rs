//! A vision LLM reading the label, tried before Tesseract.
//!
//! The model gets the upright, decoded photo re-encoded by us (JPEG, longest side at most
//! [`MAX_SIDE`]; never the client's bytes) as a base64 data URL, and answers JSON: the
//! label's language, the list as printed and the list in English. The answer is validated
//! (language among the nine, strings of sane sizes, as many English items as printed ones);
//! names the knowledge base knows take its canonical English name, as on the offline path.
//! Any failure or invalid answer is an `Err` with the reason: the caller logs it at warn and
//! Tesseract answers.

use std::io::Cursor;
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use domain::knowledge::KnowledgeBase;
use domain::ocr::label::Language;
use domain::ocr::translate::to_english;
use image::DynamicImage;
use image::codecs::jpeg::JpegEncoder;
use image::imageops::FilterType;
use llm_client::{ChatRequest, JsonSchema, LlmClient, Message};
use serde::Deserialize;
use serde_json::json;
use unicode_normalization::UnicodeNormalization;

use super::OcrOutcome;
use crate::llm::{plain_text, within};

/// The prompt, versioned (logged with every outcome).
pub const PROMPT: &str = include_str!("../../prompts/ocr-vision.v1.md");
/// Version of [`PROMPT`].
pub const PROMPT_VERSION: &str = "ocr-vision.v1";
/// Longest side of the image sent (vision models downscale beyond about this anyway).
pub const MAX_SIDE: u32 = 2048;
/// Most items accepted (the `/analyze` limit).
pub const MAX_ITEMS: usize = domain::analysis::input::MAX_INGREDIENTS;
/// Longest item accepted, in characters.
pub const MAX_ITEM_CHARS: usize = 200;

/// The photo as sent: a base64 JPEG.
#[derive(Debug, Clone)]
pub struct VisionImage {
    /// Base64 of the JPEG file, without prefix.
    pub base64: String,
}

/// Re-encodes the upright image for the model: RGB, longest side at most [`MAX_SIDE`], JPEG
/// quality 85.
pub fn encode(image: &DynamicImage) -> Result<VisionImage, image::ImageError> {
    let (w, h) = (image.width(), image.height());
    let resized;
    let image = if w.max(h) > MAX_SIDE {
        resized = image.resize(MAX_SIDE, MAX_SIDE, FilterType::Triangle);
        &resized
    } else {
        image
    };
    let rgb = image.to_rgb8();
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(Cursor::new(&mut out), 85).encode_image(&rgb)?;
    Ok(VisionImage {
        base64: STANDARD.encode(out),
    })
}

#[derive(Debug, Deserialize)]
struct Answer {
    language: String,
    original_text: Vec<String>,
    text: Vec<String>,
}

/// The JSON schema sent with the request.
pub fn schema() -> JsonSchema {
    let strings = json!({"type": "array", "items": {"type": "string"}});
    JsonSchema {
        name: "label_ingredients".into(),
        schema: json!({
            "type": "object",
            "additionalProperties": false,
            "required": ["language", "original_text", "text"],
            "properties": {
                "language": {"type": "string"},
                "original_text": strings,
                "text": strings,
            }
        }),
    }
}

/// The request for one image.
pub fn request(image: &VisionImage) -> ChatRequest {
    ChatRequest {
        messages: vec![
            Message::system(PROMPT),
            Message::user_with_image(
                "Read the ingredient list of this label.",
                "image/jpeg",
                &image.base64,
            ),
        ],
        schema: Some(schema()),
        temperature: Some(0.0),
        max_tokens: Some(4000),
    }
}

fn clean(item: &str) -> String {
    item.nfkc().collect::<String>().trim().to_owned()
}

/// The outcome for a valid answer, or why it is not usable.
fn validate(answer: &Answer, engine: &str) -> Result<OcrOutcome, String> {
    let code = answer.language.trim().to_ascii_lowercase();
    let language = Language::from_code(&code).ok_or_else(|| {
        format!(
            "language {:?} is not one of the nine label languages",
            answer.language.chars().take(20).collect::<String>()
        )
    })?;
    let original: Vec<String> = answer.original_text.iter().map(|s| clean(s)).collect();
    let english: Vec<String> = answer.text.iter().map(|s| clean(s)).collect();
    if original.is_empty() {
        return Err("no ingredient list in the answer".into());
    }
    if original.len() != english.len() {
        return Err(format!(
            "{} printed items but {} English ones",
            original.len(),
            english.len()
        ));
    }
    if original.len() > MAX_ITEMS {
        return Err(format!(
            "{} items, over the limit of {MAX_ITEMS}",
            original.len()
        ));
    }
    if let Some(bad) = original
        .iter()
        .chain(&english)
        .find(|item| !plain_text(item, MAX_ITEM_CHARS) || item.contains('\n'))
    {
        return Err(format!(
            "item {:?} is blank, too long or has control characters",
            bad.chars().take(40).collect::<String>()
        ));
    }
    // The knowledge base's English name wins where it knows the printed one, so /ocr gives the
    // same names on both paths; elsewhere the model's translation stands.
    let kb = KnowledgeBase::embedded();
    // Translated as one list: whether it is a cosmetic one decides how names are written.
    let ours = to_english(kb, &original, Some(language));
    let text: Vec<String> = original
        .iter()
        .zip(&english)
        .zip(ours)
        .map(|((printed, model), known)| {
            if language == Language::English {
                return printed.clone();
            }
            if known != *printed {
                known
            } else {
                model.clone()
            }
        })
        .collect();
    Ok(OcrOutcome {
        text: text.join(", "),
        original_text: original.join(", "),
        language: Some(language),
        engine: engine.to_owned(),
        raw_text: answer.original_text.join("\n"),
    })
}

/// The vision backend: a client and the per-request budget.
#[derive(Debug, Clone)]
pub struct VisionEngine {
    client: LlmClient,
    budget: Duration,
    label: String,
}

impl VisionEngine {
    /// A backend over `client` that waits at most `budget` per image.
    pub fn new(client: LlmClient, budget: Duration) -> Self {
        let label = client.config().engine_label();
        Self {
            client,
            budget,
            label,
        }
    }

    /// The engine label, `llm:<model>`.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Reads the label, or says why not (within the budget).
    pub async fn read(&self, image: &VisionImage) -> Result<OcrOutcome, String> {
        let result = within(
            self.budget,
            self.client.chat_json::<Answer>(&request(image)),
        )
        .await
        .and_then(|(answer, _)| validate(&answer, &self.label));
        let outcome = if result.is_ok() { "used" } else { "fallback" };
        crate::llm::record("ocr", outcome, &self.client);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(language: &str, original: &[&str], text: &[&str]) -> Answer {
        Answer {
            language: language.into(),
            original_text: original.iter().map(|s| (*s).to_owned()).collect(),
            text: text.iter().map(|s| (*s).to_owned()).collect(),
        }
    }

    #[test]
    fn a_valid_answer_uses_the_knowledge_base_names_where_known() {
        let out = validate(
            &answer(
                "FR",
                &["Farine de blé", "Zorbitol bleu"],
                &["Flour of wheat", "Blue zorbitol"],
            ),
            "llm:m",
        )
        .unwrap();
        assert_eq!(out.language, Some(Language::French));
        assert_eq!(out.original_text, "Farine de blé, Zorbitol bleu");
        assert_eq!(out.text, "Wheat Flour, Blue zorbitol");
        assert_eq!(out.engine, "llm:m");
    }

    #[test]
    fn invalid_answers_are_refused() {
        for bad in [
            answer("nl", &["Water"], &["Water"]),
            answer("english", &["Water"], &["Water"]),
            answer("en", &[], &[]),
            answer("en", &["Water", "Salt"], &["Water"]),
            answer("en", &["Water", ""], &["Water", "Salt"]),
            answer("en", &["Wa\u{0}ter"], &["Water"]),
        ] {
            assert!(validate(&bad, "llm:m").is_err());
        }
        let long = "x".repeat(MAX_ITEM_CHARS + 1);
        assert!(validate(&answer("en", &[&long], &["x"]), "llm:m").is_err());
    }

    #[test]
    fn big_photos_are_downscaled_for_the_model() {
        let image = DynamicImage::new_rgb8(4000, 1000);
        let sent = encode(&image).unwrap();
        let bytes = STANDARD.decode(&sent.base64).unwrap();
        let back = image::load_from_memory(&bytes).unwrap();
        assert_eq!((back.width(), back.height()), (MAX_SIDE, 512));
        assert!(request(&sent).messages[1].parts.len() == 2);
    }
}
