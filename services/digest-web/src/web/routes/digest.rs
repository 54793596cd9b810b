//! `GET /api/digest`: the Digest, or an empty one with all five categories before the first
//! refresh; a corrupted file is a 500 `{"error": ...}`.
//!
//! Beside the spec's fields the body carries what acting on mail adds (docs/dashboard.md):
//! `unsubscribe` (the Newsletter and Promotional senders), `replies` (per Need-Action email,
//! whether the owner answered), `waiting` (the owner's unanswered messages) and
//! `sent_mail_read`. They change without a new digest (an unsubscribe, a later refresh of the
//! sent mail), so they are computed per request and appended to the digest's cached body.

use actix_web::http::header::ContentType;
use actix_web::{HttpResponse, web};
use serde_json::json;

use crate::store::queries;
use crate::web::conversations;
use crate::web::error::WebError;
use crate::web::state::AppState;
use crate::web::unsubscribe;

/// `GET /api/digest`.
pub async fn get(state: web::Data<AppState>) -> Result<HttpResponse, WebError> {
    let body = web::block(move || -> Result<Vec<u8>, WebError> {
        let digest = state.digest.load_or_empty().map_err(WebError::internal)?;
        let body = digest.json().map_err(WebError::internal)?;
        let conn = state.store.get().map_err(WebError::internal)?;
        let senders = unsubscribe::senders(&digest.digest, &conn, &state.unsubscriber)
            .map_err(WebError::internal)?;
        let talk = conversations::read(
            &digest.digest,
            &conn,
            &state.settings.owner_addresses,
            state.settings.waiting_days,
            queries::now(),
        )
        .map_err(WebError::internal)?;
        let extra = json!({
            "unsubscribe": senders,
            "replies": talk.replies,
            "waiting": talk.waiting,
            "sent_mail_read": talk.sent_mail_read,
        });
        Ok(append_fields(&body, &extra))
    })
    .await
    .map_err(WebError::internal)??;
    Ok(HttpResponse::Ok()
        .content_type(ContentType::json())
        .body(body))
}

/// `object` (a serialised JSON object) with the fields of `extra` (an object) added at its
/// end, without parsing it again.
fn append_fields(object: &[u8], extra: &serde_json::Value) -> Vec<u8> {
    let extra = extra.to_string();
    let inner = extra
        .strip_prefix('{')
        .and_then(|e| e.strip_suffix('}'))
        .unwrap_or("");
    let end = object
        .iter()
        .rposition(|&b| b == b'}')
        .unwrap_or(object.len());
    let mut out = Vec::with_capacity(object.len() + extra.len() + 1);
    out.extend_from_slice(&object[..end]);
    if !inner.is_empty() {
        let empty = object[..end]
            .iter()
            .rev()
            .find(|b| !b.is_ascii_whitespace())
            .is_some_and(|&b| b == b'{');
        if !empty {
            out.push(b',');
        }
        out.extend_from_slice(inner.as_bytes());
    }
    out.push(b'}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_appended_to_an_object() {
        let got = append_fields(br#"{"a":1}"#, &json!({"b": [2]}));
        assert_eq!(
            serde_json::from_slice::<serde_json::Value>(&got).unwrap(),
            json!({"a": 1, "b": [2]})
        );
        let got = append_fields(b"{}", &json!({"b": 2}));
        assert_eq!(
            serde_json::from_slice::<serde_json::Value>(&got).unwrap(),
            json!({"b": 2})
        );
        let got = append_fields(br#"{"a":1}"#, &json!({}));
        assert_eq!(got, br#"{"a":1}"#);
    }
}
