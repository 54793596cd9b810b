//! Mail: the digest model of `digest-web` and the mail category model that fills it.
//!
//! - [`Category`], [`EmailItem`], [`Digest`]: what the digest is (see
//!   `shared/spec/digest-web.md`).
//! - [`Message`]: one message as the categoriser reads it (headers, sender, subject, clean
//!   text); the service builds it from the raw mail. [`owners::Owners`]: whose mailbox it is.
//! - [`classifier::Classifier`]: the categoriser: user rules, social-network senders, a learned
//!   model ([`model::Linear`], shipped trained in `data/mail/model.bin`) over header
//!   [`evidence`], content [`cues`] and hashed words ([`features`]), then the product's rules.
//! - [`lexicon`]: the mail words (cue phrases, header conventions, sender domains, stop words),
//!   data files under `data/mail/`, loaded once.
//! - [`train`]: training the model and measuring it with whole senders or kinds of mail held
//!   out ([`train::Evaluation`]).
//!
//! Nothing here reads a mailbox, a file or the network: the services do, and hand over
//! [`Message`]s.

pub mod category;
pub mod classifier;
pub mod cues;
pub mod digest;
pub mod embedding;
pub mod evidence;
pub mod features;
pub mod lexicon;
pub mod message;
pub mod model;
pub mod model_file;
pub mod owners;
pub mod readable;
pub mod text;
pub mod train;

pub use category::Category;
pub use digest::{Digest, DigestStats, EmailItem};
pub use message::Message;
