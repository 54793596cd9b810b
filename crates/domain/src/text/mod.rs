//! Text utilities every other module imports, and which import nothing of the crate: the
//! bottom of the crate's modules (text → language → knowledge → grammar → analysis).
//!
//! - [`fold`]: the one normalisation of names (case, accents, width, punctuation), and the
//!   invisible characters removed before anything is read;
//! - [`script`]: which script a character is written in (the one table of CJK blocks);
//! - [`distance`]: the one edit distance, bounded or not, and its cheap lower bounds;
//! - [`match_case`]: a name written in the letter case a label printed.

mod case;
pub mod distance;
pub mod fold;
pub mod script;

pub use case::match_case;
