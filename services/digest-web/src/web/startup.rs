//! Builds the HTTP server: middleware, shared state and the URL map.

use actix_web::middleware::from_fn;
use actix_web::{App, web};
use service_kit::server::{self, Listener, Server};

use crate::store;
use crate::web::auth;
use crate::web::configuration::Settings;
use crate::web::error::WebError;
use crate::web::routes;
use crate::web::state::AppState;

/// Builds digest-web's server ([`service_kit::server`] is the skeleton).
pub struct Application;

impl Application {
    /// Binds `HOST:PORT` (port 0 picks a free one) and prepares the server.
    pub async fn build(settings: Settings) -> anyhow::Result<Server> {
        let listener = Listener::bind(&settings.server)?;
        // Every HTTPS client in the process (LLM, IMAP) needs the ring provider installed.
        llm_client::install_crypto_provider();
        tracing::info!(
            address = listener.address(),
            port = listener.port(),
            data_dir = %settings.data_dir.display(),
            "digest-web listening"
        );
        if let Some(warning) = auth::exposure_warning(&settings) {
            tracing::warn!("{warning}");
        }
        // Creates the data dir and the run store up front, so a bad data dir fails start-up.
        store::open(&settings.data_dir)?;
        let state = web::Data::new(AppState::new(settings.clone())?);
        let server_settings = settings.server.clone();
        let server = listener.serve(&server_settings, move || {
            let app = App::new()
                .app_data(state.clone())
                .configure(|cfg| routes::configure(cfg, &settings))
                .wrap(from_fn(auth::require));
            server::observe(server::guard::<WebError, _, _>(app))
        })?;
        Ok(server)
    }
}
