//! Small text helpers the mail code shares (the service's mail reading too).

/// The longest prefix of `text` with at most `max` characters (cut on a character boundary).
pub fn truncate_chars(text: &str, max: usize) -> &str {
    match text.char_indices().nth(max) {
        Some((index, _)) => &text[..index],
        None => text,
    }
}

/// FNV-1a, 64 bits, of `bytes`: a stable hash (unlike `DefaultHasher`, fixed across Rust
/// versions and machines). The model's hashed feature indices, the corpus folds and the
/// service's ids of messages without a Message-ID are built on it: its values must never change.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    use std::hash::Hasher;
    let mut hasher = fnv::FnvHasher::default();
    hasher.write(bytes);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncate_cuts_on_characters() {
        assert_eq!(truncate_chars("héllo", 2), "hé");
        assert_eq!(truncate_chars("héllo", 9), "héllo");
        assert_eq!(truncate_chars("", 3), "");
        assert_eq!(truncate_chars("会议室", 1), "会");
    }

    #[test]
    fn fnv1a_is_the_published_function() {
        // Test vectors of the FNV reference (offset basis for the empty input).
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
