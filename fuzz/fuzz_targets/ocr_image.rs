//! `/ocr` before Tesseract: the request's base64 text → bytes → decoded upright image →
//! the prepared PNG (rescale, deskew). The input is tried both as image bytes (most of the
//! decoders' input space) and as the request's base64 field.
#![no_main]

use ingredient_api::ocr::input::{InputLimits, decode_base64, decode_image};
use ingredient_api::ocr::prepare::{PrepareOptions, prepare};
use libfuzzer_sys::fuzz_target;

/// Small limits keep each run fast; the checks are the same code as with the defaults.
const LIMITS: InputLimits = InputLimits {
    max_bytes: 1 << 20,
    max_pixels: 262_144,
};

fn decode_and_prepare(bytes: &[u8]) {
    if let Ok(image) = decode_image(bytes, LIMITS) {
        assert!(u64::from(image.width()) * u64::from(image.height()) <= LIMITS.max_pixels);
        let options = PrepareOptions {
            max_pixels: 1_000_000,
            ..PrepareOptions::default()
        };
        let _ = prepare(&image, options);
    }
}

fuzz_target!(|data: &[u8]| {
    decode_and_prepare(data);
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok(bytes) = decode_base64(text, LIMITS)
    {
        assert!(!bytes.is_empty() && bytes.len() <= LIMITS.max_bytes);
        decode_and_prepare(&bytes);
    }
});
