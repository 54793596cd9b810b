//! `GET /` (the digest page), `GET /tests` and the static files.

use std::collections::HashMap;
use std::sync::atomic::Ordering;

use actix_web::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use actix_web::{HttpRequest, HttpResponse, web};

use crate::digest_file;
use crate::error::WebError;
use crate::pages::{IndexPage, tests_context};
use crate::state::AppState;
use crate::store::{self, queries, test_runs};

/// Errors listed on the page.
const PAGE_ERRORS: u32 = 10;
/// Runs drawn in the history chart.
const PAGE_RUNS: u32 = 40;

fn internal(e: impl std::fmt::Display) -> WebError {
    tracing::error!(error = %e, "page failure");
    WebError::Internal(format!("internal server error: {e}"))
}

fn html(body: String) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .insert_header((CACHE_CONTROL, "no-store"))
        .body(body)
}

/// `GET /?period=24h|7d|all`: the digest page (an unknown period shows 24h).
pub async fn index(
    state: web::Data<AppState>,
    query: web::Query<HashMap<String, String>>,
) -> Result<HttpResponse, WebError> {
    let period = query
        .get("period")
        .and_then(|p| queries::Period::parse(p))
        .unwrap_or_default();
    let body = web::block(move || {
        let dir = &state.settings.data_dir;
        let (digest, digest_error) = match digest_file::load_or_empty(dir) {
            Ok(d) => (d, None),
            Err(e) => (
                domain::email::Digest::empty(digest_file::NEVER),
                Some(e.to_string()),
            ),
        };
        let status = state.refresh.status();
        let conn = store::open(dir).map_err(internal)?;
        let now = queries::now();
        let metrics = queries::metrics(&conn, period, now).map_err(internal)?;
        let runs = queries::run_history(&conn, period, now, PAGE_RUNS).map_err(internal)?;
        let errors = queries::recent_errors(&conn, PAGE_ERRORS).map_err(internal)?;
        let page = IndexPage {
            digest: &digest,
            digest_error,
            status: &status,
            metrics: &metrics,
            runs: &runs,
            errors: &errors,
            timeout_secs: state.settings.refresh_timeout_secs,
        };
        state
            .templates
            .render("index.html", &page.context())
            .map_err(internal)
    })
    .await
    .map_err(internal)??;
    Ok(html(body))
}

/// `GET /tests`.
pub async fn tests(state: web::Data<AppState>) -> Result<HttpResponse, WebError> {
    let body = web::block(move || {
        let conn = store::open(&state.settings.data_dir).map_err(internal)?;
        let latest = test_runs::latest(&conn).map_err(internal)?;
        let running = state.tests_running.load(Ordering::SeqCst);
        state
            .templates
            .render("tests.html", &tests_context(latest.as_ref(), running))
            .map_err(internal)
    })
    .await
    .map_err(internal)??;
    Ok(html(body))
}

/// The static files, embedded in the binary (nothing is loaded from elsewhere).
const STATIC: &[(&str, &str, &str)] = &[
    (
        "app.css",
        "text/css; charset=utf-8",
        include_str!("../../static/app.css"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/app.js"),
    ),
];

/// `GET /static/{file}`.
pub async fn asset(req: HttpRequest) -> Result<HttpResponse, WebError> {
    let name = req.match_info().get("file").unwrap_or("");
    match STATIC.iter().find(|(n, _, _)| *n == name) {
        Some((_, mime, body)) => Ok(HttpResponse::Ok()
            .insert_header((CONTENT_TYPE, *mime))
            .insert_header((CACHE_CONTROL, "public, max-age=300"))
            .body(*body)),
        None => {
            let path: String = req.path().chars().take(200).collect();
            Err(WebError::NotFound(format!("not found: GET {path}")))
        }
    }
}
