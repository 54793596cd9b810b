mod auth;
mod bad_input;
mod basics;
mod browser;
mod corrections;
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

use test_support::dovecot;
use test_support::llm::refresh_job as fake_llm;
