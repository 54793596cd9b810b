//! INCI families recognised by the shape of the name, not by an entry per member.
//!
//! The INCI nomenclature (PCPC dictionary, used by CosIng) builds many names by rule:
//! `PEG-n` / `PPG-n` (n the average number of ethylene or propylene oxide units, also as the
//! start of a compound name such as `PEG-40 Hydrogenated Castor Oil`), `Polysorbate n`, a fatty
//! alcohol stem ending in `-eth-n` (`Laureth-4`, `Ceteareth-20`), `Quaternium-n`,
//! `Polyquaternium-n`, `CI nnnnn` (Colour Index), and polymers ending in `Copolymer` or
//! `Crosspolymer`. [`classify`] reads a folded name (see [`fold`]) and says
//! which [`Family`] it belongs to; the knowledge base gives a member without an entry of its
//! own the facts of its family's entry ([`Family::entry_name`]), and [`render`] writes the
//! name the INCI way for its canonical name.

use super::codes::ci_number;
use crate::text::fold::fold;

/// A family of INCI names built by one naming rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// `PEG-n`, `PPG-n`, `PEG/PPG-n/n` and compound names starting with them.
    PegPpg,
    /// `Polysorbate n`.
    Polysorbate,
    /// A fatty alcohol stem with `-eth-n` (`Laureth-4`, `Methyl Gluceth-20`).
    Ethoxylate,
    /// `Quaternium-n`.
    Quaternium,
    /// `Polyquaternium-n`.
    Polyquaternium,
    /// `CI nnnnn`: a Colour Index number.
    Colourant,
    /// `… Copolymer`, `… Crosspolymer`.
    Polymer,
}

impl Family {
    /// Every family, for checks that each has its entry.
    pub const ALL: [Family; 7] = [
        Family::PegPpg,
        Family::Polysorbate,
        Family::Ethoxylate,
        Family::Quaternium,
        Family::Polyquaternium,
        Family::Colourant,
        Family::Polymer,
    ];

    /// The canonical name of the knowledge-base entry that holds the family's facts.
    pub fn entry_name(self) -> &'static str {
        match self {
            Family::PegPpg => "PEG / PPG family (polyethylene or polypropylene glycol)",
            Family::Polysorbate => "Polysorbate family (ethoxylated sorbitan esters)",
            Family::Ethoxylate => "Ethoxylated fatty alcohol family (-eth-n)",
            Family::Quaternium => "Quaternium family (quaternary ammonium compounds)",
            Family::Polyquaternium => "Polyquaternium family (cationic polymers)",
            Family::Colourant => "Colour Index colourant (CI number)",
            Family::Polymer => "Copolymer / crosspolymer family (synthetic polymers)",
        }
    }
}

/// Ethoxylated stems of the INCI dictionary: the fatty alcohol (or sugar, glycerin) part
/// shortened and joined to "eth" (lauryl → Laureth, cetearyl → Ceteareth).
const ETH_STEMS: &[&str] = &[
    "laureth",
    "ceteth",
    "ceteareth",
    "steareth",
    "oleth",
    "isoceteth",
    "isosteareth",
    "trideceth",
    "pareth",
    "beheneth",
    "myreth",
    "deceth",
    "undeceth",
    "coceth",
    "gluceth",
    "glycereth",
    "laneth",
    "sorbeth",
    "buteth",
    "choleth",
    "palmeth",
];

/// Words that may follow a family prefix in a compound name: letters only, a few at most.
const MAX_TAIL_WORDS: usize = 6;

fn is_number(t: &str) -> bool {
    !t.is_empty() && t.len() <= 4 && t.bytes().all(|b| b.is_ascii_digit()) && !t.starts_with('0')
}

fn is_word(t: &str) -> bool {
    t.len() > 1 && t.bytes().all(|b| b.is_ascii_lowercase())
}

/// The family of a folded name, if it is built by one of the rules. Names with an entry of
/// their own are looked up before this is asked.
pub fn classify(folded: &str) -> Option<Family> {
    if !folded.is_ascii() {
        return None;
    }
    let tokens: Vec<&str> = folded.split(' ').filter(|t| !t.is_empty()).collect();
    match tokens.as_slice() {
        [] | [_] => return None,
        ["polysorbate", n] if is_number(n) => return Some(Family::Polysorbate),
        ["quaternium", n, rest @ ..] if is_number(n) && tail_ok(rest) => {
            return Some(Family::Quaternium);
        }
        ["polyquaternium", n] if is_number(n) => return Some(Family::Polyquaternium),
        _ => {}
    }
    if ci_number(folded).is_some() {
        return Some(Family::Colourant);
    }
    // PEG-n, PPG-n, PEG/PPG-n/n, then an optional compound tail ("Hydrogenated Castor Oil").
    let prefixes = tokens
        .iter()
        .take_while(|t| matches!(**t, "peg" | "ppg"))
        .count();
    if (1..=2).contains(&prefixes) {
        let numbers = tokens[prefixes..]
            .iter()
            .take_while(|t| is_number(t))
            .count();
        if (1..=prefixes).contains(&numbers) && tail_ok(&tokens[prefixes + numbers..]) {
            return Some(Family::PegPpg);
        }
        return None;
    }
    // "-eth-n", possibly after a word or two ("Methyl Gluceth-20", "C12-15 Pareth-7").
    if let [lead @ .., stem, n] = tokens.as_slice()
        && ETH_STEMS.contains(stem)
        && is_number(n)
        && lead.len() <= 3
        && lead.iter().all(|t| is_eth_lead(t))
    {
        return Some(Family::Ethoxylate);
    }
    if let [lead @ .., last] = tokens.as_slice()
        && matches!(*last, "copolymer" | "crosspolymer")
        && !lead.is_empty()
        && lead.len() <= 8
        && lead.iter().any(|t| is_word(t))
    {
        return Some(Family::Polymer);
    }
    None
}

/// What may stand before an "-eth-n" stem in its name: "Methyl Gluceth-20", "C12-15
/// Pareth-7", "PPG-26-Buteth-26"; another name before it is a missing comma, not a member.
fn is_eth_lead(t: &str) -> bool {
    matches!(t, "methyl" | "ppg" | "peg")
        || t.bytes().all(|b| b.is_ascii_digit())
        || t.strip_prefix('c')
            .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

fn tail_ok(rest: &[&str]) -> bool {
    rest.len() <= MAX_TAIL_WORDS && rest.iter().all(|t| is_word(t))
}

/// The name written the INCI way: family prefixes in capitals joined to their number by a
/// hyphen (`PEG-40`, `Laureth-4`, `Quaternium-18`, `CI 77266`), other words capitalised.
pub fn render(name: &str) -> String {
    let folded = fold(name);
    if let Some(ci) = ci_number(&folded) {
        return ci;
    }
    let tokens: Vec<&str> = folded.split(' ').filter(|t| !t.is_empty()).collect();
    let mut out = String::with_capacity(name.len() + 4);
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i];
        let next_is_number = tokens.get(i + 1).is_some_and(|n| is_number(n));
        if !out.is_empty() {
            out.push(' ');
        }
        match t {
            "peg" | "ppg" => {
                out.push_str(&t.to_ascii_uppercase());
                // "PEG/PPG-18/18": the second prefix joins the first by a slash.
                if let Some(&second @ ("peg" | "ppg")) = tokens.get(i + 1) {
                    out.push('/');
                    out.push_str(&second.to_ascii_uppercase());
                    i += 1;
                    if tokens.get(i + 1).is_some_and(|n| is_number(n))
                        && tokens.get(i + 2).is_some_and(|n| is_number(n))
                    {
                        out.push('-');
                        out.push_str(tokens[i + 1]);
                        out.push('/');
                        out.push_str(tokens[i + 2]);
                        i += 3;
                        continue;
                    }
                }
                if tokens.get(i + 1).is_some_and(|n| is_number(n)) {
                    out.push('-');
                    out.push_str(tokens[i + 1]);
                    i += 1;
                }
            }
            _ if next_is_number && t != "polysorbate" && is_word(t) => {
                push_capitalised(&mut out, t);
                out.push('-');
                out.push_str(tokens[i + 1]);
                i += 1;
            }
            _ => push_capitalised(&mut out, t),
        }
        i += 1;
    }
    out
}

fn push_capitalised(out: &mut String, word: &str) {
    let mut chars = word.chars();
    if let Some(c) = chars.next() {
        out.extend(c.to_uppercase());
        out.push_str(chars.as_str());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn family(name: &str) -> Option<Family> {
        classify(&fold(name))
    }

    #[test]
    fn peg_and_ppg_members_and_compounds() {
        for n in [
            "PEG-8",
            "PEG-150",
            "PPG-3",
            "PEG/PPG-18/18 Dimethicone",
            "PEG-40 Hydrogenated Castor Oil",
            "PEG-100 Stearate",
            "peg-7 glyceryl cocoate",
        ] {
            assert_eq!(family(n), Some(Family::PegPpg), "{n}");
        }
        assert_eq!(
            render("PEG-40 hydrogenated castor oil"),
            "PEG-40 Hydrogenated Castor Oil"
        );
        assert_eq!(render("peg-100 stearate"), "PEG-100 Stearate");
        assert_eq!(
            render("PEG/PPG-18/18 dimethicone"),
            "PEG/PPG-18/18 Dimethicone"
        );
    }

    #[test]
    fn polysorbates() {
        assert_eq!(family("Polysorbate 20"), Some(Family::Polysorbate));
        assert_eq!(family("POLYSORBATE 80"), Some(Family::Polysorbate));
        assert_eq!(render("POLYSORBATE 80"), "Polysorbate 80");
    }

    #[test]
    fn ethoxylated_fatty_alcohols() {
        for n in [
            "Laureth-4",
            "Ceteareth-20",
            "STEARETH-2",
            "Oleth-3",
            "Methyl Gluceth-20",
            "C12-15 Pareth-7",
            "Glycereth-26",
        ] {
            assert_eq!(family(n), Some(Family::Ethoxylate), "{n}");
        }
        assert_eq!(render("CETEARETH-20"), "Ceteareth-20");
        assert_eq!(render("methyl gluceth 20"), "Methyl Gluceth-20");
    }

    #[test]
    fn quaterniums_and_polyquaterniums() {
        assert_eq!(family("Quaternium-18"), Some(Family::Quaternium));
        assert_eq!(family("Quaternium-18 Bentonite"), Some(Family::Quaternium));
        assert_eq!(family("Polyquaternium-10"), Some(Family::Polyquaternium));
        assert_eq!(render("POLYQUATERNIUM-7"), "Polyquaternium-7");
    }

    #[test]
    fn colour_index_numbers() {
        assert_eq!(family("CI 12345"), Some(Family::Colourant));
        assert_eq!(family("C.I. 45350"), Some(Family::Colourant));
        assert_eq!(render("ci45350"), "CI 45350");
    }

    #[test]
    fn copolymers_and_crosspolymers() {
        assert_eq!(
            family("Acrylates/C10-30 Alkyl Acrylate Crosspolymer"),
            Some(Family::Polymer)
        );
        assert_eq!(family("VP/VA Copolymer"), Some(Family::Polymer));
        assert_eq!(render("acrylates copolymer"), "Acrylates Copolymer");
    }

    #[test]
    fn non_members_are_not_matched() {
        for n in [
            "PEG",
            "PEG leg",
            "PEG-0",
            "PEG-40 and more, with commas 12",
            "CI 1",
            "CI 123456",
            "Polysorbate",
            "Polysorbate twenty",
            "Laureth",
            "Bareth-4",
            "Quaternium",
            "Copolymer",
            "sugar",
            "10 copolymer",
            "PEG-8 PEG-9 PEG-10 PEG-11 PEG-12 PEG-13 PEG-14",
            "Dimethicone Methyl Gluceth-20",
        ] {
            assert_eq!(family(n), None, "{n}");
        }
    }
}
