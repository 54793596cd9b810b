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
use super::evidence::{self, Signal};
use super::features::{self, FeatureKind, Features};
use super::lexicon::lexicon;
use super::message::{Message, domain_group};
use super::model::{self, Linear};
use super::model_file;
use super::readable::{self, Unreadable};

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
    /// Per sender group, what corrections taught ([`Classifier::learning_from`]).
    priors: Arc<BTreeMap<String, [f32; model::K]>>,
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

    /// A classifier around a trained model, without user rules.
    pub fn from_model(model: Linear) -> Self {
        Self {
            model: Arc::new(model),
            rules: Rules::default(),
            priors: Arc::default(),
        }
    }

    /// This classifier with user rules applied first.
    pub fn with_rules(&self, rules: Rules) -> Self {
        Self {
            model: Arc::clone(&self.model),
            rules,
            priors: Arc::clone(&self.priors),
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
            rules: self.rules.clone(),
            priors: Arc::new(priors),
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
        let domain = email.from_domain();
        if prior.is_none()
            && let Some(social) = lexicon()
                .social_domains
                .iter()
                .find(|d| domain == d.as_str() || domain.ends_with(&format!(".{d}")))
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
            features::extract(&clean, readable_body, true)
        } else {
            features::extract(email, readable_body, true)
        };
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
        let signals = evidence::signals(email);
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
            product_rule(&signals, &cues)
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
        }
        reasons.extend(explain(&self.model, &mut features, category));
        reasons.truncate(MAX_REASONS);
        Classification {
            features: features.values,
            ..Classification::new(category, confidence, reasons)
        }
    }
}

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
fn product_rule(signals: &[Signal], cues: &[Cue]) -> Option<(Category, &'static str)> {
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
    // An out-of-office or other automatic reply informs, whatever dates or names it gives.
    if has(Signal::AutoReplied) && !cue(Cue::Approval) {
        return Some((Category::Fyi, "automatic reply (out of office)"));
    }
    // Members posting to a list: discussion, whatever it talks about.
    if has(Signal::DiscussionList) && !cue(Cue::Approval) {
        return Some((
            Category::Fyi,
            "mailing-list discussion (members post to the list)",
        ));
    }
    // Subscribed editorial mail: an unsubscribe header and a newsletter tag, selling nothing.
    if has(Signal::ListUnsubscribe)
        && cue(Cue::NewsletterTag)
        && !cue(Cue::Offer)
        && !cue(Cue::Price)
        && !cue(Cue::Approval)
        && !cue(Cue::Deadline)
    {
        return Some((
            Category::Newsletter,
            "List-Unsubscribe and a newsletter tag in the subject",
        ));
    }
    // Marketing from before one-click unsubscribe: no bulk headers, but offers and prices to a
    // crowd (or "reply REMOVE").
    let bulk_headers = has(Signal::Esp) || has(Signal::ListUnsubscribe) || has(Signal::ListId);
    let to_a_crowd =
        has(Signal::ToUndisclosed) || has(Signal::OldClient) || has(Signal::HighPriority);
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

/// The features that pushed hardest towards `category`, as sentences: header and content
/// evidence by name, then the strongest words.
fn explain(model: &Linear, features: &mut Features, category: Category) -> Vec<String> {
    let mut reasons = Vec::new();
    let mut words = Vec::new();
    for (pos, weight) in model.contributions(features, category) {
        if weight <= 0.05 || reasons.len() + usize::from(!words.is_empty()) >= MAX_REASONS {
            break;
        }
        let named = match &features.kinds[pos] {
            FeatureKind::Signal(s) => Some(s.describe()),
            FeatureKind::Cue(c) => Some(c.describe()),
            FeatureKind::Group(g) => Some(g.describe()),
            FeatureKind::Combination(x) => Some(x.describe()),
            _ => None,
        };
        if let Some(named) = named {
            if !reasons.iter().any(|r| r == named) {
                reasons.push(named.to_owned());
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
