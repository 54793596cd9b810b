//! `POST /api/corrections`, `GET /api/corrections`, `DELETE /api/corrections/{id}`: ops staff
//! move an email to another category. The stored digest changes at once (the email moves,
//! with a "corrected by" reason), the correction is recorded with who and when, and the next
//! refresh applies it to the sender and learns from it (see `job::corrections`).
//!
//! Digest edits are serialised in this process by [`AppState::digest_edit`]; a refresh job
//! running meanwhile writes its own digest, which applies every correction recorded before it
//! read them.

use std::collections::HashMap;

use actix_web::{HttpRequest, HttpResponse, web};
use domain::email::{Category, Digest};
use serde::Deserialize;
use serde_json::json;

use crate::store::corrections::{self, Correction, NewCorrection};
use crate::store::{digest_file, queries};
use crate::web::auth;
use crate::web::error::{WebError, shown};
use crate::web::routes::ops::parse_limit;
use crate::web::state::AppState;

/// The body of `POST /api/corrections`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateBody {
    /// The digest item's `id`.
    pub email_id: String,
    /// The category to move it to.
    pub category: String,
}

/// Parses a category name, or the 400 that names the allowed ones.
pub fn parse_category(name: &str) -> Result<Category, WebError> {
    Category::parse(name).ok_or_else(|| {
        let allowed: Vec<&str> = Category::ALL.iter().map(|c| c.as_str()).collect();
        WebError::BadRequest(format!(
            "unknown category '{}': allowed values are {}",
            shown(name),
            allowed.join(", ")
        ))
    })
}

fn load_digest(state: &AppState) -> Result<Digest, WebError> {
    digest_file::load(&state.settings.data_dir)
        .map_err(WebError::internal)
        .map(|d| d.unwrap_or_else(|| Digest::empty(digest_file::NEVER)))
}

fn save_digest(state: &AppState, digest: &Digest) -> Result<(), WebError> {
    digest_file::write_atomically(&digest_file::path(&state.settings.data_dir), digest)
        .map_err(WebError::internal)
}

/// `POST /api/corrections` `{"email_id": "...", "category": "FYI"}`: 201 with the correction.
pub async fn create(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Json<CreateBody>,
) -> Result<HttpResponse, WebError> {
    let body = body.into_inner();
    let to = parse_category(&body.category)?;
    let who = auth::user(&state.settings, req.headers());
    let correction = web::block(move || -> Result<Correction, WebError> {
        let _edit = state.edit_lock();
        let mut digest = load_digest(&state)?;
        let found = digest.categories.iter().find_map(|(c, items)| {
            items
                .iter()
                .find(|item| item.id == body.email_id)
                .map(|item| (*c, item.clone()))
        });
        let Some((from, item)) = found else {
            return Err(WebError::NotFound(format!(
                "no email with id '{}' in the digest",
                shown(&body.email_id)
            )));
        };
        if from == to {
            return Err(WebError::Conflict(format!(
                "email '{}' is already in {to}",
                shown(&body.email_id)
            )));
        }
        let at = queries::format_time(queries::now());
        let conn = state.store.get().map_err(WebError::internal)?;
        let correction = corrections::create(
            &conn,
            &NewCorrection {
                email_id: &item.id,
                sender: &item.from,
                subject: &item.subject,
                snippet: &item.snippet,
                from_category: from,
                category: to,
                by: &who,
                at: &at,
            },
        )
        .map_err(WebError::internal)?;
        corrections::move_in_digest(&mut digest, &item.id, to, Some(correction.reason()));
        if let Err(e) = save_digest(&state, &digest) {
            // The email did not move: the correction must not stay recorded either.
            let _ = conn.execute("DELETE FROM corrections WHERE id = ?1", [correction.id]);
            return Err(e);
        }
        Ok(correction)
    })
    .await
    .map_err(WebError::internal)??;
    Ok(HttpResponse::Created().json(correction))
}

/// `GET /api/corrections?limit=N`: the newest corrections, undone ones included.
pub async fn list(
    state: web::Data<AppState>,
    query: web::Query<HashMap<String, String>>,
) -> Result<HttpResponse, WebError> {
    let limit = parse_limit(&query)?;
    let list = web::block(move || {
        let conn = state.store.get().map_err(WebError::internal)?;
        corrections::list(&conn, limit).map_err(WebError::internal)
    })
    .await
    .map_err(WebError::internal)??;
    Ok(HttpResponse::Ok().json(json!({ "corrections": list })))
}

/// `DELETE /api/corrections/{id}`: undoes a correction; the email goes back to the category
/// it had (when it is still where the correction put it). 200 with the undone correction.
pub async fn undo(
    state: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let raw = id.into_inner();
    let not_found = || WebError::NotFound(format!("no correction with id '{}'", shown(&raw)));
    let id: i64 = match raw.parse() {
        Ok(id) if id > 0 && raw.bytes().all(|b| b.is_ascii_digit()) => id,
        _ => return Err(not_found()),
    };
    let who = auth::user(&state.settings, req.headers());
    let undone = web::block(move || -> Result<Option<Correction>, WebError> {
        let _edit = state.edit_lock();
        let conn = state.store.get().map_err(WebError::internal)?;
        let Some(existing) = corrections::get(&conn, id).map_err(WebError::internal)? else {
            return Ok(None);
        };
        if existing.undone_at.is_some() {
            return Err(WebError::Conflict(format!(
                "correction {id} was already undone"
            )));
        }
        let mut digest = load_digest(&state)?;
        let in_place = digest
            .categories
            .get(&existing.category)
            .is_some_and(|items| items.iter().any(|i| i.id == existing.email_id));
        if in_place {
            corrections::move_in_digest(
                &mut digest,
                &existing.email_id,
                existing.from_category,
                None,
            );
            save_digest(&state, &digest)?;
        }
        let at = queries::format_time(queries::now());
        corrections::undo(&conn, id, &who, &at).map_err(WebError::internal)
    })
    .await
    .map_err(WebError::internal)??;
    match undone {
        Some(c) => Ok(HttpResponse::Ok().json(c)),
        None => Err(WebError::NotFound(format!("no correction with id '{id}'"))),
    }
}
