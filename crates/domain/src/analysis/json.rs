//! The `/analyze` answer as JSON bytes, written field by field.
//!
//! The derived `Serialize` goes through serde's generic map machinery for every key and every
//! enum value (about 1,300 strings escaped one call at a time for a 40-ingredient answer, half
//! of them keys known at compile time). Here keys, punctuation and enum values are literals,
//! and only the values that vary go through sonic-rs, so each string and number is written
//! exactly as the derived form writes it. `tests::the_same_bytes_as_the_derived_form` holds the
//! two together over every knowledge-base entry, skin type and expertise, and the derived form
//! stays the reference (serde_json) for every other use.

use serde::Serialize;

use super::{
    AllergyRisk, AnalysisResponse, FactSource, IngredientDetail, Origin, OverallRisk,
    ProductCategory, Recommendation, RiskLevel, Verdicts,
};
use crate::shared::SharedStr;

type Result = std::result::Result<(), sonic_rs::Error>;

/// Writes `response` into `out`.
pub(super) fn write_response(out: &mut Vec<u8>, response: &AnalysisResponse) -> Result {
    out.extend_from_slice(if response.success {
        br#"{"success":true,"product_name":"#
    } else {
        br#"{"success":false,"product_name":"#
    });
    value(out, &response.product_name)?;
    out.extend_from_slice(br#","overall_risk":""#);
    out.extend_from_slice(overall_risk(response.overall_risk).as_bytes());
    out.extend_from_slice(br#"","average_safety_score":"#);
    value(out, &response.average_safety_score)?;
    out.extend_from_slice(br#","summary":"#);
    value(out, &response.summary)?;
    out.extend_from_slice(br#","allergen_warnings":"#);
    value(out, &response.allergen_warnings)?;
    out.extend_from_slice(br#","ingredients":["#);
    for (i, detail) in response.ingredients.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_detail(out, detail)?;
    }
    out.extend_from_slice(br#"],"execution_time":"#);
    value(out, &response.execution_time)?;
    out.extend_from_slice(br#","error":"#);
    value(out, &response.error)?;
    if let Some(engine) = &response.engine {
        out.extend_from_slice(br#","engine":"#);
        value(out, engine)?;
    }
    if let Some(verdicts) = &response.verdicts {
        write_verdicts(out, verdicts)?;
    }
    out.push(b'}');
    Ok(())
}

/// The product verdicts, as fields of the response object (each preceded by a comma).
fn write_verdicts(out: &mut Vec<u8>, v: &Verdicts) -> Result {
    let diet = &v.diet;
    out.extend_from_slice(br#","diet":{"vegan":""#);
    out.extend_from_slice(diet.vegan.as_str().as_bytes());
    out.extend_from_slice(br#"","vegetarian":""#);
    out.extend_from_slice(diet.vegetarian.as_str().as_bytes());
    out.extend_from_slice(br#"","contains_palm_oil":""#);
    out.extend_from_slice(diet.contains_palm_oil.as_str().as_bytes());
    out.extend_from_slice(br#"","because":{"vegan":"#);
    value(out, &diet.because.vegan)?;
    out.extend_from_slice(br#","vegetarian":"#);
    value(out, &diet.because.vegetarian)?;
    out.extend_from_slice(br#","contains_palm_oil":"#);
    value(out, &diet.because.contains_palm_oil)?;
    out.extend_from_slice(br#"}},"processing":"#);
    match &v.processing {
        None => out.extend_from_slice(b"null"),
        Some(p) => {
            out.extend_from_slice(br#"{"nova_group":"#);
            value(out, &p.nova_group)?;
            out.extend_from_slice(br#","markers":["#);
            for (i, m) in p.markers.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                out.extend_from_slice(br#"{"group":"#);
                value(out, &m.group)?;
                out.extend_from_slice(br#","ingredient":"#);
                value(out, &m.ingredient)?;
                out.extend_from_slice(br#","marker":"#);
                value(out, &m.marker)?;
                out.push(b'}');
            }
            out.extend_from_slice(b"]}");
        }
    }
    out.extend_from_slice(br#","additives":["#);
    for (i, a) in v.additives.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(br#"{"code":"#);
        value(out, &a.code)?;
        out.extend_from_slice(br#","name":"#);
        value(out, a.name.as_str())?;
        out.extend_from_slice(br#","function":"#);
        value(out, &a.function)?;
        out.extend_from_slice(br#","ingredient":"#);
        value(out, &a.ingredient)?;
        out.extend_from_slice(br#","concern":"#);
        value(out, &a.concern)?;
        out.push(b'}');
    }
    out.extend_from_slice(br#"],"coverage":{"items":"#);
    value(out, &v.coverage.items)?;
    out.extend_from_slice(br#","recognised":"#);
    value(out, &v.coverage.recognised)?;
    out.extend_from_slice(if v.coverage.enough_known {
        br#","enough_known":true}"#
    } else {
        br#","enough_known":false}"#
    });
    Ok(())
}

fn write_detail(out: &mut Vec<u8>, d: &IngredientDetail) -> Result {
    out.extend_from_slice(br#"{"name":"#);
    value(out, &d.name)?;
    out.extend_from_slice(br#","canonical_name":"#);
    match &d.canonical_name {
        Some(name) => value(out, name.as_str())?,
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(br#","purpose":"#);
    value(out, d.purpose.as_str())?;
    out.extend_from_slice(br#","safety_score":"#);
    value(out, &d.safety_score)?;
    out.extend_from_slice(br#","risk_level":""#);
    out.extend_from_slice(risk_level(d.risk_level).as_bytes());
    out.extend_from_slice(br#"","concerns":"#);
    value(out, d.concerns.as_str())?;
    out.extend_from_slice(br#","recommendation":""#);
    out.extend_from_slice(recommendation(d.recommendation).as_bytes());
    out.extend_from_slice(br#"","origin":""#);
    out.extend_from_slice(origin(d.origin).as_bytes());
    out.extend_from_slice(br#"","category":""#);
    out.extend_from_slice(category(d.category).as_bytes());
    out.extend_from_slice(br#"","allergy_risk":""#);
    out.extend_from_slice(allergy_risk(d.allergy_risk).as_bytes());
    out.extend_from_slice(if d.is_allergen_match {
        br#"","is_allergen_match":true,"alternatives":"#
    } else {
        br#"","is_allergen_match":false,"alternatives":"#
    });
    strings(out, &d.alternatives)?;
    out.extend_from_slice(br#","references":"#);
    strings(out, &d.references)?;
    out.extend_from_slice(br#","source":""#);
    out.extend_from_slice(source(d.source).as_bytes());
    out.extend_from_slice(br#""}"#);
    Ok(())
}

fn strings(out: &mut Vec<u8>, list: &[SharedStr]) -> Result {
    out.push(b'[');
    for (i, s) in list.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        value(out, s.as_str())?;
    }
    out.push(b']');
    Ok(())
}

/// One value, escaped and formatted by sonic-rs as inside the derived form.
fn value<T: Serialize + ?Sized>(out: &mut Vec<u8>, v: &T) -> Result {
    sonic_rs::to_writer(&mut *out, v)
}

// The enums' serde names (`rename_all` in analysis.rs); the test below checks every variant.

fn overall_risk(v: OverallRisk) -> &'static str {
    match v {
        OverallRisk::Unknown => "unknown",
        OverallRisk::Low => "low",
        OverallRisk::Medium => "medium",
        OverallRisk::High => "high",
    }
}

fn risk_level(v: RiskLevel) -> &'static str {
    match v {
        RiskLevel::Low => "low",
        RiskLevel::Medium => "medium",
        RiskLevel::High => "high",
    }
}

fn recommendation(v: Recommendation) -> &'static str {
    match v {
        Recommendation::Safe => "SAFE",
        Recommendation::Caution => "CAUTION",
        Recommendation::Avoid => "AVOID",
    }
}

fn origin(v: Origin) -> &'static str {
    match v {
        Origin::Natural => "Natural",
        Origin::Synthetic => "Synthetic",
        Origin::SemiSynthetic => "Semi-synthetic",
    }
}

fn category(v: ProductCategory) -> &'static str {
    match v {
        ProductCategory::Food => "Food",
        ProductCategory::Cosmetics => "Cosmetics",
        ProductCategory::Both => "Both",
    }
}

fn allergy_risk(v: AllergyRisk) -> &'static str {
    match v {
        AllergyRisk::High => "high",
        AllergyRisk::Low => "low",
    }
}

fn source(v: FactSource) -> &'static str {
    match v {
        FactSource::KnowledgeBase => "knowledge_base",
        FactSource::Llm => "llm",
        FactSource::Unknown => "unknown",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{AnalysisInput, Answer, Expertise, SkinType, analyze};
    use crate::knowledge::KnowledgeBase;

    fn serde_name<T: Serialize>(v: T) -> String {
        serde_json::to_value(v)
            .unwrap()
            .as_str()
            .unwrap()
            .to_owned()
    }

    #[test]
    fn enum_names_are_the_serde_names() {
        for v in [
            OverallRisk::Unknown,
            OverallRisk::Low,
            OverallRisk::Medium,
            OverallRisk::High,
        ] {
            assert_eq!(overall_risk(v), serde_name(v));
        }
        for v in [RiskLevel::Low, RiskLevel::Medium, RiskLevel::High] {
            assert_eq!(risk_level(v), serde_name(v));
        }
        for v in [
            Recommendation::Safe,
            Recommendation::Caution,
            Recommendation::Avoid,
        ] {
            assert_eq!(recommendation(v), serde_name(v));
        }
        for v in [Origin::Natural, Origin::Synthetic, Origin::SemiSynthetic] {
            assert_eq!(origin(v), serde_name(v));
        }
        for v in [
            ProductCategory::Food,
            ProductCategory::Cosmetics,
            ProductCategory::Both,
        ] {
            assert_eq!(category(v), serde_name(v));
        }
        for v in [AllergyRisk::High, AllergyRisk::Low] {
            assert_eq!(allergy_risk(v), serde_name(v));
        }
        for v in [
            FactSource::KnowledgeBase,
            FactSource::Llm,
            FactSource::Unknown,
        ] {
            assert_eq!(source(v), serde_name(v));
        }
        for v in [Answer::Yes, Answer::No, Answer::Maybe, Answer::Unknown] {
            assert_eq!(v.as_str(), serde_name(v));
        }
    }

    fn same_bytes(response: &AnalysisResponse) {
        let mut out = Vec::new();
        write_response(&mut out, response).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            serde_json::to_string(response).unwrap()
        );
    }

    #[test]
    fn the_same_bytes_as_the_derived_form() {
        // Every knowledge-base entry, in lists of 200, for each skin type and both expertise
        // levels, with allergies that match some of them.
        let kb = KnowledgeBase::embedded();
        let names: Vec<String> = kb
            .ingredients()
            .iter()
            .map(|ing| ing.name.replace(',', " "))
            .collect();
        let allergies = ["milk".to_owned(), "fragrance".to_owned(), "kiwi".to_owned()];
        for (n, chunk) in names.chunks(200).enumerate() {
            let skin = SkinType::EVERY[n % SkinType::EVERY.len()];
            for expertise in [Expertise::Beginner, Expertise::Expert] {
                let input = AnalysisInput::new(
                    Some("Chunk \"of\" names"),
                    Some(&chunk.join(", ")),
                    &allergies[..n % 4],
                    skin,
                    expertise,
                )
                .unwrap();
                same_bytes(&analyze(&input));
            }
        }
        same_bytes(&AnalysisResponse::error("bad \"input\"\n\u{1}"));
        let mut no_engine = AnalysisResponse::error("x");
        no_engine.engine = None;
        no_engine.success = true;
        same_bytes(&no_engine);
    }
}
