//! Trains the classifier on the whole corpus (`fixtures/corpus/` and `corpus/emails.tsv`) and,
//! when `../shared/data` is there, the real labelled mail of `../shared/data/real-mail/` (the
//! weights, never the messages, go into the repository), and writes
//! `crates/domain/data/mail/model.bin`, the model the binaries ship.
//! Run: `make classifier-model` (after `make classifier-corpus` or editing the corpus).

use std::io::Write;

use digest_web::job::classify::corpus;
use domain::email::model_file;

fn main() -> std::io::Result<()> {
    let started = std::time::Instant::now();
    let real = corpus::real_mail().map_or(0, |r| r.len());
    if real == 0 {
        writeln!(
            std::io::stdout().lock(),
            "skipped: ../shared/data not found (training on our own corpus only)"
        )?;
    }
    let model = corpus::train_on_corpus();
    let bytes = model_file::to_bytes(&model);
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../crates/domain/data/mail/model.bin"
    );
    std::fs::write(path, &bytes)?;
    writeln!(
        std::io::stdout().lock(),
        "wrote {path}: {} bytes ({real} real messages in training), trained in {:.1} s",
        bytes.len(),
        started.elapsed().as_secs_f64()
    )
}
