//! Writing a name in the letter case a label printed.

/// `name` with the capitalisation style of `printed`: all in capitals when `printed` is
/// (two letters or more), with a capital first letter when `printed` starts with one,
/// otherwise as it is ("GLYCERIN" and "Glycerin" → "GLYCERIN"; "glycerin" → "Glycerin" stays
/// "Glycerin").
pub fn match_case(printed: &str, name: &str) -> String {
    let letters = printed.chars().filter(|c| c.is_alphabetic());
    if letters.clone().count() > 1 && letters.clone().all(char::is_uppercase) {
        return name.to_uppercase();
    }
    let mut chars = name.chars();
    match (printed.chars().next(), chars.next()) {
        (Some(p), Some(first)) if p.is_uppercase() => first.to_uppercase().chain(chars).collect(),
        _ => name.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capitals_first_letters_and_lower_case_follow_the_print() {
        assert_eq!(match_case("GLYCERIN", "Glycerin"), "GLYCERIN");
        assert_eq!(match_case("Aicool", "alcool"), "Alcool");
        assert_eq!(match_case("aicool", "Alcool"), "Alcool");
        assert_eq!(match_case("A", "alcool"), "Alcool");
        assert_eq!(match_case("", "alcool"), "alcool");
        assert_eq!(match_case("ÉAU", "eau"), "EAU");
    }
}
