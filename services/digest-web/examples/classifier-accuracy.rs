//! Prints the categoriser's accuracy, per category (precision, recall, F1) with the confusion
//! matrix, measured so that it cannot flatter (the figures in docs/digest.md):
//!
//! - (a) the real labelled mail of `../shared/data/real-mail/` with whole senders and lists held
//!   out (five folds over the groups of messages sharing a sender domain or a list), for the
//!   whole set and for each half ([`train::grouped_halves`]: a sender or list in one half
//!   only, about half the messages each): the tune half (rules and cue words were tuned by
//!   reading its failures) and the report half (never read);
//! - (b) the generated corpus with whole senders held out, and with whole kinds of mail held out;
//! - (c) the real mail scored by a model trained only on our own corpus (generated messages and
//!   hand-written examples);
//!
//! then the hand-written header-less examples and the sample Maildir. Without
//! `../shared/data` the real-mail parts print "skipped: ../shared/data not found".
//! Each scheme in turn: header evidence and words (the embedded default), then, when the
//! sentence-embedding table is installed (`scripts/setup/install-embedding-model.sh`), header
//! evidence, words and the text's meaning vector; `--scheme headers` or `--scheme meaning`
//! runs one. `--failures` also lists the tune half's failures of (a) and its false
//! Need-Action of (c), the only real mail read for tuning, and the generated corpus's failures
//! with senders held out; `--real-only` prints (a) and (c) alone.
//! Run: `make classifier-accuracy`.

use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

use digest_web::job::classify::corpus::{self, RealMessage};
use digest_web::job::classify::{Classifier, golden_messages};
use digest_web::job::mail::parse_message;
use domain::email::Category;
use domain::email::embedding::Embedder;
use domain::email::model::Training;
use domain::email::train::{self, Evaluation, Example, Half, Labelled};

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let show_failures = args.iter().any(|a| a == "--failures");
    let real_only = args.iter().any(|a| a == "--real-only");
    let scheme = args
        .iter()
        .position(|a| a == "--scheme")
        .and_then(|i| args.get(i + 1))
        .map_or("both", String::as_str);
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
    let started = Instant::now();
    let embedder = corpus::installed_embedder();
    match &embedder {
        Some(e) => writeln!(
            out,
            "sentence-embedding table ({} values per message) loaded in {:.0} ms",
            e.dim(),
            started.elapsed().as_secs_f64() * 1000.0
        )?,
        None => writeln!(
            out,
            "sentence-embedding table not installed (scripts/setup/install-embedding-model.sh): the header-and-words scheme only"
        )?,
    }
    let real = corpus::real_mail();
    let mut schemes: Vec<(&str, Option<&Arc<Embedder>>)> = Vec::new();
    if scheme != "meaning" {
        schemes.push(("headers and words", None));
    }
    if scheme != "headers"
        && let Some(e) = &embedder
    {
        schemes.push(("headers, words and meaning (sentence embedding)", Some(e)));
    }
    let context = Context {
        generated: &generated,
        handwritten: &handwritten,
        real: real.as_deref(),
        show_failures,
        real_only,
    };
    for (name, embedder) in schemes {
        writeln!(out, "\n# Scheme: {name}")?;
        context.report(&mut out, embedder)?;
    }
    if real_only {
        return Ok(());
    }
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

/// What every scheme is measured on.
struct Context<'a> {
    generated: &'a [Labelled],
    handwritten: &'a [Example],
    real: Option<&'a [RealMessage]>,
    show_failures: bool,
    real_only: bool,
}

impl Context<'_> {
    /// (a), (c), then (b) and the hand-written examples, for one scheme.
    fn report(
        &self,
        out: &mut impl Write,
        embedder: Option<&Arc<Embedder>>,
    ) -> std::io::Result<()> {
        let real_labelled: Vec<Labelled> = self
            .real
            .iter()
            .copied()
            .flatten()
            .map(|r| r.labelled.clone())
            .collect();
        writeln!(
            out,
            "\n## (a) Real mail, whole senders and lists held out (5 folds; each model trained on the generated corpus, the hand-written examples and the other folds)\n"
        )?;
        match self.real {
            None => writeln!(out, "skipped: ../shared/data not found\n")?,
            Some(real) => {
                let keys: Vec<Vec<String>> = real.iter().map(|r| r.keys.clone()).collect();
                let classified = train::evaluate_grouped(
                    &real_labelled,
                    &keys,
                    self.generated,
                    self.handwritten,
                    5,
                    embedder,
                );
                let predicted: Vec<Category> = classified.iter().map(|c| c.category).collect();
                render_halves(out, real, &predicted)?;
                if self.show_failures {
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
        match self.real {
            None => writeln!(out, "skipped: ../shared/data not found\n")?,
            Some(real) => {
                let ours = train::classifier(
                    train::train_model(
                        self.generated.iter(),
                        self.handwritten,
                        embedder.map(|e| &**e),
                        Training::default(),
                    ),
                    embedder,
                );
                let classified: Vec<_> = real
                    .iter()
                    .map(|r| ours.classify(&r.labelled.email))
                    .collect();
                let predicted: Vec<Category> = classified.iter().map(|c| c.category).collect();
                render_halves(out, real, &predicted)?;
                if self.show_failures {
                    writeln!(out, "Tune-half false Need-Action of (c):\n")?;
                    for (r, c) in real.iter().zip(&classified) {
                        if r.half == Half::Tune
                            && c.category == Category::NeedAction
                            && r.labelled.category != Category::NeedAction
                        {
                            writeln!(
                                out,
                                "  {}: want {} ({})",
                                r.file,
                                r.labelled.category,
                                c.reasons.join("; ")
                            )?;
                        }
                    }
                    writeln!(out)?;
                }
            }
        }
        if self.real_only {
            return Ok(());
        }
        writeln!(
            out,
            "## (b) Generated corpus, whole senders held out (5 folds by sender domain; the real mail, when present, in every training set)\n"
        )?;
        let per_fold = train::classify_held_out(
            self.generated,
            self.handwritten,
            &real_labelled,
            &[0, 1, 2, 3, 4],
            embedder,
        );
        let mut evaluation = Evaluation::default();
        let kinds = corpus::kinds();
        let mut failures = Vec::new();
        for fold in &per_fold {
            for (m, c) in self.generated.iter().zip(fold) {
                let Some(c) = c else { continue };
                evaluation.add(m.category, c.category);
                if c.category != m.category {
                    failures.push(format!(
                        "  {} [{}]: want {} got {} ({})",
                        m.email.subject,
                        kinds.get(m.email.id.as_str()).unwrap_or(&"?"),
                        m.category,
                        c.category,
                        c.reasons.join("; ")
                    ));
                }
            }
        }
        evaluation.senders = self
            .generated
            .iter()
            .map(|m| m.email.sender_group())
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        writeln!(
            out,
            "Need-Action precision {:.3}\n",
            evaluation.scores(Category::NeedAction).0
        )?;
        writeln!(out, "{}", evaluation.render())?;
        if self.show_failures {
            writeln!(out, "Generated corpus failures, senders held out:\n")?;
            for f in &failures {
                writeln!(out, "{f}")?;
            }
            writeln!(out)?;
        }
        writeln!(
            out,
            "## (b) Generated corpus, unseen kinds of mail (each kind left out of training in turn)\n"
        )?;
        let (unseen, per_kind) =
            corpus::evaluate_unseen_kinds(self.generated, &real_labelled, embedder);
        writeln!(
            out,
            "Need-Action precision {:.3}\n",
            unseen.scores(Category::NeedAction).0
        )?;
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
            corpus::evaluate_handwritten(self.generated, embedder.map(|e| &**e))
                .render()
                .replace(" from 0 held-out sender domains", "")
        )
    }
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
