//! `GET /` (the digest page), `GET /tests` and the static files.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use actix_web::http::header::{CACHE_CONTROL, CONTENT_TYPE, LOCATION};
use actix_web::{HttpRequest, HttpResponse, web};

use crate::store::digest_file::CachedDigest;
use crate::store::window::Window;
use crate::store::{queries, test_runs};
use crate::web::diagnostics::Suite;
use crate::web::error::WebError;
use crate::web::pages::{IndexPage, tests_context};
use crate::web::refresh::RefreshOutcome;
use crate::web::state::AppState;

/// Errors listed on the page.
const PAGE_ERRORS: u32 = 10;
/// Runs drawn in the history chart.
const PAGE_RUNS: u32 = 40;

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
        .and_then(|p| Window::parse_period(p))
        .unwrap_or_default();
    let notice = refresh_notice(&query);
    let unsubscribe_notice = query.get("unsubscribe").cloned();
    let body = web::block(move || {
        let (digest, digest_error) = match state.digest.load_or_empty() {
            Ok(d) => (d, None),
            Err(e) => (Arc::new(CachedDigest::empty()), Some(e.to_string())),
        };
        let conn = state.store.get().map_err(WebError::internal)?;
        let (acting, marks) = crate::web::conversations::panel(
            &state.unsubscriber,
            &state.settings.owner_addresses,
            state.settings.waiting_days,
            &digest.digest,
            &conn,
            unsubscribe_notice.as_deref(),
        )
        .map_err(WebError::internal)?;
        let fresh;
        let sections_html = if marks.is_empty() {
            digest
                .sections_html(|d| state.templates.render_sections(d))
                .map_err(WebError::internal)?
        } else {
            fresh = state
                .templates
                .render_sections_marked(&digest.digest, &marks)
                .map_err(WebError::internal)?;
            fresh.as_str()
        };
        let status = state.refresh.status();
        let now = queries::now();
        let metrics = queries::metrics(&conn, period, now).map_err(WebError::internal)?;
        let runs =
            queries::run_history(&conn, period, now, PAGE_RUNS).map_err(WebError::internal)?;
        let errors = queries::recent_errors(&conn, PAGE_ERRORS).map_err(WebError::internal)?;
        let page = IndexPage {
            digest: &digest.digest,
            sections_html,
            digest_error,
            status: &status,
            metrics: &metrics,
            runs: &runs,
            errors: &errors,
            timeout_secs: state.settings.refresh_timeout_secs,
            notice,
            acting: &acting,
        };
        state
            .templates
            .render_index(&page)
            .map_err(WebError::internal)
    })
    .await
    .map_err(WebError::internal)??;
    Ok(html(body))
}

/// `GET /tests` (`?busy=1` after a form run refused because another one was running).
pub async fn tests(
    state: web::Data<AppState>,
    query: web::Query<HashMap<String, String>>,
) -> Result<HttpResponse, WebError> {
    let busy = query.contains_key("busy");
    let body = web::block(move || {
        let conn = state.store.get().map_err(WebError::internal)?;
        let latest = test_runs::latest(&conn).map_err(WebError::internal)?;
        let running = state.tests_running.load(Ordering::SeqCst);
        state
            .templates
            .render("tests.html", &tests_context(latest.as_ref(), running, busy))
            .map_err(WebError::internal)
    })
    .await
    .map_err(WebError::internal)??;
    Ok(html(body))
}

fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((LOCATION, location))
        .finish()
}

/// `POST /refresh`: the Refresh button without JavaScript. Runs the refresh like
/// `POST /api/refresh`, then sends the browser back to the page, which says how it ended.
pub async fn refresh_form(state: web::Data<AppState>) -> HttpResponse {
    let outcome = match state.refresh.run().await {
        RefreshOutcome::Success { .. } => "success",
        RefreshOutcome::Busy(_) => "busy",
        RefreshOutcome::Failed(_) => "error",
        RefreshOutcome::TimedOut(_) => "timeout",
    };
    see_other(&format!("/?refresh={outcome}#refresh-h"))
}

/// `POST /tests/run` (form field `suite`): the suite buttons without JavaScript.
pub async fn run_suite_form(
    state: web::Data<AppState>,
    form: web::Form<HashMap<String, String>>,
) -> Result<HttpResponse, WebError> {
    let suite = match form.get("suite") {
        None => Suite::Basic,
        Some(name) => Suite::parse(name).ok_or_else(|| {
            let shown: String = name.chars().take(40).collect();
            WebError::BadRequest(format!(
                "unknown suite '{shown}': allowed values are {}",
                Suite::ALLOWED
            ))
        })?,
    };
    match crate::web::diagnostics::handlers::run_suite(state, suite).await {
        Ok(_) => Ok(see_other("/tests#latest-results")),
        Err(WebError::Conflict(_)) => Ok(see_other("/tests?busy=1")),
        Err(e) => Err(e),
    }
}

/// The line the page shows after a form refresh (`?refresh=...`); unknown values show none.
fn refresh_notice(query: &HashMap<String, String>) -> Option<(&'static str, &'static str)> {
    Some(match query.get("refresh")?.as_str() {
        "success" => ("ok", "The refresh finished."),
        "busy" => ("fail", "A refresh is already running; reload in a moment."),
        "error" => (
            "fail",
            "The refresh failed: its error is listed under Recent errors.",
        ),
        "timeout" => ("fail", "The refresh took too long and was stopped."),
        _ => return None,
    })
}

/// The static files, embedded in the binary (nothing is loaded from elsewhere).
const STATIC: &[(&str, &str, &str)] = &[
    (
        "app.css",
        "text/css; charset=utf-8",
        include_str!("../../../static/app.css"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("../../../static/app.js"),
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
