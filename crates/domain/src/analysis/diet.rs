//! Whether the product is vegan, vegetarian, and contains palm oil, with the ingredients that
//! decided each answer (docs/analysis.md, "Product verdicts").
//!
//! Each part of an item (its head, its sub-ingredients) answers from its entry's facts
//! ([`Diet`], [`Palm`]); a name no step knows decides nothing: whether enough of the list is
//! known to answer at all is the coverage's rule (`verdicts`). A head that answers `maybe`
//! gives way to its listed
//! composition when every sub-ingredient is recognised ("lecithin (soy)", "vegetable oil
//! (sunflower, rapeseed)"), and to a plant named in its own name ("soya lecithin"). The
//! product's answer is the worst of its items': `no` over `maybe` over `yes` (for palm oil,
//! `yes` over `maybe` over `no`).

use super::context::Context;
use super::item::{ItemFacts, Part};
use super::{Answer, DietAnswers, DietBecause, ProductCategory};
use crate::knowledge::facts::{Diet, Palm};
use crate::knowledge::family::Families;
use crate::knowledge::fold::fold;
use crate::knowledge::{Ingredient, KnowledgeBase, MatchKind};

/// The three questions, in the order of [`DietAnswers`].
#[derive(Clone, Copy)]
enum Question {
    Vegan,
    Vegetarian,
    Palm,
}

impl Question {
    /// How bad an answer is for this question: the product takes its items' worst.
    fn rank(self, a: Answer) -> u8 {
        match (self, a) {
            (_, Answer::Unknown) => 0,
            (Question::Palm, Answer::No)
            | (Question::Vegan | Question::Vegetarian, Answer::Yes) => 1,
            (_, Answer::Maybe) => 2,
            (Question::Palm, Answer::Yes)
            | (Question::Vegan | Question::Vegetarian, Answer::No) => 3,
        }
    }

    /// The answer that needs no ingredient named behind it.
    fn clear(self) -> Answer {
        match self {
            Question::Palm => Answer::No,
            _ => Answer::Yes,
        }
    }

    /// What one entry answers.
    fn of_entry(self, ing: &Ingredient) -> Answer {
        match self {
            Question::Vegan => ing.diet.vegan(),
            Question::Vegetarian => ing.diet.vegetarian(),
            Question::Palm => match ing.palm {
                Some(Palm::Yes) => Answer::Yes,
                Some(Palm::Maybe) => Answer::Maybe,
                None => Answer::No,
            },
        }
    }
}

/// The diet answers of the non-trace items (all `unknown` when not `enough_known`).
pub(super) fn diet_answers(
    ctx: &Context<'_>,
    items: &[&ItemFacts<'_>],
    enough_known: bool,
) -> DietAnswers {
    if !enough_known {
        return DietAnswers {
            vegan: Answer::Unknown,
            vegetarian: Answer::Unknown,
            contains_palm_oil: Answer::Unknown,
            because: DietBecause::default(),
        };
    }
    let (vegan, because_vegan) = answer(ctx, items, Question::Vegan);
    let (vegetarian, because_vegetarian) = answer(ctx, items, Question::Vegetarian);
    let (palm, because_palm) = answer(ctx, items, Question::Palm);
    DietAnswers {
        vegan,
        vegetarian,
        contains_palm_oil: palm,
        because: DietBecause {
            vegan: because_vegan,
            vegetarian: because_vegetarian,
            contains_palm_oil: because_palm,
        },
    }
}

/// The product's answer to one question and the parts, as printed, that decided it.
fn answer(ctx: &Context<'_>, items: &[&ItemFacts<'_>], q: Question) -> (Answer, Vec<String>) {
    let mut worst = q.clear();
    let mut because: Vec<String> = Vec::new();
    for item in items {
        for (part, a) in item_answers(ctx, &item.parts, q) {
            if q.rank(a) > q.rank(worst) {
                worst = a;
                because.clear();
            }
            if a == worst && a != q.clear() && !because.iter().any(|b| b == part.printed) {
                because.push(part.printed.to_owned());
            }
        }
    }
    (worst, because)
}

/// What each deciding part of one item answers: the head (standing for its composition
/// when that settles a `maybe`), then its sub-ingredients.
fn item_answers<'p, 'kb>(
    ctx: &Context<'_>,
    parts: &'p [Part<'kb>],
    q: Question,
) -> Vec<(&'p Part<'kb>, Answer)> {
    // "Water (Aqua, Eua)", "Butyrospermum Parkii (Shea) Butter": a recognised head whose
    // brackets hold nothing else recognised restates its own name (translations, spellings).
    // A restatement hides no ingredient: its words name none that answers worse.
    let restated = parts.first().is_some_and(|h| h.head && h.entry.is_some())
        && parts[1..].iter().all(|p| {
            p.entry.is_none()
                && p.class.is_none()
                && words_answer(ctx.kb, p.printed, q) == q.clear()
        });
    let parts = if restated { &parts[..1] } else { parts };
    let mut out: Vec<(&Part<'_>, Answer)> =
        parts.iter().map(|p| (p, part_answer(ctx, p, q))).collect();
    let Some((head, head_answer)) = out.first().copied() else {
        return out;
    };
    let subs = &out[1..];
    let composition_known = !subs.is_empty() && subs.iter().all(|(p, _)| p.entry.is_some());
    if head.head && head_answer == Answer::Maybe && composition_known {
        // "lecithin (soy)": the listed composition says what the head is made from.
        out.remove(0);
    }
    out
}

/// What one part answers: its entry's answer, or worse when a word of a name read only by its
/// head, or of a name no step knows, is itself an ingredient that answers worse ("shrimp
/// salt", "… clover honey").
fn part_answer(ctx: &Context<'_>, part: &Part<'_>, q: Question) -> Answer {
    let own = entry_answer(ctx, part, q);
    if matches!(q, Question::Palm) {
        return own;
    }
    let words = if part.entry.is_none() && part.class.is_none() {
        part.printed
    } else if part.by_head {
        // The word before an English head ("shrimp salt"); the words after a Romance one are
        // its forms ("cacao en polvo": polvo is powder here, octopus in Portuguese).
        part.printed.split(' ').next().unwrap_or_default()
    } else {
        return own;
    };
    let worst = words_answer(ctx.kb, words, q);
    if q.rank(worst) > q.rank(own) {
        worst
    } else {
        own
    }
}

/// The worst answer of the words of a name that are ingredients of their own.
fn words_answer(kb: &KnowledgeBase, printed: &str, q: Question) -> Answer {
    let mut worst = q.clear();
    // Each word as printed: its accents tell "cacao" (cocoa) from "cação" (dogfish).
    for word in printed
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 3)
    {
        if let Some(r) = kb.resolve(word)
            && matches!(r.kind, MatchKind::Exact | MatchKind::Plural)
        {
            let a = q.of_entry(r.ingredient);
            if q.rank(a) > q.rank(worst) {
                worst = a;
            }
        }
    }
    worst
}

/// What one part's entry (or function class) answers.
fn entry_answer(ctx: &Context<'_>, part: &Part<'_>, q: Question) -> Answer {
    match (part.entry, part.class) {
        // "香料" in a food: a cosmetic fragrance name that a food's label uses for its
        // flavouring.
        (Some(ing), _) if is_flavouring_in_food(ctx.product_category, ing) => {
            class_answer(ctx.kb, FLAVOURING_CLASS, q)
        }
        (Some(ing), _) => {
            let a = q.of_entry(ing);
            if a == Answer::Maybe && names_its_plant(ctx.kb, part.printed, ing, q) {
                q.clear()
            } else if matches!(q, Question::Palm)
                && a != Answer::Yes
                && ing.nova == Some(2)
                && names_palm(part.printed)
                && !names_palm(&ing.name)
            {
                // "partially hydrogenated palm and canola oils": a culinary fat read by its
                // last plant, whose name also says palm.
                Answer::Yes
            } else {
                a
            }
        }
        (None, Some(class)) => class_answer(ctx.kb, class, q),
        // A name no step knows decides nothing (unless it says palm): how much of the list is
        // known is what `enough_known` weighs.
        (None, None) => match q {
            Question::Palm if names_palm(part.printed) => Answer::Yes,
            _ => q.clear(),
        },
    }
}

/// A function class named alone ("émulsifiant"): `maybe` when some additive of that class is
/// not vegan (or from palm), since the label does not say which one it is.
fn class_answer(kb: &KnowledgeBase, class: &str, q: Question) -> Answer {
    let function = function_of_class(class);
    let mut any = false;
    for (_, ing) in kb.with_function(&function) {
        if ing.e_number.is_none() {
            continue;
        }
        any = true;
        if q.of_entry(ing) != q.clear() {
            return Answer::Maybe;
        }
    }
    if any { q.clear() } else { Answer::Maybe }
}

/// The function id of a class's English name: "Raising agent" → `raising-agent`.
pub(super) fn function_of_class(class: &str) -> String {
    class.trim().to_lowercase().replace(' ', "-")
}

/// "soya lecithin", "sunflower lecithin": a `maybe` entry whose printed name also names the
/// plant it is made from (another word of the name is a vegan plant food of the knowledge
/// base). Palm oil is not settled this way: a plant named does not say it holds no palm.
fn names_its_plant(kb: &KnowledgeBase, printed: &str, ing: &Ingredient, q: Question) -> bool {
    if matches!(q, Question::Palm) || !matches!(ing.diet, Diet::Maybe | Diet::MaybeVegan) {
        return false;
    }
    let folded = fold(printed);
    let own = fold(&ing.name);
    folded
        .split(' ')
        .filter(|w| w.len() >= 3 && !own.contains(*w))
        .any(|word| {
            kb.resolve(word).is_some_and(|r| {
                matches!(r.kind, MatchKind::Exact | MatchKind::Plural)
                    && r.ingredient.diet == Diet::Vegan
                    && r.ingredient.function == "food"
            })
        })
}

/// Whether a name says palm (oil palm) in one of the label languages.
fn names_palm(name: &str) -> bool {
    Families::embedded()
        .palm()
        .is_some_and(|f| f.named_in(&fold(name)))
}

/// The function class a cosmetic fragrance name stands for in a food.
pub(super) const FLAVOURING_CLASS: &str = "Flavouring";

/// Whether the entry is a cosmetic fragrance ("Parfum", "香料") named in a food, where it is
/// the food's flavouring.
pub(super) fn is_flavouring_in_food(product: ProductCategory, ing: &Ingredient) -> bool {
    product == ProductCategory::Food
        && ing.function == "fragrance"
        && ing.category == ProductCategory::Cosmetics
}
