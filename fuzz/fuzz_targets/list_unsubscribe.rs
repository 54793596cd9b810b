//! The `List-Unsubscribe` / `List-Unsubscribe-Post` parser (`web::unsubscribe::header`), the
//! one place a sender's words choose what the dashboard contacts. The input is the header,
//! then after the first newline the `List-Unsubscribe-Post` value (none when there is no
//! newline). Whatever it is, the parser answers without panicking, with a reason when it
//! refuses, and what it accepts is only an https URI on a public host without credentials
//! (one-click offered) or a `mailto:` with one recipient and no control character.
#![no_main]

use digest_web::web::unsubscribe::address::{Allowlist, non_public};
use digest_web::web::unsubscribe::header::{MAX_HEADER_CHARS, Method, parse};
use libfuzzer_sys::fuzz_target;
use std::net::IpAddr;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (header, post) = match text.split_once('\n') {
        Some((header, post)) => (header, Some(post)),
        None => (text, None),
    };
    match parse(Some(header), post, &Allowlist::default()) {
        Ok(method) => {
            assert!(header.trim().chars().count() <= MAX_HEADER_CHARS);
            assert!(!header.chars().any(char::is_control));
            let target = method.target();
            assert!(!target.chars().any(char::is_control), "{target:?}");
            match &method {
                Method::OneClick(url) => {
                    assert!(post.is_some_and(|p| {
                        p.trim().eq_ignore_ascii_case("List-Unsubscribe=One-Click")
                    }));
                    assert_eq!(url.scheme(), "https");
                    assert!(url.username().is_empty() && url.password().is_none());
                    let host = url.host_str().expect("an accepted URI has a host");
                    assert!(!host.is_empty());
                    if let Ok(ip) = host.trim_matches(['[', ']']).parse::<IpAddr>() {
                        assert!(non_public(ip).is_none(), "{url}");
                    }
                }
                Method::Mailto(m) => {
                    assert!(!m.subject.chars().any(char::is_control), "{m:?}");
                    assert!(!m.body.chars().any(char::is_control), "{m:?}");
                }
            }
        }
        Err(why) => assert!(!why.is_empty()),
    }
});
