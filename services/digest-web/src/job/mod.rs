//! The refresh job, served by the `digest-refresh` binary: read a mailbox, categorise and
//! summarise, write `<data-dir>/digest.json` and record the run. [`run`] is the whole job; the
//! binary only parses its command line into [`RefreshOptions`] and prints the outcome.
//!
//! - [`mail`]: mail sources (Maildir, mbox, IMAP, the embedded sample) and MIME parsing.
//! - [`classify`]: the offline categoriser's service side (the rules file, the labelled corpus);
//!   the model itself is `domain::email`'s.
//! - [`summarize`](mod@summarize): the extractive summaries.
//! - [`llm`]: the optional LLM step (categories of low-confidence messages, summaries).
//! - [`corrections`]: what ops staff corrected on the dashboard, applied and learnt from.
//! - [`checks`]: the job's self-checks, the one part of the job the web server calls (its
//!   deployment diagnostics run them in-process); otherwise the web server only starts the
//!   binary.
//!
//! Flow: list the mailbox ([`mail::local`] or [`mail::imap`]) → look every message up in
//! `message_cache` → fetch and parse only the misses → classify them ([`classify`]) and cache
//! them → keep the window and the newest `max_emails` → with an LLM configured, let it
//! categorise the low-confidence ones and write summaries ([`llm`]) → summarise the rest
//! ([`summarize`](mod@summarize)) → write the digest atomically → finish the `runs` row.
//! A message that cannot be read or parsed is recorded in `errors` and skipped.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::time::Instant;

use chrono::{DateTime, Duration, Utc};
use domain::email::{Category, Digest, DigestStats, EmailItem};
use rusqlite::Connection;
use service_kit::config::EnvSource;

use crate::settings::{ImapAuth, LlmSettings};
use crate::store::cache::{self, CachedMessage};
use crate::store::mail_facts::{self, Folder, MailFact};
use crate::store::runs::{self, ErrorRecord, RunOutcome};
use crate::store::window::Window;
use crate::store::{self, StoreError, digest_file};

pub mod acting;
pub mod checks;
pub mod classify;
pub mod corrections;
pub mod llm;
pub mod mail;
pub mod summarize;

use classify::{Classifier, RulesError, load_rules};
use corrections::Corrections;
use domain::email::owners::Owners;
use llm::LlmStep;
use mail::imap::ImapMailbox;
use mail::local::{Entry, LocalMailbox};
use mail::{MailError, MailSource, ParsedEmail, parse_or_salvage};
use summarize::{SummaryInput, summarize};

/// Cached messages not seen in a run and older than this are dropped from the cache.
pub const CACHE_RETENTION: Duration = Duration::days(crate::store::RETENTION_DAYS);

/// Default of `--max-emails`.
pub const DEFAULT_MAX_EMAILS: usize = 200;

/// Everything one run needs.
#[derive(Debug, Clone)]
pub struct RefreshOptions {
    /// Where the mail comes from.
    pub source: MailSource,
    /// Where `digest.json` and `runs.sqlite3` live.
    pub data_dir: PathBuf,
    /// Which messages count.
    pub window: Window,
    /// At most this many (the newest) go in the digest.
    pub max_emails: usize,
    /// IMAP password or OAuth token (IMAP sources only).
    pub imap_auth: Option<ImapAuth>,
    /// User rules (`DIGEST_RULES_FILE`), applied before everything else.
    pub rules_file: Option<PathBuf>,
    /// The mailbox owner's addresses (`DIGEST_OWNER_ADDRESSES`); the IMAP login, when it is an
    /// address, and each message's delivery address are added.
    pub owner_addresses: Vec<String>,
    /// The owner's sent mail (`DIGEST_SENT_SOURCE`); `None`: a Maildir source's `.Sent`
    /// folder when it has one (see [`acting::sent_source`]).
    pub sent_source: Option<MailSource>,
    /// The sentence-embedding table (`DIGEST_EMBEDDING_MODEL`, by default the checkout's
    /// `.tmp/embedding-model/tokens.bin`); `None` turns the meaning vector off.
    pub embedding_model: Option<PathBuf>,
    /// Price of 1,000 LLM tokens (prompt and completion alike), for `estimated_cost` when
    /// `LLM_PRICE_INPUT_PER_1K` / `LLM_PRICE_OUTPUT_PER_1K` are not set.
    pub llm_price_per_1k_tokens: f64,
    /// The LLM step (`LLM_*` variables); `None`: everything offline.
    pub llm: Option<LlmSettings>,
}

impl RefreshOptions {
    /// Options with the defaults: the source's default window, 200 emails, no rules.
    pub fn new(source: MailSource, data_dir: impl Into<PathBuf>) -> Self {
        Self {
            window: source.default_window(),
            source,
            data_dir: data_dir.into(),
            max_emails: DEFAULT_MAX_EMAILS,
            imap_auth: None,
            rules_file: None,
            owner_addresses: Vec::new(),
            sent_source: None,
            embedding_model: Some(classify::default_embedding_model()),
            llm_price_per_1k_tokens: 0.0,
            llm: None,
        }
    }

    /// Options from the environment (`DIGEST_SOURCE`, `DIGEST_DATA_DIR`, `DIGEST_WINDOW`,
    /// `DIGEST_MAX_EMAILS`, `DIGEST_RULES_FILE`, `DIGEST_LLM_PRICE_PER_1K_TOKENS`, IMAP
    /// credentials): what the web service's refresh uses. The error is one human line.
    pub fn from_env(env: &EnvSource) -> Result<Self, String> {
        let source = match env.raw("DIGEST_SOURCE") {
            Some(s) => MailSource::parse(s).map_err(|e| e.to_string())?,
            None => MailSource::Sample,
        };
        let mut options = Self::new(source, env.string_or("DIGEST_DATA_DIR", "data"));
        if let Some(w) = env.raw("DIGEST_WINDOW") {
            options.window = Window::parse_arg(w)?;
        }
        options.max_emails = env
            .parse_or(
                "DIGEST_MAX_EMAILS",
                DEFAULT_MAX_EMAILS,
                "a positive integer",
            )
            .map_err(|e| e.to_string())?;
        options.rules_file = env.raw("DIGEST_RULES_FILE").map(PathBuf::from);
        options.owner_addresses = env
            .raw("DIGEST_OWNER_ADDRESSES")
            .map(|v| {
                v.split(',')
                    .map(str::trim)
                    .filter(|a| !a.is_empty())
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        if let Some(s) = env
            .raw("DIGEST_SENT_SOURCE")
            .filter(|s| !s.trim().is_empty())
        {
            options.sent_source = Some(MailSource::parse(s).map_err(|e| e.to_string())?);
        }
        if let Some(table) = env.raw("DIGEST_EMBEDDING_MODEL") {
            options.embedding_model = (!table.trim().is_empty()).then(|| PathBuf::from(table));
        }
        options.llm_price_per_1k_tokens = env
            .parse_or("DIGEST_LLM_PRICE_PER_1K_TOKENS", 0.0, "a number")
            .map_err(|e| e.to_string())?;
        options.imap_auth = ImapAuth::from_env(env)?;
        options.llm = LlmSettings::from_env(env)?;
        Ok(options)
    }
}

/// What a successful run did.
#[derive(Debug, Clone, PartialEq)]
pub struct RunReport {
    /// The `runs` row.
    pub run_id: i64,
    /// The digest written.
    pub digest_path: PathBuf,
    /// Emails in the digest.
    pub total_emails: usize,
    /// IMAP fetch commands + LLM HTTP requests.
    pub api_calls: u64,
    /// Messages whose category came from the cache.
    pub cache_hits: u64,
    /// Messages looked up in the cache.
    pub cache_lookups: u64,
    /// Messages newly parsed this run.
    pub parsed: usize,
    /// Messages skipped because they could not be read or parsed.
    pub skipped: usize,
    /// Seconds.
    pub execution_time: f64,
    /// Emails per category in the digest.
    pub category_counts: BTreeMap<Category, u64>,
    /// The digest's engine: `offline` or `llm:<model>`.
    pub engine: String,
    /// LLM HTTP requests (included in `api_calls`).
    pub llm_requests: u64,
    /// LLM answers taken from the caches.
    pub llm_cache_hits: u64,
    /// LLM answers looked up in the caches.
    pub llm_cache_lookups: u64,
}

/// A failed run. `Display` is the one human line the binary prints.
#[derive(Debug, thiserror::Error)]
pub enum RefreshError {
    /// The run store cannot be opened.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A run-store statement failed mid-run.
    #[error("run store {path}: {source}")]
    Sqlite {
        /// The database file.
        path: PathBuf,
        /// SQLite's error.
        source: rusqlite::Error,
    },
    /// The rules file is unusable.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// The mailbox cannot be reached or read.
    #[error(transparent)]
    Mail(#[from] MailError),
    /// The digest cannot be written.
    #[error("cannot write digest {path}: {source}")]
    Output {
        /// The digest path.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

impl RefreshError {
    /// (`module`, `error_type`) for the `errors` table.
    pub fn kind(&self) -> (&'static str, &'static str) {
        match self {
            Self::Store(_) | Self::Sqlite { .. } => ("refresh.store", "StoreError"),
            Self::Rules(_) => ("classify.rules", "InvalidRules"),
            Self::Mail(e @ (MailError::Local { .. } | MailError::InvalidSource { .. })) => {
                ("mail.local", e.kind())
            }
            Self::Mail(e) => ("mail.imap", e.kind()),
            Self::Output { .. } => ("refresh.output", "WriteFailed"),
        }
    }
}

/// Runs the whole job once. Every run gets a `runs` row (status `success` or `error`) unless
/// the store itself cannot be opened; every failure and skipped message an `errors` row.
pub fn run(options: &RefreshOptions) -> Result<RunReport, RefreshError> {
    let started = Instant::now();
    let mut conn = store::open(&options.data_dir)?;
    let db = store::path(&options.data_dir);
    let sql = |source| RefreshError::Sqlite {
        path: db.clone(),
        source,
    };
    let run_id = runs::start_run(&conn, &runs::now_iso()).map_err(sql)?;
    match run_inner(&mut conn, run_id, options, started) {
        Ok(report) => Ok(report),
        Err(error) => {
            let (module, error_type) = error.kind();
            // Recording is best effort: the original error is what the caller must see.
            let _ = runs::record_error(
                &conn,
                Some(run_id),
                &ErrorRecord {
                    module: module.into(),
                    error_type: error_type.into(),
                    message: error.to_string(),
                    traceback: runs::cause_chain(&error),
                },
            );
            let _ = runs::finish_run(
                &conn,
                run_id,
                &RunOutcome {
                    status: "error",
                    exit_code: 1,
                    execution_time: started.elapsed().as_secs_f64(),
                    message: Some(error.to_string()),
                    ..RunOutcome::default()
                },
            );
            Err(error)
        }
    }
}

/// The mailbox being read.
enum Mailbox {
    Local(LocalMailbox),
    Imap(Box<ImapMailbox>),
}

impl Mailbox {
    fn entries(&self) -> &[Entry] {
        match self {
            Self::Local(m) => m.entries(),
            Self::Imap(m) => m.entries(),
        }
    }
}

/// A message read this run, before parsing.
struct Raw {
    index: usize,
    bytes: Vec<u8>,
    delivered_at: Option<DateTime<Utc>>,
}

fn run_inner(
    conn: &mut Connection,
    run_id: i64,
    options: &RefreshOptions,
    started: Instant,
) -> Result<RunReport, RefreshError> {
    let db = store::path(&options.data_dir);
    let sql = |source| RefreshError::Sqlite {
        path: db.clone(),
        source,
    };
    let (classifier, classifier_name) =
        classify::offline_classifier(options.embedding_model.as_deref());
    tracing::info!(categoriser = %classifier_name, "offline categoriser");
    let classifier = match &options.rules_file {
        Some(path) => classifier.with_rules(load_rules(path)?),
        None => classifier,
    };
    let mut owners = options.owner_addresses.clone();
    if let MailSource::Imap(url) = &options.source
        && url.user.contains('@')
    {
        owners.push(url.user.clone());
    }
    let classifier = classifier.with_owners(Owners::new(&owners));
    let now = Utc::now();
    let since = options.window.since(now);
    let identity = options.source.cache_identity();

    // Cache lookups: one query for the whole source.
    let mut cached = cache::load(conn, &identity).map_err(sql)?;
    // Corrections: the classifier learns from the corrected messages (their features are in
    // the cache); a cached category computed before a change in what was learnt for its
    // sender group is computed again.
    let (corrections, classifier) =
        Corrections::load(conn, &identity, &cached, &classifier).map_err(sql)?;
    let rescored = corrections
        .rescore(&classifier, conn, &identity, &mut cached)
        .map_err(sql)?;
    cache::store(conn, &identity, &rescored).map_err(sql)?;
    cached.retain(|_, m| corrections.is_current(m));
    // A cached message without its acting facts (read before they were recorded) is read
    // again once, as a miss.
    let with_facts = mail_facts::keys(conn, &identity).map_err(sql)?;
    let mut mailbox = match &options.source {
        MailSource::Imap(url) => Mailbox::Imap(Box::new(ImapMailbox::open(
            url,
            options.imap_auth.as_ref(),
            since,
            options.max_emails,
        )?)),
        local => Mailbox::Local(LocalMailbox::open_keeping(local, &|key| {
            !(cached.contains_key(key) && with_facts.contains(key))
        })?),
    };
    let entries = mailbox.entries().to_vec();
    let mut kept: Vec<CachedMessage> = Vec::with_capacity(entries.len());
    let mut misses = Vec::new();
    let mut cache_lookups = 0u64;
    for (index, entry) in entries.iter().enumerate() {
        if !may_be_in_window(entry, since) {
            continue;
        }
        cache_lookups += 1;
        match cached.remove(&entry.key) {
            Some(hit) if with_facts.contains(&entry.key) => kept.push(hit),
            _ => misses.push(index),
        }
    }
    let cache_hits = kept.len() as u64;

    // Fetch or read only the misses, parsing as we go (one batch in memory at a time), and
    // classify the new messages.
    let mut errors: Vec<ErrorRecord> = Vec::new();
    let mut fresh: Vec<(String, CachedMessage)> = Vec::with_capacity(misses.len());
    let mut facts: Vec<(String, MailFact)> = Vec::with_capacity(misses.len());
    let mut api_calls = 0;
    let mut take = |raw: Raw, errors: &mut Vec<ErrorRecord>| {
        let key = &entries[raw.index].key;
        match parse_or_salvage(&raw.bytes, raw.delivered_at) {
            Ok(parsed) => {
                facts.push((key.clone(), acting::fact_of(&parsed)));
                fresh.push((key.clone(), to_cached(&classifier, &corrections, parsed)));
            }
            Err(e) => errors.push(ErrorRecord {
                module: "mail.parse".into(),
                error_type: e.kind().into(),
                message: format!("message {key} skipped: {e}"),
                traceback: None,
            }),
        }
    };
    match &mut mailbox {
        Mailbox::Local(local) => {
            for &index in &misses {
                match local.load(index) {
                    Ok(bytes) => take(
                        Raw {
                            index,
                            bytes,
                            delivered_at: entries[index].delivered_at,
                        },
                        &mut errors,
                    ),
                    Err(e) => errors.push(ErrorRecord {
                        module: "mail.local".into(),
                        error_type: "MessageUnreadable".into(),
                        message: format!("message {} skipped: {e}", entries[index].key),
                        traceback: None,
                    }),
                }
            }
        }
        Mailbox::Imap(imap) => {
            for batch in misses.chunks(mail::imap::FETCH_BATCH) {
                for fetched in imap.fetch(batch)? {
                    take(
                        Raw {
                            index: fetched.index,
                            bytes: fetched.bytes,
                            delivered_at: fetched.delivered_at,
                        },
                        &mut errors,
                    );
                }
            }
            api_calls += imap.fetch_commands;
        }
    }
    if let Mailbox::Imap(imap) = mailbox {
        imap.close();
    }
    cache::store(conn, &identity, &fresh).map_err(sql)?;
    mail_facts::record(conn, &identity, Folder::Inbox, &facts).map_err(sql)?;
    drop(facts);
    for (_, m) in &mut fresh {
        // Stored: the run needs them no more.
        m.features = None;
    }
    // What is left in `cached` was not listed this run (deleted, moved, or outside the IMAP
    // search): forget rows older than CACHE_RETENTION so the cache does not grow forever.
    let stale: Vec<String> = cached
        .iter()
        .filter(|(_, m)| m.received_at < now - CACHE_RETENTION)
        .map(|(k, _)| k.clone())
        .collect();
    cache::forget(conn, &identity, &stale).map_err(sql)?;
    mail_facts::forget(conn, &identity, &stale).map_err(sql)?;
    // The owner's sent mail, for "waiting for a reply": a failure is a warning, the digest
    // does not depend on it.
    if let Some(sent) = acting::sent_source(options) {
        match acting::read_sent(conn, options, &sent, now, &mut errors) {
            Ok(report) => api_calls += report.api_calls,
            Err(e) => errors.push(ErrorRecord {
                module: "mail.sent".into(),
                error_type: e.kind().into(),
                message: format!("sent mail not read: {e}"),
                traceback: None,
            }),
        }
    }
    for error in &errors {
        runs::record_error(conn, Some(run_id), error).map_err(sql)?;
    }
    let parsed = fresh.len();
    kept.extend(fresh.into_iter().map(|(_, m)| m));

    // The window and the cap, newest first.
    if let Some(since) = since {
        kept.retain(|m| m.received_at >= since);
    }
    kept.sort_by(|a, b| {
        b.received_at
            .cmp(&a.received_at)
            .then(a.item.id.cmp(&b.item.id))
    });
    dedup_by_id(&mut kept);
    kept.truncate(options.max_emails);
    // A sender's correction is the strongest evidence (after the cache, so it also moves
    // messages categorised before it was made).
    for m in &mut kept {
        corrections.apply(m);
    }

    // The LLM, when configured: categories of low-confidence messages, then the summaries.
    // Whatever it cannot answer keeps the offline answer; its failures are warnings.
    let mut step = options.llm.as_ref().and_then(|settings| {
        let mut settings = settings.clone();
        if settings.config.price_input_per_1k == 0.0 && settings.config.price_output_per_1k == 0.0 {
            settings.config.price_input_per_1k = options.llm_price_per_1k_tokens;
            settings.config.price_output_per_1k = options.llm_price_per_1k_tokens;
        }
        match LlmStep::start(&settings, started) {
            Ok(step) => Some(step),
            Err(e) => {
                // Best effort, like every LLM warning: the run goes on offline.
                let _ = runs::record_error(
                    conn,
                    Some(run_id),
                    &ErrorRecord {
                        module: llm::MODULE.into(),
                        error_type: "Setup".into(),
                        message: format!("LLM not used: {e}"),
                        traceback: None,
                    },
                );
                None
            }
        }
    });
    if let Some(step) = step.as_mut() {
        step.categorise(conn, &mut kept);
    }
    let by_category = group(&kept);
    let llm_summaries = step
        .as_mut()
        .map(|step| step.summarise(conn, &by_category))
        .unwrap_or_default();
    let mut digest = assemble(
        &by_category,
        &llm_summaries,
        step.as_ref().map(LlmStep::engine),
    );
    let usage = step.as_ref().map(LlmStep::usage).unwrap_or_default();
    if let Some(step) = &step {
        step.record_warnings(conn, run_id).map_err(sql)?;
    }
    let (llm_cache_hits, llm_cache_lookups) = step
        .as_ref()
        .map_or((0, 0), |s| (s.cache_hits, s.cache_lookups));
    api_calls += usage.requests;
    let execution_time = started.elapsed().as_secs_f64();
    digest.stats = DigestStats {
        total_emails: kept.len() as u64,
        api_calls,
        execution_time: (execution_time * 1000.0).round() / 1000.0,
    };
    let digest_path = digest_file::path(&options.data_dir);
    digest_file::write_atomically(&digest_path, &digest).map_err(|source| {
        RefreshError::Output {
            path: digest_path.clone(),
            source,
        }
    })?;

    let category_counts: BTreeMap<Category, u64> = digest
        .categories
        .iter()
        .map(|(c, items)| (*c, items.len() as u64))
        .collect();
    runs::finish_run(
        conn,
        run_id,
        &RunOutcome {
            status: "success",
            exit_code: 0,
            emails_processed: kept.len() as u64,
            api_calls,
            cache_hits,
            cache_lookups,
            llm_tokens: usage.prompt_tokens + usage.completion_tokens,
            estimated_cost: usage.estimated_cost,
            execution_time: started.elapsed().as_secs_f64(),
            category_counts: category_counts.clone(),
            message: None,
            llm_cache_hits,
            llm_cache_lookups,
            engine: digest.engine.clone().unwrap_or_default(),
        },
    )
    .map_err(sql)?;
    Ok(RunReport {
        run_id,
        digest_path,
        total_emails: kept.len(),
        api_calls,
        cache_hits,
        cache_lookups,
        parsed,
        skipped: errors.len(),
        execution_time: started.elapsed().as_secs_f64(),
        category_counts,
        engine: digest.engine.unwrap_or_default(),
        llm_requests: usage.requests,
        llm_cache_hits,
        llm_cache_lookups,
    })
}

/// A message delivered (file time, mbox `From ` line) more than a day before the window
/// cannot have been sent inside it, so a big Maildir is not read in full for a 24h digest. The
/// day of slack covers clock skew; messages with no delivery time are always read.
fn may_be_in_window(entry: &Entry, since: Option<DateTime<Utc>>) -> bool {
    match (entry.delivered_at, since) {
        (Some(delivered), Some(since)) => delivered >= since - Duration::days(1),
        _ => true,
    }
}

fn to_cached(
    classifier: &Classifier,
    corrections: &Corrections,
    parsed: ParsedEmail,
) -> CachedMessage {
    let classification = classifier.classify(&parsed.message);
    let features = (!classification.features.is_empty()).then_some(classification.features);
    CachedMessage {
        learned: corrections.tag_of(&parsed.message.from),
        list_id: parsed
            .message
            .header("list-id")
            .and_then(corrections::list_id),
        features,
        category: classification.category,
        confidence: (classification.confidence * 1000.0).round() / 1000.0,
        received_at: parsed.received_at,
        item: EmailItem {
            reasons: classification.reasons,
            ..parsed.item()
        },
        from_name: parsed.message.from_name,
        engine: "offline".into(),
    }
}

/// The same message can sit in a mailbox twice (copies, re-deliveries): keep the first.
fn dedup_by_id(messages: &mut Vec<CachedMessage>) {
    let mut seen: HashMap<String, ()> = HashMap::with_capacity(messages.len());
    messages.retain(|m| seen.insert(m.item.id.clone(), ()).is_none());
}

/// The spec's Digest from the kept messages (newest first), all offline.
pub fn build_digest(messages: &[CachedMessage]) -> Digest {
    assemble(&group(messages), &BTreeMap::new(), None)
}

/// Messages by category, keeping their order.
fn group(messages: &[CachedMessage]) -> BTreeMap<Category, Vec<&CachedMessage>> {
    let mut by_category: BTreeMap<Category, Vec<&CachedMessage>> = BTreeMap::new();
    for m in messages {
        by_category.entry(m.category).or_default().push(m);
    }
    by_category
}

/// The digest from grouped messages: the LLM's summary where there is one, else the
/// extractive one. `llm_engine` is set when an LLM step ran (then the per-summary engines and
/// the count of LLM categories are written too).
fn assemble(
    by_category: &BTreeMap<Category, Vec<&CachedMessage>>,
    llm_summaries: &BTreeMap<Category, String>,
    llm_engine: Option<&str>,
) -> Digest {
    let mut digest = Digest::empty(Utc::now().format("%Y-%m-%dT%H:%M:%S").to_string());
    digest.engine = Some("offline".into());
    let mut used_llm = false;
    for (&category, items) in by_category {
        let llm_summary = llm_engine.and_then(|e| llm_summaries.get(&category).map(|s| (e, s)));
        let summary = match llm_summary {
            Some((engine, summary)) => {
                used_llm = true;
                digest.summary_engines.insert(category, engine.to_owned());
                Some(summary.clone())
            }
            None => {
                let inputs: Vec<SummaryInput<'_>> = items
                    .iter()
                    .map(|m| SummaryInput {
                        item: &m.item,
                        sender: m.from_name.as_deref().unwrap_or(&m.item.from),
                    })
                    .collect();
                let summary = summarize(category, &inputs);
                if llm_engine.is_some() && summary.is_some() {
                    digest.summary_engines.insert(category, "offline".into());
                }
                summary
            }
        };
        if let Some(summary) = summary {
            digest.summaries.insert(category, summary);
        }
        digest.categorised_by_llm += items.iter().filter(|m| m.engine != "offline").count() as u64;
        digest
            .categories
            .insert(category, items.iter().map(|m| m.item.clone()).collect());
    }
    if let Some(engine) = llm_engine
        && (used_llm || digest.categorised_by_llm > 0)
    {
        digest.engine = Some(engine.to_owned());
    }
    digest
}

#[cfg(test)]
mod tests;
