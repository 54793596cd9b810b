//! The whole URL map. The handlers of the HTML pages, of the refresh and of the diagnostics
//! live beside what they serve (`web::pages::handlers`, `web::refresh::handlers`,
//! `web::diagnostics::handlers`); the small JSON resources are here.

pub mod corrections;
pub mod digest;
pub mod health;
pub mod openapi;
pub mod ops;
pub mod unsubscribe;

use actix_web::web;
use service_kit::server::not_found;

use super::configuration::Settings;
use super::diagnostics::handlers as diagnostics;
use super::error::WebError;
use super::pages::handlers as pages;
use super::refresh::handlers as refresh;

/// Registers every route with its body limits and error handlers.
pub fn configure(cfg: &mut web::ServiceConfig, settings: &Settings) {
    let method_not_allowed = service_kit::server::method_not_allowed::<WebError>;
    cfg.app_data(
        web::JsonConfig::default()
            .limit(settings.max_body_bytes)
            .error_handler(|err, _req| WebError::from_json(&err).into()),
    )
    .app_data(
        web::FormConfig::default()
            .limit(settings.max_body_bytes)
            .error_handler(|err, _req| WebError::from_form(&err).into()),
    )
    .app_data(
        web::QueryConfig::default().error_handler(|err, _req| WebError::from_query(&err).into()),
    )
    .service(
        web::resource("/")
            .route(web::get().to(pages::index))
            .default_service(web::to(method_not_allowed("GET"))),
    )
    .service(
        web::resource("/tests")
            .route(web::get().to(pages::tests))
            .default_service(web::to(method_not_allowed("GET"))),
    )
    .service(
        web::resource("/refresh")
            .route(web::post().to(pages::refresh_form))
            .default_service(web::to(method_not_allowed("POST"))),
    )
    .service(
        web::resource("/tests/run")
            .route(web::post().to(pages::run_suite_form))
            .default_service(web::to(method_not_allowed("POST"))),
    )
    .service(
        web::resource("/unsubscribe")
            .route(web::post().to(unsubscribe::form))
            .default_service(web::to(method_not_allowed("POST"))),
    )
    .service(
        web::resource("/static/{file}")
            .route(web::get().to(pages::asset))
            .default_service(web::to(method_not_allowed("GET"))),
    )
    .service(
        web::resource("/api/digest")
            .route(web::get().to(digest::get))
            .default_service(web::to(method_not_allowed("GET"))),
    )
    .service(
        web::resource("/api/corrections")
            .route(web::post().to(corrections::create))
            .route(web::get().to(corrections::list))
            .default_service(web::to(method_not_allowed("GET, POST"))),
    )
    .service(
        web::resource("/api/corrections/{id}")
            .route(web::delete().to(corrections::undo))
            .default_service(web::to(method_not_allowed("DELETE"))),
    )
    .service(
        web::resource("/api/unsubscribe")
            .route(web::post().to(unsubscribe::create))
            .route(web::get().to(unsubscribe::list))
            .default_service(web::to(method_not_allowed("GET, POST"))),
    )
    .service(
        web::resource("/api/refresh")
            .route(web::post().to(refresh::post))
            .default_service(web::to(method_not_allowed("POST"))),
    )
    .service(
        web::resource("/api/status")
            .route(web::get().to(refresh::status))
            .default_service(web::to(method_not_allowed("GET"))),
    )
    .service(
        web::resource("/api/metrics")
            .route(web::get().to(ops::metrics))
            .default_service(web::to(method_not_allowed("GET"))),
    )
    .service(
        web::resource("/api/errors")
            .route(web::get().to(ops::errors))
            .default_service(web::to(method_not_allowed("GET"))),
    )
    .service(
        web::resource("/api/tests/run")
            .route(web::post().to(diagnostics::run))
            .default_service(web::to(method_not_allowed("POST"))),
    )
    .service(
        web::resource("/api/tests/results")
            .route(web::get().to(diagnostics::results))
            .default_service(web::to(method_not_allowed("GET"))),
    )
    .service(
        web::resource("/health")
            .route(web::get().to(health::health))
            .default_service(web::to(method_not_allowed("GET"))),
    )
    .service(
        web::resource("/metrics")
            .route(web::get().to(service_kit::metrics::render))
            .default_service(web::to(method_not_allowed("GET"))),
    )
    .service(
        web::resource("/openapi.json")
            .route(web::get().to(openapi::document))
            .default_service(web::to(method_not_allowed("GET"))),
    )
    .default_service(web::to(not_found::<WebError>));
}
