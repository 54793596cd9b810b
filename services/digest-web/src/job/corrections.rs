//! What a refresh does with the corrections ops staff made on the dashboard
//! (`store::corrections`):
//!
//! - the newest active correction of a sender is the strongest evidence: every message from
//!   that address goes to its category, with the reason "corrected by <who> on <date>"
//!   ([`Corrections::apply`]); so does every message of the corrected message's mailing list
//!   (its `List-Id`), whoever posted it;
//! - the corrected messages are fed to the model ([`Classifier::learning_from`]): their sender
//!   group gets a prior and the shared weights lean a little, so similar mail (the same
//!   domain's other addresses, new mail like it) follows. Their features come from the message
//!   cache, so nothing is parsed again; an email whose features are not cached (a row of an
//!   older build) is learnt from its subject and snippet.
//!
//! A cached category depends on what the classifier had learnt for the message's sender group
//! when it was computed ([`CachedMessage::learned`]): when that changes (a correction made or
//! undone), the group's cached messages are categorised again ([`Corrections::is_current`]):
//! from their cached features alone when the group has corrections ([`Corrections::rescore`]),
//! else (the last one undone) read and classified whole.

use std::collections::{BTreeMap, HashMap};

use rusqlite::Connection;

use domain::email::features::{Features, extract_text};
use domain::email::message::domain_group;

use super::classify::{Classifier, MAX_REASONS};
use crate::store::cache::{self, CachedMessage};
use crate::store::corrections::{self, CORRECTED_BY, Correction};

/// The active corrections, as a refresh applies them.
#[derive(Debug, Default)]
pub struct Corrections {
    /// Each sender's newest correction.
    by_sender: HashMap<String, Correction>,
    /// Each mailing list's newest correction (of a message that came through it).
    by_list: HashMap<String, Correction>,
    /// Per sender group, the ids of its active corrections ("3,7"): what the classifier learnt.
    tags: HashMap<String, String>,
}

/// The id of a `List-Id` header value (`Ops list <ops.lists.example.org>` →
/// `ops.lists.example.org`), lower-cased; `None` when empty.
pub fn list_id(value: &str) -> Option<String> {
    let id = match (value.rfind('<'), value.rfind('>')) {
        (Some(start), Some(end)) if start < end => &value[start + 1..end],
        _ => value,
    };
    let id = id.trim().to_ascii_lowercase();
    (!id.is_empty()).then_some(id)
}

fn group_of(address: &str) -> String {
    domain_group(
        &address
            .rsplit_once('@')
            .map_or("", |(_, d)| d)
            .to_ascii_lowercase(),
    )
}

impl Corrections {
    /// Reads the active corrections and returns them with `classifier` updated from the
    /// corrected messages (found in `cached`, the source's message cache, by email id).
    pub fn load(
        conn: &Connection,
        source: &str,
        cached: &HashMap<String, CachedMessage>,
        classifier: &Classifier,
    ) -> rusqlite::Result<(Self, Classifier)> {
        let active = corrections::active(conn)?;
        if active.is_empty() {
            return Ok((Self::default(), classifier.clone()));
        }
        let wanted: HashMap<&str, usize> = active
            .iter()
            .enumerate()
            .map(|(i, c)| (c.email_id.as_str(), i))
            .collect();
        let mut keys: Vec<Option<&str>> = vec![None; active.len()];
        for (key, m) in cached {
            if let Some(&i) = wanted.get(m.item.id.as_str()) {
                keys[i] = Some(key.as_str());
            }
        }
        let mut examples = Vec::with_capacity(active.len());
        let mut tags: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut by_list = HashMap::new();
        for (correction, key) in active.iter().zip(keys) {
            // Oldest first: a later correction of the same list replaces an earlier one.
            if let Some(list) = key.and_then(|k| cached.get(k)?.list_id.clone()) {
                by_list.insert(list, correction.clone());
            }
            let stored = match key {
                Some(key) => cache::features(conn, source, key)?,
                None => None,
            };
            let features = match stored {
                Some(values) => Features {
                    values,
                    kinds: Vec::new(),
                },
                None => extract_text(&correction.subject, &correction.snippet),
            };
            let group = group_of(&correction.sender);
            tags.entry(group.clone())
                .or_default()
                .push(correction.id.to_string());
            examples.push((group, features, correction.category));
        }
        let learnt = classifier.learning_from(&examples);
        let by_sender = active.into_iter().map(|c| (c.sender.clone(), c)).collect();
        let tags = tags
            .into_iter()
            .map(|(g, ids)| (g, ids.join(",")))
            .collect();
        Ok((
            Self {
                by_sender,
                by_list,
                tags,
            },
            learnt,
        ))
    }

    /// What the classifier has learnt for this sender's group (`None`: nothing).
    pub fn tag_of(&self, from: &str) -> Option<String> {
        if self.tags.is_empty() {
            return None;
        }
        self.tags.get(&group_of(from)).cloned()
    }

    /// Whether a cached category was computed with what the classifier knows now.
    pub fn is_current(&self, m: &CachedMessage) -> bool {
        m.learned == self.tag_of(&m.item.from)
    }

    /// Moves `m` to the corrected category of its list or its sender (the newer correction
    /// of the two), if any, with the correction as its first reason. Returns whether it applied.
    pub fn apply(&self, m: &mut CachedMessage) -> bool {
        if self.by_sender.is_empty() {
            return false;
        }
        let by_list = m.list_id.as_ref().and_then(|l| self.by_list.get(l));
        let by_sender = self.by_sender.get(&m.item.from.to_ascii_lowercase());
        let Some(correction) = [by_list, by_sender]
            .into_iter()
            .flatten()
            .max_by_key(|c| c.id)
        else {
            return false;
        };
        m.category = correction.category;
        m.confidence = 1.0;
        m.item.reasons.retain(|r| !r.starts_with(CORRECTED_BY));
        m.item.reasons.insert(0, correction.reason());
        m.item.reasons.truncate(MAX_REASONS);
        true
    }

    /// Brings cached messages whose sender group's corrections changed since they were
    /// categorised up to date from their cached features, without reading or parsing them:
    /// possible when the group now has corrections ([`Classifier::rescore`]). Returns the
    /// messages so updated (with their features, to store back); the others stay stale and
    /// are for the caller to classify whole.
    pub fn rescore(
        &self,
        classifier: &Classifier,
        conn: &Connection,
        source: &str,
        cached: &mut HashMap<String, CachedMessage>,
    ) -> rusqlite::Result<Vec<(String, CachedMessage)>> {
        let mut updated = Vec::new();
        if self.tags.is_empty() {
            return Ok(updated);
        }
        for (key, m) in cached.iter_mut() {
            if self.is_current(m) {
                continue;
            }
            let Some(tag) = self.tag_of(&m.item.from) else {
                continue;
            };
            let Some(values) = cache::features(conn, source, key)? else {
                continue;
            };
            let features = Features {
                values,
                kinds: Vec::new(),
            };
            let Some((category, confidence, reason)) = classifier.rescore(&m.item.from, &features)
            else {
                continue;
            };
            m.item
                .reasons
                .retain(|r| !r.starts_with("learned from corrections"));
            if category != m.category {
                m.item.reasons = vec![reason];
            }
            m.category = category;
            m.confidence = (confidence * 1000.0).round() / 1000.0;
            m.learned = Some(tag);
            m.engine = "offline".into();
            updated.push((
                key.clone(),
                CachedMessage {
                    features: Some(features.values),
                    ..m.clone()
                },
            ));
        }
        Ok(updated)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::corrections::NewCorrection;
    use chrono::Utc;
    use domain::email::{Category, EmailItem};

    fn message(id: &str, from: &str, list: Option<&str>) -> CachedMessage {
        CachedMessage {
            item: EmailItem {
                id: id.into(),
                subject: "Re: the migration plan".into(),
                from: from.into(),
                date: "2026-11-21".into(),
                snippet: "I think we should".into(),
                reasons: vec!["mailing-list discussion".into()],
            },
            from_name: None,
            category: Category::Fyi,
            confidence: 0.9,
            received_at: Utc::now(),
            engine: "offline".into(),
            learned: None,
            list_id: list.map(str::to_owned),
            features: None,
        }
    }

    #[test]
    fn a_correction_applies_to_its_sender_and_to_its_whole_list() {
        let dir = tempfile::tempdir().unwrap();
        let conn = crate::store::open(dir.path()).unwrap();
        let corrected = message("m1", "ann@example.org", Some("ops.lists.example.org"));
        let cached = HashMap::from([("k1".to_owned(), corrected.clone())]);
        corrections::create(
            &conn,
            &NewCorrection {
                email_id: "m1",
                sender: "Ann@example.org",
                subject: &corrected.item.subject,
                snippet: &corrected.item.snippet,
                from_category: Category::Fyi,
                category: Category::Newsletter,
                by: "alice",
                at: "2026-11-21T10:00:00",
            },
        )
        .unwrap();
        let (found, _) =
            Corrections::load(&conn, "maildir:/m", &cached, Classifier::embedded()).unwrap();
        // Another member's post to the same list, the same sender off the list, a stranger.
        let mut on_list = message("m2", "bob@example.net", Some("ops.lists.example.org"));
        let mut direct = message("m3", "ann@example.org", None);
        let mut other = message("m4", "carl@example.com", Some("other.example.com"));
        assert!(found.apply(&mut on_list) && found.apply(&mut direct));
        assert!(!found.apply(&mut other));
        for m in [&on_list, &direct] {
            assert_eq!(m.category, Category::Newsletter);
            assert_eq!(m.item.reasons[0], "corrected by alice on 2026-11-21");
        }
        assert_eq!(other.category, Category::Fyi);
        assert_eq!(
            list_id("Ops list <OPS.lists.example.org>").as_deref(),
            Some("ops.lists.example.org")
        );
        assert_eq!(list_id("  "), None);
    }
}
