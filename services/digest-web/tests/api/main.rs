mod auth;
mod bad_input;
mod basics;
mod browser;
mod digest;
mod faults;
mod helpers;
mod hostile;
mod imap;
mod llm;
mod openapi;
mod ops;
mod pages;
mod refresh;
mod suites;

#[path = "../support/dovecot.rs"]
mod dovecot;
#[path = "../support/fake_llm.rs"]
mod fake_llm;
