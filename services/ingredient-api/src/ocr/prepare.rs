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
    /// Median-filter speckled (noisy) photos.
    pub denoise: bool,
    /// Stack side-by-side text columns on top of each other.
    pub columns: bool,
    /// Wanted text line height in pixels for the first reading (Latin script: the ink band
    /// is about the x-height).
    pub target_line_px: f32,
    /// Wanted text line height for Korean, Japanese and Chinese (the ink band is the whole
    /// character height), used once the first reading found no Latin text
    /// ([`Prepared::for_line_px`]).
    pub cjk_line_px: f32,
    /// Largest upscaling factor.
    pub max_upscale: f32,
    /// Largest image sent to Tesseract, in pixels.
    pub max_pixels: u64,
}

impl Default for PrepareOptions {
    fn default() -> Self {
        Self {
            rescale: true,
            deskew: true,
            denoise: true,
            columns: true,
            target_line_px: 26.0,
            cjk_line_px: 32.0,
            max_upscale: 3.0,
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
    /// Whether the median filter ran.
    pub denoised: bool,
    /// Number of text columns found (1, or 2 when they were stacked).
    pub columns: u8,
    /// Whether the background is much darker in one part of the image than in another
    /// (light falling off across the label): see [`uneven_light`].
    pub uneven_light: bool,
}

/// A prepared image, encoded as PNG for Tesseract's stdin.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The PNG file, rescaled to [`PrepareOptions::target_line_px`].
    pub png: Vec<u8>,
    /// What was done.
    pub preparation: Preparation,
    /// The straightened image before rescaling, to rescale it for another script.
    pub unscaled: Unscaled,
}

/// The straightened image before rescaling, with what was measured on it; cheap to clone
/// (shared), so a blocking task can own a copy. When the CJK line height means shrinking a
/// big photo, the shrunk copy is kept instead of the photo (memory while Tesseract runs);
/// with no text line measured, nothing is kept.
#[derive(Debug, Clone)]
pub struct Unscaled {
    straight: std::sync::Arc<RgbImage>,
    /// Scale of `straight` relative to the straightened image (1, or below 1 when shrunk).
    straight_scale: f32,
    preparation: Preparation,
    options: PrepareOptions,
}

impl Unscaled {
    /// The options the image was prepared with.
    pub fn options(&self) -> PrepareOptions {
        self.options
    }

    /// The image rescaled so that its text lines are `line_px` high, as PNG, when that
    /// changes the scale of [`Prepared::png`] (`None`: that one is it already, or no text
    /// line was measured).
    pub fn png_for_line_px(&self, line_px: f32) -> Result<Option<Vec<u8>>, image::ImageError> {
        if !self.options.rescale || self.preparation.line_px <= 0.0 {
            return Ok(None);
        }
        let options = PrepareOptions {
            target_line_px: line_px,
            ..self.options
        };
        let kept_line_px = self.preparation.line_px * self.straight_scale;
        let (rgb, scale) = match rescale(&self.straight, kept_line_px, options) {
            Some((rgb, scale)) => (Some(rgb), scale * self.straight_scale),
            None => (None, self.straight_scale),
        };
        // The same scale as `png`: nothing new.
        if (scale - self.preparation.scale).abs() < 0.01 {
            return Ok(None);
        }
        encode_png(rgb.as_ref().unwrap_or(&self.straight)).map(Some)
    }
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
        uneven_light: uneven_light(&small),
        ..Preparation::default()
    };
    // A 3 × 3 median would erase strokes of small print: only where lines are 12 px or more.
    let big_enough = line_height(&ink).is_some_and(|l| l / analysis_scale >= 12.0);
    if options.denoise && big_enough && speckle_ratio(&ink) > SPECKLED {
        rgb = median3(&rgb);
        small = median3(&small);
        ink = ink_mask(&small);
        preparation.denoised = true;
    }
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
    if options.columns
        && let Some(split) = column_gap(&ink)
    {
        let at = ((split as f32 / analysis_scale).round() as u32).min(rgb.width());
        rgb = stack_columns(&rgb, at);
        let small_at = split.min(small.width());
        small = stack_columns(&small, small_at);
        ink = ink_mask(&small);
        preparation.columns = 2;
    }
    let straight = std::sync::Arc::new(rgb);
    let mut png = None;
    if options.rescale
        && let Some(line) = line_height(&ink)
    {
        let line_px = line / analysis_scale;
        preparation.line_px = line_px;
        if let Some((scaled, scale)) = rescale(&straight, line_px, options) {
            png = Some(encode_png(&scaled)?);
            preparation.scale = scale;
        }
    }
    let png = match png {
        Some(png) => png,
        None => encode_png(&straight)?,
    };
    let cjk = PrepareOptions {
        target_line_px: options.cjk_line_px,
        ..options
    };
    let (straight, straight_scale) = if preparation.line_px <= 0.0 {
        (std::sync::Arc::new(RgbImage::new(0, 0)), 1.0)
    } else {
        match rescale(&straight, preparation.line_px, cjk) {
            Some((shrunk, scale)) if scale < 1.0 => (std::sync::Arc::new(shrunk), scale),
            _ => (straight, 1.0),
        }
    };
    Ok(Prepared {
        png,
        preparation,
        unscaled: Unscaled {
            straight,
            straight_scale,
            preparation,
            options,
        },
    })
}

/// `rgb` scaled so that lines of `line_px` become `options.target_line_px` high (within the
/// upscaling and pixel limits), and the scale; `None` when the scale would be 1 (changes
/// under about a third are skipped).
fn rescale(rgb: &RgbImage, line_px: f32, options: PrepareOptions) -> Option<(RgbImage, f32)> {
    let mut scale = (options.target_line_px / line_px).clamp(0.33, options.max_upscale.max(1.0));
    // Small changes cost time and gain nothing.
    if (0.75..=1.34).contains(&scale) {
        scale = 1.0;
    }
    let (w, h) = rgb.dimensions();
    let pixels = f64::from(w) * f64::from(h) * f64::from(scale * scale);
    if pixels > options.max_pixels as f64 {
        scale *= (options.max_pixels as f64 / pixels).sqrt() as f32;
    }
    if (scale - 1.0).abs() <= 0.01 {
        return None;
    }
    let nw = ((w as f32 * scale).round() as u32).max(1);
    let nh = ((h as f32 * scale).round() as u32).max(1);
    let filter = if scale > 1.0 {
        ResizeFilter::CatmullRom
    } else {
        ResizeFilter::Triangle
    };
    Some((image::imageops::resize(rgb, nw, nh, filter), scale))
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

/// Ratio of the brightest to the darkest background tile above which light is uneven.
const UNEVEN_LIGHT: f32 = 1.5;

/// Whether the background (the 90th percentile of luma in each of 4 × 4 tiles: text covers
/// less than a tenth of a tile) is over [`UNEVEN_LIGHT`] times brighter in one tile than in
/// another. Tesseract's global Otsu threshold loses the text in the dark part then.
pub fn uneven_light(rgb: &RgbImage) -> bool {
    const TILES: u32 = 4;
    let (w, h) = rgb.dimensions();
    if w < TILES * 8 || h < TILES * 8 {
        return false;
    }
    let mut backgrounds = Vec::with_capacity((TILES * TILES) as usize);
    for ty in 0..TILES {
        for tx in 0..TILES {
            let mut histogram = [0u32; 256];
            let mut count = 0u32;
            for y in (ty * h / TILES..(ty + 1) * h / TILES).step_by(2) {
                for x in (tx * w / TILES..(tx + 1) * w / TILES).step_by(2) {
                    let [r, g, b] = rgb.get_pixel(x, y).0;
                    let luma =
                        (u32::from(r) * 299 + u32::from(g) * 587 + u32::from(b) * 114) / 1000;
                    histogram[luma.min(255) as usize] += 1;
                    count += 1;
                }
            }
            let mut seen = 0;
            let percentile = histogram.iter().position(|&n| {
                seen += n;
                seen * 10 >= count * 9
            });
            backgrounds.push(percentile.unwrap_or(255) as f32);
        }
    }
    let brightest = backgrounds.iter().copied().fold(0.0, f32::max);
    let darkest = backgrounds.iter().copied().fold(255.0, f32::min);
    brightest > UNEVEN_LIGHT * darkest.max(1.0)
}

/// Share of ink pixels without an ink neighbour above which a photo counts as speckled.
const SPECKLED: f32 = 0.02;

/// Share of ink pixels that have no ink neighbour (grain, salt-and-pepper noise).
fn speckle_ratio(ink: &GrayImage) -> f32 {
    let (w, h) = ink.dimensions();
    let (mut total, mut lone) = (0u32, 0u32);
    for y in 1..h.saturating_sub(1) {
        for x in 1..w.saturating_sub(1) {
            if ink.get_pixel(x, y)[0] == 0 {
                continue;
            }
            total += 1;
            let neighbours = [
                (x - 1, y),
                (x + 1, y),
                (x, y - 1),
                (x, y + 1),
                (x - 1, y - 1),
                (x + 1, y + 1),
                (x - 1, y + 1),
                (x + 1, y - 1),
            ];
            if neighbours.iter().all(|&(a, b)| ink.get_pixel(a, b)[0] == 0) {
                lone += 1;
            }
        }
    }
    if total == 0 {
        0.0
    } else {
        lone as f32 / total as f32
    }
}

/// 3 × 3 median per channel: removes grain and specks, keeps strokes and edges.
fn median3(rgb: &RgbImage) -> RgbImage {
    let (w, h) = rgb.dimensions();
    if w < 3 || h < 3 {
        return rgb.clone();
    }
    let mut out = rgb.clone();
    let mut window = [0u8; 9];
    for y in 1..h - 1 {
        for x in 1..w - 1 {
            let mut px = [0u8; 3];
            for (c, v) in px.iter_mut().enumerate() {
                let mut k = 0;
                for dy in 0..3 {
                    for dx in 0..3 {
                        window[k] = rgb.get_pixel(x + dx - 1, y + dy - 1)[c];
                        k += 1;
                    }
                }
                window.sort_unstable();
                *v = window[4];
            }
            out.put_pixel(x, y, Rgb(px));
        }
    }
    out
}

/// The x of a blank vertical gap that separates two text columns over the whole text height,
/// if there is one: at least 3 % of the width, with text on both sides (15 % of the text
/// width at least).
fn column_gap(ink: &GrayImage) -> Option<u32> {
    let (w, h) = ink.dimensions();
    let counts: Vec<u32> = (0..w)
        .map(|x| (0..h).filter(|&y| ink.get_pixel(x, y)[0] > 0).count() as u32)
        .collect();
    let tolerance = (h / 300).max(1);
    let first = counts.iter().position(|&c| c > tolerance)? as u32;
    let last = counts.iter().rposition(|&c| c > tolerance)? as u32;
    let span = last.saturating_sub(first);
    if span < 100 {
        return None;
    }
    let (lo, hi) = (first + span * 15 / 100, last - span * 15 / 100);
    let mut best: Option<(u32, u32)> = None; // (start, width)
    let mut run_start = None;
    for x in lo..=hi {
        let blank = counts[x as usize] <= tolerance;
        match (blank, run_start) {
            (true, None) => run_start = Some(x),
            (false, Some(start)) => {
                let width = x - start;
                if best.is_none_or(|(_, bw)| width > bw) {
                    best = Some((start, width));
                }
                run_start = None;
            }
            _ => {}
        }
    }
    let (start, width) = best?;
    (width >= (w * 3 / 100).max(8)).then_some(start + width / 2)
}

/// The part left of `at` on top of the part right of it, on white.
fn stack_columns(rgb: &RgbImage, at: u32) -> RgbImage {
    let (w, h) = rgb.dimensions();
    let at = at.clamp(1, w.saturating_sub(1).max(1));
    let left = image::imageops::crop_imm(rgb, 0, 0, at, h).to_image();
    let right = image::imageops::crop_imm(rgb, at, 0, w - at, h).to_image();
    let mut out = RgbImage::from_pixel(at.max(w - at), h * 2, Rgb([255, 255, 255]));
    image::imageops::overlay(&mut out, &left, 0, 0);
    image::imageops::overlay(&mut out, &right, 0, i64::from(h));
    out
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
            // Word gaps move from line to line, as in real text; letters are thin strokes.
            let in_word = ((x + (y / line) * 37) / (line * 3)) % 4 != 3 && x > 20 && x < width - 20;
            let stroke = x % 6 < 2;
            if in_line && in_word && stroke {
                Rgb([20, 20, 20])
            } else {
                Rgb([250, 250, 245])
            }
        })
    }

    #[test]
    fn light_falling_off_across_the_label_is_told_from_even_light() {
        let even = bars(600, 400, 12);
        assert!(!uneven_light(&even));
        // A coloured background is even light too.
        let yellow = RgbImage::from_fn(600, 400, |x, y| {
            let p = even.get_pixel(x, y).0;
            Rgb([p[0], p[1].saturating_sub(20), p[2] / 2])
        });
        assert!(!uneven_light(&yellow));
        // Light falling to 45 % towards one corner, as the corpus's uneven-light variant.
        let (w, h) = even.dimensions();
        let dim = RgbImage::from_fn(w, h, |x, y| {
            let t = (x as f32 / w as f32 + y as f32 / h as f32) / 2.0;
            let p = even.get_pixel(x, y).0;
            Rgb(p.map(|c| (f32::from(c) * (1.0 - 0.55 * t)) as u8))
        });
        assert!(uneven_light(&dim));
        let prepared = prepare(&DynamicImage::ImageRgb8(dim), PrepareOptions::default()).unwrap();
        assert!(prepared.preparation.uneven_light);
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
    fn the_image_is_rescaled_again_for_another_line_height() {
        let small = DynamicImage::ImageRgb8(bars(400, 300, 14));
        let prepared = prepare(&small, PrepareOptions::default()).unwrap();
        let first = image::load_from_memory(&prepared.png).unwrap();
        let cjk = prepared
            .unscaled
            .png_for_line_px(PrepareOptions::default().cjk_line_px)
            .unwrap()
            .expect("a larger CJK line height changes the scale");
        let cjk = image::load_from_memory(&cjk).unwrap();
        assert!(
            cjk.width() > first.width(),
            "{} vs {}",
            cjk.width(),
            first.width()
        );
        // The same target gives nothing new; so does an image without text lines.
        let same = prepared
            .unscaled
            .png_for_line_px(prepared.unscaled.options().target_line_px);
        assert!(same.unwrap().is_none());
        // Big print: the kept copy is already shrunk to the CJK line height and still gives
        // the CJK image, larger than the Latin one.
        let big = DynamicImage::ImageRgb8(bars(900, 700, 80));
        let prepared = prepare(&big, PrepareOptions::default()).unwrap();
        assert!(prepared.unscaled.straight.width() < 900);
        let latin = image::load_from_memory(&prepared.png).unwrap();
        let cjk = prepared.unscaled.png_for_line_px(32.0).unwrap().unwrap();
        let cjk = image::load_from_memory(&cjk).unwrap();
        assert_eq!(cjk.width(), prepared.unscaled.straight.width());
        assert!(
            cjk.width() > latin.width(),
            "{} vs {}",
            cjk.width(),
            latin.width()
        );
        let blank = DynamicImage::ImageRgb8(RgbImage::from_pixel(300, 200, Rgb([255, 255, 255])));
        let prepared = prepare(&blank, PrepareOptions::default()).unwrap();
        assert!(prepared.unscaled.png_for_line_px(40.0).unwrap().is_none());
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
    fn two_columns_are_found_and_stacked() {
        let column = bars(300, 200, 8);
        let mut page = RgbImage::from_pixel(700, 200, Rgb([250, 250, 245]));
        image::imageops::overlay(&mut page, &column, 0, 0);
        image::imageops::overlay(&mut page, &column, 400, 0);
        let gap = column_gap(&ink_mask(&page)).unwrap();
        assert!((300..400).contains(&gap), "{gap}");
        let stacked = stack_columns(&page, gap);
        assert_eq!(stacked.height(), 400);
        // One column: no gap.
        assert_eq!(column_gap(&ink_mask(&bars(700, 200, 8))), None);
    }

    #[test]
    fn speckle_is_detected_and_filtered() {
        let mut noisy = bars(300, 200, 8);
        for (i, p) in noisy.pixels_mut().enumerate() {
            if i % 37 == 0 {
                *p = Rgb([0, 0, 0]);
            }
        }
        assert!(speckle_ratio(&ink_mask(&noisy)) > SPECKLED);
        assert!(speckle_ratio(&ink_mask(&median3(&noisy))) < SPECKLED);
        assert!(speckle_ratio(&ink_mask(&bars(300, 200, 8))) < SPECKLED);
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
