//! A page's layout from the neural engine's text boxes: boxes into lines, lines into blocks,
//! blocks into a reading order (recursive XY cut: columns and bands), then the ingredient list
//! found in that text by the list grammar of `domain` ([`find_list`], the only place this module
//! calls it).
//!
//! The text handed to the grammar has one line per layout line and a blank line between blocks,
//! so a list ends where its block ends (the next block is another statement, a nutrition table,
//! a column beside it), and never runs across columns.

use domain::ocr::label::{self, Extraction, Language};

use super::ppocr::TextLine;
use super::ppocr::geometry::RotatedRect;
use super::repair;

/// An axis-aligned box with its text.
#[derive(Debug, Clone, PartialEq)]
struct Piece {
    x0: f32,
    y0: f32,
    x1: f32,
    y1: f32,
    text: String,
    /// Indices of the text lines it holds.
    members: Vec<usize>,
}

impl Piece {
    fn height(&self) -> f32 {
        self.y1 - self.y0
    }

    fn union(&mut self, other: &Piece, separator: &str) {
        self.x0 = self.x0.min(other.x0);
        self.y0 = self.y0.min(other.y0);
        self.x1 = self.x1.max(other.x1);
        self.y1 = self.y1.max(other.y1);
        self.text.push_str(separator);
        self.text.push_str(&other.text);
        self.members.extend_from_slice(&other.members);
    }
}

/// Overlap of two intervals, as a share of the shorter one.
fn overlap(a0: f32, a1: f32, b0: f32, b1: f32) -> f32 {
    let shorter = (a1 - a0).min(b1 - b0).max(1e-3);
    ((a1.min(b1) - a0.max(b0)) / shorter).max(0.0)
}

/// One block of lines: its bounds and its lines' texts.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// Bounds `(x0, y0, x1, y1)` in the page's pixels.
    pub bounds: (f32, f32, f32, f32),
    /// Its lines, top to bottom.
    pub lines: Vec<String>,
    /// Indices of the text lines (boxes) it holds.
    pub members: Vec<usize>,
}

/// The blocks of a page in reading order.
pub fn blocks(text_lines: &[TextLine]) -> Vec<Block> {
    // A page photographed a few degrees off: boxes are placed in the frame of the lines' median
    // slope, so the bounds of long tilted lines do not overlap the lines above and below.
    let mut slopes: Vec<f32> = text_lines
        .iter()
        .filter(|l| l.rect.width > 2.0 * l.rect.height)
        .map(|l| l.rect.axis.1.atan2(l.rect.axis.0))
        .collect();
    slopes.sort_by(f32::total_cmp);
    let angle = slopes.get(slopes.len() / 2).copied().unwrap_or(0.0);
    let (sin, cos) = angle.sin_cos();
    let mut pieces: Vec<Piece> = text_lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let r = &l.rect;
            let (cx, cy) = (r.cx * cos + r.cy * sin, -r.cx * sin + r.cy * cos);
            Piece {
                x0: cx - r.width / 2.0,
                y0: cy - r.height / 2.0,
                x1: cx + r.width / 2.0,
                y1: cy + r.height / 2.0,
                text: l.text.trim().to_owned(),
                members: vec![i],
            }
        })
        .collect();
    pieces.sort_by(|a, b| a.x0.total_cmp(&b.x0));
    // Lines: a box continues a line whose last box it overlaps vertically by half and follows
    // closely (a gap wider than a line height is a column or table gutter).
    let mut lines: Vec<Piece> = Vec::new();
    for piece in pieces {
        let h = piece.height();
        let best = lines
            .iter_mut()
            .filter(|l| {
                let gap = piece.x0 - l.x1;
                gap > -0.5 * h && gap < 1.2 * h.max(l.height().min(2.0 * h))
            })
            .map(|l| (overlap(l.y0, l.y1, piece.y0, piece.y1), l))
            .filter(|(o, _)| *o >= 0.5)
            .max_by(|a, b| a.0.total_cmp(&b.0));
        match best {
            Some((_, line)) => line.union(&piece, " "),
            None => lines.push(piece),
        }
    }
    lines.sort_by(|a, b| a.y0.total_cmp(&b.y0));
    // Blocks: a line joins the block whose last line is just above it (gap under a line
    // height), overlaps it horizontally and has a similar height.
    let mut blocks: Vec<(Piece, Vec<String>, Piece)> = Vec::new();
    for line in lines {
        let h = line.height();
        let best = blocks
            .iter_mut()
            .filter(|(b, rows, last)| {
                let last_h = b.height() / rows.len() as f32;
                let gap = line.y0 - b.y1;
                let ratio = h / last_h.max(1.0);
                next_row(last, &line)
                    && gap < 0.9 * h.max(last_h)
                    && (0.6..=1.7).contains(&ratio)
                    && overlap(b.x0, b.x1, line.x0, line.x1) > 0.0
            })
            .min_by(|a, b| {
                (line.y0 - a.0.y1)
                    .abs()
                    .total_cmp(&(line.y0 - b.0.y1).abs())
            });
        match best {
            Some((block, rows, last)) => {
                rows.push(line.text.clone());
                block.union(&line, "");
                *last = line;
            }
            None => {
                let text = line.text.clone();
                blocks.push((line.clone(), vec![text], line));
            }
        }
    }
    let blocks: Vec<_> = blocks
        .into_iter()
        .map(|(block, rows, _)| (block, rows))
        .collect();
    let mut ordered = Vec::with_capacity(blocks.len());
    xy_cut(blocks, &mut ordered);
    ordered
        .into_iter()
        .map(|(p, lines)| Block {
            bounds: (p.x0, p.y0, p.x1, p.y1),
            lines,
            members: p.members,
        })
        .collect()
}

/// The boxes' indices grouped by block, blocks in reading order ([`blocks`] on boxes not read
/// yet): the recognition driver reads block after block and stops once the list has ended.
pub fn reading_order(rects: &[RotatedRect]) -> Vec<Vec<usize>> {
    let numbered: Vec<TextLine> = rects
        .iter()
        .enumerate()
        .map(|(i, rect)| TextLine {
            rect: *rect,
            text: i.to_string(),
            confidence: 1.0,
            choices: Vec::new(),
        })
        .collect();
    blocks(&numbered)
        .iter()
        .map(|b| {
            b.lines
                .iter()
                .flat_map(|l| l.split_whitespace())
                .filter_map(|n| n.parse().ok())
                .collect()
        })
        .collect()
}

/// Whether `line` is the row after `last` rather than beside it: its centre is lower by
/// more than 0.4 of the smaller height. The boxes of a curved label's bowed rows are twice
/// as tall as their print and overlap the rows above and below by half (their tops alone
/// would put each row in a block of its own, read out of order); rows side by side share
/// their centre line.
fn next_row(last: &Piece, line: &Piece) -> bool {
    let centre = |p: &Piece| (p.y0 + p.y1) / 2.0;
    centre(line) - centre(last) > 0.4 * line.height().min(last.height())
}

/// Reading order by recursive XY cut: split at the first horizontal band free of blocks (top
/// part first), else at the first vertical gutter (left part first), else top to bottom.
fn xy_cut(mut blocks: Vec<(Piece, Vec<String>)>, out: &mut Vec<(Piece, Vec<String>)>) {
    if blocks.len() <= 1 {
        out.extend(blocks);
        return;
    }
    for horizontal in [true, false] {
        let span = |p: &Piece| {
            if horizontal {
                (p.y0, p.y1)
            } else {
                (p.x0, p.x1)
            }
        };
        blocks.sort_by(|a, b| span(&a.0).0.total_cmp(&span(&b.0).0));
        let mut reach = span(&blocks[0].0).1;
        for i in 1..blocks.len() {
            let (start, end) = span(&blocks[i].0);
            if start >= reach {
                let rest = blocks.split_off(i);
                xy_cut(blocks, out);
                xy_cut(rest, out);
                return;
            }
            reach = reach.max(end);
        }
    }
    blocks.sort_by(|a, b| a.0.y0.total_cmp(&b.0.y0));
    out.extend(blocks);
}

/// The page as text: a line per layout line, a blank line between blocks.
pub fn page_text(blocks: &[Block]) -> String {
    blocks
        .iter()
        .map(|b| {
            b.lines
                .iter()
                .map(|l| spaced_sentences(l))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// The recogniser drops the narrow space after a full stop (`(soy).Contains wheat`), which
/// hides the sentence end the list grammar stops at: a space is put back between a full stop
/// that ends a word or a bracket and a capitalised word of three letters or more.
fn spaced_sentences(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        out.push(c);
        let ends_word = i > 0 && (chars[i - 1].is_lowercase() || chars[i - 1] == ')');
        let word_follows = chars.get(i + 1).is_some_and(|c| c.is_uppercase())
            && chars
                .get(i + 2..i + 4)
                .is_some_and(|rest| rest.iter().all(|c| c.is_lowercase()));
        if c == '.' && ends_word && word_follows {
            out.push(' ');
        }
    }
    out
}

/// The ingredient list of a laid-out page, through the list grammar. A header alone in its
/// block (`Ingrédients :` on its own line, set apart) is read together with the block after it.
pub fn find_list(blocks: &[Block]) -> (Extraction, String) {
    let (found, text) = find_list_as_laid_out(blocks);
    // A list run on into its translation printed under a header in several languages
    // (`Zusammensetzung/Composition/Composizione:`): the translation starts a block of its
    // own.
    if found.header_found
        && shared_header(&text)
        && let Some(cut) = translations_apart(&text)
    {
        let again = repair::extract(&cut);
        if again.header_found && again.items.len() >= 2 && again.items.len() < found.items.len() {
            return (again, cut);
        }
    }
    (found, text)
}

/// Whether the first line with a list header names several languages, joined by slashes
/// before its colon (`Zutaten / Ingrédients / Ingredienti:`).
fn shared_header(text: &str) -> bool {
    text.lines()
        .find(|line| repair::extract(line).header_found)
        .and_then(|line| line.split_once(':'))
        .is_some_and(|(header, _)| header.contains('/'))
}

/// The page text with a blank line (a block's end) before each line that starts the list's
/// translation ([`starts_translation`]), or `None` when there is none.
fn translations_apart(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<&str> = Vec::with_capacity(lines.len() + 2);
    let mut cut = false;
    for (i, line) in lines.iter().enumerate() {
        if i > 0 && starts_translation(lines[i - 1], line) {
            out.push("");
            cut = true;
        }
        out.push(line);
    }
    cut.then(|| out.join("\n"))
}

/// Whether `line` starts another language's list rather than continuing the list on `previous`:
/// the line before ends an item (no comma, hyphen or open bracket at its end), this one starts
/// with a capital, holds a list (a comma), and the two read as different Latin-script
/// languages (`…, Polyurethan-Folie` then `Huile minérale, absorbeur, …` on a plaster printing
/// its materials in three languages under one header).
fn starts_translation(previous: &str, line: &str) -> bool {
    let (previous, line) = (previous.trim(), line.trim());
    if previous.is_empty()
        || previous.ends_with([',', '-', '(', ':', ';', '/'])
        || !line.chars().next().is_some_and(char::is_uppercase)
        || !line.contains(',')
    {
        return false;
    }
    let list_part = |l: &str| l.rsplit_once(':').map_or(l, |(_, after)| after).to_owned();
    match (
        label::detect_language(&list_part(previous)),
        label::detect_language(line),
    ) {
        (Some(a), Some(b)) => a != b && !a.is_cjk() && !b.is_cjk(),
        _ => false,
    }
}

/// [`find_list`] on the blocks as laid out.
fn find_list_as_laid_out(blocks: &[Block]) -> (Extraction, String) {
    let text = page_text(blocks);
    let found = repair::extract(&text);
    if !found.items.is_empty() || !found.header_found {
        return (found, text);
    }
    for (i, block) in blocks.iter().enumerate() {
        if i + 1 < blocks.len() && repair::extract(&block.lines.join("\n")).header_found {
            let mut merged = blocks.to_vec();
            let next = merged.remove(i + 1);
            merged[i].lines.extend(next.lines);
            let text = page_text(&merged);
            let again = repair::extract(&text);
            if !again.items.is_empty() {
                return (again, text);
            }
        }
    }
    (found, text)
}

/// Whether the page text shows, before its first list header, a list the recogniser could
/// not read: separators with hardly a letter between them (`:(45%)，,，，，(`, what the models
/// make of Hangul, which they lack). A pack printing its list first in Korean and then in
/// Japanese reads so; a Latin or CJK list read well has letters between its separators. A
/// page with no header read is not one (nothing was read well either).
pub fn unread_list_first(text: &str) -> bool {
    let (mut separators, mut letters) = (0usize, 0usize);
    for line in text.lines() {
        if repair::extract(line).header_found {
            return separators >= UNREAD_LIST_SEPARATORS && letters <= separators;
        }
        separators += line.matches([',', '，', '、', ';']).count();
        letters += line.chars().filter(|c| c.is_alphabetic()).count();
    }
    // No list read at all: the usual fallback to Tesseract applies.
    false
}

/// Whether the whole page text is what the recogniser makes of a script it lacks: list
/// separators with hardly a letter between them (`:(45%)，,，，，(`), and no header read. A
/// page of Korean reads so (the models have no Hangul); a Latin or CJK page read badly still
/// has letters.
pub fn unread_page(text: &str) -> bool {
    if text.lines().any(|line| repair::extract(line).header_found) {
        return false;
    }
    let separators = text.matches([',', '，', '、', ';']).count();
    let letters = text.chars().filter(|c| c.is_alphabetic()).count();
    separators >= UNREAD_LIST_SEPARATORS && letters <= separators
}

/// Whether the page text is plenty of Latin letters (at least [`LATIN_PAGE_LETTERS`], nine
/// in ten of its letters): the neural engine read the page, in a script its models read
/// better than Tesseract's, so a list it did not find there Tesseract does not find either
/// (on the real photos it read none in 23 tries, for seconds each, and returned noise).
pub fn read_in_latin(text: &str) -> bool {
    let (mut latin, mut letters) = (0usize, 0usize);
    for c in text.chars().filter(|c| c.is_alphabetic()) {
        letters += 1;
        if c.is_ascii_alphabetic() || ('\u{c0}'..='\u{24f}').contains(&c) {
            latin += 1;
        }
    }
    let words = text
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| w.chars().count() >= 4 && reads_as_a_word(w))
        .count();
    latin >= LATIN_PAGE_LETTERS && 10 * latin >= 9 * letters && words >= LATIN_PAGE_WORDS
}

/// Whether `word` (letters only) reads as a word of a Latin-script language: Latin letters,
/// a vowel, no capital after a small letter (what the models make of a script they lack, or
/// of a blur, reads otherwise: `MadnMc`, `Ll`).
fn reads_as_a_word(word: &str) -> bool {
    let latin = |c: char| c.is_ascii_alphabetic() || ('\u{c0}'..='\u{24f}').contains(&c);
    let chars: Vec<char> = word.chars().collect();
    chars.iter().all(|&c| latin(c))
        && chars.iter().any(|c| {
            "aeiouyäöüàâéèêëîïôûùœæåáíóúãõì".contains(c.to_lowercase().next().unwrap_or(*c))
        })
        && !chars
            .windows(2)
            .any(|p| p[0].is_lowercase() && p[1].is_uppercase())
}

/// Latin letters of a page the neural engine read ([`read_in_latin`]): a few lines of print.
const LATIN_PAGE_LETTERS: usize = 80;

/// Words of four letters or more that read as words on such a page ([`read_in_latin`]).
const LATIN_PAGE_WORDS: usize = 12;

/// Separators before the first header for [`unread_list_first`] to see a list there.
const UNREAD_LIST_SEPARATORS: usize = 3;

/// The list printed in `language` on a page of several lists (a multilingual pack): the first
/// list, read from any line on, whose header names that language (or, for headers several
/// languages share, whose text reads as it). `None` when the page has no list in it.
pub fn list_in_language(text: &str, language: Language) -> Option<Extraction> {
    let lines: Vec<&str> = text.lines().collect();
    (0..lines.len()).find_map(|start| {
        let found = repair::extract(&lines[start..].join("\n"));
        let said = found
            .header_language
            .or_else(|| label::detect_language(&found.list));
        (found.header_found && !found.items.is_empty() && said == Some(language)).then_some(
            Extraction {
                language: Some(language),
                ..found
            },
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ocr::ppocr::geometry::RotatedRect;

    fn line(x0: f32, y0: f32, x1: f32, y1: f32, text: &str) -> TextLine {
        TextLine {
            rect: RotatedRect {
                cx: (x0 + x1) / 2.0,
                cy: (y0 + y1) / 2.0,
                width: x1 - x0,
                height: y1 - y0,
                axis: (1.0, 0.0),
            },
            text: text.into(),
            confidence: 0.9,
            choices: Vec::new(),
        }
    }

    fn texts(blocks: &[Block]) -> Vec<String> {
        blocks.iter().map(|b| b.lines.join(" / ")).collect()
    }

    #[test]
    fn a_list_stops_where_its_translation_starts() {
        let page = |rows: &[&str]| {
            vec![Block {
                bounds: (0.0, 0.0, 100.0, 100.0),
                lines: rows.iter().map(|r| (*r).to_owned()).collect(),
                members: Vec::new(),
            }]
        };
        let (found, _) = find_list(&page(&[
            "Zusammensetzung/Composition/Composizione: Mineralöl, Absorber,",
            "synthetischer Kleber, Polyurethan-Folie",
            "Huile minérale, absorbeur, colle synthétique, film de polyuréthane",
            "Olio minerale, cuore assorbente, colla sintetica, pellicola di poliuretano",
        ]));
        assert_eq!(
            found.items,
            [
                "Mineralöl",
                "Absorber",
                "synthetischer Kleber",
                "Polyurethan-Folie"
            ]
        );
        // Under a header in one language the list runs on (one line's language is a guess).
        let (found, _) = find_list(&page(&[
            "Zutaten: Wasser, Sonnenblumenkerne 22 %, Sonnenblumenöl, rote Paprika,",
            "Tomatenmark zweifach konzentriert 3 %, Zucchini 2 %, Speisesalz",
            "Kartoffelstärke, Knoblauch, Apfelessig.",
        ]));
        assert_eq!(found.items.len(), 9, "{:?}", found.items);
        // A list wrapped after a comma runs on under a shared header too.
        let (found, _) = find_list(&page(&[
            "Zutaten/Ingrédients: Zucker, Kakaobutter, Vollmilchpulver,",
            "Haselnüsse, Emulgator: Lecithine, Aroma.",
        ]));
        assert_eq!(found.items.len(), 6, "{:?}", found.items);
    }

    #[test]
    fn a_page_of_latin_print_is_read_in_latin() {
        let german = "Zutaten folgen\nMindestens haltbar bis: siehe Prägung\n\
                      Spirig Pharma AG, Egerkingen\nMade in Switzerland, 30 ml, Lotion";
        assert!(read_in_latin(german));
        // Too little text to say, or a page in another script.
        assert!(!read_in_latin("Zutaten folgen"));
        let japanese = format!("{german}\n{}", "原材料名：小麦粉、砂糖、植物油脂".repeat(4));
        assert!(!read_in_latin(&japanese));
        assert!(!read_in_latin(":(45%)，,，，，(\n,,,,;;"));
        // Letters enough, but not words: what the models make of print they cannot read.
        assert!(!read_in_latin(
            &"Ll oE MadnMc xQ tT Wm nnnn rrr Wa55er ".repeat(6)
        ));
    }

    #[test]
    fn words_join_lines_and_lines_join_blocks_column_by_column() {
        // Two columns: an ingredient list on the left, a nutrition table on the right, and a
        // footer across the page. Boxes come in detector order (not reading order).
        let page = [
            line(400.0, 100.0, 560.0, 120.0, "Nutrition"),
            line(10.0, 100.0, 130.0, 120.0, "Ingredients:"),
            line(140.0, 100.0, 300.0, 120.0, "sugar, cocoa"),
            line(10.0, 124.0, 300.0, 144.0, "butter, milk,"),
            line(10.0, 148.0, 200.0, 168.0, "salt."),
            line(400.0, 124.0, 480.0, 144.0, "Energy"),
            line(520.0, 124.0, 560.0, 144.0, "2000 kJ"),
            line(10.0, 300.0, 560.0, 330.0, "Made in France"),
        ];
        let blocks = blocks(&page);
        assert_eq!(
            texts(&blocks),
            [
                "Ingredients: sugar, cocoa / butter, milk, / salt.",
                "Nutrition / Energy",
                // A value beyond a table's gutter is a block of its own.
                "2000 kJ",
                "Made in France",
            ]
        );
        let (found, text) = find_list(&blocks);
        assert_eq!(
            found.items,
            ["sugar", "cocoa butter", "milk", "salt"],
            "{text}"
        );
    }

    #[test]
    fn a_header_set_apart_reads_with_the_block_below() {
        // The header's line is taller and far above the list: its own block.
        let page = [
            line(10.0, 10.0, 200.0, 40.0, "Ingrédients :"),
            line(10.0, 80.0, 300.0, 96.0, "Eau (64%), soja (33%),"),
            line(10.0, 99.0, 300.0, 115.0, "nigari (3%)"),
        ];
        let blocks = blocks(&page);
        assert_eq!(blocks.len(), 2, "{:?}", texts(&blocks));
        let (found, _) = find_list(&blocks);
        assert_eq!(found.items, ["Eau (64%)", "soja (33%)", "nigari (3%)"]);
    }

    #[test]
    fn a_curved_labels_bowed_rows_are_one_block_in_order() {
        // Boxes as the detector gives them on a label wrapped round a can (rendered curved
        // variant): each row's box is about twice its print and overlaps its neighbours by
        // half. A row beside another (a table's value) still starts a block of its own.
        let page = [
            line(24.4, 45.5, 145.3, 87.3, "OAT BISCUITS"),
            line(
                21.5,
                66.7,
                569.1,
                121.3,
                "Ingredients: Oat flakes (45%), Wheat flour,",
            ),
            line(
                21.5,
                95.8,
                566.2,
                148.1,
                "Sugar, Palm oil, Raising agents (sodium",
            ),
            line(21.9, 122.7, 546.2, 174.4, "bicarbonate), Salt, Natural"),
            line(24.2, 161.4, 115.9, 199.7, "flavouring."),
            line(
                21.3,
                175.5,
                550.6,
                233.5,
                "Allergy advice: see ingredients in bold.",
            ),
        ];
        let blocks = blocks(&page);
        let (found, text) = find_list(&blocks);
        assert_eq!(
            found.items,
            [
                "Oat flakes (45%)",
                "Wheat flour",
                "Sugar",
                "Palm oil",
                "Raising agents (sodium bicarbonate)",
                "Salt",
                "Natural flavouring"
            ],
            "{text}"
        );
    }

    #[test]
    fn an_empty_page_has_no_list() {
        let (found, text) = find_list(&blocks(&[]));
        assert!(found.items.is_empty());
        assert_eq!(text, "");
    }

    #[test]
    fn the_list_in_the_asked_language_is_found_after_the_first() {
        let page = "Zutaten: Zucker, Kakaobutter, Vollmilchpulver.\n\nIngrédients : sucre, \
                    beurre de cacao, lait entier en poudre.\n\nIngredienti: zucchero, burro di \
                    cacao, latte intero in polvere.";
        let french = list_in_language(page, Language::French).expect("a French list");
        assert_eq!(
            french.items,
            ["sucre", "beurre de cacao", "lait entier en poudre"]
        );
        assert_eq!(french.language, Some(Language::French));
        let italian = list_in_language(page, Language::Italian).expect("an Italian list");
        assert_eq!(italian.items[0], "zucchero");
        assert_eq!(list_in_language(page, Language::Japanese), None);
        // Without a language, the first list printed.
        assert_eq!(repair::extract(page).items[0], "Zucker");
    }

    #[test]
    fn a_list_the_models_could_not_read_before_the_header_is_seen() {
        // What PP-OCR reads of a Korean list printed above the Japanese one.
        let korean_first =
            "寻\n:(45%)，,，，，(\n三，)，，.\n成分：オーツ麦(45%)、小麦粉、砂糖\n：浸晶";
        assert!(unread_list_first(korean_first));
        assert!(unread_list_first(
            "是ヨ\n，，，.\n全成分：水、グリセリン、シア脂"
        ));
        // A list read well before another header, a title, a page without a list: no.
        assert!(!unread_list_first(
            "配料：小麦粉、白砂糖、食用盐、棕榈油\nIngredients: Wheat flour, Sugar, Salt"
        ));
        assert!(!unread_list_first(
            "Wheat flour, Sugar, Salt, Palm oil, Milk\nNutrition: Energy 300 kJ"
        ));
        assert!(!unread_list_first("OAT BISCUITS\nIngredients: Oats, Sugar"));
        assert!(!unread_list_first(""));
        // Hangul alone, no header read: not this case, but a page read so.
        assert!(!unread_list_first(":(45%)，,，，，(\n三，)，，."));
        assert!(unread_page(":(45%)，,，，，(\n三，)，，."));
        assert!(!unread_page("Wheat flour, Sugar, Salt, Palm oil, Milk"));
        assert!(!unread_page(
            "寻\n:(45%)，,，，，(\n成分：オーツ麦(45%)、小麦粉、砂糖"
        ));
        assert!(!unread_page(""));
    }

    #[test]
    fn a_sentence_glued_to_a_full_stop_is_spaced() {
        assert_eq!(
            spaced_sentences("Emulsifier (soy).Contains wheat, soy, egg"),
            "Emulsifier (soy). Contains wheat, soy, egg"
        );
        assert_eq!(spaced_sentences("sel.Allergènes"), "sel. Allergènes");
        // Abbreviations and numbers stay as printed.
        assert_eq!(
            spaced_sentences("vit.C, E.coli, 1.5g"),
            "vit.C, E.coli, 1.5g"
        );
    }
}
