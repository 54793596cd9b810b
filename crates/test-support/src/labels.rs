//! Synthetic product labels for measuring `/ocr`: text in the nine languages rendered with
//! Debian fonts (`pango-view` from pango1.0-tools; DejaVu, Noto CJK), then degraded like
//! phone photos. The labels themselves are data (ingredient-api's `fixtures/labels.toml`,
//! read by [`load`]); ingredient-api's test binary and `examples/ocr_accuracy.rs` share this.

use std::io::Cursor;
use std::path::Path;
use std::process::Command;

use image::{DynamicImage, ImageFormat, Rgb, RgbImage};
use unicode_normalization::UnicodeNormalization;

/// One label: what is printed and which items the list holds.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Label {
    /// ISO 639-1 code.
    pub language: String,
    /// Short name for tables.
    pub name: String,
    /// Lines printed above the list (product name, sometimes a nutrition table).
    pub before: Vec<String>,
    /// The list header, with its colon.
    pub header: String,
    /// The items, as printed.
    pub items: Vec<String>,
    /// Lines printed after the list (other sections).
    pub after: Vec<String>,
    /// The items in English as a careful translator of labels writes them (INCI names for
    /// cosmetics, food names for foods; numbers as printed): the reference for `/ocr`'s English
    /// `text`. Absent for an English label, whose items are their own reference.
    #[serde(default)]
    pub english: Option<Vec<String>>,
}

/// The labels file: a `[[label]]` table per label.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct LabelsFile {
    label: Vec<Label>,
}

/// Reads the labels of a TOML file (`[[label]]` tables with the fields of [`Label`]).
/// Panics naming the file when it is missing or malformed: a broken fixture is a test bug.
pub fn load(path: &Path) -> Vec<Label> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read labels file {}: {e}", path.display()));
    toml::from_str::<LabelsFile>(&text)
        .unwrap_or_else(|e| panic!("invalid labels file {}: {e}", path.display()))
        .label
}

impl Label {
    fn cjk(&self) -> bool {
        matches!(self.language.as_str(), "ja" | "zh")
    }

    /// The list line as printed.
    pub fn list_line(&self) -> String {
        if self.cjk() {
            format!("{}{}", self.header, self.items.join("、"))
        } else {
            format!("{} {}.", self.header, self.items.join(", "))
        }
    }

    /// The English reference items (the items themselves on an English label).
    pub fn english_items(&self) -> &[String] {
        self.english.as_deref().unwrap_or(&self.items)
    }

    /// The whole label text.
    pub fn text(&self) -> String {
        let mut lines = self.before.clone();
        lines.push(self.list_line());
        lines.extend(self.after.iter().cloned());
        lines.join("\n")
    }

    fn font(&self, serif: bool) -> &'static str {
        match (self.language.as_str(), serif) {
            ("ja", false) => "Noto Sans CJK JP",
            ("ja", true) => "Noto Serif CJK JP",
            ("zh", false) => "Noto Sans CJK SC",
            ("zh", true) => "Noto Serif CJK SC",
            ("ko", false) => "Noto Sans CJK KR",
            ("ko", true) => "Noto Serif CJK KR",
            (_, false) => "DejaVu Sans",
            (_, true) => "DejaVu Serif",
        }
    }
}

/// How a label is photographed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// Black on white, 11 pt at 150 dpi.
    Clean,
    /// Brown serif text on a yellow background.
    Coloured,
    /// 7 pt at 96 dpi (text about 9 px high).
    Small,
    /// Rotated by 3°.
    Rotated,
    /// Grain and salt-and-pepper noise.
    Noisy,
    /// The other sections in a second column beside the list.
    TwoColumn,
    /// Light falling off from one corner to the other.
    UnevenLight,
    /// Saved as a JPEG of quality 25.
    Jpeg,
    /// Top edge narrower than the bottom (photo taken from below).
    Perspective,
    /// 7 pt at 150 dpi: the small print as a phone camera captures it (CJK characters of
    /// about 14 px). Not in [`Variant::ALL`]: an extra data point (`--variants small-150`).
    SmallAt150Dpi,
    /// Wrapped round a can or bottle: a cylindrical warp that compresses the text towards the
    /// left and right edges and darkens them, on a dark background.
    Curved,
    /// A strong homography: the label's plane tilted about both axes (one corner far away).
    SteepPerspective,
    /// A bright specular blob washing out part of the list.
    Glare,
    /// A 7 px linear motion blur along a slight diagonal (hand shake).
    MotionBlur,
    /// Light text on a dark coloured background (white on navy, bold).
    LightOnDark,
    /// The label as it appears in a 720x1280 video frame: downscaled so text is about 8 px
    /// high, centred in a grey frame.
    LowResolution,
    /// Turned 90° clockwise, with no EXIF orientation to say so.
    Turned90,
    /// Two languages' lists on one pack: this label's list, then the same product's list in
    /// another language (see [`render_in`]); the first printed must be returned.
    Multilingual,
    /// The label inside a larger photo: a hand-coloured blob over one edge, a barcode-like
    /// stripe pattern and a price sticker's text around it.
    Clutter,
    /// The whole back of a pack in a 720x1280 video frame: the label's text in small print
    /// (about 8 px, as [`Variant::LowResolution`]) between lines of large type (the brand, the
    /// product's name, the weight, a slogan), more of them than the small print's lines.
    WholePack,
    /// A small tube held in the hand in a 720x1280 video frame: the label bowed round the tube
    /// ([`Variant::Curved`]) and only 320 px wide, so its print is about 5 px high and its
    /// lines are arcs.
    Tube,
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 9] = [
        Variant::Clean,
        Variant::Coloured,
        Variant::Small,
        Variant::Rotated,
        Variant::Noisy,
        Variant::TwoColumn,
        Variant::UnevenLight,
        Variant::Jpeg,
        Variant::Perspective,
    ];

    /// Variants measured only on request (`ocr_accuracy --variants …`).
    pub const OPT_IN: [Variant; 1] = [Variant::SmallAt150Dpi];

    /// What real phone photos of labels look like (`ocr_accuracy --variants hard`).
    pub const HARD: [Variant; 11] = [
        Variant::Curved,
        Variant::SteepPerspective,
        Variant::Glare,
        Variant::MotionBlur,
        Variant::LightOnDark,
        Variant::LowResolution,
        Variant::Turned90,
        Variant::Multilingual,
        Variant::Clutter,
        Variant::WholePack,
        Variant::Tube,
    ];

    /// Lower-case name for tables.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Clean => "clean",
            Variant::Coloured => "coloured",
            Variant::Small => "small",
            Variant::Rotated => "rotated",
            Variant::Noisy => "noisy",
            Variant::TwoColumn => "two-column",
            Variant::UnevenLight => "uneven-light",
            Variant::Jpeg => "jpeg",
            Variant::Perspective => "perspective",
            Variant::SmallAt150Dpi => "small-150",
            Variant::Curved => "curved",
            Variant::SteepPerspective => "steep-perspective",
            Variant::Glare => "glare",
            Variant::MotionBlur => "motion-blur",
            Variant::LightOnDark => "light-on-dark",
            Variant::LowResolution => "low-resolution",
            Variant::Turned90 => "turned-90",
            Variant::Multilingual => "multilingual",
            Variant::Clutter => "clutter",
            Variant::WholePack => "whole-pack",
            Variant::Tube => "tube",
        }
    }
}

struct Style<'a> {
    font: &'a str,
    points: u32,
    dpi: u32,
    width_pt: u32,
    background: &'a str,
    foreground: &'a str,
    rotate: f32,
}

/// Renders `text` with pango-view and returns the image. Panics with a clear message if
/// pango-view is missing (scripts/setup/install-deps.sh test installs it).
fn pango(text: &str, style: &Style<'_>) -> RgbImage {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("label.txt");
    let output = dir.path().join("label.png");
    std::fs::write(&input, text).expect("write label text");
    let status = Command::new("pango-view")
        .arg(format!("--font={} {}", style.font, style.points))
        .arg(format!("--dpi={}", style.dpi))
        .arg(format!("--width={}", style.width_pt))
        .arg("--wrap=word-char")
        .arg("--margin=24")
        .arg(format!("--background={}", style.background))
        .arg(format!("--foreground={}", style.foreground))
        .arg(format!("--rotate={}", style.rotate))
        .arg("--antialias=gray")
        .arg("-q")
        .arg("-o")
        .arg(&output)
        .arg(&input)
        .status()
        .expect(
            "pango-view runs (Debian package pango1.0-tools: scripts/setup/install-deps.sh test)",
        );
    assert!(status.success(), "pango-view failed: {status}");
    image::open(&output)
        .expect("pango-view wrote a PNG")
        .to_rgb8()
}

/// A small deterministic generator (xorshift), so images are the same on every run.
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn unit(&mut self) -> f32 {
        (self.next() % 10_000) as f32 / 10_000.0
    }
}

/// The label as an image file (PNG, or JPEG for [`Variant::Jpeg`]). For
/// [`Variant::Multilingual`] the second list is the label's English reference (see
/// [`render_in`] for a second list in another language).
pub fn render(label: &Label, variant: Variant) -> Vec<u8> {
    render_in(label, variant, &[])
}

/// The label of the same kind (biscuits, cream…) in the next language of `corpus` after the
/// label's own, cyclically: the second list of a [`Variant::Multilingual`] pack.
pub fn partner<'a>(label: &Label, corpus: &'a [Label]) -> Option<&'a Label> {
    let kind = label.name.split_once('-').map_or("", |(_, k)| k);
    let same_kind: Vec<&Label> = corpus
        .iter()
        .filter(|l| l.name.split_once('-').is_some_and(|(_, k)| k == kind))
        .collect();
    let own = same_kind
        .iter()
        .position(|l| l.language == label.language)?;
    (1..same_kind.len())
        .map(|step| same_kind[(own + step) % same_kind.len()])
        .find(|l| l.language != label.language)
}

/// [`render`], with a [`Variant::Multilingual`] pack's second list taken from the label's
/// [`partner`] in `corpus` (or, without one, from its English reference under `Ingredients:`).
pub fn render_in(label: &Label, variant: Variant, corpus: &[Label]) -> Vec<u8> {
    let mut style = Style {
        font: label.font(false),
        points: 11,
        dpi: 150,
        width_pt: 330,
        background: "#ffffff",
        foreground: "#111111",
        rotate: 0.0,
    };
    match variant {
        Variant::Coloured => {
            style.font = label.font(true);
            style.background = "#f2dc9b";
            style.foreground = "#5a240c";
        }
        Variant::Small => {
            style.points = 7;
            style.dpi = 96;
        }
        Variant::SmallAt150Dpi => style.points = 7,
        Variant::Rotated => style.rotate = 3.0,
        Variant::LightOnDark => {
            style.font = match label.language.as_str() {
                "ja" => "Noto Sans CJK JP Bold",
                "zh" => "Noto Sans CJK SC Bold",
                "ko" => "Noto Sans CJK KR Bold",
                _ => "DejaVu Sans Bold",
            };
            style.background = "#1b2a4e";
            style.foreground = "#f5f1e6";
        }
        _ => {}
    }
    let mut image = if variant == Variant::TwoColumn {
        let mut left = label.before.clone();
        left.push(label.list_line());
        let right = label.after.join("\n\n");
        let column = Style {
            width_pt: 230,
            ..style
        };
        let left = pango(&left.join("\n"), &column);
        let right = pango(&right, &column);
        let mut both = RgbImage::from_pixel(
            left.width() + right.width() + 40,
            left.height().max(right.height()),
            Rgb([255, 255, 255]),
        );
        image::imageops::overlay(&mut both, &left, 0, 0);
        image::imageops::overlay(&mut both, &right, i64::from(left.width()) + 40, 0);
        both
    } else if variant == Variant::Multilingual {
        let second = match partner(label, corpus) {
            Some(other) => other.list_line(),
            None => format!("Ingredients: {}.", label.english_items().join(", ")),
        };
        let mut lines = label.before.clone();
        lines.push(label.list_line());
        lines.push(second);
        lines.extend(label.after.iter().cloned());
        pango(&lines.join("\n"), &style)
    } else {
        pango(&label.text(), &style)
    };
    let mut noise = Noise(0x9E37_79B9_7F4A_7C15 ^ label.name.len() as u64);
    match variant {
        Variant::Noisy => {
            for p in image.pixels_mut() {
                let grain = (noise.unit() + noise.unit() + noise.unit() - 1.5) * 70.0;
                let salt = noise.unit();
                for c in p.0.iter_mut() {
                    *c = (f32::from(*c) + grain).clamp(0.0, 255.0) as u8;
                }
                if salt < 0.003 {
                    p.0 = [0, 0, 0];
                } else if salt > 0.997 {
                    p.0 = [255, 255, 255];
                }
            }
        }
        Variant::UnevenLight => {
            let (w, h) = image.dimensions();
            for (x, y, p) in image.enumerate_pixels_mut() {
                let t = (x as f32 / w as f32 + y as f32 / h as f32) / 2.0;
                let light = 1.0 - 0.55 * t;
                let tint = [1.0, 0.95, 0.85];
                for (c, k) in p.0.iter_mut().zip(tint) {
                    *c = (f32::from(*c) * light * k) as u8;
                }
            }
        }
        Variant::Perspective => {
            let (w, h) = image.dimensions();
            let source = image.clone();
            let mut out = RgbImage::from_pixel(w, h, Rgb([255, 255, 255]));
            for (x, y, p) in out.enumerate_pixels_mut() {
                // Row y is squeezed by up to 8 % at the top, about the centre.
                let squeeze = 1.0 - 0.08 * (1.0 - y as f32 / h as f32);
                let sx = (x as f32 - w as f32 / 2.0) / squeeze + w as f32 / 2.0;
                if sx >= 0.0 && (sx as u32) < w {
                    *p = *source.get_pixel(sx as u32, y);
                }
            }
            image = out;
        }
        Variant::Curved => image = curve(&image),
        Variant::SteepPerspective => image = tilt(&image),
        Variant::Glare => glare(&mut image),
        Variant::MotionBlur => image = motion_blur(&image, 7),
        Variant::LowResolution => image = video_frame(&image),
        Variant::Turned90 => image = image::imageops::rotate90(&image),
        Variant::Clutter => image = clutter(&image, &mut noise),
        Variant::WholePack => image = whole_pack(&image, &style),
        Variant::Tube => image = tube(&curve(&image)),
        _ => {}
    }
    let mut bytes = Vec::new();
    if variant == Variant::Jpeg {
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, 25)
            .encode_image(&DynamicImage::ImageRgb8(image))
            .expect("JPEG encodes");
    } else {
        DynamicImage::ImageRgb8(image)
            .write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png)
            .expect("PNG encodes");
    }
    bytes
}

/// The colour at (`x`, `y`) by bilinear interpolation, or `fill` outside the image.
fn sample(image: &RgbImage, x: f32, y: f32, fill: Rgb<u8>) -> Rgb<u8> {
    let (w, h) = image.dimensions();
    if x < 0.0 || y < 0.0 || x > (w - 1) as f32 || y > (h - 1) as f32 {
        return fill;
    }
    let (x0, y0) = (x.floor() as u32, y.floor() as u32);
    let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
    let (fx, fy) = (x - x0 as f32, y - y0 as f32);
    let [a, b, c, d] =
        [(x0, y0), (x1, y0), (x0, y1), (x1, y1)].map(|(x, y)| image.get_pixel(x, y).0);
    let mut out = [0u8; 3];
    for (i, o) in out.iter_mut().enumerate() {
        let top = f32::from(a[i]) * (1.0 - fx) + f32::from(b[i]) * fx;
        let bottom = f32::from(c[i]) * (1.0 - fx) + f32::from(d[i]) * fx;
        *o = (top * (1.0 - fy) + bottom * fy).round() as u8;
    }
    Rgb(out)
}

/// The label wrapped round a cylinder seen from the front: the label's half width spans 65°
/// of arc, so text at the edges is compressed to 42 % of its width; the rows bow (the
/// cylinder seen slightly from above) and light falls off towards the edges.
fn curve(image: &RgbImage) -> RgbImage {
    let (w, h) = image.dimensions();
    let half_arc = 65f32.to_radians();
    let radius = w as f32 / 2.0 / half_arc;
    let out_w = (2.0 * radius * half_arc.sin()).ceil() as u32 + 40;
    let bow = h as f32 * 0.06;
    let out_h = h + bow.ceil() as u32 + 40;
    let background = Rgb([48, 44, 40]);
    RgbImage::from_fn(out_w, out_h, |x, y| {
        let u = (x as f32 - out_w as f32 / 2.0) / radius;
        if u.abs() >= half_arc.sin() {
            return background;
        }
        let angle = u.asin();
        let sx = w as f32 / 2.0 + radius * angle;
        let sy = y as f32 - 20.0 - bow * (1.0 - angle.cos()) / (1.0 - half_arc.cos());
        let Rgb(p) = sample(image, sx, sy, background);
        let light = 0.45 + 0.55 * angle.cos();
        Rgb(p.map(|c| (f32::from(c) * light) as u8))
    })
}

/// Solves the 8x8 system of a homography taking `from[i]` to `to[i]` (Gaussian elimination).
fn homography(from: [(f32, f32); 4], to: [(f32, f32); 4]) -> [f64; 8] {
    let mut m = [[0f64; 9]; 8];
    for (i, (&(x, y), &(u, v))) in from.iter().zip(&to).enumerate() {
        let (x, y, u, v) = (f64::from(x), f64::from(y), f64::from(u), f64::from(v));
        m[2 * i] = [x, y, 1.0, 0.0, 0.0, 0.0, -u * x, -u * y, u];
        m[2 * i + 1] = [0.0, 0.0, 0.0, x, y, 1.0, -v * x, -v * y, v];
    }
    for col in 0..8 {
        let pivot = (col..8)
            .max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))
            .unwrap_or(col);
        m.swap(col, pivot);
        let pivot_row = m[col];
        for (row, values) in m.iter_mut().enumerate() {
            if row != col {
                let k = values[col] / pivot_row[col];
                for (v, p) in values.iter_mut().zip(pivot_row).skip(col) {
                    *v -= k * p;
                }
            }
        }
    }
    std::array::from_fn(|i| m[i][8] / m[i][i])
}

/// The label's plane tilted away at the top right: the top edge 70 % of the bottom's width,
/// the right edge 80 % of the left's height (a homography, not a shear).
fn tilt(image: &RgbImage) -> RgbImage {
    let (w, h) = (image.width() as f32, image.height() as f32);
    let (out_w, out_h) = (w + 60.0, h + 60.0);
    // Where each source corner lands: top-left, top-right, bottom-right, bottom-left.
    let corners = [
        (30.0 + 0.12 * w, 30.0 + 0.04 * h),
        (30.0 + 0.82 * w, 30.0 + 0.16 * h),
        (30.0 + w, 30.0 + 0.96 * h),
        (30.0, 30.0 + h),
    ];
    let source = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)];
    // Output pixel to source pixel.
    let k = homography(corners, source);
    let fill = Rgb([150, 150, 150]);
    RgbImage::from_fn(out_w as u32, out_h as u32, |x, y| {
        let (x, y) = (f64::from(x), f64::from(y));
        let d = k[6] * x + k[7] * y + 1.0;
        let sx = (k[0] * x + k[1] * y + k[2]) / d;
        let sy = (k[3] * x + k[4] * y + k[5]) / d;
        sample(image, sx as f32, sy as f32, fill)
    })
}

/// A specular highlight over the list: an elliptical blob whose centre is 80 % white, falling
/// off as a Gaussian, a third of the way across and down the label.
fn glare(image: &mut RgbImage) {
    let (w, h) = image.dimensions();
    let (cx, cy) = (w as f32 * 0.38, h as f32 * 0.45);
    let (rx, ry) = (w as f32 * 0.16, h as f32 * 0.12);
    for (x, y, p) in image.enumerate_pixels_mut() {
        let d = ((x as f32 - cx) / rx).powi(2) + ((y as f32 - cy) / ry).powi(2);
        let a = 0.8 * (-d).exp();
        for c in p.0.iter_mut() {
            *c = (f32::from(*c) + (255.0 - f32::from(*c)) * a) as u8;
        }
    }
}

/// A linear motion blur: the mean of `length` pixels along a line 15° from horizontal.
fn motion_blur(image: &RgbImage, length: u32) -> RgbImage {
    let (dx, dy) = (15f32.to_radians().cos(), 15f32.to_radians().sin());
    let fill = Rgb([255, 255, 255]);
    RgbImage::from_fn(image.width(), image.height(), |x, y| {
        let mut sum = [0f32; 3];
        for i in 0..length {
            let t = i as f32 - (length - 1) as f32 / 2.0;
            let Rgb(p) = sample(image, x as f32 + t * dx, y as f32 + t * dy, fill);
            for (s, c) in sum.iter_mut().zip(p) {
                *s += f32::from(c);
            }
        }
        Rgb(sum.map(|s| (s / length as f32).round() as u8))
    })
}

/// The label as a 720x1280 video frame shows it when it fills 60 % of the frame's width:
/// 11 pt text at 150 dpi (about 23 px lines) comes down to about 9 px lines.
fn video_frame(image: &RgbImage) -> RgbImage {
    let (w, h) = image.dimensions();
    let scale = (432.0 / w as f32).min(1200.0 / h as f32);
    let small = image::imageops::resize(
        image,
        (w as f32 * scale) as u32,
        (h as f32 * scale) as u32,
        image::imageops::FilterType::Triangle,
    );
    let mut frame = RgbImage::from_pixel(720, 1280, Rgb([96, 92, 88]));
    let x = (720 - small.width()) / 2;
    let y = (1280 - small.height()) / 2;
    image::imageops::overlay(&mut frame, &small, i64::from(x), i64::from(y));
    frame
}

/// A bowed label ([`curve`]) 320 px wide in a 720x1280 video frame, held in a
/// skin-coloured hand.
fn tube(image: &RgbImage) -> RgbImage {
    let (w, h) = image.dimensions();
    let scale = 320.0 / w as f32;
    let small = image::imageops::resize(
        image,
        320,
        ((h as f32 * scale) as u32).min(1200),
        image::imageops::FilterType::Triangle,
    );
    let mut frame = RgbImage::from_fn(720, 1280, |x, y| {
        let t = (x + y) as f32 / 2000.0;
        Rgb([
            (210.0 - 40.0 * t) as u8,
            (160.0 - 30.0 * t) as u8,
            (130.0 - 25.0 * t) as u8,
        ])
    });
    let x = (720 - small.width()) / 2;
    let y = (1280 - small.height()) / 2;
    image::imageops::overlay(&mut frame, &small, i64::from(x), i64::from(y));
    frame
}

/// The label in small print in a video frame ([`video_frame`]) with large type above and
/// below it, as on the back of a pack: four columns of five short lines, one word each (the
/// detector makes a box of each), in the label's own font.
fn whole_pack(image: &RgbImage, style: &Style<'_>) -> RgbImage {
    let mut frame = video_frame(image);
    let large = Style {
        points: 26,
        dpi: 96,
        width_pt: 300,
        ..*style
    };
    let scale = (432.0 / image.width() as f32).min(1200.0 / image.height() as f32);
    let list_top = (1280 - (image.height() as f32 * scale) as u32) / 2;
    let columns = [
        ("BRAND\nCRUNCHY\nORIGINAL\nRECIPE\nSINCE", 40, true),
        ("1921\nFAMILY\nBAKERY\nSWISS\nQUALITY", 380, true),
        ("250 g\nFRESH\nDAILY\nBAKED\nGOOD", 40, false),
        ("TASTE\nSHARE\nENJOY\nCRISP\nGOLDEN", 380, false),
    ];
    for (words, x, above) in columns {
        let block = pango(words, &large);
        let y = if above {
            i64::from(list_top) - i64::from(block.height()) - 8
        } else {
            i64::from(1280 - list_top) + 8
        };
        image::imageops::overlay(&mut frame, &block, x, y.max(0));
    }
    frame
}

/// The label on a table in a larger photo: a brown background with a gradient, a
/// barcode-like stripe pattern to the right, a price sticker's text below, and a skin-coloured
/// blob (a thumb) over the label's bottom-left corner.
fn clutter(image: &RgbImage, noise: &mut Noise) -> RgbImage {
    let (w, h) = image.dimensions();
    let (out_w, out_h) = (w * 3 / 2 + 80, h + 320);
    let mut photo = RgbImage::from_fn(out_w, out_h, |x, y| {
        let t = (x + y) as f32 / (out_w + out_h) as f32;
        Rgb([
            (150.0 - 60.0 * t) as u8,
            (110.0 - 40.0 * t) as u8,
            (80.0 - 30.0 * t) as u8,
        ])
    });
    let (lx, ly) = (60u32, 80u32);
    image::imageops::overlay(&mut photo, image, i64::from(lx), i64::from(ly));
    // Barcode: white card with black bars of random widths.
    let (bx, by, bw, bh) = (lx + w + 40, ly + 40, (w / 3).max(120), 220u32);
    let mut x = bx + 10;
    for px in bx..(bx + bw).min(out_w) {
        for py in by..(by + bh).min(out_h) {
            photo.put_pixel(px, py, Rgb([250, 250, 250]));
        }
    }
    while x + 12 < bx + bw {
        let bar = 2 + (noise.next() % 5) as u32;
        for px in x..(x + bar).min(out_w) {
            for py in (by + 10)..(by + bh - 30).min(out_h) {
                photo.put_pixel(px, py, Rgb([10, 10, 10]));
            }
        }
        x += bar + 2 + (noise.next() % 4) as u32;
    }
    // A price sticker's text under the label.
    let sticker = pango(
        "SPECIAL OFFER  2 for 3.50\n4 006381 333931",
        &Style {
            font: "DejaVu Sans Bold",
            points: 14,
            dpi: 150,
            width_pt: 320,
            background: "#ffd21f",
            foreground: "#c00000",
            rotate: -4.0,
        },
    );
    let sy = (ly + h + 20).min(out_h.saturating_sub(sticker.height()));
    image::imageops::overlay(&mut photo, &sticker, i64::from(lx + w / 3), i64::from(sy));
    // A thumb over the bottom-left corner of the label (its margin and a little of the text).
    let (cx, cy) = (lx as f32 + 10.0, (ly + h) as f32 - 10.0);
    let (rx, ry) = (90.0 + (noise.next() % 20) as f32, 60.0);
    for (x, y, p) in photo.enumerate_pixels_mut() {
        let d = ((x as f32 - cx) / rx).powi(2) + ((y as f32 - cy) / ry).powi(2);
        if d < 1.0 {
            let shade = 1.0 - 0.25 * d;
            *p = Rgb([
                (224.0 * shade) as u8,
                (172.0 * shade) as u8,
                (140.0 * shade) as u8,
            ]);
        }
    }
    photo
}

/// Comparable form of an item: NFKC, lower case, `、` as `,`, no spaces, no final full stop.
pub fn normalise(item: &str) -> String {
    item.nfkc()
        .flat_map(char::to_lowercase)
        .map(|c| if c == '、' { ',' } else { c })
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .trim_end_matches(['.', '。'])
        .to_owned()
}

/// The English `text` of an `/ocr` answer scored against the label's English references:
/// split with the list splitter `/ocr` uses (bracketed sub-ingredients stay whole), then
/// [`score`]d.
pub fn score_english(label: &Label, text: &str) -> (usize, usize, usize) {
    score(
        label.english_items(),
        &domain::ocr::label::split_items(text),
    )
}

/// The harmonic mean of recall and precision of a [`score`] (0 when nothing matched).
pub fn f1((matched, expected, returned): (usize, usize, usize)) -> f64 {
    if matched == 0 {
        return 0.0;
    }
    let (recall, precision) = (
        matched as f64 / expected as f64,
        matched as f64 / returned as f64,
    );
    2.0 * recall * precision / (recall + precision)
}

/// (items matched, items expected, items returned), matching as multisets.
pub fn score(expected: &[String], got: &[String]) -> (usize, usize, usize) {
    let mut remaining: Vec<String> = expected.iter().map(|s| normalise(s)).collect();
    let mut matched = 0;
    for item in got {
        let item = normalise(item);
        if let Some(i) = remaining.iter().position(|e| *e == item) {
            remaining.swap_remove(i);
            matched += 1;
        }
    }
    (matched, expected.len(), got.len())
}

/// The English `text` of an `/ocr` answer scored the way the outside scorers do
/// (`../shared/data/real-photos/score.py`): split with their splitter ([`outside_split`]) and
/// matched with [`fuzzy_score`]. (items matched, items expected, items returned).
pub fn score_english_fuzzy(label: &Label, text: &str) -> (usize, usize, usize) {
    fuzzy_score(label.english_items(), &outside_split(text))
}

/// The outside scorers' splitting of a plain-text answer: at `,` `，` `、` `;` `；` outside
/// brackets (round, square or curly, ASCII or full width), except a comma between two digits;
/// each item's whitespace collapsed, its ends' full stops trimmed, empty items dropped.
pub fn outside_split(text: &str) -> Vec<String> {
    const OPEN: &str = "([{（［｛";
    const CLOSE: &str = ")]}）］｝";
    const SEPARATORS: &str = ",，、;；";
    let chars: Vec<char> = text
        .chars()
        .map(|c| if c == '\r' || c == '\n' { ' ' } else { c })
        .collect();
    let mut items = Vec::new();
    let mut current = String::new();
    let mut depth = 0usize;
    for (i, &c) in chars.iter().enumerate() {
        if OPEN.contains(c) {
            depth += 1;
        } else if CLOSE.contains(c) {
            depth = depth.saturating_sub(1);
        }
        if SEPARATORS.contains(c) && depth == 0 {
            let digit =
                |j: Option<usize>| j.and_then(|j| chars.get(j)).is_some_and(|c| c.is_numeric());
            if c == ',' && digit(i.checked_sub(1)) && digit(Some(i + 1)) {
                current.push(c);
                continue;
            }
            items.push(std::mem::take(&mut current));
            continue;
        }
        current.push(c);
    }
    items.push(current);
    items
        .iter()
        .map(|item| {
            let collapsed = item.split_whitespace().collect::<Vec<_>>().join(" ");
            collapsed.trim_matches(['.', '。']).trim().to_owned()
        })
        .filter(|item| !item.is_empty())
        .collect()
}

/// Whether a character is one the outside scorers' normalisation removes the spaces around:
/// the CJK ranges of their pattern (Hangul Jamo and syllables, kana, compatibility Jamo, CJK
/// ideographs and their extension A and compatibility block) and `()[]%/-:,`.
fn spaceless(c: char) -> bool {
    matches!(c,
        '\u{1100}'..='\u{11ff}'
        | '\u{3040}'..='\u{30ff}'
        | '\u{3130}'..='\u{318f}'
        | '\u{3400}'..='\u{4dbf}'
        | '\u{4e00}'..='\u{9fff}'
        | '\u{ac00}'..='\u{d7af}'
        | '\u{f900}'..='\u{faff}'
        | '(' | ')' | '[' | ']' | '%' | '/' | '-' | ':' | ',')
}

/// The outside scorers' comparable form of an item: NFKC, case-folded (Unicode full case
/// folding where it differs from lower case in label text: `ß` and `ẞ` as `ss`, final sigma
/// and long s), soft hyphens dropped, curly apostrophes straight, dashes and minus as `-`,
/// whitespace collapsed and removed next to the characters of [`spaceless`], and the ends'
/// spaces and full stops trimmed.
pub fn outside_normalise(item: &str) -> String {
    let mut folded = String::new();
    for c in item.nfkc().flat_map(char::to_lowercase) {
        match c {
            'ß' => folded.push_str("ss"),
            'ς' => folded.push('σ'),
            'ſ' => folded.push('s'),
            '\u{ad}' => {}
            '\u{2019}' | '\u{2018}' => folded.push('\''),
            '\u{2010}'..='\u{2014}' | '\u{2212}' => folded.push('-'),
            _ => folded.push(c),
        }
    }
    let words: Vec<char> = folded
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .collect();
    let kept: String = words
        .iter()
        .enumerate()
        .filter(|&(i, &c)| {
            c != ' '
                || !(i.checked_sub(1).is_some_and(|j| spaceless(words[j]))
                    || words.get(i + 1).copied().is_some_and(spaceless))
        })
        .map(|(_, &c)| c)
        .collect();
    kept.trim_matches([' ', '.', '。']).to_owned()
}

/// Levenshtein distance over characters (insertions, deletions and substitutions, no
/// transpositions: the outside scorers' distance, not the knowledge base's, which counts a
/// transposition once).
fn levenshtein(a: &[char], b: &[char]) -> usize {
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            current.push((previous[j + 1] + 1).min(current[j] + 1).min(substitution));
        }
        previous = current;
    }
    previous[b.len()]
}

/// Normalised Levenshtein similarity: 1 - distance / the longer length (1 for two empty
/// strings).
pub fn similarity(a: &str, b: &str) -> f64 {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    1.0 - levenshtein(&a, &b) as f64 / a.len().max(b.len()) as f64
}

/// The outside scorers' fuzzy match: each returned item paired with an expected one when
/// their [`outside_normalise`]d forms have a [`similarity`] of at least 0.85, pairs taken
/// greedily best first (ties by the later returned, then the later expected item), each item
/// in one pair at most. (items matched, items expected, items returned).
pub fn fuzzy_score(expected: &[String], got: &[String]) -> (usize, usize, usize) {
    const THRESHOLD: f64 = 0.85;
    let truth: Vec<String> = expected.iter().map(|s| outside_normalise(s)).collect();
    let predicted: Vec<String> = got.iter().map(|s| outside_normalise(s)).collect();
    let mut pairs: Vec<(f64, usize, usize)> = Vec::new();
    for (i, p) in predicted.iter().enumerate() {
        for (j, t) in truth.iter().enumerate() {
            let s = similarity(p, t);
            if s >= THRESHOLD {
                pairs.push((s, i, j));
            }
        }
    }
    pairs.sort_by(|x, y| y.partial_cmp(x).unwrap_or(std::cmp::Ordering::Equal));
    let (mut used_p, mut used_t) = (vec![false; got.len()], vec![false; expected.len()]);
    let mut matched = 0;
    for (_, i, j) in pairs {
        if !used_p[i] && !used_t[j] {
            used_p[i] = true;
            used_t[j] = true;
            matched += 1;
        }
    }
    (matched, expected.len(), got.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_text_is_split_like_the_printed_list_and_scored_by_f1() {
        let labels =
            load(&crate::workspace_root().join("services/ingredient-api/fixtures/labels.toml"));
        let label = labels.iter().find(|l| l.name == "fr-biscuits").unwrap();
        let text = label.english_items().join(", ");
        assert_eq!(score_english(label, &text), (8, 8, 8));
        // One item missed and one extra: the bracket's commas do not split it.
        let wrong = text.replace("Sugar, ", "Sugr, ");
        assert_eq!(score_english(label, &wrong), (7, 8, 8));
        assert!((f1((7, 8, 8)) - 0.875).abs() < 1e-9);
        assert_eq!(f1((0, 8, 0)), 0.0);
    }

    #[test]
    fn the_labels_file_loads_with_every_field() {
        let labels =
            load(&crate::workspace_root().join("services/ingredient-api/fixtures/labels.toml"));
        assert_eq!(labels.len(), 27);
        let cream = labels.iter().find(|l| l.name == "en-cream").unwrap();
        assert_eq!(cream.language, "en");
        assert_eq!(cream.header, "INGREDIENTS:");
        assert!(
            cream
                .list_line()
                .starts_with("INGREDIENTS: Aqua, Glycerin, ")
        );
        assert!(labels.iter().all(|l| !l.items.is_empty()));
        for label in &labels {
            assert_eq!(
                label.english.is_some(),
                label.language != "en",
                "{}: an English reference on every other label",
                label.name
            );
            assert_eq!(
                label.english_items().len(),
                label.items.len(),
                "{}",
                label.name
            );
        }
        assert_eq!(cream.english_items(), cream.items.as_slice());
    }

    #[test]
    fn every_hard_condition_renders_a_decodable_image_of_its_shape() {
        let labels =
            load(&crate::workspace_root().join("services/ingredient-api/fixtures/labels.toml"));
        let label = labels.iter().find(|l| l.name == "fr-biscuits").unwrap();
        let clean = image::load_from_memory(&render(label, Variant::Clean)).unwrap();
        let dump = std::env::var_os("LABELS_DUMP");
        for variant in Variant::HARD {
            let bytes = render_in(label, variant, &labels);
            if let Some(dir) = &dump {
                let path = Path::new(dir).join(format!("{}-{}.png", label.name, variant.name()));
                std::fs::write(path, &bytes).unwrap();
            }
            let image = image::load_from_memory(&bytes).unwrap();
            let (w, h) = (image.width(), image.height());
            match variant {
                Variant::Turned90 => assert_eq!((w, h), (clean.height(), clean.width())),
                Variant::LowResolution | Variant::WholePack | Variant::Tube => {
                    assert_eq!((w, h), (720, 1280))
                }
                Variant::Clutter => assert!(w > clean.width() * 3 / 2 && h > clean.height()),
                Variant::Multilingual => assert!(h > clean.height(), "a second list"),
                Variant::Curved => assert!(w < clean.width() && h > clean.height()),
                _ => assert!(w >= clean.width() * 9 / 10 && h >= clean.height()),
            }
            assert_ne!(
                image.to_rgb8().as_raw(),
                clean.to_rgb8().as_raw(),
                "{} differs from clean",
                variant.name()
            );
            assert_eq!(
                bytes,
                render_in(label, variant, &labels),
                "{} is deterministic",
                variant.name()
            );
        }
    }

    #[test]
    fn a_multilingual_pack_pairs_the_same_product_in_the_next_language() {
        let labels =
            load(&crate::workspace_root().join("services/ingredient-api/fixtures/labels.toml"));
        let by_name = |n: &str| labels.iter().find(|l| l.name == n).unwrap();
        assert_eq!(
            partner(by_name("en-cream"), &labels).unwrap().name,
            "fr-cream"
        );
        assert_eq!(
            partner(by_name("zh-biscuits"), &labels).unwrap().name,
            "en-biscuits"
        );
        assert!(partner(by_name("de-chocolate"), &[]).is_none());
    }

    #[test]
    fn the_outside_split_keeps_brackets_and_decimal_commas_whole() {
        assert_eq!(
            outside_split("Sugar, Flour (Wheat, Rye); Salt 1,5 %、Oil.\nWater,, "),
            ["Sugar", "Flour (Wheat, Rye)", "Salt 1,5 %", "Oil. Water"]
        );
        // A closing bracket too many does not stop the splitting.
        assert_eq!(outside_split("a), b"), ["a)", "b"]);
    }

    #[test]
    fn the_outside_normalisation_folds_case_dashes_and_spaces_next_to_marks() {
        assert_eq!(
            outside_normalise("  Weißes  Mehl ( Typ 405 ) ."),
            "weisses mehl(typ 405)"
        );
        assert_eq!(outside_normalise("Cocoa – 30 %"), "cocoa-30%");
        assert_eq!(
            outside_normalise("Baker\u{2019}s Yeast\u{ad}"),
            "baker's yeast"
        );
        assert_eq!(outside_normalise("Ｅ３３０"), "e330");
        assert_eq!(outside_normalise("정제 소금"), "정제소금");
    }

    #[test]
    fn similarity_is_one_less_the_levenshtein_share_of_the_longer() {
        assert!((similarity("kitten", "sitting") - (1.0 - 3.0 / 7.0)).abs() < 1e-12);
        // A transposition costs two edits here (no Damerau step).
        assert!((similarity("ab", "ba") - 0.0).abs() < 1e-12);
        assert_eq!(similarity("", ""), 1.0);
        assert_eq!(similarity("", "a"), 0.0);
    }

    #[test]
    fn fuzzy_scoring_pairs_close_items_greedily_one_to_one() {
        let owned = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        // One letter off in 13 (0.92) matches; one in 6 (0.83) does not.
        let expected = owned(&["Wheat Flour X", "Sugars", "Salt"]);
        let got = owned(&["wheat flour y", "Sugar!", "salt."]);
        assert_eq!(fuzzy_score(&expected, &got), (2, 3, 3));
        assert_eq!(score(&expected, &got), (1, 3, 3));
        // The better pair wins and each item is used once.
        let expected = owned(&["Palm Oil Fat", "Palm Oil Fats"]);
        let got = owned(&["Palm Oil Fats", "Palm Oil Fats"]);
        assert_eq!(fuzzy_score(&expected, &got), (2, 2, 2));
        let got = owned(&["Palm Oil Fats"]);
        assert_eq!(fuzzy_score(&expected, &got), (1, 2, 1));
        assert_eq!(fuzzy_score(&expected, &[]), (0, 2, 0));
    }

    #[test]
    fn the_english_text_scores_the_same_exactly_and_fuzzily_when_all_is_right() {
        let labels =
            load(&crate::workspace_root().join("services/ingredient-api/fixtures/labels.toml"));
        let label = labels.iter().find(|l| l.name == "fr-biscuits").unwrap();
        let text = label.english_items().join(", ");
        assert_eq!(score_english_fuzzy(label, &text), (8, 8, 8));
        let wrong = text.replace("Sugar, ", "Sugr, ");
        assert_eq!(score_english_fuzzy(label, &wrong), (7, 8, 8));
    }

    #[test]
    fn scoring_matches_items_as_multisets_after_normalising() {
        let expected = vec!["Sugar".to_owned(), "Salt".to_owned(), "Sugar".to_owned()];
        let got = vec!["sugar.".to_owned(), "SALT".to_owned(), "flour".to_owned()];
        assert_eq!(score(&expected, &got), (2, 3, 3));
    }
}
