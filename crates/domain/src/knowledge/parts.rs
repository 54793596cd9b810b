//! Reading a name no other step knows by its parts: its head noun, once the words that only
//! say how it is processed or presented are set aside ([`KnowledgeBase::resolve_by_head`]);
//! its German compound parts or CJK segments ([`KnowledgeBase::resolve_by_parts`]); several
//! names run together without commas ([`KnowledgeBase::split_run_together`]). The words set
//! aside are the label language's ([`crate::language::NameWords`]).

use super::lookup::{number_variants, words};
use super::{KnowledgeBase, MatchKind, Resolved};
use crate::text::fold::{fold, fold_keep_accents};
use crate::text::script::is_cjk;
use crate::vocabulary::ProductCategory;

impl KnowledgeBase {
    /// Resolves a name no other step knows by its parts: the words that only say how it is
    /// processed, cut or presented ("râpé", "moulu", "non dénoyautées", "flakes", "extra
    /// virgin") and the little words ("de", "of", "d'") are set aside, and the longest known
    /// run of the remaining words is its head: the first such run when the name is built
    /// like "farine de riz complet" (a preposition joins the words: Romance languages), the
    /// last one otherwise ("barley malt powder", "romano cheese"). All other words set aside
    /// as modifiers gives [`MatchKind::Qualifier`], any word not understood gives
    /// [`MatchKind::Head`]; more than two such words and the name is not read at all (a
    /// sentence is no ingredient). Exact names only, no typo steps.
    pub fn resolve_by_head(&self, name: &str) -> Option<Resolved<'_>> {
        let key = fold(name);
        let tokens: Vec<&str> = key.split(' ').filter(|t| !t.is_empty()).collect();
        if tokens.len() < 2 || tokens.len() > 12 || key.chars().any(is_cjk) {
            return None;
        }
        let words = words();
        let is_modifier = |t: &str| words.modifiers.contains(t);
        let is_little = |t: &str| words.little.contains(t);
        // A claim ("sans gluten", "gluten-free") names what the product lacks.
        if tokens.iter().any(|t| words.claims.contains(*t)) {
            return None;
        }
        let romance = tokens.iter().any(|t| words.prepositions.contains(*t));
        // Known runs: (start, end, entry), longest first at each start.
        let mut runs: Vec<Run<'_>> = Vec::new();
        for start in 0..tokens.len() {
            if is_little(tokens[start]) || is_modifier(tokens[start]) {
                continue;
            }
            for end in (start + 1..=tokens.len()).rev() {
                if is_little(tokens[end - 1]) {
                    continue;
                }
                let phrase = tokens[start..end].join(" ");
                let hit = self.lookup_folded(&phrase).or_else(|| {
                    number_variants(&phrase)
                        .iter()
                        .find_map(|v| self.lookup_folded(v))
                });
                if let Some(hit) = hit {
                    runs.push((start, end, hit));
                    break;
                }
            }
        }
        let form =
            |r: &(usize, usize, (u32, &[u32]))| r.1 - r.0 == 1 && words.forms.contains(tokens[r.0]);
        // Left to right, each word in one run: "coconut milk powder" is coconut milk and a
        // form, not "milk powder".
        let mut outer: Vec<&Run<'_>> = Vec::new();
        for r in &runs {
            if outer.last().is_none_or(|last| r.0 >= last.1) {
                outer.push(r);
            }
        }
        let pick = |skip_form: bool| {
            let mut candidates = outer.iter().filter(|r| !(skip_form && form(r)));
            if romance {
                candidates.next().copied()
            } else {
                candidates.next_back().copied()
            }
        };
        let &(start, end, hit) = pick(true).or_else(|| pick(false))?;
        let unknown = tokens
            .iter()
            .enumerate()
            .filter(|(i, t)| {
                // Words of another known run are understood (a complement: "au basilic").
                !outer.iter().any(|r| (r.0..r.1).contains(i))
                    && !is_little(t)
                    && !is_modifier(t)
                    && !words.forms.contains(**t)
                    // A percentage or weight left in the name ("0.05%").
                    && !t.bytes().all(|b| b.is_ascii_digit())
            })
            .count();
        if unknown > 2 {
            return None;
        }
        let kind = if unknown == 0 && outer.len() == 1 {
            MatchKind::Qualifier
        } else {
            MatchKind::Head
        };
        // The run with its accents tells "cacao" (cocoa) from "cação" (dogfish).
        let accented = fold_keep_accents(name);
        let accented: Vec<&str> = accented.split(' ').collect();
        let raw = if accented.len() == tokens.len() {
            accented[start..end].join(" ")
        } else {
            tokens[start..end].join(" ")
        };
        let hit = self.disambiguate(&tokens[start..end].join(" "), &raw, hit);
        let resolved = self.resolved(hit, kind);
        // INCI names are built from parts that change the substance ("Diacetone Alcohol",
        // "Butylphenyl Methylparaben"): a cosmetic head stands for the name only when the
        // words left over are numbers of its family ("PEG-40"), or when it is a preparation
        // named by its plant ("huile essentielle de rose").
        let named_by_words = tokens.iter().enumerate().any(|(i, t)| {
            !(start..end).contains(&i)
                && !is_little(t)
                && !is_modifier(t)
                && !t.bytes().all(|b| b.is_ascii_digit())
        });
        // A food additive is one substance: a word not understood beside it names another
        // ("hydrogen carbonate" is no hydrogen, "calcium monophosphate" no calcium).
        if unknown > 0 && resolved.ingredient.e_number.is_some() {
            return None;
        }
        if kind == MatchKind::Head
            && named_by_words
            && resolved.ingredient.category != ProductCategory::Food
            && !resolved.ingredient.named_by_plant
        {
            return None;
        }
        Some(resolved)
    }

    /// Resolves a name that is none of the knowledge base's names by splitting it against the
    /// lexicon, for the languages that write a name as one word:
    ///
    /// - German compounds: the longest known head at the end, the modifier before it known
    ///   too, with or without a linking element ("Haselnuss-s-", "-n-", "-en-", "-es-"):
    ///   "Vollkornweizenmehl" → Wheat Flour; when the end is only a form ("-masse",
    ///   "-pulver") the word before it is the head ("Haselnussmasse" → Hazelnut);
    /// - Chinese and Japanese, and Korean once its particles are set aside ("을", "의", ...):
    ///   segmented left to right by the longest known name, the last segment is the head
    ///   ("小麦胚芽" → germ of wheat: its head, with 小麦 for the allergen net).
    ///
    /// Any part not understood and the name is not read. A head found this way is
    /// [`MatchKind::Head`]: the modifiers are not in its facts (the allergen word net reads
    /// them).
    pub fn resolve_by_parts(&self, name: &str) -> Option<Resolved<'_>> {
        let key = fold(name);
        if key.is_empty() || key.contains(' ') && !key.chars().any(is_cjk) {
            return None;
        }
        let hit = if key.chars().any(is_cjk) {
            self.segment_cjk(&key)
        } else {
            self.split_compound(&key)
        }?;
        // A cosmetic head never stands for a longer INCI-like word.
        let resolved = self.resolved(hit, MatchKind::Head);
        (resolved.ingredient.category != ProductCategory::Cosmetics).then_some(resolved)
    }

    /// Splits a name that is several names run together without commas ("Limonene
    /// Linalool", "Tetrasodium EDTA Methylparaben": a label's line breaks lost, or OCR) into
    /// the fewest runs of words that each resolve ([`Self::resolve`]). `None` unless every
    /// word belongs to such a run and there are at least two; CJK names and texts of more
    /// than [`MAX_RUN_TOGETHER_WORDS`] words (sentences) are not read this way. Ties in the
    /// number of runs go to the split with fewer typo corrections.
    pub fn split_run_together<'n>(&self, name: &'n str) -> Option<Vec<&'n str>> {
        /// Longest run of words tried as one name.
        const MAX_RUN: usize = 6;
        if name.chars().any(is_cjk) {
            return None;
        }
        // Word boundaries (start, end) in `name`, so that runs are slices of it.
        let words: Vec<(usize, usize)> = name
            .split_whitespace()
            .map(|w| {
                let start = w.as_ptr() as usize - name.as_ptr() as usize;
                (start, start + w.len())
            })
            .collect();
        let n = words.len();
        if !(2..=MAX_RUN_TOGETHER_WORDS).contains(&n) {
            return None;
        }
        // best[i]: (runs, typos, start of the last run) of the best split of words[..i].
        let mut best: Vec<Option<(usize, usize, usize)>> = vec![None; n + 1];
        best[0] = Some((0, 0, 0));
        for i in 1..=n {
            for j in i.saturating_sub(MAX_RUN)..i {
                let Some((runs, typos, _)) = best[j] else {
                    continue;
                };
                // Skip runs that cannot improve on the best split found.
                if best[i].is_some_and(|(r, _, _)| r < runs + 1) {
                    continue;
                }
                let run = &name[words[j].0..words[i - 1].1];
                let Some(r) = self.resolve(run) else {
                    continue;
                };
                let cost = (runs + 1, typos + usize::from(r.kind == MatchKind::Typo), j);
                if best[i].is_none_or(|b| (cost.0, cost.1) < (b.0, b.1)) {
                    best[i] = Some(cost);
                }
            }
        }
        let (runs, _, _) = best[n]?;
        if runs < 2 {
            return None;
        }
        let mut out = Vec::with_capacity(runs);
        let mut i = n;
        while i > 0 {
            let (_, _, j) = best[i]?;
            out.push(&name[words[j].0..words[i - 1].1]);
            i = j;
        }
        out.reverse();
        Some(out)
    }

    fn lookup_word(&self, word: &str) -> Option<(u32, &[u32])> {
        self.lookup_folded(word).or_else(|| {
            number_variants(word)
                .iter()
                .find_map(|v| self.lookup_folded(v))
        })
    }

    /// A German compound's head (see [`KnowledgeBase::resolve_by_parts`]).
    fn split_compound(&self, word: &str) -> Option<(u32, &[u32])> {
        let chars: Vec<(usize, char)> = word.char_indices().collect();
        if chars.len() < 7 || !word.chars().all(char::is_alphabetic) {
            return None;
        }
        let words = words();
        let known_modifier = |left: &str| {
            words.compound_links.iter().any(|link| {
                left.strip_suffix(link.as_str()).is_some_and(|m| {
                    m.chars().count() >= 3
                        && (self.lookup_word(m).is_some() || words.compound_modifiers.contains(m))
                })
            })
        };
        // Longest head first: split after at least three letters, keep three or more.
        for &(at, _) in chars.iter().skip(3).take(chars.len().saturating_sub(6)) {
            let (left, right) = word.split_at(at);
            if words.compound_forms.contains(right) {
                // "Haselnuss|masse": the form says how the head is presented.
                if let Some(hit) = words
                    .compound_links
                    .iter()
                    .filter_map(|link| left.strip_suffix(link.as_str()))
                    .find_map(|m| self.lookup_word(m))
                {
                    return Some(hit);
                }
                continue;
            }
            if let Some(hit) = self.lookup_word(right)
                && known_modifier(left)
            {
                return Some(hit);
            }
        }
        None
    }

    /// The head of a CJK name segmented by the longest known names (see
    /// [`KnowledgeBase::resolve_by_parts`]).
    fn segment_cjk(&self, key: &str) -> Option<(u32, &[u32])> {
        let particles = &words().cjk_particles;
        let chars: Vec<char> = key.chars().filter(|c| *c != ' ').collect();
        if chars.len() < 2 || chars.len() > 24 {
            return None;
        }
        let mut last = None;
        let mut at = 0;
        let mut buf = String::new();
        while at < chars.len() {
            let mut found = None;
            for end in (at + 1..=chars.len().min(at + 10)).rev() {
                buf.clear();
                buf.extend(&chars[at..end]);
                if end - at >= 2 || chars.len() == 1 {
                    if let Some(hit) = self.lookup_folded(&buf) {
                        found = Some((end, hit));
                        break;
                    }
                } else if let Some(hit) = self.lookup_folded(&buf)
                    && !particles.contains(&buf)
                {
                    found = Some((end, hit));
                    break;
                }
            }
            match found {
                Some((end, hit)) => {
                    last = Some(hit);
                    at = end;
                }
                None => {
                    let particle = particles.iter().find(|p| {
                        let p: Vec<char> = p.chars().collect();
                        chars[at..].starts_with(&p)
                    })?;
                    at += particle.chars().count();
                }
            }
        }
        last
    }
}

/// Most words in a name read as several names run together ([`KnowledgeBase::split_run_together`]):
/// more is a sentence, not a run of INCI names.
const MAX_RUN_TOGETHER_WORDS: usize = 12;

/// A known run of a name's words: start, end, and its entry (see
/// [`KnowledgeBase::resolve_by_head`]).
type Run<'a> = (usize, usize, (u32, &'a [u32]));

#[cfg(test)]
mod tests {
    use super::*;

    fn kb() -> &'static KnowledgeBase {
        KnowledgeBase::embedded()
    }

    fn by_parts(name: &str) -> Option<&'static str> {
        kb().resolve_by_parts(name)
            .map(|r| r.ingredient.name.as_str())
    }

    #[test]
    fn german_compounds_split_against_the_lexicon() {
        // Longest known head at the end, a known modifier before it, linking -s-/-n-/-en-.
        assert_eq!(by_parts("Vollkornweizenmehl"), Some("Wheat Flour"));
        assert_eq!(by_parts("Bioweizenmehl"), Some("Wheat Flour"));
        // A form at the end: the word before it is the head.
        assert_eq!(by_parts("Haselnussmasse"), Some("Hazelnut"));
        assert_eq!(by_parts("NatriumSaccharin"), Some("Saccharin"));
        // Nothing known before the head, or too short: not read.
        assert_eq!(by_parts("Xyzqweizenmehl"), None);
        assert_eq!(by_parts("Mehl"), None);
        assert_eq!(by_parts("Weizen mehl extra"), None);
    }

    #[test]
    fn cjk_names_segment_by_the_longest_known_names() {
        // Japanese and Chinese: the last segment is the head; particles are set aside.
        assert_eq!(by_parts("鶏卵の卵白"), Some("Egg White"));
        assert!(by_parts("大豆由来").is_some());
        // Korean particles.
        assert_eq!(by_parts("대두를 함유"), by_parts("대두"));
        assert!(by_parts("대두를 함유").is_some());
        assert_eq!(
            by_parts("牛乳의").map(|n| n.to_owned()),
            kb().lookup("牛乳").map(|i| i.name.clone())
        );
        // A part not understood: not read.
        assert_eq!(by_parts("鶏卵の謎謎"), None);
    }

    fn runs(name: &str) -> Option<Vec<&str>> {
        kb().split_run_together(name)
    }

    #[test]
    fn names_run_together_split_only_when_every_part_is_known() {
        assert_eq!(
            runs("Limonene Linalool"),
            Some(vec!["Limonene", "Linalool"])
        );
        assert_eq!(
            runs("Tetrasodium EDTA Methylparaben"),
            Some(vec!["Tetrasodium EDTA", "Methylparaben"])
        );
        // The fewest runs: a two-word name stays whole.
        assert_eq!(
            runs("C12-15 Alkyl Benzoate Cetearyl Alcohol"),
            Some(vec!["C12-15 Alkyl Benzoate", "Cetearyl Alcohol"])
        );
        // A typo inside a run, as the whole-name step would correct it.
        assert_eq!(
            runs("Ethylhexlgylcerin Parfum"),
            Some(vec!["Ethylhexlgylcerin", "Parfum"])
        );
        // A word not known, one name, CJK text, a sentence: not split.
        assert_eq!(runs("Natural Rose Fragrance"), None);
        assert_eq!(runs("Glycerin"), None);
        assert_eq!(runs("砂糖 食塩"), None);
        assert_eq!(runs(&"salt ".repeat(MAX_RUN_TOGETHER_WORDS + 1)), None);
    }
}
