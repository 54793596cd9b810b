//! Real servers on loopback for acting on mail: an HTTPS endpoint (rustls, with a CA and a
//! certificate made by rcgen at test time) that records the requests it gets, and an SMTP
//! sink that speaks the protocol (EHLO, MAIL, RCPT, DATA, QUIT) and records the messages.
//! Each serves until the test ends (the runtime's tasks are dropped with it).

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

/// One request the HTTPS server got.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: String,
    pub path: String,
    pub content_type: String,
    pub body: String,
}

/// An HTTPS server answering every request with `status` (and `location`, if set).
pub struct OneClickServer {
    pub port: u16,
    /// PEM of the CA that signed its certificate (for `DIGEST_UNSUBSCRIBE_CA_FILE`).
    pub ca_file: tempfile::NamedTempFile,
    pub seen: Arc<Mutex<Vec<Seen>>>,
}

impl OneClickServer {
    pub async fn start(status: u16, location: Option<&str>) -> Self {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let ca_key = rcgen::KeyPair::generate().unwrap();
        let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        ca_params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "digest-web test CA");
        let ca = rcgen::CertifiedIssuer::self_signed(ca_params, ca_key).unwrap();
        let key = rcgen::KeyPair::generate().unwrap();
        let params =
            rcgen::CertificateParams::new(vec!["localhost".into(), "127.0.0.1".into()]).unwrap();
        let cert = params.signed_by(&key, &ca).unwrap();
        let ca_file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(ca_file.path(), ca.pem()).unwrap();

        let config = rustls::ServerConfig::builder()
            .with_no_client_auth()
            .with_single_cert(
                vec![cert.der().clone()],
                rustls::pki_types::PrivateKeyDer::Pkcs8(key.serialize_der().into()),
            )
            .unwrap();
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = seen.clone();
        let location = location.map(str::to_owned);
        tokio::spawn(async move {
            while let Ok((tcp, _)) = listener.accept().await {
                let acceptor = acceptor.clone();
                let log = log.clone();
                let location = location.clone();
                tokio::spawn(async move {
                    let Ok(tls) = acceptor.accept(tcp).await else {
                        return;
                    };
                    let mut reader = BufReader::new(tls);
                    let mut head = String::new();
                    let mut lines = Vec::new();
                    loop {
                        head.clear();
                        if reader.read_line(&mut head).await.unwrap_or(0) == 0 {
                            return;
                        }
                        if head.trim().is_empty() {
                            break;
                        }
                        lines.push(head.trim_end().to_owned());
                    }
                    let header = |name: &str| {
                        lines
                            .iter()
                            .filter_map(|l| l.split_once(':'))
                            .find(|(k, _)| k.trim().eq_ignore_ascii_case(name))
                            .map(|(_, v)| v.trim().to_owned())
                            .unwrap_or_default()
                    };
                    let length: usize = header("content-length").parse().unwrap_or(0);
                    let mut body = vec![0; length.min(1 << 16)];
                    let _ = reader.read_exact(&mut body).await;
                    let mut request = lines.first().cloned().unwrap_or_default().into_bytes();
                    request.truncate(2000);
                    let request = String::from_utf8_lossy(&request).into_owned();
                    let mut parts = request.split_whitespace();
                    log.lock().unwrap().push(Seen {
                        method: parts.next().unwrap_or_default().to_owned(),
                        path: parts.next().unwrap_or_default().to_owned(),
                        content_type: header("content-type"),
                        body: String::from_utf8_lossy(&body).into_owned(),
                    });
                    let extra = location
                        .map(|l| format!("Location: {l}\r\n"))
                        .unwrap_or_default();
                    let answer = format!(
                        "HTTP/1.1 {status} Test\r\n{extra}Content-Length: 2\r\nConnection: close\r\n\r\nok"
                    );
                    let _ = reader.get_mut().write_all(answer.as_bytes()).await;
                    let _ = reader.get_mut().shutdown().await;
                });
            }
        });
        Self {
            port,
            ca_file,
            seen,
        }
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

/// One message the SMTP sink accepted.
#[derive(Debug, Clone)]
pub struct Mail {
    pub from: String,
    pub to: Vec<String>,
    pub data: String,
}

/// An SMTP server on loopback that accepts every message (plain text: loopback only).
pub struct SmtpSink {
    pub port: u16,
    pub mail: Arc<Mutex<Vec<Mail>>>,
}

impl SmtpSink {
    pub async fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let mail = Arc::new(Mutex::new(Vec::new()));
        let log = mail.clone();
        tokio::spawn(async move {
            while let Ok((tcp, _)) = listener.accept().await {
                let log = log.clone();
                tokio::spawn(async move {
                    let (read, mut write) = tcp.into_split();
                    let mut reader = BufReader::new(read);
                    let _ = write.write_all(b"220 sink.test ESMTP\r\n").await;
                    let (mut from, mut to) = (String::new(), Vec::new());
                    let mut line = String::new();
                    loop {
                        line.clear();
                        if reader.read_line(&mut line).await.unwrap_or(0) == 0 {
                            return;
                        }
                        let upper = line.to_ascii_uppercase();
                        let reply: &[u8] = if upper.starts_with("EHLO") || upper.starts_with("HELO")
                        {
                            b"250-sink.test\r\n250 8BITMIME\r\n"
                        } else if upper.starts_with("MAIL FROM:") {
                            from = line[10..].trim().to_owned();
                            b"250 2.1.0 Ok\r\n"
                        } else if upper.starts_with("RCPT TO:") {
                            to.push(line[8..].trim().to_owned());
                            b"250 2.1.5 Ok\r\n"
                        } else if upper.starts_with("DATA") {
                            let _ = write
                                .write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n")
                                .await;
                            let mut data = String::new();
                            loop {
                                line.clear();
                                if reader.read_line(&mut line).await.unwrap_or(0) == 0 {
                                    return;
                                }
                                if line == ".\r\n" || line == ".\n" {
                                    break;
                                }
                                data.push_str(&line);
                            }
                            log.lock().unwrap().push(Mail {
                                from: std::mem::take(&mut from),
                                to: std::mem::take(&mut to),
                                data,
                            });
                            b"250 2.0.0 Ok: queued\r\n"
                        } else if upper.starts_with("QUIT") {
                            let _ = write.write_all(b"221 2.0.0 Bye\r\n").await;
                            return;
                        } else if upper.starts_with("RSET") || upper.starts_with("NOOP") {
                            b"250 2.0.0 Ok\r\n"
                        } else {
                            b"502 5.5.2 Error: command not recognized\r\n"
                        };
                        if write.write_all(reply).await.is_err() {
                            return;
                        }
                    }
                });
            }
        });
        Self { port, mail }
    }

    pub fn mail(&self) -> Vec<Mail> {
        self.mail.lock().unwrap().clone()
    }
}
