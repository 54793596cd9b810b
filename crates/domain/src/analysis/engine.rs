//! The analysis engine: from an [`AnalysisInput`] to an [`AnalysisResponse`].
//!
//! Every rule here is written out in `docs/analysis.md`. In short: each ingredient gets its
//! knowledge-base score, capped by regulation (EU cosmetics Annex II ≤ 3, IARC 1/2A ≤ 6),
//! lowered for the user's skin type, and capped at [`ALLERGEN_SCORE`] on an allergen match;
//! [`grade`] maps the score to risk level and recommendation; the product's overall risk
//! follows [`overall_risk_of`].

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::time::Instant;

use super::input::AnalysisInput;
use super::supplement::Supplement;
use super::{
    AllergyRisk, AnalysisResponse, Expertise, FactSource, IngredientDetail, OFFLINE_ENGINE, Origin,
    OverallRisk, ProductCategory, Recommendation, RiskLevel, SkinType, grade,
};
use crate::grammar::{class_of, component_of, is_class_word};
use crate::knowledge::allergy::{AllergyAliases, DeclaredAllergy};
use crate::knowledge::inci_family;
use crate::knowledge::skin::skin_penalty;
use crate::knowledge::{
    AllergenGroup, CosmeticText, EuCosmetics, EuFood, Iarc, Ingredient, KnowledgeBase, MatchKind,
    Prepared, Resolved,
};
use crate::parse::{ParsedIngredient, flatten_subs};
use crate::shared::SharedStr;
use crate::text::fold::fold;
use crate::text::script::is_cjk;

/// The score of an ingredient that is not in the knowledge base: the middle of the scale,
/// CAUTION, never guessed either way.
pub const UNKNOWN_SCORE: u8 = 5;
/// The highest score an ingredient that matches a declared allergy can have (AVOID).
pub const ALLERGEN_SCORE: u8 = 2;
/// Scores up to this one are a significant concern: one such ingredient makes the product at
/// least medium risk. A 6 is a minor concern (e.g. salt, sugar, an authorised preservative).
pub const SIGNIFICANT_CAUTION: u8 = 5;
/// More minor concerns (score 6) than this make the product medium risk.
pub const MAX_MINOR_FOR_LOW: usize = 2;
/// Most alternatives suggested per ingredient.
pub const MAX_ALTERNATIVES: usize = 3;

/// What a plant named alone inside `parent` stands for: "Vegetable oils (palm, rapeseed)"
/// lists palm oil and rapeseed oil; "Vegetable fat (shea, coconut)" shea butter and coconut
/// fat. English labels only (other languages build these names differently).
fn plant_source_nouns(parent: &str) -> &'static [&'static str] {
    let folded = fold(parent);
    let last = folded.rsplit(' ').next().unwrap_or_default();
    match last {
        "oil" | "oils" => &["oil"],
        "fat" | "fats" => &["fat", "butter", "oil"],
        _ => &[],
    }
}

/// One analysed name (a top-level ingredient's head, or one of its sub-ingredients).
struct Finding<'kb> {
    /// The name as written.
    label: &'kb str,
    resolved: Option<Resolved<'kb>>,
    /// Personal score after caps, skin type and allergy.
    score: u8,
    /// Sentences for `concerns`, most important first (borrowed from the prepared texts
    /// where possible: most of them are the same for every request).
    notes: Vec<Cow<'kb, str>>,
    /// Source ids behind the notes.
    sources: Vec<&'kb str>,
    /// Allergen groups matched, with the declared allergy that matched.
    allergy: Vec<(String, usize)>,
    /// The allergen words that matched in a name not known as a whole (the safety net).
    by_word: Vec<String>,
    /// `notes` joined, rendered at start-up ([`Prepared::plain`], or its skin-type variant),
    /// while no allergy or spelling note is among them.
    plain: Option<&'kb SharedStr>,
}

impl Finding<'_> {
    /// Drops an allergen group the law exempts or a claim clears; with no allergen match
    /// left, the score is the ingredient's own again. Whether the group was there.
    fn drop_allergen(&mut self, group: AllergenGroup) -> bool {
        let before = self.allergy.len();
        self.allergy.retain(|(g, _)| g != group.label());
        if self.allergy.len() == before {
            return false;
        }
        if self.allergy.is_empty()
            && let Some(r) = self.resolved
        {
            self.score = r.ingredient.safety_score();
        }
        true
    }
}

/// What the whole request shares while analysing.
struct Context<'a> {
    kb: &'a KnowledgeBase,
    /// Entries for names the knowledge base lacks (LLM-explained), consulted after it.
    extra: Option<&'a Supplement>,
    allergies: Vec<DeclaredAllergy>,
    /// Entries named by allergy words that are no group ("kiwi" → the Kiwi entry).
    allergy_entries: Vec<(usize, usize)>,
    skin: SkinType,
    /// Skin adjustments apply unless the product is clearly a food.
    skin_applies: bool,
    product_category: ProductCategory,
    /// Whether the summary is for experts (collects regulatory notes).
    expert: bool,
}

/// Analyses a validated request against the embedded knowledge base.
pub fn analyze(input: &AnalysisInput) -> AnalysisResponse {
    analyze_with(KnowledgeBase::embedded(), input)
}

/// Analyses a validated request against `kb`.
pub fn analyze_with(kb: &KnowledgeBase, input: &AnalysisInput) -> AnalysisResponse {
    analyze_with_supplement(kb, input, None)
}

/// Analyses a validated request against `kb`, then `extra` for names `kb` does not know.
/// Supplement entries are personalised like knowledge-base entries; details built from them
/// have `source: llm`, and the response's `engine` is the supplement's label when any is used.
pub fn analyze_with_supplement(
    kb: &KnowledgeBase,
    input: &AnalysisInput,
    extra: Option<&Supplement>,
) -> AnalysisResponse {
    let started = Instant::now();
    let allergies: Vec<DeclaredAllergy> = input
        .allergies
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
    // Allergen declarations ("Contains: milk") are statements about the list, not items of
    // it; a list of nothing else is read as the ingredients it names.
    let all_declared = input.parsed.iter().all(|p| p.declared);
    // A class word over several items ("thickeners (guar gum, xanthan gum)") is the function
    // of each: they are listed one by one, each with the class word kept as its function.
    let mut listed: Vec<&ParsedIngredient> = Vec::with_capacity(input.parsed.len());
    let mut functions: Vec<Option<&str>> = Vec::with_capacity(input.parsed.len());
    for p in input.parsed.iter().filter(|p| all_declared || !p.declared) {
        if is_function_list(kb, p) {
            listed.extend(&p.sub);
            functions.extend(p.sub.iter().map(|_| Some(p.name.as_str())));
        } else {
            listed.push(p);
            functions.push(None);
        }
    }
    // First pass: resolve heads only, to tell a food from a cosmetic product.
    let head_of = |item: &ParsedIngredient| {
        // A class word ("Emulsifier") names no ingredient: its sub-ingredients do; a
        // plant-source class ("Vegetable oil (palm, coconut)") is itself the ingredient.
        (!item.name.is_empty()
            && (item.sub.is_empty()
                || !is_class_word(&item.name)
                || !plant_source_nouns(&item.name).is_empty()))
        .then(|| resolve(kb, extra, &item.name))
        .flatten()
    };
    let heads: Vec<Option<Resolved<'_>>> = listed.iter().map(|item| head_of(item)).collect();
    // Unknown items that are known names once the label's punctuation is repaired:
    // "Limonene Linalool" (names run together without commas) is those ingredients one by
    // one; "Caprylic/Capric, Triglyceride" (a comma inside a name) is one ingredient.
    let is_plain_unknown = |i: usize| {
        heads[i].is_none() && listed[i].sub.is_empty() && !is_class_word(&listed[i].name)
    };
    let mut run_together: Vec<Option<Vec<ParsedIngredient>>> = vec![None; listed.len()];
    let mut i = 0;
    while i < listed.len() {
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
    let (listed, functions, heads) = if run_together.iter().all(Option::is_none) {
        (listed, functions, heads)
    } else {
        let mut out = (Vec::new(), Vec::new(), Vec::new());
        for (((item, function), head), runs) in listed
            .into_iter()
            .zip(functions)
            .zip(heads)
            .zip(&run_together)
        {
            match runs {
                Some(runs) => {
                    for run in runs {
                        out.0.push(run);
                        out.1.push(function);
                        out.2.push(head_of(run));
                    }
                }
                None => {
                    out.0.push(item);
                    out.1.push(function);
                    out.2.push(head);
                }
            }
        }
        out
    };
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
    let product_category = match food.cmp(&cosmetic) {
        std::cmp::Ordering::Greater => ProductCategory::Food,
        std::cmp::Ordering::Less => ProductCategory::Cosmetics,
        std::cmp::Ordering::Equal => ProductCategory::Both,
    };
    let ctx = Context {
        kb,
        extra,
        allergies,
        allergy_entries,
        skin: input.skin_type,
        skin_applies: product_category != ProductCategory::Food,
        product_category,
        expert: input.expertise == Expertise::Expert,
    };

    let mut details = Vec::with_capacity(listed.len());
    let mut warnings = Vec::new();
    let mut items = Vec::with_capacity(listed.len());
    for ((parsed, head), function) in listed.iter().copied().zip(&heads).zip(&functions) {
        let (mut detail, item) = analyze_item(&ctx, parsed, *head);
        if let Some(function) = function {
            detail.purpose = format!("{} (listed as '{function}')", detail.purpose).into();
        }
        if let Some(w) = &item.warning {
            warnings.push(format!("ALLERGEN WARNING: {} - {w}", detail.name));
        }
        details.push(detail);
        items.push(item);
    }

    let counted: Vec<&IngredientDetail> = {
        let main: Vec<&IngredientDetail> = details
            .iter()
            .zip(&items)
            .filter(|(_, i)| !i.trace)
            .map(|(d, _)| d)
            .collect();
        if main.is_empty() {
            details.iter().collect()
        } else {
            main
        }
    };
    let average = if counted.is_empty() {
        0.0
    } else {
        let sum: u32 = counted.iter().map(|d| u32::from(d.safety_score)).sum();
        (f64::from(sum) / counted.len() as f64 * 10.0).round() / 10.0
    };
    let declared = if all_declared {
        Vec::new()
    } else {
        declared_matches(&ctx, &input.parsed)
    };
    for (text, groups, ai) in &declared {
        warnings.push(format!(
            "ALLERGEN WARNING: {text} - contains {} (declared on the label), which matches your declared allergy '{}'",
            groups.join(" and "),
            ctx.allergies[*ai].given
        ));
    }
    let (mut overall, mut rule) = overall_risk(&details, &items);
    if !declared.is_empty() {
        (overall, rule) = (OverallRisk::High, RiskRule::AllergenMatch);
    }
    let summary = summarize(
        &ctx,
        input,
        &details,
        &items,
        (overall, rule),
        average,
        &declared,
    );
    let engine = match extra {
        Some(extra) if details.iter().any(|d| d.source == FactSource::Llm) => extra.label(),
        _ => OFFLINE_ENGINE,
    };
    AnalysisResponse {
        success: true,
        product_name: input.product_name.clone(),
        overall_risk: overall,
        average_safety_score: average,
        summary,
        allergen_warnings: warnings,
        ingredients: details,
        execution_time: (input.parse_time + started.elapsed()).as_secs_f64(),
        error: None,
        engine: Some(engine.to_owned()),
    }
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

/// Whether `p` is a class word over several items ("épaississants : gomme guar, pectine"),
/// not a name of its own ("Preservative (E211)") nor a plant-source class whose items are
/// its kinds ("Vegetable oil (palm, coconut)").
fn is_function_list(kb: &KnowledgeBase, p: &ParsedIngredient) -> bool {
    p.sub.len() >= 2
        && is_class_word(&p.name)
        && plant_source_nouns(&p.name).is_empty()
        && kb.resolve_exact(&p.text).is_none()
}

/// The label's allergen declarations that match a declared allergy: (what the label says,
/// group labels, the allergy), one per declaration statement item, groups not repeated.
fn declared_matches(
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

/// The knowledge base first, then the supplement.
fn resolve<'a>(
    kb: &'a KnowledgeBase,
    extra: Option<&'a Supplement>,
    name: &str,
) -> Option<Resolved<'a>> {
    kb.resolve(name)
        .or_else(|| extra.and_then(|e| e.resolve(name)))
        .or_else(|| kb.resolve_by_head(name))
        .or_else(|| kb.resolve_by_parts(name))
        .or_else(|| after_class_word(kb, name))
}

/// Words that offer a choice between two ingredients ("présure animale ou coagulant
/// microbien", "sunflower and/or rapeseed oil"), with their spaces.
const ALTERNATIVES: &[&str] = &[
    " and/or ",
    " et/ou ",
    " und/oder ",
    " y/o ",
    " e/o ",
    " ou ",
    " or ",
    " oder ",
    " o ",
];

/// The two ingredients of a name that offers a choice between them, when each is known: both
/// are listed, so that the allergens of either count.
fn either_of<'n>(
    kb: &KnowledgeBase,
    extra: Option<&Supplement>,
    name: &'n str,
) -> Option<Vec<&'n str>> {
    ALTERNATIVES.iter().find_map(|word| {
        let (a, b) = name.split_once(word)?;
        let (a, b) = (a.trim(), b.trim());
        (resolve(kb, extra, a).is_some() && resolve(kb, extra, b).is_some()).then(|| vec![a, b])
    })
}

/// "Süßstoff Natrium-Saccharin", "antioxydant acide ascorbique": a class word written before
/// the item without a colon; the item is what follows it.
fn after_class_word<'a>(kb: &'a KnowledgeBase, name: &str) -> Option<Resolved<'a>> {
    let (first, rest) = name.trim().split_once(' ')?;
    let rest = rest.trim_start_matches(|c: char| !c.is_alphanumeric());
    if rest.is_empty() || !is_class_word(first) {
        return None;
    }
    // "Natrium-Saccharin" is the compound "Natriumsaccharin" written with a hyphen.
    let joined = rest.replace(['-', ' '], "");
    kb.resolve(rest)
        .or_else(|| kb.resolve(&joined))
        .or_else(|| kb.resolve_by_parts(&joined))
}

impl<'a> Context<'a> {
    fn resolve(&self, name: &str) -> Option<Resolved<'a>> {
        resolve(self.kb, self.extra, name)
    }

    fn prepared(&self, index: usize) -> Option<&'a Prepared> {
        self.kb
            .prepared(index)
            .or_else(|| self.extra.and_then(|e| e.prepared(index)))
    }

    fn reference(&self, id: &str) -> Option<&'a SharedStr> {
        self.kb
            .reference(id)
            .or_else(|| self.extra.and_then(|e| e.reference(id)))
    }

    /// The entry's cosmetic texts when it is a food entry that has them and the product is
    /// a cosmetic ([`Ingredient::in_cosmetics`]; a product that is neither clearly food nor
    /// clearly cosmetic keeps the food view, the stricter one).
    fn cosmetic_view(&self, index: usize) -> Option<&'a CosmeticText> {
        if self.product_category != ProductCategory::Cosmetics {
            return None;
        }
        self.prepared(index).and_then(|p| p.cosmetic.as_ref())
    }

    fn is_supplemented(&self, resolved: Option<Resolved<'_>>) -> bool {
        match (self.extra, resolved) {
            (Some(extra), Some(r)) => extra.owns(r.index),
            _ => false,
        }
    }
}

/// What the product-level rules need to know about one top-level ingredient besides its
/// IngredientDetail.
struct ItemFacts<'kb> {
    trace: bool,
    known: bool,
    warning: Option<String>,
    /// The allergen groups matched and the declared allergies, for the summary.
    allergy_groups: Vec<AllergenGroup>,
    /// Whether the skin type lowered the score, for the summary.
    skin_affected: bool,
    /// Regulatory highlights (Annex II, IARC), for the expert summary.
    regulatory: Vec<Cow<'kb, str>>,
    /// The worst concern, for the summary (which shows its first sentence).
    headline: Option<Cow<'kb, str>>,
}

/// Why the overall risk is what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RiskRule {
    /// An ingredient matches a declared allergy.
    AllergenMatch,
    /// An ingredient (not a trace) is AVOID.
    AvoidIngredient,
    /// An ingredient (not a trace) scores 4 to [`SIGNIFICANT_CAUTION`], unknown ones included.
    SignificantCaution,
    /// More than [`MAX_MINOR_FOR_LOW`] ingredients score 6.
    ManyMinorConcerns,
    /// Nothing above.
    NothingOfConcern,
}

impl RiskRule {
    fn describe(self) -> String {
        match self {
            Self::AllergenMatch => "an ingredient matches a declared allergy".to_owned(),
            Self::AvoidIngredient => "at least one ingredient scores 1-3 (AVOID)".to_owned(),
            Self::SignificantCaution => format!(
                "at least one ingredient scores 4-{SIGNIFICANT_CAUTION} (CAUTION; unknown ingredients score {UNKNOWN_SCORE})"
            ),
            Self::ManyMinorConcerns => {
                format!("more than {MAX_MINOR_FOR_LOW} ingredients have minor concerns (score 6)")
            }
            Self::NothingOfConcern => {
                format!("no ingredient scores below 6 and at most {MAX_MINOR_FOR_LOW} score 6")
            }
        }
    }
}

/// The product-level rule: the worst ingredients decide, not the average.
/// high: any allergen match (traces included) or any non-trace AVOID ingredient (score 1-3);
/// medium: any non-trace ingredient scoring 4-[`SIGNIFICANT_CAUTION`] (unknown ones score 5),
/// or more than [`MAX_MINOR_FOR_LOW`] scoring 6;
/// low otherwise. Trace ingredients count only through allergen matches.
pub fn overall_risk_of(details: &[IngredientDetail], trace: &[bool]) -> (OverallRisk, RiskRule) {
    if details.iter().any(|d| d.is_allergen_match) {
        return (OverallRisk::High, RiskRule::AllergenMatch);
    }
    let main: Vec<&IngredientDetail> = details
        .iter()
        .zip(trace)
        .filter(|(_, t)| !**t)
        .map(|(d, _)| d)
        .collect();
    if main
        .iter()
        .any(|d| d.recommendation == Recommendation::Avoid)
    {
        return (OverallRisk::High, RiskRule::AvoidIngredient);
    }
    if main.iter().any(|d| d.safety_score <= SIGNIFICANT_CAUTION) {
        return (OverallRisk::Medium, RiskRule::SignificantCaution);
    }
    let minor = main
        .iter()
        .filter(|d| d.recommendation == Recommendation::Caution)
        .count();
    if minor > MAX_MINOR_FOR_LOW {
        return (OverallRisk::Medium, RiskRule::ManyMinorConcerns);
    }
    (OverallRisk::Low, RiskRule::NothingOfConcern)
}

fn overall_risk(details: &[IngredientDetail], items: &[ItemFacts<'_>]) -> (OverallRisk, RiskRule) {
    let trace: Vec<bool> = items.iter().map(|i| i.trace).collect();
    overall_risk_of(details, &trace)
}

fn analyze_item<'kb>(
    ctx: &Context<'kb>,
    parsed: &'kb ParsedIngredient,
    head: Option<Resolved<'kb>>,
) -> (IngredientDetail, ItemFacts<'kb>) {
    let kb = ctx.kb;
    // The whole text may itself be a name ("Fragrance (Parfum)", "Preservative (E211)").
    let whole = if parsed.sub.is_empty() {
        None
    } else {
        kb.resolve_exact(&parsed.text)
    };
    let head = whole.or(head);
    let subs: Vec<Finding<'_>> = if whole.is_some() {
        Vec::new()
    } else {
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
    let (mut primary, subs) = match head {
        Some(h) => (Some(finding(ctx, &parsed.name, Some(h))), subs),
        None if subs.len() == 1 && subs[0].resolved.is_some() => {
            let mut subs = subs;
            (subs.pop(), Vec::new())
        }
        None => (None, subs),
    };
    let primary_index = primary.as_ref().and_then(|p| p.resolved).map(|r| r.index);
    // "Glukosesirup (Weizen)", "tocopherols (soy)": the bracket names the source of a
    // product the law exempts from that source's allergen labelling.
    let mut subs = subs;
    let exempt = primary
        .as_ref()
        .and_then(|p| p.resolved)
        .and_then(|r| exempt_derivative(&r.ingredient.name));
    if let Some((group, point)) = exempt {
        let mut dropped = false;
        for sub in &mut subs {
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

    // "pasta: gluten free flour (maize starch, rice flour, …)": a gluten-free claim on the
    // compound's names (at most 20 mg/kg, Regulation (EU) No 828/2014) clears the gluten that
    // generic names (pasta, flour, pretzel) carry; a name that says a gluten cereal itself
    // ("wheat starch") still raises it.
    if !parsed.sub.is_empty() && !parsed.trace {
        let aliases = AllergyAliases::embedded();
        let gluten = AllergenGroup::Gluten;
        let claim = std::iter::once(parsed)
            .chain(flatten_subs(parsed))
            .find(|p| aliases.negated_groups(&fold(&p.name)).contains(&gluten));
        if let Some(claim) = claim {
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
    }

    let mut notes: Vec<Cow<'kb, str>> = Vec::new();
    let mut sources: Vec<&str> = Vec::new();
    let mut allergy: Vec<(String, usize)> = Vec::new();
    let mut by_word: Vec<String> = Vec::new();
    let mut score;
    let canonical: Option<SharedStr>;
    let purpose: SharedStr;
    // The entry's pre-joined concerns, while nothing personal has been added to them.
    let mut plain: Option<&SharedStr> = None;
    let origin;
    let category;
    let known;
    let primary_resolved = primary.as_ref().and_then(|p| p.resolved);
    match (&mut primary, primary_resolved) {
        (Some(p), Some(r)) => {
            let ing = r.ingredient;
            let prepared = ctx.prepared(r.index);
            canonical = Some(if r.kind == MatchKind::Family {
                // The member's own name, not its family's.
                inci_family::render(&parsed.name).into()
            } else {
                prepared.map_or_else(|| ing.name.as_str().into(), |t| t.name.clone())
            });
            (purpose, category) = match ctx.cosmetic_view(r.index) {
                // Used in both kinds of product: it is one of them here.
                Some(view) => (view.purpose.clone(), ProductCategory::Both),
                None => (
                    prepared.map_or_else(|| ing.purpose.as_str().into(), |t| t.purpose.clone()),
                    ing.category,
                ),
            };
            plain = p.plain;
            origin = ing.origin;
            score = p.score;
            // Moved, not copied: the primary finding is not read for its notes again.
            notes = std::mem::take(&mut p.notes);
            sources = std::mem::take(&mut p.sources);
            allergy.extend(p.allergy.iter().cloned());
            known = true;
        }
        _ if !subs.is_empty() => {
            // "sauce 14% (water, mustard, salt)": a component, known by what it is made of.
            canonical = (!is_class)
                .then(|| component_of(&parsed.name))
                .flatten()
                .map(SharedStr::from);
            let made_of: Vec<&str> = subs.iter().map(|s| s.label).collect();
            purpose = if is_class {
                parsed.name.as_str().into()
            } else {
                format!("Compound ingredient made of {}", made_of.join(", ")).into()
            };
            origin = combined_origin(&subs);
            category = combined_category(&subs, ctx.product_category);
            score = 10;
            known = subs.iter().all(|s| s.resolved.is_some());
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
        }
        _ => {
            let name = if parsed.name.is_empty() {
                &parsed.text
            } else {
                &parsed.name
            };
            // "émulsifiant", "膨脹剤", "Anionische Tenside" alone: the label names what an
            // ingredient does, not which one it is. The item is recognised as that class
            // (its English name), and scored as unknown, since the ingredient is.
            let class = class_of(name);
            canonical = class.map(SharedStr::from);
            purpose = match class {
                Some(class) => {
                    format!("{class} (a function class: the label does not name the ingredient)")
                        .into()
                }
                None => "Unknown: not in the knowledge base".into(),
            };
            origin = Origin::Synthetic;
            category = ctx.product_category;
            score = UNKNOWN_SCORE;
            known = false;
            allergy.extend(allergy_matches(ctx, name, None));
            by_word = word_matches(ctx, name, &mut allergy);
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
        }
    }
    // The primary finding's own sentences; [`Prepared::plain`] stands for them while no more
    // are added.
    let own_notes = notes.len();
    // Sub-ingredients weigh on their parent: the worst one caps the parent's score.
    let mut worst_sub: Option<&Finding<'_>> = None;
    for sub in &subs {
        if sub.resolved.map(|r| r.index) == primary_index && primary_index.is_some() {
            continue;
        }
        if sub.score < score {
            score = sub.score;
        }
        if worst_sub.is_none_or(|w| sub.score < w.score) {
            worst_sub = Some(sub);
        }
        let (risk, _) = grade(sub.score);
        if risk != RiskLevel::Low || !sub.allergy.is_empty() {
            let first = sub.notes.first().map(|n| n.as_ref()).unwrap_or_default();
            notes.push(Cow::Owned(format!(
                "Contains {} ({}/10): {first}",
                sub.label, sub.score
            )));
            sources.extend(sub.sources.iter().copied());
        }
        for a in &sub.allergy {
            if !allergy.contains(a) {
                allergy.push(a.clone());
            }
        }
        for w in &sub.by_word {
            if !by_word.contains(w) {
                by_word.push(w.clone());
            }
        }
    }
    // "nougat (invert sugar, egg white, ...)", "pretzel pieces [potato flour, rice flour]":
    // a generic name usually made with an allergen, with its composition listed and mostly
    // known. The list is what the law makes name every allergen (Regulation (EU) 1169/2011
    // Art. 21), so a group only the generic name carries, and no word of the label names,
    // is not raised; a list mostly unknown, a trace or a name that says the allergen keeps
    // it (an unknown part naming an allergen raises it through the word net anyway).
    if !parsed.trace
        && parsed.sub.len() >= 2
        && subs.iter().filter(|s| s.resolved.is_some()).count() * 3 >= subs.len() * 2
        && let Some(p) = &primary
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
            allergy.retain(|(g, _)| !generic.contains(g));
            notes.push(Cow::Owned(format!(
                "'{}' is often made with {}, but its listed ingredients do not include it: the label's list is read as complete.",
                parsed.name,
                generic.join(" and ")
            )));
        }
    }
    if parsed.trace {
        notes.push(Cow::Borrowed(
            "Listed as a possible trace (\"may contain\"): not an intended ingredient; it matters if you are allergic to it.",
        ));
    }
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
        let driver = match (&primary, worst_sub) {
            (Some(p), Some(s)) if s.score < p.score => s.resolved,
            (Some(p), _) => p.resolved,
            (None, Some(s)) => s.resolved,
            (None, None) => None,
        };
        let mut alts = driver.map(|r| alternatives_for(ctx, r)).unwrap_or_default();
        // An allergen match with no allergen-free peer: the group's usual swaps.
        if alts.is_empty() {
            alts = substitutes_for(ctx, &allergy_groups(&allergy));
        }
        alts
    };

    let warning = is_match.then(|| {
        allergy_reason(
            ctx,
            &parsed.name,
            &allergy,
            &subs,
            primary.as_ref(),
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
    let from_supplement = ctx.is_supplemented(primary.as_ref().and_then(|p| p.resolved))
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

fn allergy_groups(allergy: &[(String, usize)]) -> Vec<AllergenGroup> {
    allergy
        .iter()
        .filter_map(|(g, _)| AllergenGroup::ALL.iter().find(|x| x.label() == g).copied())
        .collect()
}

/// Allergen-free swaps for matched groups (`allergy-aliases.toml`), without any entry that
/// carries one of the user's declared groups.
fn substitutes_for(ctx: &Context<'_>, groups: &[AllergenGroup]) -> Vec<SharedStr> {
    let aliases = crate::knowledge::allergy::AllergyAliases::embedded();
    let mut out: Vec<SharedStr> = Vec::new();
    for g in groups {
        for name in aliases.substitutes(*g) {
            if out.len() >= MAX_ALTERNATIVES {
                return out;
            }
            if let Some(cand) = ctx.kb.lookup(name)
                && !cand
                    .allergens
                    .iter()
                    .any(|a| ctx.allergies.iter().any(|d| d.groups.contains(a)))
                && !out.iter().any(|o| *o == cand.name)
            {
                out.push(cand.name.as_str().into());
            }
        }
    }
    out
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

/// Scores one resolved name for this user and writes its concern sentences.
fn finding<'kb>(
    ctx: &Context<'kb>,
    label: &'kb str,
    resolved: Option<Resolved<'kb>>,
) -> Finding<'kb> {
    let Some(r) = resolved else {
        let mut allergy = allergy_matches(ctx, label, None);
        let by_word = word_matches(ctx, label, &mut allergy);
        let mut notes = vec![Cow::Owned(format!(
            "'{label}' is not in the knowledge base (marked CAUTION, not guessed)."
        ))];
        if !by_word.is_empty() {
            notes.insert(0, Cow::Owned(found_by_word_note(label, &by_word)));
        }
        return Finding {
            label,
            resolved: None,
            score: UNKNOWN_SCORE,
            notes,
            sources: Vec::new(),
            allergy,
            by_word,
            plain: None,
        };
    };
    let ing = r.ingredient;
    let cosmetic = ctx.cosmetic_view(r.index);
    let (score, mut notes, plain) = match cosmetic {
        // A food entry in a cosmetic product: its own sentence and score, no dietary notes.
        Some(view) => (
            view.score,
            vec![Cow::Borrowed(view.reason.as_str())],
            Some(&view.reason),
        ),
        None => personal_score(ctx, ing, r.index),
    };
    let mut sources: Vec<&str> = Vec::new();
    let mut allergy = allergy_matches(ctx, label, Some(r));
    // Read by its head only: the other words may still name an allergen.
    let by_word = if r.kind == MatchKind::Head {
        word_matches(ctx, label, &mut allergy)
    } else {
        Vec::new()
    };
    if !allergy.is_empty() {
        let groups: Vec<&str> = allergy.iter().map(|(g, _)| g.as_str()).collect();
        let declared: Vec<&str> = allergy
            .iter()
            .map(|(_, a)| ctx.allergies[*a].given.as_str())
            .collect();
        notes.insert(
            0,
            Cow::Owned(format!(
                "Allergen: {} contains {} (you declared '{}').",
                ing.name,
                groups.join(", "),
                dedup(declared).join("', '")
            )),
        );
        if groups.iter().any(|g| {
            AllergenGroup::ALL
                .iter()
                .any(|x| x.label() == *g && x.is_food_allergen())
        }) {
            sources.push("eu-1169-2011-annex-ii");
        }
    }
    if let Some(view) = cosmetic {
        sources.push(&view.source);
    } else {
        for c in &ing.concerns {
            sources.push(&c.source);
        }
        if ing.concerns.is_empty() {
            sources.extend(ing.sources.iter().map(String::as_str));
        }
    }
    match r.kind {
        MatchKind::Typo => notes.push(Cow::Owned(format!(
            "Read as '{}' (spelling corrected).",
            ing.name
        ))),
        MatchKind::Head => notes.push(Cow::Owned(format!(
            "Understood only by its head: '{label}' is read as {} (the rest of the name is not in the knowledge base); the score and facts are those of {}.",
            ing.name, ing.name
        ))),
        MatchKind::Family => notes.push(Cow::Owned(format!(
            "'{label}' is a member of an INCI family named by rule and has no entry of its own here; the score and facts are those of its family ({}).",
            ing.name
        ))),
        MatchKind::Qualifier | MatchKind::Plural | MatchKind::SlashPart | MatchKind::Exact => {}
    }
    if let (Some(text), None) = (ctx.prepared(r.index), cosmetic) {
        notes.push(Cow::Borrowed(&text.reason));
    }
    let plain = plain.filter(|_| {
        allergy.is_empty()
            && !matches!(
                r.kind,
                MatchKind::Typo | MatchKind::Head | MatchKind::Family
            )
    });
    Finding {
        label,
        plain,
        by_word,
        resolved: Some(r),
        score: if allergy.is_empty() {
            score
        } else {
            score.min(ALLERGEN_SCORE)
        },
        notes,
        sources,
        allergy,
    }
}

fn dedup(v: Vec<&str>) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for s in v {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// The entry's score after regulatory caps and the user's skin type, with the reasons, and
/// the reasons and the score's reason joined ([`Prepared::plain`] or its skin-type variant).
fn personal_score<'kb>(
    ctx: &Context<'kb>,
    ing: &'kb Ingredient,
    index: usize,
) -> (u8, Vec<Cow<'kb, str>>, Option<&'kb SharedStr>) {
    let score = personal_value(ctx, index, ing);
    let mut notes: Vec<Cow<'kb, str>> = Vec::with_capacity(6);
    let Some(text) = ctx.prepared(index) else {
        return (score, notes, None);
    };
    // Annex II, the concerns, the IARC group (named exactly once, in the words users and
    // experts search for), a withdrawn additive.
    notes.extend(text.sentences().map(Cow::Borrowed));
    let mut plain = &text.plain;
    if ctx.skin_applies
        && ing.category != ProductCategory::Food
        && let Some(skin) = text.skin_note(ctx.skin)
    {
        notes.push(Cow::Borrowed(&skin.note));
        plain = &skin.plain;
    }
    (score, notes, Some(plain))
}

/// [`personal_score`] without the sentences (for ranking alternatives). The skin penalty is
/// the one rendered at start-up ([`Prepared::skin`]); it is worked out only for an entry
/// without prepared texts.
fn personal_value(ctx: &Context<'_>, index: usize, ing: &Ingredient) -> u8 {
    let mut score = ing.safety_score();
    if ing.eu_cosmetics == Some(EuCosmetics::AnnexIi) {
        score = score.min(3);
    }
    if matches!(ing.iarc, Some(Iarc::Group1 | Iarc::Group2A)) {
        score = score.min(6);
    }
    if ing.eu_food == Some(EuFood::Withdrawn) && ctx.product_category == ProductCategory::Food {
        score = score.min(3);
    }
    if ctx.skin_applies && ing.category != ProductCategory::Food {
        let penalty = match ctx.prepared(index) {
            Some(text) => text.skin_note(ctx.skin).map_or(0, |n| n.penalty),
            None => skin_penalty(ctx.skin, ing).0,
        };
        score = score.saturating_sub(penalty).max(1);
    }
    score
}

/// Declared allergies this name matches: by allergen group of the entry (and of other entries
/// sharing the matched translated name), by an allergy word naming this very entry, or by an
/// allergy word that appears as a whole word in the name.
fn allergy_matches(
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
fn word_matches(ctx: &Context<'_>, label: &str, allergy: &mut Vec<(String, usize)>) -> Vec<String> {
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
    let mut words = Vec::new();
    for f in found {
        // "farine de lentilles": a flour named by what it is ground from is no wheat flour
        // (the word after it is read on its own: "farine de blé" still names wheat).
        if ROMANCE_FLOURS.contains(&f.word.as_str())
            && ["de", "d", "di", "do", "da", "del"]
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

/// "Flour" in the Romance label languages (folded): wheat flour when alone, the flour of
/// what follows when a preposition names it.
const ROMANCE_FLOURS: &[&str] = &["farine", "harina", "farinha", "farina"];

/// The concern sentence of a name flagged by the safety net.
fn found_by_word_note(name: &str, words: &[String]) -> String {
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

/// Safer entries with the same purpose: the entry's own list first, then entries of the same
/// function class (and, for basic foods, the same purpose) that score 7+ for this user and
/// carry none of the user's allergen groups.
fn alternatives_for(ctx: &Context<'_>, r: Resolved<'_>) -> Vec<SharedStr> {
    let ing = r.ingredient;
    let fits = |i: usize, cand: &Ingredient| {
        !cand.trace_only
            && cand.eu_cosmetics != Some(EuCosmetics::AnnexIi)
            && cand.eu_food != Some(EuFood::Withdrawn)
            && !cand
                .allergens
                .iter()
                .any(|g| ctx.allergies.iter().any(|a| a.groups.contains(g)))
            && personal_value(ctx, i, cand) >= 7
    };
    // Names are unique across entries, so an index stands for its entry's name.
    let mut picked: Vec<usize> = Vec::with_capacity(MAX_ALTERNATIVES);
    let own: Vec<usize> = match ctx.kb.alternatives_of(r.index) {
        Some(ids) => ids.iter().map(|i| *i as usize).collect(),
        // A supplement entry (indexed past the knowledge base): its names are looked up now.
        None => ing
            .alternatives
            .iter()
            .filter_map(|alt| ctx.kb.lookup_index(alt))
            .collect(),
    };
    for i in own {
        if let Some(cand) = ctx.kb.get(i)
            && fits(i, cand)
            && !picked.contains(&i)
        {
            picked.push(i);
        }
    }
    if picked.is_empty() && ing.function != "banned-substance" {
        // Basic foods are alternatives only for foods with the same purpose ("Vegetable oil").
        let candidates: Box<dyn Iterator<Item = (usize, &Ingredient)>> = if ing.function == "food" {
            Box::new(ctx.kb.with_purpose(&ing.purpose))
        } else {
            Box::new(ctx.kb.with_function(&ing.function))
        };
        for (i, cand) in candidates {
            if picked.len() >= MAX_ALTERNATIVES || cand.score < 8 {
                break;
            }
            let compatible_category = cand.category == ing.category
                || cand.category == ProductCategory::Both
                || ing.category == ProductCategory::Both;
            if cand.name != ing.name && compatible_category && fits(i, cand) {
                picked.push(i);
            }
        }
    }
    picked.truncate(MAX_ALTERNATIVES);
    picked
        .into_iter()
        .filter_map(|i| ctx.kb.prepared(i).map(|p| p.name.clone()))
        .collect()
}

fn names_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [a, b] => format!("{a} and {b}"),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The product-level advice, written for the user's expertise.
fn summarize(
    ctx: &Context<'_>,
    input: &AnalysisInput,
    details: &[IngredientDetail],
    items: &[ItemFacts<'_>],
    (overall, rule): (OverallRisk, RiskRule),
    average: f64,
    declared: &[(String, Vec<&'static str>, usize)],
) -> String {
    let rows: Vec<(&IngredientDetail, &ItemFacts<'_>)> = details.iter().zip(items).collect();
    let matches: Vec<&(&IngredientDetail, &ItemFacts<'_>)> =
        rows.iter().filter(|(d, _)| d.is_allergen_match).collect();
    let mut drivers: Vec<&(&IngredientDetail, &ItemFacts<'_>)> = rows
        .iter()
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
    let unmatched_words: Vec<&str> = ctx
        .allergies
        .iter()
        .filter(|a| a.groups.is_empty())
        .map(|a| a.given.as_str())
        .collect();
    let mut s: Vec<String> = Vec::new();
    match input.expertise {
        Expertise::Beginner => {
            let verdict = match overall {
                OverallRisk::High if !matches.is_empty() || !declared.is_empty() => {
                    "Not for you".to_owned()
                }
                OverallRisk::High => "Better avoid".to_owned(),
                OverallRisk::Medium => "Use with care".to_owned(),
                _ => "Looks fine".to_owned(),
            };
            if !matches.is_empty() {
                let names: Vec<&str> = matches.iter().map(|(d, _)| d.name.as_str()).collect();
                let groups: Vec<&str> = dedup(
                    matches
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
            } else if !declared.is_empty() {
                let groups: Vec<&str> = dedup(
                    declared
                        .iter()
                        .flat_map(|(_, g, _)| g.iter().copied())
                        .collect(),
                );
                s.push(format!(
                    "{verdict}: the label declares {}, which you are allergic to.",
                    names_list(&groups)
                ));
            } else if drivers.is_empty() {
                s.push(format!("{verdict}: no ingredient of concern found."));
            } else if overall == OverallRisk::Low {
                let names: Vec<&str> = drivers.iter().map(|(d, _)| d.name.as_str()).collect();
                s.push(format!(
                    "{verdict}: only minor points ({}).",
                    names_list(&names)
                ));
            } else {
                let names: Vec<&str> = drivers.iter().map(|(d, _)| d.name.as_str()).collect();
                s.push(format!("{verdict}: watch {}.", names_list(&names)));
                if let Some((d, f)) = drivers.first()
                    && let Some(h) = &f.headline
                {
                    s.push(format!("{}: {}", d.name, first_sentence(h)));
                }
            }
            if !skin.is_empty() {
                s.push(format!(
                    "For your {} skin, {} may cause trouble.",
                    ctx.skin.as_str(),
                    names_list(&skin)
                ));
            }
            if let Some((d, _)) = drivers.first().or(matches.first())
                && let Some(alt) = d.alternatives.first()
            {
                s.push(format!(
                    "Look for products with {alt} instead of {}.",
                    d.name
                ));
            }
            if !unknown.is_empty() {
                s.push(format!(
                    "We could not check {} ingredient{} ({}).",
                    unknown.len(),
                    if unknown.len() == 1 { "" } else { "s" },
                    names_list(&unknown.iter().take(5).copied().collect::<Vec<_>>())
                ));
            }
        }
        Expertise::Expert => {
            let traces = items.iter().filter(|f| f.trace).count();
            s.push(format!(
                "Overall risk {} (rule: {}). Mean safety score {average:.1}/10 over {} ingredients ({} unknown to the knowledge base, {traces} from precautionary \"may contain\" statements).",
                match overall {
                    OverallRisk::High => "HIGH",
                    OverallRisk::Medium => "MEDIUM",
                    _ => "LOW",
                },
                rule.describe(),
                details.len(),
                unknown.len(),
            ));
            if !matches.is_empty() {
                let parts: Vec<String> = matches
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
            if !declared.is_empty() {
                let parts: Vec<String> = declared
                    .iter()
                    .map(|(text, g, _)| format!("{text} → {}", g.join(", ")))
                    .collect();
                s.push(format!(
                    "Allergens declared on the label (Reg. (EU) No 1169/2011 Art. 21) that match your allergies: {}.",
                    parts.join("; ")
                ));
            }
            for (d, f) in &drivers {
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
            let regulatory: Vec<String> = rows
                .iter()
                .flat_map(|(d, f)| f.regulatory.iter().map(move |r| format!("{}: {r}", d.name)))
                .take(4)
                .collect();
            if !regulatory.is_empty() {
                s.push(format!("Regulatory status: {}", regulatory.join(" ")));
            }
            if !skin.is_empty() {
                s.push(format!(
                    "Skin type {}: scores lowered for {} (barrier disruption, sensitisation or comedogenicity, per the entries' skin flags).",
                    ctx.skin.as_str(),
                    names_list(&skin)
                ));
            }
            if !unknown.is_empty() {
                s.push(format!(
                    "Unidentified (scored {UNKNOWN_SCORE}, not guessed): {}.",
                    names_list(&unknown.iter().take(8).copied().collect::<Vec<_>>())
                ));
            }
        }
    }
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
    s.join(" ")
}

fn first_sentence(s: &str) -> &str {
    match s.find(". ") {
        Some(i) => &s[..=i],
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knowledge::SkinFlag;

    fn context<'a>(kb: &'a KnowledgeBase, skin: SkinType, allergies: &[&str]) -> Context<'a> {
        Context {
            kb,
            extra: None,
            allergies: allergies
                .iter()
                .map(|a| DeclaredAllergy::parse(a))
                .collect(),
            allergy_entries: Vec::new(),
            skin,
            skin_applies: true,
            product_category: ProductCategory::Cosmetics,
            expert: false,
        }
    }

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

    #[test]
    fn skin_rules_take_the_largest_penalty_and_every_reason() {
        let kb = KnowledgeBase::embedded();
        let entry = |name: &str| kb.resolve(name).unwrap().ingredient;
        // Fragrance by allergen group (no skin flag needed).
        let linalool = entry("Linalool");
        assert!(
            !linalool.skin.contains(&SkinFlag::Fragrance)
                || linalool.allergens.contains(&AllergenGroup::Fragrance)
        );
        let (p, why) = skin_penalty(SkinType::Sensitive, linalool);
        assert_eq!(p, 2);
        assert!(why[0].starts_with("fragrance ingredients"), "{why:?}");
        assert_eq!(skin_penalty(SkinType::Normal, linalool), (0, Vec::new()));
        // Drying alcohol: sensitive and dry skin, each with its own reason.
        let alcohol = entry("Alcohol Denat.");
        let (p, why) = skin_penalty(SkinType::Dry, alcohol);
        assert_eq!((p, why.len()), (2, 1));
        assert!(why[0].starts_with("drying alcohol"));
        assert!(
            skin_penalty(SkinType::Sensitive, alcohol)
                .1
                .contains(&"denatured/volatile alcohol strips the skin barrier and stings")
        );
        // Oily and combination skin go by the comedogenic rating.
        let coconut = entry("Cocos Nucifera Oil");
        assert_eq!(coconut.comedogenic, Some(4));
        assert_eq!(skin_penalty(SkinType::Oily, coconut).0, 3);
        assert_eq!(
            skin_penalty(SkinType::Combination, coconut),
            skin_penalty(SkinType::Oily, coconut)
        );
        assert_eq!(
            skin_penalty(SkinType::Sensitive, entry("Glycerin")),
            (0, Vec::new())
        );
    }

    /// The pre-joined `concerns` stand in for the notes only when they are the same text:
    /// checked for every entry under every skin type, with and without an allergy.
    #[test]
    fn pre_joined_concerns_equal_the_notes_they_stand_for() {
        let kb = KnowledgeBase::embedded();
        let mut shortcuts = 0;
        for allergies in [&[][..], &["milk", "fragrance", "tree nut"][..]] {
            for skin in SkinType::EVERY {
                let ctx = context(kb, skin, allergies);
                for ing in kb.ingredients() {
                    let resolved = kb.resolve(&ing.name);
                    let f = finding(&ctx, &ing.name, resolved);
                    match f.plain {
                        Some(plain) => {
                            assert_eq!(*plain, f.notes.join(" "), "{} ({skin:?})", ing.name);
                            shortcuts += 1;
                        }
                        // Only a personal note (allergy, spelling) may turn the shortcut off.
                        None => assert!(
                            !f.allergy.is_empty()
                                || resolved.is_none_or(|r| r.kind == MatchKind::Typo),
                            "{} ({skin:?}) has no pre-joined concerns",
                            ing.name
                        ),
                    }
                }
            }
        }
        assert!(shortcuts > kb.ingredients().len() * 5, "{shortcuts}");
    }
}
