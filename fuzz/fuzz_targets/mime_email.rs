//! The refresh job's MIME path: raw RFC 5322 bytes → `parse_message` → `EmailItem`, with the
//! invariants the digest relies on.
#![no_main]

use digest_web::job::mail::parse_message;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(parsed) = parse_message(data, None) {
        let item = &parsed.item;
        assert!(!item.id.is_empty());
        assert!(!item.from.is_empty());
        assert!(
            chrono_like_date(&item.date),
            "date {:?} is not YYYY-MM-DD",
            item.date
        );
        // 200 characters plus the ellipsis.
        assert!(item.snippet.chars().count() <= 201, "{}", item.snippet);
        assert!(parsed.body.chars().count() <= 8_000);
        assert!(!item.subject.contains('\n'));
    }
});

fn chrono_like_date(date: &str) -> bool {
    let b = date.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}
