//! Finding JSON in what a model wrote: the whole answer, a markdown fence, or the first
//! object or array inside prose.

/// Extracts the first JSON value from `text`.
pub fn extract_json(text: &str) -> Option<serde_json::Value> {
    let trimmed = text.trim();
    if let Ok(value) = serde_json::from_str(trimmed) {
        return Some(value);
    }
    for fenced in fences(trimmed) {
        if let Ok(value) = serde_json::from_str(fenced.trim()) {
            return Some(value);
        }
    }
    first_embedded_value(trimmed)
}

/// Bodies of markdown code fences (```json ... ``` or ``` ... ```).
fn fences(text: &str) -> impl Iterator<Item = &str> {
    text.split("```").skip(1).step_by(2).map(|block| {
        // Drop an info string such as `json` on the opening line.
        match block.split_once('\n') {
            Some((info, rest)) if !info.trim_start().starts_with(['{', '[']) => rest,
            _ => block,
        }
    })
}

/// The first JSON object or array that starts at a `{` or `[` of `text` and parses, read
/// by serde_json's stream deserializer (which stops at the end of the value and leaves the
/// prose after it unread).
fn first_embedded_value(text: &str) -> Option<serde_json::Value> {
    text.match_indices(['{', '[']).find_map(|(start, _)| {
        serde_json::Deserializer::from_str(&text[start..])
            .into_iter::<serde_json::Value>()
            .next()
            .and_then(Result::ok)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn plain_json() {
        assert_eq!(extract_json(" {\"a\": 1} "), Some(json!({"a": 1})));
    }

    #[test]
    fn fenced_json() {
        let text = "Here you go:\n```json\n{\"items\": [\"water\"]}\n```\nAnything else?";
        assert_eq!(extract_json(text), Some(json!({"items": ["water"]})));
    }

    #[test]
    fn json_in_prose_with_tricky_strings() {
        let text = r#"Sure! The result is {"note": "a } inside \" a string", "n": [1, 2]} — done."#;
        assert_eq!(
            extract_json(text),
            Some(json!({"note": "a } inside \" a string", "n": [1, 2]}))
        );
    }

    #[test]
    fn skips_unbalanced_or_invalid_candidates() {
        let text = "{not json} and then [1, 2, 3]";
        assert_eq!(extract_json(text), Some(json!([1, 2, 3])));
        assert_eq!(extract_json("no json here {"), None);
        assert_eq!(extract_json(""), None);
    }

    #[test]
    fn an_unclosed_object_before_a_valid_one_is_skipped() {
        let text = r#"Thinking: {"draft": [1, 2 ... final answer: {"items": ["salt"]} ok"#;
        assert_eq!(extract_json(text), Some(json!({"items": ["salt"]})));
    }
}
