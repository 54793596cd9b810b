//! The product-level advice, written for the user's expertise ([`summarize`]): a verdict and
//! what drives it for beginners, the rule that fired and the regulatory detail for experts.

use super::Expertise;
use super::context::Context;
use super::input::AnalysisInput;
use super::item::ItemFacts;
use super::prose::{dedup, first_sentence, names_list};
use super::risk::RiskRule;
use super::score::{ALLERGEN_SCORE, UNKNOWN_SCORE};
use super::{FactSource, IngredientDetail, OverallRisk, Recommendation};

/// One top-level ingredient: its detail and its facts.
type Row<'d, 'kb> = (&'d IngredientDetail, &'d ItemFacts<'kb>);

/// What both summaries are written from.
struct Product<'d, 'kb> {
    rows: Vec<Row<'d, 'kb>>,
    /// Ingredients that match a declared allergy.
    matches: Vec<Row<'d, 'kb>>,
    /// Up to three known, non-trace ingredients that are not SAFE, worst first.
    drivers: Vec<Row<'d, 'kb>>,
    /// Names not in the knowledge base.
    unknown: Vec<&'d str>,
    /// Names whose score the skin type lowered.
    skin: Vec<&'d str>,
    overall: OverallRisk,
    rule: RiskRule,
    average: f64,
    /// The label's allergen declarations that match: (as declared, groups, the allergy).
    declared: &'d [(String, Vec<&'static str>, usize)],
}

/// The product-level advice, written for the user's expertise.
pub(super) fn summarize(
    ctx: &Context<'_>,
    input: &AnalysisInput,
    details: &[IngredientDetail],
    items: &[ItemFacts<'_>],
    (overall, rule): (OverallRisk, RiskRule),
    average: f64,
    declared: &[(String, Vec<&'static str>, usize)],
) -> String {
    let rows: Vec<Row<'_, '_>> = details.iter().zip(items).collect();
    let matches: Vec<Row<'_, '_>> = rows
        .iter()
        .copied()
        .filter(|(d, _)| d.is_allergen_match)
        .collect();
    let mut drivers: Vec<Row<'_, '_>> = rows
        .iter()
        .copied()
        .filter(|(d, f)| {
            !f.trace && !d.is_allergen_match && d.recommendation != Recommendation::Safe && f.known
        })
        .collect();
    drivers.sort_by_key(|(d, _)| d.safety_score);
    drivers.truncate(3);
    let unknown: Vec<&str> = rows
        .iter()
        .filter(|(_, f)| !f.known)
        .map(|(d, _)| d.name.as_str())
        .collect();
    let skin: Vec<&str> = rows
        .iter()
        .filter(|(_, f)| f.skin_affected)
        .map(|(d, _)| d.name.as_str())
        .collect();
    let product = Product {
        rows,
        matches,
        drivers,
        unknown,
        skin,
        overall,
        rule,
        average,
        declared,
    };
    let mut s = match input.expertise {
        Expertise::Beginner => beginner(ctx, &product),
        Expertise::Expert => expert(ctx, &product),
    };
    s.extend(closing_notes(ctx, input, details));
    s.join(" ")
}

/// A verdict, the allergen match or what drives it, the worst one's main concern, skin-type
/// advice, one concrete swap, how many ingredients could not be checked.
fn beginner(ctx: &Context<'_>, p: &Product<'_, '_>) -> Vec<String> {
    let mut s: Vec<String> = Vec::new();
    let verdict = match p.overall {
        OverallRisk::High if !p.matches.is_empty() || !p.declared.is_empty() => {
            "Not for you".to_owned()
        }
        OverallRisk::High => "Better avoid".to_owned(),
        OverallRisk::Medium => "Use with care".to_owned(),
        _ => "Looks fine".to_owned(),
    };
    if !p.matches.is_empty() {
        let names: Vec<&str> = p.matches.iter().map(|(d, _)| d.name.as_str()).collect();
        let groups: Vec<&str> = dedup(
            p.matches
                .iter()
                .flat_map(|(_, f)| f.allergy_groups.iter().map(|g| g.label()))
                .collect(),
        );
        let what = if groups.is_empty() {
            "something you listed as an allergy".to_owned()
        } else {
            names_list(&groups)
        };
        s.push(format!(
            "{verdict}: this product contains {what}, which you are allergic to ({}).",
            names_list(&names)
        ));
    } else if !p.declared.is_empty() {
        let groups: Vec<&str> = dedup(
            p.declared
                .iter()
                .flat_map(|(_, g, _)| g.iter().copied())
                .collect(),
        );
        s.push(format!(
            "{verdict}: the label declares {}, which you are allergic to.",
            names_list(&groups)
        ));
    } else if p.drivers.is_empty() {
        s.push(format!("{verdict}: no ingredient of concern found."));
    } else if p.overall == OverallRisk::Low {
        let names: Vec<&str> = p.drivers.iter().map(|(d, _)| d.name.as_str()).collect();
        s.push(format!(
            "{verdict}: only minor points ({}).",
            names_list(&names)
        ));
    } else {
        let names: Vec<&str> = p.drivers.iter().map(|(d, _)| d.name.as_str()).collect();
        s.push(format!("{verdict}: watch {}.", names_list(&names)));
        if let Some((d, f)) = p.drivers.first()
            && let Some(h) = &f.headline
        {
            s.push(format!("{}: {}", d.name, first_sentence(h)));
        }
    }
    if !p.skin.is_empty() {
        s.push(format!(
            "For your {} skin, {} may cause trouble.",
            ctx.skin.as_str(),
            names_list(&p.skin)
        ));
    }
    if let Some((d, _)) = p.drivers.first().or(p.matches.first())
        && let Some(alt) = d.alternatives.first()
    {
        s.push(format!(
            "Look for products with {alt} instead of {}.",
            d.name
        ));
    }
    if !p.unknown.is_empty() {
        s.push(format!(
            "We could not check {} ingredient{} ({}).",
            p.unknown.len(),
            if p.unknown.len() == 1 { "" } else { "s" },
            names_list(&p.unknown.iter().take(5).copied().collect::<Vec<_>>())
        ));
    }
    s
}

/// The overall risk and the rule that fired, counts, allergen matches with their groups,
/// each driver with its mechanism and first source, the regulatory status, skin-type
/// effects, unidentified names.
fn expert(ctx: &Context<'_>, p: &Product<'_, '_>) -> Vec<String> {
    let mut s: Vec<String> = Vec::new();
    let average = p.average;
    let traces = p.rows.iter().filter(|(_, f)| f.trace).count();
    s.push(format!(
        "Overall risk {} (rule: {}). Mean safety score {average:.1}/10 over {} ingredients ({} unknown to the knowledge base, {traces} from precautionary \"may contain\" statements).",
        match p.overall {
            OverallRisk::High => "HIGH",
            OverallRisk::Medium => "MEDIUM",
            _ => "LOW",
        },
        p.rule.describe(),
        p.rows.len(),
        p.unknown.len(),
    ));
    if !p.matches.is_empty() {
        let parts: Vec<String> = p
            .matches
            .iter()
            .map(|(d, f)| {
                let g: Vec<&str> = f.allergy_groups.iter().map(|g| g.label()).collect();
                if g.is_empty() {
                    format!("{} (name match)", d.name)
                } else {
                    format!("{} → {}", d.name, g.join(", "))
                }
            })
            .collect();
        s.push(format!(
            "Declared-allergy matches (groups of Reg. (EU) No 1169/2011 Annex II and the EU labelled fragrance allergens): {}; scores capped at {ALLERGEN_SCORE}.",
            parts.join("; ")
        ));
    }
    if !p.declared.is_empty() {
        let parts: Vec<String> = p
            .declared
            .iter()
            .map(|(text, g, _)| format!("{text} → {}", g.join(", ")))
            .collect();
        s.push(format!(
            "Allergens declared on the label (Reg. (EU) No 1169/2011 Art. 21) that match your allergies: {}.",
            parts.join("; ")
        ));
    }
    for (d, f) in &p.drivers {
        let head = f
            .headline
            .as_deref()
            .map(first_sentence)
            .unwrap_or_default();
        let refs = d
            .references
            .first()
            .map(|r| format!(" [{r}]"))
            .unwrap_or_default();
        s.push(format!(
            "{} ({}, {}/10, {}): {head}{refs}",
            d.name,
            d.purpose,
            d.safety_score,
            match d.recommendation {
                Recommendation::Avoid => "AVOID",
                Recommendation::Caution => "CAUTION",
                Recommendation::Safe => "SAFE",
            }
        ));
    }
    let regulatory: Vec<String> = p
        .rows
        .iter()
        .flat_map(|(d, f)| f.regulatory.iter().map(move |r| format!("{}: {r}", d.name)))
        .take(4)
        .collect();
    if !regulatory.is_empty() {
        s.push(format!("Regulatory status: {}", regulatory.join(" ")));
    }
    if !p.skin.is_empty() {
        s.push(format!(
            "Skin type {}: scores lowered for {} (barrier disruption, sensitisation or comedogenicity, per the entries' skin flags).",
            ctx.skin.as_str(),
            names_list(&p.skin)
        ));
    }
    if !p.unknown.is_empty() {
        s.push(format!(
            "Unidentified (scored {UNKNOWN_SCORE}, not guessed): {}.",
            names_list(&p.unknown.iter().take(8).copied().collect::<Vec<_>>())
        ));
    }
    s
}

/// What both summaries end with: the names an LLM explained, and the allergy words matched by
/// name only.
fn closing_notes(
    ctx: &Context<'_>,
    input: &AnalysisInput,
    details: &[IngredientDetail],
) -> Vec<String> {
    let mut s: Vec<String> = Vec::new();
    let unmatched_words: Vec<&str> = ctx
        .allergies
        .iter()
        .filter(|a| a.groups.is_empty())
        .map(|a| a.given.as_str())
        .collect();
    let explained: Vec<&str> = details
        .iter()
        .filter(|d| d.source == FactSource::Llm)
        .map(|d| d.name.as_str())
        .take(8)
        .collect();
    if let (Some(extra), false) = (ctx.extra, explained.is_empty()) {
        s.push(match input.expertise {
            Expertise::Beginner => format!(
                "Our knowledge base does not list {}: an AI model explained {}, so treat that as a hint, not a verdict.",
                names_list(&explained),
                if explained.len() == 1 { "it" } else { "them" }
            ),
            Expertise::Expert => format!(
                "Not in the knowledge base, explained by a language model ({}, unreviewed): {}.",
                extra.label(),
                names_list(&explained)
            ),
        });
    }
    if !unmatched_words.is_empty() {
        s.push(format!(
            "'{}' is not an allergen group we know, so it was matched by ingredient name only.",
            unmatched_words.join("', '")
        ));
    }
    s
}
