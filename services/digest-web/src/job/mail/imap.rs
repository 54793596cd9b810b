//! IMAP over TLS (imaps), STARTTLS (imap), or plain text on loopback only, with async-imap on
//! a small current-thread tokio runtime (the rest of the job is synchronous).
//!
//! Only UIDs are listed up front (`UID SEARCH`); bodies are fetched with `BODY.PEEK[]` (the
//! `\Seen` flag is left alone) in batches, and only for messages not in the cache.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use async_imap::{Client, Session};
use chrono::{DateTime, Utc};
use futures_util::TryStreamExt;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;
use tokio_rustls::rustls;

use super::local::Entry;
use super::{ImapSecurity, ImapUrl, MailError};
use crate::settings::ImapAuth;

/// Time allowed for connecting and for each command.
const TIMEOUT: Duration = Duration::from_secs(30);
/// UIDs per `UID FETCH` command.
pub const FETCH_BATCH: usize = 100;

/// Plain TCP (loopback only) or TLS.
#[derive(Debug)]
enum ImapStream {
    Plain(TcpStream),
    Tls(Box<TlsStream<TcpStream>>),
}

impl AsyncRead for ImapStream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Self::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Self::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for ImapStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Self::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Self::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Self::Plain(s) => Pin::new(s).poll_flush(cx),
            Self::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Self::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Self::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }
}

/// XOAUTH2 (RFC 7628 style, as Gmail and Outlook take it).
struct XOAuth2<'a> {
    user: &'a str,
    token: &'a str,
}

impl async_imap::Authenticator for XOAuth2<'_> {
    type Response = String;

    fn process(&mut self, _challenge: &[u8]) -> String {
        format!("user={}\x01auth=Bearer {}\x01\x01", self.user, self.token)
    }
}

/// An open, logged-in, selected IMAP mailbox.
pub struct ImapMailbox {
    runtime: tokio::runtime::Runtime,
    session: Session<ImapStream>,
    addr: String,
    uid_validity: u32,
    entries: Vec<Entry>,
    uids: Vec<u32>,
    /// IMAP `UID FETCH` commands sent so far.
    pub fetch_commands: u64,
}

/// A fetched message.
pub struct Fetched {
    /// Index into [`ImapMailbox::entries`].
    pub index: usize,
    /// The raw message.
    pub bytes: Vec<u8>,
    /// INTERNALDATE.
    pub delivered_at: Option<DateTime<Utc>>,
}

impl ImapMailbox {
    /// Connects, logs in, selects the mailbox and lists the UIDs of messages delivered since
    /// `since` (all when `None`), keeping the `max` newest (highest UIDs).
    pub fn open(
        url: &ImapUrl,
        auth: Option<&ImapAuth>,
        since: Option<DateTime<Utc>>,
        max: usize,
    ) -> Result<Self, MailError> {
        let runtime = runtime(url)?;
        let addr = url.addr();
        let (session, uid_validity, mut uids) = runtime.block_on(async {
            let mut session = login(url, auth).await?;
            let mailbox = timed(&addr, "SELECT", session.select(&url.mailbox)).await?;
            let query = match since {
                // SINCE compares dates only (INTERNALDATE, server's zone): the exact window
                // is applied again after parsing.
                Some(t) => format!("SINCE {}", t.format("%d-%b-%Y")),
                None => "ALL".to_owned(),
            };
            let uids = timed(&addr, "SEARCH", session.uid_search(&query)).await?;
            Ok::<_, MailError>((session, mailbox.uid_validity.unwrap_or(0), uids))
        })?;
        let mut uids: Vec<u32> = uids.drain().collect();
        uids.sort_unstable_by(|a, b| b.cmp(a));
        uids.truncate(max);
        let entries = uids
            .iter()
            .map(|uid| Entry {
                key: format!("{uid_validity}:{uid}"),
                delivered_at: None,
            })
            .collect();
        Ok(Self {
            runtime,
            session,
            addr,
            uid_validity,
            entries,
            uids,
            fetch_commands: 0,
        })
    }

    /// The listed messages, newest first.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The mailbox's UIDVALIDITY.
    pub fn uid_validity(&self) -> u32 {
        self.uid_validity
    }

    /// Fetches the given entries (by index) in batches of [`FETCH_BATCH`] UIDs.
    pub fn fetch(&mut self, indices: &[usize]) -> Result<Vec<Fetched>, MailError> {
        let mut out = Vec::with_capacity(indices.len());
        for batch in indices.chunks(FETCH_BATCH) {
            let set = batch
                .iter()
                .filter_map(|&i| self.uids.get(i))
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(",");
            if set.is_empty() {
                continue;
            }
            self.fetch_commands += 1;
            let addr = self.addr.clone();
            let session = &mut self.session;
            let fetches = self.runtime.block_on(async {
                let stream = timed(
                    &addr,
                    "FETCH",
                    session.uid_fetch(&set, "(UID INTERNALDATE BODY.PEEK[])"),
                )
                .await?;
                timed(&addr, "FETCH", stream.try_collect::<Vec<_>>()).await
            })?;
            for fetch in fetches {
                let (Some(uid), Some(body)) = (fetch.uid, fetch.body()) else {
                    continue;
                };
                // Only UIDs asked for in this batch (a server may send unsolicited FETCHes).
                let Some(&index) = batch.iter().find(|&&i| self.uids.get(i) == Some(&uid)) else {
                    continue;
                };
                out.push(Fetched {
                    index,
                    bytes: body.to_vec(),
                    delivered_at: fetch.internal_date().map(|d| d.with_timezone(&Utc)),
                });
            }
        }
        Ok(out)
    }

    /// Logs out (errors ignored: the work is done).
    pub fn close(mut self) {
        let session = &mut self.session;
        let _ = self
            .runtime
            .block_on(async { tokio::time::timeout(TIMEOUT, session.logout()).await });
    }
}

/// Connects, logs in, selects the mailbox and returns its message count.
pub fn count(url: &ImapUrl, auth: Option<&ImapAuth>) -> Result<usize, MailError> {
    let runtime = runtime(url)?;
    let addr = url.addr();
    runtime.block_on(async {
        let mut session = login(url, auth).await?;
        let mailbox = timed(&addr, "SELECT", session.select(&url.mailbox)).await?;
        let _ = tokio::time::timeout(TIMEOUT, session.logout()).await;
        Ok(mailbox.exists as usize)
    })
}

fn runtime(url: &ImapUrl) -> Result<tokio::runtime::Runtime, MailError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| MailError::Connect {
            addr: url.addr(),
            reason: format!("cannot start the I/O runtime: {e}"),
        })
}

async fn timed<T, E: std::fmt::Display>(
    addr: &str,
    command: &'static str,
    future: impl Future<Output = Result<T, E>>,
) -> Result<T, MailError> {
    match tokio::time::timeout(TIMEOUT, future).await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(e)) => Err(MailError::Protocol {
            command,
            addr: addr.to_owned(),
            reason: e.to_string(),
        }),
        Err(_) => Err(MailError::Protocol {
            command,
            addr: addr.to_owned(),
            reason: format!("no answer within {} s", TIMEOUT.as_secs()),
        }),
    }
}

/// Environment variable naming an extra PEM file of trusted CA certificates (a private CA,
/// or the test server's), added to the built-in web PKI roots.
pub const CA_FILE_VAR: &str = "DIGEST_IMAP_CA_FILE";

fn tls_connector(addr: &str) -> Result<TlsConnector, MailError> {
    use rustls::pki_types::CertificateDer;
    use rustls::pki_types::pem::PemObject;

    let mut roots = rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    if let Some(path) = std::env::var_os(CA_FILE_VAR).filter(|p| !p.is_empty()) {
        let bad = |reason: String| MailError::Connect {
            addr: addr.to_owned(),
            reason: format!("{CA_FILE_VAR} {}: {reason}", path.to_string_lossy()),
        };
        let certs = CertificateDer::pem_file_iter(&path)
            .map_err(|e| bad(e.to_string()))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| bad(e.to_string()))?;
        let (added, _) = roots.add_parsable_certificates(certs);
        if added == 0 {
            return Err(bad("no usable CA certificate".into()));
        }
    }
    // ring is compiled in (no aws-lc); building the config with it explicitly avoids relying
    // on a process-wide default provider.
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    // The ring provider supports the default protocol versions: this cannot fail.
    .unwrap_or_else(|_| unreachable!("ring supports TLS 1.2 and 1.3"))
    .with_root_certificates(roots)
    .with_no_client_auth();
    Ok(TlsConnector::from(Arc::new(config)))
}

async fn tls(url: &ImapUrl, tcp: TcpStream) -> Result<ImapStream, MailError> {
    let name = rustls::pki_types::ServerName::try_from(url.host.clone()).map_err(|e| {
        MailError::Connect {
            addr: url.addr(),
            reason: format!("invalid TLS server name: {e}"),
        }
    })?;
    let connector = tls_connector(&url.addr())?;
    let stream = tokio::time::timeout(TIMEOUT, connector.connect(name, tcp))
        .await
        .map_err(|_| MailError::Connect {
            addr: url.addr(),
            reason: "TLS handshake timed out".into(),
        })?
        .map_err(|e| MailError::Connect {
            addr: url.addr(),
            reason: format!("TLS handshake failed: {e}"),
        })?;
    Ok(ImapStream::Tls(Box::new(stream)))
}

async fn login(url: &ImapUrl, auth: Option<&ImapAuth>) -> Result<Session<ImapStream>, MailError> {
    let addr = url.addr();
    let auth = auth.ok_or_else(|| MailError::NoCredentials {
        user: url.user.clone(),
    })?;
    let connect_err = |reason: String| MailError::Connect {
        addr: addr.clone(),
        reason,
    };
    let tcp = tokio::time::timeout(TIMEOUT, TcpStream::connect((url.host.as_str(), url.port)))
        .await
        .map_err(|_| connect_err("connection timed out".into()))?
        .map_err(|e| connect_err(e.to_string()))?;
    let stream = match url.security {
        ImapSecurity::Tls => tls(url, tcp).await?,
        ImapSecurity::StartTls => ImapStream::Plain(tcp),
    };
    let mut client = Client::new(stream);
    match tokio::time::timeout(TIMEOUT, client.read_response()).await {
        Ok(Ok(Some(_))) => {}
        Ok(Ok(None)) => return Err(connect_err("the server closed the connection".into())),
        Ok(Err(e)) => return Err(connect_err(e.to_string())),
        Err(_) => return Err(connect_err("no greeting from the server".into())),
    }
    if url.security == ImapSecurity::StartTls {
        let started =
            tokio::time::timeout(TIMEOUT, client.run_command_and_check_ok("STARTTLS", None)).await;
        match started {
            Ok(Ok(())) => {
                let ImapStream::Plain(tcp) = client.into_inner() else {
                    return Err(connect_err("STARTTLS on a TLS stream".into()));
                };
                client = Client::new(tls(url, tcp).await?);
            }
            // Plain text is allowed on loopback only (a local test or bridge server).
            Ok(Err(_)) if url.is_loopback() => {}
            Ok(Err(e)) => {
                return Err(connect_err(format!(
                    "the server does not offer STARTTLS ({e}); use imaps:// or a server with TLS"
                )));
            }
            Err(_) => return Err(connect_err("STARTTLS timed out".into())),
        }
    }
    let login_err = |e: async_imap::error::Error| MailError::Login {
        user: url.user.clone(),
        addr: addr.clone(),
        reason: match e {
            async_imap::error::Error::No(_) | async_imap::error::Error::Bad(_) => {
                "authentication failed".to_owned()
            }
            other => other.to_string(),
        },
    };
    let result = match auth {
        ImapAuth::Password(password) => {
            tokio::time::timeout(TIMEOUT, client.login(&url.user, password)).await
        }
        ImapAuth::OAuth2(token) => {
            let xoauth = XOAuth2 {
                user: &url.user,
                token,
            };
            tokio::time::timeout(TIMEOUT, client.authenticate("XOAUTH2", xoauth)).await
        }
    };
    match result {
        Ok(Ok(session)) => Ok(session),
        Ok(Err((e, _client))) => Err(login_err(e)),
        Err(_) => Err(MailError::Login {
            user: url.user.clone(),
            addr,
            reason: "no answer to the login within 30 s".into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use async_imap::Authenticator;

    use super::*;

    #[test]
    fn xoauth2_response_follows_the_sasl_format() {
        let mut auth = XOAuth2 {
            user: "ops@example.com",
            token: "ya29.token",
        };
        assert_eq!(
            auth.process(b""),
            "user=ops@example.com\x01auth=Bearer ya29.token\x01\x01"
        );
    }
}
