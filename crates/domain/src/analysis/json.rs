//! The `/analyze` response as JSON bytes, written in one pass into a buffer sized up front.
//!
//! The output is byte for byte what `serde_json::to_vec` makes of the derived `Serialize`
//! impls (the tests compare both on many responses), only cheaper: a 40-ingredient answer is
//! ~36 KB of mostly plain text, and serde_json escapes strings one byte at a time (about 15 %
//! of the CPU time of `POST /analyze` in perf). Here a string that needs no escaping (no `"`,
//! `\` or control character, which is nearly every one) is checked with a loop the compiler
//! vectorises and copied as is; any other string, and every number and enum, goes through
//! serde_json itself, so the two can only differ in field order, which the tests pin.

use serde::Serialize;

use super::{AnalysisResponse, IngredientDetail};

impl AnalysisResponse {
    /// The JSON of `self`, identical to `serde_json::to_vec(self)`.
    pub fn to_json(&self) -> serde_json::Result<Vec<u8>> {
        let mut out = Vec::with_capacity(self.json_size_hint());
        out.extend_from_slice(b"{\"success\":");
        out.extend_from_slice(if self.success { b"true" } else { b"false" });
        out.extend_from_slice(b",\"product_name\":");
        string(&mut out, &self.product_name)?;
        out.extend_from_slice(b",\"overall_risk\":");
        value(&mut out, &self.overall_risk)?;
        out.extend_from_slice(b",\"average_safety_score\":");
        value(&mut out, &self.average_safety_score)?;
        out.extend_from_slice(b",\"summary\":");
        string(&mut out, &self.summary)?;
        out.extend_from_slice(b",\"allergen_warnings\":");
        strings(&mut out, &self.allergen_warnings)?;
        out.extend_from_slice(b",\"ingredients\":[");
        for (i, detail) in self.ingredients.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            detail.write_json(&mut out)?;
        }
        out.extend_from_slice(b"],\"execution_time\":");
        value(&mut out, &self.execution_time)?;
        out.extend_from_slice(b",\"error\":");
        optional(&mut out, self.error.as_deref())?;
        if let Some(engine) = &self.engine {
            out.extend_from_slice(b",\"engine\":");
            string(&mut out, engine)?;
        }
        out.push(b'}');
        Ok(out)
    }

    /// An upper bound of the JSON's length unless strings need escaping: the text plus a
    /// generous allowance for keys and punctuation.
    fn json_size_hint(&self) -> usize {
        let text = |v: &[String]| v.iter().map(|s| s.len() + 3).sum::<usize>();
        let details: usize = self
            .ingredients
            .iter()
            .map(|d| {
                d.name.len()
                    + d.canonical_name.as_ref().map_or(0, String::len)
                    + d.purpose.len()
                    + d.concerns.len()
                    + text(&d.alternatives)
                    + text(&d.references)
                    + 320
            })
            .sum();
        let error = self.error.as_ref().map_or(0, String::len);
        let engine = self.engine.as_ref().map_or(0, String::len);
        256 + self.product_name.len()
            + self.summary.len()
            + text(&self.allergen_warnings)
            + details
            + error
            + engine
    }
}

impl IngredientDetail {
    fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        out.extend_from_slice(b"{\"name\":");
        string(out, &self.name)?;
        out.extend_from_slice(b",\"canonical_name\":");
        optional(out, self.canonical_name.as_deref())?;
        out.extend_from_slice(b",\"purpose\":");
        string(out, &self.purpose)?;
        out.extend_from_slice(b",\"safety_score\":");
        value(out, &self.safety_score)?;
        out.extend_from_slice(b",\"risk_level\":");
        value(out, &self.risk_level)?;
        out.extend_from_slice(b",\"concerns\":");
        string(out, &self.concerns)?;
        out.extend_from_slice(b",\"recommendation\":");
        value(out, &self.recommendation)?;
        out.extend_from_slice(b",\"origin\":");
        value(out, &self.origin)?;
        out.extend_from_slice(b",\"category\":");
        value(out, &self.category)?;
        out.extend_from_slice(b",\"allergy_risk\":");
        value(out, &self.allergy_risk)?;
        out.extend_from_slice(b",\"is_allergen_match\":");
        out.extend_from_slice(if self.is_allergen_match {
            b"true"
        } else {
            b"false"
        });
        out.extend_from_slice(b",\"alternatives\":");
        strings(out, &self.alternatives)?;
        out.extend_from_slice(b",\"references\":");
        strings(out, &self.references)?;
        out.extend_from_slice(b",\"source\":");
        value(out, &self.source)?;
        out.push(b'}');
        Ok(())
    }
}

/// Whether serde_json would escape any byte of `s`: `"`, `\` and the controls below 0x20.
/// No early exit, so that the loop compiles to vector instructions.
fn needs_escape(s: &str) -> bool {
    s.as_bytes().iter().fold(false, |any, &b| {
        any | (b < 0x20) | (b == b'"') | (b == b'\\')
    })
}

fn string(out: &mut Vec<u8>, s: &str) -> serde_json::Result<()> {
    if needs_escape(s) {
        return serde_json::to_writer(&mut *out, s);
    }
    out.push(b'"');
    out.extend_from_slice(s.as_bytes());
    out.push(b'"');
    Ok(())
}

fn optional(out: &mut Vec<u8>, s: Option<&str>) -> serde_json::Result<()> {
    match s {
        Some(s) => string(out, s),
        None => {
            out.extend_from_slice(b"null");
            Ok(())
        }
    }
}

fn strings(out: &mut Vec<u8>, items: &[String]) -> serde_json::Result<()> {
    out.push(b'[');
    for (i, s) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        string(out, s)?;
    }
    out.push(b']');
    Ok(())
}

/// Numbers and enums: serde_json's own formatting (ryu for floats, `null` for NaN).
fn value<T: Serialize>(out: &mut Vec<u8>, v: &T) -> serde_json::Result<()> {
    serde_json::to_writer(&mut *out, v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{AnalysisInput, Expertise, SkinType, analyze};
    use proptest::prelude::*;

    fn same_as_serde(response: &AnalysisResponse) {
        let ours = response.to_json().unwrap();
        let theirs = serde_json::to_vec(response).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&ours),
            String::from_utf8_lossy(&theirs)
        );
    }

    fn analysed(list: &str, allergies: &[&str]) -> AnalysisResponse {
        let allergies: Vec<String> = allergies.iter().map(|a| (*a).to_owned()).collect();
        let input = AnalysisInput::new(
            Some("Bench \"cream\"\t<b>"),
            Some(list),
            &allergies,
            SkinType::Sensitive,
            Expertise::Expert,
        )
        .unwrap();
        analyze(&input)
    }

    #[test]
    fn analyses_serialise_exactly_like_serde_json() {
        for (list, allergies) in [
            (
                "Aqua/Water/Eau, Glycerin, Parfum, Linalool, Methylparaben, Formaldehyde",
                &["fragrance"][..],
            ),
            (
                "Sugar, chocolate (sugar, cocoa butter, milk powder), Hazelnuts 5%, Salt. \
                 May contain peanuts.",
                &["Milk/Dairy", "Tree Nut", "peanut"][..],
            ),
            (
                "Wasser, Glycerin, 香料, \"quoted\\name\", tab\there, 물",
                &[][..],
            ),
        ] {
            same_as_serde(&analysed(list, allergies));
        }
        same_as_serde(&AnalysisResponse::error("bad \"input\"\n"));
        let mut odd = analysed("Glycerin", &[]);
        odd.average_safety_score = f64::NAN;
        odd.execution_time = 1.5e-7;
        odd.engine = None;
        same_as_serde(&odd);
    }

    proptest! {
        #[test]
        fn any_text_serialises_exactly_like_serde_json(
            name in "\\PC{0,20}|[\"\\\\\u{0}-\u{1f}\u{7f}a]{0,8}",
            extra in proptest::collection::vec(any::<String>(), 0..4),
        ) {
            let mut response = analysed("Glycerin, Parfum", &["fragrance"]);
            response.product_name = name.clone();
            response.summary = extra.concat();
            response.allergen_warnings = extra.clone();
            if let Some(d) = response.ingredients.first_mut() {
                d.name = name.clone();
                d.canonical_name = Some(extra.join("\u{1}"));
                d.references = extra.clone();
                d.concerns = format!("{name}\"{name}");
            }
            let ours = response.to_json().unwrap();
            let theirs = serde_json::to_vec(&response).unwrap();
            prop_assert_eq!(ours, theirs);
        }
    }
}
