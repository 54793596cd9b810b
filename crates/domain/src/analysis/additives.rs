//! Every food additive of the list by its E-number, in the order printed, each once: named
//! ("sodium bicarbonate"), numbered ("E500"), or a class with its member ("emulsifier
//! (E471)", "Säuerungsmittel Citronensäure"). A member of a sub-numbered group is listed under
//! the group's number too (E500(ii) and E500), as the Union list authorises the group; a
//! lecithin or beta-carotene under its more precise INS number too (E322 and E322i); a
//! substance whose INS number is not the Union list's (magnesium stearate: INS 572, of the
//! Union list's E 470b, salts of fatty acids) under its own number only. An additive that is
//! as often a nutrient (ascorbic acid, calcium chloride) or a food (caramel) is listed only
//! where the label names its function, in the name or beside it, or its number
//! (`data/additive-groups.toml`).

use super::Additive;
use super::context::Context;
use super::item::{ItemFacts, added_as_nutrient};
use crate::grammar::{class_of, is_class_word};
use crate::knowledge::Ingredient;
use crate::knowledge::facts::{AdditiveGroups, compact_code, group_of};
use crate::parse::ParsedIngredient;
use crate::shared::SharedStr;
use crate::text::fold::fold;

/// The additives of the non-trace items.
pub(super) fn additives(ctx: &Context<'_>, items: &[&ItemFacts<'_>]) -> Vec<Additive> {
    let mut out: Vec<Additive> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        for (j, part) in item.parts.iter().enumerate() {
            let Some(ing) = part.entry else {
                continue;
            };
            if ing.e_number.is_none() && ing.ins.is_none() {
                continue;
            }
            // Only a vitamin or mineral form is a nutrient among nutrients: "gum arabic,
            // magnesium" or "carrageenan, vitamin D3" stay additives.
            if ing
                .e_number
                .as_deref()
                .is_some_and(|e| AdditiveGroups::embedded().can_be_nutrient(e))
                && added_as_nutrient(items, i, j)
            {
                continue;
            }
            // An entry named for its source ("Soy Lecithin") carries the additive's INS
            // number only: the E-number belongs to the additive's own entry.
            // (code, whether it is the Union list's number rather than an INS one)
            let ins = ing.ins.as_deref().map(|n| format!("E{}", compact_code(n)));
            // INS 572 is magnesium stearate itself, E 470b the Union list's group of salts.
            let own_number = match (&ing.e_number, &ins) {
                (Some(e), Some(i)) => !i.starts_with(e.as_str()),
                _ => false,
            };
            let codes: Vec<(String, bool)> = ing
                .e_number
                .iter()
                .filter(|_| !own_number)
                .map(|n| (compact_code(n), true))
                .chain(ins.map(|n| (n, false)))
                .collect();
            if ing
                .e_number
                .as_deref()
                .is_some_and(|e| AdditiveGroups::embedded().needs_function(e))
                && !item.listed_function
                && !named_with_function(item.parsed, part.printed, &e_digits(ing), false)
                && !calls_itself_a_colour(part.printed)
            {
                continue;
            }
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

/// The E-number of an entry in lower case without spaces ("e509"), to find it printed.
fn e_digits(ing: &Ingredient) -> String {
    ing.e_number
        .as_deref()
        .map(|e| compact_code(e).to_lowercase())
        .unwrap_or_default()
}

/// Whether the label names the function of the ingredient printed `printed` within `node`,
/// or its number `code`: under a class word ("antioxidant: ascorbic acid"), with one in its
/// brackets ("calcium chloride (firming agent)"), followed by "as" and one ("calcium
/// chloride as firming agent"), or with its E-number beside it.
fn named_with_function(
    node: &ParsedIngredient,
    printed: &str,
    code: &str,
    under_class: bool,
) -> bool {
    // "natural coloring (beet red, caramel)": a colour class with a qualifier names it too.
    let class_here = is_class_word(&node.name) || calls_itself_a_colour(&node.name);
    if node
        .sub
        .iter()
        .any(|s| named_with_function(s, printed, code, class_here))
    {
        return true;
    }
    if !node.name.contains(printed) && !printed.contains(node.name.as_str()) {
        return false;
    }
    let text = node.text.to_lowercase();
    under_class
        || node.sub.iter().any(|s| is_class_word(&s.name))
        || (!code.is_empty() && text.replace(' ', "").contains(code))
        || text
            .split_once(" as ")
            .is_some_and(|(_, after)| is_class_word(after.trim_end_matches(['.', ')'])))
}

/// Whether the name as printed calls itself a colour ("caramel color", "colorant caramel"):
/// the label names the function in the name. Only the colour class: other class words are
/// part of chemical names ("ascorbic acid").
fn calls_itself_a_colour(printed: &str) -> bool {
    printed
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| !w.is_empty() && class_of(w) == Some("Colour"))
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
