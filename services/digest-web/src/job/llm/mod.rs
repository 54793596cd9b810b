//! The optional LLM step of the refresh job (off unless `LLM_*` variables are set).
//!
//! - [`crate::settings::LlmSettings`] (shared with the web server, which checks
//!   them at start-up) holds the endpoint and the job's own limits: a time budget for the
//!   whole step, a cap on calls, and the confidence below which the offline category is asked
//!   of the LLM.
//! - [`LlmStep::categorise`] sends the low-confidence messages in batches of
//!   [`prompts::BATCH`] (from, subject and a short snippet only, as JSON between
//!   untrusted-data markers) and asks for `{"categories": [{"id", "category"}]}` with a
//!   schema; only known ids and the five category names are applied, everything else keeps
//!   the offline answer. What is sent and accepted is in [`prompts`].
//! - [`LlmStep::summarise`] asks for each category's summary (plain text, bounded length);
//!   any failure keeps the extractive summary.
//! - Answers are cached in the run store ([`crate::store::llm_cache`]) under a SHA-256 of the
//!   prompt version, the model and exactly what was sent, so a warm refresh makes no call.
//!   Failures never fail the run: they become `errors` rows of module `llm`.

use std::collections::BTreeMap;
use std::time::Duration;

use domain::email::Category;
use futures_util::future::join_all;
use llm_client::{ChatRequest, LlmClient, LlmError, Usage};
use rusqlite::Connection;
use serde_json::Value;
use tokio::time::Instant;

use crate::settings::LlmSettings;
use crate::store::cache::CachedMessage;
use crate::store::llm_cache;
use crate::store::runs::{self, ErrorRecord};

pub mod prompts;

use prompts::{
    BATCH, CLASSIFY_VERSION, SUMMARY_VERSION, classify_fields, classify_request, clean_summary,
    parse_categories, summary_request, summary_user_message,
};

/// The module name of the job's LLM warnings in `errors`.
pub const MODULE: &str = "llm";

/// However large the budget, LLM work ends this long after the job started, so the digest is
/// written well before the spec's 120 s refresh limit.
pub const LATEST_END: Duration = Duration::from_secs(100);

/// One refresh's use of the LLM: the client, the deadline, the counters and the warnings.
pub struct LlmStep {
    settings: LlmSettings,
    client: LlmClient,
    runtime: tokio::runtime::Runtime,
    deadline: Instant,
    engine: String,
    calls: u64,
    /// The endpoint failed (unreachable, timed out, out of budget): no further call this run.
    down: bool,
    /// LLM answers taken from the caches.
    pub cache_hits: u64,
    /// LLM answers looked up in the caches.
    pub cache_lookups: u64,
    /// What went wrong, for `errors` (module `llm`); the run still succeeds.
    pub warnings: Vec<ErrorRecord>,
}

/// Why a call gave nothing usable.
enum Failure {
    Llm(LlmError),
    Budget,
    Invalid(String),
}

impl Failure {
    fn error_type(&self) -> &'static str {
        match self {
            Self::Llm(LlmError::Timeout(_)) => "Timeout",
            Self::Llm(LlmError::Connect(_)) => "Unreachable",
            Self::Llm(LlmError::RateLimited) => "RateLimited",
            Self::Llm(LlmError::Status { .. }) => "HttpStatus",
            Self::Llm(LlmError::InvalidResponse(_)) => "InvalidResponse",
            Self::Llm(LlmError::Json(_)) | Self::Invalid(_) => "InvalidAnswer",
            Self::Llm(LlmError::Setup(_)) => "Setup",
            Self::Budget => "BudgetExceeded",
        }
    }

    /// Whether the endpoint itself is failing (no point calling it again this run).
    fn endpoint_down(&self) -> bool {
        matches!(
            self,
            Self::Budget
                | Self::Llm(
                    LlmError::Timeout(_)
                        | LlmError::Connect(_)
                        | LlmError::RateLimited
                        | LlmError::Setup(_)
                        | LlmError::Status { .. }
                )
        )
    }

    fn message(&self, budget: Duration) -> String {
        match self {
            Self::Llm(e) => e.to_string(),
            Self::Budget => format!("LLM budget of {budget:?} per refresh used up"),
            Self::Invalid(why) => format!("LLM answer rejected: {why}"),
        }
    }
}

impl LlmStep {
    /// Starts the step: the budget runs from now, and ends at the latest [`LATEST_END`] after
    /// `job_started`.
    pub fn start(settings: &LlmSettings, job_started: std::time::Instant) -> Result<Self, String> {
        let client = LlmClient::new(settings.config.clone()).map_err(|e| e.to_string())?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the LLM runtime: {e}"))?;
        Ok(Self {
            engine: settings.config.engine_label(),
            settings: settings.clone(),
            client,
            // Instant::now needs no runtime; the deadline is checked inside it.
            deadline: (Instant::now() + settings.budget)
                .min(Instant::from_std(job_started) + LATEST_END),
            runtime,
            calls: 0,
            down: false,
            cache_hits: 0,
            cache_lookups: 0,
            warnings: Vec::new(),
        })
    }

    /// `llm:<model>`.
    pub fn engine(&self) -> &str {
        &self.engine
    }

    /// HTTP requests, tokens and cost so far.
    pub fn usage(&self) -> Usage {
        self.client.usage()
    }

    /// Asks the LLM (or its cache) for the category of every message whose offline
    /// confidence is below the threshold; applied answers set the message's `category` and
    /// `engine`. Returns how many messages the LLM categorised.
    pub fn categorise(&mut self, conn: &Connection, messages: &mut [CachedMessage]) -> usize {
        let below = self.settings.classify_below;
        let candidates: Vec<usize> = (0..messages.len())
            .filter(|&i| messages[i].confidence < below)
            .collect();
        let mut decided = 0;
        let mut misses = Vec::new();
        for &i in &candidates {
            let key = self.classify_key(&messages[i]);
            self.cache_lookups += 1;
            match llm_cache::category(conn, &key) {
                Some(category) => {
                    self.cache_hits += 1;
                    apply(&mut messages[i], category, &self.engine);
                    decided += 1;
                }
                None => misses.push((i, key)),
            }
        }
        if misses.is_empty() {
            return decided;
        }
        let batches: Vec<&[(usize, String)]> = misses.chunks(BATCH).collect();
        let allowed = self.allow(batches.len(), "categorise");
        let requests: Vec<ChatRequest> = batches[..allowed]
            .iter()
            .map(|batch| classify_request(batch.iter().map(|(i, _)| &messages[*i])))
            .collect();
        let answers = self.send_all(&requests, |client, request| async move {
            client
                .chat_json::<Value>(&request)
                .await
                .map(|(value, _)| value)
        });
        let mut failures = Vec::new();
        for (batch, answer) in batches.iter().zip(answers) {
            let value = match answer {
                Ok(value) => value,
                Err(failure) => {
                    failures.push(failure);
                    continue;
                }
            };
            let (found, problems) = parse_categories(&value, batch.len());
            for (position, category) in found {
                let (i, key) = &batch[position];
                apply(&mut messages[*i], category, &self.engine);
                decided += 1;
                if let Err(e) = llm_cache::put_category(conn, key, category, &self.engine) {
                    tracing::warn!(error = %e, "cannot cache an LLM category");
                }
            }
            if !problems.is_empty() {
                failures.push(Failure::Invalid(problems.join("; ")));
            }
        }
        self.warn(
            &failures,
            &format!(
                "categorising {} low-confidence emails; the offline categories were kept",
                misses.len()
            ),
        );
        decided
    }

    /// The LLM's (or the cache's) summary of each non-empty category, by category; a category
    /// missing from the answer keeps its extractive summary.
    pub fn summarise(
        &mut self,
        conn: &Connection,
        by_category: &BTreeMap<Category, Vec<&CachedMessage>>,
    ) -> BTreeMap<Category, String> {
        let mut out = BTreeMap::new();
        if !self.settings.summaries {
            return out;
        }
        let mut misses = Vec::new();
        for (&category, items) in by_category {
            if items.is_empty() {
                continue;
            }
            let user = summary_user_message(category, items);
            let key = hash(&[SUMMARY_VERSION, &self.settings.config.model, &user]);
            self.cache_lookups += 1;
            match llm_cache::summary(conn, &key).filter(|s| clean_summary(s).is_ok()) {
                Some(summary) => {
                    self.cache_hits += 1;
                    out.insert(category, summary);
                }
                None => misses.push((category, key, user)),
            }
        }
        if misses.is_empty() {
            return out;
        }
        let allowed = self.allow(misses.len(), "summarise");
        let requests: Vec<ChatRequest> = misses[..allowed]
            .iter()
            .map(|(_, _, user)| summary_request(user))
            .collect();
        let answers = self.send_all(&requests, |client, request| async move {
            client.chat(&request).await.map(|c| c.content)
        });
        let mut failures = Vec::new();
        for ((category, key, _), answer) in misses.iter().zip(answers) {
            let summary = answer.and_then(|text| clean_summary(&text).map_err(Failure::Invalid));
            match summary {
                Ok(summary) => {
                    if let Err(e) = llm_cache::put_summary(conn, key, &summary, &self.engine) {
                        tracing::warn!(error = %e, "cannot cache an LLM summary");
                    }
                    out.insert(*category, summary);
                }
                Err(failure) => failures.push(failure),
            }
        }
        self.warn(
            &failures,
            &format!(
                "summarising {} categories; their extractive summaries were kept",
                misses.len()
            ),
        );
        out
    }

    /// How many of `wanted` calls may start (call cap, an endpoint already failing); records
    /// a warning for the rest.
    fn allow(&mut self, wanted: usize, what: &str) -> usize {
        let left = self.settings.max_calls.saturating_sub(self.calls);
        let allowed = if self.down {
            0
        } else {
            wanted.min(usize::try_from(left).unwrap_or(usize::MAX))
        };
        if allowed < wanted {
            let (error_type, why) = if self.down {
                (
                    "Skipped",
                    "the endpoint failed earlier in this refresh".to_owned(),
                )
            } else {
                (
                    "CallCapReached",
                    format!(
                        "LLM_REFRESH_MAX_CALLS ({}) reached",
                        self.settings.max_calls
                    ),
                )
            };
            self.warnings.push(ErrorRecord {
                module: MODULE.into(),
                error_type: error_type.into(),
                message: format!(
                    "{what}: {} of {wanted} LLM calls not made ({why}); offline answers kept",
                    wanted - allowed
                ),
                traceback: None,
            });
        }
        self.calls += allowed as u64;
        allowed
    }

    /// Runs the requests concurrently (the client limits how many are in flight), each
    /// cut off at the step's deadline.
    fn send_all<T, F, Fut>(&mut self, requests: &[ChatRequest], call: F) -> Vec<Result<T, Failure>>
    where
        F: Fn(LlmClient, ChatRequest) -> Fut,
        Fut: std::future::Future<Output = Result<T, LlmError>>,
    {
        let deadline = self.deadline;
        let futures = requests.iter().map(|request| {
            let future = call(self.client.clone(), request.clone());
            async move {
                match tokio::time::timeout_at(deadline, future).await {
                    Ok(Ok(value)) => Ok(value),
                    Ok(Err(e)) => Err(Failure::Llm(e)),
                    Err(_) => Err(Failure::Budget),
                }
            }
        });
        let results = self.runtime.block_on(join_all(futures));
        if results
            .iter()
            .any(|r| r.as_ref().is_err_and(Failure::endpoint_down))
        {
            self.down = true;
        }
        results
    }

    /// One `errors` row per kind of failure.
    fn warn(&mut self, failures: &[Failure], context: &str) {
        let mut by_type: BTreeMap<&'static str, (usize, &Failure)> = BTreeMap::new();
        for failure in failures {
            by_type
                .entry(failure.error_type())
                .or_insert((0, failure))
                .0 += 1;
        }
        for (error_type, (n, first)) in by_type {
            self.warnings.push(ErrorRecord {
                module: MODULE.into(),
                error_type: error_type.into(),
                message: format!(
                    "{context}: {n} LLM call(s) gave no usable answer: {}",
                    first.message(self.settings.budget)
                ),
                traceback: None,
            });
        }
    }

    fn classify_key(&self, m: &CachedMessage) -> String {
        let fields = classify_fields(m);
        hash(&[
            CLASSIFY_VERSION,
            &self.settings.config.model,
            &fields.0,
            &fields.1,
            &fields.2,
        ])
    }

    /// Records the step's warnings in `errors`.
    pub fn record_warnings(&self, conn: &Connection, run_id: i64) -> rusqlite::Result<()> {
        for warning in &self.warnings {
            tracing::warn!(error_type = %warning.error_type, "{}", warning.message);
            runs::record_error(conn, Some(run_id), warning)?;
        }
        Ok(())
    }
}

fn apply(m: &mut CachedMessage, category: Category, engine: &str) {
    if category != m.category {
        // The offline reasons argued for another category: say who decided instead.
        m.item.reasons = vec![format!("categorised by the LLM ({engine})")];
    }
    m.category = category;
    m.engine = engine.to_owned();
}

/// SHA-256 (hex) of the parts, each length-prefixed so no two lists hash alike.
pub fn hash(parts: &[&str]) -> String {
    let mut ctx = ring::digest::Context::new(&ring::digest::SHA256);
    for part in parts {
        ctx.update(&(part.len() as u64).to_le_bytes());
        ctx.update(part.as_bytes());
    }
    ctx.finish()
        .as_ref()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_separate_their_parts() {
        assert_ne!(hash(&["ab", "c"]), hash(&["a", "bc"]));
        assert_eq!(hash(&["x"]).len(), 64);
        assert_eq!(hash(&["x"]), hash(&["x"]));
    }
}
