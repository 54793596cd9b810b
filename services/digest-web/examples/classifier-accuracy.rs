//! Prints the categoriser's accuracy, per category (precision, recall, F1) with the confusion
//! matrix, measured so that it cannot flatter (the figures in docs/digest.md):
//!
//! - (a) the real labelled mail of `../shared/data/real-mail/` with whole senders and lists held
//!   out (five folds over the groups of messages sharing a sender domain or a list), for the
//!   whole set and for each half: the tune half (file names whose FNV-1a hash is even: rules
//!   and cue words were tuned by reading its failures) and the report half (never read);
//! - (b) the generated corpus with whole senders held out, and with whole kinds of mail held out;
//! - (c) the real mail scored by a model trained only on our own corpus (generated messages and
//!   hand-written examples);
//!
//! then the hand-written header-less examples and the sample Maildir. Without
//! `../shared/data` the real-mail parts print "skipped: ../shared/data not found".
//! `--failures` also lists the tune half's failures of (a), the only ones read for tuning;
//! `--real-only` prints (a) and (c) alone.
//! Run: `make classifier-accuracy`.

use std::io::Write;
use std::time::Instant;

use digest_web::job::classify::corpus::{self, RealMessage};
use digest_web::job::classify::{Classifier, golden_messages};
use digest_web::job::mail::parse_message;
use domain::email::Category;
use domain::email::model::Training;
use domain::email::train::{self, Evaluation, Half, Labelled};

fn main() -> std::io::Result<()> {
    let show_failures = std::env::args().any(|a| a == "--failures");
    let real_only = std::env::args().any(|a| a == "--real-only");
    let mut out = std::io::stdout().lock();
    let started = Instant::now();
    let generated = corpus::labelled();
    let handwritten = corpus::handwritten();
    writeln!(
        out,
        "corpus: {} messages parsed in {:.0} ms",
        generated.len(),
        started.elapsed().as_secs_f64() * 1000.0
    )?;
    let started = Instant::now();
    let model = Classifier::embedded();
    writeln!(
        out,
        "start-up model load (shipped weights): {:.0} ms",
        started.elapsed().as_secs_f64() * 1000.0
    )?;
    let real = corpus::real_mail();
    let real_labelled: Vec<Labelled> = real.iter().flatten().map(|r| r.labelled.clone()).collect();

    writeln!(
        out,
        "\n## (a) Real mail, whole senders and lists held out (5 folds; each model trained on the generated corpus, the hand-written examples and the other folds)\n"
    )?;
    match &real {
        None => writeln!(out, "skipped: ../shared/data not found\n")?,
        Some(real) => {
            let keys: Vec<Vec<String>> = real.iter().map(|r| r.keys.clone()).collect();
            let classified =
                train::evaluate_grouped(&real_labelled, &keys, &generated, &handwritten, 5);
            let predicted: Vec<Category> = classified.iter().map(|c| c.category).collect();
            render_halves(&mut out, real, &predicted)?;
            if show_failures {
                writeln!(out, "Tune-half failures (the only ones read for tuning):\n")?;
                for (r, c) in real.iter().zip(&classified) {
                    if r.half == Half::Tune && c.category != r.labelled.category {
                        writeln!(
                            out,
                            "  {}: want {} got {} ({})",
                            r.file,
                            r.labelled.category,
                            c.category,
                            c.reasons.join("; ")
                        )?;
                    }
                }
                writeln!(out)?;
            }
        }
    }
    writeln!(
        out,
        "## (c) Real mail scored by a model trained only on our corpus (generated messages and hand-written examples)\n"
    )?;
    match &real {
        None => writeln!(out, "skipped: ../shared/data not found\n")?,
        Some(real) => {
            let ours = Classifier::from_model(train::train_model(
                generated.iter(),
                &handwritten,
                Training::default(),
            ));
            let predicted: Vec<Category> = real
                .iter()
                .map(|r| ours.classify(&r.labelled.email).category)
                .collect();
            render_halves(&mut out, real, &predicted)?;
        }
    }
    if real_only {
        return Ok(());
    }

    writeln!(
        out,
        "## (b) Generated corpus, whole senders held out (5 folds by sender domain; the real mail, when present, in every training set)\n"
    )?;
    let evaluation = corpus::evaluate(&generated, &real_labelled, &[0, 1, 2, 3, 4]);
    writeln!(out, "{}", evaluation.render())?;
    writeln!(
        out,
        "## (b) Generated corpus, unseen kinds of mail (each kind left out of training in turn)\n"
    )?;
    let (unseen, per_kind) = corpus::evaluate_unseen_kinds(&generated, &real_labelled);
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
        corpus::evaluate_handwritten(&generated)
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
        "sample Maildir (whole pipeline, the shipped model): {correct}/{} correct ({:.1}%)",
        golden.len(),
        correct as f64 * 100.0 / golden.len().max(1) as f64
    )
}

/// The evaluation of the whole set, then of each half.
fn render_halves(
    out: &mut impl Write,
    real: &[RealMessage],
    predicted: &[Category],
) -> std::io::Result<()> {
    for (title, half) in [
        ("all", None),
        ("tune half (failures read)", Some(Half::Tune)),
        ("report half (never read)", Some(Half::Report)),
    ] {
        let evaluation = Evaluation::of(
            real.iter()
                .zip(predicted)
                .filter(|(r, _)| half.is_none_or(|h| r.half == h))
                .map(|(r, p)| (r.labelled.category, *p)),
        );
        writeln!(
            out,
            "### {title}: macro-F1 {:.3}, Need-Action precision {:.3}\n",
            evaluation.macro_f1(),
            evaluation.scores(Category::NeedAction).0
        )?;
        writeln!(
            out,
            "{}",
            evaluation
                .render()
                .replace(" from 0 held-out sender domains", "")
        )?;
    }
    Ok(())
}
