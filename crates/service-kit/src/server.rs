//! The skeleton both services start from: where and how to listen ([`ServerSettings`]), the
//! middleware every request passes through ([`guard`] inside, [`observe`] outside), the
//! handlers for an unknown path and a wrong method ([`not_found`], [`method_not_allowed`]),
//! the bound [`Server`], and the whole of a service's `main` ([`run`]).
//!
//! What differs between the services stays with them: their routes, their state, their own
//! middleware (CORS, access protection) and, through [`RouteErrors`], the documented error
//! body each answers in.

use std::future::{Future, Ready, ready};
use std::net::TcpListener;
use std::time::Duration;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::middleware::from_fn;
use actix_web::{App, HttpRequest, HttpResponse, HttpServer, ResponseError};
use env_config::{ConfigError, EnvSource};
use tracing_actix_web::TracingLogger;

use crate::panic::{Panic, catch_panic};
use crate::telemetry::{self, LogFormat};
use crate::{metrics, request_id};

/// How long a client may take to send a request's head before it is answered 408.
const CLIENT_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// An unknown path is echoed in the 404 body up to this many characters: a client can send
/// a 64 KiB path.
const MAX_ECHOED_PATH: usize = 200;

/// The settings every service reads the same way (docs/configuration.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerSettings {
    /// `HOST`: interface to bind (default `0.0.0.0`).
    pub host: String,
    /// `PORT`: port to bind (0 picks a free port; the default is the service's own).
    pub port: u16,
    /// `LOG_FORMAT`: `text` (default) or `json`.
    pub log_format: LogFormat,
    /// `WORKERS`: HTTP worker threads (default: one per core).
    pub workers: usize,
    /// `SHUTDOWN_TIMEOUT_SECS`: how long in-flight requests may finish after SIGTERM (30).
    pub shutdown_timeout_secs: u64,
}

impl ServerSettings {
    /// Reads `HOST`, `PORT` (default `default_port`), `LOG_FORMAT`, `WORKERS` and
    /// `SHUTDOWN_TIMEOUT_SECS`; the error names the first invalid one.
    pub fn from_env(env: &EnvSource, default_port: u16) -> Result<Self, ConfigError> {
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        Ok(Self {
            host: env.string_or("HOST", "0.0.0.0"),
            port: env.parse_or("PORT", default_port, "an integer from 0 to 65535")?,
            log_format: env.parse_or("LOG_FORMAT", LogFormat::Text, "text or json")?,
            workers: env.parse_or("WORKERS", cores, "a positive integer")?.max(1),
            shutdown_timeout_secs: env.parse_or(
                "SHUTDOWN_TIMEOUT_SECS",
                30,
                "a whole number of seconds",
            )?,
        })
    }
}

/// A bound socket, not yet serving: binding first lets a service log its port and fail
/// start-up on a taken one before it builds its state.
#[derive(Debug)]
pub struct Listener {
    socket: TcpListener,
    address: String,
    port: u16,
}

impl Listener {
    /// Binds `HOST:PORT` and installs the metrics recorder (so `/metrics` answers from the
    /// first request).
    pub fn bind(settings: &ServerSettings) -> std::io::Result<Self> {
        let address = format!("{}:{}", settings.host, settings.port);
        let socket = TcpListener::bind(&address)
            .map_err(|e| std::io::Error::new(e.kind(), format!("cannot bind {address}: {e}")))?;
        let port = socket.local_addr()?.port();
        metrics::handle();
        Ok(Self {
            socket,
            address,
            port,
        })
    }

    /// `HOST:PORT` as configured.
    pub fn address(&self) -> &str {
        &self.address
    }

    /// The bound port (the one picked when `PORT` is 0).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Starts the HTTP server on this socket with `settings`' workers and shutdown time-out;
    /// `app` builds each worker's `App` (wrapped in [`guard`] and [`observe`]).
    pub fn serve<F, T, B>(self, settings: &ServerSettings, app: F) -> std::io::Result<Server>
    where
        F: Fn() -> App<T> + Send + Clone + 'static,
        T: ServiceFactory<
                ServiceRequest,
                Config = (),
                Response = ServiceResponse<B>,
                Error = actix_web::Error,
                InitError = (),
            > + 'static,
        B: MessageBody + 'static,
    {
        let server = HttpServer::new(app)
            .workers(settings.workers)
            .shutdown_timeout(settings.shutdown_timeout_secs)
            .client_request_timeout(CLIENT_REQUEST_TIMEOUT)
            .listen(self.socket)?
            .run();
        Ok(Server {
            port: self.port,
            server,
        })
    }
}

/// A bound, not yet running server.
pub struct Server {
    port: u16,
    server: actix_web::dev::Server,
}

impl Server {
    /// The bound port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Serves until SIGTERM/SIGINT, then lets in-flight requests finish (up to
    /// `SHUTDOWN_TIMEOUT_SECS`).
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        self.server.await
    }
}

/// The whole of a service's `main`: its settings from the process environment (and
/// `CONFIG_FILE`), logging as they ask, then its server built by `build` and served until
/// stopped.
pub async fn run<S, Fut>(
    settings: impl FnOnce(&EnvSource) -> Result<S, ConfigError>,
    build: impl FnOnce(S) -> Fut,
) -> anyhow::Result<()>
where
    S: AsRef<ServerSettings>,
    Fut: Future<Output = anyhow::Result<Server>>,
{
    let settings = settings(&EnvSource::from_process()?)?;
    telemetry::init(settings.as_ref().log_format, "info");
    build(settings).await?.run_until_stopped().await?;
    Ok(())
}

/// The innermost layer every service puts around its routes (and its own middleware): a
/// panicking handler is answered with `E`'s 500 body instead of a dropped connection.
pub fn guard<E, T, B>(
    app: App<T>,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<B>,
        Error = actix_web::Error,
        InitError = (),
    >,
>
where
    E: From<Panic> + ResponseError + 'static,
    T: ServiceFactory<
            ServiceRequest,
            Config = (),
            Response = ServiceResponse<B>,
            Error = actix_web::Error,
            InitError = (),
        > + 'static,
    B: MessageBody + 'static,
{
    app.wrap(from_fn(catch_panic::<E, _>))
}

/// The outer layers every service puts around everything else, inner to outer: metrics and
/// the access-log line ([`metrics::track`]), the `x-request-id` echo ([`request_id::echo`]),
/// and the request's tracing span (`TracingLogger`, outermost so every line of the request
/// carries its id).
pub fn observe<T, B>(
    app: App<T>,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
>
where
    T: ServiceFactory<
            ServiceRequest,
            Config = (),
            Response = ServiceResponse<B>,
            Error = actix_web::Error,
            InitError = (),
        > + 'static,
    B: MessageBody + 'static,
{
    app.wrap(from_fn(metrics::track))
        .wrap(from_fn(request_id::echo))
        .wrap(TracingLogger::default())
}

/// How a service answers an unknown path and a method its path does not accept, each in its
/// own documented body.
pub trait RouteErrors: ResponseError + Sized + 'static {
    /// 404 with `message` (`not found: GET /path`).
    fn not_found(message: String) -> Self;

    /// 405 on `path` with an `Allow: allow` header and `message`
    /// (`method PUT is not allowed on /path; use GET`).
    fn method_not_allowed(path: &str, allow: &'static str, message: String) -> Self;
}

/// The default service of the whole URL map: 404 in `E`'s body.
pub async fn not_found<E: RouteErrors>(req: HttpRequest) -> Result<HttpResponse, E> {
    let path: String = req.path().chars().take(MAX_ECHOED_PATH).collect();
    Err(E::not_found(format!("not found: {} {path}", req.method())))
}

/// The default service of one resource: 405 naming the methods `allow`ed, in `E`'s body.
pub fn method_not_allowed<E: RouteErrors>(
    allow: &'static str,
) -> impl Fn(HttpRequest) -> Ready<Result<HttpResponse, E>> + Clone {
    move |req: HttpRequest| {
        ready(Err(E::method_not_allowed(
            req.path(),
            allow,
            format!(
                "method {} is not allowed on {}; use {allow}",
                req.method(),
                req.path()
            ),
        )))
    }
}

#[cfg(test)]
mod tests {
    use actix_web::http::StatusCode;
    use actix_web::test::{TestRequest, call_service, init_service, read_body};
    use actix_web::web;

    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("{status}: {message}")]
    struct Plain {
        status: StatusCode,
        message: String,
    }

    impl RouteErrors for Plain {
        fn not_found(message: String) -> Self {
            Self {
                status: StatusCode::NOT_FOUND,
                message,
            }
        }

        fn method_not_allowed(path: &str, allow: &'static str, message: String) -> Self {
            Self {
                status: StatusCode::METHOD_NOT_ALLOWED,
                message: format!("{path} [{allow}] {message}"),
            }
        }
    }

    impl ResponseError for Plain {
        fn status_code(&self) -> StatusCode {
            self.status
        }

        fn error_response(&self) -> HttpResponse {
            HttpResponse::build(self.status).body(self.message.clone())
        }
    }

    async fn call(method: &str, uri: &str) -> (StatusCode, String) {
        let app = init_service(
            App::new()
                .service(
                    web::resource("/health")
                        .route(web::get().to(HttpResponse::Ok))
                        .default_service(web::to(method_not_allowed::<Plain>("GET"))),
                )
                .default_service(web::to(not_found::<Plain>)),
        )
        .await;
        let req = TestRequest::default()
            .method(method.parse().expect("a valid method name"))
            .uri(uri)
            .to_request();
        let res = call_service(&app, req).await;
        let status = res.status();
        let body = read_body(res).await;
        (status, String::from_utf8_lossy(&body).into_owned())
    }

    #[actix_web::test]
    async fn a_wrong_method_names_the_allowed_one() {
        assert_eq!(
            call("DELETE", "/health").await,
            (
                StatusCode::METHOD_NOT_ALLOWED,
                "/health [GET] method DELETE is not allowed on /health; use GET".to_owned()
            )
        );
    }

    #[actix_web::test]
    async fn an_unknown_path_is_echoed_at_most_200_characters_long() {
        assert_eq!(
            call("GET", "/nope").await,
            (StatusCode::NOT_FOUND, "not found: GET /nope".to_owned())
        );
        let long = format!("/{}", "a".repeat(300));
        let (status, body) = call("POST", &long).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(body, format!("not found: POST {}", &long[..200]));
    }

    #[test]
    fn settings_default_to_every_interface_and_the_services_port() {
        let s = ServerSettings::from_env(&EnvSource::default(), 8123).unwrap();
        assert_eq!((s.host.as_str(), s.port), ("0.0.0.0", 8123));
        assert_eq!(
            (s.log_format, s.shutdown_timeout_secs),
            (LogFormat::Text, 30)
        );
        assert!(s.workers >= 1);
        let s = ServerSettings::from_env(&EnvSource::from_pairs([("WORKERS", "0")]), 1).unwrap();
        assert_eq!(s.workers, 1);
    }

    #[test]
    fn a_taken_port_fails_binding_with_the_address_named() {
        let first = Listener::bind(&settings_on(0)).unwrap();
        let err = Listener::bind(&settings_on(first.port())).unwrap_err();
        assert!(
            err.to_string()
                .starts_with(&format!("cannot bind 127.0.0.1:{}", first.port())),
            "{err}"
        );
    }

    fn settings_on(port: u16) -> ServerSettings {
        ServerSettings {
            host: "127.0.0.1".into(),
            port,
            log_format: LogFormat::Text,
            workers: 1,
            shutdown_timeout_secs: 1,
        }
    }
}
