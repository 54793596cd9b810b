//! Builds the HTTP server: middleware, shared state and the URL map.

use std::net::TcpListener;
use std::time::Duration;

use actix_web::dev::Server;
use actix_web::middleware::from_fn;
use actix_web::{App, HttpServer, web};
use service_kit::{metrics, panic, request_id};
use tracing_actix_web::TracingLogger;

use crate::store;
use crate::web::auth;
use crate::web::configuration::Settings;
use crate::web::error::WebError;
use crate::web::routes;
use crate::web::state::AppState;

/// A bound, not yet running server.
pub struct Application {
    port: u16,
    server: Server,
}

impl Application {
    /// Binds `HOST:PORT` (port 0 picks a free one) and prepares the server.
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        let address = format!("{}:{}", settings.host, settings.port);
        let listener = TcpListener::bind(&address)
            .map_err(|e| anyhow::anyhow!("cannot bind {address}: {e}"))?;
        let port = listener.local_addr()?.port();
        metrics::handle();
        // Every HTTPS client in the process (LLM, IMAP) needs the ring provider installed.
        llm_client::install_crypto_provider();
        tracing::info!(%address, port, data_dir = %settings.data_dir.display(), "digest-web listening");
        if let Some(warning) = auth::exposure_warning(&settings) {
            tracing::warn!("{warning}");
        }
        // Creates the data dir and the run store up front, so a bad data dir fails start-up.
        store::open(&settings.data_dir)?;
        let workers = settings.workers;
        let shutdown = settings.shutdown_timeout_secs;
        let state = web::Data::new(AppState::new(settings.clone())?);
        let server = HttpServer::new(move || {
            App::new()
                .app_data(state.clone())
                .configure(|cfg| routes::configure(cfg, &settings))
                .wrap(from_fn(auth::require))
                .wrap(from_fn(panic::catch_panic::<WebError, _>))
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
