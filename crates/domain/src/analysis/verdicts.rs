//! The product verdicts of a successful analysis ([`Verdicts`]): how much of the list is
//! recognised ([`Coverage`]), and from the non-trace ingredients the diet answers
//! ([`diet`](super::diet)), the NOVA group ([`processing`](super::processing)) and the food
//! additives ([`additives`](super::additives)). A cosmetic has no NOVA group and no food
//! additives; not enough known gives `unknown` and a `null` group, never a guess.

use super::additives::additives;
use super::context::Context;
use super::diet::diet_answers;
use super::item::{ItemFacts, Part};
use super::processing::processing;
use super::{Coverage, ProductCategory, Verdicts};

/// Enough is known to answer when at least this share of the ingredients is recognised
/// (numerator, denominator): two in three (docs/decisions.md, "Product verdicts").
pub const ENOUGH_KNOWN: (usize, usize) = (2, 3);

/// The verdicts of the analysed items.
pub(super) fn verdicts(ctx: &Context<'_>, items: &[ItemFacts<'_>]) -> Verdicts {
    let facts: Vec<&ItemFacts<'_>> = items.iter().filter(|f| !f.trace).collect();
    let (mut named, mut recognised) = (0, 0);
    for f in &facts {
        let (n, r) = counted(f);
        named += n;
        recognised += r;
    }
    let coverage = Coverage {
        items: named,
        recognised,
        enough_known: named > 0 && recognised * ENOUGH_KNOWN.1 >= named * ENOUGH_KNOWN.0,
    };
    let cosmetic = ctx.product_category == ProductCategory::Cosmetics;
    Verdicts {
        diet: diet_answers(ctx, &facts, coverage.enough_known),
        processing: (!cosmetic)
            .then(|| processing(ctx.kb, ctx.product_category, &facts, coverage.enough_known)),
        additives: if cosmetic {
            Vec::new()
        } else {
            additives(ctx, &facts)
        },
        coverage,
    }
}

/// How many ingredients an item names and how many of them are recognised: its head when it
/// is an ingredient (a compound whose own name is unknown, "filling (…)", is counted by its
/// parts), and its sub-ingredients, unless they only restate a recognised head ("Water
/// (Aqua, Eua)").
fn counted(item: &ItemFacts<'_>) -> (usize, usize) {
    let known = |p: &Part<'_>| p.entry.is_some() || p.class.is_some();
    let parts = &item.parts;
    let Some(head) = parts.first() else {
        return (1, 0);
    };
    let subs = &parts[1..];
    if head.head && known(head) && subs.iter().all(|p| !known(p)) {
        return (1, 1);
    }
    let counted = parts
        .iter()
        .filter(|p| !p.head || known(p) || subs.is_empty());
    counted.fold((0, 0), |(n, r), p| (n + 1, r + usize::from(known(p))))
}
