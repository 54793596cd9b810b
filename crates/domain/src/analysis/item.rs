//! One top-level ingredient of the list ([`analyze_item`]): its head and sub-ingredients
//! read as [`Finding`]s, the rules that weigh them on each other (Annex II exemptions, a
//! gluten-free claim, a listed composition against a generic name), and the
//! [`IngredientDetail`] with its facts for the product-level rules ([`ItemFacts`]).

use std::borrow::Cow;
use std::collections::BTreeSet;

use super::allergy::{allergy_groups, allergy_matches, found_by_word_note, word_matches};
use super::alternatives::{alternatives_for, substitutes_for};
use super::context::{Context, plant_source_nouns};
use super::finding::{Finding, finding};
use super::prose::dedup;
use super::score::{ALLERGEN_SCORE, UNKNOWN_SCORE};
use super::{
    AllergyRisk, FactSource, IngredientDetail, Origin, ProductCategory, Recommendation, RiskLevel,
    grade,
};
use crate::grammar::{class_of, component_of, is_class_word};
use crate::knowledge::allergy::AllergyAliases;
use crate::knowledge::inci_family;
use crate::knowledge::{AllergenGroup, MatchKind, Resolved};
use crate::parse::{ParsedIngredient, flatten_subs};
use crate::shared::SharedStr;
use crate::text::fold::fold;

/// What the product-level rules need to know about one top-level ingredient besides its
/// IngredientDetail.
pub(super) struct ItemFacts<'kb> {
    /// Listed as a possible trace ("may contain").
    pub(super) trace: bool,
    /// Recognised: its head, or every sub-ingredient, is a known entry.
    pub(super) known: bool,
    /// The allergen warning's reason, on a match.
    pub(super) warning: Option<String>,
    /// The allergen groups matched and the declared allergies, for the summary.
    pub(super) allergy_groups: Vec<AllergenGroup>,
    /// Whether the skin type lowered the score, for the summary.
    pub(super) skin_affected: bool,
    /// Regulatory highlights (Annex II, IARC), for the expert summary.
    pub(super) regulatory: Vec<Cow<'kb, str>>,
    /// The worst concern, for the summary (which shows its first sentence).
    pub(super) headline: Option<Cow<'kb, str>>,
}

/// What an item says of itself before its sub-ingredients weigh on it: from its primary
/// finding, from what it is made of, or as an unknown name or a function class alone.
struct Described<'kb> {
    canonical: Option<SharedStr>,
    purpose: SharedStr,
    origin: Origin,
    category: ProductCategory,
    known: bool,
    score: u8,
    notes: Vec<Cow<'kb, str>>,
    sources: Vec<&'kb str>,
    allergy: Vec<(String, usize)>,
    by_word: Vec<String>,
    /// The entry's pre-joined concerns, while nothing personal has been added to them.
    plain: Option<&'kb SharedStr>,
}

/// Analyses one top-level ingredient: its detail for the response and its facts for the
/// product-level rules.
pub(super) fn analyze_item<'kb>(
    ctx: &Context<'kb>,
    parsed: &'kb ParsedIngredient,
    head: Option<Resolved<'kb>>,
) -> (IngredientDetail, ItemFacts<'kb>) {
    // The whole text may itself be a name ("Fragrance (Parfum)", "Preservative (E211)").
    let whole = if parsed.sub.is_empty() {
        None
    } else {
        ctx.kb.resolve_exact(&parsed.text)
    };
    let head = whole.or(head);
    let subs: Vec<Finding<'_>> = if whole.is_some() {
        Vec::new()
    } else {
        sub_findings(ctx, parsed)
    };
    // "Filling: ricotta cheese (milk, salt)", "emulsifier: lecithin (soy)": a component
    // label or class word over one compound item stands for that item.
    if head.is_none()
        && let [inner] = parsed.sub.as_slice()
        && !inner.sub.is_empty()
        && let Some(inner_head) = ctx.resolve(&inner.name)
    {
        let (mut detail, facts) = analyze_item(ctx, inner, Some(inner_head));
        if is_class_word(&parsed.name) {
            detail.purpose = format!("{} (listed as '{}')", detail.purpose, parsed.name).into();
        }
        detail.name.clone_from(&parsed.text);
        return (detail, facts);
    }
    let is_class = head.is_none() && is_class_word(&parsed.name);
    // A class word or unknown name with a single known sub-ingredient stands for it.
    let (mut primary, mut subs) = match head {
        Some(h) => (Some(finding(ctx, &parsed.name, Some(h))), subs),
        None if subs.len() == 1 && subs[0].resolved.is_some() => {
            let mut subs = subs;
            (subs.pop(), Vec::new())
        }
        None => (None, subs),
    };
    let primary_index = primary.as_ref().and_then(|p| p.resolved).map(|r| r.index);
    drop_exempt_source(&mut primary, &mut subs);
    apply_gluten_free_claim(parsed, &mut primary, &mut subs);
    let mut own = describe(ctx, parsed, primary.as_mut(), &subs, is_class);
    // The primary finding's own sentences; [`EntryText::plain`] stands for them while no more
    // are added.
    let own_notes = own.notes.len();
    let worst_sub = weigh_subs(&mut own, &subs, primary_index);
    trust_listed_composition(parsed, primary.as_ref(), &subs, &mut own);
    if parsed.trace {
        own.notes.push(Cow::Borrowed(
            "Listed as a possible trace (\"may contain\"): not an intended ingredient; it matters if you are allergic to it.",
        ));
    }
    finish(
        ctx,
        parsed,
        own,
        own_notes,
        primary.as_ref(),
        &subs,
        worst_sub,
    )
}

/// The sub-ingredients of `parsed`, flattened, each read as a finding.
fn sub_findings<'kb>(ctx: &Context<'kb>, parsed: &'kb ParsedIngredient) -> Vec<Finding<'kb>> {
    let nouns = if parsed.sub.is_empty() {
        &[][..]
    } else {
        plant_source_nouns(&parsed.name)
    };
    flatten_subs(parsed)
        .into_iter()
        .map(|s| {
            // "Vegetable oil (sunflower, rapeseed)": a plant named alone is its oil.
            let resolved = ctx.resolve(&s.name).or_else(|| {
                nouns
                    .iter()
                    .find_map(|noun| ctx.resolve(&format!("{} {noun}", s.name)))
            });
            finding(ctx, &s.name, resolved)
        })
        .collect()
}

/// "Glukosesirup (Weizen)", "tocopherols (soy)": the bracket names the source of a product
/// the law exempts from that source's allergen labelling.
fn drop_exempt_source(primary: &mut Option<Finding<'_>>, subs: &mut [Finding<'_>]) {
    let exempt = primary
        .as_ref()
        .and_then(|p| p.resolved)
        .and_then(|r| exempt_derivative(&r.ingredient.name));
    if let Some((group, point)) = exempt {
        let mut dropped = false;
        for sub in subs.iter_mut() {
            dropped |= sub.drop_allergen(group);
        }
        if dropped && let Some(p) = primary.as_mut() {
            p.notes.push(Cow::Owned(format!(
                "Its source is named, but {} is exempt from allergen labelling for {} (Regulation (EU) 1169/2011 Annex II, {point}).",
                p.resolved.map_or("it", |r| r.ingredient.name.as_str()),
                group.label()
            )));
            p.plain = None;
        }
    }
}

/// "pasta: gluten free flour (maize starch, rice flour, …)": a gluten-free claim on the
/// compound's names (at most 20 mg/kg, Regulation (EU) No 828/2014) clears the gluten that
/// generic names (pasta, flour, pretzel) carry; a name that says a gluten cereal itself
/// ("wheat starch") still raises it.
fn apply_gluten_free_claim<'kb>(
    parsed: &ParsedIngredient,
    primary: &mut Option<Finding<'kb>>,
    subs: &mut [Finding<'kb>],
) {
    if parsed.sub.is_empty() || parsed.trace {
        return;
    }
    let aliases = AllergyAliases::embedded();
    let gluten = AllergenGroup::Gluten;
    let claim = std::iter::once(parsed)
        .chain(flatten_subs(parsed))
        .find(|p| aliases.negated_groups(&fold(&p.name)).contains(&gluten));
    let Some(claim) = claim else {
        return;
    };
    let mut cleared = false;
    let findings = primary.iter_mut().chain(subs.iter_mut());
    for f in findings {
        let names_cereal = aliases
            .words_in(&fold(f.label))
            .iter()
            .any(|w| w.group == gluten);
        if !names_cereal {
            cleared |= f.drop_allergen(gluten);
        }
    }
    if cleared && let Some(p) = primary.as_mut() {
        p.notes.push(Cow::Owned(format!(
            "'{}' is labelled gluten-free (at most 20 mg/kg, Regulation (EU) No 828/2014): the gluten its generic name usually carries is not raised.",
            claim.name
        )));
        p.plain = None;
    }
}

/// What the item says of itself: its primary finding's entry (whose notes are moved, not
/// copied), a compound known by what it is made of, or an unknown name or a function class
/// alone.
fn describe<'kb>(
    ctx: &Context<'kb>,
    parsed: &'kb ParsedIngredient,
    primary: Option<&mut Finding<'kb>>,
    subs: &[Finding<'kb>],
    is_class: bool,
) -> Described<'kb> {
    if let Some(p) = primary
        && let Some(r) = p.resolved
    {
        let ing = r.ingredient;
        let prepared = ctx.prepared(r.index);
        let canonical = Some(if r.kind == MatchKind::Family {
            // The member's own name, not its family's.
            inci_family::render(&parsed.name).into()
        } else {
            prepared.map_or_else(|| ing.name.as_str().into(), |t| t.name.clone())
        });
        let (purpose, category) = match ctx.cosmetic_view(r.index) {
            // Used in both kinds of product: it is one of them here.
            Some(view) => (view.purpose.clone(), ProductCategory::Both),
            None => (
                prepared.map_or_else(|| ing.purpose.as_str().into(), |t| t.purpose.clone()),
                ing.category,
            ),
        };
        return Described {
            canonical,
            purpose,
            origin: ing.origin,
            category,
            known: true,
            score: p.score,
            // Moved, not copied: the primary finding is not read for its notes again.
            notes: std::mem::take(&mut p.notes),
            sources: std::mem::take(&mut p.sources),
            allergy: p.allergy.clone(),
            by_word: Vec::new(),
            plain: p.plain,
        };
    }
    if subs.is_empty() {
        describe_unknown(ctx, parsed)
    } else {
        describe_compound(ctx, parsed, subs, is_class)
    }
}

/// "sauce 14% (water, mustard, salt)": a component, known by what it is made of; or a class
/// word over its items.
fn describe_compound<'kb>(
    ctx: &Context<'kb>,
    parsed: &'kb ParsedIngredient,
    subs: &[Finding<'kb>],
    is_class: bool,
) -> Described<'kb> {
    let canonical = (!is_class)
        .then(|| component_of(&parsed.name))
        .flatten()
        .map(SharedStr::from);
    let made_of: Vec<&str> = subs.iter().map(|s| s.label).collect();
    let purpose = if is_class {
        parsed.name.as_str().into()
    } else {
        format!("Compound ingredient made of {}", made_of.join(", ")).into()
    };
    let mut notes: Vec<Cow<'kb, str>> = Vec::new();
    let mut allergy: Vec<(String, usize)> = Vec::new();
    let mut by_word: Vec<String> = Vec::new();
    if !is_class && !parsed.name.is_empty() {
        by_word = word_matches(ctx, &parsed.name, &mut allergy);
        if !by_word.is_empty() {
            notes.push(Cow::Owned(found_by_word_note(&parsed.name, &by_word)));
        }
        notes.push(Cow::Owned(match &canonical {
            Some(component) => format!(
                "'{}' is read as a component ({component}) of the product; it is scored by its listed sub-ingredients.",
                parsed.name
            ),
            None => format!(
                "'{}' itself is not in the knowledge base; it is scored by its listed sub-ingredients.",
                parsed.name
            ),
        }));
    }
    Described {
        canonical,
        purpose,
        origin: combined_origin(subs),
        category: combined_category(subs, ctx.product_category),
        known: subs.iter().all(|s| s.resolved.is_some()),
        score: 10,
        notes,
        sources: Vec::new(),
        allergy,
        by_word,
        plain: None,
    }
}

/// A name no step knows, scored as unknown; or "émulsifiant", "膨脹剤", "Anionische Tenside"
/// alone: the label names what an ingredient does, not which one it is. The item is
/// recognised as that class (its English name), and scored as unknown, since the ingredient
/// is.
fn describe_unknown<'kb>(ctx: &Context<'kb>, parsed: &'kb ParsedIngredient) -> Described<'kb> {
    let name = if parsed.name.is_empty() {
        &parsed.text
    } else {
        &parsed.name
    };
    let class = class_of(name);
    let purpose = match class {
        Some(class) => {
            format!("{class} (a function class: the label does not name the ingredient)").into()
        }
        None => "Unknown: not in the knowledge base".into(),
    };
    let mut notes: Vec<Cow<'kb, str>> = Vec::new();
    let mut allergy = allergy_matches(ctx, name, None);
    let by_word = word_matches(ctx, name, &mut allergy);
    if !by_word.is_empty() {
        notes.push(Cow::Owned(found_by_word_note(name, &by_word)));
    }
    notes.push(Cow::Owned(match class {
        Some(class) => format!(
            "'{name}' names a function class ({class}), not an ingredient: the label does not say which one, so it is marked CAUTION (score {UNKNOWN_SCORE}) rather than guessed."
        ),
        None => format!(
            "Not in the knowledge base: '{name}' could not be identified, so it is marked CAUTION (score {UNKNOWN_SCORE}) rather than guessed. Its origin is unknown."
        ),
    }));
    Described {
        canonical: class.map(SharedStr::from),
        purpose,
        origin: Origin::Synthetic,
        category: ctx.product_category,
        known: false,
        score: UNKNOWN_SCORE,
        notes,
        sources: Vec::new(),
        allergy,
        by_word,
        plain: None,
    }
}

/// Sub-ingredients weigh on their parent: the worst one caps the parent's score, those not
/// SAFE or matching an allergy are named in its concerns, their allergen matches are its.
/// Returns the worst sub-ingredient.
fn weigh_subs<'s, 'kb>(
    own: &mut Described<'kb>,
    subs: &'s [Finding<'kb>],
    primary_index: Option<usize>,
) -> Option<&'s Finding<'kb>> {
    let mut worst_sub: Option<&Finding<'_>> = None;
    for sub in subs {
        if sub.resolved.map(|r| r.index) == primary_index && primary_index.is_some() {
            continue;
        }
        if sub.score < own.score {
            own.score = sub.score;
        }
        if worst_sub.is_none_or(|w| sub.score < w.score) {
            worst_sub = Some(sub);
        }
        let (risk, _) = grade(sub.score);
        if risk != RiskLevel::Low || !sub.allergy.is_empty() {
            let first = sub.notes.first().map(|n| n.as_ref()).unwrap_or_default();
            own.notes.push(Cow::Owned(format!(
                "Contains {} ({}/10): {first}",
                sub.label, sub.score
            )));
            own.sources.extend(sub.sources.iter().copied());
        }
        for a in &sub.allergy {
            if !own.allergy.contains(a) {
                own.allergy.push(a.clone());
            }
        }
        for w in &sub.by_word {
            if !own.by_word.contains(w) {
                own.by_word.push(w.clone());
            }
        }
    }
    worst_sub
}

/// "nougat (invert sugar, egg white, ...)", "pretzel pieces [potato flour, rice flour]": a
/// generic name usually made with an allergen, with its composition listed and mostly known.
/// The list is what the law makes name every allergen (Regulation (EU) 1169/2011 Art. 21),
/// so a group only the generic name carries, and no word of the label names, is not raised; a
/// list mostly unknown, a trace or a name that says the allergen keeps it (an unknown part
/// naming an allergen raises it through the word net anyway).
fn trust_listed_composition(
    parsed: &ParsedIngredient,
    primary: Option<&Finding<'_>>,
    subs: &[Finding<'_>],
    own: &mut Described<'_>,
) {
    if !parsed.trace
        && parsed.sub.len() >= 2
        && subs.iter().filter(|s| s.resolved.is_some()).count() * 3 >= subs.len() * 2
        && let Some(p) = primary
    {
        let named = AllergyAliases::embedded().words_in(&fold(&parsed.name));
        let by_list = |g: &str| {
            subs.iter().any(|s| s.allergy.iter().any(|(x, _)| x == g))
                || named.iter().any(|f| f.group.label() == g)
        };
        let generic: Vec<String> = p
            .allergy
            .iter()
            .map(|(g, _)| g.clone())
            .filter(|g| !by_list(g))
            .collect();
        if !generic.is_empty() {
            own.allergy.retain(|(g, _)| !generic.contains(g));
            own.notes.push(Cow::Owned(format!(
                "'{}' is often made with {}, but its listed ingredients do not include it: the label's list is read as complete.",
                parsed.name,
                generic.join(" and ")
            )));
        }
    }
}

/// The item's detail and facts, once its own findings and its sub-ingredients' are weighed.
fn finish<'kb>(
    ctx: &Context<'kb>,
    parsed: &'kb ParsedIngredient,
    own: Described<'kb>,
    own_notes: usize,
    primary: Option<&Finding<'kb>>,
    subs: &[Finding<'kb>],
    worst_sub: Option<&Finding<'kb>>,
) -> (IngredientDetail, ItemFacts<'kb>) {
    let Described {
        canonical,
        purpose,
        origin,
        category,
        known,
        mut score,
        notes,
        sources,
        allergy,
        by_word,
        plain,
    } = own;
    let is_match = !allergy.is_empty();
    if is_match {
        score = score.min(ALLERGEN_SCORE);
    }
    let score = score.clamp(1, 10);
    let (risk_level, recommendation) = grade(score);
    // Alternatives for anything that is not SAFE: from the worst known finding.
    let alternatives = if recommendation == Recommendation::Safe {
        Vec::new()
    } else {
        item_alternatives(ctx, primary, worst_sub, &allergy)
    };

    let warning = is_match.then(|| {
        allergy_reason(
            ctx,
            &parsed.name,
            &allergy,
            subs,
            primary,
            parsed.trace,
            &by_word,
        )
    });
    let groups = allergy_groups(&allergy);
    let mut references: Vec<SharedStr> = Vec::with_capacity(sources.len());
    for (i, id) in sources.iter().enumerate() {
        if !sources[..i].contains(id)
            && let Some(text) = ctx.reference(id)
        {
            references.push(text.clone());
        }
    }
    let skin_affected = notes
        .iter()
        .any(|n| n.starts_with("For ") && n.contains(" skin:"));
    let mut regulatory = Vec::new();
    if ctx.expert {
        for n in &notes {
            if n.contains("IARC Group")
                || n.contains("1223/2009 Annex II")
                || n.starts_with("No longer authorised")
            {
                regulatory.push(n.clone());
            }
        }
    }
    let headline = (recommendation != Recommendation::Safe)
        .then(|| notes.first().cloned())
        .flatten();
    let from_supplement = ctx.is_supplemented(primary.and_then(|p| p.resolved))
        || subs.iter().any(|s| ctx.is_supplemented(s.resolved));
    let source = if from_supplement {
        FactSource::Llm
    } else if known {
        FactSource::KnowledgeBase
    } else {
        FactSource::Unknown
    };
    let concerns: SharedStr = match plain {
        // Nothing was added after the entry's own sentences (sub-ingredients, traces).
        Some(text) if notes.len() == own_notes => text.clone(),
        _ if notes.is_empty() => "No known concerns at normal use.".into(),
        _ => notes.join(" ").into(),
    };
    let detail = IngredientDetail {
        name: parsed.text.clone(),
        canonical_name: canonical,
        purpose,
        safety_score: score,
        risk_level,
        concerns,
        recommendation,
        origin,
        category,
        allergy_risk: if is_match {
            AllergyRisk::High
        } else {
            AllergyRisk::Low
        },
        is_allergen_match: is_match,
        alternatives,
        references,
        source,
    };
    debug_assert!(!is_match || detail.risk_level == RiskLevel::High);
    let facts = ItemFacts {
        trace: parsed.trace,
        known,
        warning,
        allergy_groups: groups,
        skin_affected,
        regulatory,
        headline,
    };
    (detail, facts)
}

/// Safer ingredients for an item that is not SAFE: those of its worst known finding, or the
/// usual swaps of its allergen groups when that has no allergen-free peer.
fn item_alternatives(
    ctx: &Context<'_>,
    primary: Option<&Finding<'_>>,
    worst_sub: Option<&Finding<'_>>,
    allergy: &[(String, usize)],
) -> Vec<SharedStr> {
    let driver = match (primary, worst_sub) {
        (Some(p), Some(s)) if s.score < p.score => s.resolved,
        (Some(p), _) => p.resolved,
        (None, Some(s)) => s.resolved,
        (None, None) => None,
    };
    let mut alts = driver.map(|r| alternatives_for(ctx, r)).unwrap_or_default();
    // An allergen match with no allergen-free peer: the group's usual swaps.
    if alts.is_empty() {
        alts = substitutes_for(ctx, &allergy_groups(allergy));
    }
    alts
}

/// The allergen group a product made from it is exempt from, and the point of Regulation
/// (EU) 1169/2011 Annex II that says so: wheat-based glucose syrups (dextrose included) and
/// maltodextrins, fully refined soybean oil, soybean tocopherols and phytosterols, lactitol.
fn exempt_derivative(canonical: &str) -> Option<(AllergenGroup, &'static str)> {
    Some(match canonical {
        "Glucose Syrup" | "Wheat Glucose Syrup" | "Dextrose" | "Wheat Dextrose" => {
            (AllergenGroup::Gluten, "point 1(a)")
        }
        "Maltodextrin" | "Wheat Maltodextrin" => (AllergenGroup::Gluten, "point 1(b)"),
        "Fully Refined Soybean Oil" => (AllergenGroup::Soybeans, "point 6(a)"),
        "Tocopherol-Rich Extract"
        | "Alpha-Tocopherol"
        | "Gamma-Tocopherol"
        | "Delta-Tocopherol" => (AllergenGroup::Soybeans, "point 6(b)"),
        "Phytosterols" | "Soybean Phytosterols" => (AllergenGroup::Soybeans, "point 6(c)"),
        "Lactitol" => (AllergenGroup::Milk, "point 7(b)"),
        _ => return None,
    })
}

fn combined_origin(subs: &[Finding<'_>]) -> Origin {
    let origins: Vec<Origin> = subs
        .iter()
        .filter_map(|s| s.resolved.map(|r| r.ingredient.origin))
        .collect();
    if !origins.is_empty() && origins.iter().all(|o| *o == Origin::Natural) {
        Origin::Natural
    } else if origins.contains(&Origin::Natural) || origins.contains(&Origin::SemiSynthetic) {
        Origin::SemiSynthetic
    } else {
        Origin::Synthetic
    }
}

fn combined_category(subs: &[Finding<'_>], fallback: ProductCategory) -> ProductCategory {
    let cats: BTreeSet<u8> = subs
        .iter()
        .filter_map(|s| s.resolved.map(|r| r.ingredient.category as u8))
        .collect();
    match cats.len() {
        0 => fallback,
        1 => match subs.iter().find_map(|s| s.resolved) {
            Some(r) => r.ingredient.category,
            None => fallback,
        },
        _ => ProductCategory::Both,
    }
}

/// The reason of an item's allergen warning: the groups, the names that carry them when not
/// the item's own, the safety-net words, and the declared allergies.
fn allergy_reason(
    ctx: &Context<'_>,
    name: &str,
    allergy: &[(String, usize)],
    subs: &[Finding<'_>],
    primary: Option<&Finding<'_>>,
    trace: bool,
    by_word: &[String],
) -> String {
    let groups: Vec<&str> = dedup(allergy.iter().map(|(g, _)| g.as_str()).collect());
    let declared: Vec<&str> = dedup(
        allergy
            .iter()
            .map(|(_, a)| ctx.allergies[*a].given.as_str())
            .collect(),
    );
    let via: Vec<&str> = primary
        .into_iter()
        .chain(subs)
        .filter(|f| !f.allergy.is_empty())
        .map(|f| f.label)
        .collect();
    let verb = if trace {
        "may contain traces of"
    } else {
        "contains"
    };
    // "(via milk powder)" only when the match is not the ingredient's own name.
    let via = dedup(via);
    let via = if via.iter().all(|v| *v == name) {
        String::new()
    } else {
        format!(" (via {})", via.join(", "))
    };
    let found = if by_word.is_empty() {
        String::new()
    } else {
        format!(
            " (found by the word '{}': the name is not in the knowledge base as a whole)",
            by_word.join("', '")
        )
    };
    format!(
        "{verb} {}{via}{found}, which matches your declared allergy '{}'",
        groups.join(" and "),
        declared.join("', '")
    )
}
