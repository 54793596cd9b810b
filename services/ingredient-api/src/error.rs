//! The one place where failures become HTTP responses.
//!
//! Each endpoint has its own documented error body: `/analyze` answers with the spec's
//! AnalysisResponse error body, `/ocr` with the OcrResponse error body, and every other path
//! with `{"success": false, "error": "..."}`. Every error body also carries `detail`, the same
//! text as `error`: the original mobile client reads FastAPI's `detail` field. The status code
//! depends only on the [`ErrorKind`]. Internal causes go to the log, never into the body.

use actix_web::error::{JsonPayloadError, PayloadError};
use actix_web::http::StatusCode;
use actix_web::http::header::{ALLOW, HeaderValue, RETRY_AFTER};
use actix_web::{HttpResponse, ResponseError};
use domain::analysis::AnalysisResponse;
use domain::ocr::OcrResponse;
use serde::Serialize;
use serde_json::json;
use service_kit::panic::Panic;
use service_kit::server::RouteErrors;

/// Which endpoint's error body to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    /// `POST /analyze`.
    Analyze,
    /// `POST /ocr`.
    Ocr,
    /// Any other path.
    Other,
}

impl Endpoint {
    /// The endpoint a request path belongs to.
    pub fn from_path(path: &str) -> Self {
        match path.trim_end_matches('/') {
            "/analyze" => Self::Analyze,
            "/ocr" => Self::Ocr,
            _ => Self::Other,
        }
    }
}

/// What went wrong, which fixes the status code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// 400: invalid input.
    BadRequest,
    /// 404: no such path.
    NotFound,
    /// 405: the path exists, the method does not; carries the allowed methods.
    MethodNotAllowed(&'static str),
    /// 413: body over the configured limit.
    PayloadTooLarge,
    /// 415: body not declared as JSON.
    UnsupportedMediaType,
    /// 503: overloaded; carries the Retry-After seconds.
    Busy(u32),
    /// 500: a failure of ours (the message is generic; the cause is logged).
    Internal,
    /// 501: the endpoint's engine is not available in this build.
    NotImplemented,
    /// 200 with the failure body: the request was read, but its content holds nothing to
    /// answer with (a photo without a readable ingredient list).
    Unanswerable,
}

/// An error answered in the endpoint's documented shape.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    /// Which body shape to use.
    pub endpoint: Endpoint,
    /// Which status code to use.
    pub kind: ErrorKind,
    /// The text put in the body's `error` field.
    pub message: String,
}

impl ApiError {
    /// A 400 with `message`.
    pub fn bad_request(endpoint: Endpoint, message: impl Into<String>) -> Self {
        Self {
            endpoint,
            kind: ErrorKind::BadRequest,
            message: message.into(),
        }
    }

    /// A 500: `cause` is logged with its chain, the body says only what failed.
    pub fn internal(endpoint: Endpoint, what: &str, cause: &dyn std::fmt::Display) -> Self {
        tracing::error!(error = %cause, "{what}");
        Self {
            endpoint,
            kind: ErrorKind::Internal,
            message: format!("internal server error: {what}"),
        }
    }

    /// Maps actix's JSON extractor failures to 400, 413 or 415 in the endpoint's shape.
    pub fn from_json(endpoint: Endpoint, err: &JsonPayloadError) -> Self {
        let (kind, message) = match err {
            JsonPayloadError::ContentType => (
                ErrorKind::UnsupportedMediaType,
                "Content-Type must be application/json".to_owned(),
            ),
            JsonPayloadError::OverflowKnownLength { limit, .. }
            | JsonPayloadError::Overflow { limit } => (
                ErrorKind::PayloadTooLarge,
                format!("request body is larger than the limit of {limit} bytes"),
            ),
            JsonPayloadError::Payload(PayloadError::Overflow) => (
                ErrorKind::PayloadTooLarge,
                "request body is larger than the limit".to_owned(),
            ),
            JsonPayloadError::Deserialize(e) => {
                (ErrorKind::BadRequest, format!("invalid JSON body: {e}"))
            }
            other => (
                ErrorKind::BadRequest,
                format!("could not read the request body: {other}"),
            ),
        };
        Self {
            endpoint,
            kind,
            message,
        }
    }
}

impl From<Panic> for ApiError {
    fn from(panic: Panic) -> Self {
        Self {
            endpoint: Endpoint::from_path(&panic.path),
            kind: ErrorKind::Internal,
            message: "internal server error".to_owned(),
        }
    }
}

impl RouteErrors for ApiError {
    /// Any unknown path answers in the generic body.
    fn not_found(message: String) -> Self {
        Self {
            endpoint: Endpoint::Other,
            kind: ErrorKind::NotFound,
            message,
        }
    }

    /// A wrong method on `/analyze` or `/ocr` answers in that endpoint's body.
    fn method_not_allowed(path: &str, allow: &'static str, message: String) -> Self {
        Self {
            endpoint: Endpoint::from_path(path),
            kind: ErrorKind::MethodNotAllowed(allow),
            message,
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self.kind {
            ErrorKind::BadRequest => StatusCode::BAD_REQUEST,
            ErrorKind::NotFound => StatusCode::NOT_FOUND,
            ErrorKind::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ErrorKind::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ErrorKind::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ErrorKind::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
            ErrorKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
            ErrorKind::NotImplemented => StatusCode::NOT_IMPLEMENTED,
            ErrorKind::Unanswerable => StatusCode::OK,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let mut res = HttpResponse::build(self.status_code());
        match self.kind {
            ErrorKind::MethodNotAllowed(allow) => {
                res.insert_header((ALLOW, HeaderValue::from_static(allow)));
            }
            ErrorKind::Busy(secs) => {
                res.insert_header((RETRY_AFTER, secs.to_string()));
            }
            _ => {}
        }
        let detail = self.message.as_str();
        match self.endpoint {
            Endpoint::Analyze => res.json(WithDetail {
                body: AnalysisResponse::error(detail),
                detail,
            }),
            Endpoint::Ocr => res.json(WithDetail {
                body: OcrResponse::error(detail),
                detail,
            }),
            Endpoint::Other => res.json(WithDetail {
                body: json!({ "success": false, "error": detail }),
                detail,
            }),
        }
    }
}

/// An endpoint's error body plus `detail` (the same text as its `error`), where FastAPI clients
/// such as the original mobile app look for the server's message.
#[derive(Serialize)]
struct WithDetail<'a, T: Serialize> {
    #[serde(flatten)]
    body: T,
    detail: &'a str,
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::body::to_bytes;

    async fn body(err: &ApiError) -> serde_json::Value {
        let bytes = to_bytes(err.error_response().into_body()).await.unwrap();
        serde_json::from_slice(&bytes).unwrap()
    }

    #[actix_web::test]
    async fn analyze_errors_use_the_spec_body() {
        let err = ApiError::bad_request(Endpoint::Analyze, "ingredients is required");
        assert_eq!(err.status_code(), StatusCode::BAD_REQUEST);
        let body = body(&err).await;
        assert_eq!(body["overall_risk"], "unknown");
        assert_eq!(body["error"], "ingredients is required");
        assert_eq!(body["detail"], "ingredients is required");
    }

    #[actix_web::test]
    async fn panics_become_500_in_the_endpoint_shape() {
        let err = ApiError::from(Panic {
            path: "/ocr".into(),
            message: "boom".into(),
        });
        assert_eq!(err.status_code(), StatusCode::INTERNAL_SERVER_ERROR);
        let body = body(&err).await;
        assert_eq!(
            body,
            json!({"success": false, "text": "", "error": "internal server error",
                   "detail": "internal server error"})
        );
    }

    #[actix_web::test]
    async fn busy_sets_retry_after() {
        let err = ApiError {
            endpoint: Endpoint::Ocr,
            kind: ErrorKind::Busy(3),
            message: "busy".into(),
        };
        let res = err.error_response();
        assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(res.headers().get(RETRY_AFTER).unwrap(), "3");
    }
}
