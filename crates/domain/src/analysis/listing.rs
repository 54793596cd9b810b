//! Which items of the parsed list are analysed, in order: allergen declarations set aside, a
//! class word over several items listed as those items, unknown items repaired against the
//! lexicon (names run together, a comma inside a name, a choice between two names); and the
//! kind of product their heads say it is.

use super::ProductCategory;
use super::context::{either_of, plant_source_nouns, resolve};
use super::supplement::Supplement;
use crate::grammar::is_class_word;
use crate::knowledge::{KnowledgeBase, MatchKind, Resolved};
use crate::parse::ParsedIngredient;

/// The items analysed, each with the class word it was listed under and its head entry.
pub(super) struct Listing<'a> {
    /// The items, in the list's order.
    pub(super) items: Vec<&'a ParsedIngredient>,
    /// The class word over the item ("thickeners (guar gum, xanthan gum)"), if any.
    pub(super) functions: Vec<Option<&'a str>>,
    /// The entry the item's head names, if known.
    pub(super) heads: Vec<Option<Resolved<'a>>>,
    /// The item of the list as given that each item comes from (the class word's item for
    /// its members): what the label printed when the grammar rebuilt a name.
    pub(super) roots: Vec<&'a ParsedIngredient>,
}

/// The items of `parsed` to analyse (declarations only when `all_declared`), with their heads.
pub(super) fn list_items<'a>(
    kb: &'a KnowledgeBase,
    extra: Option<&'a Supplement>,
    parsed: &'a [ParsedIngredient],
    all_declared: bool,
) -> Listing<'a> {
    // A class word over several items ("thickeners (guar gum, xanthan gum)") is the function
    // of each: they are listed one by one, each with the class word kept as its function.
    let mut items: Vec<&ParsedIngredient> = Vec::with_capacity(parsed.len());
    let mut functions: Vec<Option<&str>> = Vec::with_capacity(parsed.len());
    let mut roots: Vec<&ParsedIngredient> = Vec::with_capacity(parsed.len());
    for p in parsed.iter().filter(|p| all_declared || !p.declared) {
        if is_function_list(kb, p) {
            items.extend(&p.sub);
            functions.extend(p.sub.iter().map(|_| Some(p.name.as_str())));
            roots.extend(p.sub.iter().map(|_| p));
        } else {
            items.push(p);
            functions.push(None);
            roots.push(p);
        }
    }
    // First pass: resolve heads only, to tell a food from a cosmetic product.
    let heads = items.iter().map(|item| head_of(kb, extra, item)).collect();
    Listing {
        items,
        functions,
        heads,
        roots,
    }
}

/// The entry an item's head names. A class word ("Emulsifier") names no ingredient: its
/// sub-ingredients do; a plant-source class ("Vegetable oil (palm, coconut)") is itself the
/// ingredient.
fn head_of<'a>(
    kb: &'a KnowledgeBase,
    extra: Option<&'a Supplement>,
    item: &ParsedIngredient,
) -> Option<Resolved<'a>> {
    (!item.name.is_empty()
        && (item.sub.is_empty()
            || !is_class_word(&item.name)
            || !plant_source_nouns(&item.name).is_empty()))
    .then(|| resolve(kb, extra, &item.name))
    .flatten()
}

/// Whether `p` is a class word over several items ("épaississants : gomme guar, pectine"),
/// not a name of its own ("Preservative (E211)") nor a plant-source class whose items are
/// its kinds ("Vegetable oil (palm, coconut)").
fn is_function_list(kb: &KnowledgeBase, p: &ParsedIngredient) -> bool {
    p.sub.len() >= 2
        && is_class_word(&p.name)
        && plant_source_nouns(&p.name).is_empty()
        && kb.resolve_exact(&p.text).is_none()
}

/// Unknown items that are known names once the label's punctuation is repaired: what each
/// item becomes (`None`: unchanged; an empty list: joined to the item before it).
/// "Limonene Linalool" (names run together without commas) is those ingredients one by one;
/// "Caprylic/Capric, Triglyceride" (a comma inside a name) is one ingredient.
pub(super) fn repairs(
    kb: &KnowledgeBase,
    extra: Option<&Supplement>,
    listing: &Listing<'_>,
) -> Vec<Option<Vec<ParsedIngredient>>> {
    let listed = &listing.items;
    let is_plain_unknown = |i: usize| {
        listing.heads[i].is_none() && listed[i].sub.is_empty() && !is_class_word(&listed[i].name)
    };
    // Understood only by its head ("monosodium glutamate and spices" read as spices): two
    // known names joined are both listed.
    let by_head = |i: usize| {
        listing.heads[i].is_some_and(|h| h.kind == MatchKind::Head) && listed[i].sub.is_empty()
    };
    let mut run_together: Vec<Option<Vec<ParsedIngredient>>> = vec![None; listed.len()];
    let mut i = 0;
    while i < listed.len() {
        if by_head(i) {
            let item = listed[i];
            run_together[i] = either_of(kb, extra, &item.name).map(|parts| {
                parts
                    .into_iter()
                    .map(|text| ParsedIngredient {
                        text: text.to_owned(),
                        name: text.to_owned(),
                        sub: Vec::new(),
                        trace: item.trace,
                        declared: item.declared,
                    })
                    .collect()
            });
            i += 1;
            continue;
        }
        // "sodium benzoate and potassium sorbate (as preservatives)": two known names joined,
        // their function in brackets; each is listed with the function as its own bracket.
        if listing.heads[i].is_none()
            && let Some(note) = function_note(listed[i])
        {
            let item = listed[i];
            run_together[i] = either_of(kb, extra, &item.name).map(|parts| {
                parts
                    .into_iter()
                    .map(|name| ParsedIngredient {
                        text: name.to_owned(),
                        name: name.to_owned(),
                        sub: vec![note.clone()],
                        trace: item.trace,
                        declared: item.declared,
                    })
                    .collect()
            });
            i += 1;
            continue;
        }
        if !is_plain_unknown(i) {
            i += 1;
            continue;
        }
        let item = listed[i];
        let piece = |text: &str| ParsedIngredient {
            text: text.to_owned(),
            name: text.to_owned(),
            sub: Vec::new(),
            trace: item.trace,
            declared: item.declared,
        };
        if i + 1 < listed.len() && is_plain_unknown(i + 1) && listed[i + 1].trace == item.trace {
            let joined = format!("{} {}", item.name, listed[i + 1].name);
            if kb.resolve(&joined).is_some_and(|r| {
                matches!(
                    r.kind,
                    MatchKind::Exact | MatchKind::Plural | MatchKind::Family
                )
            }) {
                let mut one = piece(&joined);
                one.text = format!("{}, {}", item.text, listed[i + 1].text);
                run_together[i] = Some(vec![one]);
                run_together[i + 1] = Some(Vec::new());
                i += 2;
                continue;
            }
        }
        run_together[i] = either_of(kb, extra, &item.name)
            .or_else(|| kb.split_run_together(&item.name))
            .map(|runs| runs.into_iter().map(piece).collect());
        i += 1;
    }
    run_together
}

/// The one bracket of `item` when it names only the item's function ("(as preservatives)",
/// "[stabilizers]", "(nonnutritive sweeteners)").
fn function_note(item: &ParsedIngredient) -> Option<&ParsedIngredient> {
    let [note] = item.sub.as_slice() else {
        return None;
    };
    let name = note.name.strip_prefix("as ").unwrap_or(&note.name);
    let class = is_class_word(name)
        || name
            .split_once(' ')
            .is_some_and(|(_, rest)| is_class_word(rest));
    (note.sub.is_empty() && class).then_some(note)
}

/// `listing` with the [`repairs`] applied.
pub(super) fn repaired<'a>(
    kb: &'a KnowledgeBase,
    extra: Option<&'a Supplement>,
    listing: Listing<'a>,
    repairs: &'a [Option<Vec<ParsedIngredient>>],
) -> Listing<'a> {
    if repairs.iter().all(Option::is_none) {
        return listing;
    }
    let mut out = Listing {
        items: Vec::new(),
        functions: Vec::new(),
        heads: Vec::new(),
        roots: Vec::new(),
    };
    for ((((item, function), head), root), runs) in listing
        .items
        .into_iter()
        .zip(listing.functions)
        .zip(listing.heads)
        .zip(listing.roots)
        .zip(repairs)
    {
        match runs {
            Some(runs) => {
                for run in runs {
                    out.items.push(run);
                    out.functions.push(function);
                    out.heads.push(head_of(kb, extra, run));
                    out.roots.push(root);
                }
            }
            None => {
                out.items.push(item);
                out.functions.push(function);
                out.heads.push(head);
                out.roots.push(root);
            }
        }
    }
    out
}

/// The kind of product the recognised heads say it is: more Food-only than Cosmetics-only
/// entries is a food, fewer a cosmetic, a tie Both.
pub(super) fn product_category(heads: &[Option<Resolved<'_>>]) -> ProductCategory {
    let (mut food, mut cosmetic, mut either) = (0usize, 0usize, 0usize);
    for r in heads.iter().flatten() {
        match r.ingredient.category {
            // Salt or sugar with a cosmetic use (shampoo, scrub) decides only when the other
            // ingredients do not.
            ProductCategory::Food if r.ingredient.in_cosmetics.is_some() => either += 1,
            ProductCategory::Food => food += 1,
            ProductCategory::Cosmetics => cosmetic += 1,
            ProductCategory::Both => {}
        }
    }
    if food == cosmetic {
        food += either;
    }
    match food.cmp(&cosmetic) {
        std::cmp::Ordering::Greater => ProductCategory::Food,
        std::cmp::Ordering::Less => ProductCategory::Cosmetics,
        std::cmp::Ordering::Equal => ProductCategory::Both,
    }
}
