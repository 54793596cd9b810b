//! The index of the knowledge base ([`KnowledgeBase`]): every name of every entry folded once
//! into the keys lookups use, and what else is worked out at start-up: the typo buckets, the
//! entries by function and purpose, the names written with a comma, the references, each
//! entry's sentences and alternatives.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::{Duration, Instant};

use super::codes::{ci_number, e_number};
use super::sentences::EntryText;
use super::{Ingredient, Names, Source, inci_family};
use crate::language::Language;
use crate::shared::SharedStr;
use crate::text::distance::{byte_histogram, byte_mask};
use crate::text::fold::{fold, fold_keep_accents};

/// FNV-1a ([`fnv`]): the index keys are short, trusted strings from our own files, so a fast
/// non-keyed hash is fine (lookups hash user text, but a collision only costs time).
pub(super) type Fnv = fnv::FnvBuildHasher;

/// One typo-correctable name.
#[derive(Debug, Clone)]
pub(super) struct FuzzyKey {
    pub(super) mask: u64,
    pub(super) histogram: [u8; 32],
    pub(super) key: Box<str>,
    pub(super) entry: u32,
}

/// The indexed knowledge base.
#[derive(Debug)]
pub struct KnowledgeBase {
    pub(super) ingredients: Vec<Ingredient>,
    pub(super) sources: BTreeMap<String, Source>,
    /// Folded name → entries. Primary names come first, so they win over translations.
    pub(super) index: HashMap<String, Vec<u32>, Fnv>,
    /// `E211` → entry.
    pub(super) e_numbers: HashMap<String, u32, Fnv>,
    /// `CI 77491` → entry.
    pub(super) ci_numbers: HashMap<String, u32, Fnv>,
    /// The entry of each INCI family, in the order of [`inci_family::Family::ALL`].
    pub(super) families: [Option<u32>; inci_family::Family::ALL.len()],
    /// Language → names as printed.
    pub(super) by_language: HashMap<&'static str, Vec<(String, u32)>>,
    /// Folded ASCII keys for typo correction, bucketed by (length, first byte) and by
    /// (length, last byte): one edit leaves the first or the last letter in place.
    pub(super) fuzzy: HashMap<(usize, u8, bool), Vec<FuzzyKey>, Fnv>,
    /// Function class → entries, safest first (alternatives).
    pub(super) by_function: HashMap<String, Vec<u32>, Fnv>,
    /// Lower-cased purpose → entries, safest first (alternatives among basic foods).
    pub(super) by_purpose: HashMap<String, Vec<u32>, Fnv>,
    /// For folded keys shared by several entries: each entry's name with its accents, so an
    /// accented query can still tell them apart.
    pub(super) accents: HashMap<String, Vec<(String, u32)>, Fnv>,
    /// Folded names that contain a comma in the data ("Sodium, Potassium and Calcium Salts of
    /// Fatty Acids"): the parser joins such names again after splitting on commas.
    pub(super) comma_names: HashSet<String>,
    /// The leading ASCII word of each of `comma_names` (those that start with one): a folded
    /// name with a comma begins with the first word of its first part, so a neighbour whose
    /// first word is not here cannot begin one.
    pub(super) comma_name_starts: HashSet<Vec<u8>, Fnv>,
    /// For each first letter or digit of `comma_name_starts`, the lengths of those words as bits
    /// (63 for longer ones): most words are told apart without hashing.
    pub(super) comma_start_lengths: [u64; 128],
    /// The first two words of each of `comma_names` that starts with two ASCII words, joined by
    /// a space: a neighbour of two words or more must begin with one of these.
    pub(super) comma_name_heads: HashSet<Vec<u8>, Fnv>,
    /// Sentences prepared once per entry (same order as `ingredients`).
    pub(super) prepared: Vec<EntryText>,
    /// Source id → "Title (url)".
    pub(super) references: HashMap<String, SharedStr, Fnv>,
    /// Each entry's `alternatives` resolved to entry indices (names no entry has are left out).
    pub(super) alternatives: Vec<Vec<u32>>,
    pub(super) build_time: Duration,
}

impl KnowledgeBase {
    /// Indexes `ingredients` and `sources`; `started` is when loading began.
    pub(super) fn index(
        ingredients: Vec<Ingredient>,
        sources: BTreeMap<String, Source>,
        started: Instant,
    ) -> Self {
        let mut kb = Self {
            ingredients,
            sources,
            index: HashMap::default(),
            e_numbers: HashMap::default(),
            ci_numbers: HashMap::default(),
            families: [None; inci_family::Family::ALL.len()],
            by_language: HashMap::new(),
            fuzzy: HashMap::default(),
            by_function: HashMap::default(),
            by_purpose: HashMap::default(),
            accents: HashMap::default(),
            comma_names: HashSet::new(),
            comma_name_starts: HashSet::default(),
            comma_start_lengths: [0; 128],
            comma_name_heads: HashSet::default(),
            prepared: Vec::new(),
            references: HashMap::default(),
            alternatives: Vec::new(),
            build_time: Duration::ZERO,
        };
        kb.build_index();
        for (slot, family) in kb.families.iter_mut().zip(inci_family::Family::ALL) {
            *slot = kb
                .index
                .get(&fold(family.entry_name()))
                .and_then(|v| v.first().copied());
        }
        kb.build_time = started.elapsed();
        kb
    }

    /// Everything the lookups and the analysis read, worked out once.
    fn build_index(&mut self) {
        self.index_names();
        self.index_typos();
        self.index_functions_and_purposes();
        self.prepared = self.ingredients.iter().map(EntryText::of).collect();
        self.index_comma_names();
        self.references = self
            .sources
            .iter()
            .map(|(id, src)| {
                let text = match &src.url {
                    Some(url) => format!("{} ({url})", src.title),
                    None => src.title.clone(),
                };
                (id.clone(), SharedStr::from(text))
            })
            .collect();
        // Every entry's own alternatives, resolved once (the analysis filters them per user).
        self.alternatives = self
            .ingredients
            .iter()
            .map(|ing| {
                ing.alternatives
                    .iter()
                    .filter_map(|alt| self.lookup_index(alt))
                    .map(|i| i as u32)
                    .collect()
            })
            .collect();
    }

    /// The index of folded names (with the accented spellings of the names several entries
    /// share), the E-numbers, CI numbers and names by language.
    fn index_names(&mut self) {
        // Every name with its folded key, folded once (folding is most of the start-up):
        // (key, 0 for a primary name or 1 for a translation, entry, name as written).
        let mut folded: Vec<(String, u8, u32, &str)> =
            Vec::with_capacity(self.ingredients.len() * 12);
        for (i, ing) in self.ingredients.iter().enumerate() {
            let i = i as u32;
            if let Some(e) = &ing.e_number {
                self.e_numbers.entry(e.clone()).or_insert(i);
            }
            if let Some(ci) = &ing.ci_number {
                self.ci_numbers.entry(ci.clone()).or_insert(i);
            }
            for name in ing.primary_names() {
                folded.push((fold(name), 0, i, name));
            }
            // The synonyms' keys (after the canonical name's): E and CI numbers among them.
            let synonyms = folded.len() - ing.primary_names().count() + 1;
            for (key, ..) in &folded[synonyms..synonyms + ing.synonyms.len()] {
                if let Some(e) = e_number(key) {
                    self.e_numbers.entry(e).or_insert(i);
                }
                if let Some(ci) = ci_number(key) {
                    self.ci_numbers.entry(ci).or_insert(i);
                }
            }
            for (lang, names) in &ing.names {
                let lang_key = Language::translations()
                    .map(Language::code)
                    .find(|l| *l == lang.as_str());
                for name in names.iter() {
                    folded.push((fold(name), 1, i, name));
                    if let Some(l) = lang_key {
                        self.by_language
                            .entry(l)
                            .or_default()
                            .push((name.to_owned(), i));
                    }
                }
            }
        }
        // Primary names first so that, when a translation collides with another entry's
        // primary name, the primary name wins the lookup; then in entry order. Sorted, each
        // key's names are neighbours: the key moves into the index, no copy.
        folded.sort_unstable_by(|a, b| (&a.0, a.1, a.2).cmp(&(&b.0, b.1, b.2)));
        let mut index: HashMap<String, Vec<u32>, Fnv> =
            HashMap::with_capacity_and_hasher(folded.len(), Fnv::default());
        let mut accents: HashMap<String, Vec<(String, u32)>, Fnv> = HashMap::default();
        let mut at = 0;
        while at < folded.len() {
            let key = &folded[at].0;
            let n = folded[at..].iter().take_while(|(k, ..)| k == key).count();
            let group = &folded[at..at + n];
            at += n;
            if key.is_empty() {
                continue;
            }
            let mut entries: Vec<u32> = Vec::with_capacity(1);
            for (_, _, i, _) in group {
                if !entries.contains(i) {
                    entries.push(*i);
                }
            }
            if entries.len() > 1 {
                // A name several entries share: its spellings with accents tell them apart.
                let mut forms: Vec<(u32, String)> = group
                    .iter()
                    .map(|(_, _, i, name)| (*i, fold_keep_accents(name)))
                    .collect();
                forms.sort_by_key(|(i, _)| *i);
                accents.insert(
                    key.clone(),
                    forms.into_iter().map(|(i, form)| (form, i)).collect(),
                );
            }
            let key = std::mem::take(&mut folded[at - n].0);
            index.insert(key, entries);
        }
        self.index = index;
        self.accents = accents;
    }

    /// The typo buckets: the folded ASCII names of six letters or more, by (length, first
    /// byte) and by (length, last byte).
    fn index_typos(&mut self) {
        let mut fuzzy: HashMap<(usize, u8, bool), Vec<FuzzyKey>, Fnv> = HashMap::default();
        for (key, entries) in &self.index {
            // Typos are corrected only for Latin names (one wrong CJK character is a different
            // word far more often than an OCR slip); names with digits only in their letters
            // (see `typo`).
            if !key.is_ascii() || key.len() < 6 {
                continue;
            }
            let bytes = key.as_bytes();
            let fk = FuzzyKey {
                mask: byte_mask(bytes),
                histogram: byte_histogram(bytes),
                key: key.clone().into_boxed_str(),
                entry: entries[0],
            };
            let (first, last) = (bytes[0], bytes[bytes.len() - 1]);
            fuzzy
                .entry((bytes.len(), first, true))
                .or_default()
                .push(fk.clone());
            fuzzy
                .entry((bytes.len(), last, false))
                .or_default()
                .push(fk);
        }
        for bucket in fuzzy.values_mut() {
            bucket.sort_by(|a, b| a.key.cmp(&b.key));
        }
        self.fuzzy = fuzzy;
    }

    /// Entries by function class and by purpose, safest first.
    fn index_functions_and_purposes(&mut self) {
        let mut by_function: HashMap<String, Vec<u32>, Fnv> = HashMap::default();
        for (i, ing) in self.ingredients.iter().enumerate() {
            by_function
                .entry(ing.function.clone())
                .or_default()
                .push(i as u32);
        }
        let mut by_purpose: HashMap<String, Vec<u32>, Fnv> = HashMap::default();
        for (i, ing) in self.ingredients.iter().enumerate() {
            by_purpose
                .entry(ing.purpose.trim().to_lowercase())
                .or_default()
                .push(i as u32);
        }
        for list in by_function.values_mut().chain(by_purpose.values_mut()) {
            list.sort_by(|a, b| {
                let (a, b) = (
                    &self.ingredients[*a as usize],
                    &self.ingredients[*b as usize],
                );
                b.score.cmp(&a.score).then_with(|| a.name.cmp(&b.name))
            });
        }
        self.by_function = by_function;
        self.by_purpose = by_purpose;
    }

    /// The folded names written with a comma, and what tells a neighbour cannot start one.
    fn index_comma_names(&mut self) {
        self.comma_names = self
            .ingredients
            .iter()
            .flat_map(|i| {
                i.primary_names()
                    .chain(i.names.values().flat_map(Names::iter))
                    .filter(|n| n.contains([',', '，']))
                    .map(fold)
            })
            .collect();
        self.comma_name_starts = self
            .comma_names
            .iter()
            .filter_map(|name| leading_ascii_word(name))
            .map(|word| word.as_bytes().to_vec())
            .collect();
        self.comma_name_heads = self
            .comma_names
            .iter()
            .filter_map(|name| {
                let first = leading_ascii_word(name)?;
                let second = leading_ascii_word(name[first.len()..].strip_prefix(' ')?)?;
                Some(format!("{first} {second}").into_bytes())
            })
            .collect();
        self.comma_start_lengths = [0; 128];
        for word in &self.comma_name_starts {
            let initial = usize::from(word[0]);
            self.comma_start_lengths[initial] |= 1 << word.len().min(63);
        }
    }
}

impl KnowledgeBase {
    /// The entry's own alternatives (its `alternatives` names), as entry indices.
    pub fn alternatives_of(&self, index: usize) -> Option<&[u32]> {
        self.alternatives.get(index).map(Vec::as_slice)
    }

    /// All names of one language (e.g. "fr"), for OCR spelling correction. `"en"` gives the
    /// canonical names and synonyms.
    pub fn names_in(&self, lang: &str) -> impl Iterator<Item = &str> {
        let translated = self
            .by_language
            .get(lang)
            .map(|v| v.as_slice())
            .unwrap_or_default()
            .iter()
            .map(|(n, _)| n.as_str());
        let english = (lang == "en")
            .then(|| {
                self.ingredients.iter().flat_map(|i| {
                    std::iter::once(i.name.as_str()).chain(i.synonyms.iter().map(String::as_str))
                })
            })
            .into_iter()
            .flatten();
        translated.chain(english)
    }

    /// Every entry, in file order.
    pub fn ingredients(&self) -> &[Ingredient] {
        &self.ingredients
    }

    /// Every declared source by id.
    pub fn sources(&self) -> &BTreeMap<String, Source> {
        &self.sources
    }

    /// A source by id.
    pub fn source(&self, id: &str) -> Option<&Source> {
        self.sources.get(id)
    }

    /// Entries of one function class, safest first.
    pub fn with_function(&self, function: &str) -> impl Iterator<Item = (usize, &Ingredient)> {
        self.by_function
            .get(function)
            .map(|v| v.as_slice())
            .unwrap_or_default()
            .iter()
            .map(|i| (*i as usize, &self.ingredients[*i as usize]))
    }

    /// Whether `text` is a known name written with a comma (see `parse::split_ingredients_with`):
    /// "Sodium, Potassium and Calcium Salts of Fatty Acids" yes, "Peanut, Butter" no.
    pub fn is_name_with_comma(&self, text: &str) -> bool {
        self.comma_names.contains(&fold(text))
    }

    /// Whether "first, second" is a known name written with a comma: the check
    /// `parse::split_ingredients_with` makes for every pair of neighbours in a list. Most pairs
    /// are told apart by the first word of `first` alone, without building the joined text.
    pub fn joins_with_comma(&self, first: &str, second: &str) -> bool {
        if let Some((word, next)) = first_folded_words(first) {
            let initial = usize::from(word.as_bytes()[0].to_ascii_lowercase());
            if self.comma_start_lengths[initial] & (1 << word.len().min(63)) == 0
                || !contains_lowercased(&self.comma_name_starts, &[word])
                || next
                    .is_some_and(|next| !contains_lowercased(&self.comma_name_heads, &[word, next]))
            {
                return false;
            }
        }
        self.is_name_with_comma(&format!("{first}, {second}"))
    }

    /// The prepared sentences of the entry at `index`.
    pub fn prepared(&self, index: usize) -> Option<&EntryText> {
        self.prepared.get(index)
    }

    /// A source as shown in `references`: "Title (url)".
    pub fn reference(&self, id: &str) -> Option<&SharedStr> {
        self.references.get(id)
    }

    /// Entries with the same purpose text (case-insensitive), safest first.
    pub fn with_purpose(&self, purpose: &str) -> impl Iterator<Item = (usize, &Ingredient)> {
        self.by_purpose
            .get(&purpose.trim().to_lowercase())
            .map(|v| v.as_slice())
            .unwrap_or_default()
            .iter()
            .map(|i| (*i as usize, &self.ingredients[*i as usize]))
    }

    /// The entry at `index`.
    pub fn get(&self, index: usize) -> Option<&Ingredient> {
        self.ingredients.get(index)
    }

    /// How long parsing and indexing took.
    pub fn build_time(&self) -> Duration {
        self.build_time
    }

    /// Number of distinct folded names in the index.
    pub fn indexed_names(&self) -> usize {
        self.index.len()
    }
}

/// The first word of `fold(first, ...)` when `first` is ASCII without control characters,
/// and its second word if `first` has one: runs of ASCII letters and digits, each ending at a
/// space, at a CJK character or at the end of the folded text. `None` when that cannot be
/// told without folding.
fn first_folded_words(first: &str) -> Option<(&str, Option<&str>)> {
    let bytes = first.as_bytes();
    // `fold` drops controls without leaving a space: a word around one is not a slice.
    let plain = bytes.iter().fold(true, |plain, b| {
        plain & ((b' '..0x7f).contains(b) || matches!(b, b'\t' | b'\n' | b'\r'))
    });
    if !plain {
        return None;
    }
    let start = bytes.iter().position(u8::is_ascii_alphanumeric)?;
    let word = leading_ascii_word(&first[start..])?;
    let rest = &first[start + word.len()..];
    let next = rest
        .bytes()
        .position(|b| b.is_ascii_alphanumeric())
        .and_then(|at| leading_ascii_word(&rest[at..]));
    Some((word, next))
}

/// Whether `set` holds `words` (ASCII), lower-cased and joined by spaces; built on the stack.
fn contains_lowercased(set: &HashSet<Vec<u8>, Fnv>, words: &[&str]) -> bool {
    let mut key = [0u8; 64];
    let mut len = 0;
    for word in words {
        let space = usize::from(len > 0);
        let Some(slot) = key.get_mut(len + space..len + space + word.len()) else {
            // Longer than any name's first words in practice: the slow way.
            return set.contains(words.join(" ").to_ascii_lowercase().as_bytes());
        };
        slot.copy_from_slice(word.as_bytes());
        if space == 1 {
            key[len] = b' ';
        }
        len += space + word.len();
    }
    key[..len].make_ascii_lowercase();
    set.contains(&key[..len])
}

/// The run of ASCII letters and digits that `text` starts with, if any.
fn leading_ascii_word(text: &str) -> Option<&str> {
    let len = text.bytes().take_while(u8::is_ascii_alphanumeric).count();
    (len > 0).then(|| &text[..len])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knowledge::Names;

    fn kb() -> &'static KnowledgeBase {
        KnowledgeBase::embedded()
    }

    /// The names with a comma in the data, split at every comma.
    fn comma_name_pairs() -> Vec<(String, String)> {
        let names: Vec<&str> = kb()
            .ingredients()
            .iter()
            .flat_map(|i| {
                i.primary_names()
                    .chain(i.names.values().flat_map(Names::iter))
            })
            .filter(|n| n.contains([',', '，']))
            .collect();
        assert!(!names.is_empty());
        names
            .iter()
            .flat_map(|n| {
                n.match_indices([',', '，'])
                    .map(|(at, c)| (*n, at, c.len()))
            })
            .map(|(n, at, len)| (n[..at].to_owned(), n[at + len..].trim().to_owned()))
            .collect()
    }

    #[test]
    fn pairs_join_exactly_when_the_joined_text_is_a_comma_name() {
        let pairs = comma_name_pairs();
        for (first, second) in &pairs {
            let joined = format!("{first}, {second}");
            assert_eq!(
                kb().joins_with_comma(first, second),
                kb().is_name_with_comma(&joined),
                "{joined}"
            );
        }
        assert!(kb().joins_with_comma("SODIUM", "Potassium and Calcium Salts of Fatty Acids"));
        // Every first part against every second part: mostly not names, told apart early.
        for (first, _) in pairs.iter().take(40) {
            for (_, second) in pairs.iter().take(40) {
                let joined = format!("{first}, {second}");
                assert_eq!(
                    kb().joins_with_comma(first, second),
                    kb().is_name_with_comma(&joined),
                    "{joined}"
                );
            }
        }
        assert!(!kb().joins_with_comma("Peanut", "Butter"));
        assert!(!kb().joins_with_comma("Sodium Hyaluronate", "Allantoin"));
        // Two words before the comma, told by the first two words of the names.
        assert!(pairs.iter().any(|(first, second)| {
            first.split_whitespace().count() > 1 && kb().joins_with_comma(first, second)
        }));
    }

    #[test]
    fn names_in_a_language_include_translations() {
        assert!(kb().names_in("fr").any(|n| n == "benzoate de sodium"));
        assert!(kb().names_in("xx").next().is_none());
    }
}
