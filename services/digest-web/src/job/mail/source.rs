//! `--source` values and IMAP credentials.

use std::fmt;
use std::net::IpAddr;
use std::path::PathBuf;

use super::MailError;
use crate::settings::ImapAuth;
use crate::store::window::Window;

/// Where the refresh job reads mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MailSource {
    /// A Maildir folder (`cur/` and `new/` are read).
    Maildir(PathBuf),
    /// One mbox file.
    Mbox(PathBuf),
    /// One IMAP mailbox.
    Imap(ImapUrl),
    /// The sample Maildir compiled into the binary (`services/digest-web/sample-mailbox`).
    Sample,
}

impl MailSource {
    /// The window a run uses when none is given: `all` for the embedded sample (its dates
    /// are fixed in the past), `24h` otherwise.
    pub fn default_window(&self) -> Window {
        match self {
            Self::Sample => Window::All,
            _ => Window::Day,
        }
    }

    /// Parses `maildir:/path`, `mbox:/path`, `imaps://user@host:993/INBOX`,
    /// `imap://user@host:143/INBOX` or `sample`.
    pub fn parse(value: &str) -> Result<Self, MailError> {
        let value = value.trim();
        let invalid = |reason: &str| MailError::InvalidSource {
            value: redact(value),
            reason: reason.to_owned(),
        };
        if value.eq_ignore_ascii_case("sample") || value.eq_ignore_ascii_case("embedded") {
            return Ok(Self::Sample);
        }
        if let Some(path) = value.strip_prefix("maildir:") {
            return non_empty_path(path)
                .map(Self::Maildir)
                .ok_or_else(|| invalid("expected maildir:/path/to/Maildir"));
        }
        if let Some(path) = value.strip_prefix("mbox:") {
            return non_empty_path(path)
                .map(Self::Mbox)
                .ok_or_else(|| invalid("expected mbox:/path/to/file.mbox"));
        }
        if value.starts_with("imaps://") || value.starts_with("imap://") {
            return ImapUrl::parse(value)
                .map(Self::Imap)
                .map_err(|r| invalid(&r));
        }
        Err(invalid(
            "expected maildir:/path, mbox:/path, imaps://user@host:993/INBOX, imap://user@host/INBOX or sample",
        ))
    }

    /// The identity of the mailbox in `message_cache.source` (no secrets).
    pub fn cache_identity(&self) -> String {
        match self {
            Self::Maildir(p) => format!("maildir:{}", absolute(p).display()),
            Self::Mbox(p) => format!("mbox:{}", absolute(p).display()),
            Self::Imap(url) => url.to_string(),
            Self::Sample => "sample".to_owned(),
        }
    }
}

impl fmt::Display for MailSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Maildir(p) => write!(f, "maildir:{}", p.display()),
            Self::Mbox(p) => write!(f, "mbox:{}", p.display()),
            Self::Imap(url) => write!(f, "{url}"),
            Self::Sample => f.write_str("sample"),
        }
    }
}

fn non_empty_path(path: &str) -> Option<PathBuf> {
    let path = path.strip_prefix("//").unwrap_or(path);
    (!path.trim().is_empty()).then(|| PathBuf::from(path))
}

fn absolute(path: &std::path::Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_owned())
}

/// Drops a `user:password@` password before echoing a source back.
fn redact(value: &str) -> String {
    if let Some((scheme, rest)) = value.split_once("://")
        && let Some((userinfo, host)) = rest.rsplit_once('@')
        && let Some((user, _)) = userinfo.split_once(':')
    {
        return format!("{scheme}://{user}:***@{host}");
    }
    value.to_owned()
}

/// How the IMAP connection is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImapSecurity {
    /// `imaps://`: TLS from the first byte (port 993).
    Tls,
    /// `imap://`: STARTTLS; plain text only when the host is a loopback address.
    StartTls,
}

/// A parsed `imaps://user@host:port/MAILBOX` (the password never goes in the URL).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImapUrl {
    /// TLS or STARTTLS.
    pub security: ImapSecurity,
    /// Login name (percent-decoded, so `ops%40example.com` and `ops@example.com` both work).
    pub user: String,
    /// Host name or IP address.
    pub host: String,
    /// Port (993 for imaps, 143 for imap by default).
    pub port: u16,
    /// Mailbox to read (default `INBOX`).
    pub mailbox: String,
}

impl ImapUrl {
    /// Parses the URL; the error says what is wrong.
    pub fn parse(value: &str) -> Result<Self, String> {
        let (security, rest) = if let Some(rest) = value.strip_prefix("imaps://") {
            (ImapSecurity::Tls, rest)
        } else if let Some(rest) = value.strip_prefix("imap://") {
            (ImapSecurity::StartTls, rest)
        } else {
            return Err("expected imaps:// or imap://".into());
        };
        let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
        let (userinfo, hostport) = authority
            .rsplit_once('@')
            .ok_or("the URL needs a user name: imaps://user@host:993/INBOX")?;
        if userinfo.contains(':') {
            return Err(
                "do not put the password in the URL; use DIGEST_IMAP_PASSWORD or DIGEST_IMAP_PASSWORD_FILE"
                    .into(),
            );
        }
        let user = percent_decode(userinfo);
        if user.is_empty() {
            return Err("empty user name".into());
        }
        let default_port = match security {
            ImapSecurity::Tls => 993,
            ImapSecurity::StartTls => 143,
        };
        let (host, port) = split_host_port(hostport, default_port)?;
        let mailbox = match percent_decode(path.trim_end_matches('/')) {
            m if m.is_empty() => "INBOX".to_owned(),
            m => m,
        };
        Ok(Self {
            security,
            user,
            host,
            port,
            mailbox,
        })
    }

    /// `host:port` as shown in messages.
    pub fn addr(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }

    /// Whether the host is a loopback address (`localhost`, 127.0.0.0/8, ::1).
    pub fn is_loopback(&self) -> bool {
        self.host.eq_ignore_ascii_case("localhost")
            || self.host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
    }
}

impl fmt::Display for ImapUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scheme = match self.security {
            ImapSecurity::Tls => "imaps",
            ImapSecurity::StartTls => "imap",
        };
        write!(
            f,
            "{scheme}://{}@{}/{}",
            self.user,
            self.addr(),
            self.mailbox
        )
    }
}

fn split_host_port(hostport: &str, default_port: u16) -> Result<(String, u16), String> {
    let bad_port = |p: &str| format!("invalid port '{p}'");
    if let Some(rest) = hostport.strip_prefix('[') {
        let (host, after) = rest.split_once(']').ok_or("unclosed [ in host")?;
        let port = match after.strip_prefix(':') {
            Some(p) => p.parse().map_err(|_| bad_port(p))?,
            None => default_port,
        };
        return Ok((host.to_owned(), port));
    }
    let (host, port) = match hostport.rsplit_once(':') {
        Some((h, p)) => (h, p.parse().map_err(|_| bad_port(p))?),
        None => (hostport, default_port),
    };
    if host.is_empty() {
        return Err("empty host".into());
    }
    Ok((host.to_owned(), port))
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Some(b) = std::str::from_utf8(&bytes[i + 1..i + 3])
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Connects (and logs in, for IMAP) and counts the messages: the dashboard's "mail source
/// reachable" diagnostic.
pub fn check_source(source: &MailSource, auth: Option<&ImapAuth>) -> Result<usize, MailError> {
    match source {
        MailSource::Imap(url) => super::imap::count(url, auth),
        local => Ok(super::local::LocalMailbox::open(local)?.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_source_form() {
        assert_eq!(
            MailSource::parse("maildir:/var/mail/me").unwrap(),
            MailSource::Maildir("/var/mail/me".into())
        );
        assert_eq!(
            MailSource::parse("mbox:inbox.mbox").unwrap(),
            MailSource::Mbox("inbox.mbox".into())
        );
        assert_eq!(MailSource::parse("sample").unwrap(), MailSource::Sample);
        let MailSource::Imap(url) =
            MailSource::parse("imaps://ops%40example.com@mail.example.com/Archive%202026").unwrap()
        else {
            panic!("not imap")
        };
        assert_eq!(url.user, "ops@example.com");
        assert_eq!(url.port, 993);
        assert_eq!(url.mailbox, "Archive 2026");
        assert_eq!(url.security, ImapSecurity::Tls);
        assert!(!url.is_loopback());
    }

    #[test]
    fn imap_with_at_in_user_and_explicit_port() {
        let url = ImapUrl::parse("imap://ops@example.com@127.0.0.1:1993/INBOX").unwrap();
        assert_eq!(
            (url.user.as_str(), url.host.as_str(), url.port),
            ("ops@example.com", "127.0.0.1", 1993)
        );
        assert_eq!(url.security, ImapSecurity::StartTls);
        assert!(url.is_loopback());
        assert_eq!(url.addr(), "127.0.0.1:1993");
    }

    #[test]
    fn rejects_bad_sources_with_a_reason_and_no_password() {
        for bad in ["pop3://x", "maildir:", "imaps://host", "imaps://u@h:99999/"] {
            assert!(MailSource::parse(bad).is_err(), "{bad}");
        }
        let err = MailSource::parse("imaps://me:hunter2@host/INBOX").unwrap_err();
        let text = err.to_string();
        assert!(!text.contains("hunter2"), "{text}");
        assert!(text.contains("DIGEST_IMAP_PASSWORD"), "{text}");
    }
}
