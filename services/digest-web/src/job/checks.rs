//! The job's self-checks: the one part of the job the web server calls in-process (its
//! deployment diagnostics, `POST /api/tests/run`). Each returns `Ok` or the one-line reason it
//! failed; the web server turns them into verdicts. Everything else of the job the web server
//! reaches only by starting the `digest-refresh` binary.

use crate::settings::ImapAuth;
use crate::store::digest_file;
use crate::store::window::Window;

use super::classify::Classifier;
use super::mail::fixtures::{EdgeExpect, edge_cases, fixture_mbox, golden_messages};
use super::mail::{MailSource, check_source, parse_message};
use super::{RefreshOptions, run};

/// The configured mailbox (`DIGEST_SOURCE`; the embedded sample when unset, as the job).
fn source(source: Option<&str>) -> Result<MailSource, String> {
    match source {
        Some(s) => MailSource::parse(s).map_err(|e| e.to_string()),
        None => Ok(MailSource::Sample),
    }
}

/// Why `DIGEST_SOURCE` is not a mailbox the job can read, or `None` when it is.
pub fn source_problem(value: Option<&str>) -> Option<String> {
    source(value).err()
}

/// Connects to the mailbox (and logs in, for IMAP) and counts its messages.
pub fn mail_source_reachable(value: Option<&str>, auth: Option<&ImapAuth>) -> Result<(), String> {
    let source = source(value)?;
    check_source(&source, auth)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// The share of golden messages the categoriser must get right (the refresh job's own test
/// holds it to the same bar).
pub const GOLDEN_ACCURACY: f64 = 0.9;

/// The categoriser labels the built-in golden messages as expected (at least
/// [`GOLDEN_ACCURACY`] of them).
pub fn categoriser_golden() -> Result<(), String> {
    let classifier = Classifier::embedded();
    let golden = golden_messages();
    if golden.is_empty() {
        return Err("no golden messages are built in".into());
    }
    let mut misses = Vec::new();
    for message in &golden {
        match parse_message(message.raw, None) {
            Ok(email) => {
                let got = classifier.classify(&email.message).category;
                if got != message.expected {
                    misses.push(format!(
                        "{}: {got} instead of {}",
                        message.name, message.expected
                    ));
                }
            }
            Err(e) => misses.push(format!("{}: does not parse ({e})", message.name)),
        }
    }
    let right = golden.len() - misses.len();
    let accuracy = right as f64 / golden.len() as f64;
    if accuracy >= GOLDEN_ACCURACY {
        Ok(())
    } else {
        Err(format!(
            "{right}/{} golden messages categorised as labelled (need {:.0} %); first misses: {}",
            golden.len(),
            GOLDEN_ACCURACY * 100.0,
            misses
                .iter()
                .take(5)
                .cloned()
                .collect::<Vec<_>>()
                .join("; ")
        ))
    }
}

/// The parser on each built-in edge-case message: `(parser_edge_case:<name>, outcome)`.
pub fn parser_edge_cases() -> Vec<(String, Result<(), String>)> {
    edge_cases()
        .into_iter()
        .map(|case| {
            let name = format!("parser_edge_case:{}", case.name);
            let parsed = parse_message(&case.raw, None);
            let outcome = match (&case.expect, parsed) {
                (EdgeExpect::Fails, Err(_)) => Ok(()),
                (EdgeExpect::Fails, Ok(email)) => Err(format!(
                    "should be refused, parsed with subject '{}'",
                    email.message.subject
                )),
                (EdgeExpect::Parses { .. }, Err(e)) => Err(format!("does not parse: {e}")),
                (EdgeExpect::Parses { subject, snippet }, Ok(email)) => {
                    if !email.message.subject.contains(subject) {
                        Err(format!(
                            "subject '{}' lacks '{subject}'",
                            email.message.subject
                        ))
                    } else if !email.snippet.contains(snippet) {
                        Err(format!("snippet '{}' lacks '{snippet}'", email.snippet))
                    } else {
                        Ok(())
                    }
                }
            };
            (name, outcome)
        })
        .collect()
}

/// Runs the real refresh job in-process from `source` into a fresh temp data dir and checks
/// the digest it writes against the Digest schema; returns the digest's email count.
fn refresh_into_temp(source: MailSource) -> Result<usize, String> {
    let data = tempfile::tempdir().map_err(|e| format!("cannot make a temp dir: {e}"))?;
    let mut options = RefreshOptions::new(source, data.path());
    // Built-in messages carry fixed past dates.
    options.window = Window::All;
    let report = run(&options).map_err(|e| format!("the refresh failed: {e}"))?;
    let digest = digest_file::load(data.path())
        .map_err(|e| e.to_string())?
        .ok_or("the refresh wrote no digest.json")?;
    let in_digest: usize = digest.categories.values().map(Vec::len).sum();
    if in_digest != report.total_emails || digest.stats.total_emails as usize != in_digest {
        return Err(format!(
            "the digest holds {in_digest} emails, its stats say {} and the run {}",
            digest.stats.total_emails, report.total_emails
        ));
    }
    Ok(in_digest)
}

/// A refresh of an empty Maildir writes an empty digest.
pub fn empty_mailbox_refresh() -> Result<(), String> {
    let mailbox = match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(e) => return Err(format!("cannot make a temp dir: {e}")),
    };
    for sub in ["cur", "new", "tmp"] {
        if let Err(e) = std::fs::create_dir(mailbox.path().join(sub)) {
            return Err(format!("cannot make the empty Maildir: {e}"));
        }
    }
    match refresh_into_temp(MailSource::Maildir(mailbox.path().to_owned())) {
        Ok(0) => Ok(()),
        Ok(n) => Err(format!("an empty mailbox gave a digest of {n} emails")),
        Err(e) => Err(e),
    }
}

/// A refresh of the built-in fixture mailbox writes a non-empty, valid digest.
pub fn full_refresh_from_fixture() -> Result<(), String> {
    let dir = match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(e) => return Err(format!("cannot make a temp dir: {e}")),
    };
    let mbox = dir.path().join("fixture.mbox");
    if let Err(e) = std::fs::write(&mbox, fixture_mbox()) {
        return Err(format!("cannot write the fixture mailbox: {e}"));
    }
    match refresh_into_temp(MailSource::Mbox(mbox)) {
        Ok(0) => Err("the fixture mailbox gave an empty digest".into()),
        Ok(_) => Ok(()),
        Err(e) => Err(e),
    }
}
