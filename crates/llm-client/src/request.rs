//! What is sent: messages with text and images, and an optional JSON schema.

use serde_json::{Value, json};

/// Who speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr)]
#[strum(serialize_all = "lowercase")]
pub enum Role {
    /// Instructions.
    System,
    /// The user's content.
    User,
    /// A previous model answer.
    Assistant,
}

/// One piece of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// Text.
    Text(String),
    /// An image as a `data:<mime>;base64,<data>` URL.
    ImageDataUrl(String),
}

/// One chat message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// The speaker.
    pub role: Role,
    /// Text and image parts, in order.
    pub parts: Vec<Part>,
}

impl Message {
    /// A system message.
    pub fn system(text: impl Into<String>) -> Self {
        Self {
            role: Role::System,
            parts: vec![Part::Text(text.into())],
        }
    }

    /// A user message of text.
    pub fn user(text: impl Into<String>) -> Self {
        Self {
            role: Role::User,
            parts: vec![Part::Text(text.into())],
        }
    }

    /// A user message with an image (`mime` such as `image/png`, `base64` without prefix).
    pub fn user_with_image(text: impl Into<String>, mime: &str, base64: &str) -> Self {
        Self {
            role: Role::User,
            parts: vec![
                Part::Text(text.into()),
                Part::ImageDataUrl(format!("data:{mime};base64,{base64}")),
            ],
        }
    }

    fn to_json(&self) -> Value {
        let content = match self.parts.as_slice() {
            [Part::Text(text)] => json!(text),
            parts => Value::Array(
                parts
                    .iter()
                    .map(|part| match part {
                        Part::Text(text) => json!({"type": "text", "text": text}),
                        Part::ImageDataUrl(url) => {
                            json!({"type": "image_url", "image_url": {"url": url}})
                        }
                    })
                    .collect(),
            ),
        };
        let role: &'static str = self.role.into();
        json!({"role": role, "content": content})
    }
}

/// A JSON schema the answer must follow.
#[derive(Debug, Clone, PartialEq)]
pub struct JsonSchema {
    /// A short identifier (`[a-zA-Z0-9_-]`), e.g. `ingredient_analysis`.
    pub name: String,
    /// The JSON Schema document.
    pub schema: Value,
}

/// One Chat Completions request.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ChatRequest {
    /// The conversation.
    pub messages: Vec<Message>,
    /// Ask for JSON following this schema (see [`crate::JsonMode`]).
    pub schema: Option<JsonSchema>,
    /// Sampling temperature (default: the server's).
    pub temperature: Option<f32>,
    /// Upper bound of completion tokens.
    pub max_tokens: Option<u32>,
}

/// How the request asks for JSON in one attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    Plain,
    Schema,
    Object,
}

impl ChatRequest {
    pub(crate) fn body(&self, model: &str, format: Format) -> Value {
        let mut body = json!({
            "model": model,
            "messages": self.messages.iter().map(Message::to_json).collect::<Vec<_>>(),
        });
        if let Some(t) = self.temperature {
            body["temperature"] = json!(t);
        }
        if let Some(n) = self.max_tokens {
            body["max_tokens"] = json!(n);
        }
        match (format, &self.schema) {
            (Format::Schema, Some(schema)) => {
                body["response_format"] = json!({
                    "type": "json_schema",
                    "json_schema": {"name": schema.name, "schema": schema.schema, "strict": true}
                });
            }
            (Format::Object, _) => body["response_format"] = json!({"type": "json_object"}),
            _ => {}
        }
        body
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_only_message_is_a_string_and_images_are_parts() {
        let req = ChatRequest {
            messages: vec![
                Message::system("be brief"),
                Message::user_with_image("read this", "image/png", "AAAA"),
            ],
            ..Default::default()
        };
        let body = req.body("m", Format::Plain);
        assert_eq!(
            body["messages"][0],
            json!({"role": "system", "content": "be brief"})
        );
        assert_eq!(
            body["messages"][1]["content"][1],
            json!({"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}})
        );
        assert!(body.get("response_format").is_none());
        let assistant = Message {
            role: Role::Assistant,
            parts: vec![Part::Text("ok".into())],
        };
        assert_eq!(assistant.to_json()["role"], "assistant");
    }
}
