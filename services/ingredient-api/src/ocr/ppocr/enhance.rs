//! Preparation of an enlarged part of a photo before it is detected and read again
//! ([`super::PpOcr::read_zoomed`]): photo conditions the first look reads badly (glare and low
//! contrast, soft focus).
//!
//! Local contrast ([`clahe_luma`]): contrast-limited adaptive histogram equalisation of the
//! luminance (Zuiderveld, "Contrast Limited Adaptive Histogram Equalization", Graphics Gems IV,
//! 1994): each tile's histogram, clipped so that no grey level takes more than a few times its
//! share, becomes that tile's mapping; a pixel's new level is interpolated between the
//! mappings of the four tiles around it. Neither `image` nor `imageproc` has it (`imageproc`
//! equalises the histogram of the whole image only, which glare on a fifth of it defeats).
//! Sharpening uses `image`'s own unsharp mask.

use image::RgbImage;

/// Which preparation an enlarged part gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ZoomFilter {
    /// The enlarged pixels as they are.
    #[default]
    None,
    /// Local contrast of the luminance ([`clahe_luma`]).
    Clahe,
    /// An unsharp mask ([`unsharp`]).
    Unsharp,
    /// An unsharp mask on what the recogniser reads only (the detector sees the part as it is).
    UnsharpRecogniser,
}

/// Tiles across the longer side of the image for [`clahe_luma`].
const CLAHE_TILES: u32 = 8;

/// Most pixels of one grey level in a tile, in multiples of the tile's mean per level.
const CLAHE_CLIP: f32 = 2.0;

/// The image with the contrast of its luminance equalised tile by tile ([`CLAHE_TILES`]
/// across its longer side, square tiles), each tile's histogram clipped at [`CLAHE_CLIP`]
/// times its mean per level (the excess spread over every level); each pixel's colour is
/// shifted by the change of its luminance (its hue kept).
pub fn clahe_luma(image: &RgbImage) -> RgbImage {
    let (w, h) = image.dimensions();
    if w == 0 || h == 0 {
        return image.clone();
    }
    let tile = w.max(h).div_ceil(CLAHE_TILES).max(8);
    let (tx, ty) = (w.div_ceil(tile), h.div_ceil(tile));
    let luma = |p: &image::Rgb<u8>| {
        let [r, g, b] = p.0;
        ((299 * r as u32 + 587 * g as u32 + 114 * b as u32 + 500) / 1000) as u8
    };
    let lumas: Vec<u8> = image.pixels().map(luma).collect();
    // Each tile's mapping of the 256 levels.
    let mut maps = vec![[0u8; 256]; (tx * ty) as usize];
    for j in 0..ty {
        for i in 0..tx {
            let (x0, y0) = (i * tile, j * tile);
            let (x1, y1) = ((x0 + tile).min(w), (y0 + tile).min(h));
            let mut hist = [0u32; 256];
            for y in y0..y1 {
                let row = &lumas[(y * w) as usize..((y + 1) * w) as usize];
                for &l in &row[x0 as usize..x1 as usize] {
                    hist[l as usize] += 1;
                }
            }
            let count = (x1 - x0) * (y1 - y0);
            let limit = ((CLAHE_CLIP * count as f32 / 256.0).ceil() as u32).max(1);
            let mut excess = 0;
            for bin in &mut hist {
                if *bin > limit {
                    excess += *bin - limit;
                    *bin = limit;
                }
            }
            let (share, rest) = (excess / 256, excess % 256);
            let mut sum = 0u32;
            let map = &mut maps[(j * tx + i) as usize];
            for (level, bin) in hist.iter().enumerate() {
                sum += bin + share + u32::from((level as u32) < rest);
                map[level] = ((sum as u64 * 255 + count as u64 / 2) / count as u64).min(255) as u8;
            }
        }
    }
    // Bilinear between the mappings of the four tiles whose centres surround a pixel.
    let neighbours = |v: u32, tiles: u32| {
        let t = (v as f32 + 0.5) / tile as f32 - 0.5;
        let lo = t.floor().clamp(0.0, (tiles - 1) as f32);
        let hi = (lo + 1.0).min((tiles - 1) as f32);
        let f = (t - lo).clamp(0.0, 1.0);
        (lo as usize, hi as usize, f)
    };
    let columns: Vec<(usize, usize, f32)> = (0..w).map(|x| neighbours(x, tx)).collect();
    let mut out = image.clone();
    for y in 0..h {
        let (j0, j1, fy) = neighbours(y, ty);
        for x in 0..w {
            let (i0, i1, fx) = columns[x as usize];
            let l = lumas[(y * w + x) as usize] as usize;
            let at = |j: usize, i: usize| maps[j * tx as usize + i][l] as f32;
            let top = at(j0, i0) * (1.0 - fx) + at(j0, i1) * fx;
            let bottom = at(j1, i0) * (1.0 - fx) + at(j1, i1) * fx;
            let shift = top * (1.0 - fy) + bottom * fy - l as f32;
            let p = out.get_pixel_mut(x, y);
            for c in &mut p.0 {
                *c = (*c as f32 + shift).round().clamp(0.0, 255.0) as u8;
            }
        }
    }
    out
}

/// Blur radius of the unsharp mask, in the enlarged part's pixels (strokes of print enlarged
/// to 64 px boxes are 5–8 px wide).
const UNSHARP_SIGMA: f32 = 2.0;

/// Least difference from the blurred image that is sharpened (grain below it is left alone).
const UNSHARP_THRESHOLD: i32 = 4;

/// The image sharpened by an unsharp mask (`image::imageops::unsharpen`).
pub fn unsharp(image: &RgbImage) -> RgbImage {
    image::imageops::unsharpen(image, UNSHARP_SIGMA, UNSHARP_THRESHOLD)
}

impl ZoomFilter {
    /// `image` prepared by this filter (`None` when it leaves it as it is).
    pub fn apply(self, image: &RgbImage) -> Option<RgbImage> {
        match self {
            Self::None => None,
            Self::Clahe => Some(clahe_luma(image)),
            Self::Unsharp | Self::UnsharpRecogniser => Some(unsharp(image)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_contrast_stretches_faint_print_under_glare() {
        // Faint strokes (about 200) on a bright background (about 215) in the right half,
        // plain print (40 on 200) in the left half; grain of ±5 levels everywhere.
        let image = RgbImage::from_fn(512, 256, |x, y| {
            let stroke = y % 8 < 2;
            let v: i32 = match (x < 256, stroke) {
                (true, true) => 40,
                (true, false) | (false, true) => 200,
                (false, false) => 215,
            };
            let v = (v + ((x * 7 + y * 13) % 11) as i32 - 5) as u8;
            image::Rgb([v, v, v])
        });
        let out = clahe_luma(&image);
        let mean = |image: &RgbImage, stroke: bool| {
            let values: Vec<f32> = (300..500)
                .flat_map(|x| (0..256).map(move |y| (x, y)))
                .filter(|&(_, y)| (y % 8 < 2) == stroke)
                .map(|(x, y)| image.get_pixel(x, y).0[0] as f32)
                .collect();
            values.iter().sum::<f32>() / values.len() as f32
        };
        let before = mean(&image, false) - mean(&image, true);
        let after = mean(&out, false) - mean(&out, true);
        assert!(
            after > 1.8 * before,
            "faint print stays faint: {before:.1} levels apart, then {after:.1}"
        );
        assert_eq!(out.dimensions(), image.dimensions());
    }

    #[test]
    fn local_contrast_keeps_a_flat_image_flat() {
        let image = RgbImage::from_pixel(40, 30, image::Rgb([120, 130, 140]));
        let out = clahe_luma(&image);
        let first = out.get_pixel(0, 0).0;
        assert!(out.pixels().all(|p| p.0 == first));
    }

    #[test]
    fn the_unsharp_mask_deepens_an_edge() {
        let image = RgbImage::from_fn(32, 32, |x, _| {
            let v = if x < 16 { 90 } else { 160 };
            image::Rgb([v, v, v])
        });
        let out = unsharp(&image);
        assert!(out.get_pixel(15, 16).0[0] < 90);
        assert!(out.get_pixel(16, 16).0[0] > 160);
        assert_eq!(ZoomFilter::None.apply(&image), None);
    }
}
