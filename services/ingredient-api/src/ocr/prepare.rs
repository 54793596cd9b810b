//! Image preparation before Tesseract: only the steps that measured better (docs/ocr.md).
//!
//! - **Scale** so that text lines are about 40 px high: small print is upscaled (Tesseract
//!   misses text under ~20 px), huge phone photos are downscaled (same accuracy, faster).
//!   The line height comes from the horizontal ink profile.
//! - **Deskew** rotations up to ±6°: the angle whose horizontal ink profile is sharpest
//!   (projection-profile search on a small binarised copy), then a bilinear rotation of the
//!   colour image.
//!
//! No grayscale conversion or binarisation of the image sent to Tesseract: both hurt on
//! uneven lighting (shared NOTES); its own Otsu step does better on colour input.

use std::io::Cursor;

use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::imageops::FilterType as ResizeFilter;
use image::{DynamicImage, GrayImage, ImageEncoder, Rgb, RgbImage};

/// Which preparation steps run (all on by default; switches exist to measure them).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrepareOptions {
    /// Rescale so that text lines are about `target_line_px` high.
    pub rescale: bool,
    /// Correct small rotations.
    pub deskew: bool,
    /// Wanted text line height in pixels.
    pub target_line_px: f32,
    /// Largest image sent to Tesseract, in pixels.
    pub max_pixels: u64,
}

impl Default for PrepareOptions {
    fn default() -> Self {
        Self {
            rescale: true,
            deskew: true,
            target_line_px: 32.0,
            max_pixels: 12_000_000,
        }
    }
}

/// What [`prepare`] did, for logs and measurements.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Preparation {
    /// Scale factor applied.
    pub scale: f32,
    /// Rotation found (and undone), in degrees, in [`rotate`]'s sense.
    pub skew_degrees: f32,
    /// Estimated text line height in the original image, in pixels.
    pub line_px: f32,
}

/// A prepared image, encoded as PNG for Tesseract's stdin.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The PNG file.
    pub png: Vec<u8>,
    /// What was done.
    pub preparation: Preparation,
}

/// Longest side of the copy used for measuring (line height, skew).
const ANALYSIS_SIDE: u32 = 1200;

/// Prepares a decoded image and encodes it as PNG.
pub fn prepare(
    image: &DynamicImage,
    options: PrepareOptions,
) -> Result<Prepared, image::ImageError> {
    let mut rgb = flatten(image);
    let (width, height) = rgb.dimensions();
    let analysis_scale = (ANALYSIS_SIDE as f32 / width.max(height) as f32).min(1.0);
    let small = if analysis_scale < 1.0 {
        image::imageops::resize(
            &rgb,
            ((width as f32 * analysis_scale).round() as u32).max(1),
            ((height as f32 * analysis_scale).round() as u32).max(1),
            ResizeFilter::Triangle,
        )
    } else {
        rgb.clone()
    };
    let mut small = small;
    let mut ink = ink_mask(&small);
    let mut preparation = Preparation {
        scale: 1.0,
        ..Preparation::default()
    };
    if options.deskew {
        let angle = skew_angle(&ink);
        if angle.abs() >= 0.4 {
            rgb = rotate(&rgb, -angle);
            // Line heights are measured on the straightened text.
            small = rotate(&small, -angle);
            ink = ink_mask(&small);
            preparation.skew_degrees = angle;
        }
    }
    if options.rescale
        && let Some(line) = line_height(&ink)
    {
        let line_px = line / analysis_scale;
        preparation.line_px = line_px;
        let mut scale = (options.target_line_px / line_px).clamp(0.33, 3.0);
        // Small changes cost time and gain nothing.
        if (0.75..=1.34).contains(&scale) {
            scale = 1.0;
        }
        let (w, h) = rgb.dimensions();
        let pixels = f64::from(w) * f64::from(h) * f64::from(scale * scale);
        if pixels > options.max_pixels as f64 {
            scale *= (options.max_pixels as f64 / pixels).sqrt() as f32;
        }
        if (scale - 1.0).abs() > 0.01 {
            let nw = ((w as f32 * scale).round() as u32).max(1);
            let nh = ((h as f32 * scale).round() as u32).max(1);
            let filter = if scale > 1.0 {
                ResizeFilter::CatmullRom
            } else {
                ResizeFilter::Triangle
            };
            rgb = image::imageops::resize(&rgb, nw, nh, filter);
            preparation.scale = scale;
        }
    }
    Ok(Prepared {
        png: encode_png(&rgb)?,
        preparation,
    })
}

/// Encodes quickly: Tesseract reads it once, size hardly matters on a pipe.
pub fn encode_png(rgb: &RgbImage) -> Result<Vec<u8>, image::ImageError> {
    let mut out = Vec::new();
    PngEncoder::new_with_quality(
        Cursor::new(&mut out),
        CompressionType::Fast,
        FilterType::NoFilter,
    )
    .write_image(
        rgb.as_raw(),
        rgb.width(),
        rgb.height(),
        image::ExtendedColorType::Rgb8,
    )?;
    Ok(out)
}

/// RGB with any transparency laid over white (labels are dark on light).
fn flatten(image: &DynamicImage) -> RgbImage {
    if !image.color().has_alpha() {
        return image.to_rgb8();
    }
    let rgba = image.to_rgba8();
    let mut out = RgbImage::new(rgba.width(), rgba.height());
    for (o, p) in out.pixels_mut().zip(rgba.pixels()) {
        let a = u32::from(p[3]);
        let blend = |c: u8| ((u32::from(c) * a + 255 * (255 - a)) / 255) as u8;
        *o = Rgb([blend(p[0]), blend(p[1]), blend(p[2])]);
    }
    out
}

/// Dark-on-light ink pixels (255) found with a local threshold (uneven light would defeat a
/// global one). Light text on a dark background is inverted first.
fn ink_mask(rgb: &RgbImage) -> GrayImage {
    let gray = DynamicImage::ImageRgb8(rgb.clone()).to_luma8();
    let (w, h) = gray.dimensions();
    // Background estimate: a heavy blur (box of ~1/16 of the image).
    let radius = (w.max(h) / 32).max(8);
    let background = box_mean(&gray, radius);
    let mean: u64 = gray.pixels().map(|p| u64::from(p[0])).sum::<u64>() / u64::from((w * h).max(1));
    let inverted = mean < 100;
    let mut mask = GrayImage::new(w, h);
    for ((m, g), b) in mask
        .pixels_mut()
        .zip(gray.pixels())
        .zip(background.pixels())
    {
        let (g, b) = if inverted {
            (255 - i32::from(g[0]), 255 - i32::from(b[0]))
        } else {
            (i32::from(g[0]), i32::from(b[0]))
        };
        // Ink is clearly darker than its surroundings.
        m[0] = if g < b - 60 { 255 } else { 0 };
    }
    mask
}

/// Mean of the `(2r+1)²` window around each pixel, from an integral image (O(pixels)).
fn box_mean(gray: &GrayImage, radius: u32) -> GrayImage {
    let (w, h) = (gray.width() as usize, gray.height() as usize);
    let mut integral = vec![0u64; (w + 1) * (h + 1)];
    for y in 0..h {
        let mut row = 0u64;
        for x in 0..w {
            row += u64::from(gray.as_raw()[y * w + x]);
            integral[(y + 1) * (w + 1) + x + 1] = integral[y * (w + 1) + x + 1] + row;
        }
    }
    let r = radius as usize;
    GrayImage::from_fn(w as u32, h as u32, |x, y| {
        let (x, y) = (x as usize, y as usize);
        let (x0, y0) = (x.saturating_sub(r), y.saturating_sub(r));
        let (x1, y1) = ((x + r + 1).min(w), (y + r + 1).min(h));
        let sum = integral[y1 * (w + 1) + x1] + integral[y0 * (w + 1) + x0]
            - integral[y0 * (w + 1) + x1]
            - integral[y1 * (w + 1) + x0];
        let area = ((x1 - x0) * (y1 - y0)) as u64;
        image::Luma([(sum / area.max(1)) as u8])
    })
}

/// Sharpness of the horizontal ink profile when the text is sheared by `angle` degrees.
fn profile_score(points: &[(f32, f32)], angle: f32, height: usize) -> f64 {
    let tan = angle.to_radians().tan();
    let margin = height / 2;
    let mut bins = vec![0u32; height + 2 * margin];
    for &(x, y) in points {
        let row = (y - x * tan).round() as isize + margin as isize;
        if let Some(bin) = usize::try_from(row).ok().and_then(|r| bins.get_mut(r)) {
            *bin += 1;
        }
    }
    bins.windows(2)
        .map(|w| {
            let d = f64::from(w[1]) - f64::from(w[0]);
            d * d
        })
        .sum()
}

/// The text's rotation in degrees, in [`rotate`]'s sense, searched over ±6°.
fn skew_angle(ink: &GrayImage) -> f32 {
    let points: Vec<(f32, f32)> = ink
        .enumerate_pixels()
        .filter(|(_, _, p)| p[0] > 0)
        .map(|(x, y, _)| (x as f32, y as f32))
        .collect();
    if points.len() < 200 {
        return 0.0;
    }
    let height = ink.height() as usize;
    let search = |from: f32, to: f32, step: f32| {
        let mut best = (0.0f32, f64::MIN);
        let mut angle = from;
        while angle <= to + 1e-3 {
            let score = profile_score(&points, angle, height);
            if score > best.1 {
                best = (angle, score);
            }
            angle += step;
        }
        best
    };
    let (coarse, coarse_score) = search(-6.0, 6.0, 0.5);
    let (fine, _) = search(coarse - 0.5, coarse + 0.5, 0.1);
    // A flat profile everywhere (no text lines) gives no angle worth acting on.
    if coarse_score <= profile_score(&points, 0.0, height) * 1.02 {
        return 0.0;
    }
    -fine
}

/// Rotates by `degrees` (clockwise on screen for positive) about the centre, bilinear,
/// white fill.
fn rotate(rgb: &RgbImage, degrees: f32) -> RgbImage {
    let (w, h) = rgb.dimensions();
    let (sin, cos) = degrees.to_radians().sin_cos();
    let (cx, cy) = (w as f32 / 2.0, h as f32 / 2.0);
    let mut out = RgbImage::from_pixel(w, h, Rgb([255, 255, 255]));
    let raw = rgb.as_raw();
    let stride = w as usize * 3;
    for y in 0..h {
        let dy = y as f32 - cy;
        for x in 0..w {
            let dx = x as f32 - cx;
            // Inverse mapping: where in the source does this output pixel come from.
            let sx = cos * dx - sin * dy + cx;
            let sy = sin * dx + cos * dy + cy;
            if sx < 0.0 || sy < 0.0 || sx >= (w - 1) as f32 || sy >= (h - 1) as f32 {
                continue;
            }
            let (x0, y0) = (sx as usize, sy as usize);
            let (fx, fy) = (sx - x0 as f32, sy - y0 as f32);
            let i00 = y0 * stride + x0 * 3;
            let i10 = i00 + 3;
            let i01 = i00 + stride;
            let i11 = i01 + 3;
            let mut px = [0u8; 3];
            for (c, v) in px.iter_mut().enumerate() {
                let top = f32::from(raw[i00 + c]) * (1.0 - fx) + f32::from(raw[i10 + c]) * fx;
                let bottom = f32::from(raw[i01 + c]) * (1.0 - fx) + f32::from(raw[i11 + c]) * fx;
                *v = (top * (1.0 - fy) + bottom * fy).round() as u8;
            }
            out.put_pixel(x, y, Rgb(px));
        }
    }
    out
}

/// Median height of the runs of rows that carry ink (text lines), in pixels.
fn line_height(ink: &GrayImage) -> Option<f32> {
    let (w, h) = ink.dimensions();
    let rows: Vec<u32> = (0..h)
        .map(|y| (0..w).filter(|&x| ink.get_pixel(x, y)[0] > 0).count() as u32)
        .collect();
    let max = rows.iter().copied().max()?;
    if max == 0 {
        return None;
    }
    // A row belongs to a line when it carries a fair share of the busiest row's ink above
    // the noise floor (the emptiest quarter of rows: gaps between lines).
    let mut sorted = rows.clone();
    sorted.sort_unstable();
    let floor = sorted[sorted.len() / 4];
    let threshold = floor + ((max - floor) / 8).max(1);
    let mut runs = Vec::new();
    let mut run = 0u32;
    for &count in rows.iter().chain(std::iter::once(&0)) {
        if count >= threshold {
            run += 1;
        } else if run > 0 {
            if run >= 3 {
                runs.push(run);
            }
            run = 0;
        }
    }
    if runs.is_empty() {
        return None;
    }
    runs.sort_unstable();
    Some(runs[runs.len() / 2] as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Dark horizontal bars standing in for text lines, `line` px high every `2 * line` px.
    fn bars(width: u32, height: u32, line: u32) -> RgbImage {
        RgbImage::from_fn(width, height, |x, y| {
            let in_line = (y / line) % 2 == 1 && y > line && y < height - line;
            let in_word = (x / (line * 3)) % 4 != 3 && x > 20 && x < width - 20;
            if in_line && in_word {
                Rgb([20, 20, 20])
            } else {
                Rgb([250, 250, 245])
            }
        })
    }

    #[test]
    fn line_height_is_measured() {
        let ink = ink_mask(&bars(600, 400, 12));
        let line = line_height(&ink).unwrap();
        assert!((11.0..=13.0).contains(&line), "{line}");
    }

    #[test]
    fn small_text_is_upscaled_and_big_text_downscaled() {
        let small = DynamicImage::ImageRgb8(bars(400, 300, 10));
        let prepared = prepare(&small, PrepareOptions::default()).unwrap();
        assert!(
            prepared.preparation.scale > 2.0,
            "{:?}",
            prepared.preparation
        );
        let big = DynamicImage::ImageRgb8(bars(900, 700, 100));
        let prepared = prepare(&big, PrepareOptions::default()).unwrap();
        assert!(
            prepared.preparation.scale < 0.5,
            "{:?}",
            prepared.preparation
        );
    }

    #[test]
    fn a_rotation_is_found_and_undone() {
        let straight = bars(500, 400, 8);
        for degrees in [-4.0f32, -2.5, 3.0, 5.0] {
            let rotated = rotate(&straight, degrees);
            let angle = skew_angle(&ink_mask(&rotated));
            assert!(
                (angle - degrees).abs() < 0.35,
                "rotated {degrees}, found {angle}"
            );
        }
        assert_eq!(skew_angle(&ink_mask(&straight)), 0.0);
    }

    #[test]
    fn blank_images_are_left_alone() {
        let blank = DynamicImage::ImageRgb8(RgbImage::from_pixel(50, 40, Rgb([255, 255, 255])));
        let prepared = prepare(&blank, PrepareOptions::default()).unwrap();
        assert_eq!(prepared.preparation.scale, 1.0);
        assert_eq!(prepared.preparation.skew_degrees, 0.0);
        assert!(prepared.png.starts_with(b"\x89PNG"));
    }
}
