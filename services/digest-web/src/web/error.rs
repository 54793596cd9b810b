//! The one place where failures become HTTP responses: `{"error": "..."}` with the status
//! the spec gives (404 unknown path, 500 internal failure) and 400/405/413/415 for bad input.

use actix_web::error::{JsonPayloadError, PayloadError, QueryPayloadError, UrlencodedError};
use actix_web::http::StatusCode;
use actix_web::http::header::{ALLOW, HeaderValue, WWW_AUTHENTICATE};
use actix_web::{HttpResponse, ResponseError};
use serde_json::json;
use service_kit::panic::Panic;
use service_kit::server::RouteErrors;

/// An error answered as `{"error": "..."}`.
#[derive(Debug, Clone, thiserror::Error)]
pub enum WebError {
    /// 400: invalid input.
    #[error("{0}")]
    BadRequest(String),
    /// 401: protection is on and the request carries no valid credentials.
    #[error("authentication required: {message}")]
    Unauthorized {
        /// Whether to ask the browser for basic-auth credentials.
        basic: bool,
        /// What is missing.
        message: String,
    },
    /// 403: a browser sent a state-changing request from another site.
    #[error("{0}")]
    Forbidden(String),
    /// 409: another run of the same kind is in progress.
    #[error("{0}")]
    Conflict(String),
    /// 422: the request is well-formed but cannot be carried out (an unsubscribe whose
    /// target is refused, or a method that is off).
    #[error("{0}")]
    Unprocessable(String),
    /// 404: no such path.
    #[error("{0}")]
    NotFound(String),
    /// 405: the path exists, the method does not; carries the allowed methods.
    #[error("{message}")]
    MethodNotAllowed {
        /// The methods the path accepts.
        allow: &'static str,
        /// The body text.
        message: String,
    },
    /// 413: body over the configured limit.
    #[error("{0}")]
    PayloadTooLarge(String),
    /// 415: body not declared as JSON.
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// 500: the text of the failure (the spec shows the exception text).
    #[error("{0}")]
    Internal(String),
}

impl WebError {
    /// Maps actix's JSON extractor failures to 400, 413 or 415.
    pub fn from_json(err: &JsonPayloadError) -> Self {
        match err {
            JsonPayloadError::ContentType => {
                Self::UnsupportedMediaType("Content-Type must be application/json".into())
            }
            JsonPayloadError::OverflowKnownLength { limit, .. }
            | JsonPayloadError::Overflow { limit } => Self::PayloadTooLarge(format!(
                "request body is larger than the limit of {limit} bytes"
            )),
            JsonPayloadError::Payload(PayloadError::Overflow) => {
                Self::PayloadTooLarge("request body is larger than the limit".into())
            }
            JsonPayloadError::Deserialize(e) => Self::BadRequest(format!("invalid JSON body: {e}")),
            other => Self::BadRequest(format!("could not read the request body: {other}")),
        }
    }

    /// Maps form-body failures to 400, 413 or 415.
    pub fn from_form(err: &UrlencodedError) -> Self {
        match err {
            UrlencodedError::ContentType => Self::UnsupportedMediaType(
                "Content-Type must be application/x-www-form-urlencoded".into(),
            ),
            UrlencodedError::Overflow { limit, .. } => Self::PayloadTooLarge(format!(
                "request body is larger than the limit of {limit} bytes"
            )),
            other => Self::BadRequest(format!("invalid form body: {other}")),
        }
    }

    /// Maps query-string failures to 400.
    pub fn from_query(err: &QueryPayloadError) -> Self {
        Self::BadRequest(format!("invalid query string: {err}"))
    }
}

impl WebError {
    /// An internal failure (run store, digest file, template, a blocking task): logged with
    /// its cause here, answered as the documented 500. Every handler maps such failures with
    /// this one function, so the log line and the body are the same everywhere.
    pub fn internal(e: impl std::fmt::Display) -> Self {
        tracing::error!(error = %e, "internal failure");
        Self::Internal(format!("internal server error: {e}"))
    }
}

/// At most 80 characters of a client's text (or an email's) for an error, a reason or a
/// log line; `…` marks a cut.
pub fn shown(text: &str) -> String {
    let cut: String = text.chars().take(80).collect();
    if cut.len() < text.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

impl From<Panic> for WebError {
    fn from(panic: Panic) -> Self {
        Self::Internal(format!("internal server error: {}", panic.message))
    }
}

impl RouteErrors for WebError {
    fn not_found(message: String) -> Self {
        Self::NotFound(message)
    }

    fn method_not_allowed(_path: &str, allow: &'static str, message: String) -> Self {
        Self::MethodNotAllowed { allow, message }
    }
}

impl ResponseError for WebError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::Unauthorized { .. } => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            Self::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let mut res = HttpResponse::build(self.status_code());
        if let Self::MethodNotAllowed { allow, .. } = self {
            res.insert_header((ALLOW, HeaderValue::from_static(allow)));
        }
        if let Self::Unauthorized { basic: true, .. } = self {
            res.insert_header((
                WWW_AUTHENTICATE,
                HeaderValue::from_static("Basic realm=\"digest-web\", charset=\"UTF-8\""),
            ));
        }
        res.json(json!({ "error": self.to_string() }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::body::to_bytes;

    #[actix_web::test]
    async fn internal_failure_is_500_with_error_text() {
        let err = WebError::from(Panic {
            path: "/x".into(),
            message: "disk on fire".into(),
        });
        let res = err.error_response();
        assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let body: serde_json::Value =
            serde_json::from_slice(&to_bytes(res.into_body()).await.unwrap()).unwrap();
        assert_eq!(
            body,
            json!({"error": "internal server error: disk on fire"})
        );
    }
}
