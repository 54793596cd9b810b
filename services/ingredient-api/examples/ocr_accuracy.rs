//! Prints the `/ocr` accuracy table (docs/ocr.md): every synthetic label of
//! `fixtures/labels.toml` in every variant, read by the real pipeline (Tesseract included),
//! scored item by item: the list as printed (`original_text`) against the printed items, and
//! the English `text` against the labels' English references; per language, per variant
//! (condition) and language by variant.
//!
//! `cargo run --release -p ingredient-api --example ocr_accuracy -- [--jobs N]
//!  [--languages en,fr] [--kinds cream,biscuits] [--sample N] [--variants clean,small,small-150]
//!  [--variants hard] [--no-deskew] [--no-rescale] [--no-denoise] [--no-columns] [--no-cjk-mend] [--line-px 26] [--cjk-line-px 32] [--max-upscale 3] [--verbose]
//!  [--dump DIR]` (`--dump` writes the prepared images instead of reading them)
//!
//! `--variants hard` reads the conditions of real phone photos ([`Variant::HARD`]: curvature,
//! steep perspective, glare, motion blur, light on dark, video-frame resolution, a 90° turn,
//! two languages on one pack, clutter); `default` names [`Variant::ALL`]. `--sample N` keeps
//! the first N labels of each language (biscuits, cream, chocolate in file order).
//! `--jobs 1` (the default) measures seconds per image on one core.
#![allow(clippy::print_stdout)]

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use base64::Engine as _;
use ingredient_api::ocr::prepare::PrepareOptions;
use ingredient_api::ocr::{OcrService, OcrSettings};
use service_kit::config::EnvSource;
use test_support::labels::{self, Label, Variant, render_in, score, score_english};

#[derive(Default, Clone, Copy)]
struct Tally {
    matched: usize,
    expected: usize,
    returned: usize,
    images: usize,
    language_ok: usize,
    /// The English `text` against the English references: matched, expected, returned.
    english: (usize, usize, usize),
}

impl Tally {
    fn add(
        &mut self,
        (m, e, r): (usize, usize, usize),
        language_ok: bool,
        english: (usize, usize, usize),
    ) {
        self.english.0 += english.0;
        self.english.1 += english.1;
        self.english.2 += english.2;
        self.matched += m;
        self.expected += e;
        self.returned += r;
        self.images += 1;
        self.language_ok += usize::from(language_ok);
    }
    fn recall(&self) -> f64 {
        self.matched as f64 / self.expected.max(1) as f64
    }
    fn precision(&self) -> f64 {
        self.matched as f64 / self.returned.max(1) as f64
    }
    fn f1(&self) -> f64 {
        labels::f1((self.matched, self.expected, self.returned))
    }
    fn english_f1(&self) -> f64 {
        labels::f1(self.english)
    }
    fn row(&self, name: &str) -> String {
        format!(
            "| {name} | {} | {:.3} | {:.3} | {:.3} | {}/{} | {:.3} |",
            self.images,
            self.recall(),
            self.precision(),
            self.f1(),
            self.language_ok,
            self.images,
            self.english_f1()
        )
    }
}

/// Every label of `fixtures/labels.toml` (the file the test binary reads).
fn corpus() -> Vec<Label> {
    labels::load(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/labels.toml"))
}

fn arg_list(args: &[String], flag: &str) -> Option<Vec<String>> {
    let i = args.iter().position(|a| a == flag)?;
    Some(args.get(i + 1)?.split(',').map(str::to_owned).collect())
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let jobs: usize = arg_list(&args, "--jobs")
        .and_then(|v| v[0].parse().ok())
        .unwrap_or(1);
    let languages = arg_list(&args, "--languages");
    let kinds = arg_list(&args, "--kinds");
    let variants: Vec<Variant> = match arg_list(&args, "--variants") {
        // `small-150` (7 pt at 150 dpi) only on request: not part of the table's matrix.
        Some(names) => Variant::ALL
            .into_iter()
            .chain(Variant::OPT_IN)
            .chain(Variant::HARD)
            .filter(|v| {
                names.iter().any(|n| {
                    n == v.name()
                        || (n == "hard" && Variant::HARD.contains(v))
                        || (n == "default" && Variant::ALL.contains(v))
                })
            })
            .collect(),
        None => Variant::ALL.to_vec(),
    };
    let sample: Option<usize> = arg_list(&args, "--sample").and_then(|v| v[0].parse().ok());
    let verbose = args.iter().any(|a| a == "--verbose");
    let options = PrepareOptions {
        deskew: !args.iter().any(|a| a == "--no-deskew"),
        rescale: !args.iter().any(|a| a == "--no-rescale"),
        denoise: !args.iter().any(|a| a == "--no-denoise"),
        columns: !args.iter().any(|a| a == "--no-columns"),
        target_line_px: arg_list(&args, "--line-px")
            .and_then(|v| v[0].parse().ok())
            .unwrap_or(PrepareOptions::default().target_line_px),
        cjk_line_px: arg_list(&args, "--cjk-line-px")
            .and_then(|v| v[0].parse().ok())
            .unwrap_or(PrepareOptions::default().cjk_line_px),
        max_upscale: arg_list(&args, "--max-upscale")
            .and_then(|v| v[0].parse().ok())
            .unwrap_or(PrepareOptions::default().max_upscale),
        ..PrepareOptions::default()
    };
    let jobs_text = jobs.to_string();
    let env = EnvSource::from_pairs([
        ("OCR_CONCURRENCY", jobs_text.as_str()),
        ("OCR_QUEUE_DEPTH", "100000"),
        ("OCR_QUEUE_WAIT_SECS", "100000"),
    ]);
    let settings = OcrSettings::from_env(&env).expect("settings");
    let service = Arc::new(
        OcrService::build(&settings)
            .await
            .with_prepare(options)
            .with_cjk_mending(!args.iter().any(|a| a == "--no-cjk-mend")),
    );

    let all_labels = corpus();
    let mut per_language: BTreeMap<String, usize> = BTreeMap::new();
    let labels: Vec<_> = all_labels
        .iter()
        .filter(|l| languages.as_ref().is_none_or(|ls| ls.contains(&l.language)))
        .filter(|l| {
            kinds
                .as_ref()
                .is_none_or(|ks| ks.iter().any(|k| l.name.ends_with(k.as_str())))
        })
        .filter(|l| {
            let seen = per_language.entry(l.language.clone()).or_default();
            *seen += 1;
            sample.is_none_or(|n| *seen <= n)
        })
        .cloned()
        .collect();
    eprintln!("rendering {} images…", labels.len() * variants.len());
    let mut cases = Vec::new();
    for (index, label) in labels.iter().enumerate() {
        for &variant in &variants {
            let image = base64::engine::general_purpose::STANDARD.encode(render_in(
                label,
                variant,
                &all_labels,
            ));
            cases.push((index, variant, image));
        }
    }
    if let Some(dir) = arg_list(&args, "--dump") {
        // Writes what Tesseract would see, and stops.
        for (index, variant, image) in &cases {
            let limits = ingredient_api::ocr::input::InputLimits {
                max_bytes: settings.max_image_bytes,
                max_pixels: settings.max_pixels,
            };
            let cpu = cpu_seconds();
            let bytes = ingredient_api::ocr::input::decode_base64(image, limits).expect("base64");
            let decoded = ingredient_api::ocr::input::decode_image(&bytes, limits).expect("image");
            let prepared =
                ingredient_api::ocr::prepare::prepare(&decoded, options).expect("prepare");
            let cpu = cpu_seconds() - cpu;
            let path = format!("{}/{}-{}.png", dir[0], labels[*index].name, variant.name());
            std::fs::write(&path, &prepared.png).expect("write");
            eprintln!("{path} ({cpu:.2} s CPU): {:?}", prepared.preparation);
        }
        return;
    }
    eprintln!("reading them with {jobs} job(s)…");
    let gate = Arc::new(tokio::sync::Semaphore::new(jobs));
    let mut tasks = Vec::new();
    for (index, variant, image) in cases {
        let service = Arc::clone(&service);
        let gate = Arc::clone(&gate);
        tasks.push(tokio::spawn(async move {
            let _slot = gate.acquire_owned().await.expect("gate open");
            let cpu = cpu_seconds();
            let own = own_cpu_seconds();
            let started = Instant::now();
            let outcome = service.recognise(image).await;
            let cpu = cpu_seconds() - cpu;
            let own = own_cpu_seconds() - own;
            (
                index,
                variant,
                outcome,
                started.elapsed().as_secs_f64(),
                (cpu, own),
            )
        }));
    }
    let mut by_language: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut by_variant: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut by_both: BTreeMap<(&str, &str), Tally> = BTreeMap::new();
    let mut total = Tally::default();
    let mut seconds = Vec::new();
    let mut cpu_used = Vec::new();
    let mut own_used = Vec::new();
    for task in tasks {
        let (index, variant, outcome, secs, (cpu, own)) = task.await.expect("task");
        cpu_used.push(cpu);
        own_used.push(own);
        let label = &labels[index];
        let mut raw = String::new();
        let (items, english_text, language) = match outcome {
            Ok(o) => {
                raw = o.raw_text;
                (
                    domain::ocr::label::split_items(&o.original_text),
                    o.text,
                    o.language.map(|l| l.code()),
                )
            }
            Err(e) => {
                eprintln!("{} {}: error {e}", label.name, variant.name());
                (Vec::new(), String::new(), None)
            }
        };
        let s = score(&label.items, &items);
        let en = score_english(label, &english_text);
        let english = domain::ocr::label::split_items(&english_text);
        if verbose && en.0 < en.1.max(en.2) {
            let (missed, extra) = differences(label.english_items(), &english);
            eprintln!(
                "{} {} English: {}/{} of {} returned\n  missed: {missed:?}\n  extra:  {extra:?}",
                label.name,
                variant.name(),
                en.0,
                en.1,
                en.2
            );
        }
        let language_ok = language == Some(label.language.as_str());
        if verbose && (s.0 < s.1 || s.0 < s.2 || !language_ok) {
            let (missed, extra) = differences(&label.items, &items);
            eprintln!(
                "{} {} ({:.2} s): {}/{} of {} returned, language {language:?}\n  missed: {missed:?}\n  extra:  {extra:?}\n  got: {items:?}\n  raw: {raw:?}",
                label.name,
                variant.name(),
                secs,
                s.0,
                s.1,
                s.2
            );
        }
        by_language
            .entry(label.language.as_str())
            .or_default()
            .add(s, language_ok, en);
        by_variant
            .entry(variant.name())
            .or_default()
            .add(s, language_ok, en);
        by_both
            .entry((label.language.as_str(), variant.name()))
            .or_default()
            .add(s, language_ok, en);
        total.add(s, language_ok, en);
        seconds.push(secs);
    }
    seconds.sort_by(f64::total_cmp);
    let median = seconds.get(seconds.len() / 2).copied().unwrap_or(0.0);
    let p90 = seconds.get(seconds.len() * 9 / 10).copied().unwrap_or(0.0);
    const COLUMNS: &str =
        "| Images | Recall | Precision | F1 | Language detected | English text F1 |";
    println!("| Language {COLUMNS}");
    println!("|---|---|---|---|---|---|---|");
    for (name, tally) in &by_language {
        println!("{}", tally.row(name));
    }
    println!("{}", total.row("**all**"));
    println!();
    println!("| Variant {COLUMNS}");
    println!("|---|---|---|---|---|---|---|");
    for (name, tally) in &by_variant {
        println!("{}", tally.row(name));
    }
    println!();
    // F1 of the printed list, language by variant.
    let names: Vec<&str> = variants.iter().map(|v| v.name()).collect();
    println!("| F1 | {} |", names.join(" | "));
    println!("|---|{}", "---|".repeat(names.len()));
    for language in by_language.keys() {
        let cells: Vec<String> = names
            .iter()
            .map(|v| {
                by_both
                    .get(&(*language, *v))
                    .map_or("-".to_owned(), |t| format!("{:.2}", t.f1()))
            })
            .collect();
        println!("| {language} | {} |", cells.join(" | "));
    }
    println!();
    cpu_used.sort_by(f64::total_cmp);
    let cpu_median = cpu_used.get(cpu_used.len() / 2).copied().unwrap_or(0.0);
    own_used.sort_by(f64::total_cmp);
    let own_median = own_used.get(own_used.len() / 2).copied().unwrap_or(0.0);
    println!(
        "Seconds per image ({jobs} job(s), {options:?}): wall median {median:.2}, \
         90th percentile {p90:.2}; CPU median {cpu_median:.2}, of which this process (not \
         Tesseract) {own_median:.2} (one job: exact; more: approximate)"
    );
}

/// The printed items not returned and the returned items not printed (compared as
/// [`labels::normalise`] does).
fn differences(printed: &[String], returned: &[String]) -> (Vec<String>, Vec<String>) {
    let mut missed = printed.to_vec();
    let mut extra = Vec::new();
    for item in returned {
        match missed
            .iter()
            .position(|p| labels::normalise(p) == labels::normalise(item))
        {
            Some(i) => {
                missed.remove(i);
            }
            None => extra.push(item.clone()),
        }
    }
    (missed, extra)
}

/// CPU seconds used by this process alone (decoding, preparation, text), from
/// /proc/self/stat (fields 14–15).
fn own_cpu_seconds() -> f64 {
    stat_seconds(11..13)
}

/// CPU seconds used by this process and its waited-for children (Tesseract), from
/// /proc/self/stat (fields 14–17, in clock ticks of 1/100 s).
fn cpu_seconds() -> f64 {
    stat_seconds(11..15)
}

/// The sum of /proc/self/stat fields at `indices` (counted after the name), in seconds.
fn stat_seconds(indices: std::ops::Range<usize>) -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // After the name: state is field 3, so utime (14) is index 11.
    indices
        .filter_map(|i| fields.get(i)?.parse::<f64>().ok())
        .sum::<f64>()
        / 100.0
}
