//! Integration tests of the `digest-refresh` binary: the real executable on the sample
//! Maildir, an mbox, generated Maildirs and a real Dovecot IMAP server.

mod cli;
mod helpers;
mod imap;
mod llm;

use test_support::dovecot;
use test_support::llm::refresh_job as fake_llm;
