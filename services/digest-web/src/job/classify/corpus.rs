//! The labelled mail corpus the shipped model is trained on and measured with: the generated
//! messages (`fixtures/corpus/<category>.mbox`, written by `scripts/data/gen-mail-corpus.py`,
//! labels in `fixtures/corpus/labels.tsv`) and the hand-written header-less examples
//! (`corpus/emails.tsv`). Reading them needs the service's MIME parser; training and measuring
//! are [`domain::email::train`]'s, which the functions here call with the whole corpus.

use std::collections::HashMap;
use std::sync::Arc;

use domain::email::Category;
use domain::email::embedding::Embedder;
use domain::email::model::{Linear, Training};
use domain::email::train::{self, CorrectionEffect, Evaluation, Example, Half, Labelled};
use mail_parser::mailbox::mbox::MessageIterator;

use crate::job::mail::parse_message;

macro_rules! corpus_file {
    ($name:literal) => {
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/corpus/",
            $name
        ))
    };
}

/// The corpus files, one mbox per category.
const MBOXES: [(Category, &[u8]); 5] = [
    (Category::NeedAction, corpus_file!("need-action.mbox")),
    (Category::Fyi, corpus_file!("fyi.mbox")),
    (Category::Newsletter, corpus_file!("newsletter.mbox")),
    (Category::Promotional, corpus_file!("promotional.mbox")),
    (Category::Social, corpus_file!("social.mbox")),
];

/// The labels file (message id, category, sender domain, kind, language, year).
pub const LABELS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fixtures/corpus/labels.tsv"
));

/// The hand-written header-less examples (`category<TAB>subject<TAB>body`).
pub const HANDWRITTEN: &str = include_str!("../../../corpus/emails.tsv");

/// Every corpus message, parsed, in file order. Unparseable entries are skipped (a unit test
/// checks there are none).
pub fn labelled() -> Vec<Labelled> {
    let mut out = Vec::new();
    for (category, bytes) in MBOXES {
        for message in MessageIterator::new(bytes) {
            let Ok(message) = message else { continue };
            if let Ok(parsed) = parse_message(message.contents(), None) {
                out.push(Labelled {
                    email: parsed.message,
                    category,
                });
            }
        }
    }
    out
}

/// The hand-written header-less examples (a unit test keeps the file valid).
pub fn handwritten() -> Vec<Example> {
    train::parse_examples(HANDWRITTEN).unwrap_or_default()
}

/// The generator's kind of each corpus message (`approval`, `list_post`, …), by message id.
pub fn kinds() -> HashMap<&'static str, &'static str> {
    LABELS
        .lines()
        .skip(1)
        .filter_map(|line| {
            let mut f = line.split('\t');
            let id = f.next()?;
            let kind = f.nth(2)?;
            Some((id, kind))
        })
        .collect()
}

/// Trains the model on the whole corpus and, when `../shared/data` is there, the real
/// labelled mail (what `make classifier-model` ships: the weights, never the messages), with
/// the meaning vectors of `embedder` when given.
pub fn train_on_corpus(embedder: Option<&Embedder>) -> Linear {
    let corpus = labelled();
    let real: Vec<Labelled> = real_mail()
        .into_iter()
        .flatten()
        .map(|r| r.labelled)
        .collect();
    train::train_model(
        corpus.iter().chain(train::weighted(&real)),
        &handwritten(),
        embedder,
        Training::default(),
    )
}

/// The embedding table installed in the checkout by `scripts/setup/install-embedding-model.sh`
/// (`.tmp/embedding-model/tokens.bin`), for training and measuring; `None` when absent.
pub fn installed_embedder() -> Option<Arc<Embedder>> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../.tmp/embedding-model/tokens.bin"
    );
    Embedder::load(std::path::Path::new(path))
        .ok()
        .map(Arc::new)
}

/// [`train::evaluate`] with the hand-written examples and `also` (real mail) in every
/// training set.
pub fn evaluate(
    corpus: &[Labelled],
    also: &[Labelled],
    folds: &[usize],
    embedder: Option<&Arc<Embedder>>,
) -> Evaluation {
    train::evaluate(corpus, &handwritten(), also, folds, embedder)
}

/// [`train::evaluate_corrections`] with the hand-written examples and `also` in the training
/// set.
pub fn evaluate_corrections(
    corpus: &[Labelled],
    also: &[Labelled],
    fold: usize,
    corrections: usize,
    embedder: Option<&Arc<Embedder>>,
) -> CorrectionEffect {
    train::evaluate_corrections(corpus, &handwritten(), also, fold, corrections, embedder)
}

/// [`train::evaluate_unseen_kinds`] with the generator's kinds, the hand-written examples and
/// `also`.
pub fn evaluate_unseen_kinds(
    corpus: &[Labelled],
    also: &[Labelled],
    embedder: Option<&Arc<Embedder>>,
) -> (Evaluation, Vec<(String, Category, usize, usize)>) {
    train::evaluate_unseen_kinds(corpus, &handwritten(), also, &kinds(), embedder)
}

/// [`train::evaluate_handwritten`]: trained on the generated corpus only, tested on the
/// hand-written examples.
pub fn evaluate_handwritten(corpus: &[Labelled], embedder: Option<&Embedder>) -> Evaluation {
    train::evaluate_handwritten(corpus, &handwritten(), embedder)
}

/// The real labelled mail of `../shared/data/real-mail/` (312 messages, 2002–2003, labelled
/// one by one; never copied into the repository): read from the shared folder beside the
/// checkout when it is there.
pub const REAL_MAIL_DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/data/real-mail"
);

/// One real message with its label.
#[derive(Debug, Clone)]
pub struct RealMessage {
    /// Its file name (`sa-easy-ham-1-00001.eml`).
    pub file: String,
    /// The message and its label.
    pub labelled: Labelled,
    /// Its half: its sender/list group's ([`domain::email::train::grouped_halves`]).
    pub half: Half,
    /// Who it came from and through which list ([`domain::email::train::holdout_keys`]).
    pub keys: Vec<String>,
}

/// The real labelled mail, in `labels.csv` order; `None` when `../shared/data` is absent (a
/// clone elsewhere). Each message is read as the job reads it
/// ([`crate::job::mail::parse_or_salvage`]).
pub fn real_mail() -> Option<Vec<RealMessage>> {
    let dir = std::path::Path::new(REAL_MAIL_DIR);
    let labels = std::fs::read_to_string(dir.join("labels.csv")).ok()?;
    let mut out = Vec::new();
    for line in labels.lines().skip(1) {
        // file,category,reason (the reason may hold commas; the first two fields never do).
        let mut fields = line.splitn(3, ',');
        let (Some(file), Some(category)) = (fields.next(), fields.next()) else {
            continue;
        };
        let Some(category) = Category::parse(category) else {
            continue;
        };
        let Ok(bytes) = std::fs::read(dir.join(file)) else {
            continue;
        };
        let name = file.rsplit('/').next().unwrap_or(file).to_owned();
        let message = crate::job::mail::parse_or_salvage(&bytes, None)
            .map(|p| p.message)
            .unwrap_or_default();
        out.push(RealMessage {
            // Set below, once every message's group is known.
            half: Half::Tune,
            keys: train::holdout_keys(&message),
            file: name,
            labelled: Labelled {
                email: message,
                category,
            },
        });
    }
    let keys: Vec<Vec<String>> = out.iter().map(|r| r.keys.clone()).collect();
    for (r, half) in out.iter_mut().zip(train::grouped_halves(&keys)) {
        r.half = half;
    }
    Some(out)
}
