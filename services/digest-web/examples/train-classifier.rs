//! Trains the classifier on the whole corpus (`fixtures/corpus/` and `corpus/emails.tsv`) and,
//! when `../shared/data` is there, the real labelled mail of `../shared/data/real-mail/` (the
//! weights, never the messages, go into the repository), and writes
//! `crates/domain/data/mail/model.bin`, the model the binaries ship. When the sentence-embedding
//! table is installed (`scripts/setup/install-embedding-model.sh`), also trains the model that
//! reads the text's meaning vector too and writes `crates/domain/data/mail/model-meaning.bin`,
//! with the stamp of the table it was trained with in `model-meaning.table`.
//! Run: `make classifier-model` (after `make classifier-corpus` or editing the corpus).

use std::io::Write;

use digest_web::job::classify::corpus;
use domain::email::model_file;

fn main() -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    let started = std::time::Instant::now();
    let real = corpus::real_mail().map_or(0, |r| r.len());
    if real == 0 {
        writeln!(
            out,
            "skipped: ../shared/data not found (training on our own corpus only)"
        )?;
    }
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../crates/domain/data/mail");
    let embedder = corpus::installed_embedder();
    let mut models = vec![("model.bin", corpus::train_on_corpus(None))];
    match &embedder {
        Some(e) => {
            models.push(("model-meaning.bin", corpus::train_on_corpus(Some(e))));
            std::fs::write(
                format!("{dir}/model-meaning.table"),
                format!("{}\n", e.stamp()),
            )?;
        }
        None => writeln!(
            out,
            "sentence-embedding table not installed: model-meaning.bin left as it is"
        )?,
    }
    for (name, model) in models {
        let bytes = model_file::to_bytes(&model);
        let path = format!("{dir}/{name}");
        std::fs::write(&path, &bytes)?;
        writeln!(
            out,
            "wrote {path}: {} bytes ({real} real messages in training), {:.1} s so far",
            bytes.len(),
            started.elapsed().as_secs_f64()
        )?;
    }
    Ok(())
}
