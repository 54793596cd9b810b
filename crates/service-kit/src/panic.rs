//! A panicking handler must not drop the connection: [`catch_panic`] turns the panic into the
//! service's documented 500 body, built by the service's own error type.

use std::panic::AssertUnwindSafe;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{Error, ResponseError};
use futures_util::FutureExt;

/// What the service's error type learns about a panic.
#[derive(Debug, Clone)]
pub struct Panic {
    /// The request path, so a service can answer in the endpoint's own error shape.
    pub path: String,
    /// The panic message.
    pub message: String,
}

/// Middleware: `from_fn(catch_panic::<MyError, _>)`.
pub async fn catch_panic<E, B>(
    req: ServiceRequest,
    next: Next<B>,
) -> Result<ServiceResponse<B>, Error>
where
    E: From<Panic> + ResponseError + 'static,
    B: MessageBody + 'static,
{
    let path = req.path().to_owned();
    // The request and its handler are dropped after a panic, so no broken state is observed.
    match AssertUnwindSafe(next.call(req)).catch_unwind().await {
        Ok(result) => result,
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_owned());
            tracing::error!(%path, panic = %message, "handler panicked");
            // An Err is rendered by actix through E's ResponseError impl; the outer middleware
            // (metrics, request log) reads its status code. Holding a clone of the request to
            // build a response here is not possible: actix needs the request uniquely owned.
            Err(E::from(Panic { path, message }).into())
        }
    }
}
