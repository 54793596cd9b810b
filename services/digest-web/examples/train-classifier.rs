//! Trains the classifier on the whole corpus (`fixtures/corpus/` and `corpus/emails.tsv`) and
//! writes `crates/domain/data/mail/model.bin`, the model the binaries ship.
//! Run: `make classifier-model` (after `make classifier-corpus` or editing the corpus).

use std::io::Write;

use digest_web::job::classify::corpus;
use domain::email::model_file;

fn main() -> std::io::Result<()> {
    let started = std::time::Instant::now();
    let model = corpus::train_on_corpus();
    let bytes = model_file::to_bytes(&model);
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../crates/domain/data/mail/model.bin"
    );
    std::fs::write(path, &bytes)?;
    writeln!(
        std::io::stdout().lock(),
        "wrote {path}: {} bytes, trained in {:.1} s",
        bytes.len(),
        started.elapsed().as_secs_f64()
    )
}
