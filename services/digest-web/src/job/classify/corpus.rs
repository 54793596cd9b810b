//! The labelled mail corpus the shipped model is trained on and measured with: the generated
//! messages (`fixtures/corpus/<category>.mbox`, written by `scripts/data/gen-mail-corpus.py`,
//! labels in `fixtures/corpus/labels.tsv`) and the hand-written header-less examples
//! (`corpus/emails.tsv`). Reading them needs the service's MIME parser; training and measuring
//! are [`domain::email::train`]'s, which the functions here call with the whole corpus.

use std::collections::HashMap;

use domain::email::Category;
use domain::email::model::{Linear, Training};
use domain::email::train::{self, CorrectionEffect, Evaluation, Example, Labelled};
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

/// Trains the model on the whole corpus (what `make classifier-model` ships).
pub fn train_on_corpus() -> Linear {
    let corpus = labelled();
    train::train_model(corpus.iter(), &handwritten(), Training::default())
}

/// [`train::evaluate`] with the hand-written examples in every training set.
pub fn evaluate(corpus: &[Labelled], folds: &[usize]) -> Evaluation {
    train::evaluate(corpus, &handwritten(), folds)
}

/// [`train::evaluate_corrections`] with the hand-written examples in the training set.
pub fn evaluate_corrections(
    corpus: &[Labelled],
    fold: usize,
    corrections: usize,
) -> CorrectionEffect {
    train::evaluate_corrections(corpus, &handwritten(), fold, corrections)
}

/// [`train::evaluate_unseen_kinds`] with the generator's kinds and the hand-written examples.
pub fn evaluate_unseen_kinds(
    corpus: &[Labelled],
) -> (Evaluation, Vec<(String, Category, usize, usize)>) {
    train::evaluate_unseen_kinds(corpus, &handwritten(), &kinds())
}

/// [`train::evaluate_handwritten`]: trained on the generated corpus only, tested on the
/// hand-written examples.
pub fn evaluate_handwritten(corpus: &[Labelled]) -> Evaluation {
    train::evaluate_handwritten(corpus, &handwritten())
}
