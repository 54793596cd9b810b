//! Finding the ingredient list in the text read from a label.
//!
//! [`extract`] takes whatever an OCR engine produced (several sections, broken lines, stray
//! characters) and returns an [`Extraction`]: the ingredient list as printed, normalised to
//! `", "` separators, its items, and the label's [`Language`]. It never panics and never
//! allocates more than a few times the input.
//!
//! The steps, in order:
//! 1. NFKC normalisation: full-width `：` `，` `（）` become ASCII, Hangul jamo recombine.
//! 2. The header: every header of the spec's table in the nine languages (any case, with or
//!    without the colon). A header must start a word (`营养成分表` holds `成分` but is the
//!    nutrition table) and, without a colon, must start its line.
//! 3. The section: text after the header until a line starts another section (nutrition,
//!    best before, storage, …, in the nine languages), a blank line or a full stop ends it;
//!    never while a bracket is open or the previous line ends with a comma.
//! 4. Lines are joined (a hyphenated break is mended), the list is split by the list
//!    grammar's one splitter ([`split_items`], [`crate::grammar::split`]: `/analyze` splits a
//!    list the same way) with the brackets as an OCR engine reads them, and joined again with
//!    `", "`.
//!
//! Without any header, the most ingredient-like block (the one with most separators) is used.

use unicode_normalization::UnicodeNormalization;

pub use crate::grammar::Language;
use crate::grammar::split::{Brackets, TopLevel, is_closer, is_opener};
use crate::grammar::{is_class_word, words};
use crate::language::Lexicon;
use crate::text::distance::bounded_distance;
use crate::text::script::{is_cjk_text, is_han, is_hangul, is_kana};

/// What [`extract`] found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Extraction {
    /// The list as printed, items joined with `", "`; empty when nothing was found.
    pub list: String,
    /// The items of `list`.
    pub items: Vec<String>,
    /// The label's language, when the text allows a guess.
    pub language: Option<Language>,
    /// Whether a header located the list (otherwise the most list-like block was used).
    pub header_found: bool,
    /// The language the header names, when only one language uses it (`配料`: Chinese;
    /// `成分` and `Ingredientes` name none).
    pub header_language: Option<Language>,
}

/// Finds the ingredient list in OCR output. Never panics; empty input gives an empty list.
pub fn extract(text: &str) -> Extraction {
    let text: String = text.nfkc().collect();
    let lines: Vec<String> = text.lines().map(clean_line).collect();
    let language = detect_language(&text);
    let found = find_header(&lines)
        .or_else(|| find_misread_header(&lines))
        .or_else(|| find_misread_latin_header(&lines));
    // A header whose first letters a tube's or a bag's edge cut off, printed before the first
    // header read (or when none was): the first list printed.
    let before = found.as_ref().map_or(lines.len(), |h| h.line);
    let found = find_cut_header(&lines, before).or(found);
    let header_found = found.is_some();
    let header_language = found.as_ref().and_then(|h| h.language);
    let (start_line, start_col) = match found {
        Some(h) => (h.line, h.end),
        None => match most_list_like_block(&lines) {
            Some(line) => (line, 0),
            None => {
                return Extraction {
                    language,
                    ..Extraction::default()
                };
            }
        },
    };
    let section = take_section(&lines, start_line, start_col, header_found);
    let items = until_translation(until_footnote(split_items(&section)));
    // After a header, print that names no food is dropped; without one it stays, for the
    // reading to be judged as a whole (an address read as an item says the block is no list).
    let items: Vec<String> = items
        .into_iter()
        .filter(|item| !header_found || !print_not_food(item))
        .collect();
    // The language of the list returned, not of the whole text (a pack printing it in two
    // languages): its header and its items tell it.
    let language = if header_found {
        let header = lines[start_line].get(..start_col).unwrap_or("");
        detect_language(&format!("{header}\n{section}")).or(language)
    } else {
        language
    };
    Extraction {
        list: items.join(", "),
        items,
        language,
        header_found,
        header_language,
    }
}

/// The items up to a footnote read into the list: a word opening with the footnote's mark
/// inside an item (`Wasser *aus biologischer Landwirtschaft`, `Äpfel* *issu de l'agriculture
/// biologique`) starts the note that explains the marks, printed right after the list; it
/// ends the list. A mark at the end of a word (`Äpfel*`) or opening an item stays. In a list
/// whose items carry marks, a `"` opening a word is that mark misread (`Coumarin** "Organic`),
/// and a capital after a marked word, where no known name starts, is the note with its mark
/// not read ([`unmarked_note`]).
fn until_footnote(mut items: Vec<String>) -> Vec<String> {
    // A list whose items carry marks: a small raised `*` is often read as `"` too.
    let marked = items.iter().any(|item| item.contains('*'));
    let note = items.iter().enumerate().find_map(|(i, item)| {
        let mut marks: Vec<usize> = item
            .match_indices(" *")
            .chain(item.match_indices(" \"").filter(|_| marked))
            .map(|(at, _)| at)
            .collect();
        marks.sort_unstable();
        marks
            .into_iter()
            .find(|&at| {
                item[at..]
                    .trim_start_matches([' ', '*', '"'])
                    .chars()
                    .next()
                    .is_some_and(char::is_alphabetic)
            })
            .map(|at| (i, at))
    });
    // The note's own mark not read (`Coumarin** Orgnic` for `Coumarin**` and `*Organic`): in
    // a marked list, a capital after a word that ends with a mark, where no known name starts.
    let unmarked = items
        .iter()
        .enumerate()
        .filter(|_| marked)
        .find_map(|(i, item)| unmarked_note(item).map(|at| (i, at)));
    let note = note.into_iter().chain(unmarked).min();
    if let Some((i, at)) = note {
        items.truncate(i + 1);
        items[i].truncate(at);
        if items[i].trim().is_empty() {
            items.pop();
        }
    }
    items
}

/// The items up to the list's translation read into it: a pack printing its list in two or
/// three languages (`Kichererbsen, Wasser, Kochsalz,` then `Pois chiches`, the French product
/// name, or the French list whose header was not read) names again, in another spelling, what
/// the list named already. From the first item that names an entry of the knowledge base an
/// earlier item named in another spelling, when at least half of the items from there on do
/// so and none of them names an entry no earlier item named, the text is the translation, not
/// more of the list. A name printed twice as such (`Wasser` in a sub-list and again) is no
/// translation.
fn until_translation(mut items: Vec<String>) -> Vec<String> {
    let entries: Vec<Option<(usize, String)>> = items
        .iter()
        .map(|item| {
            let head = item_name(item);
            named_entry(&head).map(|entry| (entry, head.to_lowercase()))
        })
        .collect();
    let named_before = |k: usize, at: usize| {
        entries[at].as_ref().is_some_and(|(entry, spelling)| {
            entries[..k]
                .iter()
                .flatten()
                .any(|(e, s)| e == entry && s != spelling)
        })
    };
    let cut = (1..items.len()).find(|&k| {
        let again = (k..items.len()).filter(|&at| named_before(k, at)).count();
        // A translation names nothing new: a known name after it not named before is more
        // of the list (its next column, put after the translation by the reading order).
        let new = (k..items.len()).any(|at| {
            entries[at]
                .as_ref()
                .is_some_and(|(entry, _)| !entries[..k].iter().flatten().any(|(e, _)| e == entry))
        });
        named_before(k, k) && 2 * again >= items.len() - k && !new
    });
    if let Some(k) = cut {
        items.truncate(k);
    }
    items
}

/// Whether an item is print around a list that names no ingredient, read into it where no
/// section start ends it or a reading order put it there: a postal address (`F-74160 Archamps`,
/// `CH-8031 Zürich`: a country's letters, a hyphen, four or five figures), a web or e-mail
/// address (`www.migros.ch`), or a nutrition table's energy (`2489 kJ (598 kcal)`).
fn print_not_food(item: &str) -> bool {
    let lower = item.to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let units = &self::words().energy_units;
    let postcode = |w: &str| {
        w.split_once('-').is_some_and(|(country, code)| {
            (1..=2).contains(&country.len())
                && country.chars().all(|c| c.is_ascii_alphabetic())
                && (4..=5).contains(&code.len())
                && code.chars().all(|c| c.is_ascii_digit())
        })
    };
    let energy = words.windows(2).any(|pair| {
        pair[0].chars().last().is_some_and(|c| c.is_ascii_digit())
            && units
                .iter()
                .any(|u| u == pair[1].trim_matches(|c: char| !c.is_alphanumeric()))
    }) || words.iter().any(|w| {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric());
        units.iter().any(|unit| {
            w.strip_suffix(unit).is_some_and(|figure| {
                !figure.is_empty() && figure.chars().all(|c| c.is_ascii_digit())
            })
        })
    });
    lower.contains("www.")
        || lower.contains("http")
        || lower.contains('@')
        || energy
        || words.iter().any(|w| postcode(w))
}

/// The entry of the knowledge base `name` is a name of as printed (in any language, singular or
/// plural): not a typo, a head noun or a name with a qualifier dropped.
fn named_entry(name: &str) -> Option<usize> {
    use crate::knowledge::MatchKind;
    if name.is_empty() {
        return None;
    }
    crate::knowledge::KnowledgeBase::embedded()
        .resolve(name)
        .filter(|r| {
            matches!(
                r.kind,
                MatchKind::Exact | MatchKind::Plural | MatchKind::SlashPart
            )
        })
        .map(|r| r.index)
}

/// Where a footnote whose mark was not read starts inside an item of a marked list: the
/// space before a word in capitals or with a capital, after a word that ends with a footnote
/// mark, when what follows is no name the knowledge base knows (`Coumarin** Orgnic`; not
/// `Citronellol** Linalool`, two items where a comma was lost, nor `Erdnüsse* geröstet`).
fn unmarked_note(item: &str) -> Option<usize> {
    item.match_indices("* ").find_map(|(at, _)| {
        let rest = &item[at + 2..];
        let capital = rest.chars().next().is_some_and(char::is_uppercase);
        (capital && !names_known(rest)).then_some(at + 1)
    })
}

/// Trims a line and collapses runs of whitespace. OCR engines put a space between CJK
/// characters (`코 코 아 버 터`): a space is dropped when a one-character CJK word touches
/// another CJK word.
fn clean_line(line: &str) -> String {
    // Specks read as quotes or bars at a word's start are noise, never ingredient text.
    let line = line.replace(['{', '〈'], "(").replace(['}', '〉'], ")");
    let line = double_angle_as_bracket(&line);
    let line = bar_as_closing_bracket(&line);
    let words: Vec<&str> = line
        .split_whitespace()
        .map(|w| w.trim_start_matches(['‘', '’', '“', '”', '„', '`', '|', '¦', '»', '«']))
        .filter(|w| !w.is_empty())
        .collect();
    let words = without_lone_dashes(words);
    let single_cjk = |w: &str| {
        let mut chars = w.chars();
        chars.next().is_some_and(is_cjk_char) && chars.next().is_none()
    };
    let mut out = String::with_capacity(line.len());
    for (i, word) in words.iter().enumerate() {
        if i > 0 {
            let prev = words[i - 1];
            let (last, first) = (prev.chars().next_back(), word.chars().next());
            let both_cjk = last.is_some_and(is_cjk_char) && first.is_some_and(is_cjk_char);
            // Japanese and Chinese never put spaces between words; Korean does.
            let kana_or_han = last.is_some_and(is_kana_or_han) || first.is_some_and(is_kana_or_han);
            let joined = both_cjk && (single_cjk(prev) || single_cjk(word) || kana_or_han);
            if !joined {
                out.push(' ');
            }
        }
        out.push_str(word);
    }
    out
}

/// A lone `-` word beside a Korean, Japanese or Chinese word (and no other word) is a speck
/// (`膨` / `- 張剤` on a noisy photo): CJK names hold no spaced hyphen.
fn without_lone_dashes(words: Vec<&str>) -> Vec<&str> {
    if !words.contains(&"-") {
        return words;
    }
    let cjk_end = |w: Option<&&str>| w.and_then(|w| w.chars().next_back()).map(is_cjk_char);
    let cjk_start = |w: Option<&&str>| w.and_then(|w| w.chars().next()).map(is_cjk_char);
    words
        .iter()
        .enumerate()
        .filter(|&(i, &w)| {
            let before = cjk_end(i.checked_sub(1).and_then(|j| words.get(j)));
            let after = cjk_start(words.get(i + 1));
            let speck = match (before, after) {
                (Some(b), Some(a)) => b && a,
                (Some(b), None) => b,
                (None, Some(a)) => a,
                (None, None) => false,
            };
            !(w == "-" && speck)
        })
        .map(|(_, &w)| w)
        .collect()
}

struct HeaderMatch {
    line: usize,
    /// Byte offset just after the header and its colon.
    end: usize,
    language: Option<Language>,
}

/// The header that opens the list: the first one on the label. A pack printing the list in
/// several languages gives the first list printed (the request's `lang` picks another).
fn find_header(lines: &[String]) -> Option<HeaderMatch> {
    lines.iter().enumerate().find_map(|(index, line)| {
        header_in_line(line).map(|(end, language)| HeaderMatch {
            line: index,
            end,
            language,
        })
    })
}

/// Separators after a misread header on its line for it to count ([`find_misread_header`]).
const MISREAD_HEADER_SEPARATORS: usize = 2;

/// When no header was found: a line that starts with a Korean, Japanese or Chinese word
/// one character off a header of the table, directly followed by a colon, with a list after
/// it on the same line (at least two separators). OCR misreads one character of a
/// CJK header on noisy photos (`配料` read as `配对` or `无料`, docs/ocr.md); a word before a
/// colon that opens a list is a header whatever it says (`原料：` is one too).
fn find_misread_header(lines: &[String]) -> Option<HeaderMatch> {
    lines.iter().enumerate().find_map(|(index, line)| {
        let start = line.len() - line.trim_start().len();
        let word_len: usize = line[start..]
            .chars()
            .take_while(|&c| is_cjk_char(c))
            .map(char::len_utf8)
            .sum();
        let word = &line[start..start + word_len];
        let rest = line[start + word_len..].trim_start();
        let after_colon = rest.strip_prefix([':', ';'])?;
        let separators = after_colon.matches([',', '、', '，']).count();
        if separators < MISREAD_HEADER_SEPARATORS {
            return None;
        }
        let chars: Vec<char> = word.chars().collect();
        let language = words().headers.iter().find_map(|h| {
            let (header, language) = (&h.phrase, h.language);
            let header: Vec<char> = header.chars().collect();
            let cjk = header.iter().all(|&c| is_cjk_char(c));
            let one_off = header.len() == chars.len()
                && header.iter().zip(&chars).filter(|(a, b)| a != b).count() == 1;
            (cjk && one_off).then_some(language)
        })?;
        Some(HeaderMatch {
            line: index,
            end: line.len() - after_colon.len(),
            language,
        })
    })
}

/// Shortest Latin header that still counts with one letter misread.
const MISREAD_LATIN_HEADER_MIN_LETTERS: usize = 7;

/// Shortest Latin header that still counts with two letters misread (`ingredients`,
/// `composition`, `zusammensetzung`: no word of a label's other text is two letters off
/// one of them).
const TWICE_MISREAD_LATIN_HEADER_MIN_LETTERS: usize = 10;

/// Separators after a header read two letters off for it to count: a list, not a phrase.
const TWICE_MISREAD_HEADER_SEPARATORS: usize = 2;

/// When no header was found: a line that starts with a word one letter off a Latin header
/// of seven letters or more (`Ingedients`, `Zutaen`, `/NGREDIENTS`), directly followed by a
/// colon, with a list after it on the same line (a separator); or two letters off a header
/// of ten letters or more (`Igedients`, small print read enlarged) with a list of three
/// items or more after the colon (on its line and the next). A curved or blurred photo loses a letter or two of the
/// header; a word that close to one, before a colon that opens a list, is that header.
fn find_misread_latin_header(lines: &[String]) -> Option<HeaderMatch> {
    lines.iter().enumerate().find_map(|(index, line)| {
        let (word, after_colon) = line.trim_start().split_once([':', ';'])?;
        // A capital I read as a stroke (`/NGREDIENTS`, `|NGREDIENTS`).
        let word = word
            .trim_end()
            .strip_prefix(['/', '|', '!', '1'])
            .map_or_else(|| word.trim_end().to_owned(), |rest| format!("i{rest}"))
            .to_lowercase();
        if !after_colon.contains(',') || !word.chars().all(char::is_alphabetic) {
            return None;
        }
        let letters: Vec<char> = word.chars().collect();
        // The list's separators on the header's line and the next (a long first item
        // breaks the line early).
        let next = lines.get(index + 1).map_or("", String::as_str);
        let separators = after_colon.matches(',').count() + next.matches(',').count();
        words().headers.iter().find(|h| {
            let header: Vec<char> = h.phrase.chars().collect();
            let edits = if header.len() >= TWICE_MISREAD_LATIN_HEADER_MIN_LETTERS
                && letters.len() + 2 >= header.len()
                && separators >= TWICE_MISREAD_HEADER_SEPARATORS
            {
                2
            } else {
                1
            };
            header.len() >= MISREAD_LATIN_HEADER_MIN_LETTERS
                && header.iter().all(|c| c.is_alphabetic() && !is_cjk_text(*c))
                && bounded_distance(&header, &letters, edits).is_some()
        })?;
        // Which header it was is a guess (`Ingedients` is one letter off the English one on
        // a French label): the list's words tell the language.
        Some(HeaderMatch {
            line: index,
            end: line.len() - after_colon.len(),
            language: None,
        })
    })
}

/// Least letters of a header's end that a header cut at a pack's edge keeps
/// ([`find_cut_header`]).
const CUT_HEADER_LEAST_TAIL: usize = 3;

/// Most words before the colon of a header cut at a pack's edge (`sen ten:`, `lngT dents:`:
/// what is left of the word, broken where the print bends away).
const CUT_HEADER_MOST_WORDS: usize = 2;

/// A line, before `before`, that starts with a Latin header whose first letters the edge of a
/// tube, a bottle or a bag cut off (`naten:` for `Zutaten:`, `sen ten:`, `lngT dents:` for
/// `Ingrédients:`): one or two words before a colon whose letters end as a header of seven
/// letters or more ends (its last three letters or more) and are no longer than it, followed
/// by items the knowledge base knows as printed (at least one, and at least half of them: a
/// cut word is weak evidence, the names after it are not). `Verwendung: …`, `Distribution:
/// Migros…` or `Nutrients: Energy 300 kJ` end like headers but open no list of known names;
/// a word that starts as the header does is a misspelling, not a cut (`Ingrdints:`).
fn find_cut_header(lines: &[String], before: usize) -> Option<HeaderMatch> {
    lines
        .iter()
        .take(before)
        .enumerate()
        .find_map(|(index, line)| {
            let (word, after_colon) = line.trim_start().split_once([':', ';'])?;
            let pieces = word.split_whitespace().count();
            if pieces == 0
                || pieces > CUT_HEADER_MOST_WORDS
                || !word.chars().all(|c| c.is_alphabetic() || c == ' ')
                || !cut_header(word)
                || starts_other_section(line)
            {
                return None;
            }
            let end = line.len() - after_colon.len();
            let items = until_footnote(split_items(&take_section(lines, index, end, true)));
            let known = items.iter().filter(|item| known_exactly(item)).count();
            (known >= 1 && 2 * known >= items.len()).then_some(HeaderMatch {
                line: index,
                end,
                language: None,
            })
        })
}

/// Whether `word` (letters, perhaps broken by a space) is the end of a Latin header of seven
/// letters or more, cut: it ends with the header's last [`CUT_HEADER_LEAST_TAIL`] letters or
/// more and is no longer than the header (not the header itself, found already).
fn cut_header(word: &str) -> bool {
    let letters: Vec<char> = word
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect();
    long_latin_headers().any(|header| {
        letters.len() <= header.len()
            && letters.first() != header.first()
            && common_tail(&header, &letters) >= CUT_HEADER_LEAST_TAIL
    })
}

/// The Latin headers of [`MISREAD_LATIN_HEADER_MIN_LETTERS`] letters or more, as letters.
fn long_latin_headers() -> impl Iterator<Item = Vec<char>> {
    words().headers.iter().filter_map(|h| {
        let header: Vec<char> = h.phrase.chars().collect();
        (header.len() >= MISREAD_LATIN_HEADER_MIN_LETTERS
            && header.iter().all(|c| c.is_alphabetic() && !is_cjk_text(*c)))
        .then_some(header)
    })
}

/// How many letters `a` and `b` share at their ends.
fn common_tail(a: &[char], b: &[char]) -> usize {
    a.iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count()
}

/// Whether an item's name, or its first word when qualifiers follow it, is a name of the
/// knowledge base as printed, in the singular or plural or with a qualifier ([`names_known`]
/// without its typos, head nouns and classes).
fn known_exactly(item: &str) -> bool {
    use crate::knowledge::MatchKind;
    let kb = crate::knowledge::KnowledgeBase::embedded();
    let as_printed = |name: &str| {
        kb.resolve(name)
            .is_some_and(|r| !matches!(r.kind, MatchKind::Typo | MatchKind::Head))
    };
    let head = item_name(item);
    !head.is_empty() && (as_printed(&head) || qualified_name(&head).is_some_and(as_printed))
}

/// The first word of an item's name when qualifiers in lower case follow it (`Erdnüsse
/// geröstet`, `Butter eingesotten aus …`: the food, then how it was made), of four letters or
/// more. A capital after it is no qualifier but another name or a footnote read into the item
/// where a comma or a mark was lost (`Coumarin** Orgnic`, the list's last item and its
/// footnote's `*Organic`): the first word alone does not name such an item.
fn qualified_name(head: &str) -> Option<&str> {
    let mut words = head.split_whitespace();
    let first = words.next()?;
    let next = words.next()?;
    (first.chars().count() >= 4 && next.chars().next().is_some_and(char::is_lowercase))
        .then_some(first)
}

/// An item's name before any bracket, without marks and figures (`rote Paprika* 11%` →
/// `rote Paprika`).
fn item_name(item: &str) -> String {
    let head = item.split(['(', '（']).next().unwrap_or(item);
    let head: String = head
        .chars()
        .filter(|c| c.is_alphabetic() || *c == ' ' || *c == '-')
        .collect();
    head.trim().to_owned()
}

/// Whether an item names something the knowledge base knows or a function class: its name
/// before any bracket, without marks and figures (`rote Paprika* 11%`), or that name's first
/// word of four letters or more when qualifiers in lower case follow it (`Erdnüsse*
/// geröstet`, `Butter eingesotten aus …`: the food, then how it was made; not `Coumarin**
/// Orgnic`, a name and its footnote read together: [`qualified_name`]).
pub fn names_known(item: &str) -> bool {
    let kb = crate::knowledge::KnowledgeBase::embedded();
    let head = item_name(item);
    if head.is_empty() {
        return false;
    }
    kb.resolve(&head).is_some()
        || crate::language::classes::FunctionClasses::get()
            .class(&head)
            .is_some()
        || qualified_name(&head).is_some_and(|first| {
            kb.resolve(first)
                .is_some_and(|r| r.kind != crate::knowledge::MatchKind::Typo)
        })
}

/// Whether the text holds a word before a colon that is a list header, one letter off one of
/// seven letters or more, or one cut at the pack's edge ([`cut_header`], four letters of its
/// end or more): the next language's list starting (`séchées. Ingrédlents: tranches de`).
fn header_before_colon(text: &str) -> bool {
    text.match_indices([':', ';']).any(|(at, _)| {
        let word: String = text[..at]
            .trim_end()
            .rsplit(|c: char| !c.is_alphabetic())
            .next()
            .unwrap_or("")
            .to_lowercase();
        let letters: Vec<char> = word.chars().collect();
        letters.len() > CUT_HEADER_LEAST_TAIL
            && (header_in_line(&format!("{word}:")).is_some()
                || long_latin_headers().any(|header| {
                    bounded_distance(&header, &letters, 1).is_some()
                        || (letters.len() <= header.len()
                            && common_tail(&header, &letters) > CUT_HEADER_LEAST_TAIL)
                }))
    })
}

/// The end offset of a header in `line` and its language, if the line has one.
fn header_in_line(line: &str) -> Option<(usize, Option<Language>)> {
    let lower = line.to_lowercase();
    // Lower-casing can change byte lengths (rare letters); then offsets do not map back.
    if lower.len() != line.len() {
        return None;
    }
    let mut best: Option<(usize, usize, Option<Language>)> = None; // (start, end, lang)
    for h in &words().headers {
        let (header, language) = (h.phrase.as_str(), h.language);
        let mut from = 0;
        while let Some(pos) = lower[from..].find(header) {
            let start = from + pos;
            let after = start + header.len();
            from = after;
            if let Some(end) = header_end(&lower, start, after) {
                let better = match best {
                    None => true,
                    Some((s, e, _)) => start < s || (start == s && end > e),
                };
                if better {
                    best = Some((start, end, language));
                }
            }
        }
    }
    best.map(|(_, end, language)| (chained_header_end(&lower, end), language))
}

/// Where a header shared by several languages ends: one language's header followed by the
/// others', joined by slashes or bars (`Zusammensetzung/Composition/Composizione:`), is one
/// header, and the list starts after the last one. The first names the list's language.
fn chained_header_end(lower: &str, mut end: usize) -> usize {
    loop {
        let Some(after) = lower[end..].trim_start().strip_prefix(['/', '|']) else {
            return end;
        };
        let at = lower.len() - after.trim_start().len();
        let next = words()
            .headers
            .iter()
            .filter(|h| lower[at..].starts_with(h.phrase.as_str()))
            .filter_map(|h| header_end(lower, at, at + h.phrase.len()))
            .max();
        match next {
            Some(next) if next > end => end = next,
            _ => return end,
        }
    }
}

/// Where the header text that starts at `start` and ends at `after` really ends (after the
/// colon), or `None` if this occurrence is not a header (inside a word, or no colon and not
/// at the start of the line).
fn header_end(lower: &str, start: usize, after: usize) -> Option<usize> {
    let before = lower[..start].chars().next_back();
    if before.is_some_and(char::is_alphanumeric) {
        return None;
    }
    let rest = &lower[after..];
    let next = rest.chars().next();
    if next.is_some_and(char::is_alphanumeric) {
        return None;
    }
    let trimmed = rest.trim_start_matches([' ', '.']);
    if let Some(stripped) = trimmed.strip_prefix([':', ';']) {
        return Some(lower.len() - stripped.len());
    }
    // A code printed between the header and its colon (`INGREDIENTS 10-1.05:`, a formula
    // number): figures, dashes, dots and slashes only.
    if let Some(colon) = trimmed.find(':').filter(|&n| n <= HEADER_CODE_MOST_CHARS) {
        let code = &trimmed[..colon];
        if code.chars().any(|c| c.is_ascii_digit())
            && code
                .chars()
                .all(|c| c.is_ascii_digit() || "-./ ".contains(c))
        {
            return Some(lower.len() - trimmed.len() + colon + 1);
        }
    }
    // Without a colon: only as the first word of a line ("INGREDIENTS Water, ...").
    let at_line_start = lower[..start].trim().is_empty()
        || lower[..start].trim_end().ends_with(['/', '|', '-', '.']);
    if at_line_start && !rest.trim_start().starts_with(['(', '%']) {
        return Some(after);
    }
    None
}

/// Longest code between a header and its colon ([`header_end`]).
const HEADER_CODE_MOST_CHARS: usize = 12;

/// Whether a cleaned line starts a section other than the ingredients.
fn starts_other_section(line: &str) -> bool {
    let lower = line.to_lowercase();
    let lower = lower.trim_start_matches(|c: char| !c.is_alphanumeric());
    // OCR spaces inside CJK words ("アレ ルギー"): compare CJK keywords without spaces.
    let compact: String = lower.chars().filter(|c| !c.is_whitespace()).collect();
    let section_starts = &words().section_starts;
    let cjk_hit = section_starts.iter().any(|s| {
        !s.is_ascii()
            && s.chars().next().is_some_and(is_cjk_char)
            && compact.starts_with(s.as_str())
    });
    cjk_hit
        || misread_cjk_section_start(&compact, line)
        || section_starts.iter().any(|s| {
            lower.starts_with(s.as_str()) && {
                // A Latin keyword must end at a word boundary ("energy" is not "energydrink").
                let rest = &lower[s.len()..];
                s.ends_with([' ', ':']) || !rest.starts_with(char::is_alphabetic) || !s.is_ascii()
            }
        })
}

/// Shortest CJK section keyword that still counts with one character misread.
const MISREAD_SECTION_MIN_CHARS: usize = 4;

/// A line that starts with a CJK section keyword of four or more characters with one
/// character misread (`貯養成分表示` for `栄養成分表示`, `区存条件` for `贮存条件` on noisy
/// photos) and has a colon, as the sections' lines do: shorter keywords one character off
/// are too often ingredient names (`保存料`).
fn misread_cjk_section_start(compact: &str, line: &str) -> bool {
    if !line.contains([':', '：']) {
        return false;
    }
    let start: Vec<char> = compact.chars().take(8).collect();
    words().section_starts.iter().any(|keyword| {
        let keyword: Vec<char> = keyword.chars().collect();
        keyword.len() >= MISREAD_SECTION_MIN_CHARS
            && keyword.iter().all(|&c| is_cjk_char(c))
            && start.len() >= keyword.len()
            && start[..keyword.len()].iter().all(|&c| is_cjk_char(c))
            && keyword.iter().zip(&start).filter(|(a, b)| a != b).count() == 1
    })
}

/// Bracket depth change of a piece of text.
fn bracket_delta(text: &str) -> i32 {
    text.chars()
        .map(|c| match c {
            c if is_opener(c) => 1,
            c if is_closer(c) => -1,
            _ => 0,
        })
        .sum()
}

/// The byte offset at which a sentence ends within `text` (a full stop or `。` outside
/// brackets that is not part of a number or an abbreviation and is followed by the end or
/// a space), or `None`.
fn sentence_end(text: &str, depth_before: i32) -> Option<usize> {
    let mut depth = depth_before;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for (i, &(offset, c)) in chars.iter().enumerate() {
        match c {
            c if is_opener(c) => depth += 1,
            c if is_closer(c) => depth -= 1,
            '。' if depth <= 0 => return Some(offset),
            '.' if depth <= 0 => {
                let next = chars.get(i + 1).map(|&(_, c)| c);
                if next.is_some_and(|n| !n.is_whitespace()) {
                    continue; // 2.5 %, e.g.x
                }
                let word: String = chars[..i]
                    .iter()
                    .rev()
                    .map(|&(_, c)| c)
                    .take_while(|c| c.is_alphanumeric())
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect::<String>()
                    .to_lowercase();
                if words().abbreviations.contains(&word) {
                    continue;
                }
                if word.chars().count() == 1 && word.chars().all(char::is_alphabetic) {
                    continue; // initials, "C. I. 77491"
                }
                return Some(offset);
            }
            _ => {}
        }
    }
    None
}

/// Collects the list text from `(start_line, start_col)` until the section ends.
fn take_section(lines: &[String], start_line: usize, start_col: usize, header: bool) -> String {
    let first = lines
        .get(start_line)
        .and_then(|l| l.get(start_col..))
        .unwrap_or("")
        .trim();
    let rest = lines.iter().skip(start_line + 1).map(String::as_str);
    let mut out = String::new();
    let mut depth = 0;
    for (index, line) in std::iter::once(first).chain(rest).enumerate() {
        // The list goes on while a bracket is open or the text so far ends mid-list.
        let open = depth > 0 || out.trim_end().ends_with([',', '、', '-', '(', '&', '/']);
        if index > 0 {
            if line.is_empty() {
                if open
                    || out.is_empty()
                    || continues_after_break(&out, line_after(lines, start_line, index))
                {
                    continue; // header alone, or a break inside the list
                }
                break;
            }
            if is_header_band(line)
                || (!open
                    && (starts_other_section(line)
                        || header_in_line(line).is_some()
                        || starts_unknown_label(line)
                        || ends_trace_statement(line)
                        || starts_statement(line)
                        || names_next_header(line)))
            {
                break;
            }
            // A bracket misread as a letter (`amóniol,`) would hold the list open to the end
            // of the text: a line opening another section with its colon still ends it.
            if depth > 0 && line.contains([':', '：']) && starts_other_section(line) {
                break;
            }
            if !header && !open && !looks_like_list_line(line) {
                break;
            }
        }
        let next = lines.get(start_line + index + 1).map(String::as_str);
        let mut line = std::borrow::Cow::Borrowed(line);
        let mut ended = false;
        while let Some(end) = sentence_end(&line, depth) {
            if line[end..].starts_with('.') && list_goes_on(&line[end + 1..], next) {
                line.to_mut().replace_range(end..=end, ",");
                continue;
            }
            append_line(&mut out, &line[..end]);
            ended = true;
            break;
        }
        if ended {
            break;
        }
        append_line(&mut out, &line);
        depth += bracket_delta(&line);
    }
    out
}

/// Whether a line starts with one or two words of four letters or more and a colon that are
/// no name or function class the knowledge base knows (`dierts: cacahuètes* grillées`, the
/// next language's header misread past mending): after a line that ended an item, another
/// statement starts there, not the list's next item (`Emulgator: Lecithine` goes on).
fn starts_unknown_label(line: &str) -> bool {
    let Some((word, _)) = line.split_once([':', ';']) else {
        return false;
    };
    let pieces = word.split_whitespace().count();
    (1..=CUT_HEADER_MOST_WORDS).contains(&pieces)
        && word.chars().all(|c| c.is_alphabetic() || c == ' ')
        && word.chars().filter(|c| c.is_alphabetic()).count() >= 4
        && !names_known(word)
}

/// Whether a line ends a sentence with the words that close a "may contain" statement
/// (`dmianuss, Sesam und Lupine enthalten.`: the tail of `Kann Spuren von … enthalten.`, which
/// a reading order put after a list's last line): after an item ended, it is that statement,
/// not more of the list.
fn ends_trace_statement(line: &str) -> bool {
    let Some(sentence) = line.trim_end().strip_suffix('.') else {
        return false;
    };
    let lower = sentence.to_lowercase();
    words().trace_tails.iter().any(|tail| {
        lower
            .strip_suffix(tail.as_str())
            .is_some_and(|before| before.ends_with(' '))
    })
}

/// Whether a line starts with a statement's word in capitals (`Nicht zum Verzehr geeignet`,
/// `Bitte kühl lagern`): after an item ended, a sentence starts there, not the list's next
/// line (which goes on in lower case when an item broke across lines).
fn starts_statement(line: &str) -> bool {
    let Some(first) = line.split_whitespace().next() else {
        return false;
    };
    first.chars().next().is_some_and(char::is_uppercase)
        && words()
            .statement_words
            .contains(&first.trim_end_matches([',', '.', ':']).to_lowercase())
}

/// Least letters of a word's end that a header cut at a pack's edge keeps to end a list
/// without its colon ([`names_next_header`]): `ngrédients`, not `Tomaten` (`Zutaten`'s last
/// four).
const CUT_HEADER_WORD_LEAST_TAIL: usize = 6;

/// Whether a line holds, among its words, a Latin list header of seven letters or more, one
/// letter off one, or one cut at the pack's edge keeping six letters or more of its end,
/// without its colon (`Pois chiches ngrédients pois chiches eau`: the next language's product
/// name and header): after an item ended, the next language's list starts there.
fn names_next_header(line: &str) -> bool {
    line.split(|c: char| !c.is_alphabetic()).any(|word| {
        let letters: Vec<char> = word.chars().flat_map(char::to_lowercase).collect();
        letters.len() >= MISREAD_LATIN_HEADER_MIN_LETTERS
            && long_latin_headers().any(|header| {
                bounded_distance(&header, &letters, 1).is_some()
                    || (letters.len() <= header.len()
                        && common_tail(&header, &letters) >= CUT_HEADER_WORD_LEAST_TAIL)
            })
    })
}

/// Whether a line holds nothing but a list header (`INGRÉDIENTS`, `Zutaten:`, `Zutaten /
/// Ingrédients`): the band a pack prints before each language's list. The next list starts
/// there even when the line before ends with a comma or inside a bracket (a footnote mark or
/// a comma read at the end of the list above).
fn is_header_band(line: &str) -> bool {
    header_in_line(line)
        .is_some_and(|(end, _)| line.get(end..).is_some_and(|r| r.trim().is_empty()))
}

/// Whether a full stop inside a list, followed by `rest` of its line and then the `next`
/// line, is a separator rather than the list's end: a blurred or small comma reads as `.`
/// (`Flocons d'avoine (45 %). Farine de blé, Sucre`). It is when the text after it reads as
/// further items — a name the knowledge base knows, or two or more item-shaped pieces (a few
/// words, no statement's words, no colon) with a comma among them, so the list visibly goes
/// on. A statement (`Contains…`, `Store…`, a nutrition table, another header) or the block's
/// end (a blank line) is a real end.
fn list_goes_on(rest: &str, next: Option<&str>) -> bool {
    let rest = rest.trim();
    let ahead = match next.map(str::trim).filter(|n| !n.is_empty()) {
        Some(next) if rest.is_empty() => next.to_owned(),
        Some(next) => format!("{rest} {next}"),
        None => rest.to_owned(),
    };
    if ahead.is_empty()
        || starts_other_section(&ahead)
        || header_in_line(&ahead).is_some()
        || header_before_colon(&ahead)
    {
        return false;
    }
    // The pieces ahead, each up to a separator or a full stop outside brackets.
    let mut pieces: Vec<(&str, Option<char>)> = Vec::new();
    let (mut depth, mut from) = (0, 0);
    for (offset, c) in ahead.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' | ';' | '.' if depth <= 0 => {
                pieces.push((&ahead[from..offset], Some(c)));
                from = offset + 1;
            }
            _ => {}
        }
    }
    pieces.push((&ahead[from..], None));
    let shaped: Vec<&(&str, Option<char>)> = pieces
        .iter()
        .take_while(|(piece, _)| item_shaped(piece))
        .collect();
    let Some((first, _)) = shaped.first() else {
        return false;
    };
    let comma = shaped.iter().any(|(_, end)| matches!(end, Some(',' | ';')));
    let name = first.split('(').next().unwrap_or(first).trim();
    (shaped.len() >= 2 && comma)
        || crate::knowledge::KnowledgeBase::embedded()
            .lookup(name)
            .is_some()
}

/// A piece of text that may be one ingredient: one to six words outside brackets, starting
/// with a letter or figure, without a colon or a statement's word.
fn item_shaped(piece: &str) -> bool {
    let mut depth = 0;
    let outside: String = piece
        .chars()
        .filter(|&c| {
            match c {
                '(' | '[' => depth += 1,
                ')' | ']' => depth -= 1,
                _ => return depth <= 0,
            }
            false
        })
        .collect();
    let piece = outside.trim();
    let words: Vec<String> = piece
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .collect();
    (1..=6).contains(&words.len())
        && piece.chars().next().is_some_and(char::is_alphanumeric)
        && !piece.contains(':')
        && !words
            .iter()
            .any(|w| self::words().statement_words.contains(w))
}

/// The line that follows `index` in the section's line sequence (index 0 is the header line).
fn line_after(lines: &[String], start_line: usize, index: usize) -> Option<&str> {
    lines[start_line.saturating_add(1).min(lines.len())..]
        .iter()
        .skip(index)
        .map(String::as_str)
        .find(|l| !l.is_empty())
}

/// Whether the list goes on after a blank line (OCR engines split paragraphs mid-list): the
/// list has not ended with a full stop, and the next text line begins with a bracket, a
/// separator or a lower-case letter, or (CJK) holds two separators; no other section starts.
fn continues_after_break(so_far: &str, next: Option<&str>) -> bool {
    let Some(next) = next else { return false };
    if so_far.trim_end().ends_with(['.', '。']) || starts_other_section(next) {
        return false;
    }
    if header_in_line(next).is_some() {
        return false;
    }
    let cjk_list = so_far.chars().next_back().is_some_and(is_cjk_char)
        && next.matches([',', '、', '，']).count() >= 2;
    next.starts_with(['(', '[', ',', '、', '，', '（'])
        || next.chars().next().is_some_and(char::is_lowercase)
        || cjk_list
}

/// A line that may continue a list found without a header: it has a separator.
fn looks_like_list_line(line: &str) -> bool {
    line.contains([',', '、', '，'])
}

/// Appends a line, mending hyphenated breaks (`sun-` + `flower` → `sunflower`).
fn append_line(out: &mut String, line: &str) {
    let line = line.trim();
    if line.is_empty() {
        return;
    }
    if out.is_empty() {
        out.push_str(line);
        return;
    }
    let last = out.chars().next_back();
    let first = line.chars().next();
    if out.ends_with('/') {
        out.push_str(line);
        return;
    }
    if out.ends_with('-') {
        let before_hyphen = out[..out.len() - 1].chars().next_back();
        if before_hyphen.is_some_and(char::is_alphabetic) && first.is_some_and(char::is_lowercase) {
            out.pop();
        }
        out.push_str(line);
        return;
    }
    let cjk = |c: Option<char>| c.is_some_and(is_cjk_char);
    let opening = first.is_some_and(|c| matches!(c, '(' | '[' | '〈' | '【'));
    if cjk(last) && (cjk(first) || opening) || last == Some('、') {
        out.push_str(line);
    } else {
        out.push(' ');
        out.push_str(line);
    }
}

/// Han ideographs and kana (not Hangul).
fn is_kana_or_han(c: char) -> bool {
    is_kana(c) || is_han(c)
}

/// Han, kana, Hangul and CJK punctuation ([`is_cjk_text`]).
fn is_cjk_char(c: char) -> bool {
    is_cjk_text(c)
}

/// Splits a list found on a label into its items with the list grammar's one splitter
/// ([`crate::grammar::split`]), the passes of text an OCR engine read around it: the text in
/// compatibility form (NFKC: `（` is `(`; Japanese labels' tortoise-shell brackets `〔〕`,
/// which NFKC keeps, written `()` too), a colon between two CJK names read as the `、` it
/// is, brackets as read (any closing bracket closes, one left open runs to the end), then
/// each item's commas inside brackets written `", "` and the item cleaned of specks.
pub fn split_items(list: &str) -> Vec<String> {
    let list: String = list
        .nfkc()
        .map(|c| match c {
            '〔' => '(',
            '〕' => ')',
            c => c,
        })
        .collect();
    let list = cjk_colons_as_separators(&list);
    let mut items = Vec::new();
    for item in TopLevel::with(Brackets::as_read(&list)) {
        push_item(&mut items, &commas_inside_brackets(item.text));
    }
    items
}

/// `、` read as a colon between two CJK names (`食用盐 : 食用香精`) outside brackets: the
/// colon becomes the `、` it is.
fn cjk_colons_as_separators(list: &str) -> std::borrow::Cow<'_, str> {
    if !list.contains(':') {
        return std::borrow::Cow::Borrowed(list);
    }
    let chars: Vec<char> = list.chars().collect();
    let mut depth = 0i32;
    let mut out = String::with_capacity(list.len());
    for (i, &c) in chars.iter().enumerate() {
        if is_opener(c) {
            depth += 1;
        } else if is_closer(c) {
            depth = (depth - 1).max(0);
        }
        if c == ':' && depth == 0 && cjk_on_both_sides(&chars, i) {
            out.push('、');
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// An item with each separator inside its brackets (`,` not between digits, `、`, `，`)
/// written `", "`, as the list is.
fn commas_inside_brackets(item: &str) -> String {
    let chars: Vec<char> = item.chars().collect();
    let mut out = String::with_capacity(item.len());
    let mut depth = 0i32;
    for (i, &c) in chars.iter().enumerate() {
        if is_opener(c) {
            depth += 1;
        } else if is_closer(c) {
            depth = (depth - 1).max(0);
        }
        let comma = match c {
            '、' | '，' => true,
            ',' => {
                let digit = |c: Option<&char>| c.is_some_and(char::is_ascii_digit);
                !(digit(i.checked_sub(1).and_then(|j| chars.get(j))) && digit(chars.get(i + 1)))
            }
            _ => false,
        };
        if comma && depth > 0 {
            out.truncate(out.trim_end().len());
            out.push_str(", ");
        } else if !(c.is_whitespace() && out.ends_with(", ")) {
            out.push(c);
        }
    }
    out
}

/// Whether the nearest non-space characters before and after `chars[i]` are CJK letters.
fn cjk_on_both_sides(chars: &[char], i: usize) -> bool {
    let letter = |c: Option<&char>| c.is_some_and(|&c| is_cjk_char(c) && c.is_alphabetic());
    letter(chars[..i].iter().rev().find(|c| !c.is_whitespace()))
        && letter(chars[i + 1..].iter().find(|c| !c.is_whitespace()))
}

fn push_item(items: &mut Vec<String>, raw: &str) {
    let item = clean_line(raw);
    let speck = |c: char| {
        c.is_whitespace() || matches!(c, '.' | '。' | '•' | '·' | '・' | ':' | '_' | '|' | '-')
    };
    // A `*` opening an item is a bullet; closing it, the footnote mark printed on the name
    // (`Zucker**`: organic, fair trade), kept as printed like a mark inside an item.
    let item = item
        .trim_start_matches(|c: char| speck(c) || c == '*')
        .trim_end_matches(speck)
        .trim_start_matches(['+', ','])
        .trim();
    let item = match item.trim_end_matches('*') {
        name if name.ends_with(|c: char| c.is_alphanumeric() || c == ')') => item,
        name => name.trim_end_matches(speck),
    };
    // Keep a trailing full stop of an abbreviation ("Alcohol Denat.").
    let with_stop = raw.trim_end().ends_with('.')
        && item
            .rsplit(|c: char| !c.is_alphanumeric())
            .next()
            .is_some_and(|w| words().abbreviations.contains(&w.to_lowercase()));
    if item.chars().any(char::is_alphanumeric) {
        // "45%0)" / "45%o)": a speck after the per cent sign read as a letter or digit.
        let item = item.replace("%0)", "%)").replace("%o)", "%)");
        let item = mend_percentages(&round_mismatched_brackets(&item));
        let mut item = unspeckle_colons(&item);
        if with_stop {
            item.push('.');
        }
        items.push(item);
    }
}

/// `|` right after a figure inside an open bracket is its closing bracket (`(12.596|,` on
/// small Korean print, which otherwise held the bracket open to the end of the label).
fn bar_as_closing_bracket(line: &str) -> String {
    if !line.contains('|') {
        return line.to_owned();
    }
    let mut depth = 0i32;
    let mut previous = None;
    let mut out = String::with_capacity(line.len());
    for c in line.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        let after_figure = previous.is_some_and(|p: char| p.is_ascii_digit() || p == '%');
        if c == '|' && depth > 0 && after_figure {
            depth -= 1;
            out.push(')');
        } else {
            out.push(c);
        }
        previous = Some(c);
    }
    out
}

/// A `[` closed by `)` or a `(` closed by `]` (`귀리플레이크 [4590)` on small print): one of
/// the two is a misread round bracket, and both become round ones. Matching square
/// brackets stay as printed.
fn round_mismatched_brackets(item: &str) -> String {
    if !item.contains(['[', ']']) {
        return item.to_owned();
    }
    let mut chars: Vec<char> = item.chars().collect();
    let mut open: Vec<usize> = Vec::new();
    for i in 0..chars.len() {
        match chars[i] {
            '(' | '[' => open.push(i),
            c @ (')' | ']') => {
                if let Some(j) = open.pop()
                    && (chars[j] == '[') != (c == ']')
                {
                    chars[j] = '(';
                    chars[i] = ')';
                }
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// `《` and `》` (book-title marks, never part of an ingredient list) are an OCR reading
/// of the full-width brackets `（` `）`: they become `(` `)`, or vanish beside a bracket read
/// as well (`(《45%)`), so a stray one cannot leave a bracket open to the end of the label.
fn double_angle_as_bracket(line: &str) -> String {
    if !line.contains(['《', '》']) {
        return line.to_owned();
    }
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len());
    for (i, &c) in chars.iter().enumerate() {
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1).copied();
        match c {
            '《' if prev == Some('(') || next == Some('(') => {}
            '》' if prev == Some(')') || next == Some(')') => {}
            '《' => out.push('('),
            '》' => out.push(')'),
            _ => out.push(c),
        }
    }
    out
}

/// A per cent sign misread as digits (`(4590)`, `(4596)`, `(4599)`, `(12.590)` for `(45%)`,
/// `(12.5%)`) or with a 9 before it (`(459%)`). Only where the printed figure cannot be meant:
/// a bare bracketed number that would be over 100 or have three decimals, which without its
/// last two digits is a share of at most 100; or a share over 100, or with two decimals the
/// second a 9 (`(12.59%)`, the CJK fonts' per cent sign read as `9%`), that is one without
/// that 9. `(12.95%)` and `(2.09%)` stay. `%%` and a colon for the decimal point are tidied,
/// and a bracket lost before the figure (`12.590)`) is put back.
fn mend_percentages(item: &str) -> String {
    let item = reopen_share_bracket(item);
    let mut out = String::with_capacity(item.len());
    let mut rest = item.as_str();
    while let Some(open) = rest.find('(') {
        let after = &rest[open + 1..];
        let Some(close) = after.find(')') else {
            break;
        };
        out.push_str(&rest[..=open]);
        let inner = &after[..close];
        out.push_str(&mend_share(inner.trim()).unwrap_or_else(|| inner.to_owned()));
        out.push(')');
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// `헤이즐넛 12.590)`: a closing bracket with none open before it, right after a number that
/// follows a space, lost its opening bracket; it goes back before the number.
fn reopen_share_bracket(item: &str) -> String {
    let Some(close) = item.find(')') else {
        return item.to_owned();
    };
    if item[..close].contains('(') {
        return item.to_owned();
    }
    let before = &item[..close];
    let name =
        before.trim_end_matches(|c: char| c.is_ascii_digit() || matches!(c, '.' | ',' | '%' | ' '));
    let figure = &before[name.len()..];
    let share = figure.trim_start();
    // Only a share (`45%`, or a misread one): `Zucker 1)` is a footnote mark.
    if name.is_empty()
        || !figure.starts_with(' ')
        || !share.starts_with(|c: char| c.is_ascii_digit())
        || !(share.ends_with('%') || mend_share(share).is_some())
    {
        return item.to_owned();
    }
    format!("{name} ({}{}", figure.trim_start(), &item[close..])
}

/// Tidies a bracketed share before it is judged: `%%` read for one per cent sign, a colon
/// read for the decimal point between digits (`12:59%`).
fn tidy_share(inner: &str) -> String {
    let shaped = inner.ends_with('%')
        && inner
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | ':' | '%'));
    if !shaped {
        return inner.to_owned();
    }
    let mut out = inner.to_owned();
    while out.contains("%%") {
        out = out.replace("%%", "%");
    }
    if out.matches(':').count() == 1 && !out.contains(['.', ',']) {
        out = out.replace(':', ".");
    }
    out
}

/// The share a misread bracket content stands for (see [`mend_percentages`]).
fn mend_share(inner: &str) -> Option<String> {
    let tidied = tidy_share(inner);
    match mend_share_figure(&tidied) {
        Some(share) => Some(share),
        None => (tidied != inner).then_some(tidied),
    }
}

/// [`mend_share`] on tidied text.
fn mend_share_figure(inner: &str) -> Option<String> {
    let is_number = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
            && s.chars().next().is_some_and(|c| c.is_ascii_digit())
            && s.chars().filter(|c| matches!(c, '.' | ',')).count() <= 1
    };
    let value = |s: &str| s.replace(',', ".").parse::<f64>().ok();
    let share = |s: &str| is_number(s) && value(s).is_some_and(|v| v <= 100.0);
    if let Some(number) = inner.strip_suffix("9%") {
        let whole = format!("{number}9");
        // The per cent sign of CJK fonts (`％`, and `%` in Noto CJK) is read as `9%` after a
        // decimal (`(12.5％)` → `(12.59%)`, measured on 7 of the 27 CJK chocolate images):
        // a share printed with two decimals, the second a 9, is taken as that misread.
        let one_decimal = number
            .split_once(['.', ','])
            .is_some_and(|(_, d)| d.len() == 1 && d != "0");
        return (is_number(&whole)
            && (value(&whole).is_some_and(|v| v > 100.0) || one_decimal)
            && share(number))
        .then(|| format!("{number}%"));
    }
    if !is_number(inner) {
        return None;
    }
    let decimals = inner
        .split(['.', ','])
        .nth(1)
        .map_or(0, |d| d.chars().count());
    let implausible = value(inner).is_some_and(|v| v > 100.0) || decimals >= 3;
    // `%` read as `9` and a digit (`90`, `94`, `96`, `99` measured), or the full-width `％`
    // on small CJK print as `916` (`(45916)`, `(12.5916)`).
    let number = inner.strip_suffix("916").or_else(|| {
        let mut tail = inner.chars().rev();
        let (last, nine) = (tail.next()?, tail.next()?);
        (last.is_ascii_digit() && nine == '9').then(|| &inner[..inner.len() - 2])
    })?;
    (implausible && share(number)).then(|| format!("{number}%"))
}

/// A colon inside an item before a lower-case word is a misread speck (`Farina di: frumento`,
/// `Alcol:cetilstearilico`): it becomes a space. Not after a function class, whose colon is
/// printed (`Espesante: goma xantana`, `acidulante: ácido cítrico`).
fn unspeckle_colons(item: &str) -> String {
    let chars: Vec<char> = item.chars().collect();
    let mut out = String::with_capacity(item.len());
    for (i, &c) in chars.iter().enumerate() {
        if c == ':' {
            let next = chars[i + 1..].iter().find(|c| !c.is_whitespace());
            let prev = i.checked_sub(1).map(|j| chars[j]);
            if prev.is_some_and(char::is_alphabetic)
                && next.is_some_and(|n| n.is_lowercase())
                && !is_class_word(&chars[..i].iter().collect::<String>())
            {
                if !chars.get(i + 1).is_some_and(|n| n.is_whitespace()) {
                    out.push(' ');
                }
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// Index of the first line of the block with the most separators (at least two), if any.
fn most_list_like_block(lines: &[String]) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None; // (line, separators)
    let mut block_start: Option<usize> = None;
    let mut count = 0;
    for (index, line) in lines
        .iter()
        .chain(std::iter::once(&String::new()))
        .enumerate()
    {
        let separators = line.matches([',', '、', '，']).count();
        if separators == 0 || starts_other_section(line) {
            if let Some(start) = block_start.take()
                && count >= 2
                && best.is_none_or(|(_, c)| count > c)
            {
                best = Some((start, count));
            }
            count = 0;
            continue;
        }
        if block_start.is_none() {
            block_start = Some(index);
        }
        count += separators;
    }
    best.map(|(line, _)| line)
}

/// Guesses the label's language: the script for Korean, Japanese and Chinese; for Latin
/// scripts the header word, letters such as `ñ` `ß` `ã`, and common words.
pub fn detect_language(text: &str) -> Option<Language> {
    let (mut hangul, mut kana, mut han, mut latin) = (0usize, 0usize, 0usize, 0usize);
    for c in text.chars() {
        if is_hangul(c) {
            hangul += 1;
        } else if is_kana(c) {
            kana += 1;
        } else if is_han(c) {
            han += 1;
        } else if c.is_ascii_alphabetic() || ('\u{C0}'..='\u{24F}').contains(&c) {
            latin += 1;
        }
    }
    let cjk = hangul + kana + han;
    if cjk >= 2 && cjk * 2 >= latin / 2 {
        return Some(if hangul >= kana + han {
            Language::Korean
        } else if kana * 10 >= han.max(1) {
            Language::Japanese
        } else {
            Language::Chinese
        });
    }
    if latin < 3 {
        return None;
    }
    let lower: String = text.nfkc().collect::<String>().to_lowercase();
    let cues = &Lexicon::get().cues.languages;
    let mut scores = vec![0i32; cues.len()];
    let lines: Vec<String> = lower.lines().map(clean_line).collect();
    if let Some((_, Some(lang))) = lines.iter().find_map(|l| header_in_line(l))
        && let Some(score) = cues
            .iter()
            .position(|(l, _)| *l == lang)
            .and_then(|i| scores.get_mut(i))
    {
        *score += 6;
    }
    for ((_, cue), score) in cues.iter().zip(scores.iter_mut()) {
        if cue.phrases.iter().any(|p| lower.contains(p.as_str())) {
            *score += 3;
        }
    }
    for c in lower.chars() {
        for ((_, cue), score) in cues.iter().zip(scores.iter_mut()) {
            if cue.strong.contains(&c) {
                *score += 3;
            } else if cue.letters.contains(&c) {
                *score += 1;
            }
        }
    }
    for word in lower.split(|c: char| !c.is_alphabetic()) {
        for ((_, cue), score) in cues.iter().zip(scores.iter_mut()) {
            if cue.words.contains(word) {
                *score += 1;
            }
        }
    }
    let (best, &score) = scores
        .iter()
        .enumerate()
        .max_by_key(|&(i, s)| (*s, -(i as i32)))?;
    if score == 0 {
        return Some(Language::English);
    }
    cues.get(best).map(|(language, _)| *language)
}

#[cfg(test)]
mod tests;
