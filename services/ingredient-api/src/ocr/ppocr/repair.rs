//! What PP-OCR typically misreads, mended where the knowledge base and the recogniser's
//! confidence make it unambiguous ([`repair`]).
//!
//! Latin script ([`mend`]): an item the knowledge base does not know becomes the name it is a
//! typo of only when
//! - the recogniser was unsure of the line it came from (mean character probability under
//!   [`SURE`]: a line read with confidence is taken as printed, even when unknown), and
//! - the knowledge base resolves it as a typo (its conservative edit-distance threshold, one
//!   entry only: [`domain::knowledge::MatchKind::Typo`]), and
//! - that entry has a name (English/INCI, or in the label's language) within
//!   [`max_edits`] of the item as read: `SOOUM LAURETH SULFATE` → `SODIUM LAURETH SULFATE`.
//!
//! Names that are unknown and not a near miss of one known name stay as printed. Tesseract's
//! readings go through `tesseract::repair` instead, tuned to the letters that engine
//! confuses; the neural engine's mistakes are not those (it drops or merges letters rather
//! than swapping `l`/`1`).
//!
//! Korean, Japanese and Chinese items then go through the one-character mending
//! ([`crate::ocr::repair::cjk`]) with the character pairs measured on Tesseract's CJK models
//! (no pairs were measured for PP-OCR; its CJK readings are mended as they always were).

use domain::knowledge::{KnowledgeBase, MatchKind};
use domain::ocr::label::Language;
use domain::text::distance::bounded_distance;
use domain::text::fold::fold;

use super::TextLine;
use crate::ocr::repair::{cjk, match_case};
use crate::ocr::tesseract::repair::CJK_CONFUSABLE;

/// Mean character probability from which a line is taken as printed.
pub const SURE: f32 = 0.97;

/// Edits allowed between an item and the name it becomes: one per six letters, at most three.
pub fn max_edits(len: usize) -> usize {
    (len / 6).clamp(1, 3)
}

/// The items of a PP-OCR reading with its misreads mended: Latin items by [`mend`], CJK
/// items then by the one-character mending (`cjk_mending`: off for measurements only).
pub fn repair(
    kb: &KnowledgeBase,
    items: &[String],
    lines: &[TextLine],
    language: Option<Language>,
    cjk_mending: bool,
) -> Vec<String> {
    let items = mend(kb, items, lines, language);
    match language.filter(|l| l.is_cjk() && cjk_mending) {
        Some(cjk) => items
            .iter()
            .map(|item| cjk::mend(kb, item, cjk, CJK_CONFUSABLE).unwrap_or_else(|| item.clone()))
            .collect(),
        None => items,
    }
}

/// The items, each mended when the rules above allow it.
pub fn mend(
    kb: &KnowledgeBase,
    items: &[String],
    lines: &[TextLine],
    language: Option<Language>,
) -> Vec<String> {
    items
        .iter()
        .flat_map(|item| match split_at_line_end(kb, item, lines)
            .or_else(|| split_run_together(kb, item))
        {
            Some(parts) => {
                tracing::debug!(read = %item, ?parts, "PP-OCR repair: items read together split");
                parts
            }
            None => vec![item.clone()],
        })
        .map(|item| {
            let confidence = confidence_of(&item, lines);
            if let Some(mended) = mend_by_runner_up(kb, &item, lines) {
                tracing::debug!(read = %item, %mended, "PP-OCR repair: runner-up characters");
                return mended;
            }
            if let Some(mended) = mend_item(kb, &item, confidence, language) {
                tracing::debug!(read = %item, %mended, confidence, "PP-OCR repair: unsure near miss");
                return mended;
            }
            item
        })
        .collect()
}

/// Items read as one where the recogniser missed the commas between them (`C12-15 Alky
/// Benzoate Ethyher Methoxycinnamate`, `Trethanolamine Toopherol` on a sunscreen's list in
/// small print): an item of three to [`RUN_TOGETHER_MOST_WORDS`] words, without brackets,
/// that the knowledge base does not resolve (or only by its last noun), cut at word
/// boundaries into parts that are each a name it resolves, as printed or as a typo (a head
/// noun alone is not enough), when exactly one such cut exists. When none exists, one part
/// may be a name misread further than a typo ([`far_misread`]: `Ethyher Methoxycinnamate`)
/// beside parts it resolves, again when exactly one such cut exists. No cut, or two that
/// work, leave it whole: nothing is split on a guess, and a part is left as read.
pub fn split_run_together(kb: &KnowledgeBase, item: &str) -> Option<Vec<String>> {
    let named = |name: &str| {
        name.chars().filter(|c| c.is_alphabetic()).count() >= 3
            && kb.resolve(name).is_some_and(|r| r.kind != MatchKind::Head)
    };
    let words: Vec<&str> = item.split_whitespace().collect();
    let n = words.len();
    if !(3..=RUN_TOGETHER_MOST_WORDS).contains(&n)
        || item.contains(['(', ')', '[', ']', ':'])
        || named(item)
    {
        return None;
    }
    let part = |i: usize, j: usize| words[i..j].join(" ");
    // The ways words[from..to] splits into known names (at most two kept), each a list of
    // parts; the whole item is not one of them.
    let ways = |from: usize, to: usize| -> Vec<Vec<String>> {
        let mut cuts: Vec<Vec<Vec<String>>> = vec![Vec::new(); to + 1];
        cuts[to].push(Vec::new());
        for i in (from..to).rev() {
            for j in i + 1..=to {
                if (i, j) == (0, n) || cuts[j].is_empty() || !named(&part(i, j)) {
                    continue;
                }
                for rest in cuts[j].clone() {
                    if cuts[i].len() < 2 {
                        let mut parts = vec![part(i, j)];
                        parts.extend(rest);
                        cuts[i].push(parts);
                    }
                }
            }
        }
        std::mem::take(&mut cuts[from])
    };
    let mut strict = ways(0, n);
    if !strict.is_empty() {
        return (strict.len() == 1).then(|| strict.remove(0));
    }
    // One part misread further than a typo, between parts that are known names.
    let mut found: Vec<Vec<String>> = Vec::new();
    for i in 0..n {
        for j in i + FAR_MISREAD_LEAST_WORDS..=n {
            if (i, j) == (0, n) || !far_misread(kb, &part(i, j)) {
                continue;
            }
            for before in ways(0, i) {
                for after in ways(j, n) {
                    let mut parts = before.clone();
                    parts.push(part(i, j));
                    parts.extend(after);
                    found.push(parts);
                }
            }
            if found.len() > 1 {
                return None;
            }
        }
    }
    (found.len() == 1).then(|| found.remove(0))
}

/// Least words of a part read further than a typo from its name ([`far_misread`]).
const FAR_MISREAD_LEAST_WORDS: usize = 2;

/// Whether `part` (two words or more) is an English or INCI name of the knowledge base read
/// further than a typo: its last word is that name's last word as printed, it has as many
/// words, and at most one letter in [`FAR_MISREAD_LETTERS_PER_EDIT`] differs
/// (`Ethyher Methoxycinnamate` for `Ethylhexyl Methoxycinnamate`). The recogniser reads the
/// long last word of an INCI name well and drops letters of the short first ones.
fn far_misread(kb: &KnowledgeBase, part: &str) -> bool {
    let folded = fold(part);
    let words = folded.split_whitespace().count();
    let Some(last) = folded.split_whitespace().next_back() else {
        return false;
    };
    if words < FAR_MISREAD_LEAST_WORDS || last.chars().count() < FAR_MISREAD_LEAST_LAST_LETTERS {
        return false;
    }
    let letters: Vec<char> = folded.chars().collect();
    kb.ingredients()
        .iter()
        .flat_map(|i| std::iter::once(&i.name).chain(&i.synonyms))
        .filter(|name| {
            name.rsplit(' ')
                .next()
                .is_some_and(|w| w.eq_ignore_ascii_case(last))
        })
        .any(|name| {
            let name = fold(name);
            if name.split_whitespace().next_back() != Some(last)
                || name.split_whitespace().count() != words
            {
                return false;
            }
            let name: Vec<char> = name.chars().collect();
            let edits = name.len().max(letters.len()) / FAR_MISREAD_LETTERS_PER_EDIT;
            bounded_distance(&name, &letters, edits).is_some()
        })
}

/// Letters of a name for each one a far misread may differ in ([`far_misread`]).
const FAR_MISREAD_LETTERS_PER_EDIT: usize = 5;

/// Least letters of the last word of a far misread ([`far_misread`]): a long, distinctive word.
const FAR_MISREAD_LEAST_LAST_LETTERS: usize = 7;

/// Two names read as one item where a line ended without its comma (`Trethanolamine` at the end
/// of a line, `Toopherol` opening the next: a tube's edge or small print took the comma): the
/// item, which the knowledge base does not resolve whole, is cut where one recognised line
/// ends and another starts, when both parts are names it resolves (as printed or as a typo,
/// not by a head noun alone) and exactly one such cut exists. An item broken across lines
/// inside one name (`Helianthus Annuus (Sunflower)` / `Seed Oil`) resolves whole and stays.
pub fn split_at_line_end(
    kb: &KnowledgeBase,
    item: &str,
    lines: &[TextLine],
) -> Option<Vec<String>> {
    let named = |name: &str| {
        name.chars().filter(|c| c.is_alphabetic()).count() >= 3
            && kb.resolve(name).is_some_and(|r| r.kind != MatchKind::Head)
    };
    let words: Vec<&str> = item.split_whitespace().collect();
    if words.len() < 2 || item.contains(['(', ')', '[', ']', ':']) || named(item) {
        return None;
    }
    let ends_line = |word: &str| lines.iter().any(|l| l.text.trim_end().ends_with(word));
    let starts_line = |word: &str| lines.iter().any(|l| l.text.trim_start().starts_with(word));
    let mut cuts = (1..words.len()).filter(|&k| {
        ends_line(words[k - 1])
            && starts_line(words[k])
            && named(&words[..k].join(" "))
            && named(&words[k..].join(" "))
    });
    let k = cuts.next()?;
    cuts.next()
        .is_none()
        .then(|| vec![words[..k].join(" "), words[k..].join(" ")])
}

/// Most words of an item looked at for names read together ([`split_run_together`]).
const RUN_TOGETHER_MOST_WORDS: usize = 8;

/// Least probability of the recogniser's runner-up for a character for it to be tried in its
/// place ([`mend_by_runner_up`]).
pub const RUNNER_UP: f32 = 0.1;

/// Most characters of an item tried with their runner-up (the likeliest ones).
const MOST_TRIED: usize = 6;

/// The item with one or two characters taken as the recogniser's runner-up for them (each
/// with at least [`RUNNER_UP`] of probability), when that makes it a name of exactly one
/// entry of the knowledge base: `Glycerln` whose `l` the recogniser nearly read `i` becomes
/// `Glycerin`. One change is preferred to two; two entries reached with as many changes
/// leave the item as printed, and so does an item no runner-up makes a known name (nothing
/// the recogniser did not see is invented). Works in every script: the runner-up of a
/// Japanese character is a character too.
///
/// An item the knowledge base does not know whole, of several words, whose first word of
/// [`FIRST_WORD_LEAST_LETTERS`] letters or more is no name it knows, has that first word
/// mended the same way (`Sutter eingesotten aus …` whose `S` was nearly a `B`: the food's
/// name, then how it was made, as `domain::ocr::label::names_known` reads an item).
pub fn mend_by_runner_up(kb: &KnowledgeBase, item: &str, lines: &[TextLine]) -> Option<String> {
    if item.chars().any(|c| c.is_ascii_digit()) || kb.lookup(item).is_some() {
        return None;
    }
    let chars: Vec<char> = item.chars().collect();
    let choices = item_choices(item, lines);
    if let Some(whole) = runner_up_name(kb, &chars, &choices) {
        return Some(whole);
    }
    let first = item.split(' ').next().unwrap_or(item);
    let n = first.chars().count();
    if n == chars.len()
        || n < FIRST_WORD_LEAST_LETTERS
        || !first.chars().all(char::is_alphabetic)
        || kb.lookup(first).is_some()
    {
        return None;
    }
    let mended = runner_up_name(kb, &chars[..n], &choices[..n])?;
    Some(format!("{mended}{}", &item[first.len()..]))
}

/// Least letters of an item's first word mended alone ([`mend_by_runner_up`]).
const FIRST_WORD_LEAST_LETTERS: usize = 4;

/// `chars` with one or two of them taken as their runner-up ([`mend_by_runner_up`]), when that
/// makes a name of exactly one entry.
fn runner_up_name(
    kb: &KnowledgeBase,
    chars: &[char],
    choices: &[Option<super::CharChoice>],
) -> Option<String> {
    let mut tried: Vec<(usize, char, f32)> = choices
        .iter()
        .enumerate()
        .filter_map(|(i, choice)| {
            let choice = (*choice)?;
            (choice.second_p >= RUNNER_UP
                && choice.second.is_alphabetic()
                && choice.second != chars[i])
                .then_some((i, choice.second, choice.second_p))
        })
        .collect();
    tried.sort_by(|a, b| b.2.total_cmp(&a.2));
    tried.truncate(MOST_TRIED);
    let variant = |changes: &[&(usize, char, f32)]| {
        let mut v = chars.to_vec();
        for &&(i, c, _) in changes {
            v[i] = if chars[i].is_uppercase() {
                c.to_uppercase().next().unwrap_or(c)
            } else {
                c
            };
        }
        v.into_iter().collect::<String>()
    };
    let singles: Vec<Vec<&(usize, char, f32)>> = tried.iter().map(|t| vec![t]).collect();
    let pairs: Vec<Vec<&(usize, char, f32)>> = tried
        .iter()
        .enumerate()
        .flat_map(|(k, a)| tried[k + 1..].iter().map(move |b| vec![a, b]))
        .filter(|pair| pair[0].0 != pair[1].0)
        .collect();
    for changes in [singles, pairs] {
        let mut reached: Vec<(usize, String)> = changes
            .iter()
            .filter_map(|change| {
                let v = variant(change);
                kb.resolve_exact(&v).map(|r| (r.index, v))
            })
            .collect();
        reached.sort();
        reached.dedup_by_key(|(index, _)| *index);
        match reached.len() {
            0 => continue,
            1 => return reached.pop().map(|(_, v)| v),
            _ => return None,
        }
    }
    None
}

/// The recogniser's choices for each character of `item` (`None` where not known): each word
/// of three characters or more is found in a line read and takes that line's choices.
fn item_choices(item: &str, lines: &[TextLine]) -> Vec<Option<super::CharChoice>> {
    let mut out = vec![None; item.chars().count()];
    let mut at = 0;
    for word in item.split(' ') {
        let n = word.chars().count();
        if n >= 3 {
            let found = lines.iter().find_map(|line| {
                if line.choices.len() != line.text.chars().count() {
                    return None;
                }
                let byte = line.text.find(word)?;
                let start = line.text[..byte].chars().count();
                line.choices.get(start..start + n)
            });
            if let Some(found) = found {
                for (k, choice) in found.iter().enumerate() {
                    out[at + k] = Some(*choice);
                }
            }
        }
        at += n + 1;
    }
    out
}

/// The lowest confidence of the lines the item's words were read on (1.0 when none is found:
/// then nothing is changed).
fn confidence_of(item: &str, lines: &[TextLine]) -> f32 {
    let words: Vec<&str> = item.split_whitespace().collect();
    lines
        .iter()
        .filter(|l| words.iter().any(|w| w.len() >= 3 && l.text.contains(w)))
        .map(|l| l.confidence)
        .fold(1.0, f32::min)
}

/// The knowledge-base spelling of one item, when it is an unsure near miss of one name.
pub fn mend_item(
    kb: &KnowledgeBase,
    item: &str,
    confidence: f32,
    language: Option<Language>,
) -> Option<String> {
    if confidence >= SURE
        || item
            .chars()
            .any(|c| c.is_ascii_digit() || "()[]".contains(c))
    {
        return None;
    }
    if kb.lookup(item).is_some() {
        return None;
    }
    let resolved = kb.resolve(item)?;
    if resolved.kind != MatchKind::Typo {
        return None;
    }
    let key: Vec<char> = fold(item).chars().collect();
    let translated = language
        .and_then(|l| resolved.ingredient.names.get(l.code()))
        .into_iter()
        .flat_map(|names| names.iter());
    let (distance, best) = resolved
        .ingredient
        .primary_names()
        .chain(translated)
        .filter_map(|name| {
            let folded: Vec<char> = fold(name).chars().collect();
            bounded_distance(&key, &folded, max_edits(key.len())).map(|d| (d, name))
        })
        .min_by_key(|(d, _)| *d)?;
    (distance > 0).then(|| match_case(item, best))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unsure_near_miss_of_one_known_name_is_mended() {
        let kb = KnowledgeBase::embedded();
        assert_eq!(
            mend_item(kb, "SOOUM LAURETH SULFATE", 0.80, Some(Language::English)).as_deref(),
            Some("SODIUM LAURETH SULFATE")
        );
        assert_eq!(
            mend_item(kb, "Glycerln", 0.85, Some(Language::English)).as_deref(),
            Some("Glycerin")
        );
    }

    #[test]
    fn items_read_together_without_their_comma_are_split_between_two_known_names() {
        let kb = KnowledgeBase::embedded();
        let split = |item: &str| split_run_together(kb, item);
        // A sunscreen's list in small print, commas the recogniser did not read (its
        // typos are mended after the cut).
        assert_eq!(
            split("Trethanolamine Toopherol").as_deref(),
            None,
            "two words: read as printed"
        );
        assert_eq!(
            split("Trethanolamine Toopherol Dimethicone").as_deref(),
            Some(
                &[
                    "Trethanolamine".to_owned(),
                    "Toopherol".to_owned(),
                    "Dimethicone".to_owned()
                ][..]
            )
        );
        assert_eq!(
            split("Glycerin Sodium Chloride").as_deref(),
            Some(&["Glycerin".to_owned(), "Sodium Chloride".to_owned()][..])
        );
        // A name misread further than a typo beside a known one: its last word read whole.
        assert_eq!(
            split("C12-15 Alky Benzoate Ethyher Methoxycinnamate").as_deref(),
            Some(
                &[
                    "C12-15 Alky Benzoate".to_owned(),
                    "Ethyher Methoxycinnamate".to_owned()
                ][..]
            )
        );
        // Its last word misread too, or no known name beside it: as read.
        for item in [
            "C12-15 Alky Benzoate Ethyher Methoxycinamte",
            "Ethyhexy Trazon Dicapry Carbonate",
            "Helianthus Annuus Hybrid Oil",
        ] {
            assert_eq!(split(item), None, "{item}");
        }
        // Names the knowledge base knows whole, unknown names, a part it does not know, or
        // brackets: as read.
        for item in [
            "Aloe Barbadensis Leaf Juice Powder",
            "Sodium Laureth Sulfate",
            "Zorblax Moonpetal Frobnicate",
            "Caton BHT Quandrel",
            "Sojasauce (Wasser, Sojabohnen) Zucker",
        ] {
            assert_eq!(split(item), None, "{item}");
        }
    }

    #[test]
    fn two_names_where_a_line_ended_without_its_comma_are_cut_there() {
        let kb = KnowledgeBase::embedded();
        let lines = [
            read_as("Dicapry Carbonate, Cetyl Phosphate, Trethanolamine", &[]),
            read_as("Toopherol, Dimthicone, Cetyl Acohol", &[]),
        ];
        assert_eq!(
            split_at_line_end(kb, "Trethanolamine Toopherol", &lines).as_deref(),
            Some(&["Trethanolamine".to_owned(), "Toopherol".to_owned()][..])
        );
        // Not where no line ends: one line, as read.
        let one = [read_as(
            "Phosphate, Trethanolamine Toopherol, Dimthicone",
            &[],
        )];
        assert_eq!(
            split_at_line_end(kb, "Trethanolamine Toopherol", &one),
            None
        );
        // A name broken across two lines resolves whole, and an unknown part is no name.
        let lines = [
            read_as("Cetyl Phosphate, Sodium", &[]),
            read_as("Chloride, Aqua", &[]),
        ];
        assert_eq!(split_at_line_end(kb, "Sodium Chloride", &lines), None);
        let lines = [read_as("Lecithin, Caton", &[]), read_as("BHT, Aloe", &[])];
        assert_eq!(split_at_line_end(kb, "Caton BHT", &lines), None);
    }

    #[test]
    fn a_sure_reading_or_a_known_name_stays_as_printed() {
        let kb = KnowledgeBase::embedded();
        // The recogniser was sure: printed that way.
        assert_eq!(
            mend_item(kb, "SOOUM LAURETH SULFATE", 0.99, Some(Language::English)),
            None
        );
        assert_eq!(
            mend_item(kb, "Glycerin", 0.5, Some(Language::English)),
            None
        );
    }

    #[test]
    fn names_the_knowledge_base_does_not_know_stay_as_printed() {
        let kb = KnowledgeBase::embedded();
        for unknown in [
            "Zorblax extract",
            "Quintessence of Moonpetal",
            "Frobnicated starch blend",
            "Hydrolyzed Unobtainium",
        ] {
            assert_eq!(
                mend_item(kb, unknown, 0.5, Some(Language::English)),
                None,
                "{unknown}"
            );
        }
    }

    #[test]
    fn an_items_confidence_is_that_of_its_least_sure_line() {
        use crate::ocr::ppocr::geometry::RotatedRect;
        let rect = RotatedRect {
            cx: 0.0,
            cy: 0.0,
            width: 1.0,
            height: 1.0,
            axis: (1.0, 0.0),
        };
        let line = |text: &str, confidence| TextLine {
            rect,
            text: text.into(),
            confidence,
            choices: Vec::new(),
        };
        let lines = [
            line("Aqua, SOOUM LAURETH", 0.8),
            line("SULFATE, Glycerin", 0.99),
        ];
        assert_eq!(confidence_of("SOOUM LAURETH SULFATE", &lines), 0.8);
        assert_eq!(confidence_of("Glycerin", &lines), 0.99);
        assert_eq!(confidence_of("Parfum", &lines), 1.0);
    }

    /// A line read as `text`, each character sure (0.95) but for `runner_ups`: (character
    /// index, runner-up, its probability).
    fn read_as(text: &str, runner_ups: &[(usize, char, f32)]) -> TextLine {
        use crate::ocr::ppocr::CharChoice;
        use crate::ocr::ppocr::geometry::RotatedRect;
        let mut choices: Vec<CharChoice> = text
            .chars()
            .map(|_| CharChoice {
                p: 0.95,
                second: 'x',
                second_p: 0.01,
            })
            .collect();
        for &(i, second, second_p) in runner_ups {
            choices[i] = CharChoice {
                p: 1.0 - second_p,
                second,
                second_p,
            };
        }
        TextLine {
            rect: RotatedRect {
                cx: 0.0,
                cy: 0.0,
                width: 1.0,
                height: 1.0,
                axis: (1.0, 0.0),
            },
            text: text.into(),
            confidence: 0.95,
            choices,
        }
    }

    #[test]
    fn a_character_read_in_place_of_its_runner_up_is_mended_to_one_known_name() {
        let kb = KnowledgeBase::embedded();
        let lines = [read_as("Aqua, Glycerln, Parfum", &[(12, 'i', 0.3)])];
        assert_eq!(
            mend_by_runner_up(kb, "Glycerln", &lines).as_deref(),
            Some("Glycerin")
        );
        // Two runner-ups needed, on a line of another language.
        let lines = [read_as(
            "Zutaten: Zocksr, Salz",
            &[(10, 'u', 0.2), (13, 'e', 0.4)],
        )];
        assert_eq!(
            mend_by_runner_up(kb, "Zocksr", &lines).as_deref(),
            Some("Zucker")
        );
        // The whole item is mended, word by word, in place.
        let lines = [read_as("Sodium Chlorlde, Aqua", &[(12, 'i', 0.25)])];
        assert_eq!(
            mend_by_runner_up(kb, "Sodium Chlorlde", &lines).as_deref(),
            Some("Sodium Chloride")
        );
    }

    #[test]
    fn the_first_word_of_an_item_with_qualifiers_is_mended_to_one_known_name() {
        let kb = KnowledgeBase::embedded();
        // A single item after its header: the food's name, then how it was made.
        let lines = [read_as(
            "Zutaten: Sutter eingesotten aus pasteurisiertem Rahm",
            &[(9, 'B', 0.3)],
        )];
        assert_eq!(
            mend_by_runner_up(kb, "Sutter eingesotten aus pasteurisiertem Rahm", &lines).as_deref(),
            Some("Butter eingesotten aus pasteurisiertem Rahm")
        );
        // A known first word, a short one, or one no runner-up makes a name: as printed.
        let lines = [read_as(
            "Salz jodiert, Reis gekocht",
            &[(0, 'M', 0.4), (14, 'M', 0.4)],
        )];
        assert_eq!(mend_by_runner_up(kb, "Salz jodiert", &lines), None);
        assert_eq!(mend_by_runner_up(kb, "Reis gekocht", &lines), None);
        let lines = [read_as("Zorblax geröstet", &[(0, 'B', 0.4)])];
        assert_eq!(mend_by_runner_up(kb, "Zorblax geröstet", &lines), None);
        // The runner-up too unlikely: nothing the recogniser did not see.
        let lines = [read_as("Sutter eingesotten", &[(0, 'B', 0.05)])];
        assert_eq!(mend_by_runner_up(kb, "Sutter eingesotten", &lines), None);
    }

    #[test]
    fn without_a_likely_runner_up_to_one_name_the_item_stays_as_printed() {
        let kb = KnowledgeBase::embedded();
        // A runner-up the recogniser gave little weight.
        let lines = [read_as("Aqua, Glycerln", &[(12, 'i', 0.05)])];
        assert_eq!(mend_by_runner_up(kb, "Glycerln", &lines), None);
        // Runner-ups that make no known name: nothing is invented.
        let lines = [read_as(
            "Zorblax, Moonpetal",
            &[(1, 'a', 0.4), (9, 'N', 0.4)],
        )];
        assert_eq!(mend_by_runner_up(kb, "Zorblax", &lines), None);
        assert_eq!(mend_by_runner_up(kb, "Moonpetal", &lines), None);
        // A known name stays, whatever its runner-ups.
        let lines = [read_as("Salt, Sugar", &[(0, 'M', 0.45)])];
        assert_eq!(mend_by_runner_up(kb, "Salt", &lines), None);
        // Two known names within one change: ambiguous, as printed.
        let lines = [read_as("Mice", &[(0, 'R', 0.3), (1, 'a', 0.3)])];
        assert!(kb.lookup("rice").is_some() && kb.lookup("mace").is_some());
        assert_eq!(mend_by_runner_up(kb, "Mice", &lines), None);
        // No choices known (a line the layout made up): nothing changes.
        let mut bare = read_as("Glycerln", &[(6, 'i', 0.3)]);
        bare.choices.clear();
        assert_eq!(mend_by_runner_up(kb, "Glycerln", &[bare]), None);
    }
}
