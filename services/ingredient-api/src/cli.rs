//! The command line: no subcommand serves HTTP; `analyze` prints an analysis for people.
//!
//! ```text
//! ingredient-api analyze "Water, Glycerin, Parfum" --allergy fragrance --skin sensitive
//! ingredient-api analyze "Water, Glycerin" --expertise expert --json
//! ```

use std::io::{Read, Write};

use clap::{Args, Parser, Subcommand};
use domain::analysis::{
    AnalysisInput, AnalysisResponse, Expertise, OverallRisk, Recommendation, SkinType, Verdicts,
    analyze,
};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Ingredient Safety Analysis API: serves HTTP by default.
#[derive(Debug, Parser)]
#[command(name = "ingredient-api", version, about)]
pub struct Cli {
    /// What to do (default: serve HTTP, configured by environment variables).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Analyse an ingredient list offline and print the result as a table.
    Analyze(AnalyzeArgs),
}

/// Arguments of `analyze`.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// The ingredient list, comma-separated ("-" reads it from standard input).
    pub ingredients: String,
    /// A declared allergy (repeatable): milk, gluten, peanut, fragrance, parabens, ...
    #[arg(long = "allergy", short = 'a', value_name = "ALLERGY")]
    pub allergies: Vec<String>,
    /// Skin type: normal, dry, oily, combination or sensitive.
    #[arg(long = "skin", short = 's', default_value = "normal")]
    pub skin: String,
    /// Summary style: beginner or expert.
    #[arg(long, short = 'e', default_value = "beginner")]
    pub expertise: String,
    /// Product name shown in the output.
    #[arg(long)]
    pub product: Option<String>,
    /// Print the JSON the HTTP API would return instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Runs `analyze`; returns the process exit code (0 ok, 2 invalid input).
pub fn run_analyze(
    args: &AnalyzeArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<i32> {
    let text = if args.ingredients == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s)?;
        s
    } else {
        args.ingredients.clone()
    };
    let input = SkinType::parse(&args.skin)
        .map_err(|e| e.to_string())
        .and_then(|skin| {
            let expertise = Expertise::parse(&args.expertise).map_err(|e| e.to_string())?;
            AnalysisInput::new(
                args.product.as_deref(),
                Some(&text),
                &args.allergies,
                skin,
                expertise,
            )
            .map_err(|e| e.to_string())
        });
    let input = match input {
        Ok(i) => i,
        Err(message) => {
            writeln!(err, "error: {message}")?;
            return Ok(2);
        }
    };
    let response = analyze(&input);
    if args.json {
        let json = serde_json::to_string_pretty(&response).map_err(std::io::Error::other)?;
        writeln!(out, "{json}")?;
    } else {
        write_table(&response, out)?;
    }
    Ok(0)
}

/// `s` in exactly `width` terminal columns: padded, or cut with `…`. Korean, Japanese and
/// Chinese characters take two columns.
fn cell(s: &str, width: usize) -> String {
    let n = s.width();
    if n <= width {
        return format!("{s}{}", " ".repeat(width - n));
    }
    let mut t = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > width.saturating_sub(1) {
            break;
        }
        t.push(c);
        used += w;
    }
    t.push('…');
    t.push_str(&" ".repeat(width.saturating_sub(used + 1)));
    t
}

/// The analysis as a readable table, then warnings, advice and details.
pub fn write_table(r: &AnalysisResponse, out: &mut dyn Write) -> std::io::Result<()> {
    let overall = match r.overall_risk {
        OverallRisk::High => "HIGH",
        OverallRisk::Medium => "MEDIUM",
        OverallRisk::Low => "LOW",
        OverallRisk::Unknown => "UNKNOWN",
    };
    writeln!(out, "Product: {}", r.product_name)?;
    writeln!(
        out,
        "Overall risk: {overall}    Average safety score: {:.1}/10    ({} ingredients, {:.3} ms)",
        r.average_safety_score,
        r.ingredients.len(),
        r.execution_time * 1e3
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "  #  {}  {}  Score  {}  {}  Allergy",
        cell("Ingredient", 34),
        cell("Known as", 24),
        cell("Risk", 6),
        cell("Advice", 7),
    )?;
    writeln!(out, "{}", "-".repeat(100))?;
    for (i, d) in r.ingredients.iter().enumerate() {
        writeln!(
            out,
            "{:>3}  {}  {}  {:>5}  {}  {}  {}",
            i + 1,
            cell(&d.name, 34),
            cell(d.canonical_name.as_deref().unwrap_or("(unknown)"), 24),
            d.safety_score,
            cell(&format!("{:?}", d.risk_level).to_lowercase(), 6),
            cell(advice(d.recommendation), 7),
            if d.is_allergen_match { "MATCH" } else { "-" }
        )?;
    }
    if !r.allergen_warnings.is_empty() {
        writeln!(out)?;
        for w in &r.allergen_warnings {
            writeln!(out, "{w}")?;
        }
    }
    if let Some(v) = &r.verdicts {
        write_verdicts(v, out)?;
    }
    writeln!(out)?;
    writeln!(out, "Summary: {}", r.summary)?;
    let flagged: Vec<_> = r
        .ingredients
        .iter()
        .enumerate()
        .filter(|(_, d)| d.recommendation != Recommendation::Safe)
        .collect();
    if !flagged.is_empty() {
        writeln!(out)?;
        writeln!(out, "Why:")?;
        for (i, d) in flagged {
            writeln!(
                out,
                "{:>3}. {} [{}]: {}",
                i + 1,
                d.name,
                advice(d.recommendation),
                d.concerns
            )?;
            if !d.alternatives.is_empty() {
                writeln!(out, "     Alternatives: {}", d.alternatives.join(", "))?;
            }
        }
    }
    Ok(())
}

/// The product verdicts: one line each for diet, processing, additives and coverage, with
/// the ingredients behind each answer.
fn write_verdicts(v: &Verdicts, out: &mut dyn Write) -> std::io::Result<()> {
    let because = |names: &[String]| {
        if names.is_empty() {
            String::new()
        } else {
            format!(" ({})", names.join(", "))
        }
    };
    let d = &v.diet;
    writeln!(out)?;
    writeln!(
        out,
        "Vegan: {}{}    Vegetarian: {}{}    Palm oil: {}{}",
        d.vegan.as_str(),
        because(&d.because.vegan),
        d.vegetarian.as_str(),
        because(&d.because.vegetarian),
        d.contains_palm_oil.as_str(),
        because(&d.because.contains_palm_oil),
    )?;
    match &v.processing {
        None => writeln!(out, "Processing: not a food")?,
        Some(p) => {
            let markers: Vec<String> = p
                .markers
                .iter()
                .map(|m| format!("{} ({})", m.ingredient, m.marker))
                .collect();
            match p.nova_group {
                Some(g) => writeln!(
                    out,
                    "Processing: NOVA {g}{}",
                    if markers.is_empty() {
                        String::new()
                    } else {
                        format!(": {}", markers.join(", "))
                    }
                )?,
                None => writeln!(
                    out,
                    "Processing: unknown (not enough of the list recognised)"
                )?,
            }
        }
    }
    if !v.additives.is_empty() {
        let codes: Vec<String> = v
            .additives
            .iter()
            .map(|a| format!("{} {} ({})", a.code, a.name, a.function))
            .collect();
        writeln!(out, "Additives: {}", codes.join(", "))?;
    }
    writeln!(
        out,
        "Recognised: {} of {} ingredients{}",
        v.coverage.recognised,
        v.coverage.items,
        if v.coverage.enough_known {
            ""
        } else {
            " (not enough to answer)"
        }
    )
}

fn advice(r: Recommendation) -> &'static str {
    match r {
        Recommendation::Safe => "SAFE",
        Recommendation::Caution => "CAUTION",
        Recommendation::Avoid => "AVOID",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_fill_their_columns_whatever_the_script() {
        for (text, width) in [
            ("Aqua", 10),
            ("Butyl Methoxydibenzoylmethane", 10),
            ("정제수", 10),
            ("부틸렌글라이콜나이아신아마이드", 10),
            ("グリセリン", 9),
            ("水", 1),
            ("", 4),
        ] {
            let c = cell(text, width);
            assert_eq!(c.width(), width, "{text:?} -> {c:?}");
        }
        assert_eq!(cell("Aqua", 6), "Aqua  ");
        assert_eq!(cell("Glycerin", 5), "Glyc…");
        assert_eq!(cell("글리세린", 5), "글리…");
        assert_eq!(cell("글리세린", 6), "글리… ");
    }
}
