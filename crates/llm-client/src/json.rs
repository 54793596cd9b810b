//! Finding JSON in what a model wrote: the whole answer, a markdown fence, or the first
//! balanced object or array inside prose.

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
    balanced_candidates(trimmed).find_map(|candidate| serde_json::from_str(candidate).ok())
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

/// Every substring that starts at `{` or `[` and ends at its matching bracket, ignoring
/// brackets inside strings.
fn balanced_candidates(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| matches!(b, b'{' | b'['))
        .filter_map(move |(start, _)| {
            let mut depth = 0usize;
            let mut in_string = false;
            let mut escaped = false;
            for (offset, &b) in bytes[start..].iter().enumerate() {
                if in_string {
                    match b {
                        _ if escaped => escaped = false,
                        b'\\' => escaped = true,
                        b'"' => in_string = false,
                        _ => {}
                    }
                    continue;
                }
                match b {
                    b'"' => in_string = true,
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(&text[start..=start + offset]);
                        }
                    }
                    _ => {}
                }
            }
            None
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
}
