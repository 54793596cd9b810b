//! CPU time and peak memory of `/ocr`'s pipeline per image, measured per request (not process
//! start-up: the models load before the first image, and one warm-up image is not counted), on
//! the real photos of `../shared/data/real-photos/` (skipped when absent) and one synthetic
//! label per language (`fixtures/labels.toml`, clean variant); then plain Tesseract (one CLI
//! call, the photo's own pack) on the same photos. `scripts/bench/ocr.sh` runs it on one core.
//!
//! `cargo run --release -p ingredient-api --example ocr_bench -- [--tesseract-only]
//!  [--first-side PX] [--small-text PX] [--side PX] [--batch-columns N]` (the detector's first
//!  side, the text height under which it detects again, at `--side`; `RUST_LOG=ingredient_api=debug`
//!  shows each stage's seconds)
//!
//! CPU is the process's user + system time plus that of the Tesseract children it waited for
//! (`/proc/self/stat`, 10 ms ticks); peak memory is the process's `VmHWM`, reset before each
//! image (`/proc/self/clear_refs`), so it is the peak of that request with the models loaded.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::{Path, PathBuf};
use std::process::Command;

use base64::Engine as _;
use ingredient_api::ocr::{OcrService, OcrSettings};
use service_kit::config::EnvSource;
use test_support::labels::{self, Variant};

/// Seconds of CPU used so far by this process and its waited-for children.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which may hold spaces) start at the state (field 3).
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<u64> = rest
        .split_whitespace()
        .skip(11) // state .. cmajflt: fields 3 to 13
        .take(4) // utime stime cutime cstime
        .filter_map(|f| f.parse().ok())
        .collect();
    fields.iter().sum::<u64>() as f64 / 100.0
}

/// Resets the process's peak resident size (Linux ≥ 4.0).
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// The process's peak resident size since the last reset, in MB.
fn peak_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

/// One measured image.
struct Sample {
    cpu: f64,
    peak: f64,
    engine: String,
}

fn quantile(values: &[f64], q: f64) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return 0.0;
    }
    // Nearest rank.
    let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
    v[rank - 1]
}

async fn measure(service: &OcrService, name: &str, bytes: &[u8]) -> Sample {
    let image = base64::engine::general_purpose::STANDARD.encode(bytes);
    reset_peak();
    let before = cpu_seconds();
    let outcome = service.recognise(image).await;
    let cpu = cpu_seconds() - before;
    let peak = peak_mb();
    let engine = match outcome {
        Ok(o) => o.engine,
        Err(e) => format!("error: {e}"),
    };
    eprintln!("{name}: {cpu:.2} s CPU, peak {peak:.0} MB, engine {engine}");
    Sample { cpu, peak, engine }
}

fn summary(set: &str, samples: &[Sample]) -> String {
    let cpu: Vec<f64> = samples.iter().map(|s| s.cpu).collect();
    let total: f64 = cpu.iter().sum();
    let peak = samples.iter().map(|s| s.peak).fold(0.0, f64::max);
    let engines = {
        let mut e: Vec<&str> = samples.iter().map(|s| s.engine.as_str()).collect();
        e.sort_unstable();
        e.dedup();
        e.join(", ")
    };
    format!(
        "| {set} | {} | {:.2} | {:.2} | {:.2} | {:.0} | {engines} |",
        samples.len(),
        quantile(&cpu, 0.5),
        quantile(&cpu, 0.95),
        samples.len() as f64 / total.max(1e-9),
        peak,
    )
}

/// Real photos and the Tesseract pack of each, from `truth.jsonl`.
fn real_photos() -> Option<Vec<(PathBuf, String)>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/real-photos");
    let truth = std::fs::read_to_string(dir.join("truth.jsonl")).ok()?;
    Some(
        truth
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter_map(|v| {
                let file = v["file"].as_str()?;
                let pack = v["tesseract_lang"].as_str().unwrap_or("eng");
                Some((dir.join(file), pack.to_owned()))
            })
            .collect(),
    )
}

/// Plain Tesseract (`tesseract FILE stdout -l PACK`, one thread): CPU seconds per photo.
fn plain_tesseract(photos: &[(PathBuf, String)]) -> Vec<Sample> {
    photos
        .iter()
        .map(|(path, pack)| {
            let before = cpu_seconds();
            let status = Command::new("tesseract")
                .arg(path)
                .args(["stdout", "-l", pack])
                .env("OMP_THREAD_LIMIT", "1")
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status();
            let cpu = cpu_seconds() - before;
            let name = path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            let engine = match status {
                Ok(s) if s.success() => "tesseract CLI".to_owned(),
                Ok(s) => format!("error: {s}"),
                Err(e) => format!("error: {e}"),
            };
            eprintln!("{name} (plain Tesseract): {cpu:.2} s CPU");
            Sample {
                cpu,
                peak: 0.0,
                engine,
            }
        })
        .collect()
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| args.iter().any(|a| a == name);
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
    };
    service_kit::telemetry::init(service_kit::telemetry::LogFormat::Text, "warn");
    let mut settings = OcrSettings::from_env(&EnvSource::from_process()?)?;
    if let Some(side) = value("--side") {
        settings.ppocr.detector_side = side.parse()?;
    }
    if let Some(side) = value("--first-side") {
        settings.ppocr.first_side = side.parse()?;
    }
    if let Some(px) = value("--small-text") {
        settings.ppocr.small_text = px.parse()?;
    }
    if let Some(columns) = value("--batch-columns") {
        settings.ppocr.batch_columns = columns.parse()?;
    }
    let mut service = OcrService::build(&settings).await;
    if flag("--tesseract-only") {
        service = service.without_neural();
    }
    let corpus = labels::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/labels.toml"));
    let mut synthetic = Vec::new();
    let mut seen = Vec::new();
    for label in &corpus {
        if !seen.contains(&label.language) {
            seen.push(label.language.clone());
            synthetic.push((label.name.clone(), labels::render(label, Variant::Clean)));
        }
    }
    // Warm-up: lazily built tables (knowledge base, dictionaries) are not a request's cost.
    if let Some((name, bytes)) = synthetic.first() {
        let _ = measure(&service, &format!("{name} (warm-up)"), bytes).await;
    }
    let mut rows = Vec::new();
    let photos = real_photos();
    match &photos {
        Some(photos) => {
            let mut samples = Vec::new();
            for (path, _) in photos {
                let name = path.file_name().unwrap_or_default().to_string_lossy();
                samples.push(measure(&service, &name, &std::fs::read(path)?).await);
            }
            rows.push(summary("real photos (/ocr pipeline)", &samples));
            rows.push(summary(
                "real photos (plain Tesseract CLI)",
                &plain_tesseract(photos),
            ));
        }
        None => eprintln!("real photos skipped: ../shared/data not found"),
    }
    let mut samples = Vec::new();
    for (name, bytes) in &synthetic {
        samples.push(measure(&service, name, bytes).await);
    }
    rows.push(summary(
        "synthetic labels, one per language (/ocr pipeline)",
        &samples,
    ));
    println!(
        "| images | n | median CPU s | p95 CPU s | images/s per core | peak RSS MB | engine |"
    );
    println!("|---|---|---|---|---|---|---|");
    for row in rows {
        println!("{row}");
    }
    Ok(())
}
