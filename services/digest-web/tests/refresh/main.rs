//! Integration tests of the `digest-refresh` binary: the real executable on the sample
//! Maildir, an mbox, generated Maildirs and a real Dovecot IMAP server.

mod cli;
mod helpers;
mod imap;
mod llm;

#[path = "../support/dovecot.rs"]
mod dovecot;
#[path = "../support/fake_llm.rs"]
mod fake_llm;
