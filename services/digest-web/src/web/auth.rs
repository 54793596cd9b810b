//! Optional access protection (off by default, as the spec shows none).
//!
//! With `DIGEST_AUTH_TOKEN` set, a request passes with `Authorization: Bearer <token>`, a
//! `digest_token=<token>` cookie, or `?token=<token>` in the URL (which also sets the cookie,
//! so a browser opened on `/?token=...` keeps working). With `DIGEST_BASIC_AUTH_USER` and
//! `DIGEST_BASIC_AUTH_PASSWORD` set, HTTP basic auth passes too. `/health` is always open,
//! for probes. Everything else, `/metrics` included, answers 401 `{"error": ...}` without.
//!
//! Whether protection is on or not, a POST or DELETE that a browser marks `Sec-Fetch-Site: cross-site`
//! (or, from an older browser without that header, whose `Origin` is not this host) is refused
//! with 403: another site must not start refreshes, test runs or unsubscribes through a
//! visitor's browser (which would send its basic-auth credentials along). API clients send no
//! such header and are unaffected.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{AUTHORIZATION, COOKIE, HeaderValue, SET_COOKIE};
use actix_web::middleware::Next;
use actix_web::web;
use base64::Engine;
use subtle::ConstantTimeEq;

use crate::web::configuration::Settings;
use crate::web::error::WebError;
use crate::web::state::AppState;

/// The cookie that carries the token for the pages.
pub const COOKIE_NAME: &str = "digest_token";

/// Middleware: lets a request through only with valid credentials when protection is on.
pub async fn require(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let Some(state) = req.app_data::<web::Data<AppState>>().cloned() else {
        return next.call(req).await;
    };
    let changes = !matches!(
        *req.method(),
        actix_web::http::Method::GET | actix_web::http::Method::HEAD
    );
    if changes && from_another_site(req.headers()) {
        return Err(
            WebError::Forbidden("cross-site requests may not change anything here".into()).into(),
        );
    }
    let settings = &state.settings;
    if !settings.auth_enabled() || req.path() == "/health" {
        return next.call(req).await;
    }
    match check(settings, &req) {
        Access::Granted { set_cookie } => {
            let mut res = next.call(req).await?;
            if let Some(token) = set_cookie
                && let Ok(value) = HeaderValue::from_str(&format!(
                    "{COOKIE_NAME}={token}; Path=/; HttpOnly; SameSite=Strict"
                ))
            {
                res.headers_mut().insert(SET_COOKIE, value);
            }
            Ok(res)
        }
        Access::Denied(message) => Err(WebError::Unauthorized {
            basic: settings.basic_auth.is_some(),
            message,
        }
        .into()),
    }
}

/// Whether a browser sent this request from another site: `Sec-Fetch-Site: cross-site`, or,
/// from a browser that sends no `Sec-Fetch-Site`, an `Origin` whose host is neither `Host`
/// nor `X-Forwarded-Host` (ports aside, as a proxy may drop them), or `Origin: null`.
/// Requests without either header (API clients, curl) pass.
fn from_another_site(headers: &actix_web::http::header::HeaderMap) -> bool {
    if let Some(site) = headers.get("sec-fetch-site") {
        return site.as_bytes().eq_ignore_ascii_case(b"cross-site");
    }
    let Some(origin) = headers.get("origin").and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let host_of = |authority: &str| -> String {
        let authority = authority.trim().trim_end_matches('/');
        let host = match authority.strip_prefix('[') {
            Some(v6) => v6.split(']').next().unwrap_or(""),
            None => authority.rsplit_once(':').map_or(authority, |(h, _)| h),
        };
        host.to_ascii_lowercase()
    };
    let Some((_, origin)) = origin.split_once("://") else {
        // `null` (a sandboxed frame, a redirect across sites) or garbage
        return true;
    };
    let origin = host_of(origin);
    !["host", "x-forwarded-host"].iter().any(|name| {
        headers
            .get(*name)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|h| h.split(',').any(|h| host_of(h) == origin))
    })
}

enum Access {
    Granted { set_cookie: Option<String> },
    Denied(String),
}

fn check(settings: &Settings, req: &ServiceRequest) -> Access {
    let header = req
        .headers()
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if let Some(expected) = &settings.auth_token {
        let expected = expected.0.as_bytes();
        if let Some(given) = header.strip_prefix("Bearer ")
            && equal(given.trim().as_bytes(), expected)
        {
            return Access::Granted { set_cookie: None };
        }
        let cookie = req
            .headers()
            .get_all(COOKIE)
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .any(|(k, v)| k == COOKIE_NAME && equal(v.as_bytes(), expected));
        if cookie {
            return Access::Granted { set_cookie: None };
        }
        let query =
            web::Query::<std::collections::HashMap<String, String>>::from_query(req.query_string())
                .ok()
                .and_then(|q| q.get("token").cloned());
        if let Some(token) = query
            && equal(token.as_bytes(), expected)
        {
            return Access::Granted {
                set_cookie: Some(token),
            };
        }
    }
    if let Some((user, password)) = &settings.basic_auth
        && let Some(encoded) = header.strip_prefix("Basic ")
        && let Ok(decoded) = base64::engine::general_purpose::STANDARD.decode(encoded.trim())
    {
        let expected = format!("{user}:{}", password.0);
        if equal(&decoded, expected.as_bytes()) {
            return Access::Granted { set_cookie: None };
        }
    }
    let mut ways = Vec::new();
    if settings.auth_token.is_some() {
        ways.push("a Bearer token");
    }
    if settings.basic_auth.is_some() {
        ways.push("basic-auth credentials");
    }
    Access::Denied(format!("send {}", ways.join(" or ")))
}

/// Compares in time independent of where the first difference is (`subtle` keeps the
/// optimiser from turning the comparison into an early exit).
fn equal(a: &[u8], b: &[u8]) -> bool {
    a.ct_eq(b).into()
}

/// Who a request comes from, for what it records (corrections): the basic-auth user name
/// when it signed in with basic auth, `token` when it passed with the access token, and
/// `anonymous` when protection is off. The middleware has already let the request through,
/// so only the user name is read here, after checking the password again.
pub fn user(settings: &Settings, headers: &actix_web::http::header::HeaderMap) -> String {
    if !settings.auth_enabled() {
        return "anonymous".to_owned();
    }
    if let Some((user, password)) = &settings.basic_auth
        && let Some(encoded) = headers
            .get(AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|h| h.strip_prefix("Basic "))
        && let Ok(decoded) = base64::engine::general_purpose::STANDARD.decode(encoded.trim())
        && equal(&decoded, format!("{user}:{}", password.0).as_bytes())
    {
        return user.clone();
    }
    "token".to_owned()
}

/// The start-up warning when the service is reachable from other machines without protection.
pub fn exposure_warning(settings: &Settings) -> Option<String> {
    (!settings.auth_enabled() && !is_loopback(&settings.server.host)).then(|| {
        format!(
            "bound to {} without DIGEST_AUTH_TOKEN or basic auth: anyone who reaches this port \
             can read the digest and start refreshes",
            settings.server.host
        )
    })
}

/// Whether `host` is a loopback address (where running without protection is expected).
pub fn is_loopback(host: &str) -> bool {
    host == "localhost"
        || host
            .trim_matches(|c| c == '[' || c == ']')
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_site_is_told_by_fetch_metadata_then_origin() {
        use actix_web::http::header::{HeaderMap, HeaderName, HeaderValue};
        let headers = |pairs: &[(&'static str, &'static str)]| {
            let mut map = HeaderMap::new();
            for (k, v) in pairs {
                map.insert(HeaderName::from_static(k), HeaderValue::from_static(v));
            }
            map
        };
        assert!(!from_another_site(&headers(&[])));
        assert!(from_another_site(&headers(&[(
            "sec-fetch-site",
            "cross-site"
        )])));
        assert!(!from_another_site(&headers(&[(
            "sec-fetch-site",
            "same-origin"
        )])));
        let same = [
            ("origin", "http://127.0.0.1:8001"),
            ("host", "127.0.0.1:8001"),
        ];
        assert!(!from_another_site(&headers(&same)));
        let proxied = [
            ("origin", "https://digest.example"),
            ("host", "digest-web:8001"),
            ("x-forwarded-host", "digest.example"),
        ];
        assert!(!from_another_site(&headers(&proxied)));
        let other = [
            ("origin", "https://attacker.example"),
            ("host", "127.0.0.1:8001"),
        ];
        assert!(from_another_site(&headers(&other)));
        assert!(from_another_site(&headers(&[
            ("origin", "null"),
            ("host", "x")
        ])));
        let v6 = [("origin", "http://[::1]:8001"), ("host", "[::1]:8001")];
        assert!(!from_another_site(&headers(&v6)));
    }

    #[test]
    fn equal_and_loopback() {
        assert!(equal(b"abc", b"abc"));
        assert!(!equal(b"abc", b"abd"));
        assert!(!equal(b"abc", b"abcd"));
        assert!(is_loopback("127.0.0.1") && is_loopback("::1") && is_loopback("localhost"));
        assert!(!is_loopback("0.0.0.0"));
    }

    #[test]
    fn warns_only_when_exposed_without_protection() {
        use service_kit::config::EnvSource;
        let settings = |pairs: &[(&str, &str)]| {
            Settings::from_env(&EnvSource::from_pairs(pairs.iter().copied())).unwrap()
        };
        assert!(exposure_warning(&settings(&[])).is_some_and(|w| w.contains("0.0.0.0")));
        assert!(exposure_warning(&settings(&[("HOST", "127.0.0.1")])).is_none());
        assert!(exposure_warning(&settings(&[("DIGEST_AUTH_TOKEN", "t")])).is_none());
    }
}
