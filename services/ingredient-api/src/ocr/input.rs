//! From the request's base64 string to a decoded, upright image, with every limit checked
//! before the expensive step it protects.
//!
//! Order: size of the base64 text (before decoding it), then the decoded bytes, then the
//! image header's dimensions (before any pixel is decoded: a 10,000 × 10,000 PNG of a few KB
//! is refused without allocating 400 MB), then the decoder's own allocation limit.

use std::io::Cursor;

use base64::Engine as _;
use base64::alphabet;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader};

/// Bounds on what a request may make us decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InputLimits {
    /// Largest decoded image file, in bytes.
    pub max_bytes: usize,
    /// Largest image, in pixels (width × height).
    pub max_pixels: u64,
}

/// Why an input was refused; each becomes a 400 whose message is the `Display` text.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum InputError {
    /// The string is not base64.
    #[error("image is not valid base64: {0}")]
    InvalidBase64(String),
    /// The string decodes to nothing.
    #[error("image is empty")]
    Empty,
    /// The decoded file is over the byte limit.
    #[error("image is too large: {size} bytes decoded; the limit is {limit} bytes")]
    TooManyBytes {
        /// Decoded size.
        size: usize,
        /// The configured limit.
        limit: usize,
    },
    /// The bytes are not an image of a supported format.
    #[error("image data is not a supported image (expected JPEG, PNG, WebP, BMP, TIFF or GIF)")]
    NotAnImage,
    /// The image header announces more pixels than allowed.
    #[error("image is too large: {width}x{height} pixels; the limit is {limit} megapixels")]
    TooManyPixels {
        /// Width from the header.
        width: u32,
        /// Height from the header.
        height: u32,
        /// The configured limit, in megapixels.
        limit: f64,
    },
    /// The image is of a supported format but could not be decoded (truncated, corrupt).
    #[error("image could not be decoded: {0}")]
    Corrupt(String),
}

/// Decodes the request's `image` field: an optional `data:image/...;base64,` prefix,
/// whitespace anywhere, the standard or URL-safe alphabet, padding optional.
pub fn decode_base64(field: &str, limits: InputLimits) -> Result<Vec<u8>, InputError> {
    let mut data = field.trim();
    if let Some(rest) = data.strip_prefix("data:") {
        let (meta, payload) = rest.split_once(',').ok_or_else(|| {
            InputError::InvalidBase64("data URL without a comma before the data".into())
        })?;
        if !meta.ends_with(";base64") {
            return Err(InputError::InvalidBase64(
                "data URL is not base64-encoded (missing ';base64')".into(),
            ));
        }
        data = payload;
    }
    // The body limit bounds this copy; the decoded size is known before decoding.
    let compact: Vec<u8> = data.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    let unpadded = compact.iter().rev().skip_while(|&&b| b == b'=').count();
    let size = unpadded / 4 * 3 + (unpadded % 4 * 3) / 4;
    if size > limits.max_bytes {
        return Err(InputError::TooManyBytes {
            size,
            limit: limits.max_bytes,
        });
    }
    let url_safe = compact.iter().any(|&b| b == b'-' || b == b'_');
    let config = GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::Indifferent)
        .with_decode_allow_trailing_bits(true);
    let engine = if url_safe {
        GeneralPurpose::new(&alphabet::URL_SAFE, config)
    } else {
        GeneralPurpose::new(&alphabet::STANDARD, config)
    };
    let bytes = engine
        .decode(&compact)
        .map_err(|e| InputError::InvalidBase64(e.to_string()))?;
    if bytes.is_empty() {
        return Err(InputError::Empty);
    }
    if bytes.len() > limits.max_bytes {
        return Err(InputError::TooManyBytes {
            size: bytes.len(),
            limit: limits.max_bytes,
        });
    }
    Ok(bytes)
}

/// The formats we accept; anything else is "not an image", whatever its signature.
const ACCEPTED: [ImageFormat; 6] = [
    ImageFormat::Jpeg,
    ImageFormat::Png,
    ImageFormat::WebP,
    ImageFormat::Bmp,
    ImageFormat::Tiff,
    ImageFormat::Gif,
];

/// Decodes an image file (first frame of a GIF) and turns it upright per its EXIF
/// orientation. The pixel count is checked from the header before any pixel is decoded.
pub fn decode_image(bytes: &[u8], limits: InputLimits) -> Result<DynamicImage, InputError> {
    let reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|_| InputError::NotAnImage)?;
    match reader.format() {
        Some(format) if ACCEPTED.contains(&format) => {}
        _ => return Err(InputError::NotAnImage),
    }
    let mut decoder = reader
        .into_decoder()
        .map_err(|e| InputError::Corrupt(e.to_string()))?;
    let (width, height) = decoder.dimensions();
    if u64::from(width) * u64::from(height) > limits.max_pixels {
        return Err(InputError::TooManyPixels {
            width,
            height,
            limit: limits.max_pixels as f64 / 1e6,
        });
    }
    if width == 0 || height == 0 {
        return Err(InputError::Corrupt("the image has no pixels".into()));
    }
    let mut decoder_limits = image::Limits::default();
    // Room for the widest pixel type (RGBA 16-bit floats: 16 bytes) plus the decoder's buffers.
    decoder_limits.max_alloc = Some(limits.max_pixels.saturating_mul(16) + (64 << 20));
    decoder
        .set_limits(decoder_limits)
        .map_err(|e| InputError::Corrupt(e.to_string()))?;
    // A missing or unreadable EXIF block means "as stored".
    let orientation = decoder
        .orientation()
        .unwrap_or(image::metadata::Orientation::NoTransforms);
    let mut image =
        DynamicImage::from_decoder(decoder).map_err(|e| InputError::Corrupt(e.to_string()))?;
    image.apply_orientation(orientation);
    Ok(image)
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};

    const LIMITS: InputLimits = InputLimits {
        max_bytes: 1 << 20,
        max_pixels: 4_000_000,
    };

    fn png(width: u32, height: u32) -> Vec<u8> {
        let mut out = Vec::new();
        DynamicImage::new_rgb8(width, height)
            .write_to(&mut Cursor::new(&mut out), ImageFormat::Png)
            .unwrap();
        out
    }

    #[test]
    fn base64_variants_decode_to_the_same_bytes() {
        let bytes: Vec<u8> = (0..=255).collect();
        let standard = STANDARD.encode(&bytes);
        let wrapped: String = standard
            .as_bytes()
            .chunks(76)
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect::<Vec<_>>()
            .join("\r\n");
        for input in [
            standard.clone(),
            format!("data:image/png;base64,{standard}"),
            format!("  {wrapped}\n"),
            standard.trim_end_matches('=').to_owned(),
            URL_SAFE_NO_PAD.encode(&bytes),
        ] {
            assert_eq!(decode_base64(&input, LIMITS).unwrap(), bytes, "{input}");
        }
    }

    #[test]
    fn invalid_base64_is_named() {
        let err = decode_base64("not base64!", LIMITS).unwrap_err();
        assert!(matches!(err, InputError::InvalidBase64(_)), "{err}");
        assert!(err.to_string().starts_with("image is not valid base64: "));
        assert_eq!(
            decode_base64("data:image/png,abcd", LIMITS).unwrap_err(),
            InputError::InvalidBase64("data URL is not base64-encoded (missing ';base64')".into())
        );
        assert_eq!(
            decode_base64("data:image/png;base64, ", LIMITS),
            Err(InputError::Empty)
        );
    }

    #[test]
    fn too_many_bytes_is_refused_before_decoding() {
        let limits = InputLimits {
            max_bytes: 300,
            ..LIMITS
        };
        let big = STANDARD.encode(vec![0u8; 301]);
        assert!(matches!(
            decode_base64(&big, limits),
            Err(InputError::TooManyBytes {
                size: 301,
                limit: 300
            })
        ));
        let huge = "A".repeat(100_000);
        assert_eq!(
            decode_base64(&huge, limits),
            Err(InputError::TooManyBytes {
                size: 75_000,
                limit: 300
            })
        );
        // Exactly at the limit, with and without padding.
        let at_limit = STANDARD.encode(vec![7u8; 299]);
        assert_eq!(decode_base64(&at_limit, limits).unwrap().len(), 299);
        assert_eq!(
            decode_base64(at_limit.trim_end_matches('='), limits)
                .unwrap()
                .len(),
            299
        );
    }

    #[test]
    fn non_images_are_refused() {
        for bytes in [
            b"hello world, not an image".to_vec(),
            b"/etc/passwd\n".to_vec(),
            b"%PDF-1.4".to_vec(),
        ] {
            assert_eq!(
                decode_image(&bytes, LIMITS).unwrap_err(),
                InputError::NotAnImage
            );
        }
    }

    #[test]
    fn truncated_images_are_corrupt() {
        let mut bytes = png(20, 20);
        bytes.truncate(bytes.len() / 2);
        assert!(matches!(
            decode_image(&bytes, LIMITS),
            Err(InputError::Corrupt(_))
        ));
    }

    #[test]
    fn exif_orientation_is_applied() {
        let mut jpeg = Vec::new();
        DynamicImage::new_rgb8(8, 6)
            .write_to(&mut Cursor::new(&mut jpeg), ImageFormat::Jpeg)
            .unwrap();
        // APP1 Exif, big-endian TIFF, one IFD entry: Orientation (0x0112) = 6 (rotate 90° CW).
        let tiff: &[u8] = &[
            b'M', b'M', 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0,
            0,
        ];
        let mut app1 = b"Exif\0\0".to_vec();
        app1.extend_from_slice(tiff);
        let mut segment = vec![0xFF, 0xE1];
        segment.extend_from_slice(&((app1.len() + 2) as u16).to_be_bytes());
        segment.extend_from_slice(&app1);
        jpeg.splice(2..2, segment);
        let decoded = decode_image(&jpeg, LIMITS).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (6, 8));
    }

    #[test]
    fn a_decompression_bomb_is_refused_from_its_header() {
        let bytes = test_support::images::bomb_png(10_000, 10_000);
        assert!(bytes.len() < 100, "{}", bytes.len());
        let started = std::time::Instant::now();
        let err = decode_image(&bytes, LIMITS).unwrap_err();
        assert_eq!(
            err.to_string(),
            "image is too large: 10000x10000 pixels; the limit is 4 megapixels"
        );
        // No pixel decoded: far below the time a 100 MP decode takes.
        assert!(started.elapsed().as_secs() < 5);
    }

    #[test]
    fn every_accepted_format_decodes() {
        let image = DynamicImage::new_rgb8(8, 6);
        for format in ACCEPTED {
            let mut bytes = Vec::new();
            let source = if format == ImageFormat::Jpeg || format == ImageFormat::WebP {
                DynamicImage::ImageRgb8(image.to_rgb8())
            } else {
                image.clone()
            };
            if source
                .write_to(&mut Cursor::new(&mut bytes), format)
                .is_err()
            {
                continue; // no encoder for this format in our feature set
            }
            let decoded = decode_image(&bytes, LIMITS).unwrap();
            assert_eq!((decoded.width(), decoded.height()), (8, 6), "{format:?}");
        }
    }
}
