//! The trained model shipped with the crate: `data/mail/model.bin`, written by
//! `make classifier-model` from the labelled corpus, so start-up loads weights instead of
//! training.
//!
//! Format (little-endian): the magic `DGLM1\n`, the feature-space bits (u32), the weight scale
//! (f32), the number of features (u32), then per feature with any non-zero weight its hashed
//! index (u32) and five weights quantised to i16 (`weight = q × scale`).

use super::features::{DIM, DIM_BITS};
use super::model::Linear;

/// The shipped model file.
pub const SHIPPED: &[u8] = include_bytes!("../../data/mail/model.bin");

/// The shipped model that also reads the text's meaning vector, trained with the embedding
/// table whose stamp ([`super::embedding::Embedder::stamp`]) is [`SHIPPED_MEANING_TABLE`].
pub const SHIPPED_MEANING: &[u8] = include_bytes!("../../data/mail/model-meaning.bin");

/// The stamp of the embedding table [`SHIPPED_MEANING`] was trained with (its shape and a hash
/// of its vocabulary): another table's vectors would not mean what the weights learnt.
pub const SHIPPED_MEANING_TABLE: &str = include_str!("../../data/mail/model-meaning.table");

const MAGIC: &[u8] = b"DGLM1\n";

/// Serialises a model (weights quantised to 16 bits).
pub fn to_bytes(model: &Linear) -> Vec<u8> {
    let weights = model.weights();
    let max = weights
        .iter()
        .fold(0f32, |m, w| m.max(w.abs()))
        .max(f32::MIN_POSITIVE);
    let scale = max / f32::from(i16::MAX);
    let rows: Vec<(usize, &[f32])> = weights
        .chunks_exact(5)
        .enumerate()
        .filter(|(_, row)| row.iter().any(|w| (w / scale).round() != 0.0))
        .collect();
    let mut out = Vec::with_capacity(MAGIC.len() + 12 + rows.len() * 14);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&DIM_BITS.to_le_bytes());
    out.extend_from_slice(&scale.to_le_bytes());
    out.extend_from_slice(&(rows.len() as u32).to_le_bytes());
    for (index, row) in rows {
        out.extend_from_slice(&(index as u32).to_le_bytes());
        for w in row {
            // In range by construction of `scale`.
            out.extend_from_slice(&((w / scale).round() as i16).to_le_bytes());
        }
    }
    out
}

/// Reads a model written by [`to_bytes`].
pub fn from_bytes(bytes: &[u8]) -> Result<Linear, String> {
    let rest = bytes.strip_prefix(MAGIC).ok_or("not a DGLM1 model file")?;
    let u32_at = |b: &[u8], at: usize| -> Result<u32, String> {
        b.get(at..at + 4)
            .and_then(|s| s.try_into().ok())
            .map(u32::from_le_bytes)
            .ok_or_else(|| "model file truncated".to_owned())
    };
    if u32_at(rest, 0)? != DIM_BITS {
        return Err(format!(
            "model file for another feature space (expected {DIM_BITS} bits)"
        ));
    }
    let scale = f32::from_bits(u32_at(rest, 4)?);
    let count = u32_at(rest, 8)? as usize;
    let body = &rest[12..];
    if body.len() != count * 14 {
        return Err("model file length does not match its feature count".into());
    }
    let mut weights = vec![0f32; DIM * 5];
    for entry in body.chunks_exact(14) {
        let index = u32_at(entry, 0)? as usize;
        if index >= DIM {
            return Err(format!("feature index {index} out of range"));
        }
        for k in 0..5 {
            let q = i16::from_le_bytes([entry[4 + 2 * k], entry[5 + 2 * k]]);
            weights[index * 5 + k] = f32::from(q) * scale;
        }
    }
    Linear::from_weights(weights).ok_or_else(|| "model file has the wrong size".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_files_round_trip_and_bad_ones_are_refused() {
        let model = from_bytes(SHIPPED).unwrap();
        assert_eq!(to_bytes(&model), SHIPPED);
        assert!(from_bytes(b"").is_err());
        assert!(from_bytes(&SHIPPED[..100]).is_err());
        let mut wrong_bits = SHIPPED.to_vec();
        wrong_bits[6] ^= 1;
        assert!(from_bytes(&wrong_bits).is_err());
    }
}
