//! The whole URL map.

pub mod analyze;
pub mod health;
pub mod ocr;
pub mod openapi;

use actix_web::web;
use service_kit::server::not_found;

use crate::configuration::Settings;
use crate::error::{ApiError, Endpoint};

/// Registers every route with its body limits and error handlers.
pub fn configure(cfg: &mut web::ServiceConfig, settings: &Settings) {
    let method_not_allowed = service_kit::server::method_not_allowed::<ApiError>;
    cfg.service(
        web::resource("/")
            .route(web::get().to(health::root))
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
    .service(
        web::resource("/analyze")
            .app_data(json_config(Endpoint::Analyze, settings.max_body_bytes))
            .route(web::post().to(analyze::analyze))
            .default_service(web::to(method_not_allowed("POST"))),
    )
    .service(
        web::resource("/ocr")
            .app_data(json_config(Endpoint::Ocr, settings.ocr_max_body_bytes))
            .route(web::post().to(ocr::ocr))
            .default_service(web::to(method_not_allowed("POST"))),
    )
    .default_service(web::to(not_found::<ApiError>));
}

/// JSON extraction with the endpoint's body limit and error shape.
fn json_config(endpoint: Endpoint, limit: usize) -> web::JsonConfig {
    web::JsonConfig::default()
        .limit(limit)
        .error_handler(move |err, _req| ApiError::from_json(endpoint, &err).into())
}
