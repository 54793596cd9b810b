//! Training the mail category model and measuring it with whole senders or kinds of mail held
//! out.
//!
//! Senders are grouped by registrable domain ([`Message::sender_group`]). [`evaluate`] trains
//! on four fifths of the sender domains and tests on the fifth it never saw, five times, so
//! every message is tested exactly once by a model that never saw its sender.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use super::Category;
use super::classifier::{Classification, Classifier, body_is_readable};
use super::embedding::Embedder;
use super::features::{Features, add_meaning, extract, extract_text};
use super::message::Message;
use super::model::{Linear, Training, class};
use super::owners::{Owners, addresses};
use super::readable;
use super::text::fnv1a;

/// One labelled example.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Example {
    /// The label.
    pub category: Category,
    /// Subject line.
    pub subject: String,
    /// Body text.
    pub body: String,
}

/// Reads header-less examples: `category<TAB>subject<TAB>body` lines (`#` comments and blank
/// lines skipped).
/// Lines with an unknown category or too few fields are errors naming the line.
pub fn parse_examples(text: &str) -> Result<Vec<Example>, String> {
    let mut out = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.splitn(3, '\t');
        let (Some(category), Some(subject), Some(body)) =
            (fields.next(), fields.next(), fields.next())
        else {
            return Err(format!(
                "corpus line {}: expected 3 tab-separated fields",
                number + 1
            ));
        };
        let category = Category::parse(category)
            .ok_or_else(|| format!("corpus line {}: unknown category '{category}'", number + 1))?;
        out.push(Example {
            category,
            subject: subject.to_owned(),
            body: body.to_owned(),
        });
    }
    Ok(out)
}

/// One labelled message.
#[derive(Debug, Clone)]
pub struct Labelled {
    /// The message.
    pub email: Message,
    /// Its label.
    pub category: Category,
}

/// The fold (0–4) a sender group is tested in.
pub fn fold_of(group: &str) -> usize {
    (fnv1a(group.as_bytes()) % 5) as usize
}

/// Trains the model on labelled messages (each also without its headers, see
/// [`corpus_features`]) plus header-less examples (the service's `corpus/emails.tsv`: other
/// authors' wording, six languages), with the meaning vectors of `embedder` when given.
pub fn train_model<'a>(
    messages: impl Iterator<Item = &'a Labelled>,
    extra: &[Example],
    embedder: Option<&Embedder>,
    settings: Training,
) -> Linear {
    let features: Vec<(Features, Category)> = corpus_features(messages, embedder)
        .chain(
            extra
                .iter()
                .map(|e| (text_features(&e.subject, &e.body, embedder), e.category)),
        )
        .collect();
    let pairs: Vec<(&Features, Category)> = features.iter().map(|(f, c)| (f, *c)).collect();
    Linear::train(&pairs, settings)
}

/// The classifier around a trained model: reading text with `embedder` when the model was
/// trained with it.
pub fn classifier(model: Linear, embedder: Option<&Arc<Embedder>>) -> Classifier {
    match embedder {
        Some(e) => Classifier::with_meaning(model, Arc::clone(e)),
        None => Classifier::from_model(model),
    }
}

/// Each message's features twice: as the classifier computes them, and from its subject and
/// body alone. Headers decide most corpus mail, so without the header-less copy the model
/// would learn little from the words and cues; with it, text has to carry the category on its
/// own too, as in mail whose headers say nothing (forwarded, pasted, from old clients).
pub fn corpus_features<'a>(
    messages: impl Iterator<Item = &'a Labelled>,
    embedder: Option<&Embedder>,
) -> impl Iterator<Item = (Features, Category)> {
    messages.flat_map(move |m| {
        let readable = body_is_readable(readable::check(&m.email));
        let body = if readable { m.email.body.as_str() } else { "" };
        [
            (features_of(&m.email, embedder), m.category),
            (text_features(&m.email.subject, body, embedder), m.category),
        ]
    })
}

/// The features the classifier computes for a message (readability applied; the meaning
/// vector of `embedder` when given).
pub fn features_of(email: &Message, embedder: Option<&Embedder>) -> Features {
    let problem = readable::check(email);
    let readable = body_is_readable(problem);
    let mut features = extract(email, &Owners::default(), readable, false);
    if let Some(meaning) = embedder.and_then(|e| {
        let subject = if problem == Some(readable::Unreadable::BadHeaders) {
            ""
        } else {
            email.subject.as_str()
        };
        e.embed(subject, if readable { &email.body } else { "" })
    }) {
        add_meaning(&mut features, &meaning, false);
    }
    features
}

/// The features of a subject and body alone (no headers), with their meaning vector when an
/// embedder is given.
pub fn text_features(subject: &str, body: &str, embedder: Option<&Embedder>) -> Features {
    let mut features = extract_text(subject, body);
    if let Some(meaning) = embedder.and_then(|e| e.embed(subject, body)) {
        add_meaning(&mut features, &meaning, false);
    }
    features
}

/// Predictions against labels: the confusion matrix and what follows from it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Evaluation {
    /// `confusion[expected][predicted]`, [`Category::ALL`] order.
    pub confusion: [[usize; 5]; 5],
    /// Sender groups tested.
    pub senders: usize,
}

impl Evaluation {
    /// Counts one prediction.
    pub fn add(&mut self, expected: Category, predicted: Category) {
        self.confusion[class(expected)][class(predicted)] += 1;
    }

    /// Messages tested.
    pub fn tested(&self) -> usize {
        self.confusion.iter().flatten().sum()
    }

    /// Share correct.
    pub fn accuracy(&self) -> f64 {
        let correct: usize = (0..5).map(|i| self.confusion[i][i]).sum();
        correct as f64 / self.tested().max(1) as f64
    }

    /// (precision, recall, F1) of one category.
    pub fn scores(&self, category: Category) -> (f64, f64, f64) {
        let k = class(category);
        let tp = self.confusion[k][k] as f64;
        let predicted: usize = (0..5).map(|i| self.confusion[i][k]).sum();
        let actual: usize = self.confusion[k].iter().sum();
        let p = tp / predicted.max(1) as f64;
        let r = tp / actual.max(1) as f64;
        let f1 = if p + r > 0.0 {
            2.0 * p * r / (p + r)
        } else {
            0.0
        };
        (p, r, f1)
    }

    /// The lowest per-category F1.
    pub fn min_f1(&self) -> f64 {
        Category::ALL
            .iter()
            .map(|&c| self.scores(c).2)
            .fold(1.0, f64::min)
    }

    /// Markdown: accuracy line, per-category table, confusion matrix.
    pub fn render(&self) -> String {
        let senders = if self.senders > 0 {
            format!(" from {} held-out sender domains", self.senders)
        } else {
            String::new()
        };
        let mut out = format!(
            "accuracy {:.1}% on {} messages{senders}\n\n| category | messages | precision | recall | F1 |\n|---|---|---|---|---|\n",
            self.accuracy() * 100.0,
            self.tested(),
        );
        for c in Category::ALL {
            let (p, r, f1) = self.scores(c);
            let n: usize = self.confusion[class(c)].iter().sum();
            if n == 0 {
                continue;
            }
            out.push_str(&format!("| {c} | {n} | {p:.3} | {r:.3} | {f1:.3} |\n"));
        }
        out.push_str("\n| expected \\ predicted |");
        for c in Category::ALL {
            out.push_str(&format!(" {c} |"));
        }
        out.push_str("\n|---|---|---|---|---|---|\n");
        for e in Category::ALL {
            out.push_str(&format!("| {e} |"));
            for p in Category::ALL {
                out.push_str(&format!(" {} |", self.confusion[class(e)][class(p)]));
            }
            out.push('\n');
        }
        out
    }
}

/// Trains without the sender groups of `folds` and tests the whole classifier (rules included)
/// on them. `evaluate(&[0, 1, 2, 3, 4])` is five-fold cross-validation by sender.
/// `also` (real mail, repeated [`REAL_WEIGHT`] times) is added to every training set.
pub fn evaluate(
    corpus: &[Labelled],
    extra: &[Example],
    also: &[Labelled],
    folds: &[usize],
    embedder: Option<&Arc<Embedder>>,
) -> Evaluation {
    let groups: Vec<String> = corpus.iter().map(|m| m.email.sender_group()).collect();
    let mut evaluation = Evaluation::default();
    for (&fold, predicted) in folds
        .iter()
        .zip(classify_held_out(corpus, extra, also, folds, embedder))
    {
        let mut senders = BTreeSet::new();
        for ((m, g), p) in corpus.iter().zip(&groups).zip(predicted) {
            if let Some(p) = p {
                senders.insert(g.as_str());
                evaluation.add(m.category, p.category);
            }
        }
        debug_assert!(senders.iter().all(|g| fold_of(g) == fold));
        evaluation.senders += senders.len();
    }
    evaluation
}

/// What [`evaluate`] measures, message by message: per fold of `folds`, each corpus message's
/// classification by the model trained without that fold's sender groups (`None` for the
/// messages of other folds), to read which classes fail.
pub fn classify_held_out(
    corpus: &[Labelled],
    extra: &[Example],
    also: &[Labelled],
    folds: &[usize],
    embedder: Option<&Arc<Embedder>>,
) -> Vec<Vec<Option<Classification>>> {
    let groups: Vec<String> = corpus.iter().map(|m| m.email.sender_group()).collect();
    folds
        .iter()
        .map(|&fold| {
            let classifier = fold_classifier(corpus, &groups, fold, extra, also, embedder);
            corpus
                .iter()
                .zip(&groups)
                .map(|(m, g)| (fold_of(g) == fold).then(|| classifier.classify(&m.email)))
                .collect()
        })
        .collect()
}

/// The classifier trained without the sender groups of `fold` (`groups`: each corpus
/// message's [`Message::sender_group`]), on `extra` and `also` (weighted) besides.
fn fold_classifier(
    corpus: &[Labelled],
    groups: &[String],
    fold: usize,
    extra: &[Example],
    also: &[Labelled],
    embedder: Option<&Arc<Embedder>>,
) -> Classifier {
    let train = corpus
        .iter()
        .zip(groups)
        .filter(|(_, g)| fold_of(g) != fold)
        .map(|(m, _)| m);
    classifier(
        train_model(
            train.chain(weighted(also)),
            extra,
            embedder.map(|e| &**e),
            Training::default(),
        ),
        embedder,
    )
}

/// What corrections did to held-out senders ([`evaluate_corrections`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CorrectionEffect {
    /// Sender groups corrected (each tested on its own).
    pub groups: usize,
    /// Their messages not corrected, classified by the updated model.
    pub held_out: usize,
    /// Of them, those that followed the correction to its category.
    pub followed: usize,
    /// Of them, those already in that category before the update (should be none).
    pub followed_before: usize,
    /// Accuracy on every other sender of the fold, before and after, averaged over groups.
    pub others_before: f64,
    /// See `others_before`.
    pub others_after: f64,
}

/// Trains without the senders of `fold`, then for each of its sender groups with more than
/// `corrections` + 2 messages of one label (its first message's): moves the first
/// `corrections` of them to another category (the next one in [`Category::ALL`]: a user who
/// files this sender's mail differently), updates the model from them alone
/// ([`Classifier::learning_from`]) and classifies the group's other messages of that label,
/// and every other sender of the fold. No sender rule is involved: this measures what the
/// model learnt.
pub fn evaluate_corrections(
    corpus: &[Labelled],
    extra: &[Example],
    also: &[Labelled],
    fold: usize,
    corrections: usize,
    embedder: Option<&Arc<Embedder>>,
) -> CorrectionEffect {
    let groups: Vec<String> = corpus.iter().map(|m| m.email.sender_group()).collect();
    let base = fold_classifier(corpus, &groups, fold, extra, also, embedder);
    let mut by_group: BTreeMap<&str, Vec<&Labelled>> = BTreeMap::new();
    for (m, g) in corpus.iter().zip(&groups) {
        if fold_of(g) == fold {
            by_group.entry(g.as_str()).or_default().push(m);
        }
    }
    let accuracy = |classifier: &Classifier, skip: &str| {
        let (mut right, mut all) = (0usize, 0usize);
        for (g, messages) in &by_group {
            if *g == skip {
                continue;
            }
            for m in messages {
                all += 1;
                right += usize::from(classifier.classify(&m.email).category == m.category);
            }
        }
        right as f64 / all.max(1) as f64
    };
    let mut effect = CorrectionEffect::default();
    for (group, messages) in &by_group {
        // Similar mail: the group's messages with the label of its first one.
        let label = messages[0].category;
        let similar: Vec<&Labelled> = messages
            .iter()
            .copied()
            .filter(|m| m.category == label)
            .collect();
        if similar.len() < corrections + 3 {
            continue;
        }
        let next = Category::ALL[(class(label) + 1) % Category::ALL.len()];
        let examples: Vec<(String, Features, Category)> = similar[..corrections]
            .iter()
            .map(|m| {
                (
                    group.to_string(),
                    features_of(&m.email, embedder.map(|e| &**e)),
                    next,
                )
            })
            .collect();
        let updated = base.learning_from(&examples);
        effect.groups += 1;
        for m in &similar[corrections..] {
            effect.held_out += 1;
            effect.followed += usize::from(updated.classify(&m.email).category == next);
            effect.followed_before += usize::from(base.classify(&m.email).category == next);
        }
        effect.others_before += accuracy(&base, group);
        effect.others_after += accuracy(&updated, group);
    }
    let n = effect.groups.max(1) as f64;
    effect.others_before /= n;
    effect.others_after /= n;
    effect
}

/// The harsher test: for each kind of mail (approval requests, list posts, sales, …), train
/// without any message of that kind and test on it. This measures whether the model recognises
/// a kind of mail it has never seen from its headers and cues, not from memorised templates.
/// `kinds` gives each message's kind by message id. Returns the pooled evaluation and, per
/// kind, (category, tested, correct).
pub fn evaluate_unseen_kinds(
    corpus: &[Labelled],
    extra: &[Example],
    also: &[Labelled],
    kinds: &HashMap<&str, &str>,
    embedder: Option<&Arc<Embedder>>,
) -> (Evaluation, Vec<(String, Category, usize, usize)>) {
    let kind_of = |m: &Labelled| kinds.get(m.email.id.as_str()).copied().unwrap_or("?");
    // A kind that is its category's only kind (all Social mail) cannot be left out: the model
    // would never have seen the category at all.
    let mut kinds_per_category: HashMap<Category, BTreeSet<&str>> = HashMap::new();
    for m in corpus {
        kinds_per_category
            .entry(m.category)
            .or_default()
            .insert(kind_of(m));
    }
    let all: BTreeSet<&str> = corpus
        .iter()
        .filter(|m| kinds_per_category[&m.category].len() > 1)
        .map(kind_of)
        .collect();
    let mut evaluation = Evaluation::default();
    let mut per_kind = Vec::new();
    for kind in all {
        let classifier = classifier(
            train_model(
                corpus
                    .iter()
                    .filter(|m| kind_of(m) != kind)
                    .chain(weighted(also)),
                extra,
                embedder.map(|e| &**e),
                Training::default(),
            ),
            embedder,
        );
        let (mut tested, mut correct, mut category) = (0, 0, Category::Fyi);
        for m in corpus.iter().filter(|m| kind_of(m) == kind) {
            let predicted = classifier.classify(&m.email).category;
            evaluation.add(m.category, predicted);
            tested += 1;
            correct += usize::from(predicted == m.category);
            category = m.category;
        }
        per_kind.push((kind.to_owned(), category, tested, correct));
    }
    (evaluation, per_kind)
}

/// Out of distribution: trained on `corpus` only, tested on header-less `examples` (the
/// service's `corpus/emails.tsv`: other wording, six languages, no headers).
pub fn evaluate_handwritten(
    corpus: &[Labelled],
    examples: &[Example],
    embedder: Option<&Embedder>,
) -> Evaluation {
    let features: Vec<(Features, Category)> = corpus_features(corpus.iter(), embedder).collect();
    let pairs: Vec<(&Features, Category)> = features.iter().map(|(f, c)| (f, *c)).collect();
    let model = Linear::train(&pairs, Training::default());
    let mut evaluation = Evaluation::default();
    for e in examples {
        let p = model.probabilities(&text_features(&e.subject, &e.body, embedder));
        let best = (0..5).max_by(|&a, &b| p[a].total_cmp(&p[b])).unwrap_or(1);
        evaluation.add(e.category, Category::ALL[best]);
    }
    evaluation
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_example_lines_are_errors_with_line_numbers() {
        assert_eq!(
            parse_examples("# c\nSpam\tx\ty").unwrap_err(),
            "corpus line 2: unknown category 'Spam'"
        );
        assert!(
            parse_examples("FYI\tonly two")
                .unwrap_err()
                .contains("line 1")
        );
        let examples = parse_examples("# c\n\nFYI\tBackup done\tAll 3 volumes copied.").unwrap();
        assert_eq!(examples.len(), 1);
        assert_eq!(examples[0].category, Category::Fyi);
        assert_eq!(examples[0].body, "All 3 volumes copied.");
    }

    #[test]
    fn folds_are_stable() {
        // The corpus figures in docs/digest.md depend on these never moving.
        assert_eq!(fold_of("example.org"), (fnv1a(b"example.org") % 5) as usize);
        assert_eq!(Message::default().sender_group(), "");
    }

    #[test]
    fn a_sender_or_list_is_in_one_half_and_the_halves_are_balanced() {
        let key = |s: &str| s.split(' ').map(str::to_owned).collect::<Vec<_>>();
        // a.org and b.org post to list x: one group; c.org alone; d.org .. k.org one each.
        let mut keys = vec![
            key("s:a.org l:x"),
            key("s:b.org l:x"),
            key("s:a.org"),
            key("s:c.org"),
            key("s:c.org"),
        ];
        for d in 'd'..='k' {
            keys.push(key(&format!("s:{d}.org")));
        }
        let halves = grouped_halves(&keys);
        assert_eq!(halves[0], halves[1]);
        assert_eq!(halves[0], halves[2]);
        assert_eq!(halves[3], halves[4]);
        let tune = halves.iter().filter(|&&h| h == Half::Tune).count();
        // 13 messages, the largest group 3: the halves differ by at most 3.
        assert!(tune.abs_diff(keys.len() - tune) <= 3, "{halves:?}");
        // Fixed by the keys alone.
        assert_eq!(halves, grouped_halves(&keys));
        assert_eq!(group_names(&keys)[1], "l:x");
    }
}

/// How many times each real message counts in training: the generated corpus is six times
/// larger and each of its messages counts twice (with and without headers), so real mail
/// would otherwise weigh little against our own generator's phrasing.
pub const REAL_WEIGHT: usize = 3;

/// Real mail repeated [`REAL_WEIGHT`] times, for a training set.
pub fn weighted(real: &[Labelled]) -> impl Iterator<Item = &Labelled> + Clone {
    (0..REAL_WEIGHT).flat_map(move |_| real.iter())
}

/// Predictions for each message of a real set by models that never saw its sender or its
/// list: cross-validation over [`grouped_folds`] (`keys` from [`holdout_keys`]), each model
/// trained on `base` (the generated corpus), `extra` and the real messages of the other folds.
/// The whole classifier decides (rules included), with `owners` as configured.
pub fn evaluate_grouped(
    real: &[Labelled],
    keys: &[Vec<String>],
    base: &[Labelled],
    extra: &[Example],
    folds: usize,
    embedder: Option<&Arc<Embedder>>,
) -> Vec<Classification> {
    let fold_of = grouped_folds(keys, folds);
    let mut predicted = vec![None; real.len()];
    for fold in 0..folds {
        let train: Vec<Labelled> = real
            .iter()
            .zip(&fold_of)
            .filter(|(_, f)| **f != fold)
            .map(|(m, _)| m.clone())
            .collect();
        let classifier = classifier(
            train_model(
                base.iter().chain(weighted(&train)),
                extra,
                embedder.map(|e| &**e),
                Training::default(),
            ),
            embedder,
        );
        for (i, m) in real.iter().enumerate() {
            if fold_of[i] == fold {
                predicted[i] = Some(classifier.classify(&m.email));
            }
        }
    }
    // Every message is in one fold (fold numbers are below `folds`).
    predicted.into_iter().flatten().collect()
}

impl Evaluation {
    /// The evaluation of (expected, predicted) pairs.
    pub fn of(pairs: impl IntoIterator<Item = (Category, Category)>) -> Self {
        let mut out = Self::default();
        for (expected, predicted) in pairs {
            out.add(expected, predicted);
        }
        out
    }

    /// Mean F1 over the categories present in the expected labels.
    pub fn macro_f1(&self) -> f64 {
        let present: Vec<Category> = Category::ALL
            .into_iter()
            .filter(|&c| self.confusion[class(c)].iter().sum::<usize>() > 0)
            .collect();
        present.iter().map(|&c| self.scores(c).2).sum::<f64>() / present.len().max(1) as f64
    }
}

/// The two halves of a real set, by sender/list group (the connected components of
/// [`holdout_keys`], the same groups the grouped cross-validation holds out): rules and cue
/// words are tuned by reading the failures of [`Half::Tune`] only; [`Half::Report`] is
/// reported apart and never read for tuning. A sender or list is in one half only, so a
/// class fixed from the tune half's failures cannot reach the report half through the same
/// sender's other messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Half {
    /// Failures read, rules and words tuned on it.
    Tune,
    /// Only measured.
    Report,
}

/// Each message's half ([`Half`]): the groups ([`group_names`]) taken in the order of their
/// name's FNV-1a hash (ties by name), each put whole in the half with fewer messages so far
/// (the tune half on a tie). Fixed by the names alone, never by labels or scores, and about
/// half the messages each (the halves differ by at most the largest group).
pub fn grouped_halves(keys: &[Vec<String>]) -> Vec<Half> {
    let names = group_names(keys);
    let mut sizes: HashMap<&str, usize> = HashMap::new();
    for name in &names {
        *sizes.entry(name.as_str()).or_default() += 1;
    }
    let mut order: Vec<(&str, usize)> = sizes.into_iter().collect();
    order.sort_by_key(|&(name, _)| (fnv1a(name.as_bytes()), name));
    let (mut tune, mut report) = (0, 0);
    let mut half_of: HashMap<&str, Half> = HashMap::new();
    for (name, size) in order {
        let half = if tune <= report {
            tune += size;
            Half::Tune
        } else {
            report += size;
            Half::Report
        };
        half_of.insert(name, half);
    }
    names.iter().map(|n| half_of[n.as_str()]).collect()
}

/// What must be held out together with a message: its sender (registrable domain) and the
/// mailing list it came through (`List-Id`, else the list address of `List-Post`,
/// `Mailing-List` or `X-Mailing-List`), as `s:` and `l:` keys.
pub fn holdout_keys(email: &Message) -> Vec<String> {
    let mut keys = vec![format!("s:{}", email.sender_group())];
    if let Some(list) = list_key(email) {
        keys.push(format!("l:{list}"));
    }
    keys
}

/// The list a message came through, lower-case, if any.
pub fn list_key(email: &Message) -> Option<String> {
    if let Some(id) = email.header("list-id") {
        let id = match (id.rfind('<'), id.rfind('>')) {
            (Some(a), Some(b)) if a < b => &id[a + 1..b],
            _ => id,
        };
        let id = id.trim().to_ascii_lowercase();
        if !id.is_empty() {
            return Some(id);
        }
    }
    ["list-post", "mailing-list", "x-mailing-list"]
        .iter()
        .filter_map(|h| email.header(h))
        .find_map(|v| addresses(v).next())
}

/// Folds (0..`folds`) such that messages sharing a sender or a list are in the same fold:
/// each group ([`group_names`]) placed by a hash of its name.
pub fn grouped_folds(keys: &[Vec<String>], folds: usize) -> Vec<usize> {
    group_names(keys)
        .iter()
        .map(|g| (fnv1a(g.as_bytes()) % folds as u64) as usize)
        .collect()
}

/// The group of each message: the connected components of `keys` ([`holdout_keys`]: messages
/// sharing a sender or a list are in one group), each named by its smallest key (empty for a
/// message without keys).
pub fn group_names(keys: &[Vec<String>]) -> Vec<String> {
    let mut ids: HashMap<&str, usize> = HashMap::new();
    let mut parent: Vec<usize> = Vec::new();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    let mut first = Vec::with_capacity(keys.len());
    for message_keys in keys {
        let mut root = None;
        for key in message_keys {
            let next = parent.len();
            let id = *ids.entry(key.as_str()).or_insert(next);
            if id == next {
                parent.push(id);
            }
            let r = find(&mut parent, id);
            match root {
                None => root = Some(r),
                Some(r0) if r0 != r => parent[r] = r0,
                Some(_) => {}
            }
        }
        first.push(root);
    }
    let mut smallest: HashMap<usize, &str> = HashMap::new();
    for (key, &id) in &ids {
        let r = find(&mut parent, id);
        let entry = smallest.entry(r).or_insert(key);
        if *key < *entry {
            *entry = key;
        }
    }
    first
        .into_iter()
        .map(|root| {
            root.map_or_else(String::new, |r| {
                let r = find(&mut parent, r);
                smallest[&r].to_owned()
            })
        })
        .collect()
}
