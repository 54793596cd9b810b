//! Repairs of what OCR engines misread that every engine's reading goes through; each
//! engine's own typical misreads are mended next to it (`ppocr::repair`,
//! `tesseract::repair`). The list grammar (`domain::ocr::label`) knows no engine: it finds the
//! list in whatever text it is given, and [`extract`] mends its items.
//!
//! - [`extract`]: the grammar's extraction with `!` read for `l` mended in every item.
//! - [`cjk`]: single-character misreads of Korean, Japanese and Chinese names, mended through
//!   the knowledge base's names and the function classes.
//! - [`match_case`]: a mended name written in the capitalisation printed.

pub mod cjk;

use domain::ocr::label::{self, Extraction};

/// The list found in `text` by the list grammar, each item with `!` read for `l` mended
/// ([`exclamation_as_l`]).
pub fn extract(text: &str) -> Extraction {
    let mut found = label::extract(text);
    for item in &mut found.items {
        if item.contains('!') {
            *item = exclamation_as_l(item);
        }
    }
    found
}

/// `!` between letters or ending a word is a misread `l` (`Ceteary! Alcohol`); ingredient
/// names never hold one.
pub fn exclamation_as_l(item: &str) -> String {
    let chars: Vec<char> = item.chars().collect();
    chars
        .iter()
        .enumerate()
        .filter_map(|(i, &c)| {
            let after_letter = i > 0 && chars[i - 1].is_alphabetic();
            match c {
                // "Cetearyl!": the l was read twice.
                '!' if after_letter && chars[i - 1] == 'l' => None,
                '!' if after_letter => Some('l'),
                _ => Some(c),
            }
        })
        .collect()
}

pub use domain::text::match_case;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exclamation_mark_read_for_l_is_mended_in_every_item() {
        let found =
            extract("INGREDIENTS: Ceteary! Alcohol, Caprylic/\n\nCapric Triglyceride, Salt!");
        assert_eq!(
            found.items,
            ["Cetearyl Alcohol", "Caprylic/Capric Triglyceride", "Saltl"]
        );
        // The l read twice ("Cetearyl!"), and a mark after no letter, stay as read.
        assert_eq!(exclamation_as_l("Cetearyl! Alcohol"), "Cetearyl Alcohol");
        assert_eq!(exclamation_as_l("Salt (1 !)"), "Salt (1 !)");
    }

    #[test]
    fn a_mended_name_takes_the_case_printed() {
        assert_eq!(match_case("GLYCER1N", "Glycerin"), "GLYCERIN");
        assert_eq!(match_case("Glycerln", "glycerin"), "Glycerin");
        assert_eq!(match_case("glycerln", "Glycerin"), "Glycerin");
    }
}
