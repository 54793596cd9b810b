//! `POST /api/tests/run` (one suite at a time; 409 while one runs) and
//! `GET /api/tests/results` (404 before any run).

use std::sync::atomic::Ordering;

use actix_web::http::header::CONTENT_TYPE;
use actix_web::{HttpRequest, HttpResponse, web};
use futures_util::StreamExt;
use serde_json::json;

use crate::store::test_runs;
use crate::web::diagnostics::{self, Suite};
use crate::web::error::WebError;
use crate::web::state::AppState;

/// Reads the body up to `limit` bytes (413 beyond).
async fn read_body(mut payload: web::Payload, limit: usize) -> Result<Vec<u8>, WebError> {
    let too_large = || {
        WebError::PayloadTooLarge(format!(
            "request body is larger than the limit of {limit} bytes"
        ))
    };
    let mut body = Vec::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| match e {
            actix_web::error::PayloadError::Overflow => too_large(),
            other => WebError::BadRequest(format!("could not read the request body: {other}")),
        })?;
        if body.len() + chunk.len() > limit {
            return Err(too_large());
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// The suite a request asks for: `basic` when the body is empty or has no `suite`.
fn requested_suite(req: &HttpRequest, body: &[u8]) -> Result<Suite, WebError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Suite::Basic);
    }
    let content_type = req
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let essence = content_type.split(';').next().unwrap_or("").trim();
    if !essence.eq_ignore_ascii_case("application/json") {
        return Err(WebError::UnsupportedMediaType(
            "Content-Type must be application/json".into(),
        ));
    }
    let value: serde_json::Value = serde_json::from_slice(body)
        .map_err(|e| WebError::BadRequest(format!("invalid JSON body: {e}")))?;
    let Some(object) = value.as_object() else {
        return Err(WebError::BadRequest(
            "the body must be a JSON object such as {\"suite\": \"basic\"}".into(),
        ));
    };
    match object.get("suite") {
        None | Some(serde_json::Value::Null) => Ok(Suite::Basic),
        Some(serde_json::Value::String(name)) => Suite::parse(name).ok_or_else(|| {
            let shown: String = name.chars().take(40).collect();
            WebError::BadRequest(format!(
                "unknown suite '{shown}': allowed values are {}",
                Suite::ALLOWED
            ))
        }),
        Some(_) => Err(WebError::BadRequest(format!(
            "suite must be a string, one of {}",
            Suite::ALLOWED
        ))),
    }
}

struct TestFlag(web::Data<AppState>);

impl Drop for TestFlag {
    fn drop(&mut self) {
        self.0.tests_running.store(false, Ordering::SeqCst);
    }
}

/// Runs `suite` and stores its result; 409 while another run is in progress.
pub async fn run_suite(
    state: web::Data<AppState>,
    suite: Suite,
) -> Result<diagnostics::Report, WebError> {
    if state
        .tests_running
        .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
        .is_err()
    {
        return Err(WebError::Conflict(
            "a test run is already in progress; try again when it has finished".into(),
        ));
    }
    let flag = TestFlag(state.clone());
    // Detached, so a client hanging up does not leave a half-recorded run.
    actix_web::rt::spawn(async move {
        let _flag = flag;
        let settings = state.settings.clone();
        let pool = state.store.clone();
        tokio::task::spawn_blocking(move || {
            let report = diagnostics::run(suite, &settings);
            let stored = pool.get().map_err(|e| e.to_string()).and_then(|conn| {
                test_runs::insert(
                    &conn,
                    suite.as_str(),
                    &report.started_at,
                    &report.counts,
                    &report.failures,
                )
                .map_err(|e| e.to_string())
            });
            if let Err(e) = stored {
                tracing::error!(error = %e, "cannot store the test run");
            }
            report
        })
        .await
    })
    .await
    .map_err(|e| WebError::Internal(format!("internal server error: {e}")))?
    .map_err(|e| WebError::Internal(format!("internal server error: {e}")))
}

/// `POST /api/tests/run`.
pub async fn run(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, WebError> {
    let body = read_body(payload, state.settings.max_body_bytes).await?;
    let suite = requested_suite(&req, &body)?;
    let report = run_suite(state, suite).await?;
    Ok(HttpResponse::Ok().json(json!({
        "status": if report.counts.failed == 0 { "success" } else { "failure" },
        "suite": report.suite.as_str(),
        "results": report.counts,
        "failures": report.failures,
    })))
}

/// `GET /api/tests/results`.
pub async fn results(state: web::Data<AppState>) -> Result<HttpResponse, WebError> {
    let latest = web::block(move || {
        state
            .store
            .get()
            .map_err(|e| e.to_string())
            .and_then(|conn| test_runs::latest(&conn).map_err(|e| e.to_string()))
    })
    .await
    .map_err(|e| WebError::Internal(format!("internal server error: {e}")))?
    .map_err(|e| WebError::Internal(format!("internal server error: {e}")))?;
    match latest {
        Some(run) => Ok(HttpResponse::Ok().json(run)),
        None => Err(WebError::NotFound(
            "no test has run yet: POST /api/tests/run to run one".into(),
        )),
    }
}
