//! The refresh job's MIME path: raw RFC 5322 bytes → `parse_or_salvage` (mail-parser, then
//! the salvage of a message without headers) → `ParsedEmail`, with the invariants the
//! categoriser, the digest and acting on mail rely on, and the facts stored from it.
#![no_main]

use digest_web::job::acting::fact_of;
use digest_web::job::mail::{ACTING_HEADER_CHARS, parse_or_salvage};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(parsed) = parse_or_salvage(data, None) {
        let message = &parsed.message;
        assert!(!message.id.is_empty());
        assert!(!message.from.is_empty());
        assert!(!message.subject.contains('\n'));
        // 200 characters plus the ellipsis.
        assert!(parsed.snippet.chars().count() <= 201, "{}", parsed.snippet);
        assert!(message.body.chars().count() <= 8_000);
        let acting = &parsed.acting;
        for header in [
            &acting.list_unsubscribe,
            &acting.list_unsubscribe_post,
            &acting.in_reply_to,
            &acting.references,
        ]
        .into_iter()
        .flatten()
        {
            assert!(header.chars().count() <= ACTING_HEADER_CHARS);
        }
        let fact = fact_of(&parsed);
        assert_eq!(fact.message_id, message.id);
        assert!(fact.in_reply_to.len() <= 100 && fact.references.len() <= 100);
        assert!(
            fact.in_reply_to
                .iter()
                .chain(&fact.references)
                .all(|id| !id.is_empty() && !id.contains(char::is_whitespace)),
            "{fact:?}"
        );
    }
});
