//! Which of the user's declared allergies a name matches: by the allergen groups of its entry,
//! by an allergy word naming the entry or appearing in the name, by an allergen word inside a
//! name the knowledge base does not know (the safety net), and the label's own allergen
//! declarations.

use super::context::Context;
use crate::knowledge::allergy::{AllergyAliases, DeclaredAllergy};
use crate::knowledge::{AllergenGroup, KnowledgeBase, MatchKind, Resolved};
use crate::language::Lexicon;
use crate::parse::ParsedIngredient;
use crate::text::fold::fold;
use crate::text::script::is_cjk;

/// The user's allergies as declared (blank ones dropped), and the entries named by allergy
/// words that are no group ("kiwi" → the Kiwi entry) with the allergy that names them.
pub(super) fn declared_allergies(
    kb: &KnowledgeBase,
    given: &[String],
) -> (Vec<DeclaredAllergy>, Vec<(usize, usize)>) {
    let allergies: Vec<DeclaredAllergy> = given
        .iter()
        .map(|a| DeclaredAllergy::parse(a))
        .filter(|a| !a.is_empty())
        .collect();
    let mut allergy_entries = Vec::new();
    for (ai, allergy) in allergies.iter().enumerate() {
        for word in &allergy.words {
            if let Some(r) = kb.resolve(word)
                && matches!(r.kind, MatchKind::Exact | MatchKind::Plural)
            {
                allergy_entries.push((r.index, ai));
            }
        }
    }
    (allergies, allergy_entries)
}

/// The label's allergen declarations that match a declared allergy: (what the label says,
/// group labels, the allergy), one per declaration statement item, groups not repeated.
pub(super) fn declared_matches(
    ctx: &Context<'_>,
    parsed: &[ParsedIngredient],
) -> Vec<(String, Vec<&'static str>, usize)> {
    let mut out: Vec<(String, Vec<&'static str>, usize)> = Vec::new();
    let mut seen: Vec<AllergenGroup> = Vec::new();
    for p in parsed.iter().filter(|p| p.declared) {
        let mut groups: Vec<AllergenGroup> = Vec::new();
        if let Some(r) = ctx.resolve(&p.name)
            && r.kind != MatchKind::Typo
        {
            groups.extend(r.ingredient.allergens.iter().copied());
        }
        let aliases = AllergyAliases::embedded();
        if let Some(g) = aliases.groups(&fold(&p.name)) {
            groups.extend_from_slice(g);
        }
        if groups.is_empty() {
            groups.extend(
                aliases
                    .words_in(&fold(&p.name))
                    .into_iter()
                    .map(|f| f.group),
            );
        }
        let mut labels: Vec<&'static str> = Vec::new();
        let mut first: Option<usize> = None;
        for g in groups {
            if seen.contains(&g) {
                continue;
            }
            if let Some(ai) = ctx.allergies.iter().position(|a| a.groups.contains(&g)) {
                seen.push(g);
                labels.push(g.label());
                first.get_or_insert(ai);
            }
        }
        if let Some(ai) = first {
            out.push((p.text.clone(), labels, ai));
        }
    }
    out
}

/// The allergen groups among matches (an allergy word that is no group has none).
pub(super) fn allergy_groups(allergy: &[(String, usize)]) -> Vec<AllergenGroup> {
    allergy
        .iter()
        .filter_map(|(g, _)| AllergenGroup::ALL.iter().find(|x| x.label() == g).copied())
        .collect()
}

/// Declared allergies this name matches: by allergen group of the entry (and of other entries
/// sharing the matched translated name), by an allergy word naming this very entry, or by an
/// allergy word that appears as a whole word in the name.
pub(super) fn allergy_matches(
    ctx: &Context<'_>,
    label: &str,
    r: Option<Resolved<'_>>,
) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    if ctx.allergies.is_empty() {
        return out;
    }
    let mut groups: Vec<AllergenGroup> = Vec::new();
    if let Some(r) = r {
        groups.extend(r.ingredient.allergens.iter().copied());
        for other in r.also {
            if let Some(o) = ctx.kb.get(*other as usize) {
                groups.extend(o.allergens.iter().copied());
            }
        }
    }
    for (ai, allergy) in ctx.allergies.iter().enumerate() {
        for g in &allergy.groups {
            if groups.contains(g) && !out.iter().any(|(x, _)| x == g.label()) {
                out.push((g.label().to_owned(), ai));
            }
        }
    }
    if ctx.allergies.iter().all(|a| a.words.is_empty()) {
        return out;
    }
    let folded = fold(label);
    for (ai, allergy) in ctx.allergies.iter().enumerate() {
        for word in &allergy.words {
            let by_entry = r.is_some_and(|r| {
                ctx.allergy_entries
                    .iter()
                    .any(|(idx, a)| *a == ai && *idx == r.index)
            });
            if (by_entry || contains_word(&folded, word)) && !out.iter().any(|(x, _)| x == word) {
                out.push((word.clone(), ai));
            }
        }
    }
    out
}

/// The safety net for a name the knowledge base does not know: declared allergen groups
/// named by a word inside it ("lait" in "lait de brebis pasteurisé", 乳 in 乳由来), added to
/// `allergy`; returns the words that matched.
pub(super) fn word_matches(
    ctx: &Context<'_>,
    label: &str,
    allergy: &mut Vec<(String, usize)>,
) -> Vec<String> {
    if ctx.allergies.iter().all(|a| a.groups.is_empty()) {
        return Vec::new();
    }
    // The knowledge base's names count too ("mozzarella", "emmental"), exact names only.
    let lookup = |phrase: &str| -> Vec<AllergenGroup> {
        ctx.kb
            .resolve_exact(phrase)
            .map(|r| r.ingredient.allergens.clone())
            .unwrap_or_default()
    };
    let folded = fold(label);
    let found = AllergyAliases::embedded().words_in_with(&folded, &lookup);
    let names = &Lexicon::get().names;
    let mut words = Vec::new();
    for f in found {
        // "farine de lentilles": a flour named by what it is ground from is no wheat flour
        // (the word after it is read on its own: "farine de blé" still names wheat).
        if names.flours.contains(&f.word)
            && names
                .flour_of
                .iter()
                .any(|p| folded.contains(&format!("{} {p} ", f.word)))
        {
            continue;
        }
        let Some(ai) = ctx
            .allergies
            .iter()
            .position(|a| a.groups.contains(&f.group))
        else {
            continue;
        };
        let label = f.group.label();
        if !allergy.iter().any(|(g, _)| g == label) {
            allergy.push((label.to_owned(), ai));
        }
        if !words.contains(&f.word) {
            words.push(f.word);
        }
    }
    words
}

/// The concern sentence of a name flagged by the safety net.
pub(super) fn found_by_word_note(name: &str, words: &[String]) -> String {
    format!(
        "'{name}' is not in the knowledge base as a whole, but the word '{}' names an allergen: flagged as a precaution.",
        words.join("', '")
    )
}

/// Whether `word` (folded) occurs in `folded` as whole words (or as its plural).
fn contains_word(folded: &str, word: &str) -> bool {
    if word.is_empty() {
        return false;
    }
    if word.chars().any(is_cjk) {
        return word.chars().count() >= 2 && folded.contains(word);
    }
    // The word's tokens against each run of as many tokens of the name, the last one also
    // in its plural; no token list is collected (this runs for every name and allergy word).
    let last = word.split(' ').count() - 1;
    let matches_at = |mut name_tokens: std::str::Split<'_, char>| {
        word.split(' ').enumerate().all(|(i, b)| {
            name_tokens.next().is_some_and(|a| {
                a == b
                    || (i == last
                        && (a.strip_suffix('s') == Some(b) || a.strip_suffix("es") == Some(b)))
            })
        })
    };
    let mut from = folded.split(' ');
    loop {
        if matches_at(from.clone()) {
            return true;
        }
        if from.next().is_none() {
            return false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allergy_words_match_whole_words_and_a_plural_last_word() {
        for (name, word, expected) in [
            ("kiwi extract", "kiwi", true),
            ("kiwis", "kiwi", true),
            ("peaches in syrup", "peach", true),
            ("kiwifruit", "kiwi", false),
            ("sweet almond oil", "almond oil", true),
            ("sweet almond oils", "almond oil", true),
            ("almonds oil", "almond oil", false),
            ("almond", "almond oil", false),
            ("oil of almond", "almond oil", false),
            ("lupin  flour", "lupin flour", false),
            ("", "kiwi", false),
            ("kiwi", "", false),
            ("猕猴桃汁", "猕猴桃", true),
            ("桃汁", "桃", false),
        ] {
            assert_eq!(contains_word(name, word), expected, "{name:?} / {word:?}");
        }
    }
}
