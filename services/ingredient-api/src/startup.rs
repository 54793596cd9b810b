//! Builds the HTTP server: middleware, shared state and the URL map.

use actix_cors::Cors;
use actix_web::{App, web};
use service_kit::server::{self, Listener, Server};

use crate::configuration::Settings;
use crate::error::ApiError;
use crate::llm::explain::Explainer;
use crate::llm::summary::Summariser;
use crate::ocr::OcrService;
use crate::ocr::vision::VisionEngine;
use crate::routes;
use crate::routes::analyze::AnalyzeLlm;

/// Builds ingredient-api's server ([`service_kit::server`] is the skeleton).
pub struct Application;

impl Application {
    /// Binds `HOST:PORT` (port 0 picks a free one) and prepares the server.
    pub async fn build(settings: Settings) -> anyhow::Result<Server> {
        // Index the knowledge base before binding: an open port then means ready to answer,
        // and no request pays for the indexing.
        let kb = domain::knowledge::KnowledgeBase::embedded();
        tracing::info!(
            entries = kb.ingredients().len(),
            build_ms = kb.build_time().as_secs_f64() * 1e3,
            "knowledge base indexed"
        );
        let listener = Listener::bind(&settings.server)?;
        // Every HTTPS client in the process (LLM, IMAP) needs the ring provider installed.
        llm_client::install_crypto_provider();
        tracing::info!(
            address = listener.address(),
            port = listener.port(),
            "ingredient-api listening"
        );
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
        let server_settings = settings.server.clone();
        let server = listener.serve(&server_settings, move || {
            let app = App::new()
                .app_data(ocr.clone())
                .app_data(analyze_llm.clone())
                .configure(|cfg| routes::configure(cfg, &settings));
            // CORS outside the panic guard, so a 500 answered for a panic carries its headers.
            let app = server::guard::<ApiError, _, _>(app)
                .wrap(cors(settings.cors_allowed_origins.as_deref()));
            server::observe(app)
        })?;
        Ok(server)
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
