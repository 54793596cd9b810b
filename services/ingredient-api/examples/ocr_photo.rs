//! Reads label photos through the real `/ocr` pipeline and prints each list as printed (one
//! line per image), for `../shared/data/real-photos/score.py`; seconds, engine and language go
//! to standard error.
//!
//! `cargo run --release -p ingredient-api --example ocr_photo -- [--tesseract-only]
//! [--side=PX] IMAGE...` (`--side`: the detector's input size for small print)
//! (configured like the service: `OCR_MODELS_DIR`, `OCR_TIMEOUT_SECS`, …).
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::time::Instant;

use base64::Engine as _;
use ingredient_api::ocr::{OcrService, OcrSettings};
use service_kit::config::EnvSource;

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let tesseract_only = args.iter().any(|a| a == "--tesseract-only");
    let mut settings = OcrSettings::from_env(&EnvSource::from_process()?)?;
    if let Some(side) = args.iter().find_map(|a| a.strip_prefix("--side=")) {
        settings.ppocr.detector_side = side.parse()?;
    }
    let mut service = OcrService::build(&settings).await;
    if tesseract_only {
        service = service.without_neural();
    }
    for path in args.iter().filter(|a| !a.starts_with("--")) {
        let bytes = std::fs::read(path)?;
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
