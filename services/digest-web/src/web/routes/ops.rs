//! `GET /api/metrics` and `GET /api/errors`, read from the run store.

use std::collections::HashMap;

use actix_web::{HttpResponse, web};
use serde_json::json;

use crate::store::window::Window;
use crate::store::{queries, unsubscribes};
use crate::web::conversations;
use crate::web::error::WebError;
use crate::web::state::AppState;

/// Errors returned when `limit` is absent.
pub const DEFAULT_LIMIT: u32 = 10;
/// The largest `limit`; larger values are clamped to it.
pub const MAX_LIMIT: u32 = 100;

/// Parses `period` (absent: 24h).
pub fn parse_period(query: &HashMap<String, String>) -> Result<Window, WebError> {
    match query.get("period") {
        None => Ok(Window::default()),
        Some(p) => Window::parse_period(p).ok_or_else(|| {
            let shown: String = p.chars().take(40).collect();
            WebError::BadRequest(format!(
                "unknown period '{shown}': allowed values are {}",
                Window::PERIODS
            ))
        }),
    }
}

/// Parses `limit` (absent: 10; a positive integer; above 100: clamped to 100).
pub fn parse_limit(query: &HashMap<String, String>) -> Result<u32, WebError> {
    let Some(raw) = query.get("limit") else {
        return Ok(DEFAULT_LIMIT);
    };
    let digits = raw.as_str();
    let positive = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && digits.bytes().any(|b| b != b'0');
    if !positive {
        let shown: String = raw.chars().take(40).collect();
        return Err(WebError::BadRequest(format!(
            "limit must be a positive integer (at most {MAX_LIMIT}), got '{shown}'"
        )));
    }
    // Any number with more than three digits is above the maximum anyway.
    Ok(digits
        .parse::<u32>()
        .map_or(MAX_LIMIT, |n| n.min(MAX_LIMIT)))
}

/// `GET /api/metrics?period=24h|7d|all`.
pub async fn metrics(
    state: web::Data<AppState>,
    query: web::Query<HashMap<String, String>>,
) -> Result<HttpResponse, WebError> {
    let period = parse_period(&query)?;
    let report = web::block(move || -> Result<serde_json::Value, WebError> {
        let conn = state.store.get().map_err(WebError::internal)?;
        let now = queries::now();
        let report = queries::metrics(&conn, period, now).map_err(WebError::internal)?;
        let mut body = serde_json::to_value(&report).map_err(WebError::internal)?;
        // Extra fields: unsubscribes made in the period, and the current digest's
        // conversations (docs/dashboard.md).
        let since = period
            .since(chrono::Utc::now())
            .map(|t| queries::format_time(t.naive_utc()))
            .unwrap_or_default();
        let (done, failed) = unsubscribes::stats(&conn, &since).map_err(WebError::internal)?;
        let digest = state.digest.load_or_empty().map_err(WebError::internal)?;
        let talk = conversations::read(
            &digest.digest,
            &conn,
            &state.settings.owner_addresses,
            state.settings.waiting_days,
            now,
        )
        .map_err(WebError::internal)?;
        if let Some(object) = body.as_object_mut() {
            object.insert(
                "unsubscribes".into(),
                json!({"total": done + failed, "done": done, "failed": failed}),
            );
            object.insert(
                "conversations".into(),
                talk.counts(state.settings.waiting_days),
            );
        }
        Ok(body)
    })
    .await
    .map_err(WebError::internal)??;
    Ok(HttpResponse::Ok().json(report))
}

/// `GET /api/errors?limit=N`.
pub async fn errors(
    state: web::Data<AppState>,
    query: web::Query<HashMap<String, String>>,
) -> Result<HttpResponse, WebError> {
    let limit = parse_limit(&query)?;
    let errors = web::block(move || {
        let conn = state.store.get().map_err(WebError::internal)?;
        queries::recent_errors(&conn, limit).map_err(WebError::internal)
    })
    .await
    .map_err(WebError::internal)??;
    Ok(HttpResponse::Ok().json(json!({ "errors": errors })))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(k: &str, v: &str) -> HashMap<String, String> {
        HashMap::from([(k.to_owned(), v.to_owned())])
    }

    #[test]
    fn limits() {
        assert_eq!(parse_limit(&HashMap::new()).unwrap(), 10);
        assert_eq!(parse_limit(&q("limit", "3")).unwrap(), 3);
        assert_eq!(parse_limit(&q("limit", "101")).unwrap(), 100);
        assert_eq!(
            parse_limit(&q("limit", "99999999999999999999")).unwrap(),
            100
        );
        for bad in ["0", "-1", "1.5", "abc", "", "000", " 5"] {
            assert!(parse_limit(&q("limit", bad)).is_err(), "{bad}");
        }
    }

    proptest::proptest! {
        #[test]
        fn any_limit_is_a_400_or_within_1_to_100(raw in "\\PC{0,24}") {
            match parse_limit(&q("limit", &raw)) {
                Ok(n) => {
                    proptest::prop_assert!((1..=MAX_LIMIT).contains(&n));
                    proptest::prop_assert!(raw.bytes().all(|b| b.is_ascii_digit()));
                }
                Err(e) => proptest::prop_assert!(e.to_string().starts_with("limit must be")),
            }
        }

        #[test]
        fn decimal_limits_are_clamped(n in 1u64..u64::MAX) {
            let expected = u32::try_from(n.min(u64::from(MAX_LIMIT))).unwrap();
            proptest::prop_assert_eq!(parse_limit(&q("limit", &n.to_string())).unwrap(), expected);
        }
    }

    #[test]
    fn periods() {
        assert_eq!(parse_period(&HashMap::new()).unwrap(), Window::Day);
        assert_eq!(parse_period(&q("period", "all")).unwrap(), Window::All);
        let err = parse_period(&q("period", "1y")).unwrap_err();
        assert!(err.to_string().contains("24h, 7d, all"));
    }
}
