//! The geometry of the detector's post-processing: connected regions of the probability map,
//! their minimum-area rotated rectangles, and sampling a rotated rectangle out of an image.
//!
//! Written here rather than taken from `imageproc`: these three functions are all the pipeline
//! needs, and `imageproc` without its defaults still builds `nalgebra`, `rand` and `num`.

use image::RgbImage;

/// A rotated rectangle: centre, half extents along its own axes, and the direction of its
/// width axis (unit vector). `width` runs along the text line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RotatedRect {
    /// Centre, in pixels.
    pub cx: f32,
    /// Centre, in pixels.
    pub cy: f32,
    /// Extent along `axis`.
    pub width: f32,
    /// Extent across `axis`.
    pub height: f32,
    /// Unit vector of the width axis; its x component is ≥ 0 and, for a near-square box,
    /// it is the more horizontal of the two sides.
    pub axis: (f32, f32),
}

impl RotatedRect {
    /// The four corners: top-left, top-right, bottom-right, bottom-left (in image terms when
    /// the rectangle is upright).
    pub fn corners(&self) -> [(f32, f32); 4] {
        let (ux, uy) = self.axis;
        let (vx, vy) = (-uy, ux);
        let (hw, hh) = (self.width / 2.0, self.height / 2.0);
        let at = |a: f32, b: f32| (self.cx + a * ux + b * vx, self.cy + a * uy + b * vy);
        [at(-hw, -hh), at(hw, -hh), at(hw, hh), at(-hw, hh)]
    }

    /// The axis-aligned bounds `(x0, y0, x1, y1)`.
    pub fn bounds(&self) -> (f32, f32, f32, f32) {
        let c = self.corners();
        let xs = c.map(|p| p.0);
        let ys = c.map(|p| p.1);
        let min = |v: [f32; 4]| v.into_iter().fold(f32::INFINITY, f32::min);
        let max = |v: [f32; 4]| v.into_iter().fold(f32::NEG_INFINITY, f32::max);
        (min(xs), min(ys), max(xs), max(ys))
    }

    /// The same rectangle scaled about the origin (map to image coordinates).
    pub fn scaled(&self, sx: f32, sy: f32) -> Self {
        // Non-uniform scales (the detector's rounding to multiples of 32) differ by a few per
        // cent: the extents take the scale of the axis they mostly follow.
        let along = (self.axis.0 * sx).hypot(self.axis.1 * sy);
        let across = (self.axis.1 * sx).hypot(self.axis.0 * sy);
        let axis = (self.axis.0 * sx / along, self.axis.1 * sy / along);
        Self {
            cx: self.cx * sx,
            cy: self.cy * sy,
            width: self.width * along,
            height: self.height * across,
            axis,
        }
    }

    /// The same rectangle on the page `width` × `height` turned clockwise by `quarter_turns`
    /// quarters (as `image::imageops::rotate90` turns it), its axis kept pointing right.
    pub fn turned(&self, width: f32, height: f32, quarter_turns: u8) -> Self {
        let (mut r, mut w, mut h) = (*self, width, height);
        for _ in 0..quarter_turns % 4 {
            r = Self {
                cx: h - r.cy,
                cy: r.cx,
                axis: (-r.axis.1, r.axis.0),
                ..r
            };
            (w, h) = (h, w);
        }
        if r.axis.0 < 0.0 || (r.axis.0 == 0.0 && r.axis.1 < 0.0) {
            r.axis = (-r.axis.0, -r.axis.1);
        }
        r
    }

    /// The rectangle grown by `d` on every side (the detector's "unclip": its maps shrink each
    /// text region by a margin proportional to area over perimeter).
    pub fn grown(&self, d: f32) -> Self {
        Self {
            width: self.width + 2.0 * d,
            height: self.height + 2.0 * d,
            ..*self
        }
    }
}

/// One connected region of a binary map: the leftmost and rightmost pixel of each of its rows
/// (enough for its convex hull), its pixel count and the sum of the map's values over it.
#[derive(Debug, Clone, Default)]
pub struct Region {
    /// `(y, x_min, x_max)` for each row the region touches.
    pub rows: Vec<(u32, u32, u32)>,
    /// `(x, y_min, y_max)` for each column the region touches (its centre line, when the
    /// region is a line of print bowed round a tube or a bottle: [`bowed_centre`]).
    pub columns: Vec<(u32, u32, u32)>,
    /// Pixels in the region.
    pub pixels: u32,
    /// Sum of the probability over the region's pixels.
    pub score_sum: f32,
}

impl Region {
    /// Mean probability over the region.
    pub fn mean_score(&self) -> f32 {
        self.score_sum / self.pixels.max(1) as f32
    }
}

/// The 8-connected regions of `prob > threshold` in a `width × height` map, skipping regions of
/// fewer than `min_pixels` pixels.
pub fn regions(
    prob: &[f32],
    width: usize,
    height: usize,
    threshold: f32,
    min_pixels: u32,
) -> Vec<Region> {
    let mut label = vec![false; prob.len()];
    let mut stack = Vec::new();
    let mut out = Vec::new();
    for start in 0..prob.len() {
        if label[start] || prob[start] <= threshold {
            continue;
        }
        label[start] = true;
        stack.push(start);
        let mut rows: std::collections::BTreeMap<u32, (u32, u32)> = Default::default();
        let mut columns: std::collections::BTreeMap<u32, (u32, u32)> = Default::default();
        let mut region = Region::default();
        while let Some(i) = stack.pop() {
            let (x, y) = (i % width, i / width);
            region.pixels += 1;
            region.score_sum += prob[i];
            let row = rows.entry(y as u32).or_insert((x as u32, x as u32));
            row.0 = row.0.min(x as u32);
            row.1 = row.1.max(x as u32);
            let column = columns.entry(x as u32).or_insert((y as u32, y as u32));
            column.0 = column.0.min(y as u32);
            column.1 = column.1.max(y as u32);
            for dy in -1i64..=1 {
                for dx in -1i64..=1 {
                    let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                    if (dx, dy) == (0, 0)
                        || nx < 0
                        || ny < 0
                        || nx >= width as i64
                        || ny >= height as i64
                    {
                        continue;
                    }
                    let j = ny as usize * width + nx as usize;
                    if !label[j] && prob[j] > threshold {
                        label[j] = true;
                        stack.push(j);
                    }
                }
            }
        }
        if region.pixels >= min_pixels {
            region.rows = rows.into_iter().map(|(y, (a, b))| (y, a, b)).collect();
            region.columns = columns.into_iter().map(|(x, (a, b))| (x, a, b)).collect();
            out.push(region);
        }
    }
    out
}

/// The convex hull (counter-clockwise, Andrew's monotone chain) of the region's pixel
/// squares' corners.
fn hull(region: &Region) -> Vec<(f32, f32)> {
    let mut points: Vec<(f32, f32)> = Vec::with_capacity(region.rows.len() * 4);
    for &(y, a, b) in &region.rows {
        let (y, a, b) = (y as f32, a as f32, b as f32 + 1.0);
        points.extend([(a, y), (a, y + 1.0), (b, y), (b, y + 1.0)]);
    }
    points.sort_by(|p, q| p.partial_cmp(q).unwrap_or(std::cmp::Ordering::Equal));
    points.dedup();
    if points.len() < 3 {
        return points;
    }
    let cross = |o: (f32, f32), a: (f32, f32), b: (f32, f32)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    let mut lower: Vec<(f32, f32)> = Vec::new();
    for &p in &points {
        while lower.len() >= 2 && cross(lower[lower.len() - 2], lower[lower.len() - 1], p) <= 0.0 {
            lower.pop();
        }
        lower.push(p);
    }
    let mut upper: Vec<(f32, f32)> = Vec::new();
    for &p in points.iter().rev() {
        while upper.len() >= 2 && cross(upper[upper.len() - 2], upper[upper.len() - 1], p) <= 0.0 {
            upper.pop();
        }
        upper.push(p);
    }
    lower.pop();
    upper.pop();
    lower.extend(upper);
    lower
}

/// The minimum-area rectangle around the region (one side along a hull edge: rotating
/// calipers by enumeration, hulls here have few points).
pub fn min_area_rect(region: &Region) -> Option<RotatedRect> {
    let hull = hull(region);
    if hull.len() < 3 {
        return None;
    }
    let mut best: Option<(f32, RotatedRect)> = None;
    for i in 0..hull.len() {
        let (p, q) = (hull[i], hull[(i + 1) % hull.len()]);
        let len = (q.0 - p.0).hypot(q.1 - p.1);
        if len < 1e-6 {
            continue;
        }
        let u = ((q.0 - p.0) / len, (q.1 - p.1) / len);
        let v = (-u.1, u.0);
        let (mut a0, mut a1, mut b0, mut b1) = (f32::MAX, f32::MIN, f32::MAX, f32::MIN);
        for &h in &hull {
            let a = h.0 * u.0 + h.1 * u.1;
            let b = h.0 * v.0 + h.1 * v.1;
            (a0, a1, b0, b1) = (a0.min(a), a1.max(a), b0.min(b), b1.max(b));
        }
        let area = (a1 - a0) * (b1 - b0);
        if best.as_ref().is_none_or(|(a, _)| area < *a) {
            let (ca, cb) = ((a0 + a1) / 2.0, (b0 + b1) / 2.0);
            let rect = RotatedRect {
                cx: ca * u.0 + cb * v.0,
                cy: ca * u.1 + cb * v.1,
                width: a1 - a0,
                height: b1 - b0,
                axis: u,
            };
            best = Some((area, rect));
        }
    }
    best.map(|(_, r)| normalise(r))
}

/// The same rectangle with its width axis the more horizontal side, pointing right.
fn normalise(mut r: RotatedRect) -> RotatedRect {
    if r.axis.0.abs() < r.axis.1.abs() {
        r.axis = (-r.axis.1, r.axis.0);
        std::mem::swap(&mut r.width, &mut r.height);
    }
    if r.axis.0 < 0.0 {
        r.axis = (-r.axis.0, -r.axis.1);
    }
    r
}

/// The centre line of a line of print bowed round a tube or a bottle: points along it, left
/// to right, and its extent across, in the same pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    /// `(x, y)` of the centre line, `x` increasing.
    pub points: Vec<(f32, f32)>,
    /// Extent across the line (grown by the detector's margin like the rectangle).
    pub thickness: f32,
}

impl Curve {
    /// The same curve scaled about the origin (map to image coordinates).
    pub fn scaled(&self, sx: f32, sy: f32) -> Self {
        Self {
            points: self.points.iter().map(|&(x, y)| (x * sx, y * sy)).collect(),
            thickness: self.thickness * sy,
        }
    }

    /// The centre line's length.
    pub fn length(&self) -> f32 {
        self.points
            .windows(2)
            .map(|w| (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1))
            .sum()
    }

    /// The centre line's height at `x` (linear between points, level beyond the ends).
    fn y_at(&self, x: f32) -> f32 {
        let p = &self.points;
        let i = p.partition_point(|q| q.0 < x);
        match (i.checked_sub(1).and_then(|j| p.get(j)), p.get(i)) {
            (Some(a), Some(b)) if b.0 > a.0 => a.1 + (b.1 - a.1) * (x - a.0) / (b.0 - a.0),
            (Some(a), _) => a.1,
            (None, Some(b)) => b.1,
            (None, None) => 0.0,
        }
    }
}

/// The centre line of a region that is one line of print bowed along its length (round a
/// tube, a bottle): its minimum-area rectangle `rect` is then much thicker than the band of
/// print itself, and a crop of the rectangle holds the line as an arc with parts of the lines
/// above and below, which the recogniser cannot read. `None` for a straight line (the
/// rectangle fits it), a region that is not a lying line, or lines merged into one region
/// (the band itself is thick). `margin` is the detector's unclip margin in the region's
/// pixels.
pub fn bowed_centre(region: &Region, rect: &RotatedRect, margin: f32) -> Option<Curve> {
    let columns = &region.columns;
    if rect.axis.1.abs() > BOWED_MOST_SLOPE || columns.len() < 8 {
        return None;
    }
    let mut thickness: Vec<f32> = columns
        .iter()
        .map(|&(_, a, b)| (b - a + 1) as f32)
        .collect();
    thickness.sort_by(f32::total_cmp);
    let band = thickness[thickness.len() / 2];
    if band < 2.0 || rect.height < BOWED_LEAST_RATIO * band || rect.width < 4.0 * rect.height {
        return None;
    }
    // The centre of each column, smoothed over about a band's width (ascenders, descenders
    // and gaps between words move it).
    let centres: Vec<(f32, f32)> = columns
        .iter()
        .map(|&(x, a, b)| (x as f32 + 0.5, (a + b + 1) as f32 / 2.0))
        .collect();
    let half = (band as usize).max(2);
    let step = (band as usize / 2).max(1);
    let mut points: Vec<(f32, f32)> = (0..centres.len())
        .step_by(step)
        .map(|i| {
            let window = &centres[i.saturating_sub(half)..(i + half + 1).min(centres.len())];
            let y = window.iter().map(|c| c.1).sum::<f32>() / window.len() as f32;
            (centres[i].0, y)
        })
        .collect();
    if let (Some(&first), Some(&last)) = (points.first(), points.last()) {
        points.insert(0, (first.0 - margin, first.1));
        points.push((last.0 + margin, last.1));
    }
    Some(Curve {
        points,
        thickness: band + 2.0 * margin,
    })
}

/// Steepest rectangle (the sine of its angle) whose line may be bowed: a steeper region is a
/// tilted line, which its rectangle fits.
const BOWED_MOST_SLOPE: f32 = 0.35;

/// A rectangle this many times thicker than the band of print in it holds a bowed line.
const BOWED_LEAST_RATIO: f32 = 1.5;

/// Samples a bowed line along its centre line into an `out_w × out_h` RGB image (bilinear;
/// outside the image is white): each column of the output is the image's column at that
/// point of the line, centred on it.
pub fn sample_curve(image: &RgbImage, curve: &Curve, out_w: u32, out_h: u32) -> RgbImage {
    let (Some(first), Some(last)) = (curve.points.first(), curve.points.last()) else {
        return RgbImage::from_pixel(out_w, out_h, image::Rgb([255, 255, 255]));
    };
    let (x0, x1) = (first.0, last.0);
    let mut out = RgbImage::new(out_w, out_h);
    let sd = curve.thickness / out_h as f32;
    for ox in 0..out_w {
        let x = x0 + (x1 - x0) * (ox as f32 + 0.5) / out_w as f32;
        let top = curve.y_at(x) - curve.thickness / 2.0;
        for oy in 0..out_h {
            let y = top + (oy as f32 + 0.5) * sd - 0.5;
            out.get_pixel_mut(ox, oy).0 = bilinear(image, x - 0.5, y);
        }
    }
    out
}

/// Samples the rotated rectangle into an `out_w × out_h` RGB image (bilinear; outside the
/// image is white). `quarter_turns` rotates the reading direction by 90° steps clockwise
/// (a tall box read as a vertical line of text).
pub fn sample(
    image: &RgbImage,
    rect: &RotatedRect,
    out_w: u32,
    out_h: u32,
    quarter_turns: u8,
) -> RgbImage {
    let (ux, uy) = rect.axis;
    let (vx, vy) = (-uy, ux);
    // The reading direction and the "down" direction of the output, in image terms.
    let ((rx, ry), (dx, dy), len_r, len_d) = match quarter_turns % 4 {
        0 => ((ux, uy), (vx, vy), rect.width, rect.height),
        1 => ((vx, vy), (-ux, -uy), rect.height, rect.width),
        2 => ((-ux, -uy), (-vx, -vy), rect.width, rect.height),
        _ => ((-vx, -vy), (ux, uy), rect.height, rect.width),
    };
    let origin = (
        rect.cx - rx * len_r / 2.0 - dx * len_d / 2.0,
        rect.cy - ry * len_r / 2.0 - dy * len_d / 2.0,
    );
    let (sr, sd) = (len_r / out_w as f32, len_d / out_h as f32);
    let mut out = RgbImage::new(out_w, out_h);
    for (ox, oy, pixel) in out.enumerate_pixels_mut() {
        let (a, b) = ((ox as f32 + 0.5) * sr, (oy as f32 + 0.5) * sd);
        let x = origin.0 + rx * a + dx * b - 0.5;
        let y = origin.1 + ry * a + dy * b - 0.5;
        pixel.0 = bilinear(image, x, y);
    }
    out
}

/// The colour of `image` at the point `(x, y)` in pixel-centre coordinates, interpolated
/// bilinearly from the four pixels around it; outside the image is white.
fn bilinear(image: &RgbImage, x: f32, y: f32) -> [u8; 3] {
    let (w, h) = (i64::from(image.width()), i64::from(image.height()));
    let raw = image.as_raw();
    let px = |x: i64, y: i64| -> [f32; 3] {
        if x < 0 || y < 0 || x >= w || y >= h {
            return [255.0; 3];
        }
        let i = ((y * w + x) * 3) as usize;
        [raw[i] as f32, raw[i + 1] as f32, raw[i + 2] as f32]
    };
    let (xf, yf) = (x.floor(), y.floor());
    let (fx, fy) = (x - xf, y - yf);
    let (xi, yi) = (xf as i64, yf as i64);
    let (p00, p10, p01, p11) = (
        px(xi, yi),
        px(xi + 1, yi),
        px(xi, yi + 1),
        px(xi + 1, yi + 1),
    );
    let mut out = [0u8; 3];
    for (c, v) in out.iter_mut().enumerate() {
        let upper = p00[c] * (1.0 - fx) + p10[c] * fx;
        let lower = p01[c] * (1.0 - fx) + p11[c] * fx;
        *v = (upper * (1.0 - fy) + lower * fy).round().clamp(0.0, 255.0) as u8;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map_with(width: usize, height: usize, on: impl Fn(usize, usize) -> bool) -> Vec<f32> {
        (0..width * height)
            .map(|i| if on(i % width, i / width) { 0.9 } else { 0.0 })
            .collect()
    }

    #[test]
    fn an_upright_bar_gives_its_own_rectangle() {
        // A 40 × 6 bar from x 10..50, y 20..26, and a lone speck.
        let map = map_with(64, 48, |x, y| {
            ((10..50).contains(&x) && (20..26).contains(&y)) || (x, y) == (2, 2)
        });
        let found = regions(&map, 64, 48, 0.3, 3);
        assert_eq!(found.len(), 1, "the speck is dropped");
        assert_eq!(found[0].pixels, 240);
        assert!((found[0].mean_score() - 0.9).abs() < 1e-4);
        let r = min_area_rect(&found[0]).unwrap();
        assert!(
            (r.width - 40.0).abs() < 1e-3 && (r.height - 6.0).abs() < 1e-3,
            "{r:?}"
        );
        assert!(
            (r.cx - 30.0).abs() < 1e-3 && (r.cy - 23.0).abs() < 1e-3,
            "{r:?}"
        );
        assert_eq!(r.axis, (1.0, 0.0));
        assert_eq!(r.bounds(), (10.0, 20.0, 50.0, 26.0));
    }

    #[test]
    fn a_tilted_bar_keeps_its_slope_and_a_tall_one_its_height() {
        // A line rising 1 px every 4 px to the right (about -14 degrees).
        let map = map_with(100, 60, |x, y| {
            let centre = 40.0 - x as f32 / 4.0;
            (10..90).contains(&x) && (y as f32 - centre).abs() < 3.0
        });
        let r = min_area_rect(&regions(&map, 100, 60, 0.3, 3)[0]).unwrap();
        let slope = r.axis.1 / r.axis.0;
        assert!((slope + 0.25).abs() < 0.05, "{r:?}");
        assert!(r.width > 70.0 && r.height < 10.0, "{r:?}");
        let tall = map_with(30, 60, |x, y| (10..16).contains(&x) && (5..55).contains(&y));
        let r = min_area_rect(&regions(&tall, 30, 60, 0.3, 3)[0]).unwrap();
        assert!(
            (r.width - 6.0).abs() < 1e-3 && (r.height - 50.0).abs() < 1e-3,
            "{r:?}"
        );
    }

    #[test]
    fn a_bowed_line_is_read_along_its_centre_line() {
        // A band 6 px thick bowed into an arc: its centre rises 12 px from the ends to the
        // middle (a line of print round a tube), and a straight band beside it.
        let centre = |x: usize| 30.0 - 12.0 * (1.0 - ((x as f32 - 60.0) / 50.0).powi(2));
        let map = map_with(128, 48, |x, y| {
            (10..110).contains(&x) && (y as f32 - centre(x)).abs() < 3.0
        });
        let region = &regions(&map, 128, 48, 0.3, 3)[0];
        let rect = min_area_rect(region).unwrap();
        let curve = bowed_centre(region, &rect, 2.0).expect("a bowed band");
        assert!((curve.thickness - 10.0).abs() < 1.5, "{curve:?}");
        assert!((curve.y_at(60.0) - centre(60)).abs() < 2.0, "{curve:?}");
        assert!((curve.y_at(15.0) - centre(15)).abs() < 2.5, "{curve:?}");
        // Sampled along the arc, the band fills the middle rows of the crop end to end;
        // rows at the top and bottom of the crop are background.
        let image = RgbImage::from_fn(128, 48, |x, y| {
            if map[y as usize * 128 + x as usize] > 0.5 {
                image::Rgb([0, 0, 0])
            } else {
                image::Rgb([255, 255, 255])
            }
        });
        let crop = sample_curve(&image, &curve, 200, 20);
        for x in [10, 100, 190] {
            assert!(crop.get_pixel(x, 10).0[0] < 60, "middle at {x}");
            assert!(crop.get_pixel(x, 0).0[0] > 200, "top at {x}");
        }
        // A straight band: its rectangle fits it.
        let straight = map_with(128, 48, |x, y| {
            (10..110).contains(&x) && (20..26).contains(&y)
        });
        let region = &regions(&straight, 128, 48, 0.3, 3)[0];
        assert_eq!(
            bowed_centre(region, &min_area_rect(region).unwrap(), 2.0),
            None
        );
    }

    #[test]
    fn sampling_reads_the_rectangle_in_each_quarter_turn() {
        // Left half black, right half white: read upright the left of the crop is dark;
        // half a turn puts it on the right.
        let image = RgbImage::from_fn(40, 10, |x, _| {
            if x < 20 {
                image::Rgb([0, 0, 0])
            } else {
                image::Rgb([255, 255, 255])
            }
        });
        let rect = RotatedRect {
            cx: 20.0,
            cy: 5.0,
            width: 40.0,
            height: 10.0,
            axis: (1.0, 0.0),
        };
        let upright = sample(&image, &rect, 40, 10, 0);
        assert_eq!(
            (upright.get_pixel(2, 5).0[0], upright.get_pixel(37, 5).0[0]),
            (0, 255)
        );
        let turned = sample(&image, &rect, 40, 10, 2);
        assert_eq!(
            (turned.get_pixel(2, 5).0[0], turned.get_pixel(37, 5).0[0]),
            (255, 0)
        );
        // A quarter turn reads down the rectangle: a 10 × 40 output of one colour per row.
        let quarter = sample(&image, &rect, 10, 40, 1);
        assert_eq!(quarter.dimensions(), (10, 40));
        assert_eq!(quarter.get_pixel(5, 2).0[0], quarter.get_pixel(1, 2).0[0]);
    }
}
