//! Reads label photos through the real `/ocr` pipeline and prints each list as printed (one
//! line per image), for `../shared/data/real-photos/score.py`; seconds, engine and language go
//! to standard error.
//!
//! `cargo run --release -p ingredient-api --example ocr_photo -- [--tesseract-only]
//! [--side=PX] [--raw] [--page] IMAGE...` (`--side`: the detector's input size for small print;
//! `--raw`: the whole page text the answering engine read, to standard error; `--page`: PP-OCR's
//! page text in reading order and its list, to standard error, whatever answers)
//! (configured like the service: `OCR_MODELS_DIR`, `OCR_TIMEOUT_SECS`, …).
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::time::Instant;

use base64::Engine as _;
use ingredient_api::ocr::ppocr::reader::PpOcrEngine;
use ingredient_api::ocr::{OcrService, OcrSettings};
use service_kit::config::EnvSource;

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if std::env::var_os("RUST_LOG").is_some() {
        service_kit::telemetry::init(service_kit::telemetry::LogFormat::Text, "warn");
    }
    let tesseract_only = args.iter().any(|a| a == "--tesseract-only");
    let raw = args.iter().any(|a| a == "--raw");
    let page = args.iter().any(|a| a == "--page");
    let mut settings = OcrSettings::from_env(&EnvSource::from_process()?)?;
    if let Some(side) = args.iter().find_map(|a| a.strip_prefix("--side=")) {
        settings.ppocr.detector_side = side.parse()?;
    }
    // Tuning experiments: `--set=field=value` on the neural engine's options.
    for (field, value) in args
        .iter()
        .filter_map(|a| a.strip_prefix("--set=")?.split_once('='))
    {
        let o = &mut settings.ppocr;
        match field {
            "first_side" => o.first_side = value.parse()?,
            "small_text" => o.small_text = value.parse()?,
            "threshold" => o.threshold = value.parse()?,
            "region_score" => o.region_score = value.parse()?,
            "unclip_ratio" => o.unclip_ratio = value.parse()?,
            "min_line_height" => o.min_line_height = value.parse()?,
            "tile_pixels" => o.tile_pixels = value.parse()?,
            other => anyhow::bail!("unknown option {other}"),
        }
    }
    let mut service = OcrService::build(&settings).await;
    if tesseract_only {
        service = service.without_neural();
    }
    let neural = if page {
        PpOcrEngine::load(&settings)
    } else {
        None
    };
    for path in args.iter().filter(|a| !a.starts_with("--")) {
        let bytes = std::fs::read(path)?;
        if let Some(engine) = &neural {
            let image = image::load_from_memory(&bytes)?.into_rgb8();
            let deadline = Instant::now() + settings.timeout;
            if let Some(n) = engine.read(&image, deadline, None) {
                eprintln!(
                    "{path}: PP-OCR page\n{}\n--- list: {:?}",
                    n.reading.text, n.reading.found.items
                );
            }
        }
        let started = Instant::now();
        let outcome = service
            .recognise(base64::engine::general_purpose::STANDARD.encode(bytes))
            .await;
        let seconds = started.elapsed().as_secs_f32();
        match outcome {
            Ok(o) => {
                eprintln!(
                    "{path}: {seconds:.2} s, engine {}, language {:?}",
                    o.engine,
                    o.language.map(|l| l.code())
                );
                if raw {
                    eprintln!("{}\n---", o.raw_text);
                }
                println!("{}", o.original_text);
            }
            Err(e) => {
                eprintln!("{path}: {seconds:.2} s, error {e}");
                println!();
            }
        }
    }
    Ok(())
}
