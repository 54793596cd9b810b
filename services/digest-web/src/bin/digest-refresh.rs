//! `digest-refresh`: reads a mailbox, writes `<data-dir>/digest.json`, records the run.
//! Exit status 0 on success; otherwise 1 (or 2 for a bad command line) with one line on
//! stderr that the web service shows as the refresh's error message.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use digest_web::mail::MailSource;
use digest_web::refresh::{self, DEFAULT_MAX_EMAILS, RefreshOptions, Window};
use service_kit::config::EnvSource;
use service_kit::telemetry::{self, LogFormat};

/// Builds the email digest from a mailbox: categorises every message (Need-Action, FYI,
/// Newsletter, Promotional, Social) offline, summarises each category, writes
/// DATA_DIR/digest.json atomically and records the run in DATA_DIR/runs.sqlite3.
///
/// IMAP credentials come only from the environment: DIGEST_IMAP_PASSWORD (or
/// DIGEST_IMAP_PASSWORD_FILE), or DIGEST_IMAP_OAUTH_TOKEN (XOAUTH2, or
/// DIGEST_IMAP_OAUTH_TOKEN_FILE). For Gmail, Outlook and Fastmail use an app password.
/// Flags override environment variables; CONFIG_FILE may name a KEY=VALUE file.
#[derive(Debug, Parser)]
#[command(name = "digest-refresh", version, about, long_about)]
struct Cli {
    /// Mailbox to read: maildir:/path, mbox:/path, imaps://user@host:993/INBOX,
    /// imap://user@host:143/INBOX (STARTTLS; plain text only on loopback), or sample
    /// (the Maildir compiled into the binary) [default: sample]
    #[arg(long, env = "DIGEST_SOURCE")]
    source: Option<String>,

    /// Directory of digest.json and runs.sqlite3 (created if missing)
    #[arg(long, env = "DIGEST_DATA_DIR", default_value = "data")]
    data_dir: PathBuf,

    /// Which messages count, by date: 24h, 7d, 30d or all [default: 24h; all for the
    /// sample source]
    #[arg(long, env = "DIGEST_WINDOW")]
    window: Option<Window>,

    /// At most this many messages (the newest) go in the digest
    #[arg(long, env = "DIGEST_MAX_EMAILS", default_value_t = DEFAULT_MAX_EMAILS)]
    max_emails: usize,

    /// TOML file of sender rules applied before the classifier:
    /// [senders] "boss@example.com" = "Need-Action", "news.example.org" = "Newsletter"
    #[arg(long, env = "DIGEST_RULES_FILE")]
    rules_file: Option<PathBuf>,

    /// Price of 1,000 LLM tokens, used for estimated_cost (0 while the job runs offline)
    #[arg(long, env = "DIGEST_LLM_PRICE_PER_1K_TOKENS", default_value_t = 0.0)]
    llm_price_per_1k_tokens: f64,
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
    let source = match cli.source.as_deref().filter(|s| !s.trim().is_empty()) {
        Some(s) => match MailSource::parse(s) {
            Ok(source) => source,
            Err(e) => return fail(&e.to_string(), 2),
        },
        None => MailSource::Sample,
    };
    let mut options = RefreshOptions::new(source, cli.data_dir);
    if let Some(window) = cli.window {
        options.window = window;
    }
    options.max_emails = cli.max_emails;
    options.rules_file = cli.rules_file;
    options.llm_price_per_1k_tokens = cli.llm_price_per_1k_tokens;
    options.imap_auth = match digest_web::mail::ImapAuth::from_env(&env) {
        Ok(auth) => auth,
        Err(e) => return fail(&e, 2),
    };
    match refresh::run(&options) {
        Ok(report) => {
            let _ = writeln!(
                std::io::stdout(),
                "digest written to {}: {} emails ({} parsed, {} from cache of {} looked up, {} skipped) in {:.2} s",
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
