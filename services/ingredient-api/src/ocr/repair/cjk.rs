//! Mending single-character misreads in Korean, Japanese and Chinese items through the
//! knowledge base's names of that language and the function classes (`乳化剂`, `膨張剤`,
//! `팽창제`: `domain::language::classes`).
//!
//! OCR engines misread one character of a CJK name now and then (`棕榈油` → `棕桐油`, `팜유` →
//! `팡유`). The knowledge base's fuzzy matching refuses CJK names (one character is a whole
//! syllable or morpheme there), so this pass is deliberately narrower:
//!
//! - it works on runs of CJK characters (a name, the head before a bracket, each part inside
//!   it) and never touches a run the knowledge base already knows;
//! - a run one substitution away (same length, one character different) from a known name
//!   of the label's language through a pair of characters the reading engine was measured to
//!   confuse (the engine's table, e.g. `tesseract::repair::CJK_CONFUSABLE`) takes that name,
//!   when exactly one name is reached that way;
//! - otherwise a run of three or more characters takes the name only when it is the **only**
//!   name one substitution away, and, when that is its last character (the head of a
//!   compound), only if the character read there ends no known name (`クエン本` → `クエン酸`,
//!   but `麦芽糖浆`, syrup, must not become `麦芽糖醇`, maltitol); two-character runs
//!   never do, because a two-character name with one character changed is too often another
//!   real word (`팡유` is one character from both `팜유` and `우유`; only the first is a
//!   measured confusion).
//!
//! A doubled character (`ヘヘーゼルナッツ`), one dropped character in Hangul runs of three or
//! more (`헤이즐` for `헤이즐넛`, the only name it can come from) and one stray character in a
//! run of six or more (`上炭酸水素アンモニウム`) are mended the same way. Function class names
//! count as known names of the language whose script they are written in (Hangul: Korean; with
//! kana: Japanese; Han alone: Chinese and Japanese).
//!
//! Names the knowledge base does not know and that are not one misread away from a known one
//! stay as printed (tests below).

use std::collections::BTreeSet;

use domain::knowledge::KnowledgeBase;
use domain::language::classes::FunctionClasses;
use domain::language::english::LabelEnglish;
use domain::ocr::label::Language;
use domain::text::script::{is_cjk, is_han, is_hangul, is_kana};

/// Shortest run from which one stray character is dropped.
const MIN_EXTRA_LENGTH: usize = 6;

/// Shortest run considered for a one-character mend without a pair of the confusion table.
const MIN_FREE_LENGTH: usize = 3;

/// `item` with every CJK run that is one misread away from exactly one known name of
/// `language` replaced by that name (`confusable`: the character pairs the engine that read
/// it was measured to confuse, in either direction); `None` when nothing changed (or the
/// language is not CJK, or the whole item is known).
pub fn mend(
    kb: &KnowledgeBase,
    item: &str,
    language: Language,
    confusable: &[(char, char)],
) -> Option<String> {
    if !language.is_cjk() || kb.lookup(item).is_some() {
        return None;
    }
    let shared = bare_share_as_percent(item);
    let item = shared.as_deref().unwrap_or(item);
    let names = Names::of(kb, language, confusable);
    let mut out = String::with_capacity(item.len());
    let mut run = String::new();
    let mut changed = false;
    let mut flush = |run: &mut String, out: &mut String| {
        if let Some(name) = names.mend_run(kb, run) {
            out.push_str(&name);
            changed = true;
        } else {
            out.push_str(run);
        }
        run.clear();
    };
    for c in item.chars() {
        if is_cjk(c) {
            run.push(c);
        } else {
            flush(&mut run, &mut out);
            out.push(c);
        }
    }
    flush(&mut run, &mut out);
    (changed || shared.is_some()).then_some(out)
}

/// `ヘーゼルナッツ(12.5)`: a bracket holding only a decimal number of at most 100 right after
/// a CJK name is a share whose per cent sign was lost (the full-width `％` is the mark these
/// labels print after a figure; measured: dropped on ja-chocolate coloured). Whole numbers
/// (`(2)`) are left alone.
fn bare_share_as_percent(item: &str) -> Option<String> {
    let open = item.find('(')?;
    let close = open + item[open..].find(')')?;
    let inner = item[open + 1..close].trim();
    let before = item[..open].trim_end().chars().next_back()?;
    let decimal = inner.split_once('.').is_some_and(|(whole, fraction)| {
        !whole.is_empty()
            && !fraction.is_empty()
            && whole
                .chars()
                .chain(fraction.chars())
                .all(|c| c.is_ascii_digit())
    });
    let share = inner.parse::<f64>().is_ok_and(|v| v <= 100.0);
    (is_cjk(before) && before.is_alphabetic() && decimal && share)
        .then(|| format!("{}({inner}%){}", &item[..open], &item[close + 1..]))
}

/// Whether `item` (or its name before a bracket) is a knowledge-base name or a function
/// class name of `language` (`膨松剂(碳酸氢钠, 碳酸氢铵)` is: a class name and its members).
pub fn is_known(kb: &KnowledgeBase, item: &str, language: Language) -> bool {
    let head = item.split('(').next().unwrap_or(item).trim();
    kb.lookup(item).is_some()
        || kb.lookup(head).is_some()
        || class_names(language).any(|name| name == head)
}

/// The function class names written in `language`'s script (Hangul for Korean; kana, or Han
/// alone, for Japanese; Han alone for Chinese): no CJK class is written in two scripts.
fn class_names(language: Language) -> impl Iterator<Item = &'static str> {
    FunctionClasses::get()
        .names()
        .filter(move |name| written_in(name, language))
}

/// Whether a CJK name is written in the script of `language` (see [`class_names`]).
fn written_in(name: &str, language: Language) -> bool {
    let hangul = name.chars().any(is_hangul);
    let kana = name.chars().any(is_kana);
    let han = name.chars().any(is_han);
    match language {
        Language::Korean => hangul,
        Language::Japanese => !hangul && (kana || han),
        Language::Chinese => !hangul && !kana && han,
        _ => false,
    }
}

/// The knowledge base's names of one language and its function class names, as characters,
/// with the confusion table of the engine that read the item.
struct Names<'t> {
    names: Vec<Vec<char>>,
    classes: BTreeSet<&'static str>,
    /// The last characters of the names: heads of compounds (`油`, `粉`, `浆`, `酸`).
    finals: BTreeSet<char>,
    confusable: &'t [(char, char)],
    /// The label language: a word the English tables know in it (an origin such as `호주산`,
    /// a label name) is no misread.
    language: Language,
}

impl<'t> Names<'t> {
    fn of(kb: &KnowledgeBase, language: Language, confusable: &'t [(char, char)]) -> Self {
        let classes: BTreeSet<&'static str> = class_names(language).collect();
        let distinct: BTreeSet<&str> = kb
            .names_in(language.code())
            .chain(classes.iter().copied())
            .collect();
        let names: Vec<Vec<char>> = distinct.into_iter().map(|n| n.chars().collect()).collect();
        Self {
            finals: names.iter().filter_map(|n| n.last().copied()).collect(),
            names,
            classes,
            confusable,
            language,
        }
    }

    fn known(&self, kb: &KnowledgeBase, run: &str) -> bool {
        self.classes.contains(run)
            || kb.lookup(run).is_some()
            || LabelEnglish::get().knows(self.language, run)
    }

    /// The one known name `run` is a single misread of, if there is exactly one: a doubled
    /// character (`ヘヘーゼルナッツ`), one substituted character, or (runs of three or more)
    /// one dropped character (`헤이즐` for `헤이즐넛`).
    fn mend_run(&self, kb: &KnowledgeBase, run: &str) -> Option<String> {
        let chars: Vec<char> = run.chars().collect();
        if chars.len() < 2 || self.known(kb, run) {
            return None;
        }
        // Tesseract reads one character twice now and then.
        for i in 1..chars.len() {
            if chars[i] == chars[i - 1] && chars.len() > MIN_FREE_LENGTH {
                let single: String = chars[..i].iter().chain(&chars[i + 1..]).collect();
                if self.known(kb, &single) {
                    return Some(single);
                }
            }
        }
        let mut candidates: Vec<(&[char], (char, char), bool)> = Vec::new();
        for name in &self.names {
            if name.len() != chars.len() {
                continue;
            }
            let mut differences = chars
                .iter()
                .zip(name)
                .enumerate()
                .filter(|(_, (a, b))| a != b);
            if let (Some((at, (&read, &known))), None) = (differences.next(), differences.next()) {
                candidates.push((name, (read, known), at + 1 == chars.len()));
            }
        }
        // A measured confusion wins; otherwise only a lone candidate of a long enough run.
        // Its last character is the head of a compound: when the character read there ends
        // known names too, the run is more likely another real product than a misread
        // (`麦芽糖浆`, syrup, is one character from `麦芽糖醇`, and `…浆` ends many known
        // names), so it stays; `クエン本` (no known name ends in `本`) becomes `クエン酸`.
        let mut confused = candidates
            .iter()
            .filter(|(_, pair, _)| confused_pair(self.confusable, *pair));
        let free = |&(_, (read, _), last): &(&[char], (char, char), bool)| {
            !last || !self.finals.contains(&read)
        };
        let chosen = match (confused.next(), confused.next(), candidates.as_slice()) {
            (Some(one), None, _) => Some(one.0),
            (Some(_), Some(_), _) => None,
            (None, _, [only]) if chars.len() >= MIN_FREE_LENGTH && free(only) => Some(only.0),
            (None, _, []) if chars.len() >= MIN_FREE_LENGTH => match self.one_dropped(&chars) {
                // Several names one character longer: ambiguous, leave it.
                Some(None) => return None,
                Some(Some(name)) => Some(name),
                None => return self.one_extra(kb, &chars),
            },
            (None, _, _) => None,
        };
        chosen.map(|name| name.iter().collect())
    }

    /// A long run with one stray character (`上炭酸水素アンモニウム`): the lone known name left
    /// when one character is removed. Only from six characters on, where a known name plus
    /// one character is hardly another real name.
    fn one_extra(&self, kb: &KnowledgeBase, chars: &[char]) -> Option<String> {
        if chars.len() < MIN_EXTRA_LENGTH {
            return None;
        }
        let found: BTreeSet<String> = (0..chars.len())
            .map(|skip| chars[..skip].iter().chain(&chars[skip + 1..]).collect())
            .filter(|shorter: &String| self.known(kb, shorter))
            .collect();
        let mut found = found.into_iter();
        match (found.next(), found.next()) {
            (Some(one), None) => Some(one),
            _ => None,
        }
    }

    /// The lone name `chars` is with one character missing: `Some(None)` when several are.
    ///
    /// Hangul only: a Han or kana run with one character fewer is too often a real, shorter
    /// name (`麦芽糖`, maltose, is `麦芽糖醇`, maltitol, without its last character).
    fn one_dropped(&self, chars: &[char]) -> Option<Option<&[char]>> {
        if !chars.iter().all(|&c| is_hangul(c)) {
            return None;
        }
        let mut found = self.names.iter().filter(|name| {
            name.len() == chars.len() + 1
                && (0..name.len())
                    .any(|skip| name[..skip] == chars[..skip] && name[skip + 1..] == chars[skip..])
        });
        match (found.next(), found.next()) {
            (Some(one), None) => Some(Some(one.as_slice())),
            (Some(_), Some(_)) => Some(None),
            (None, _) => None,
        }
    }
}

fn confused_pair(table: &[(char, char)], (a, b): (char, char)) -> bool {
    table
        .iter()
        .any(|&(x, y)| (x, y) == (a, b) || (y, x) == (a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pairs an engine confuses, as an engine's repair passes them (these are among those
    /// measured on Tesseract's CJK models, `tesseract::repair::CJK_CONFUSABLE`).
    const CJK_CONFUSABLE: &[(char, char)] =
        &[('榈', '桐'), ('榛', '杰'), ('浆', '奖'), ('팜', '팡')];

    fn mended(item: &str, language: Language) -> String {
        mend(KnowledgeBase::embedded(), item, language, CJK_CONFUSABLE)
            .unwrap_or_else(|| item.to_owned())
    }

    #[test]
    fn origins_and_label_names_are_no_misreads() {
        // 호주산 (Australian) is one character from 호박산 (succinic acid): an origin the
        // translation knows stays as printed, and so does a label name such as 들기름.
        assert_eq!(
            mended("소맥분(밀:호주산,미국산)", Language::Korean),
            "소맥분(밀:호주산,미국산)"
        );
        assert_eq!(mended("들기름", Language::Korean), "들기름");
    }

    #[test]
    fn one_misread_character_takes_the_known_name() {
        assert_eq!(mended("棕桐油", Language::Chinese), "棕榈油");
        assert_eq!(mended("팡유", Language::Korean), "팜유");
        // 麦芽糖奖 is one character from 麦芽糖浆 (syrup) and 麦芽糖醇 (maltitol); the
        // measured pair 浆/奖 picks the syrup.
        assert_eq!(mended("麦芽糖奖", Language::Chinese), "麦芽糖浆");
        // Names added for the synthetic labels' misreads (docs/ocr.md).
        assert_eq!(mended("向日荃籽油", Language::Chinese), "向日葵籽油");
        assert_eq!(mended("토코페폴", Language::Korean), "토코페롤");
    }

    #[test]
    fn doubled_and_dropped_characters_and_class_names_are_mended() {
        assert_eq!(
            mended("ヘヘーゼルナッツ", Language::Japanese),
            "ヘーゼルナッツ"
        );
        assert_eq!(mended("헤이즐", Language::Korean), "헤이즐넛");
        assert_eq!(
            mended("孔化剤（大豆レシチン）", Language::Japanese),
            "乳化剤（大豆レシチン）"
        );
        assert_eq!(mended("膛松剂", Language::Chinese), "膨松剂");
        assert_eq!(
            mended(
                "膨張剤（炭酸水素ナトリウム、上炭酸水素アンモニウム）",
                Language::Japanese
            ),
            "膨張剤（炭酸水素ナトリウム、炭酸水素アンモニウム）"
        );
        assert_eq!(mended("クエン本", Language::Japanese), "クエン酸");
        // A doubled character that is printed so stays: ココア is a known name.
        assert_eq!(mended("ココア", Language::Japanese), "ココア");
    }

    #[test]
    fn runs_inside_brackets_are_mended_and_the_rest_kept() {
        assert_eq!(
            mended("乳化剂（大豆磷脂、棕桐油）", Language::Chinese),
            "乳化剂（大豆磷脂、棕榈油）"
        );
        // 碳酸氢铆 is one character from 碳酸氢铵, 碳酸氢钠 and 碳酸氢钾: left alone.
        assert_eq!(
            mended("膨松剂（碳酸氢钠、碳酸氢铆）", Language::Chinese),
            "膨松剂（碳酸氢钠、碳酸氢铆）"
        );
    }

    #[test]
    fn a_share_that_lost_its_per_cent_sign_gets_it_back() {
        assert_eq!(
            mended("ヘーゼルナッツ (12.5)", Language::Japanese),
            "ヘーゼルナッツ (12.5%)"
        );
        assert_eq!(mended("杰子(12.5)", Language::Chinese), "榛子(12.5%)");
        // Whole numbers, figures over 100 and words stay.
        for item in ["砂糖(2)", "砂糖(150.5)", "砂糖(国産)"] {
            assert_eq!(
                mend(
                    KnowledgeBase::embedded(),
                    item,
                    Language::Japanese,
                    CJK_CONFUSABLE
                ),
                None
            );
        }
    }

    #[test]
    fn known_items_are_names_or_class_names_before_a_bracket() {
        let kb = KnowledgeBase::embedded();
        assert!(is_known(kb, "棕榈油", Language::Chinese));
        assert!(is_known(
            kb,
            "膨松剂(碳酸氢钠, 碳酸氢铵)",
            Language::Chinese
        ));
        assert!(!is_known(kb, "鱼旱硬脂醇", Language::Chinese));
        assert!(!is_known(kb, "膨松剂", Language::Korean));
    }

    #[test]
    fn known_names_and_other_languages_are_untouched() {
        let kb = KnowledgeBase::embedded();
        assert_eq!(mend(kb, "棕榈油", Language::Chinese, CJK_CONFUSABLE), None);
        assert_eq!(mend(kb, "Aicool", Language::French, CJK_CONFUSABLE), None);
    }

    #[test]
    fn unknown_names_stay_as_printed() {
        // Not a knowledge-base name, nor one character away from exactly one.
        for (item, language) in [
            ("魔法粉末", Language::Chinese),
            ("龙须糖", Language::Chinese),
            ("ゆず皮", Language::Japanese),
            ("도라지청", Language::Korean),
            // A (now known) name one character from another known one, in its head (syrup,
            // not maltitol), and a real name that is a known one without its last character.
            ("麦芽糖浆", Language::Chinese),
            ("麦芽糖", Language::Chinese),
            // Two known names make one unknown compound: not split.
            ("大豆磷脂", Language::Chinese),
            // Long unknown names are not cut into known ones.
            ("天然ゆず果汁パウダー", Language::Japanese),
            ("제주감귤농축액", Language::Korean),
            ("云南野生菌提取物", Language::Chinese),
            // Two characters, one away from known names, but no measured confusion.
            ("米油", Language::Chinese),
        ] {
            assert_eq!(
                mend(KnowledgeBase::embedded(), item, language, CJK_CONFUSABLE),
                None,
                "{item}"
            );
        }
    }

    #[test]
    fn two_candidates_leave_the_run_alone() {
        let kb = KnowledgeBase::embedded();
        let names = Names::of(kb, Language::Chinese, CJK_CONFUSABLE);
        // 棕榈X油 style: find a run one substitution from two names and check it stays.
        let ambiguous = ambiguous_run(&names).expect("the zh names have near neighbours");
        assert_eq!(
            mend(kb, &ambiguous, Language::Chinese, CJK_CONFUSABLE),
            None,
            "{ambiguous}"
        );
    }

    /// A made-up run of three or more characters one substitution from two known names.
    fn ambiguous_run(names: &Names<'_>) -> Option<String> {
        for (i, a) in names.names.iter().enumerate() {
            for b in &names.names[i + 1..] {
                if a.len() != b.len() || a.len() < MIN_FREE_LENGTH {
                    continue;
                }
                let diff: Vec<usize> = (0..a.len()).filter(|&k| a[k] != b[k]).collect();
                if let [k] = diff[..] {
                    let mut run = a.clone();
                    run[k] = '㐀';
                    return Some(run.into_iter().collect());
                }
            }
        }
        None
    }
}
