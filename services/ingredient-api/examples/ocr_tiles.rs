//! Measures the PP-OCR detector in tiles against one run on the whole input: for each image,
//! the text regions detected with `--tile=PIXELS` (the most pixels of one detector run) and
//! in one run, matched box to box, and how far any box moved; or, with `--detect-only`, only
//! the tiled detection (run under `/usr/bin/time -v` for its peak memory).
//!
//! `cargo run --release -p ingredient-api --example ocr_tiles -- [--tile=PIXELS] [--side=PX]
//! [--scale=F] [--detect-only] IMAGE...` (`--side`: the detector input's longest side, default
//! 1280; `--scale`: the image enlarged first, as the small print read again is).
#![allow(clippy::print_stdout, clippy::print_stderr)]

use ingredient_api::ocr::OcrSettings;
use ingredient_api::ocr::ppocr::PpOcr;
use ingredient_api::ocr::ppocr::geometry::RotatedRect;
use service_kit::config::EnvSource;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| {
        args.iter()
            .find_map(|a| a.strip_prefix(&format!("--{name}=")))
            .map(str::to_owned)
    };
    let tile: u32 = value("tile").map_or(Ok(u32::MAX), |v| v.parse())?;
    let side: u32 = value("side").map_or(Ok(1280), |v| v.parse())?;
    let scale: f32 = value("scale").map_or(Ok(1.0), |v| v.parse())?;
    let detect_only = args.iter().any(|a| a == "--detect-only");
    let settings = OcrSettings::from_env(&EnvSource::from_process()?)?;
    let dir = settings.models_dir.clone().expect("OCR_MODELS_DIR");
    let library = dir.join("libonnxruntime.so");
    let load = |tile_pixels: u32| {
        let mut options = settings.ppocr;
        options.tile_pixels = tile_pixels;
        PpOcr::load(&dir, &library, 1, options)
    };
    let tiled = load(tile)?;
    let whole = if detect_only {
        None
    } else {
        Some(load(u32::MAX)?)
    };
    let (mut images, mut moved_images) = (0, 0);
    for path in args.iter().filter(|a| !a.starts_with("--")) {
        let mut image = image::open(path)?.into_rgb8();
        if scale != 1.0 {
            let (w, h) = image.dimensions();
            image = image::imageops::resize(
                &image,
                (w as f32 * scale).round() as u32,
                (h as f32 * scale).round() as u32,
                image::imageops::FilterType::CatmullRom,
            );
        }
        let side = side.min(image.width().max(image.height()));
        let started = std::time::Instant::now();
        let a = tiled.detect_at(&image, side)?;
        let tiled_s = started.elapsed().as_secs_f32();
        let Some(whole) = &whole else {
            println!("{path}: {} boxes, {tiled_s:.2} s", a.len());
            continue;
        };
        let b = whole.detect_at(&image, side)?;
        let (moved, worst) = compare(&a, &b);
        images += 1;
        moved_images += usize::from(moved > 0 || a.len() != b.len());
        println!(
            "{path}: tiled {} boxes, whole {} boxes, {moved} moved > 1 px (worst {worst:.1} px)",
            a.len(),
            b.len()
        );
    }
    if whole.is_some() {
        println!("{images} images, {moved_images} with a box that differs");
    }
    Ok(())
}

/// Boxes of `a` whose nearest box of `b` (by centre) differs by more than a pixel in its
/// centre or size, and the largest such difference.
fn compare(a: &[RotatedRect], b: &[RotatedRect]) -> (usize, f32) {
    let diff = |p: &RotatedRect, q: &RotatedRect| {
        [
            (p.cx - q.cx).abs(),
            (p.cy - q.cy).abs(),
            (p.width - q.width).abs(),
            (p.height - q.height).abs(),
        ]
        .into_iter()
        .fold(0f32, f32::max)
    };
    let mut moved = 0;
    let mut worst = 0f32;
    for p in a {
        let d = b.iter().map(|q| diff(p, q)).fold(f32::INFINITY, f32::min);
        if d > 1.0 {
            moved += 1;
            worst = worst.max(d);
        }
    }
    (moved, worst)
}
