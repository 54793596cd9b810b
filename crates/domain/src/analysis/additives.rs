//! Every food additive of the list by its E-number, in the order printed, each once: named
//! ("sodium bicarbonate"), numbered ("E500"), or a class with its member ("emulsifier
//! (E471)", "Säuerungsmittel Citronensäure"). A member of a sub-numbered group is listed under
//! the group's number too (E500(ii) and E500), as the Union list authorises the group; a
//! lecithin or beta-carotene under its more precise INS number too (E322 and E322i).

use super::Additive;
use super::context::Context;
use super::item::{ItemFacts, added_as_nutrient};
use crate::knowledge::Ingredient;
use crate::knowledge::facts::{AdditiveGroups, compact_code, group_of};
use crate::knowledge::fold::fold;
use crate::shared::SharedStr;

/// The additives of the non-trace items.
pub(super) fn additives(ctx: &Context<'_>, items: &[&ItemFacts<'_>]) -> Vec<Additive> {
    let mut out: Vec<Additive> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        for (j, part) in item.parts.iter().enumerate() {
            let Some(ing) = part.entry else {
                continue;
            };
            if (ing.e_number.is_none() && ing.ins.is_none()) || added_as_nutrient(items, i, j) {
                continue;
            }
            // An entry named for its source ("Soy Lecithin") carries the additive's INS
            // number only: the E-number belongs to the additive's own entry.
            // (code, whether it is the Union list's number rather than an INS one)
            let codes: Vec<(String, bool)> = ing
                .e_number
                .iter()
                .map(|n| (compact_code(n), true))
                .chain(
                    ing.ins
                        .iter()
                        .map(|n| (format!("E{}", compact_code(n)), false)),
                )
                .collect();
            // "E503", "ammonium carbonates": a label that names the group names no member.
            let printed = fold(part.printed).replace(' ', "");
            for (code, union_list) in codes {
                if union_list
                    && let Some(group) = group_of(&code)
                    && (printed == group.to_lowercase()
                        || AdditiveGroups::embedded()
                            .name(group)
                            .is_some_and(|n| fold(n).replace(' ', "") == printed))
                {
                    let name = AdditiveGroups::embedded().name(group).unwrap_or_default();
                    if !out.iter().any(|a| a.code.eq_ignore_ascii_case(group)) {
                        out.push(Additive {
                            code: group.to_owned(),
                            name: name.into(),
                            function: ing.function.replace('-', " "),
                            ingredient: part.printed.to_owned(),
                            concern: concern(ctx, ing),
                        });
                    }
                    continue;
                }
                let mut push = |code: &str, name: SharedStr| {
                    if !out.iter().any(|a| a.code.eq_ignore_ascii_case(code)) {
                        out.push(Additive {
                            code: code.to_owned(),
                            name,
                            function: ing.function.replace('-', " "),
                            ingredient: part.printed.to_owned(),
                            concern: concern(ctx, ing),
                        });
                    }
                };
                push(&code, entry_name(ctx, ing));
                // A sub-numbered member is listed under its group's number too.
                if let Some(group) = group_of(&code)
                    && let Some(name) = AdditiveGroups::embedded().name(group)
                {
                    push(group, name.into());
                }
            }
        }
    }
    out
}

fn entry_name(ctx: &Context<'_>, ing: &Ingredient) -> SharedStr {
    ctx.kb
        .lookup_index(&ing.name)
        .and_then(|i| ctx.prepared(i))
        .map_or_else(|| ing.name.as_str().into(), |p| p.name.clone())
}

/// The entry's first documented concern and who said it (its source's title up to the first
/// colon: "EFSA ANS Panel (2016)"), or empty.
fn concern(ctx: &Context<'_>, ing: &Ingredient) -> String {
    let Some(c) = ing.concerns.first() else {
        return String::new();
    };
    let text = c.text.trim_end_matches('.');
    match ctx.kb.source(&c.source) {
        Some(s) => format!(
            "{text} ({})",
            s.title.split(':').next().unwrap_or_default().trim()
        ),
        None => format!("{text}."),
    }
}
