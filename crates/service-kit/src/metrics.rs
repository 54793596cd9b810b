//! Prometheus metrics: `http_requests_total` and `http_request_duration_seconds` by method,
//! route pattern and status, recorded by the [`track`] middleware and exposed by [`render`].
//!
//! The route label is the matched pattern (`/analyze`, `/api/errors`), never the raw path,
//! and every unmatched path shares the label `unmatched`, so a scan of random URLs cannot
//! blow up the number of series.

use std::sync::OnceLock;
use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{Error, HttpResponse};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

/// Latency buckets in seconds, from 100 µs (in-memory analysis) to 120 s (a refresh).
const BUCKETS: &[f64] = &[
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
    5.0, 10.0, 30.0, 60.0, 120.0,
];

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// Installs the process-wide recorder once and returns its handle.
pub fn handle() -> &'static PrometheusHandle {
    HANDLE.get_or_init(|| {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(
                Matcher::Full("http_request_duration_seconds".to_owned()),
                BUCKETS,
            )
            // The matcher is a fixed, valid name and the bucket list is non-empty.
            .expect("static bucket configuration is valid")
            .build_recorder();
        let handle = recorder.handle();
        // Another recorder can only exist if some other code installed one first; then ours
        // simply records nothing, which is not worth failing start-up for.
        if metrics::set_global_recorder(recorder).is_err() {
            tracing::warn!("a metrics recorder was already installed");
        }
        handle
    })
}

/// Middleware: counts each request, records its latency and writes one access-log line.
/// Registered inside `TracingLogger`, so the line carries the request's span (and its id).
pub async fn track(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let start = Instant::now();
    let method = req.method().to_string();
    let result = next.call(req).await;
    // Routing happens inside the App, so the matched pattern is known only afterwards.
    let (route, status) = match &result {
        Ok(res) => (res.request().match_pattern(), res.status().as_u16()),
        Err(err) => (None, err.as_response_error().status_code().as_u16()),
    };
    let route = route.unwrap_or_else(|| "unmatched".to_owned());
    let elapsed = start.elapsed();
    tracing::info!(
        %method, %route, status, latency_ms = elapsed.as_secs_f64() * 1000.0,
        "request completed"
    );
    let labels = [
        ("method", method),
        ("route", route),
        ("status", status.to_string()),
    ];
    metrics::counter!("http_requests_total", &labels).increment(1);
    metrics::histogram!("http_request_duration_seconds", &labels).record(elapsed.as_secs_f64());
    result
}

/// `GET /metrics`: the Prometheus text exposition format.
pub async fn render() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(handle().render())
}
