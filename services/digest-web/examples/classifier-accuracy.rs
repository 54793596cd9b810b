//! Prints the offline classifier's accuracy on the held-out fifth of `corpus/emails.tsv`
//! (the figures in docs/digest.md) and on the sample Maildir's labelled messages.
//! Run: `cargo run -p digest-web --example classifier-accuracy`

use std::io::Write;

use digest_web::job::classify::{Classifier, golden_messages, holdout_report};
use digest_web::job::mail::parse_message;

fn main() -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    let report = holdout_report();
    writeln!(
        out,
        "held-out corpus: {}/{} correct ({:.1}%), trained on {} examples",
        report.correct,
        report.tested,
        report.accuracy() * 100.0,
        report.trained
    )?;
    writeln!(out, "| category | tested | correct |")?;
    writeln!(out, "|---|---|---|")?;
    for (category, (tested, correct)) in &report.per_category {
        writeln!(out, "| {category} | {tested} | {correct} |")?;
    }
    let golden = golden_messages();
    let mut correct = 0;
    for g in &golden {
        match parse_message(g.raw, None) {
            Ok(parsed) => {
                let got = Classifier::embedded().classify(&parsed);
                if got.category == g.expected {
                    correct += 1;
                } else {
                    writeln!(
                        out,
                        "  sample miss: {} expected {} got {} ({})",
                        parsed.item.subject, g.expected, got.category, got.reason
                    )?;
                }
            }
            Err(e) => writeln!(out, "  sample unparseable: {}: {e}", g.name)?,
        }
    }
    writeln!(
        out,
        "sample Maildir (full pipeline, headers included): {correct}/{} correct ({:.1}%)",
        golden.len(),
        correct as f64 * 100.0 / golden.len().max(1) as f64
    )
}
