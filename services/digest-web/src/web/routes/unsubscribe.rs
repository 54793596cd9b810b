//! `GET /api/unsubscribe`, `POST /api/unsubscribe` and the page's form `POST /unsubscribe`:
//! the digest's Newsletter and Promotional senders, and unsubscribing from one of them (see
//! `web::unsubscribe`). Every attempt that reaches a target is recorded with who, when, how
//! and its answer; a refused one is logged and recorded in `errors`, never followed.

use std::collections::HashMap;

use actix_web::http::StatusCode;
use actix_web::http::header::LOCATION;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use serde_json::json;

use crate::store::queries;
use crate::store::runs::{self, ErrorRecord};
use crate::store::unsubscribes::{self, Unsubscribe};
use crate::web::auth;
use crate::web::error::{WebError, shown};
use crate::web::state::AppState;
use crate::web::unsubscribe::{self as unsub, Sender};

/// Unsubscribes listed by `GET /api/unsubscribe`.
const HISTORY: u32 = 50;

/// The body of `POST /api/unsubscribe`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateBody {
    /// The sender address, as `GET /api/unsubscribe` lists it.
    pub sender: String,
}

/// The senders of the current digest, with the run store's facts and unsubscribes.
pub fn current_senders(state: &AppState) -> Result<Vec<Sender>, WebError> {
    let digest = state.digest.load_or_empty().map_err(WebError::internal)?;
    let conn = state.store.get().map_err(WebError::internal)?;
    unsub::senders(&digest.digest, &conn, &state.unsubscriber).map_err(WebError::internal)
}

/// `GET /api/unsubscribe`: `{"smtp_enabled", "smtp_off_reason", "senders", "unsubscribes"}`.
pub async fn list(state: web::Data<AppState>) -> Result<HttpResponse, WebError> {
    let body = web::block(move || -> Result<serde_json::Value, WebError> {
        let senders = current_senders(&state)?;
        let conn = state.store.get().map_err(WebError::internal)?;
        let history = unsubscribes::list(&conn, HISTORY).map_err(WebError::internal)?;
        Ok(json!({
            "smtp_enabled": state.unsubscriber.smtp_off().is_none(),
            "smtp_off_reason": state.unsubscriber.smtp_off(),
            "senders": senders,
            "unsubscribes": history,
        }))
    })
    .await
    .map_err(WebError::internal)??;
    Ok(HttpResponse::Ok().json(body))
}

/// How one unsubscribe ended.
pub enum Outcome {
    /// The target accepted it.
    Done(Unsubscribe),
    /// The target was contacted and did not accept it.
    Failed(Unsubscribe),
}

/// Unsubscribes from `sender` on behalf of `who`: the shared core of both POSTs.
pub async fn unsubscribe(
    state: &web::Data<AppState>,
    sender: &str,
    who: &str,
) -> Result<Outcome, WebError> {
    let sender = sender.trim().to_ascii_lowercase();
    if sender.is_empty() {
        return Err(WebError::BadRequest("sender must not be empty".into()));
    }
    let _one = state.unsubscriber.one_at_a_time.lock().await;
    let st = state.clone();
    let wanted = sender.clone();
    let found = web::block(move || -> Result<Option<Sender>, WebError> {
        Ok(current_senders(&st)?
            .into_iter()
            .find(|s| s.sender == wanted))
    })
    .await
    .map_err(WebError::internal)??;
    let Some(found) = found else {
        return Err(WebError::NotFound(format!(
            "'{}' sent no Newsletter or Promotional mail in the digest",
            shown(&sender)
        )));
    };
    if let Some(u) = found.unsubscribed.as_ref().filter(|u| u.done()) {
        return Err(WebError::Conflict(format!(
            "{} was already unsubscribed on {} by {}",
            found.sender,
            u.day(),
            u.created_by
        )));
    }
    let plan = match (found.plan, found.reason) {
        (Some(plan), _) => plan,
        (None, reason) => {
            let why = reason.unwrap_or_default();
            refused(state, &sender, &why).await;
            return Err(WebError::Unprocessable(format!(
                "{sender} cannot be unsubscribed: {why}"
            )));
        }
    };
    let answer = match state.unsubscriber.carry_out(&plan).await {
        Ok(answer) => answer,
        Err(why) => {
            refused(state, &sender, &why.0).await;
            return Err(WebError::Unprocessable(format!(
                "{sender} cannot be unsubscribed: {why}"
            )));
        }
    };
    let row = Unsubscribe {
        id: 0,
        sender: sender.clone(),
        method: plan.name().to_owned(),
        target: plan.target(),
        created_by: who.to_owned(),
        created_at: queries::format_time(queries::now()),
        outcome: if answer.accepted { "done" } else { "failed" }.to_owned(),
        answer_status: answer.status,
        answer: answer.text,
    };
    tracing::info!(sender = %row.sender, method = %row.method, target = %row.target,
        outcome = %row.outcome, answer = %row.answer, "unsubscribe");
    let st = state.clone();
    let row = web::block(move || {
        let conn = st.store.get().map_err(WebError::internal)?;
        unsubscribes::record(&conn, &row).map_err(WebError::internal)
    })
    .await
    .map_err(WebError::internal)??;
    Ok(if row.done() {
        Outcome::Done(row)
    } else {
        Outcome::Failed(row)
    })
}

/// Logs a refused unsubscribe and records it in `errors` (best effort: the answer to the
/// client says the same).
async fn refused(state: &web::Data<AppState>, sender: &str, why: &str) {
    tracing::warn!(sender = %sender, reason = %why, "unsubscribe refused");
    let st = state.clone();
    let record = ErrorRecord {
        module: "unsubscribe".into(),
        error_type: "Refused".into(),
        message: format!("unsubscribe from {sender} refused: {why}"),
        traceback: None,
    };
    let _ = web::block(move || {
        if let Ok(conn) = st.store.get() {
            let _ = runs::record_error(&conn, None, &record);
        }
    })
    .await;
}

/// `POST /api/unsubscribe` `{"sender": "..."}`: 201 with the Unsubscribe when the target
/// accepted it, 502 `{"error", "unsubscribe"}` when it answered otherwise.
pub async fn create(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Json<CreateBody>,
) -> Result<HttpResponse, WebError> {
    let who = auth::user(&state.settings, req.headers());
    match unsubscribe(&state, &body.sender, &who).await? {
        Outcome::Done(row) => Ok(HttpResponse::Created().json(row)),
        Outcome::Failed(row) => Ok(HttpResponse::build(StatusCode::BAD_GATEWAY).json(json!({
            "error": format!("the unsubscribe target did not accept it: {}", row.answer),
            "unsubscribe": row,
        }))),
    }
}

/// `POST /unsubscribe` (form field `sender`): the page's confirmed button without
/// JavaScript; answers 303 back to the page, which says how it ended.
pub async fn form(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<HashMap<String, String>>,
) -> Result<HttpResponse, WebError> {
    let sender = form
        .get("sender")
        .ok_or_else(|| WebError::BadRequest("form field 'sender' is missing".into()))?;
    let who = auth::user(&state.settings, req.headers());
    let notice = match unsubscribe(&state, sender, &who).await {
        Ok(Outcome::Done(row) | Outcome::Failed(row)) => row.id.to_string(),
        Err(WebError::NotFound(_)) => "unknown".into(),
        Err(WebError::Conflict(_)) => "already".into(),
        Err(WebError::Unprocessable(_)) => "refused".into(),
        Err(e) => return Err(e),
    };
    Ok(HttpResponse::SeeOther()
        .insert_header((LOCATION, format!("/?unsubscribe={notice}#unsubscribe")))
        .finish())
}
