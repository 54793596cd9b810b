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

/// The label as an image file (PNG, or JPEG for [`Variant::Jpeg`]).
pub fn render(label: &Label, variant: Variant) -> Vec<u8> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
    }

    #[test]
    fn scoring_matches_items_as_multisets_after_normalising() {
        let expected = vec!["Sugar".to_owned(), "Salt".to_owned(), "Sugar".to_owned()];
        let got = vec!["sugar.".to_owned(), "SALT".to_owned(), "flour".to_owned()];
        assert_eq!(score(&expected, &got), (2, 3, 3));
    }
}
