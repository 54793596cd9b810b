//! Carrying out an unsubscribe: the RFC 8058 one-click POST ([`OneClick`]) and the `mailto:`
//! message through the configured SMTP server ([`Smtp`]). Neither follows anything a sender
//! could steer elsewhere: the POST goes to the one address checked (pinned in the client, and
//! the connected peer checked again), with no proxy and no redirect followed.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use reqwest::Url;
use reqwest::header::CONTENT_TYPE;

use super::address::{Allowlist, refusal};
use super::header::Mailto;

/// What a target answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// Whether it accepted the unsubscribe (2xx, or an SMTP 2yz reply).
    pub accepted: bool,
    /// The HTTP status or SMTP reply code, when one came.
    pub status: Option<u16>,
    /// One line saying what happened.
    pub text: String,
}

/// Why an unsubscribe was not attempted at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Refused(pub String);

/// The one-click POST client's settings.
#[derive(Clone)]
pub struct OneClick {
    tls: Arc<rustls::ClientConfig>,
    allow: Allowlist,
    timeout: Duration,
}

impl OneClick {
    /// A client trusting the web PKI roots plus the certificates of `extra_ca_pem` (a private
    /// CA, for tests), reaching public addresses and `allow`, within `timeout` per step.
    pub fn new(
        extra_ca_pem: Option<&[u8]>,
        allow: Allowlist,
        timeout: Duration,
    ) -> Result<Self, String> {
        let mut roots = rustls::RootCertStore::empty();
        roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
        if let Some(pem) = extra_ca_pem {
            let mut added = 0;
            for cert in rustls::pki_types::pem::PemObject::pem_slice_iter(pem) {
                let cert: rustls::pki_types::CertificateDer<'static> =
                    cert.map_err(|e| format!("the CA file is not PEM: {e}"))?;
                roots
                    .add(cert)
                    .map_err(|e| format!("the CA file holds an unusable certificate: {e}"))?;
                added += 1;
            }
            if added == 0 {
                return Err("the CA file holds no certificate".into());
            }
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let tls = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| e.to_string())?
            .with_root_certificates(roots)
            .with_no_client_auth();
        Ok(Self {
            tls: Arc::new(tls),
            allow,
            timeout,
        })
    }

    /// The address to connect to: the URI's IP literal, or its host resolved, every answer
    /// checked (one non-public answer refuses the host: DNS that mixes them is an attack).
    async fn address(&self, url: &Url) -> Result<SocketAddr, Refused> {
        let port = url.port_or_known_default().unwrap_or(443);
        let addrs: Vec<SocketAddr> = match url.host() {
            Some(url::Host::Ipv4(ip)) => vec![SocketAddr::new(IpAddr::V4(ip), port)],
            Some(url::Host::Ipv6(ip)) => vec![SocketAddr::new(IpAddr::V6(ip), port)],
            Some(url::Host::Domain(host)) => {
                let lookup = tokio::net::lookup_host((host, port));
                tokio::time::timeout(self.timeout, lookup)
                    .await
                    .map_err(|_| Refused(format!("resolving {host} timed out")))?
                    .map_err(|e| Refused(format!("{host} does not resolve: {e}")))?
                    .collect()
            }
            None => return Err(Refused(format!("{url} has no host"))),
        };
        for addr in &addrs {
            if let Some(why) = refusal(addr.ip(), &self.allow) {
                return Err(Refused(format!(
                    "{} resolves to {why}",
                    url.host_str().unwrap_or_default()
                )));
            }
        }
        addrs
            .first()
            .copied()
            .ok_or_else(|| Refused(format!("{} resolves to nothing", url)))
    }

    /// POSTs `List-Unsubscribe=One-Click` to `url` (RFC 8058 section 3.2).
    pub async fn post(&self, url: &Url) -> Result<Answer, Refused> {
        if url.scheme() != "https" {
            return Err(Refused(format!("{url} is not https:")));
        }
        let addr = self.address(url).await?;
        let mut builder = reqwest::Client::builder()
            .tls_backend_preconfigured((*self.tls).clone())
            .https_only(true)
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(self.timeout)
            .timeout(self.timeout);
        if let Some(url::Host::Domain(host)) = url.host() {
            // The connection goes to the address just checked, not to a second DNS answer.
            builder = builder.resolve(host, addr);
        }
        let client = builder
            .build()
            .map_err(|e| Refused(format!("cannot build the HTTPS client: {e}")))?;
        let sent = client
            .post(url.clone())
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body("List-Unsubscribe=One-Click")
            .send()
            .await;
        let res = match sent {
            Ok(res) => res,
            Err(e) => {
                let why = if e.is_timeout() {
                    format!("no answer within {} s", self.timeout.as_secs())
                } else {
                    format!("request failed: {}", error_chain(&e))
                };
                return Ok(Answer {
                    accepted: false,
                    status: None,
                    text: why,
                });
            }
        };
        if let Some(peer) = res.remote_addr()
            && peer.ip() != addr.ip()
        {
            return Err(Refused(format!(
                "connected to {peer}, not to the checked address {addr}"
            )));
        }
        let status = res.status();
        let text = if status.is_redirection() {
            let to = res
                .headers()
                .get(reqwest::header::LOCATION)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            format!(
                "HTTP {}: a redirect to '{}' was not followed",
                status.as_u16(),
                to.chars().take(120).collect::<String>()
            )
        } else {
            format!(
                "HTTP {} {}",
                status.as_u16(),
                status.canonical_reason().unwrap_or("")
            )
        };
        Ok(Answer {
            accepted: status.is_success(),
            status: Some(status.as_u16()),
            text: text.trim().to_owned(),
        })
    }
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// The SMTP server `mailto:` unsubscribes go through (`SMTP_URL`).
#[derive(Clone)]
pub struct Smtp {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl Smtp {
    /// From `SMTP_URL` (`smtps://user:password@host:465`, `smtp://host:587?tls=required`, or
    /// plain `smtp://host:25` on a loopback host only) and the sender address.
    pub fn new(url: &str, from: &str, timeout: Duration) -> Result<Self, String> {
        let parsed = Url::parse(url).map_err(|e| format!("SMTP_URL is not a URL: {e}"))?;
        let tls = parsed.scheme() == "smtps"
            || parsed
                .query_pairs()
                .any(|(k, v)| k == "tls" && (v == "required" || v == "opportunistic"));
        let host = parsed.host_str().unwrap_or_default().to_owned();
        if !matches!(parsed.scheme(), "smtp" | "smtps") {
            return Err("SMTP_URL must start with smtp:// or smtps://".into());
        }
        let loopback = host == "localhost"
            || host
                .trim_matches(['[', ']'])
                .parse::<IpAddr>()
                .is_ok_and(|ip| ip.is_loopback());
        if !tls && !loopback {
            return Err(format!(
                "SMTP_URL sends in plain text to {host}: use smtps:// or ?tls=required (plain smtp:// only to a loopback host)"
            ));
        }
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|e| format!("SMTP_URL is not usable: {e}"))?
            .timeout(Some(timeout))
            .build();
        let from: Mailbox = from
            .parse()
            .map_err(|e| format!("the unsubscribe sender '{from}' is not an address: {e}"))?;
        Ok(Self { transport, from })
    }

    /// Sends the unsubscribe message.
    pub async fn send(&self, mailto: &Mailto) -> Result<Answer, Refused> {
        let message = Message::builder()
            .from(self.from.clone())
            .to(Mailbox::new(None, mailto.to.clone()))
            .subject(mailto.subject.clone())
            .body(mailto.body.clone())
            .map_err(|e| Refused(format!("cannot build the message: {e}")))?;
        Ok(match self.transport.send(message).await {
            Ok(res) => {
                let code: u16 = res.code().to_string().parse().unwrap_or(0);
                Answer {
                    accepted: res.is_positive(),
                    status: Some(code),
                    text: format!(
                        "SMTP {code}: {}",
                        res.message().collect::<Vec<_>>().join(" ")
                    ),
                }
            }
            Err(e) => Answer {
                accepted: false,
                status: e.status().map(|c| c.to_string().parse().unwrap_or(0)),
                text: format!("SMTP failed: {}", error_chain(&e)),
            },
        })
    }
}
