//! Builds the HTTP server: middleware, shared state and the URL map.

use std::net::TcpListener;
use std::time::Duration;

use actix_cors::Cors;
use actix_web::dev::Server;
use actix_web::middleware::from_fn;
use actix_web::{App, HttpServer, web};
use service_kit::{metrics, panic, request_id};
use tracing_actix_web::TracingLogger;

use crate::configuration::Settings;
use crate::error::ApiError;
use crate::llm::explain::Explainer;
use crate::llm::summary::Summariser;
use crate::ocr::OcrService;
use crate::ocr::vision::VisionEngine;
use crate::routes;
use crate::routes::analyze::AnalyzeLlm;

/// A bound, not yet running server.
pub struct Application {
    port: u16,
    server: Server,
}

impl Application {
    /// Binds `HOST:PORT` (port 0 picks a free one) and prepares the server.
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        // Index the knowledge base before binding: an open port then means ready to answer,
        // and no request pays for the indexing.
        let kb = domain::knowledge::KnowledgeBase::embedded();
        tracing::info!(
            entries = kb.ingredients().len(),
            build_ms = kb.build_time().as_secs_f64() * 1e3,
            "knowledge base indexed"
        );
        let address = format!("{}:{}", settings.host, settings.port);
        let listener = TcpListener::bind(&address)
            .map_err(|e| anyhow::anyhow!("cannot bind {address}: {e}"))?;
        let port = listener.local_addr()?.port();
        metrics::handle();
        // Every HTTPS client in the process (LLM, IMAP) needs the ring provider installed.
        llm_client::install_crypto_provider();
        tracing::info!(%address, port, "ingredient-api listening");
        let client = settings.llm.client()?;
        let backends = settings.llm.backends;
        let enabled = |on: bool| client.clone().filter(|_| on);
        let vision = enabled(backends.ocr).map(|c| VisionEngine::new(c, settings.llm.ocr_budget));
        let ocr = web::Data::new(OcrService::build(&settings.ocr).await.with_vision(vision));
        let analyze_llm = web::Data::new(AnalyzeLlm {
            explainer: enabled(backends.analyze)
                .map(|c| Explainer::new(c, settings.llm.cache_entries)),
            summariser: enabled(backends.summary)
                .map(|c| Summariser::new(c, settings.llm.cache_entries)),
            budget: settings.llm.analyze_budget,
        });
        let workers = settings.workers;
        let shutdown = settings.shutdown_timeout_secs;
        let server = HttpServer::new(move || {
            App::new()
                .app_data(ocr.clone())
                .app_data(analyze_llm.clone())
                .configure(|cfg| routes::configure(cfg, &settings))
                .wrap(from_fn(panic::catch_panic::<ApiError, _>))
                .wrap(cors(settings.cors_allowed_origins.as_deref()))
                .wrap(from_fn(metrics::track))
                .wrap(from_fn(request_id::echo))
                .wrap(TracingLogger::default())
        })
        .workers(workers)
        .shutdown_timeout(shutdown)
        .client_request_timeout(Duration::from_secs(30))
        .listen(listener)?
        .run();
        Ok(Self { port, server })
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Serves until SIGTERM/SIGINT, then lets in-flight requests finish.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.server.await
    }
}

/// The spec allows every origin, method and header with credentials. Browsers reject `*`
/// together with credentials, so the request's Origin is echoed instead; a configured list
/// restricts it.
fn cors(allowed: Option<&[String]>) -> Cors {
    let cors = Cors::default()
        .allow_any_method()
        .allow_any_header()
        .expose_any_header()
        .supports_credentials()
        .max_age(3600);
    match allowed {
        None => cors.allow_any_origin(),
        Some(origins) => origins
            .iter()
            .fold(cors, |cors, origin| cors.allowed_origin(origin)),
    }
}
