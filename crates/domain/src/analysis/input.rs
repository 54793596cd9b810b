//! A validated `/analyze` request: limits and defaults in one place, for HTTP and the CLI.

use super::{Expertise, SkinType, UNKNOWN_PRODUCT};
use crate::knowledge::KnowledgeBase;
use crate::parse::{ParsedIngredient, has_invisible, split_ingredients_with};
use crate::text::fold::clean_invisible;

/// Most characters accepted in `ingredients`.
pub const MAX_CHARS: usize = 20_000;
/// Most top-level ingredients (trace items included) accepted in one list.
pub const MAX_INGREDIENTS: usize = 300;
/// Most entries accepted in `allergies`.
pub const MAX_ALLERGIES: usize = 50;
/// Longest accepted allergy entry, in characters.
pub const MAX_ALLERGY_CHARS: usize = 100;
/// Longest product name kept, in characters (longer names are cut, not refused).
pub const MAX_PRODUCT_NAME_CHARS: usize = 200;

/// Why a request cannot be analysed. The texts are the `error` of the 400 body.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    /// `ingredients` absent.
    #[error("ingredients is required")]
    Missing,
    /// `ingredients` empty or only whitespace / invisible characters.
    #[error("ingredients must not be blank")]
    Blank,
    /// `ingredients` contains no ingredient once headers, bullets and punctuation are removed.
    #[error("ingredients contains no ingredient names")]
    NoIngredients,
    /// Over [`MAX_CHARS`].
    #[error("ingredients is too long: {0} characters (at most {MAX_CHARS})")]
    TooLong(usize),
    /// Over [`MAX_INGREDIENTS`].
    #[error("too many ingredients: {0} (at most {MAX_INGREDIENTS})")]
    TooMany(usize),
    /// Over [`MAX_ALLERGIES`].
    #[error("too many allergies: {0} (at most {MAX_ALLERGIES})")]
    TooManyAllergies(usize),
    /// One allergy over [`MAX_ALLERGY_CHARS`].
    #[error("allergy {0} is too long (at most {MAX_ALLERGY_CHARS} characters)")]
    AllergyTooLong(usize),
}

/// A request the engine can analyse: limits checked, defaults applied, text cleaned, list
/// parsed once.
#[derive(Debug, Clone)]
pub struct AnalysisInput {
    /// Echoed back; `Unknown Product` by default.
    pub product_name: String,
    /// The list as given (invisible characters removed).
    pub ingredients: String,
    /// The parsed list.
    pub parsed: Vec<ParsedIngredient>,
    /// The user's allergies as given (blank entries dropped).
    pub allergies: Vec<String>,
    /// Default `normal`.
    pub skin_type: SkinType,
    /// Default `beginner`.
    pub expertise: Expertise,
    /// Time spent cleaning and parsing the list; part of the response's `execution_time`.
    pub parse_time: std::time::Duration,
}

impl AnalysisInput {
    /// Checks the limits and parses the list.
    pub fn new(
        product_name: Option<&str>,
        ingredients: Option<&str>,
        allergies: &[String],
        skin_type: SkinType,
        expertise: Expertise,
    ) -> Result<Self, RequestError> {
        let started = std::time::Instant::now();
        let raw = ingredients.ok_or(RequestError::Missing)?;
        let chars = raw.chars().count();
        if chars > MAX_CHARS {
            return Err(RequestError::TooLong(chars));
        }
        // NUL is a control character: `clean_invisible` removes it with the others.
        let cleaned = without_invisible(raw);
        if cleaned.trim().is_empty() {
            return Err(RequestError::Blank);
        }
        if allergies.len() > MAX_ALLERGIES {
            return Err(RequestError::TooManyAllergies(allergies.len()));
        }
        if let Some(pos) = allergies
            .iter()
            .position(|a| a.chars().count() > MAX_ALLERGY_CHARS)
        {
            return Err(RequestError::AllergyTooLong(pos + 1));
        }
        // A knowledge-base name with a comma in it is one ingredient, not two.
        let kb = KnowledgeBase::embedded();
        let parsed = split_ingredients_with(&cleaned, &|first, second| {
            kb.joins_with_comma(first, second)
        });
        if parsed.is_empty() {
            return Err(RequestError::NoIngredients);
        }
        if parsed.len() > MAX_INGREDIENTS {
            return Err(RequestError::TooMany(parsed.len()));
        }
        let product_name = product_name
            .map(|p| {
                without_invisible(p)
                    .trim()
                    .chars()
                    .take(MAX_PRODUCT_NAME_CHARS)
                    .collect::<String>()
            })
            .filter(|p| !p.is_empty())
            .unwrap_or_else(|| UNKNOWN_PRODUCT.to_owned());
        let allergies = allergies
            .iter()
            .map(|a| without_invisible(a).trim().to_owned())
            .filter(|a| !a.is_empty())
            .collect();
        Ok(Self {
            product_name,
            ingredients: cleaned,
            parsed,
            allergies,
            skin_type,
            expertise,
            parse_time: started.elapsed(),
        })
    }
}

/// [`clean_invisible`], without its scan of every character when there is nothing to remove
/// (nearly always).
fn without_invisible(text: &str) -> String {
    if has_invisible(text) {
        clean_invisible(text)
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(text: &str) -> Result<AnalysisInput, RequestError> {
        AnalysisInput::new(None, Some(text), &[], SkinType::Normal, Expertise::Beginner)
    }

    #[test]
    fn limits_are_enforced_with_clear_messages() {
        assert_eq!(
            AnalysisInput::new(None, None, &[], SkinType::Normal, Expertise::Beginner).unwrap_err(),
            RequestError::Missing
        );
        assert_eq!(input(" \u{200B}\n ").unwrap_err(), RequestError::Blank);
        assert_eq!(input(", ; .").unwrap_err(), RequestError::NoIngredients);
        let long = "a".repeat(MAX_CHARS + 1);
        assert_eq!(
            input(&long).unwrap_err().to_string(),
            "ingredients is too long: 20001 characters (at most 20000)"
        );
        let many = vec!["salt"; MAX_INGREDIENTS + 1].join(", ");
        assert_eq!(
            input(&many).unwrap_err().to_string(),
            "too many ingredients: 301 (at most 300)"
        );
        assert!(input(&vec!["salt"; MAX_INGREDIENTS].join(", ")).is_ok());
        let allergies = vec!["milk".to_owned(); MAX_ALLERGIES + 1];
        let err = AnalysisInput::new(
            None,
            Some("salt"),
            &allergies,
            SkinType::Normal,
            Expertise::Beginner,
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "too many allergies: 51 (at most 50)");
    }

    #[test]
    fn defaults_and_cleaning() {
        let i = input("Water\u{0}, Salt").unwrap();
        assert_eq!(i.product_name, "Unknown Product");
        assert_eq!(i.ingredients, "Water, Salt");
        let named = AnalysisInput::new(
            Some("  \u{200F}Cream "),
            Some("Water"),
            &[" ".to_owned(), "Milk".to_owned()],
            SkinType::Dry,
            Expertise::Expert,
        )
        .unwrap();
        assert_eq!(named.product_name, "Cream");
        assert_eq!(named.allergies, ["Milk"]);
    }
}
