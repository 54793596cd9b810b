//! The product verdicts on real products (`../shared/data/real-analysis/cases.jsonl`: 1,136
//! Open Food Facts and Open Beauty Facts products with Open Food Facts' own analysis),
//! counted as its `score.py` counts them: agreement where Open Food Facts decides (yes/no)
//! on vegan, vegetarian and palm oil, NOVA group agreement on foods, additive E-number recall
//! and precision on foods. The products are split in two halves by a fixed hash of their id:
//! half A is the one the rules were tuned on, half B is held out; both are printed and both
//! must reach the floors. And on every product: nothing called vegan or vegetarian names an
//! animal ingredient. Prints "skipped" when the data is not beside the checkout.
//! `REAL_ANALYSIS_VERBOSE=1` lists every disagreement of half A, the half to read and tune on
//! (`REAL_ANALYSIS_VERBOSE=B` those of the held-out half, to read only after tuning).
// The table is this test's output (shown with --no-capture).
#![allow(clippy::print_stdout)]

use std::collections::BTreeSet;
use std::path::PathBuf;

use domain::analysis::{AnalysisInput, AnalysisResponse, Answer, Expertise, SkinType, analyze};
use serde_json::Value;

/// Lowest accepted agreement where Open Food Facts decides (%): vegan, vegetarian, palm oil.
/// The target is 95 %; vegetarian is short of it (89 and 93 %): half of its disagreements are
/// lists too little of which is recognised to answer (docs/analysis.md, "Measured against
/// Open Food Facts").
const FLOOR_DECISIVE: [f64; 3] = [95.0, 88.0, 95.0];
/// Lowest accepted NOVA group agreement on foods (%).
const FLOOR_NOVA: f64 = 85.0;
/// Lowest accepted additive E-number recall on foods (%).
const FLOOR_RECALL: f64 = 95.0;
/// Lowest accepted additive E-number precision on foods (%): the target is 95 %; the extra
/// codes are, class by class, additives the list names that Open Food Facts does not tag
/// (lists it does not parse: "lecithin as emulsifier (soy)", "sodium bicarbonate and
/// ammonium bicarbonate as leavening agents"; alum, confectioner's glaze, cellulose gel;
/// calcium chloride even with its function named; docs/analysis.md).
const FLOOR_PRECISION: f64 = 81.0;

const FIELDS: [&str; 3] = ["vegan", "vegetarian", "contains_palm_oil"];

fn cases_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/real-analysis/cases.jsonl")
}

/// FNV-1a, 64 bits: a fixed hash, so that the halves never change between runs or machines.
fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Half A (tuned on) or B (held out), by a high bit of the hash (FNV's lowest bit is only
/// the parity of the bytes' lowest bits).
fn half(id: &str) -> usize {
    usize::from((fnv(id) >> 40) & 1 == 1)
}

/// A text's letters, lower case: a name as printed, whatever amounts, marks and spaces were
/// cleaned from it ("milk solids 25% minimum" prints "milk solids minimum").
fn letters(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphabetic())
        .flat_map(char::to_lowercase)
        .collect()
}

fn norm_code(c: &str) -> String {
    let c: String = c
        .to_uppercase()
        .chars()
        .filter(|c| !matches!(c, ' ' | '-'))
        .collect();
    if c.starts_with('E') {
        c
    } else {
        format!("E{c}")
    }
}

#[derive(Default)]
struct Tally {
    cases: usize,
    decisive: [usize; 3],
    agree: [usize; 3],
    contradictions: [usize; 3],
    nova_n: usize,
    nova_ok: usize,
    add_tp: usize,
    add_fp: usize,
    add_fn: usize,
    /// Extra codes on products Open Food Facts tags no additive at all (lists it did not parse).
    add_fp_untagged: usize,
}

fn pct(n: usize, d: usize) -> f64 {
    if d == 0 {
        100.0
    } else {
        100.0 * n as f64 / d as f64
    }
}

impl Tally {
    fn decisive_pct(&self, f: usize) -> f64 {
        pct(self.agree[f], self.decisive[f])
    }
    fn nova(&self) -> f64 {
        pct(self.nova_ok, self.nova_n)
    }
    fn recall(&self) -> f64 {
        pct(self.add_tp, self.add_tp + self.add_fn)
    }
    fn precision(&self) -> f64 {
        pct(self.add_tp, self.add_tp + self.add_fp)
    }
    /// Precision on the products Open Food Facts tags at least one additive of.
    fn precision_where_tagged(&self) -> f64 {
        pct(
            self.add_tp,
            self.add_tp + self.add_fp - self.add_fp_untagged,
        )
    }
    fn row(&self, name: &str) -> String {
        format!(
            "{name:<8} {:>5} {:>6.1}% of {:<4} {:>6.1}% of {:<4} {:>6.1}% of {:<4} {:>6.1}% of {:<4} {:>6.1}% {:>6.1}% {:>7.1}%  contradictions {:?}",
            self.cases,
            self.decisive_pct(0),
            self.decisive[0],
            self.decisive_pct(1),
            self.decisive[1],
            self.decisive_pct(2),
            self.decisive[2],
            self.nova(),
            self.nova_n,
            self.recall(),
            self.precision(),
            self.precision_where_tagged(),
            self.contradictions,
        )
    }
}

fn answer_of(a: Answer) -> &'static str {
    a.as_str()
}

fn analyse(text: &str) -> Option<AnalysisResponse> {
    let input =
        AnalysisInput::new(None, Some(text), &[], SkinType::Normal, Expertise::Beginner).ok()?;
    Some(analyze(&input))
}

#[test]
fn verdicts_agree_with_open_food_facts_on_both_halves() {
    let path = cases_path();
    let Ok(text) = std::fs::read_to_string(&path) else {
        println!("skipped: ../shared/data not found");
        return;
    };
    let verbose_half = match std::env::var("REAL_ANALYSIS_VERBOSE").as_deref() {
        Ok("B") => Some(1),
        Ok(_) => Some(0),
        Err(_) => None,
    };
    let mut halves = [Tally::default(), Tally::default()];
    let mut notes: Vec<String> = Vec::new();
    let mut not_printed: Vec<String> = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).expect("a JSON case per line");
        let id = case["id"].as_str().unwrap_or_default();
        let kind = case["kind"].as_str().unwrap_or_default();
        let list = case["text"].as_str().unwrap_or_default();
        let verbose = verbose_half == Some(half(id));
        let t = &mut halves[half(id)];
        t.cases += 1;
        let Some(r) = analyse(list) else {
            for f in 0..3 {
                if matches!(case[FIELDS[f]].as_str(), Some("yes" | "no")) {
                    t.decisive[f] += 1;
                }
            }
            notes.push(format!("{id}: no analysis"));
            continue;
        };
        let v = r
            .verdicts
            .as_ref()
            .expect("a successful answer has verdicts");
        // Every name behind an answer is an ingredient of the request as printed.
        for name in v
            .diet
            .because
            .vegan
            .iter()
            .chain(&v.diet.because.vegetarian)
            .chain(&v.diet.because.contains_palm_oil)
            .chain(
                v.processing
                    .iter()
                    .flat_map(|p| p.markers.iter().map(|m| &m.ingredient)),
            )
            .chain(v.additives.iter().map(|a| &a.ingredient))
        {
            if !letters(list).contains(&letters(name)) {
                not_printed.push(format!("{id}: '{name}'"));
            }
        }
        if !v.coverage.enough_known {
            let p = v.processing.as_ref();
            assert!(
                [v.diet.vegan, v.diet.vegetarian, v.diet.contains_palm_oil]
                    .iter()
                    .all(|a| *a == Answer::Unknown)
                    && p.is_none_or(|p| p.nova_group.is_none()),
                "{id}: not enough known, yet an answer"
            );
        }
        let got = [v.diet.vegan, v.diet.vegetarian, v.diet.contains_palm_oil];
        for f in 0..3 {
            let want = case[FIELDS[f]].as_str().unwrap_or_default();
            if !matches!(want, "yes" | "no") {
                continue;
            }
            t.decisive[f] += 1;
            let got = answer_of(got[f]);
            if got == want {
                t.agree[f] += 1;
            } else {
                if matches!(got, "yes" | "no") {
                    t.contradictions[f] += 1;
                }
                if verbose {
                    notes.push(format!(
                        "{id:<26} {}: OFF {want}, ours {got} {:?} | {}",
                        FIELDS[f],
                        match f {
                            0 => &v.diet.because.vegan,
                            1 => &v.diet.because.vegetarian,
                            _ => &v.diet.because.contains_palm_oil,
                        },
                        list.chars().take(150).collect::<String>()
                    ));
                }
            }
        }
        if kind != "food" {
            continue;
        }
        if let Some(want) = case["nova_group"].as_u64() {
            t.nova_n += 1;
            let got = v.processing.as_ref().and_then(|p| p.nova_group);
            if got.map(u64::from) == Some(want) {
                t.nova_ok += 1;
            } else if verbose {
                let markers: Vec<&str> = v
                    .processing
                    .iter()
                    .flat_map(|p| p.markers.iter().map(|m| m.ingredient.as_str()))
                    .collect();
                notes.push(format!(
                    "{id:<26} nova: OFF {want} {}, ours {got:?} {markers:?} | {}",
                    case["nova_markers"],
                    list.chars().take(150).collect::<String>()
                ));
            }
        }
        let want: BTreeSet<String> = case["additives"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c.as_str().map(norm_code))
            .collect();
        let got: BTreeSet<String> = v.additives.iter().map(|a| norm_code(&a.code)).collect();
        t.add_tp += want.intersection(&got).count();
        t.add_fp += got.difference(&want).count();
        if want.is_empty() {
            t.add_fp_untagged += got.len();
        }
        t.add_fn += want.difference(&got).count();
        if verbose && want != got {
            notes.push(format!(
                "{id:<26} additives: missed {:?}, extra {:?} | {}",
                want.difference(&got).collect::<Vec<_>>(),
                got.difference(&want)
                    .map(|c| {
                        let a = v.additives.iter().find(|a| norm_code(&a.code) == *c);
                        format!("{c} ({})", a.map_or("", |a| a.ingredient.as_str()))
                    })
                    .collect::<Vec<_>>(),
                list.chars().take(120).collect::<String>()
            ));
        }
    }
    println!(
        "half     cases vegan (decisive) vegetarian      palm oil        nova            add-rec add-prec tagged"
    );
    println!("{}", halves[0].row("A tuned"));
    println!("{}", halves[1].row("B held"));
    for n in &notes {
        println!("{n}");
    }
    assert!(
        not_printed.is_empty(),
        "not as printed:\n{}",
        not_printed.join("\n")
    );
    for (t, name) in halves.iter().zip(["A", "B"]) {
        for f in 0..3 {
            assert!(
                t.decisive_pct(f) >= FLOOR_DECISIVE[f],
                "half {name}: {} {:.1}% < {}%",
                FIELDS[f],
                t.decisive_pct(f),
                FLOOR_DECISIVE[f]
            );
        }
        assert!(t.nova() >= FLOOR_NOVA, "half {name}: nova {:.1}%", t.nova());
        assert!(
            t.recall() >= FLOOR_RECALL,
            "half {name}: additive recall {:.1}%",
            t.recall()
        );
        assert!(
            t.precision() >= FLOOR_PRECISION,
            "half {name}: additive precision {:.1}%",
            t.precision()
        );
    }
}

/// Animal ingredients as labels name them, in the languages of the real products, written for
/// this test (not the knowledge base it checks): what no product called vegan may list. Those
/// of a living animal (milk, eggs, honey, wool grease) first,
const OF_LIVING_ANIMALS: &[&str] = &[
    "milk",
    "milkfat",
    "cream",
    "butter",
    "butterfat",
    "buttermilk",
    "cheese",
    "whey",
    "casein",
    "caseinate",
    "lactose",
    "yogurt",
    "yoghurt",
    "egg",
    "eggs",
    "albumen",
    "honey",
    "beeswax",
    "lanolin",
    "keratin",
    "ghee",
    "lait",
    "crème",
    "beurre",
    "fromage",
    "lactosérum",
    "oeuf",
    "oeufs",
    "œuf",
    "œufs",
    "miel",
    "cire d'abeille",
    "milch",
    "sahne",
    "käse",
    "molke",
    "ei",
    "eier",
    "honig",
    "leche",
    "queso",
    "huevo",
    "huevos",
    "suero",
    "latte",
    "formaggio",
    "uovo",
    "uova",
    "mel",
    "lac",
    "cera alba",
    "sine adipe lac",
];

/// then those of a killed animal, which no product called vegetarian may list either.
const OF_KILLED_ANIMALS: &[&str] = &[
    "gelatin",
    "gelatine",
    "gélatine",
    "collagen",
    "carmine",
    "cochineal",
    "shellac",
    "beef",
    "pork",
    "chicken",
    "turkey",
    "bacon",
    "ham",
    "fish",
    "anchovy",
    "anchovies",
    "tuna",
    "salmon",
    "shrimp",
    "crab",
    "lard",
    "tallow",
    "tallowate",
    "rennet",
    "poisson",
    "boeuf",
    "porc",
    "poulet",
    "fleisch",
    "schwein",
    "rind",
];

/// Plant and other names that hold an animal word without being one.
const NOT_ANIMAL: &[&str] = &[
    "cocoa butter",
    "shea butter",
    "peanut butter",
    "nut butter",
    "almond butter",
    "coconut milk",
    "coconut cream",
    "milk thistle",
    "butternut",
    "cream of tartar",
    "eggplant",
    "egg plant",
    "beurre de cacao",
    "beurre de karité",
    "kakaobutter",
    "sheabutter",
    "manteca de cacao",
    "burro di cacao",
    "crème de tartre",
    "cream soda",
    "soy milk",
    "almond milk",
    "oat milk",
    "rice milk",
    "milk free",
    "dairy free",
    "sans lait",
    "ohne milch",
    "cacao butter",
    "cocoa cream",
    "buttercup",
    "butterscotch flavor",
    "parkii butter",
    "mango butter",
    "seed butter",
    "synthetic beeswax",
    "honey crisp",
    "honeycrisp",
    "butter bean",
    "butter beans",
];

/// The first word of `lists` that `text` names as a word.
fn names_an_animal(text: &str, lists: &[&[&'static str]]) -> Option<&'static str> {
    let mut t = format!(" {} ", text.to_lowercase().replace(['_', '*'], ""));
    for n in NOT_ANIMAL {
        t = t.replace(n, " ");
    }
    let words: String = t
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '\'' {
                c
            } else {
                ' '
            }
        })
        .collect();
    let padded = format!(
        " {} ",
        words.split_whitespace().collect::<Vec<_>>().join(" ")
    );
    lists
        .iter()
        .flat_map(|l| l.iter().copied())
        .find(|a| padded.contains(&format!(" {a} ")))
}

/// The non-trace items of a list, with their sub-ingredients, as printed.
fn listed_items(text: &str) -> Vec<String> {
    fn walk(p: &domain::parse::ParsedIngredient, out: &mut Vec<String>) {
        out.push(p.name.clone());
        for s in &p.sub {
            walk(s, out);
        }
    }
    let mut out = Vec::new();
    for p in domain::parse::split_ingredients(text)
        .iter()
        .filter(|p| !p.trace && !p.declared)
    {
        walk(p, &mut out);
    }
    out
}

/// No product called vegan (or vegetarian) lists an animal ingredient (or a killed animal's):
/// on every real product, whatever Open Food Facts says.
#[test]
fn nothing_called_vegan_or_vegetarian_lists_an_animal_ingredient() {
    let Ok(text) = std::fs::read_to_string(cases_path()) else {
        println!("skipped: ../shared/data not found");
        return;
    };
    let (mut vegan, mut vegetarian) = (0, 0);
    let mut wrong = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).expect("a JSON case per line");
        let list = case["text"].as_str().unwrap_or_default();
        let Some(r) = analyse(list) else { continue };
        let v = r.verdicts.expect("verdicts");
        let items = listed_items(list);
        if v.diet.vegan == Answer::Yes {
            vegan += 1;
            if let Some((item, word)) = items.iter().find_map(|i| {
                names_an_animal(i, &[OF_LIVING_ANIMALS, OF_KILLED_ANIMALS]).map(|w| (i, w))
            }) {
                wrong.push(format!("{} vegan, lists '{item}' ({word})", case["id"]));
            }
        }
        if v.diet.vegetarian == Answer::Yes {
            vegetarian += 1;
            if let Some((item, word)) = items
                .iter()
                .find_map(|i| names_an_animal(i, &[OF_KILLED_ANIMALS]).map(|w| (i, w)))
            {
                wrong.push(format!(
                    "{} vegetarian, lists '{item}' ({word})",
                    case["id"]
                ));
            }
        }
    }
    println!("{vegan} products called vegan, {vegetarian} vegetarian");
    assert!(
        vegan >= 50 && vegetarian >= 100,
        "{vegan} vegan, {vegetarian} vegetarian"
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
