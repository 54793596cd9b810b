//! Reading `List-Unsubscribe` (RFC 2369) and `List-Unsubscribe-Post` (RFC 8058) into the one
//! way this service will unsubscribe, or the reason it will not.
//!
//! Accepted: an `https:` URI when `List-Unsubscribe-Post: List-Unsubscribe=One-Click` offers
//! the one-click POST, else a `mailto:` URI with one address and at most a subject and a body.
//! Everything else is refused with a reason and never followed: `http:` (and an `https:` URI
//! without the one-click offer, which only a GET could use), `javascript:`, `file:`, `data:`
//! and every other scheme, user names in URIs, IP literals of loopback, private, link-local
//! and other non-public networks, control characters (CR, LF, ...) anywhere, a header over
//! [`MAX_HEADER_CHARS`], more than [`MAX_URIS`] URIs, and in `mailto:` further recipients
//! (`to`, `cc`, `bcc`), other header fields, or a line break in the subject or body (header
//! injection). Host names are checked once resolved, when the request is made
//! (see [`super::address`]).

use std::net::IpAddr;

use lettre::Address;
use percent_encoding::percent_decode_str;
use reqwest::Url;

use super::address::{Allowlist, refusal};
use crate::web::error::shown;

/// Longest `List-Unsubscribe` read (characters); real ones are a few hundred.
pub const MAX_HEADER_CHARS: usize = 4_096;
/// Most URIs read from one header.
pub const MAX_URIS: usize = 8;
/// Longest `mailto:` subject and body (characters, decoded).
const MAX_MAILTO_CHARS: usize = 500;

/// How a sender can be unsubscribed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Method {
    /// RFC 8058: POST `List-Unsubscribe=One-Click` to this https URI.
    OneClick(Url),
    /// Send this message through the configured SMTP server.
    Mailto(Mailto),
}

impl Method {
    /// `one-click` or `mailto`.
    pub fn name(&self) -> &'static str {
        match self {
            Self::OneClick(_) => "one-click",
            Self::Mailto(_) => "mailto",
        }
    }

    /// The URI posted to or the address written to.
    pub fn target(&self) -> String {
        match self {
            Self::OneClick(url) => url.to_string(),
            Self::Mailto(m) => m.to.to_string(),
        }
    }
}

/// A `mailto:` unsubscribe message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mailto {
    /// The one recipient.
    pub to: Address,
    /// The subject (`unsubscribe` when the URI gives none).
    pub subject: String,
    /// The body (`unsubscribe` when the URI gives none).
    pub body: String,
}

/// Reads the headers of one message. `allow` opens non-public IP literals (tests).
pub fn parse(
    list_unsubscribe: Option<&str>,
    list_unsubscribe_post: Option<&str>,
    allow: &Allowlist,
) -> Result<Method, String> {
    let header = list_unsubscribe
        .map(str::trim)
        .filter(|h| !h.is_empty())
        .ok_or_else(|| "no List-Unsubscribe header".to_owned())?;
    let chars = header.chars().count();
    if chars > MAX_HEADER_CHARS {
        return Err(format!(
            "List-Unsubscribe is {chars} characters long, over the {MAX_HEADER_CHARS} accepted"
        ));
    }
    if header.chars().any(char::is_control) {
        return Err("List-Unsubscribe contains control characters (CR, LF or others)".into());
    }
    let one_click = list_unsubscribe_post.is_some_and(|p| {
        !p.chars().any(char::is_control)
            && p.trim().eq_ignore_ascii_case("List-Unsubscribe=One-Click")
    });
    let uris: Vec<String> = header
        .split('<')
        .skip(1)
        .filter_map(|part| part.split_once('>').map(|(uri, _)| uri))
        // RFC 2369: whitespace inside the brackets (a folded URI) is ignored.
        .map(|uri| uri.split_whitespace().collect())
        .filter(|uri: &String| !uri.is_empty())
        .collect();
    if uris.is_empty() {
        return Err("List-Unsubscribe has no <URI> in angle brackets".into());
    }
    if uris.len() > MAX_URIS {
        return Err(format!(
            "List-Unsubscribe lists {} URIs, over the {MAX_URIS} accepted",
            uris.len()
        ));
    }
    let mut https = None;
    let mut mailto = None;
    let mut reasons = Vec::new();
    for uri in &uris {
        let scheme = uri
            .split_once(':')
            .map(|(s, _)| s.trim().to_ascii_lowercase())
            .unwrap_or_default();
        match scheme.as_str() {
            "https" if !one_click => reasons.push(format!(
                "{} is offered without List-Unsubscribe-Post: List-Unsubscribe=One-Click (only a GET could use it, and links are never visited)",
                shown(uri)
            )),
            "https" => match parse_https(uri, allow) {
                Ok(url) => {
                    https.get_or_insert(url);
                }
                Err(e) => reasons.push(e),
            },
            "mailto" => match parse_mailto(uri) {
                Ok(m) => {
                    mailto.get_or_insert(m);
                }
                Err(e) => reasons.push(e),
            },
            "http" => reasons.push(format!(
                "{} is http:, not https: (never followed)",
                shown(uri)
            )),
            "" => reasons.push(format!("{} has no scheme", shown(uri))),
            other => reasons.push(format!(
                "scheme '{}:' is not allowed (only https: one-click and mailto:)",
                shown(other)
            )),
        }
    }
    if let Some(url) = https {
        return Ok(Method::OneClick(url));
    }
    if let Some(m) = mailto {
        return Ok(Method::Mailto(m));
    }
    Err(reasons.join("; "))
}

fn parse_https(uri: &str, allow: &Allowlist) -> Result<Url, String> {
    let url = Url::parse(uri).map_err(|e| format!("{} is not a valid URI: {e}", shown(uri)))?;
    if url.scheme() != "https" {
        return Err(format!("{} is not https:", shown(uri)));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(format!("{} carries a user name or password", shown(uri)));
    }
    let ip = match url.host() {
        None => return Err(format!("{} has no host", shown(uri))),
        Some(url::Host::Ipv4(ip)) => Some(IpAddr::V4(ip)),
        Some(url::Host::Ipv6(ip)) => Some(IpAddr::V6(ip)),
        Some(url::Host::Domain(_)) => None,
    };
    if let Some(ip) = ip
        && let Some(why) = refusal(ip, allow)
    {
        return Err(format!("{} points at {why}", shown(uri)));
    }
    Ok(url)
}

fn decode(text: &str, what: &str) -> Result<String, String> {
    percent_decode_str(text)
        .decode_utf8()
        .map(|s| s.into_owned())
        .map_err(|_| format!("mailto: {what} is not valid UTF-8 once decoded"))
}

fn parse_mailto(uri: &str) -> Result<Mailto, String> {
    let rest = &uri["mailto:".len()..];
    let (to, query) = rest.split_once('?').unwrap_or((rest, ""));
    let to = decode(to, "address")?;
    if to.contains(',') {
        return Err("mailto: names several recipients".into());
    }
    if to.chars().any(char::is_control) {
        return Err("mailto: address contains a line break or control character".into());
    }
    let to: Address = to
        .trim()
        .parse()
        .map_err(|e| format!("mailto: address '{}' is not valid: {e}", shown(&to)))?;
    let mut subject = None;
    let mut body = None;
    for field in query.split('&').filter(|f| !f.is_empty()) {
        let (name, value) = field.split_once('=').unwrap_or((field, ""));
        let name = decode(name, "field name")?.to_ascii_lowercase();
        let value = decode(value, &name)?;
        let slot = match name.as_str() {
            "subject" => &mut subject,
            "body" => &mut body,
            "to" | "cc" | "bcc" => {
                return Err(format!(
                    "mailto: adds recipients with '{name}=' (never sent to others)"
                ));
            }
            other => {
                return Err(format!(
                    "mailto: sets the header field '{}' (only subject and body are allowed)",
                    shown(other)
                ));
            }
        };
        if value.contains(['\r', '\n']) {
            return Err(format!(
                "mailto: {name} contains a line break (header injection refused)"
            ));
        }
        if value.chars().any(char::is_control) {
            return Err(format!("mailto: {name} contains control characters"));
        }
        if value.chars().count() > MAX_MAILTO_CHARS {
            return Err(format!(
                "mailto: {name} is over {MAX_MAILTO_CHARS} characters"
            ));
        }
        *slot = Some(value);
    }
    Ok(Mailto {
        to,
        subject: subject
            .filter(|s| !s.trim().is_empty())
            .unwrap_or_else(|| "unsubscribe".into()),
        body: body
            .filter(|s| !s.trim().is_empty())
            .unwrap_or_else(|| "unsubscribe".into()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE_CLICK: Option<&str> = Some("List-Unsubscribe=One-Click");

    fn none() -> Allowlist {
        Allowlist::default()
    }

    fn refused(header: &str, post: Option<&str>) -> String {
        parse(Some(header), post, &none()).expect_err(header)
    }

    #[test]
    fn one_click_https_is_chosen_over_mailto() {
        let m = parse(
            Some("<mailto:u@list.example?subject=unsub>, <https://list.example/u?t=1>"),
            ONE_CLICK,
            &none(),
        )
        .unwrap();
        assert_eq!(
            m,
            Method::OneClick(Url::parse("https://list.example/u?t=1").unwrap())
        );
        assert_eq!(m.name(), "one-click");
    }

    #[test]
    fn mailto_is_used_without_the_one_click_offer() {
        let m = parse(
            Some("<https://list.example/u>, <mailto:leave@list.example?subject=Unsubscribe%20me&body=please>"),
            None,
            &none(),
        )
        .unwrap();
        let Method::Mailto(m) = m else {
            panic!("not mailto: {m:?}")
        };
        assert_eq!(m.to.to_string(), "leave@list.example");
        assert_eq!(
            (m.subject.as_str(), m.body.as_str()),
            ("Unsubscribe me", "please")
        );
        let bare = parse(Some("<mailto:leave@list.example>"), None, &none()).unwrap();
        assert_eq!(bare.target(), "leave@list.example");
    }

    #[test]
    fn a_folded_uri_is_read_whole() {
        let m = parse(Some("<https://list.example/ u?t=1>"), ONE_CLICK, &none()).unwrap();
        assert_eq!(m.target(), "https://list.example/u?t=1");
    }

    #[test]
    fn hostile_schemes_are_refused_with_their_reason() {
        for (header, needle) in [
            (
                "<javascript:alert(1)>",
                "scheme 'javascript:' is not allowed",
            ),
            ("<file:///etc/passwd>", "scheme 'file:' is not allowed"),
            ("<data:text/html,hi>", "scheme 'data:' is not allowed"),
            ("<http://list.example/u>", "is http:, not https:"),
            ("<list.example/u>", "has no scheme"),
            ("https://list.example/u", "no <URI> in angle brackets"),
        ] {
            let why = refused(header, ONE_CLICK);
            assert!(why.contains(needle), "{header}: {why}");
        }
    }

    #[test]
    fn https_without_the_one_click_offer_is_never_visited() {
        let why = refused("<https://list.example/u>", None);
        assert!(why.contains("links are never visited"), "{why}");
        let why = refused("<https://list.example/u>", Some("List-Unsubscribe=Maybe"));
        assert!(why.contains("without List-Unsubscribe-Post"), "{why}");
    }

    #[test]
    fn private_and_loopback_literals_are_refused_unless_allowed() {
        for host in [
            "127.0.0.1",
            "10.1.2.3",
            "192.168.0.1",
            "169.254.169.254",
            "[::1]",
            "[fe80::1]",
            "[::ffff:127.0.0.1]",
            "0.0.0.0",
            // the URL parser's other spellings of 127.0.0.1
            "2130706433",
            "0x7f.1",
            "127.1",
        ] {
            let why = refused(&format!("<https://{host}/u>"), ONE_CLICK);
            assert!(why.contains("points at"), "{host}: {why}");
        }
        let allow = Allowlist::parse("127.0.0.0/8").unwrap();
        assert!(parse(Some("<https://127.0.0.1:8443/u>"), ONE_CLICK, &allow).is_ok());
        assert!(refused("<https://user:pw@list.example/u>", ONE_CLICK).contains("user name"));
    }

    #[test]
    fn oversized_headers_and_control_characters_are_refused() {
        let long = format!("<https://list.example/{}>", "a".repeat(10 * 1024));
        assert!(refused(&long, ONE_CLICK).contains("over the 4096 accepted"));
        assert!(refused("<https://list.example/u>\r\nBcc: x@y", ONE_CLICK).contains("control"));
        assert!(refused("<https://list.example/u\n>", ONE_CLICK).contains("control"));
        let many = (0..9)
            .map(|i| format!("<mailto:u{i}@list.example>"))
            .collect::<Vec<_>>()
            .join(",");
        assert!(refused(&many, None).contains("9 URIs"));
        assert!(
            parse(None, ONE_CLICK, &none())
                .unwrap_err()
                .contains("no List-Unsubscribe")
        );
    }

    #[test]
    fn mailto_header_injection_and_extra_recipients_are_refused() {
        for (header, needle) in [
            (
                "<mailto:u@list.example?subject=hi%0D%0ABcc:%20victim@example.com>",
                "subject contains a line break",
            ),
            (
                "<mailto:u@list.example?body=hi%0ABcc:%20victim@example.com>",
                "body contains a line break",
            ),
            (
                "<mailto:u@list.example?subject=a%00b>",
                "control characters",
            ),
            (
                "<mailto:u@list.example?bcc=victim@example.com>",
                "adds recipients",
            ),
            (
                "<mailto:u@list.example?cc=victim@example.com>",
                "adds recipients",
            ),
            (
                "<mailto:u@list.example?to=victim@example.com>",
                "adds recipients",
            ),
            (
                "<mailto:u@list.example?from=boss@example.com>",
                "header field 'from'",
            ),
            (
                "<mailto:u@list.example,victim@example.com>",
                "several recipients",
            ),
            ("<mailto:u%0D%0A@list.example>", "line break"),
            ("<mailto:not-an-address>", "is not valid"),
            ("<mailto:u@list.example?subject=%FF>", "not valid UTF-8"),
        ] {
            let why = refused(header, None);
            assert!(why.contains(needle), "{header}: {why}");
        }
    }

    proptest::proptest! {
        /// Whatever a sender writes, the parser answers without panicking, and what it
        /// accepts is only ever an https URI on a host that is not a non-public literal, or a
        /// mailto: whose subject and body carry no control character.
        #[test]
        fn any_header_is_refused_or_safe(
            header in "(<(https|http|mailto|javascript|file)?:?[ -~\\r\\n\\x00]{0,60}>,? ?){0,4}",
            one_click in proptest::bool::ANY,
        ) {
            let post = one_click.then_some("List-Unsubscribe=One-Click");
            match parse(Some(&header), post, &none()) {
                Ok(Method::OneClick(url)) => {
                    proptest::prop_assert_eq!(url.scheme(), "https");
                    proptest::prop_assert!(one_click);
                    if let Some(url::Host::Ipv4(ip)) = url.host() {
                        proptest::prop_assert!(super::super::address::non_public(ip.into()).is_none());
                    }
                }
                Ok(Method::Mailto(m)) => {
                    proptest::prop_assert!(!m.subject.chars().any(char::is_control));
                    proptest::prop_assert!(!m.body.chars().any(char::is_control));
                }
                Err(why) => proptest::prop_assert!(!why.is_empty()),
            }
        }
    }

    #[test]
    fn every_reason_is_given_when_nothing_is_usable() {
        let why = refused("<javascript:x>, <http://list.example/u>", ONE_CLICK);
        assert!(why.contains("javascript") && why.contains("http:"), "{why}");
    }
}
