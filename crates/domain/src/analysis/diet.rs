//! Whether the product is vegan, vegetarian, and contains palm oil, with the ingredients that
//! decided each answer (docs/analysis.md, "Product verdicts").
//!
//! Each part of an item (its head, its sub-ingredients) answers from its entry's facts
//! ([`Diet`], [`Palm`]); a name no step knows decides nothing by itself (whether enough of the
//! list is known to answer at all is the coverage's rule, in `verdicts`), but a word of it that
//! is an ingredient does. A head that answers `maybe` gives way to its listed composition when
//! every sub-ingredient is recognised ("lecithin (soy)", "vegetable oil (sunflower,
//! rapeseed)"), and to a plant named in its own name ("soya lecithin"). The product's answer
//! is the worst of its parts': `no` over `maybe` over `yes` (for palm oil, `yes` over `maybe`
//! over `no`). Each part's three answers are worked out once.

use super::context::Context;
use super::item::{ItemFacts, Part};
use super::{Answer, DietAnswers, DietBecause, ProductCategory};
use crate::knowledge::facts::{Diet, Palm};
use crate::knowledge::family::Families;
use crate::knowledge::{Ingredient, KnowledgeBase, MatchKind};
use crate::text::fold::fold;

/// The three questions, in the order of [`DietAnswers`].
#[derive(Clone, Copy)]
enum Question {
    Vegan = 0,
    Vegetarian = 1,
    Palm = 2,
}

const QUESTIONS: [Question; 3] = [Question::Vegan, Question::Vegetarian, Question::Palm];

/// A part's answers to the three questions.
type Answers = [Answer; 3];

/// The answers that need no ingredient named behind them.
const CLEAR: Answers = [Answer::Yes, Answer::Yes, Answer::No];

impl Question {
    /// How bad an answer is for this question: the product takes its parts' worst.
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
}

/// The worse of two answers to question `q`.
fn worse(q: Question, a: Answer, b: Answer) -> Answer {
    if q.rank(b) > q.rank(a) { b } else { a }
}

/// What an entry's diet answers to vegan and vegetarian.
fn of_diet(diet: Diet) -> (Answer, Answer) {
    (diet.vegan(), diet.vegetarian())
}

fn of_palm(palm: Option<Palm>) -> Answer {
    match palm {
        Some(Palm::Yes) => Answer::Yes,
        Some(Palm::Maybe) => Answer::Maybe,
        None => Answer::No,
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
    let mut worst = CLEAR;
    let mut because: [Vec<&str>; 3] = Default::default();
    let mut answers: Vec<Answers> = Vec::new();
    for item in items {
        answers.clear();
        answers.extend(item.parts.iter().map(|p| part_answers(ctx, p)));
        let deciding = Deciding::of(&item.parts, &answers);
        for q in QUESTIONS {
            let qi = q as usize;
            for (i, (part, a)) in item.parts[..deciding.end].iter().zip(&answers).enumerate() {
                let a = a[qi];
                if i == 0 && deciding.skip_maybe_head && a == Answer::Maybe {
                    continue;
                }
                if q.rank(a) > q.rank(worst[qi]) {
                    worst[qi] = a;
                    because[qi].clear();
                }
                if a == worst[qi] && a != CLEAR[qi] && !because[qi].contains(&part.printed) {
                    because[qi].push(part.printed);
                }
            }
        }
    }
    let owned = |names: &[&str]| names.iter().map(|n| (*n).to_owned()).collect();
    DietAnswers {
        vegan: worst[0],
        vegetarian: worst[1],
        contains_palm_oil: worst[2],
        because: DietBecause {
            vegan: owned(&because[0]),
            vegetarian: owned(&because[1]),
            contains_palm_oil: owned(&because[2]),
        },
    }
}

/// Which parts of one item decide its answers: a recognised head whose brackets hold nothing
/// else recognised ("Water (Aqua, Eua)", "Butyrospermum Parkii (Shea) Butter") restates its
/// own name, unless a word there is an ingredient that answers worse (only the head decides);
/// a head that answers `maybe` stands for its composition when every part of it is recognised
/// ("lecithin (soy)": the head's `maybe` is skipped).
struct Deciding {
    /// The parts `..end` decide.
    end: usize,
    skip_maybe_head: bool,
}

impl Deciding {
    fn of(parts: &[Part<'_>], answers: &[Answers]) -> Self {
        let head_known = parts.first().is_some_and(|h| h.head && h.entry.is_some());
        let subs = parts.get(1..).unwrap_or_default();
        let restated = head_known
            && subs
                .iter()
                .zip(&answers[1..])
                .all(|(p, a)| p.entry.is_none() && p.class.is_none() && *a == CLEAR);
        Self {
            end: if restated { 1 } else { parts.len() },
            skip_maybe_head: head_known
                && !subs.is_empty()
                && subs.iter().all(|p| p.entry.is_some()),
        }
    }
}

/// One part's answers: its entry's (or function class's), or worse when a word of a name no
/// step knows, or the word before a head the name was read by ("shrimp salt"), is itself an
/// ingredient that answers worse ("… clover honey").
fn part_answers(ctx: &Context<'_>, part: &Part<'_>) -> Answers {
    let mut answers = entry_answers(ctx, part);
    let words = if part.entry.is_none() && part.class.is_none() {
        part.printed
    } else if part.kind == Some(MatchKind::Head) {
        // The word before an English head; the words after a Romance one are its forms
        // ("cacao en polvo": polvo is powder here, octopus in Portuguese).
        part.printed.split(' ').next().unwrap_or_default()
    } else {
        return answers;
    };
    if let Some(diet) = worst_word(ctx.kb, words) {
        let (vegan, vegetarian) = of_diet(diet);
        answers[0] = worse(Question::Vegan, answers[0], vegan);
        answers[1] = worse(Question::Vegetarian, answers[1], vegetarian);
    }
    if part.entry.is_none() && part.class.is_none() && names_palm(part.printed) {
        answers[2] = Answer::Yes;
    }
    answers
}

/// The least vegan diet among the words of a name that are ingredients of their own (each
/// word as printed: its accents tell "cacao", cocoa, from "cação", dogfish).
fn worst_word(kb: &KnowledgeBase, name: &str) -> Option<Diet> {
    let rank = |d: Diet| {
        let (vegan, vegetarian) = of_diet(d);
        (
            Question::Vegetarian.rank(vegetarian),
            Question::Vegan.rank(vegan),
        )
    };
    name.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 3)
        .filter_map(|w| kb.resolve_exact(w).map(|r| r.ingredient.diet))
        .filter(|d| *d != Diet::Vegan)
        .max_by_key(|d| rank(*d))
}

/// What one part's entry (or function class) answers.
fn entry_answers(ctx: &Context<'_>, part: &Part<'_>) -> Answers {
    match (part.entry, part.class) {
        // "香料" in a food: a cosmetic fragrance name that a food's label uses for its
        // flavouring.
        (Some(ing), _) if is_flavouring_in_food(ctx.product_category, ing) => {
            class_answers(ctx.kb, FLAVOURING_CLASS)
        }
        (Some(ing), _) => {
            let (mut vegan, mut vegetarian) = of_diet(ing.diet);
            if matches!(ing.diet, Diet::Maybe | Diet::MaybeVegan)
                && names_its_plant(ctx.kb, part.printed, ing)
            {
                (vegan, vegetarian) = (Answer::Yes, Answer::Yes);
            }
            let mut palm = of_palm(ing.palm);
            // "partially hydrogenated palm and canola oils": a culinary fat read by its last
            // plant, whose name also says palm (a name of the entry itself does not).
            if palm != Answer::Yes
                && ing.nova == Some(2)
                && !part.is_a_name_of_its_entry()
                && names_palm(part.printed)
                && !names_palm(&ing.name)
            {
                palm = Answer::Yes;
            }
            [vegan, vegetarian, palm]
        }
        (None, Some(class)) => class_answers(ctx.kb, class),
        (None, None) => CLEAR,
    }
}

/// A function class named alone ("émulsifiant"): `maybe` when some additive of that class is
/// not vegan (or from palm), since the label does not say which one it is.
fn class_answers(kb: &KnowledgeBase, class: &str) -> Answers {
    let function = function_of_class(class);
    let mut any = false;
    let mut answers = CLEAR;
    for (_, ing) in kb.with_function(&function) {
        if ing.e_number.is_none() {
            continue;
        }
        any = true;
        let (vegan, vegetarian) = of_diet(ing.diet);
        for (i, a) in [vegan, vegetarian, of_palm(ing.palm)]
            .into_iter()
            .enumerate()
        {
            if a != CLEAR[i] {
                answers[i] = Answer::Maybe;
            }
        }
    }
    if any { answers } else { [Answer::Maybe; 3] }
}

/// The function id of a class's English name: "Raising agent" → `raising-agent`.
pub(super) fn function_of_class(class: &str) -> String {
    class.trim().to_lowercase().replace(' ', "-")
}

/// "soya lecithin", "sunflower lecithin": a `maybe` entry whose printed name also names the
/// plant it is made from (another word of the name is a vegan plant food of the knowledge
/// base). Palm oil is not settled this way: a plant named does not say it holds no palm.
fn names_its_plant(kb: &KnowledgeBase, printed: &str, ing: &Ingredient) -> bool {
    let own = fold(&ing.name);
    printed
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 3 && !own.contains(&fold(w)))
        .any(|word| {
            kb.resolve_exact(word).is_some_and(|r| {
                r.ingredient.diet == Diet::Vegan && r.ingredient.function == "food"
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
