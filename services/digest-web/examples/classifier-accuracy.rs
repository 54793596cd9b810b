//! Prints the classifier's accuracy with whole senders held out (five-fold cross-validation by
//! sender domain over `fixtures/corpus/`), per category, with the confusion matrix (the figures
//! in docs/digest.md); then the sample Maildir's labelled messages through the whole pipeline.
//! Run: `cargo run --release -p digest-web --example classifier-accuracy`

use std::io::Write;
use std::time::Instant;

use digest_web::job::classify::{Classifier, corpus, golden_messages};
use digest_web::job::mail::parse_message;

fn main() -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    let started = Instant::now();
    let labelled = corpus::labelled();
    writeln!(
        out,
        "corpus: {} messages parsed in {:.0} ms",
        labelled.len(),
        started.elapsed().as_secs_f64() * 1000.0
    )?;
    let started = Instant::now();
    let model = Classifier::embedded();
    writeln!(
        out,
        "start-up model load (shipped weights): {:.0} ms",
        started.elapsed().as_secs_f64() * 1000.0
    )?;
    writeln!(
        out,
        "\n## Whole senders held out (5 folds by sender domain)\n"
    )?;
    let evaluation = corpus::evaluate(&labelled, &[0, 1, 2, 3, 4]);
    writeln!(out, "{}", evaluation.render())?;
    writeln!(
        out,
        "## Unseen kinds of mail (each kind left out of training in turn)\n"
    )?;
    let (unseen, per_kind) = corpus::evaluate_unseen_kinds(&labelled);
    writeln!(
        out,
        "{}",
        unseen
            .render()
            .replace(" held-out sender domains", " (sender count n/a)")
    )?;
    writeln!(
        out,
        "| kind | category | tested | correct |\n|---|---|---|---|"
    )?;
    for (kind, category, tested, correct) in per_kind {
        writeln!(out, "| {kind} | {category} | {tested} | {correct} |")?;
    }
    writeln!(
        out,
        "\n## Hand-written header-less examples (corpus/emails.tsv), model trained on the generated corpus only\n"
    )?;
    writeln!(
        out,
        "{}",
        corpus::evaluate_handwritten(&labelled)
            .render()
            .replace(" from 0 held-out sender domains", "")
    )?;
    let golden = golden_messages();
    let mut correct = 0;
    for g in &golden {
        match parse_message(g.raw, None) {
            Ok(parsed) => {
                let got = model.classify(&parsed.message);
                if got.category == g.expected {
                    correct += 1;
                } else {
                    writeln!(
                        out,
                        "  sample miss: {} expected {} got {} ({})",
                        parsed.message.subject,
                        g.expected,
                        got.category,
                        got.reasons.join("; ")
                    )?;
                }
            }
            Err(e) => writeln!(out, "  sample unparseable: {}: {e}", g.name)?,
        }
    }
    writeln!(
        out,
        "sample Maildir (whole pipeline, trained on the whole corpus): {correct}/{} correct ({:.1}%)",
        golden.len(),
        correct as f64 * 100.0 / golden.len().max(1) as f64
    )
}
