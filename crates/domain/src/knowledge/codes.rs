//! The codes a name may be written as: E-numbers and INS numbers of food additives
//! (Regulation (EC) No 1333/2008, Codex INS) and Colour Index numbers of colourants, each in
//! its canonical form, from a name already folded ([`fold`](crate::text::fold::fold)).

/// The canonical `E123a` form of an E-number or INS number in any spelling ("E 211", "e-211",
/// "INS 211", "E160a(ii)", "E-150 d"), or `None` when `folded` is not one.
/// `folded` must already be folded.
pub fn e_number(folded: &str) -> Option<String> {
    let rest = folded
        .strip_prefix("ins")
        .or_else(|| folded.strip_prefix('e'))?
        .trim_start();
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    if !(3..=4).contains(&digits.len()) {
        return None;
    }
    let mut tail = rest[digits.len()..].trim_start();
    let mut code = format!("E{digits}");
    // An optional letter suffix ("a" in E160a), then an optional roman numeral ("ii").
    let mut chars = tail.chars();
    if let Some(c) = chars.next()
        && matches!(c, 'a'..='h')
        && chars.next().is_none_or(|n| n == ' ')
    {
        code.push(c);
        tail = tail[1..].trim_start();
    }
    if tail.is_empty() {
        return Some(code);
    }
    if tail.chars().all(|c| matches!(c, 'i' | 'v' | 'x')) && tail.len() <= 4 {
        return Some(format!("{code}({tail})"));
    }
    None
}

/// The canonical `CI 12345` form of a Colour Index number ("CI77491", "C.I. 77491",
/// "ci 77491"), or `None`. `folded` must already be folded.
pub fn ci_number(folded: &str) -> Option<String> {
    // "Cl 45350": a lower-case L read or typed for the I. Chlorine's symbol is never
    // followed by a five-digit number, so the misreading is unambiguous.
    let rest = folded
        .strip_prefix("ci")
        .or_else(|| folded.strip_prefix("c i"))
        .or_else(|| folded.strip_prefix("cl"))?
        .trim_start();
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    if digits.len() != 5 {
        return None;
    }
    let tail = rest[5..].trim();
    match tail {
        "" => Some(format!("CI {digits}")),
        // "CI 77491:1" folds to "ci 77491 1"; keep the variant digit.
        t if t.len() == 1 && t.chars().all(|c| c.is_ascii_digit()) => {
            Some(format!("CI {digits}:{t}"))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::fold::fold;
    use proptest::prelude::*;

    #[test]
    fn e_numbers_in_every_spelling() {
        for s in ["E211", "E 211", "e-211", "INS 211", "ins211", "E-211"] {
            assert_eq!(e_number(&fold(s)).as_deref(), Some("E211"), "{s}");
        }
        assert_eq!(e_number(&fold("E160a")).as_deref(), Some("E160a"));
        assert_eq!(e_number(&fold("E 160 a")).as_deref(), Some("E160a"));
        assert_eq!(e_number(&fold("E150d")).as_deref(), Some("E150d"));
        assert_eq!(e_number(&fold("E160a(ii)")).as_deref(), Some("E160a(ii)"));
        assert_eq!(e_number(&fold("E1422")).as_deref(), Some("E1422"));
        assert_eq!(e_number(&fold("egg")), None);
        assert_eq!(e_number(&fold("E21")), None);
        assert_eq!(e_number(&fold("Emulsifier")), None);
    }

    #[test]
    fn ci_numbers_in_every_spelling() {
        for s in ["CI 77491", "CI77491", "C.I. 77491", "ci-77491", "Cl 77491"] {
            assert_eq!(ci_number(&fold(s)).as_deref(), Some("CI 77491"), "{s}");
        }
        assert_eq!(ci_number(&fold("CI 77163")).as_deref(), Some("CI 77163"));
        assert_eq!(ci_number(&fold("cinnamon")), None);
        assert_eq!(ci_number(&fold("Clove 12345")), None);
    }

    proptest! {
        #[test]
        fn e_and_ci_never_panic(s in "\\PC{0,20}") {
            let f = fold(&s);
            let _ = e_number(&f);
            let _ = ci_number(&f);
        }
    }
}
