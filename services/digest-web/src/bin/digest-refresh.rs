//! `digest-refresh`: reads a mailbox, writes `<data-dir>/digest.json`, records the run.
//! Exit status 0 on success; otherwise 1 (or 2 for a bad command line) with one line on
//! stderr that the web service shows as the refresh's error message.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use digest_web::job::mail::MailSource;
use digest_web::job::{self, RefreshOptions};
use digest_web::store::window::Window;
use service_kit::config::EnvSource;
use service_kit::telemetry::{self, LogFormat};

/// Builds the email digest from a mailbox: categorises every message (Need-Action, FYI,
/// Newsletter, Promotional, Social) offline, summarises each category, writes
/// DATA_DIR/digest.json atomically and records the run in DATA_DIR/runs.sqlite3.
///
/// IMAP credentials come only from the environment: DIGEST_IMAP_PASSWORD (or
/// DIGEST_IMAP_PASSWORD_FILE), or DIGEST_IMAP_OAUTH_TOKEN (XOAUTH2, or
/// DIGEST_IMAP_OAUTH_TOKEN_FILE). For Gmail, Outlook and Fastmail use an app password.
/// DIGEST_IMAP_CA_FILE adds trusted CA certificates (PEM) for a server with a private CA.
///
/// With LLM_BASE_URL (or LLM_API_KEY) and LLM_MODEL set, an OpenAI-compatible LLM categorises
/// low-confidence messages (LLM_CLASSIFY_BELOW) and writes the summaries, within
/// LLM_REFRESH_BUDGET_SECS and LLM_REFRESH_MAX_CALLS; any LLM failure keeps the offline answer
/// (see docs/llm.md).
///
/// Flags override environment variables, which override the KEY=VALUE file named by
/// CONFIG_FILE. Exit status: 0 success, 1 failed run, 2 bad arguments; on failure, one line on
/// stderr.
#[derive(Debug, Parser)]
#[command(name = "digest-refresh", version, about, long_about)]
struct Cli {
    /// Mailbox to read: maildir:/path, mbox:/path, imaps://user@host:993/INBOX,
    /// imap://user@host:143/INBOX (STARTTLS; plain text only on loopback), or sample
    /// (the Maildir compiled into the binary) [default: sample]
    #[arg(long, env = "DIGEST_SOURCE")]
    source: Option<String>,

    /// Directory of digest.json and runs.sqlite3 (created if missing) [default: data]
    #[arg(long, env = "DIGEST_DATA_DIR")]
    data_dir: Option<PathBuf>,

    /// Which messages count, by date: 24h, 7d, 30d or all [default: 24h; all for the
    /// sample source]
    #[arg(long, env = "DIGEST_WINDOW", value_parser = Window::parse_arg)]
    window: Option<Window>,

    /// At most this many messages (the newest) go in the digest [default: 200]
    #[arg(long, env = "DIGEST_MAX_EMAILS")]
    max_emails: Option<usize>,

    /// TOML file of sender rules applied before the classifier:
    /// [senders] "boss@example.com" = "Need-Action", "news.example.org" = "Newsletter"
    #[arg(long, env = "DIGEST_RULES_FILE")]
    rules_file: Option<PathBuf>,

    /// The mailbox owner's addresses, comma-separated: mail addressed to them is told from mail
    /// to a list or to many [default: the IMAP login when it is an address, and each message's
    /// Delivered-To / X-Original-To]
    #[arg(long, env = "DIGEST_OWNER_ADDRESSES", value_delimiter = ',')]
    owner_addresses: Option<Vec<String>>,

    /// The owner's sent mail, a source like --source (e.g. imaps://user@host:993/Sent), read
    /// to tell which conversations wait for a reply [default: the Maildir's .Sent folder
    /// when it has one]
    #[arg(long, env = "DIGEST_SENT_SOURCE")]
    sent_source: Option<String>,

    /// The sentence-embedding table the categoriser reads text with (written by
    /// scripts/setup/install-embedding-model.sh); an empty value turns it off. Without it the
    /// embedded default categorises, and the digest says so [default: the checkout's
    /// .tmp/embedding-model/tokens.bin]
    // A String, not a PathBuf: clap's path parser refuses the empty value that turns it off.
    #[arg(long, env = "DIGEST_EMBEDDING_MODEL")]
    embedding_model: Option<String>,

    /// Price of 1,000 LLM tokens, used for estimated_cost when LLM_PRICE_INPUT_PER_1K and
    /// LLM_PRICE_OUTPUT_PER_1K are not set [default: 0]
    #[arg(long, env = "DIGEST_LLM_PRICE_PER_1K_TOKENS")]
    llm_price_per_1k_tokens: Option<f64>,
}

fn main() -> ExitCode {
    // Logs only when RUST_LOG asks for them: stderr carries the one failure line.
    telemetry::init(LogFormat::Text, "off");
    let env = match EnvSource::from_process() {
        Ok(env) => env,
        Err(e) => return fail(&e.to_string(), 2),
    };
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => {
            return fail(&first_line(&e.to_string()), 2);
        }
        Err(e) => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
    };
    // The environment (with CONFIG_FILE) gives the base; flags (and the process environment,
    // which clap reads too) override it.
    let mut options = match RefreshOptions::from_env(&env) {
        Ok(options) => options,
        Err(e) => return fail(&e, 2),
    };
    if let Some(s) = cli.source.as_deref().filter(|s| !s.trim().is_empty()) {
        match MailSource::parse(s) {
            Ok(source) => options.source = source,
            Err(e) => return fail(&e.to_string(), 2),
        }
    }
    let env_window = env.raw("DIGEST_WINDOW").and_then(Window::parse);
    options.window = cli
        .window
        .or(env_window)
        .unwrap_or_else(|| options.source.default_window());
    if let Some(dir) = cli.data_dir {
        options.data_dir = dir;
    }
    if let Some(max) = cli.max_emails {
        options.max_emails = max;
    }
    if let Some(rules) = cli.rules_file {
        options.rules_file = Some(rules);
    }
    if let Some(owners) = cli.owner_addresses {
        options.owner_addresses = owners;
    }
    if let Some(s) = cli.sent_source.as_deref().filter(|s| !s.trim().is_empty()) {
        match MailSource::parse(s) {
            Ok(source) => options.sent_source = Some(source),
            Err(e) => return fail(&e.to_string(), 2),
        }
    }
    if let Some(table) = cli.embedding_model {
        options.embedding_model = (!table.trim().is_empty()).then(|| PathBuf::from(table));
    }
    if let Some(price) = cli.llm_price_per_1k_tokens {
        options.llm_price_per_1k_tokens = price;
    }
    match job::run(&options) {
        Ok(report) => {
            let llm = if options.llm.is_some() {
                format!(
                    "; engine {}: {} LLM requests, {} of {} LLM answers from cache",
                    report.engine,
                    report.llm_requests,
                    report.llm_cache_hits,
                    report.llm_cache_lookups
                )
            } else {
                String::new()
            };
            let _ = writeln!(
                std::io::stdout(),
                "digest written to {}: {} emails ({} parsed, {} from cache of {} looked up, {} skipped) in {:.2} s{llm}",
                report.digest_path.display(),
                report.total_emails,
                report.parsed,
                report.cache_hits,
                report.cache_lookups,
                report.skipped,
                report.execution_time
            );
            ExitCode::SUCCESS
        }
        Err(e) => fail(&e.to_string(), 1),
    }
}

fn first_line(text: &str) -> String {
    text.lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("invalid arguments")
        .trim_start_matches("error: ")
        .to_owned()
}

fn fail(message: &str, code: u8) -> ExitCode {
    let _ = writeln!(std::io::stderr(), "{}", first_line(message));
    ExitCode::from(code)
}
