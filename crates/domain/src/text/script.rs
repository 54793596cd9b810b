//! Which script a character is written in: the one table of Unicode blocks behind every CJK
//! test of the crate (folding, the list grammar, the label finder, language detection).
//!
//! Korean, Japanese and Chinese write names without spaces between words; [`is_cjk`] tells
//! their letters (Hangul, kana, Han ideographs), [`is_cjk_mark`] the CJK punctuation and the
//! full-width forms printed beside them (`、`, `（`, `：`).

/// Hangul: Jamo (U+1100–U+11FF), Compatibility Jamo (U+3130–U+318F) and Syllables
/// (U+AC00–U+D7AF).
pub fn is_hangul(c: char) -> bool {
    matches!(c, '\u{1100}'..='\u{11FF}' | '\u{3130}'..='\u{318F}' | '\u{AC00}'..='\u{D7AF}')
}

/// Kana: Hiragana and Katakana (U+3040–U+30FF, the katakana middle dot and prolonged sound
/// mark included).
pub fn is_kana(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30FF}')
}

/// Han ideographs: CJK Unified Ideographs (U+4E00–U+9FFF) and Extension A (U+3400–U+4DBF),
/// the Compatibility Ideographs (U+F900–U+FAFF), and the Supplementary Ideographic Plane
/// (U+20000–U+2FFFF: Extensions B to F and the compatibility supplement).
pub fn is_han(c: char) -> bool {
    matches!(c,
        '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}'
        | '\u{20000}'..='\u{2FFFF}')
}

/// A letter of a script written without spaces between words: Hangul, kana or Han.
pub fn is_cjk(c: char) -> bool {
    is_hangul(c) || is_kana(c) || is_han(c)
}

/// CJK punctuation and full-width forms: CJK Symbols and Punctuation (U+3000–U+303F: `、`,
/// `。`, `「」`, the ideographic space) and Halfwidth and Fullwidth Forms (U+FF00–U+FFEF:
/// `（）`, `，`, `：`).
pub fn is_cjk_mark(c: char) -> bool {
    matches!(c, '\u{3000}'..='\u{303F}' | '\u{FF00}'..='\u{FFEF}')
}

/// A CJK letter or a CJK mark: what a label prints between CJK words, where no space
/// belongs.
pub fn is_cjk_text(c: char) -> bool {
    is_cjk(c) || is_cjk_mark(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A test of a script and the blocks it holds (first and last code point).
    type Blocks = (fn(char) -> bool, &'static [(u32, u32)]);

    /// Every block's first and last character is in it, and the characters just outside are
    /// not (unless the next block starts there).
    #[test]
    fn blocks_hold_their_edges_and_nothing_beside_them() {
        let blocks: [Blocks; 4] = [
            (
                is_hangul,
                &[(0x1100, 0x11FF), (0x3130, 0x318F), (0xAC00, 0xD7AF)],
            ),
            (is_kana, &[(0x3040, 0x30FF)]),
            (
                is_han,
                &[
                    (0x3400, 0x4DBF),
                    (0x4E00, 0x9FFF),
                    (0xF900, 0xFAFF),
                    (0x20000, 0x2FFFF),
                ],
            ),
            (is_cjk_mark, &[(0x3000, 0x303F), (0xFF00, 0xFFEF)]),
        ];
        let c = |u: u32| char::from_u32(u).expect("a scalar value");
        for (test, ranges) in blocks {
            for &(first, last) in ranges {
                assert!(test(c(first)) && test(c(last)), "{first:X}..{last:X}");
                let inside = |u: u32| ranges.iter().any(|&(a, b)| (a..=b).contains(&u));
                assert!(inside(first - 1) || !test(c(first - 1)), "{:X}", first - 1);
                assert!(inside(last + 1) || !test(c(last + 1)), "{:X}", last + 1);
            }
        }
    }

    #[test]
    fn letters_and_marks_of_labels() {
        for letter in [
            '정', 'ㄱ', 'ᄀ', 'あ', 'ア', 'ー', '・', '砂', '㐀', '豈', '𠀀',
        ] {
            assert!(is_cjk(letter), "{letter}");
        }
        for mark in ['、', '。', '「', '\u{3000}', '（', '，', '：', 'ａ'] {
            assert!(is_cjk_mark(mark) && !is_cjk(mark), "{mark}");
            assert!(is_cjk_text(mark));
        }
        for other in ['a', 'é', 'ß', '1', ',', '(', 'Ω', '\u{2FFF}'] {
            assert!(!is_cjk_text(other), "{other}");
        }
    }
}
