//! The categoriser: a [`Message`] → its [`Category`], a confidence and the reasons.
//!
//! Order of evidence, strongest first:
//! 1. user rules ([`Rules`], the service's `DIGEST_RULES_FILE`): an address or domain →
//!    category;
//! 2. social-network sender domains (`data/mail/senders.toml`) → Social;
//! 3. the learned model ([`Linear`], multinomial logistic regression, shipped trained in
//!    `data/mail/model.bin`) over header evidence ([`Signal`]: list and bulk headers, ESP
//!    fingerprints, `Auto-Submitted`, addressing, reply chains), multilingual content cues
//!    ([`Cue`]) and hashed words of the subject and body ([`super::features`]);
//! 4. the product's rules for what a model must not get wrong ([`product_rule`]): automated
//!    approval requests with Approve/Reject → Need-Action; list discussion → FYI; an unsubscribe
//!    header with a newsletter tag → Newsletter; offers and prices to a crowd without bulk
//!    headers → Promotional.
//!
//! A body the model cannot read ([`super::readable`]: empty, binary, no words) is left out and
//! the headers and subject decide, with a reason saying so. Every [`Classification`] carries a
//! confidence in [0, 1] and its top reasons.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use super::Category;
use super::cues::{self, Cue};
use super::embedding::{Embedder, LazyEmbedder};
use super::evidence::{self, Signal};
use super::features::{self, FeatureKind, Features};
use super::lexicon::lexicon;
use super::message::{Message, domain_group};
use super::model::{self, Linear};
use super::model_file;
use super::owners::{self, Owners};
use super::readable::{self, Unreadable};
use super::text::truncate_chars;

/// The category of one message, how sure we are, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Classification {
    /// The category.
    pub category: Category,
    /// In [0, 1].
    pub confidence: f64,
    /// The strongest reason, e.g. `rule: example.org` or `Auto-Submitted: auto-generated`.
    pub reason: String,
    /// Up to [`MAX_REASONS`] reasons, strongest first (`reason` is the first).
    pub reasons: Vec<String>,
    /// The features the model read (empty when a rule decided before it): cached with the
    /// message, so what is learnt from it later needs no parsing.
    pub features: Vec<(u32, f32)>,
}

impl Classification {
    fn new(category: Category, confidence: f64, reasons: Vec<String>) -> Self {
        Self {
            category,
            confidence: confidence.clamp(0.0, 1.0),
            reason: reasons.first().cloned().unwrap_or_default(),
            reasons,
            features: Vec::new(),
        }
    }
}

/// User rules: sender address or domain → category. Addresses win over domains; a domain
/// rule also covers its subdomains.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rules {
    senders: BTreeMap<String, Category>,
}

/// A rules file that cannot be used: not the expected TOML, or an unknown category.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid rules file {path}: {reason}")]
pub struct InvalidRules {
    /// The file, as the caller named it.
    pub path: String,
    /// What is wrong.
    pub reason: String,
}

impl Rules {
    /// Parses the rules TOML:
    ///
    /// ```toml
    /// [senders]
    /// "boss@example.com" = "Need-Action"
    /// "news.example.org" = "Newsletter"
    /// ```
    pub fn parse(text: &str, path: &str) -> Result<Self, InvalidRules> {
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct File {
            #[serde(default)]
            senders: BTreeMap<String, String>,
        }
        let invalid = |reason: String| InvalidRules {
            path: path.to_owned(),
            reason,
        };
        let file: File = toml::from_str(text).map_err(|e| invalid(e.message().to_owned()))?;
        let mut senders = BTreeMap::new();
        for (sender, category) in file.senders {
            let category = Category::parse(&category).ok_or_else(|| {
                invalid(format!(
                    "sender '{sender}': unknown category '{category}' (expected Need-Action, FYI, Newsletter, Promotional or Social)"
                ))
            })?;
            let key = sender.trim().trim_start_matches('@').to_ascii_lowercase();
            senders.insert(key, category);
        }
        Ok(Self { senders })
    }

    /// The rule for an address: the exact address, else its domain or a parent domain.
    pub fn lookup(&self, address: &str) -> Option<(&str, Category)> {
        let address = address.to_ascii_lowercase();
        if let Some((key, c)) = self.senders.get_key_value(&address) {
            return Some((key.as_str(), *c));
        }
        let mut domain = address.rsplit_once('@').map(|(_, d)| d)?;
        loop {
            if let Some((key, c)) = self.senders.get_key_value(domain) {
                return Some((key.as_str(), *c));
            }
            domain = domain.split_once('.')?.1;
        }
    }

    /// How many rules there are.
    pub fn len(&self) -> usize {
        self.senders.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.senders.is_empty()
    }
}

/// The categoriser: user rules, header signals, then the learned model, then the product's
/// rules for the classes a model alone gets wrong.
#[derive(Debug, Clone)]
pub struct Classifier {
    model: Arc<Linear>,
    rules: Rules,
    /// The mailbox owner's configured addresses (each message adds those it was delivered to).
    owners: Owners,
    /// Per sender group, what corrections taught ([`Classifier::learning_from`]).
    priors: Arc<BTreeMap<String, [f32; model::K]>>,
    /// The sentence-embedding table, when installed and the model was trained with it (read
    /// in full when a message is first categorised).
    embedder: Option<Arc<LazyEmbedder>>,
}

impl Classifier {
    /// The shipped model ([`model_file::SHIPPED`], trained on the labelled corpus), without
    /// user rules; loaded once per process.
    pub fn embedded() -> &'static Classifier {
        static EMBEDDED: OnceLock<Classifier> = OnceLock::new();
        EMBEDDED.get_or_init(|| {
            let model = model_file::from_bytes(model_file::SHIPPED)
                // Embedded bytes: `model_file::tests` keeps them loadable.
                .expect("the shipped model loads");
            Classifier::from_model(model)
        })
    }

    /// The shipped model that reads the text's meaning too ([`model_file::SHIPPED_MEANING`]),
    /// with `embedder`; an error naming the mismatch when the table is not the one the model
    /// was trained with (the caller keeps [`Classifier::embedded`]).
    pub fn embedded_with_meaning(embedder: Arc<Embedder>) -> Result<Classifier, String> {
        Self::embedded_with_lazy_meaning(LazyEmbedder::ready(embedder))
    }

    /// [`Classifier::embedded_with_meaning`] with a table whose rows are read when a message
    /// is first categorised: corrections and cached messages need only the model.
    pub fn embedded_with_lazy_meaning(embedder: LazyEmbedder) -> Result<Classifier, String> {
        let trained_with = model_file::SHIPPED_MEANING_TABLE.trim();
        if embedder.stamp() != trained_with {
            return Err(format!(
                "embedding table {} is not the one the shipped model was trained with ({trained_with})",
                embedder.stamp()
            ));
        }
        let model = model_file::from_bytes(model_file::SHIPPED_MEANING)?;
        Ok(Self {
            embedder: Some(Arc::new(embedder)),
            ..Self::from_model(model)
        })
    }

    /// A classifier around a trained model, without user rules.
    pub fn from_model(model: Linear) -> Self {
        Self {
            model: Arc::new(model),
            rules: Rules::default(),
            owners: Owners::default(),
            priors: Arc::default(),
            embedder: None,
        }
    }

    /// A classifier around a model trained with the meaning vectors of `embedder` (what
    /// [`super::train::train_model`] gives with the same embedder), without user rules.
    pub fn with_meaning(model: Linear, embedder: Arc<Embedder>) -> Self {
        Self {
            embedder: Some(Arc::new(LazyEmbedder::ready(embedder))),
            ..Self::from_model(model)
        }
    }

    /// The sentence-embedding table this classifier reads text with, if any (read now if it
    /// was not yet; `None` also when it cannot be read).
    pub fn embedder(&self) -> Option<&Embedder> {
        self.embedder.as_ref().and_then(|e| e.get().ok())
    }

    /// Whether this classifier reads meaning, and whether its table has been read yet.
    pub fn meaning_table(&self) -> Option<bool> {
        self.embedder.as_ref().map(|e| e.is_loaded())
    }

    /// This classifier with user rules applied first.
    pub fn with_rules(&self, rules: Rules) -> Self {
        Self {
            rules,
            ..self.clone()
        }
    }

    /// This classifier with the mailbox owner's addresses (mail addressed to them is told from
    /// mail to a list or to many; see [`Owners`]).
    pub fn with_owners(&self, owners: Owners) -> Self {
        Self {
            owners,
            ..self.clone()
        }
    }

    /// This classifier with its model updated towards corrected examples: the features of
    /// messages ops staff moved, with their sender group ([`Message::sender_group`]) and the
    /// category they moved them to. Each sender group gets a prior of its own and the shared
    /// weights move a little ([`Linear::learn`]). Without examples, the same model is shared.
    pub fn learning_from(&self, examples: &[(String, Features, Category)]) -> Self {
        if examples.is_empty() {
            return self.clone();
        }
        let mut model = (*self.model).clone();
        let mut priors = (*self.priors).clone();
        let mut groups: BTreeMap<&str, Vec<(&Features, Category)>> = BTreeMap::new();
        for (group, features, category) in examples {
            groups
                .entry(group.as_str())
                .or_default()
                .push((features, *category));
        }
        for (group, pairs) in groups {
            let prior = priors.entry(group.to_owned()).or_default();
            model.learn(prior, &pairs, model::Learning::default());
        }
        Self {
            model: Arc::new(model),
            priors: Arc::new(priors),
            ..self.clone()
        }
    }

    /// Categorises again, from its cached features alone, a message of a sender group this
    /// classifier learnt corrections for (`from` is its sender address). For such a group
    /// only the model and the group's prior decide (the social shortcut and the product's
    /// rules stand aside, as in [`Classifier::classify`]), so nothing else of the message is
    /// needed. `None` when a user rule covers the sender or the group has no prior: then the
    /// message must be classified whole.
    pub fn rescore(&self, from: &str, features: &Features) -> Option<(Category, f64, String)> {
        if self.rules.lookup(from).is_some() {
            return None;
        }
        let domain = from.rsplit_once('@').map_or("", |(_, d)| d);
        let group = domain_group(&domain.to_ascii_lowercase());
        let prior = self.priors.get(&group)?;
        let probabilities = self.model.probabilities_with(features, prior);
        let best = (0..model::K)
            .max_by(|&a, &b| probabilities[a].total_cmp(&probabilities[b]))
            .unwrap_or(1);
        Some((
            Category::ALL[best],
            f64::from(probabilities[best]),
            format!("learned from corrections of mail from {group}"),
        ))
    }

    /// Categorises one message.
    pub fn classify(&self, email: &Message) -> Classification {
        if let Some((rule, category)) = self.rules.lookup(&email.from) {
            return Classification::new(category, 1.0, vec![format!("rule: {rule}")]);
        }
        let prior = if self.priors.is_empty() {
            None
        } else {
            self.priors.get(&email.sender_group())
        };
        if prior.is_none()
            && let Some(social) = social_platform(email)
        {
            return Classification::new(
                Category::Social,
                0.97,
                vec![format!("social network sender ({social})")],
            );
        }
        let problem = readable::check(email);
        let readable_body = body_is_readable(problem);
        let mut features = if problem == Some(Unreadable::BadHeaders) {
            let mut clean = email.clone();
            clean.subject.clear();
            features::extract(&clean, &self.owners, readable_body, true)
        } else {
            features::extract(email, &self.owners, readable_body, true)
        };
        if let Some(embedder) = self.embedder() {
            let subject = if problem == Some(Unreadable::BadHeaders) {
                ""
            } else {
                email.subject.as_str()
            };
            let body = if readable_body {
                email.body.as_str()
            } else {
                ""
            };
            if let Some(meaning) = embedder.embed(subject, body) {
                features::add_meaning(&mut features, &meaning, true);
            }
        }
        let probabilities = match prior {
            Some(prior) => self.model.probabilities_with(&features, prior),
            None => self.model.probabilities(&features),
        };
        let best = (0..5)
            .max_by(|&a, &b| probabilities[a].total_cmp(&probabilities[b]))
            .unwrap_or(1);
        let mut category = Category::ALL[best];
        let mut confidence = f64::from(probabilities[best]);
        let mut reasons = Vec::new();
        if let Some(p) = problem {
            reasons.push(p.describe().to_owned());
        }
        let signals = evidence::signals(email, &self.owners);
        let subject = if problem == Some(Unreadable::BadHeaders) {
            ""
        } else {
            email.subject.as_str()
        };
        let body = if readable_body {
            email.body.as_str()
        } else {
            ""
        };
        let cues = cues::cues(subject, body);
        // Corrections of this sender outrank the product's defaults: they are the users'.
        let ruled = if prior.is_some() {
            None
        } else {
            product_rule(&signals, &cues, subject, body)
        };
        if let Some(prior) = prior {
            let base = self.model.probabilities(&features);
            let k = model::class(category);
            if prior[k] > 0.0 && base[k] < probabilities[k] {
                reasons.push(format!(
                    "learned from corrections of mail from {}",
                    email.sender_group()
                ));
            }
        }
        if let Some((ruled, why)) = ruled {
            if ruled != category {
                confidence = f64::from(probabilities[model::class(ruled)]).max(0.85);
            }
            category = ruled;
            reasons.push(why.to_owned());
        } else if category == Category::NeedAction
            && prior.is_none()
            && let Some(why) = not_to_you(&signals, &cues, email)
        {
            // Asked of a list or of many, not of the reader: list discussion is FYI, anything
            // else the next most likely category.
            let next = if signals.contains(&Signal::DiscussionList) {
                model::class(Category::Fyi)
            } else {
                (0..model::K)
                    .filter(|&k| k != model::class(Category::NeedAction))
                    .max_by(|&a, &b| probabilities[a].total_cmp(&probabilities[b]))
                    .unwrap_or(1)
            };
            category = Category::ALL[next];
            confidence = f64::from(
                probabilities[next]
                    / (1.0 - probabilities[model::class(Category::NeedAction)]).max(1e-6),
            );
            reasons.push(why.to_owned());
        }
        for reason in explain(&self.model, &mut features, category, subject, body) {
            if !reasons.contains(&reason) {
                reasons.push(reason);
            }
        }
        reasons.truncate(MAX_REASONS);
        Classification {
            features: features.values,
            ..Classification::new(category, confidence, reasons)
        }
    }
}

/// The social network or community platform a message comes from: its sender's domain, or
/// the list that relays it (`X-Loop`, `List-Id`, `Sender`, `Mailing-List`: a group post
/// delivered by the platform).
fn social_platform(email: &Message) -> Option<&'static str> {
    let mut domains = vec![email.from_domain().to_owned()];
    for name in ["x-loop", "sender", "mailing-list"] {
        if let Some(value) = email.header(name) {
            domains.extend(
                owners::addresses(value)
                    .filter_map(|a| a.rsplit_once('@').map(|(_, d)| d.to_owned())),
            );
        }
    }
    if let Some(id) = email.header("list-id") {
        let id = id.rsplit('<').next().unwrap_or(id);
        domains.push(id.trim_end_matches(['>', ' ']).trim().to_ascii_lowercase());
    }
    lexicon()
        .social_domains
        .iter()
        .map(String::as_str)
        .find(|d| {
            domains
                .iter()
                .any(|domain| domain == d || domain.ends_with(&format!(".{d}")))
        })
}

/// The reason naming the sentence-embedding vector, when it weighed for the category.
pub const MEANING_REASON: &str = "what the text is about (sentence-embedding model)";

/// Reasons kept per message.
pub const MAX_REASONS: usize = 4;

/// Whether the model may read the body, given what [`readable::check`] found.
pub fn body_is_readable(problem: Option<Unreadable>) -> bool {
    !matches!(
        problem,
        Some(Unreadable::Empty | Unreadable::Binary | Unreadable::NoWords)
    )
}

/// The product's definitions that a model trained on examples must not override: the three
/// classes it used to get wrong, and list discussion.
///
/// The cues of `subject` alone say what a message is, where its body's advertisements do not
/// speak; `body` is the readable body (the writer's own text: quoted
/// replies are left out when it is read).
fn product_rule(
    signals: &[Signal],
    cues: &[Cue],
    subject: &str,
    body: &str,
) -> Option<(Category, &'static str)> {
    let subject_cues = &cues::cues(subject, "");
    let has = |s: Signal| signals.contains(&s);
    let cue = |c: Cue| cues.contains(&c);
    let automated = has(Signal::AutoGenerated) || has(Signal::OpsTool) || has(Signal::SystemSender);
    // A system asks the reader, as approver or owner, to decide.
    if automated && cue(Cue::ApproveReject) && cue(Cue::Approval) {
        return Some((
            Category::NeedAction,
            "automated approval request with Approve / Reject: you decide",
        ));
    }
    if has(Signal::ReviewRequested) {
        return Some((Category::NeedAction, "your review was requested"));
    }
    // An amount due by a date, addressed to you, with nothing on offer: an invoice, a renewal
    // or a failed payment to settle (offers with prices and deadlines are marketing).
    if cue(Cue::Price)
        && cue(Cue::Deadline)
        && (has(Signal::ToOwner) || has(Signal::CcOwner))
        && !has(Signal::ViaList)
        && !has(Signal::PrecedenceBulk)
        && !has(Signal::MarketingSender)
        && !cue(Cue::Offer)
        && !cue(Cue::Marketing)
        && !cue(Cue::RemoveMe)
    {
        return Some((
            Category::NeedAction,
            "an amount due by a date, addressed to you, nothing on offer: yours to pay",
        ));
    }
    // A subject labelled as an advertisement, as the law asks of unsolicited offers.
    if has(Signal::AdvertisementLabel) && !has(Signal::Reply) {
        return Some((
            Category::Promotional,
            "the subject is labelled as an advertisement (ADV:)",
        ));
    }
    // An out-of-office or other automatic reply informs, whatever dates or names it gives.
    if has(Signal::AutoReplied) && !cue(Cue::Approval) {
        return Some((Category::Fyi, "automatic reply (out of office)"));
    }
    if asks_you_in_reply(signals, cues, body) {
        return Some((
            Category::NeedAction,
            "a person's reply addressed to you alone that asks you something",
        ));
    }
    let subject_sells = subject_cues
        .iter()
        .any(|c| matches!(c, Cue::Offer | Cue::Price | Cue::Marketing | Cue::RemoveMe));
    // A newsletter posted to a list: its title says so, and it answers no one.
    let list_newsletter = has(Signal::ViaList)
        && cue(Cue::NewsletterTag)
        && !has(Signal::Reply)
        && !subject_sells
        && !cue(Cue::Approval);
    if list_newsletter {
        return Some((
            Category::Newsletter,
            "a newsletter sent through a list (its title says so, it answers no one)",
        ));
    }
    // A list only its editor posts to: a curated letter of forwarded items, whatever prices
    // its stories name, unless it offers or advertises.
    if has(Signal::EditorList)
        && !subject_cues
            .iter()
            .any(|c| matches!(c, Cue::Offer | Cue::Marketing | Cue::RemoveMe))
        && !cue(Cue::RemoveMe)
        && !cue(Cue::Approval)
    {
        return Some((
            Category::Newsletter,
            "a list only its editor posts to (a curated letter)",
        ));
    }
    // An outsider's offer posted to a list: not a reply, and its subject shouts or sells.
    if has(Signal::DiscussionList)
        && !has(Signal::Reply)
        && (has(Signal::ShoutedSubject) || subject_sells)
        && !cue(Cue::Approval)
    {
        return Some((
            Category::Promotional,
            "an offer posted to a list, answering no one (its subject shouts or sells)",
        ));
    }
    // Members posting to a list: discussion, whatever it talks about.
    if has(Signal::DiscussionList) && !cue(Cue::Approval) {
        return Some((
            Category::Fyi,
            "mailing-list discussion (members post to the list)",
        ));
    }
    // A numbered or dated issue (`Vol. 1 #48`, `9/1/2002`, `July 2002`) that answers no one,
    // sent by no system and by no person, its subject selling nothing: a periodical, whatever
    // advertisements its body carries (a vendor that calls its offers a "newsletter" numbers
    // no issue).
    if cues::numbered_issue(subject)
        && !has(Signal::Reply)
        && !automated
        && !has(Signal::PersonSender)
        && !has(Signal::DiscussionList)
        && !subject_sells
        && !cue(Cue::Approval)
        && !cue(Cue::Deadline)
        && !cue(Cue::RemoveMe)
    {
        return Some((
            Category::Newsletter,
            "a numbered or dated issue, answering no one, its subject selling nothing",
        ));
    }
    // Subscribed editorial mail: an unsubscribe header and a newsletter tag, or a periodical's
    // name as the sender, selling nothing.
    let subscribed = has(Signal::ListUnsubscribe)
        || has(Signal::PeriodicSender)
        || has(Signal::TaggedAddress)
        || has(Signal::TrackingSender);
    if subscribed
        && (cue(Cue::NewsletterTag) || has(Signal::PeriodicSender))
        && !has(Signal::DiscussionList)
        && !cue(Cue::Offer)
        && !cue(Cue::Price)
        && !cue(Cue::Approval)
        && !cue(Cue::Deadline)
    {
        return Some((
            Category::Newsletter,
            "subscribed mail (unsubscribe header, a periodical's name or a tagged address) with a newsletter title, selling nothing",
        ));
    }
    // A periodical's name as the sender (`CNET News.com Daily Dispatch`, `Daily Dilbert`): a
    // dispatch, whatever advertisements its body carries, as long as its subject sells
    // nothing.
    if has(Signal::PeriodicSender)
        && !subject_sells
        && !has(Signal::DiscussionList)
        && !has(Signal::Reply)
        && !cue(Cue::Approval)
        && !cue(Cue::RemoveMe)
    {
        return Some((
            Category::Newsletter,
            "a periodical's name as the sender, its subject selling nothing",
        ));
    }
    // Marketing from before one-click unsubscribe: no bulk headers, but offers and prices to a
    // crowd (or "reply REMOVE").
    let bulk_headers = has(Signal::Esp) || has(Signal::ListUnsubscribe) || has(Signal::ListId);
    // Removal instructions and something on offer: 2000s mass mailing, whatever dates or
    // "please" it also writes.
    if !bulk_headers
        && !has(Signal::Reply)
        && cue(Cue::RemoveMe)
        && (cue(Cue::Offer) || cue(Cue::Marketing) || cue(Cue::Price))
    {
        return Some((
            Category::Promotional,
            "removal instructions and an offer, without bulk-mail headers (old-style promotion)",
        ));
    }
    let to_a_crowd = has(Signal::ToUndisclosed)
        || has(Signal::OldClient)
        || has(Signal::HighPriority)
        || has(Signal::ManyRecipients)
        || has(Signal::PaddedSubject);
    if !bulk_headers
        && !has(Signal::Reply)
        && !cue(Cue::Deadline)
        && !cue(Cue::Approval)
        && (cue(Cue::RemoveMe)
            || ((cue(Cue::Offer) || cue(Cue::Marketing)) && cue(Cue::Price) && to_a_crowd))
    {
        return Some((
            Category::Promotional,
            "offers and prices sent to a crowd without bulk-mail headers (old-style promotion)",
        ));
    }
    // Cold outreach: a person, unasked and not replying, offers something for a price.
    if has(Signal::PersonSender)
        && !has(Signal::Reply)
        && (cue(Cue::Offer) || cue(Cue::Marketing))
        && cue(Cue::Price)
        && !cue(Cue::Approval)
        && !cue(Cue::Deadline)
        && !cue(Cue::Invitation)
    {
        return Some((
            Category::Promotional,
            "a person offering something for a price, unasked (cold outreach)",
        ));
    }
    None
}

/// A person's reply (In-Reply-To or References: a real one) addressed to the owner alone (the
/// owner the one address in `To`, at most
/// one other in copy: the list the thread belongs to), not through a list or in bulk, selling nothing, whose own text (not the
/// subject, which repeats the thread's first question) asks a question or a favour, and not
/// of "anyone": a conversation in which the owner is the one asked. The list copy of the same
/// reply comes through the list and stays discussion.
fn asks_you_in_reply(signals: &[Signal], cues: &[Cue], body: &str) -> bool {
    if signals.contains(&Signal::CcMany) {
        return false;
    }
    let has = |s: Signal| signals.contains(&s);
    let cue = |c: Cue| cues.contains(&c);
    // Outlook Express and its peers were people's clients as much as mass mailers'.
    let person = has(Signal::PersonSender) || has(Signal::PersonalClient) || has(Signal::OldClient);
    let automated = has(Signal::AutoGenerated)
        || has(Signal::AutoReplied)
        || has(Signal::OpsTool)
        || has(Signal::SystemSender);
    let bulk = has(Signal::ViaList)
        || has(Signal::PrecedenceBulk)
        || has(Signal::Esp)
        || has(Signal::ListUnsubscribe)
        || has(Signal::MarketingSender)
        || has(Signal::TrackingSender);
    let to_you_alone = has(Signal::ToOwner) && has(Signal::ToOnePerson);
    if !(has(Signal::Threaded) && to_you_alone && person)
        || automated
        || bulk
        || cue(Cue::Offer)
        || cue(Cue::Marketing)
        || cue(Cue::RemoveMe)
    {
        return false;
    }
    let text = truncate_chars(body, 1_500).to_lowercase();
    // A favour asked, or questions (one question alone is as often rhetorical).
    let questions = text.matches(['?', '？']).count();
    if !(cues::cues("", body).contains(&Cue::Request) || questions >= 2) {
        return false;
    }
    !lexicon()
        .to_anyone
        .iter()
        .any(|p| text.contains(p.as_str()))
}

/// Why a message the model would call Need-Action is not asked of the reader, or `None` when
/// it is. Need-Action is kept conservative (a false one costs the reader most): only mail
/// addressed to the owner (when the owner is known), sent to them alone rather than through a
/// list or in bulk, by a person or by a system they use, that asks something and sells
/// nothing. A question to a list is discussion; a "reply now" to a crowd is marketing.
fn not_to_you(signals: &[Signal], cues: &[Cue], email: &Message) -> Option<&'static str> {
    let has = |s: Signal| signals.contains(&s);
    let cue = |c: Cue| cues.contains(&c);
    let to_you = has(Signal::ToOwner) || has(Signal::CcOwner);
    if has(Signal::ListDigest) {
        return Some("a list digest: not Need-Action");
    }
    if has(Signal::ViaList) {
        return Some("came through a mailing list, not asked of you alone: not Need-Action");
    }
    if has(Signal::NotToOwner) {
        return Some("not addressed to you: not Need-Action");
    }
    if email
        .header("to")
        .is_some_and(|to| to.to_ascii_lowercase().contains("undisclosed"))
    {
        return Some("sent to undisclosed recipients: not Need-Action");
    }
    if email.header("to").is_none() && has(Signal::SubjectTag) {
        return Some(
            "a list's [tag] in the subject and no recipient: a list copy, not Need-Action",
        );
    }
    // A person's reply in a thread whose subject carries a list's [tag] (`Re: [SAtalk] …`,
    // `… (was Re: [dev] …)`): the list's discussion, copied to you.
    let automated = has(Signal::AutoGenerated) || has(Signal::OpsTool) || has(Signal::SystemSender);
    if has(Signal::Reply) && !automated && has_list_tag(&email.subject) {
        return Some("a reply in a list's thread ([tag] in the subject): not Need-Action");
    }
    // A person's reply to several people: the conversation asks no one alone.
    if has(Signal::Reply) && !automated && (has(Signal::ToSeveral) || has(Signal::CcMany)) {
        return Some("a reply to several people, not asked of you alone: not Need-Action");
    }
    // Mail services send transactional mail (invoices, signatures, expiries) too: their
    // headers count against a request only when it is not addressed to you.
    let mail_service =
        has(Signal::Esp) || has(Signal::ListUnsubscribe) || has(Signal::TrackingSender);
    if has(Signal::PrecedenceBulk) || has(Signal::MarketingSender) || (mail_service && !to_you) {
        return Some("sent in bulk (mass-mail headers or sender): not Need-Action");
    }
    let replies_to_you = has(Signal::ReplyToOwner) || (to_you && has(Signal::Reply));
    if cue(Cue::RemoveMe) || ((cue(Cue::Offer) || cue(Cue::Marketing)) && !replies_to_you) {
        return Some("it sells something: not Need-Action");
    }
    let person = has(Signal::PersonSender) || has(Signal::PersonalClient) || replies_to_you;
    let system = has(Signal::SystemSender)
        || has(Signal::AutoGenerated)
        || has(Signal::OpsTool)
        || (mail_service && to_you);
    if !person && !system {
        return Some("neither a person nor a system you use asks it: not Need-Action");
    }
    let asks = cue(Cue::Request)
        || cue(Cue::Question)
        || cue(Cue::Approval)
        || cue(Cue::Deadline)
        || cue(Cue::Invitation);
    if !asks {
        return Some("nothing in it asks you to act: not Need-Action");
    }
    None
}

/// Whether a subject carries a list's `[tag]` anywhere: a bracketed word of letters, digits,
/// `-`, `_` or `.` (not a bracketed number or a long phrase).
fn has_list_tag(subject: &str) -> bool {
    subject.match_indices('[').any(|(at, _)| {
        subject[at + 1..].split_once(']').is_some_and(|(tag, _)| {
            (2..=24).contains(&tag.chars().count())
                && tag.chars().any(char::is_alphabetic)
                && tag
                    .chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
        })
    })
}

/// The features that pushed hardest towards `category`, as sentences: header and content
/// evidence by name, then the strongest words.
///
/// A cue that asks (a request, an approval, a deadline, an invitation) is named with the
/// phrase that asked, quoted from `subject` and `body`.
fn explain(
    model: &Linear,
    features: &mut Features,
    category: Category,
    subject: &str,
    body: &str,
) -> Vec<String> {
    let mut reasons: Vec<String> = Vec::new();
    let mut words = Vec::new();
    let mut contributions = model.contributions(features, category);
    // The meaning vector's values say nothing one by one: they count as one piece of
    // evidence, at the place of the first, with their summed weight.
    let meaning: f32 = contributions
        .iter()
        .filter(|(pos, _)| matches!(features.kinds[*pos], FeatureKind::Meaning(_)))
        .map(|(_, w)| w)
        .sum();
    let mut first_meaning = true;
    contributions.retain(|(pos, _)| {
        let is_meaning = matches!(features.kinds[*pos], FeatureKind::Meaning(_));
        let keep = !is_meaning || first_meaning;
        first_meaning &= !is_meaning;
        keep
    });
    for (pos, weight) in contributions.iter_mut() {
        if matches!(features.kinds[*pos], FeatureKind::Meaning(_)) {
            *weight = meaning;
        }
    }
    contributions.sort_by(|a, b| b.1.total_cmp(&a.1));
    for (pos, weight) in contributions {
        if weight <= 0.05 || reasons.len() + usize::from(!words.is_empty()) >= MAX_REASONS {
            break;
        }
        let named = match &features.kinds[pos] {
            FeatureKind::Signal(s) => Some(s.describe().to_owned()),
            FeatureKind::Cue(c) => Some(match cues::phrase_of(subject, body, *c) {
                Some(phrase) if c.group() == Some(cues::Group::Asks) => {
                    format!("{} (\"{phrase}\")", c.describe())
                }
                _ => c.describe().to_owned(),
            }),
            FeatureKind::Group(g) => Some(g.describe().to_owned()),
            FeatureKind::Combination(x) => Some(x.describe().to_owned()),
            FeatureKind::Mailer(m) => Some(format!("sent with {m} (mail software)")),
            FeatureKind::Meaning(_) => Some(MEANING_REASON.to_owned()),
            _ => None,
        };
        if let Some(named) = named {
            if !reasons.contains(&named) {
                reasons.push(named);
            }
            continue;
        }
        match &mut features.kinds[pos] {
            FeatureKind::Word(w) if words.len() < 3 => {
                let shown = w
                    .split_once(':')
                    .map_or(w.as_str(), |(_, x)| x)
                    .replace('_', " ");
                if !words.contains(&shown) {
                    words.push(shown);
                }
            }
            _ => {}
        }
    }
    if !words.is_empty() {
        reasons.push(format!("words: {}", words.join(", ")));
    }
    if reasons.is_empty() {
        reasons.push("learned model".to_owned());
    }
    reasons
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(from: &str, subject: &str, body: &str, headers: &[(&str, &str)]) -> Message {
        Message {
            id: format!("{subject}@test"),
            from: from.to_owned(),
            // A person's mail carries their name (Need-Action asks that a person wrote).
            from_name: from.starts_with("sam@").then(|| "Sam Patel".to_owned()),
            subject: subject.to_owned(),
            body: body.to_owned(),
            headers: headers
                .iter()
                .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
                .collect(),
        }
    }

    /// Mail of every kind the reasons must stay true for: rules, the model, gates, words.
    fn messages() -> Vec<Message> {
        vec![
            message(
                "sam@partner.example",
                "Can you send me the signed contract by Friday?",
                "Hi Dana, could you please sign the contract and send it back to me by Friday? Thanks, Sam",
                &[("to", "dana@example.com")],
            ),
            message(
                "someone@lists.example",
                "Re: how do I configure the spam filter?",
                "Has anyone got this working? Could you tell me which option to set?",
                &[
                    ("to", "users@lists.example"),
                    ("list-id", "<users.lists.example>"),
                    ("list-post", "<mailto:users@lists.example>"),
                    ("precedence", "list"),
                    ("in-reply-to", "<a@b>"),
                ],
            ),
            message(
                "news@weekly.example",
                "The Weekly Brief: issue 42",
                "In this issue: energy prices fall, a new telescope, and the week in science. Read more on our site.",
                &[
                    ("to", "dana@example.com"),
                    ("list-unsubscribe", "<https://weekly.example/u>"),
                ],
            ),
            message(
                "deals@shop.example",
                "50% off everything this weekend only",
                "Huge sale! Save 50% on all items, free shipping on orders over $25. Shop now.",
                &[("to", "dana@example.com"), ("feedback-id", "1:2:3:ses")],
            ),
            message(
                "root@build.example",
                "Cron <root@build> backup finished",
                "Backup of /srv completed in 12 minutes. 3 volumes copied.",
                &[
                    ("to", "dana@example.com"),
                    ("auto-submitted", "auto-generated"),
                ],
            ),
            message(
                "jo@friend.example",
                "Photos from the weekend",
                "Here are the photos from Saturday, it was great to see you all.",
                &[("to", "dana@example.com"), ("x-mailer", "Apple Mail (2.3)")],
            ),
            message(
                "offers@bulk.example",
                "Reply now to claim your prize",
                "You have been selected! Reply now with your details to claim your prize. To be removed reply REMOVE.",
                &[("to", "undisclosed-recipients:;")],
            ),
            message(
                "ed@curated.example",
                "Man dies as whale lands on boat",
                "Forwarded-by: a reader\n\nA whale breached and crashed into a fishing boat.",
                &[
                    ("to", "curated@curated.example"),
                    ("sender", "ed@curated.example"),
                    ("x-loop", "curated@curated.example"),
                    ("precedence", "list"),
                ],
            ),
            message(
                "rates@mailer.example",
                "ADV: Interest rates slashed!",
                "Lock in your low rate now. Fill out our quick online form.",
                &[("to", "dana@example.com")],
            ),
            message(
                "sam@partner.example",
                "Re: [users] could you check the config?",
                "Could you tell me which option you set?",
                &[("to", "dana@example.com"), ("in-reply-to", "<a@b>")],
            ),
        ]
    }

    #[test]
    fn need_action_is_only_what_is_asked_of_the_owner() {
        let owners = Owners::new(["dana@example.com"]);
        let classifier = Classifier::embedded().with_owners(owners);
        let mail = messages();
        // A colleague asking the owner by name, to the owner.
        assert_eq!(classifier.classify(&mail[0]).category, Category::NeedAction);
        // The same question to a list, and a "reply now" to undisclosed recipients.
        for email in [&mail[1], &mail[6]] {
            let got = classifier.classify(email);
            assert_ne!(
                got.category,
                Category::NeedAction,
                "{}: {got:?}",
                email.subject
            );
        }
        // The colleague's request forwarded to someone else, or as a list digest.
        let mut to_other = mail[0].clone();
        to_other.headers = vec![("to".into(), "sam@partner.example".into())];
        let got = classifier.classify(&to_other);
        assert_ne!(got.category, Category::NeedAction, "{got:?}");
        assert!(
            got.reasons
                .iter()
                .any(|r| r.contains("not addressed to you")),
            "{got:?}"
        );
        let mut digest = mail[0].clone();
        digest.subject = "users Digest, Vol 12, Issue 3".into();
        digest
            .headers
            .push(("list-id".into(), "<users.lists.example>".into()));
        let got = classifier.classify(&digest);
        assert_ne!(got.category, Category::NeedAction, "{got:?}");
    }

    #[test]
    fn list_classes_are_told_apart_editor_letters_newsletters_and_discussion() {
        let classifier = Classifier::embedded();
        let editor = message(
            "ed@curated.example",
            "New $199 PC doesn't do Windows",
            "Forwarded-by: a reader\n\nA new PC sells for $199 without Windows, the agency reports.",
            &[
                ("to", "curated@curated.example"),
                ("sender", "ed@curated.example"),
                ("x-loop", "curated@curated.example"),
                ("precedence", "list"),
            ],
        );
        let got = classifier.classify(&editor);
        assert_eq!(got.category, Category::Newsletter, "{got:?}");
        assert_eq!(
            got.reason,
            "a list only its editor posts to (a curated letter)"
        );
        let letter = message(
            "info@coach.example",
            "Newsletter Coach'Invest - Septembre 2002",
            "Des nouvelles de Coach'Invest: lancement réussi, premiers contrats.",
            &[
                ("to", "stable@lists.example"),
                ("sender", "owner-stable@lists.example"),
                ("precedence", "bulk"),
            ],
        );
        let got = classifier.classify(&letter);
        assert_eq!(got.category, Category::Newsletter, "{got:?}");
        // The same list's members discussing stay FYI.
        let mut post = letter.clone();
        post.subject = "Re: kernel panic after upgrade".into();
        post.body = "Did you try the patch from yesterday? It fixed it for me.".into();
        post.headers.push(("in-reply-to".into(), "<a@b>".into()));
        assert_eq!(classifier.classify(&post).category, Category::Fyi);
    }

    #[test]
    fn a_numbered_issue_is_a_newsletter_whatever_its_ads_but_a_titled_offer_is_not() {
        let classifier = Classifier::embedded();
        let issue = message(
            "enews@movies.example",
            "MovieMail - Vol. 1 #48",
            "This week: three premieres and an interview with the director. \
             Advertisement: tickets from $9.99, save 20% this weekend.",
            &[("to", "list@movies.example"), ("precedence", "bulk")],
        );
        let got = classifier.classify(&issue);
        assert_eq!(got.category, Category::Newsletter, "{got:?}");
        assert_eq!(
            got.reason,
            "a numbered or dated issue, answering no one, its subject selling nothing"
        );
        // The same with a subject that sells, or answering someone, is not taken by the rule.
        for subject in [
            "MovieMail - Vol. 1 #48: 20% off tickets",
            "Re: MovieMail - Vol. 1 #48",
        ] {
            let mut other = issue.clone();
            other.subject = subject.into();
            let got = classifier.classify(&other);
            assert_ne!(
                got.reason,
                "a numbered or dated issue, answering no one, its subject selling nothing",
                "{subject}"
            );
        }
    }

    #[test]
    fn labelled_advertisements_are_promotional_and_group_posts_of_platforms_social() {
        let classifier = Classifier::embedded();
        let adv = message(
            "safety@mailer.example",
            "ADV: Interest rates slashed! Don't wait!",
            "Rates are down. Take a minute and fill out our quick online form.",
            &[("to", "someone@else.example")],
        );
        let got = classifier.classify(&adv);
        assert_eq!(got.category, Category::Promotional, "{got:?}");
        assert_eq!(
            got.reason,
            "the subject is labelled as an advertisement (ADV:)"
        );
        let group_post = message(
            "joyful@hotmail.example",
            "Re: Hi! I'm new here.",
            "Welcome to the group! We are glad you joined.",
            &[
                ("to", "OneIncomeLiving@groups.msn.com"),
                ("x-loop", "notifications@groups.msn.com"),
            ],
        );
        let got = classifier.classify(&group_post);
        assert_eq!(got.category, Category::Social, "{got:?}");
        assert_eq!(got.reason, "social network sender (groups.msn.com)");
    }

    #[test]
    fn a_reply_in_a_lists_thread_copied_to_the_owner_is_not_need_action() {
        let owners = Owners::new(["dana@example.com"]);
        let classifier = Classifier::embedded().with_owners(owners);
        let mut thread = messages()[0].clone();
        thread.subject = "Re: [users] Can you send me the signed contract by Friday?".into();
        thread.headers.push(("in-reply-to".into(), "<a@b>".into()));
        // Addressed to someone else, the owner in copy: the list's discussion.
        thread.headers.retain(|(n, _)| n != "to" && n != "cc");
        thread.headers.push(("to".into(), "bob@example.org".into()));
        thread
            .headers
            .push(("cc".into(), "dana@example.com".into()));
        let got = classifier.classify(&thread);
        assert_ne!(got.category, Category::NeedAction, "{got:?}");
        // The same reply addressed to the owner alone, the list in copy, asks the owner.
        thread.headers.retain(|(n, _)| n != "to" && n != "cc");
        thread
            .headers
            .push(("to".into(), "Dana <dana@example.com>".into()));
        thread
            .headers
            .push(("cc".into(), "users@lists.example.org".into()));
        let got = classifier.classify(&thread);
        assert_eq!(got.category, Category::NeedAction, "{got:?}");
        assert_eq!(
            got.reason,
            "a person's reply addressed to you alone that asks you something"
        );
        // Copied to several others, or asked of anyone, it is not the owner's alone.
        thread.headers.push(("cc".into(), "eve@example.org".into()));
        let mut crowd = thread.clone();
        crowd.headers.retain(|(n, _)| n != "cc");
        crowd.headers.push((
            "cc".into(),
            "users@lists.example.org, eve@example.org".into(),
        ));
        assert_ne!(
            classifier.classify(&crowd).reason,
            "a person's reply addressed to you alone that asks you something"
        );
        let mut anyone = thread.clone();
        anyone.body = "Has anyone seen this before? Any ideas?".into();
        anyone.subject = "Re: [users] the build".into();
        assert_ne!(classifier.classify(&anyone).category, Category::NeedAction);
        // Without a list's tag, the request stays the owner's to answer.
        thread.subject = "Re: Can you send me the signed contract by Friday?".into();
        assert_eq!(classifier.classify(&thread).category, Category::NeedAction);
        assert!(has_list_tag("Re: GA (was Re: [SAdev] [Bug 1030] x)"));
        assert!(!has_list_tag("Invoice [12345] due"));
        assert!(!has_list_tag(
            "[a very long phrase in brackets that is no tag]"
        ));
    }

    #[test]
    fn every_reason_names_evidence_the_decision_used() {
        let owners = Owners::new(["dana@example.com"]);
        let classifier = Classifier::embedded().with_owners(owners.clone());
        for email in messages() {
            let got = classifier.classify(&email);
            let problem = readable::check(&email);
            let readable = body_is_readable(problem);
            let mut features = features::extract(&email, &owners, readable, true);
            let signals = evidence::signals(&email, &owners);
            let cues = cues::cues(&email.subject, if readable { &email.body } else { "" });
            // What may be named: the rule or gate that decided, the reading problem, and each
            // feature that pushed towards the category given (the words by themselves).
            let mut allowed: Vec<String> = Vec::new();
            allowed.extend(
                product_rule(
                    &signals,
                    &cues,
                    &email.subject,
                    if readable { &email.body } else { "" },
                )
                .map(|(_, why)| why.to_owned()),
            );
            allowed.extend(not_to_you(&signals, &cues, &email).map(str::to_owned));
            allowed.extend(problem.map(|p| p.describe().to_owned()));
            let mut words = Vec::new();
            for (pos, weight) in classifier.model.contributions(&features, got.category) {
                if weight <= 0.0 {
                    continue;
                }
                match &mut features.kinds[pos] {
                    FeatureKind::Signal(s) => allowed.push(s.describe().to_owned()),
                    FeatureKind::Cue(c) => allowed.push(c.describe().to_owned()),
                    FeatureKind::Group(g) => allowed.push(g.describe().to_owned()),
                    FeatureKind::Combination(x) => allowed.push(x.describe().to_owned()),
                    FeatureKind::Mailer(m) => {
                        allowed.push(format!("sent with {m} (mail software)"))
                    }
                    FeatureKind::Word(w) => words.push(
                        w.split_once(':')
                            .map_or(w.as_str(), |(_, x)| x)
                            .replace('_', " "),
                    ),
                    _ => {}
                }
            }
            assert!(!got.reasons.is_empty(), "{}", email.subject);
            for reason in &got.reasons {
                if let Some(list) = reason.strip_prefix("words: ") {
                    for word in list.split(", ") {
                        assert!(
                            words.iter().any(|w| w == word),
                            "{}: word {word:?} did not push towards {}",
                            email.subject,
                            got.category
                        );
                    }
                    continue;
                }
                // A cue that asks quotes its phrase, which must be in the message.
                let (named, quoted) = match reason.split_once(" (\"") {
                    Some((named, rest)) => (named, rest.strip_suffix("\")")),
                    None => (reason.as_str(), None),
                };
                if let Some(phrase) = quoted {
                    let text = format!("{} {}", email.subject, email.body).to_lowercase();
                    assert!(
                        text.contains(&phrase.to_lowercase()),
                        "{}: quoted {phrase:?} is not in the message",
                        email.subject
                    );
                }
                assert!(
                    allowed.iter().any(|a| a == named || a == reason),
                    "{}: reason {reason:?} for {} is not evidence that was used; used: {allowed:?}",
                    email.subject,
                    got.category
                );
            }
        }
    }
}
