//! `/ocr`'s engine room: from a base64 label photo to the English ingredient list.
//!
//! [`OcrService::recognise`] runs, under a [`limiter::Limiter`] permit (bounded concurrency
//! with a bounded wait queue):
//! 1. [`input`]: base64 → bytes → decoded upright image, every limit checked first;
//! 2. [`prepare`]: rescale and deskew, then re-encode as PNG (the client's bytes never reach
//!    Tesseract);
//!    The neural engine ([`ppocr`], when its models are installed) reads the decoded image
//!    first, and [`layout`] orders its lines into blocks and finds the list; a list with a
//!    header answers at once, otherwise Tesseract reads too and the better list answers
//!    (Korean, which the models cannot read, always ends there);
//! 3. an [`Engine`]: [`tesseract`] on the prepared image. When a vision LLM is configured
//!    ([`vision`]) it reads the upright photo first, outside the OCR slot, and
//!    Tesseract answers when it fails (see [`OcrService::recognise`]);
//! 4. [`domain::ocr::label::extract`] finds the list, OCR typos of known names are mended
//!    ([`domain::ocr::translate::correct_spelling`]) and [`translate`] makes it English.
//!
//! Decoding, preparation and the neural engine run on the OCR threads ([`threads`]) and
//! Tesseract in child processes, so the HTTP workers stay free for `/analyze`.

pub mod input;
pub mod layout;
pub mod lexicon;
pub mod limiter;
pub mod ppocr;
pub mod prepare;
pub mod tesseract;
pub mod threads;
pub mod vision;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use domain::knowledge::KnowledgeBase;
use domain::ocr::label::{self, Extraction, Language};
use domain::ocr::translate::correct_spelling;
use service_kit::config::{ConfigError, EnvSource};

use self::input::{InputError, InputLimits};
use self::limiter::{Busy, Limiter};
use self::ppocr::{PpOcr, PpOcrOptions};
use self::prepare::{PrepareOptions, Prepared};
use self::tesseract::{Reading, Tesseract, TesseractError};
use self::threads::OcrThreads;
use self::vision::VisionEngine;

/// `/ocr` settings (see docs/configuration.md).
#[derive(Debug, Clone)]
pub struct OcrSettings {
    /// `OCR_MAX_IMAGE_BYTES`: largest decoded image file (default 10 MB).
    pub max_image_bytes: usize,
    /// `OCR_MAX_PIXELS`: largest image in pixels, checked from the header (default 40 M).
    pub max_pixels: u64,
    /// `OCR_TIMEOUT_SECS`: time budget of each Tesseract call (default 20).
    pub timeout: Duration,
    /// `OCR_CONCURRENCY`: images recognised at once (default: one per core).
    pub concurrency: usize,
    /// `OCR_QUEUE_DEPTH`: requests that may wait for a slot (default 2 × concurrency).
    pub queue_depth: usize,
    /// `OCR_QUEUE_WAIT_SECS`: longest wait for a slot before 503 (default 15).
    pub queue_wait: Duration,
    /// `TESSERACT_BIN`: the Tesseract binary (default `tesseract` on `PATH`).
    pub tesseract_bin: PathBuf,
    /// `OCR_NICE`: niceness added to each Tesseract process, 0–19 (default 10), so OCR load
    /// cannot starve the HTTP workers (`/analyze`).
    pub nice: u8,
    /// `OCR_MODELS_DIR`: the folder of the PP-OCR models (`det.onnx`, `rec.onnx`, `cls.onnx`)
    /// that `scripts/setup/install-ocr-models.sh` fills (default: the workspace's `.tmp/ocr-models`);
    /// empty turns the neural engine off. Missing files leave Tesseract alone to read.
    pub models_dir: Option<PathBuf>,
    /// `OCR_ORT_LIBRARY`: ONNX Runtime's shared library (default: `libonnxruntime.so` in the
    /// models folder).
    pub ort_library: Option<PathBuf>,
    /// The neural engine's tuning (not configurable: measurements change it).
    pub ppocr: PpOcrOptions,
}

/// The models folder of a development checkout (`make run`, the tests): the image sets
/// `OCR_MODELS_DIR` to where its build step installed them.
const DEV_MODELS_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../.tmp/ocr-models");

impl OcrSettings {
    /// Reads the `OCR_*` variables.
    pub fn from_env(env: &EnvSource) -> Result<Self, ConfigError> {
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        let concurrency = env
            .parse_or("OCR_CONCURRENCY", cores, "a positive integer")?
            .max(1);
        Ok(Self {
            max_image_bytes: env.bytes_or("OCR_MAX_IMAGE_BYTES", 10_000_000)?,
            max_pixels: env.parse_or("OCR_MAX_PIXELS", 40_000_000, "a number of pixels")?,
            timeout: Duration::from_secs(
                env.parse_or("OCR_TIMEOUT_SECS", 20u64, "a whole number of seconds")?
                    .max(1),
            ),
            concurrency,
            queue_depth: env.parse_or("OCR_QUEUE_DEPTH", 2 * concurrency, "an integer")?,
            queue_wait: Duration::from_secs(env.parse_or(
                "OCR_QUEUE_WAIT_SECS",
                15u64,
                "a whole number of seconds",
            )?),
            tesseract_bin: PathBuf::from(env.string_or("TESSERACT_BIN", "tesseract")),
            nice: parse_nice(env)?,
            models_dir: Some(env.string_or("OCR_MODELS_DIR", DEV_MODELS_DIR))
                .filter(|d| !d.is_empty())
                .map(PathBuf::from),
            ort_library: Some(env.string_or("OCR_ORT_LIBRARY", ""))
                .filter(|d| !d.is_empty())
                .map(PathBuf::from),
            ppocr: PpOcrOptions::default(),
        })
    }
}

/// `OCR_NICE`, 0 to 19.
fn parse_nice(env: &EnvSource) -> Result<u8, ConfigError> {
    const EXPECTED: &str = "a niceness from 0 to 19";
    let nice: u8 = env.parse_or("OCR_NICE", 10, EXPECTED)?;
    if nice > tesseract::MAX_NICE {
        return Err(ConfigError::Invalid {
            key: "OCR_NICE".into(),
            value: nice.to_string(),
            expected: EXPECTED.into(),
        });
    }
    Ok(nice)
}

/// Why a label could not be read.
#[derive(Debug, thiserror::Error)]
pub enum OcrError {
    /// The client's input is unusable (400).
    #[error(transparent)]
    Input(#[from] InputError),
    /// Every slot and queue place is taken (503 with Retry-After).
    #[error(transparent)]
    Busy(#[from] Busy),
    /// No engine can run (500): the message says why.
    #[error("OCR engine unavailable: {0}")]
    Unavailable(String),
    /// The engine failed on this image (500).
    #[error("OCR engine failed: {0}")]
    Engine(String),
}

/// The recognised list.
#[derive(Debug, Clone, PartialEq)]
pub struct OcrOutcome {
    /// The list in English, comma-separated.
    pub text: String,
    /// The list as printed.
    pub original_text: String,
    /// The label's language.
    pub language: Option<Language>,
    /// The engine that read it: `ppocr`, `tesseract` or `llm:<model>`.
    pub engine: String,
    /// The whole text the engine read (for logs and measurements).
    pub raw_text: String,
}

/// The engines that read the prepared image, in the order they are tried. The vision LLM is
/// not one of them: it reads the photo as taken, before preparation ([`OcrService::recognise`]).
#[derive(Debug, Clone)]
pub enum Engine {
    /// Tesseract CLI with the nine packs.
    Tesseract(TesseractEngine),
}

impl Engine {
    /// Tesseract's name in responses.
    const TESSERACT: &'static str = "tesseract";

    /// The name reported in the response's `engine` field.
    pub fn name(&self) -> &'static str {
        match self {
            Engine::Tesseract(_) => Self::TESSERACT,
        }
    }
}

/// Lowers the calling thread's priority by `nice` (once per thread): decoding and preparing an
/// image is CPU work that must yield to the HTTP workers, like Tesseract does. On Linux
/// `setpriority(PRIO_PROCESS, tid)` changes only this thread. It stays lowered, since an
/// unprivileged process cannot raise it back: it runs on the OCR threads ([`threads`]) and on
/// tokio's blocking pool, where only OCR work runs (and DNS look-ups for the LLM client, which
/// do not mind). The soak measured
/// /analyze's p99 at 2.05x its idle value with Tesseract niced but these threads not.
fn lower_thread_priority(nice: u8) {
    use std::cell::Cell;
    thread_local! {
        static LOWERED: Cell<bool> = const { Cell::new(false) };
    }
    if nice == 0 || LOWERED.get() {
        return;
    }
    LOWERED.set(true);
    let tid = rustix::thread::gettid();
    let current = rustix::process::getpriority_process(Some(tid)).unwrap_or(0);
    let wanted = (current + i32::from(nice)).min(i32::from(tesseract::MAX_NICE));
    if let Err(e) = rustix::process::setpriority_process(Some(tid), wanted) {
        tracing::warn!(error = %e, "cannot lower the priority of an OCR thread");
    }
}

/// The service behind `POST /ocr`; cheap to clone (shared between workers).
#[derive(Debug, Clone)]
pub struct OcrService {
    engines: Vec<Engine>,
    /// Tried first when configured.
    vision: Option<VisionEngine>,
    unavailable: Option<String>,
    limiter: Limiter,
    limits: InputLimits,
    prepare: PrepareOptions,
    cjk_mending: bool,
    /// The PP-OCR engine, when its models loaded.
    neural: Option<Arc<PpOcr>>,
    /// `OCR_TIMEOUT_SECS`: the neural engine's budget per image.
    timeout: Duration,
    /// Where images are decoded and prepared and the neural engine runs: one thread per slot,
    /// at `OCR_NICE`.
    threads: OcrThreads,
}

/// The neural engine's name in responses.
const NEURAL: &str = "ppocr";

/// What the blocking stage produced: the neural engine's list when it is good enough, or the
/// image prepared for Tesseract (with the neural list, if any, to compare).
enum Stage {
    Done(NeuralFound),
    /// The prepared image, the neural list, and the upright image when the neural engine
    /// turned the page sideways without reading a list (which way up it is may be wrong).
    Tesseract(Prepared, Option<NeuralFound>, Option<image::DynamicImage>),
}

/// The neural engine's list, the page text it was found in and the lines read (with their
/// confidences, for the lexicon check).
struct NeuralFound {
    found: Extraction,
    text: String,
    lines: Vec<ppocr::TextLine>,
    /// Clockwise quarter turns that made the page upright (Tesseract reads it turned so).
    quarter_turns: u8,
    /// A list printed before the one found, in a script the models cannot read
    /// ([`layout::unread_list_first`]).
    unread_first: bool,
}

/// A neural reading that answers without asking Tesseract: a header and two items (Korean
/// cannot be read by the models; its header is never found by them, and a list found by its
/// shape alone may be their misreading of Hangul).
fn neural_is_enough(neural: &NeuralFound) -> bool {
    list_is_enough(&neural.found) && !neural.unread_first
}

/// A list the neural engine read well enough to answer alone, whatever came before it.
fn list_is_enough(found: &Extraction) -> bool {
    found.header_found && found.items.len() >= 2 && found.language != Some(Language::Korean)
}

/// Loads the PP-OCR models (blocking: a few hundred milliseconds per slot).
fn load_neural(settings: &OcrSettings) -> Option<Arc<PpOcr>> {
    let dir = settings.models_dir.as_ref()?;
    let library = settings
        .ort_library
        .clone()
        .unwrap_or_else(|| dir.join("libonnxruntime.so"));
    let started = Instant::now();
    match PpOcr::load(dir, &library, settings.concurrency, settings.ppocr) {
        Ok(engine) => {
            tracing::info!(
                models = %dir.display(),
                slots = settings.concurrency,
                seconds = started.elapsed().as_secs_f32(),
                "PP-OCR models loaded"
            );
            Some(Arc::new(engine))
        }
        Err(reason) => {
            tracing::warn!(%reason, "PP-OCR unavailable: Tesseract reads every label");
            None
        }
    }
}

/// A line of text put under the line read last: a list that has ended before it (a full
/// stop, the next section, its block's end) keeps its items; one that runs on to the last
/// line read takes it in.
const NEXT_LINE: &str = "Zzzz, zzzz";

/// Boxes recognised at a time before looking for the list's end again (about two lines of a
/// list, which the detector cuts into a few boxes each).
const BOXES_PER_STEP: usize = 6;

/// Whether the lines read so far (in reading order) hold the list the request will answer
/// with, whole: a list that answers without Tesseract ([`neural_is_enough`]), in `language`
/// when one is asked for, that a line under the last one read would not change.
fn list_is_read(lines: &[ppocr::TextLine], language: Option<Language>) -> bool {
    let answer = |lines: &[ppocr::TextLine]| {
        let (found, text) = layout::find_list(&layout::blocks(lines));
        if layout::unread_list_first(&text) {
            return None;
        }
        match language {
            Some(language) => layout::list_in_language(&text, language),
            None => Some(found),
        }
    };
    let Some(last) = lines.last() else {
        return false;
    };
    let Some(found) = answer(lines).filter(list_is_enough) else {
        return false;
    };
    // The next line of the last one's block: one line height further across its axis (the
    // reading order of a page read in part may put that block anywhere in the page's text).
    let r = last.rect;
    let step = 1.2 * r.height;
    let next = ppocr::TextLine {
        rect: ppocr::geometry::RotatedRect {
            cx: r.cx - r.axis.1 * step,
            cy: r.cy + r.axis.0 * step,
            ..r
        },
        text: NEXT_LINE.to_owned(),
        confidence: 1.0,
    };
    let more: Vec<ppocr::TextLine> = lines.iter().cloned().chain([next]).collect();
    answer(&more).is_some_and(|f| f.items == found.items)
}

/// The layout's reading order, each block cut into steps of [`BOXES_PER_STEP`] boxes.
fn reading_steps(rects: &[ppocr::geometry::RotatedRect]) -> Vec<Vec<usize>> {
    layout::reading_order(rects)
        .into_iter()
        .flat_map(|block| {
            block
                .chunks(BOXES_PER_STEP)
                .map(<[usize]>::to_vec)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The neural engine's list on an upright image. Lines are recognised a few at a time in
/// reading order until the list asked for has been read whole (recognition is most of the
/// CPU of a photo; what follows the list, a nutrition table, other columns, is not read); a
/// page without such a list is read whole.
fn read_neural(
    engine: &PpOcr,
    image: &image::RgbImage,
    deadline: Instant,
    language: Option<Language>,
) -> Option<NeuralFound> {
    let started = Instant::now();
    let reading = engine.read_until(image, deadline, reading_steps, |lines| {
        list_is_read(lines, language)
    });
    let reading = match reading {
        Ok(reading) => reading,
        Err(e) => {
            tracing::error!(error = %e, "PP-OCR failed; Tesseract reads the label");
            return None;
        }
    };
    let blocks = layout::blocks(&reading.lines);
    let (found, text) = layout::find_list(&blocks);
    tracing::debug!(
        boxes = reading.boxes,
        lines = reading.lines.len(),
        blocks = blocks.len(),
        quarter_turns = reading.quarter_turns,
        complete = reading.complete,
        header = found.header_found,
        items = found.items.len(),
        seconds = started.elapsed().as_secs_f32(),
        "PP-OCR read"
    );
    Some(NeuralFound {
        unread_first: layout::unread_list_first(&text),
        found,
        text,
        lines: reading.lines,
        quarter_turns: reading.quarter_turns,
    })
}

impl OcrService {
    /// Probes Tesseract. A missing binary is logged and makes `/ocr` answer 500; the rest of
    /// the service still starts.
    pub async fn build(settings: &OcrSettings) -> Self {
        let neural = {
            let settings = settings.clone();
            tokio::task::spawn_blocking(move || load_neural(&settings))
                .await
                .unwrap_or_else(|e| {
                    tracing::error!(error = %e, "loading the PP-OCR models stopped");
                    None
                })
        };
        let mut engines = Vec::new();
        let mut unavailable = None;
        match Tesseract::probe(
            settings.tesseract_bin.clone(),
            settings.timeout,
            settings.nice,
        )
        .await
        {
            Ok(tesseract) => {
                let missing: Vec<&str> = Language::ALL
                    .iter()
                    .map(|l| l.tesseract_pack())
                    .chain(["osd"])
                    .filter(|p| !tesseract.has_pack(p))
                    .collect();
                if !missing.is_empty() {
                    tracing::warn!(
                        ?missing,
                        "Tesseract language packs missing; those labels read worse"
                    );
                }
                engines.push(Engine::Tesseract(TesseractEngine::new(tesseract)));
            }
            Err(reason) => {
                tracing::error!(%reason, "OCR engine unavailable: /ocr will answer 500");
                unavailable = Some(reason);
            }
        }
        Self {
            engines,
            vision: None,
            unavailable,
            limiter: Limiter::new(
                settings.concurrency,
                settings.queue_depth,
                settings.queue_wait,
            ),
            limits: InputLimits {
                max_bytes: settings.max_image_bytes,
                max_pixels: settings.max_pixels,
            },
            prepare: PrepareOptions::default(),
            cjk_mending: true,
            neural,
            timeout: settings.timeout,
            threads: {
                let nice = settings.nice;
                OcrThreads::start(settings.concurrency, move || lower_thread_priority(nice))
            },
        }
    }

    /// The same service without the neural engine (Tesseract alone; measurements, tests).
    pub fn without_neural(mut self) -> Self {
        self.neural = None;
        self
    }

    /// Whether the neural engine is loaded.
    pub fn has_neural(&self) -> bool {
        self.neural.is_some()
    }

    /// The same service with other preparation steps (measurements).
    pub fn with_prepare(mut self, prepare: PrepareOptions) -> Self {
        self.prepare = prepare;
        self
    }

    /// The same service with or without the knowledge-base mending of one-character CJK
    /// misreads ([`domain::ocr::cjk_spelling`]; measurements).
    pub fn with_cjk_mending(mut self, on: bool) -> Self {
        self.cjk_mending = on;
        self
    }

    /// Reads the label in the request's base64 `image` field (the first list printed).
    pub async fn recognise(&self, image_field: String) -> Result<OcrOutcome, OcrError> {
        self.recognise_in(image_field, None).await
    }

    /// Reads the label, answering with the list printed in `language` when the pack has one
    /// (the request's `lang`), otherwise the first list printed. The vision LLM, when
    /// configured, reads the first list.
    pub async fn recognise_in(
        &self,
        image_field: String,
        language: Option<Language>,
    ) -> Result<OcrOutcome, OcrError> {
        if let Some(vision) = &self.vision {
            return self
                .recognise_with_vision(vision, image_field, language)
                .await;
        }
        let _permit = self.limiter.acquire().await?;
        let limits = self.limits;
        let bytes = self
            .threads
            .run(move || input::decode_base64(&image_field, limits))
            .await
            .map_err(|e| OcrError::Engine(format!("image decoding stopped: {e}")))??;
        self.read_offline(bytes, language).await
    }

    /// The offline engines on an image file: the neural engine first (when loaded), then
    /// Tesseract unless the neural list is good enough; the better list answers.
    async fn read_offline(
        &self,
        bytes: Vec<u8>,
        language: Option<Language>,
    ) -> Result<OcrOutcome, OcrError> {
        let (limits, options) = (self.limits, self.prepare);
        let neural = self.neural.clone();
        let deadline = Instant::now() + self.timeout;
        let started = Instant::now();
        let stage = self
            .threads
            .run(move || -> Result<Stage, OcrError> {
                let image = input::decode_image(&bytes, limits)?;
                drop(bytes);
                // One RGB copy of the photo serves both engines (no copy for an RGB JPEG).
                let (image, neural_found) = match neural {
                    Some(engine) => {
                        let rgb = image.into_rgb8();
                        let found = read_neural(&engine, &rgb, deadline, language);
                        (image::DynamicImage::ImageRgb8(rgb), found)
                    }
                    None => (image, None),
                };
                match neural_found {
                    Some(n) if neural_is_enough(&n) => Ok(Stage::Done(n)),
                    // The budget is spent: the best reading so far answers.
                    Some(n) if Instant::now() >= deadline && !n.found.items.is_empty() => {
                        Ok(Stage::Done(n))
                    }
                    other => {
                        // The page as the neural engine found it upright: Tesseract's own
                        // orientation step does not cover every script (Korean).
                        let turns = other.as_ref().map_or(0, |n| n.quarter_turns % 4);
                        let image = match turns {
                            1 => image.rotate90(),
                            2 => image.rotate180(),
                            3 => image.rotate270(),
                            _ => image,
                        };
                        let prepared = prepare::prepare(&image, options).map_err(|e| {
                            OcrError::Engine(format!("cannot encode the prepared image: {e}"))
                        })?;
                        let unsure =
                            turns % 2 == 1 && other.as_ref().is_some_and(|n| !n.found.header_found);
                        Ok(Stage::Tesseract(prepared, other, unsure.then_some(image)))
                    }
                }
            })
            .await
            .map_err(|e| OcrError::Engine(format!("image preparation stopped: {e}")))??;
        let neural = match stage {
            Stage::Done(neural) => neural,
            Stage::Tesseract(mut prepared, neural, sideways) => {
                // The neural engine tells a sideways page by its boxes and which way up it
                // is by its classifier, both from the scripts it knows: on one it cannot read
                // (Hangul) either may be wrong, and Tesseract's orientation check has the last
                // word. The engine's turn stands when the check finds it upright, half a turn
                // more when it finds it upside down; otherwise (still sideways, or no answer)
                // the page as it came.
                let quarter_turns = neural.as_ref().map_or(0, |n| n.quarter_turns);
                let correction = match sideways {
                    Some(image) => match self.osd_rotation(&prepared).await {
                        Some(0) => None,
                        Some(180) => Some(image.rotate180()),
                        _ if quarter_turns % 4 == 1 => Some(image.rotate270()),
                        _ => Some(image.rotate90()),
                    },
                    None => None,
                };
                if let Some(image) = correction {
                    let turned = self
                        .threads
                        .run(move || prepare::prepare(&image, options))
                        .await;
                    match turned {
                        Ok(Ok(upright)) => prepared = upright,
                        Ok(Err(e)) => tracing::warn!(error = %e, "cannot prepare the turned page"),
                        Err(e) => tracing::warn!(error = %e, "turning the page stopped"),
                    }
                }
                // The first list is in a script the models lack, before one they read well:
                // Korean is the one of the nine languages they cannot read, so Tesseract
                // reads it with its own pack. (A page of Hangul alone, where the models read
                // no good list, takes Tesseract's whole path below.)
                let readable_after = |n: &NeuralFound| n.unread_first && list_is_enough(&n.found);
                if neural.as_ref().is_some_and(readable_after)
                    && let Some((found, text)) = self.read_korean(&prepared).await
                {
                    let found = in_language(found, &text, language);
                    return Ok(self.finish(found, text, Engine::TESSERACT, started));
                }
                match (self.read_extraction(&prepared).await, neural) {
                    (Ok(tess), Some(n)) if score(&n.found) > score(&tess.0) => n,
                    (Ok((found, text, engine)), _) => {
                        let found = in_language(found, &text, language);
                        return Ok(self.finish(found, text, engine, started));
                    }
                    (Err(_), Some(n)) => n,
                    (Err(e), None) => return Err(e),
                }
            }
        };
        let kb = KnowledgeBase::embedded();
        let mut found = in_language(neural.found, &neural.text, language);
        found.items = lexicon::mend(kb, &found.items, &neural.lines, found.language);
        Ok(self.finish(found, neural.text, NEURAL, started))
    }

    /// The response from an extraction: misreads mended, items translated.
    fn finish(
        &self,
        found: Extraction,
        raw_text: String,
        engine: &str,
        started: Instant,
    ) -> OcrOutcome {
        tracing::info!(
            engine,
            language = found.language.map(Language::code),
            items = found.items.len(),
            header = found.header_found,
            seconds = started.elapsed().as_secs_f32(),
            "label read"
        );
        let kb = KnowledgeBase::embedded();
        // The neural engine's Latin items were checked against the lexicon already
        // (`lexicon`); CJK items of either engine get the knowledge base's CJK mending.
        let items = if engine == NEURAL && !found.language.is_some_and(Language::is_cjk) {
            found.items
        } else {
            let mending = found.language.filter(|l| self.cjk_mending || !l.is_cjk());
            correct_spelling(kb, &found.items, mending)
        };
        OcrOutcome {
            text: translate(&items, found.language).join(", "),
            original_text: items.join(", "),
            language: found.language,
            engine: engine.to_owned(),
            raw_text,
        }
    }

    /// The same service with a vision LLM tried before Tesseract.
    pub fn with_vision(mut self, vision: Option<VisionEngine>) -> Self {
        self.vision = vision;
        self
    }

    /// The vision model first, then Tesseract. The slot is held while decoding (CPU) and
    /// again for Tesseract, but not while waiting for the model: a slow LLM must not keep
    /// Tesseract idle. Only the decoded file (at most `OCR_MAX_IMAGE_BYTES`) is kept meanwhile.
    async fn recognise_with_vision(
        &self,
        vision: &VisionEngine,
        image_field: String,
        language: Option<Language>,
    ) -> Result<OcrOutcome, OcrError> {
        let limits = self.limits;
        let permit = self.limiter.acquire().await?;
        let (bytes, sent) = self
            .threads
            .run(move || {
                let bytes = input::decode_base64(&image_field, limits)?;
                drop(image_field);
                let image = input::decode_image(&bytes, limits)?;
                let sent = vision::encode(&image)
                    .map_err(|e| OcrError::Engine(format!("cannot encode the image: {e}")))?;
                Ok::<_, OcrError>((bytes, sent))
            })
            .await
            .map_err(|e| OcrError::Engine(format!("image decoding stopped: {e}")))??;
        drop(permit);
        let started = Instant::now();
        match vision.read(&sent).await {
            Ok(outcome) => {
                tracing::info!(
                    engine = %outcome.engine,
                    prompt = vision::PROMPT_VERSION,
                    language = outcome.language.map(Language::code),
                    seconds = started.elapsed().as_secs_f32(),
                    "label read"
                );
                return Ok(outcome);
            }
            Err(reason) => tracing::warn!(
                engine = vision.label(),
                prompt = vision::PROMPT_VERSION,
                %reason,
                seconds = started.elapsed().as_secs_f32(),
                "vision LLM failed; Tesseract answers"
            ),
        }
        drop(sent);
        // Admitted once already: a full queue does not turn the fallback away.
        let _permit = self.limiter.reacquire().await?;
        self.read_offline(bytes, language).await
    }

    /// Runs the engines in order on a prepared image; the first success answers.
    pub async fn read(&self, prepared: &Prepared) -> Result<OcrOutcome, OcrError> {
        let started = Instant::now();
        let (found, raw_text, engine) = self.read_extraction(prepared).await?;
        Ok(self.finish(found, raw_text, engine, started))
    }

    /// The clockwise turn Tesseract's orientation check (`--psm 0`) asks of the prepared page.
    async fn osd_rotation(&self, prepared: &Prepared) -> Option<u16> {
        let Engine::Tesseract(tesseract) = self.engines.first()?;
        tesseract.rotation(&prepared.png).await
    }

    /// Tesseract's Korean list on a prepared image, when it finds one with a header and two
    /// items; `None` otherwise (also when Tesseract is missing or fails).
    async fn read_korean(&self, prepared: &Prepared) -> Option<(Extraction, String)> {
        let Engine::Tesseract(tesseract) = self.engines.first()?;
        match tesseract.read_in(prepared, Language::Korean).await {
            Ok((found, text)) if found.header_found && found.items.len() >= 2 => {
                Some((found, text))
            }
            Ok(_) => None,
            Err(e) => {
                tracing::warn!(error = %e, "Tesseract could not read the Korean list");
                None
            }
        }
    }

    /// The engines' extraction on a prepared image, with the text and the engine's name.
    async fn read_extraction(
        &self,
        prepared: &Prepared,
    ) -> Result<(Extraction, String, &'static str), OcrError> {
        if let Some(reason) = &self.unavailable {
            return Err(OcrError::Unavailable(reason.clone()));
        }
        let mut last_error = None;
        for engine in &self.engines {
            let started = Instant::now();
            let result = match engine {
                Engine::Tesseract(t) => t.read_label(prepared).await,
            };
            match result {
                Ok((found, raw_text)) => {
                    tracing::debug!(
                        engine = engine.name(),
                        scale = prepared.preparation.scale,
                        skew = prepared.preparation.skew_degrees,
                        seconds = started.elapsed().as_secs_f32(),
                        "Tesseract read"
                    );
                    return Ok((found, raw_text, engine.name()));
                }
                Err(e) => {
                    tracing::error!(engine = engine.name(), error = %e, "OCR engine failed");
                    last_error = Some(e);
                }
            }
        }
        Err(match last_error {
            Some(e) => OcrError::Engine(e.to_string()),
            None => OcrError::Unavailable("no OCR engine configured".into()),
        })
    }
}

/// The list in the requested language when the page has one, else the extraction as found.
fn in_language(found: Extraction, text: &str, language: Option<Language>) -> Extraction {
    language
        .and_then(|l| layout::list_in_language(text, l))
        .unwrap_or(found)
}

/// Translates the items to English through the knowledge base's multilingual names; unknown
/// and INCI names stay as printed.
pub fn translate(items: &[String], language: Option<Language>) -> Vec<String> {
    domain::ocr::translate::to_english(KnowledgeBase::embedded(), items, language)
}

/// Tesseract reading a label: script detection, language packs, page segmentation fallback.
#[derive(Debug, Clone)]
pub struct TesseractEngine {
    tesseract: Tesseract,
}

/// How much less small CJK print is upscaled for its second reading (measured on the small
/// variant: 2.5× read more than 3× on all three CJK languages, docs/ocr.md).
const SMALL_PRINT_SECOND_SCALE: f32 = 0.5;

/// Below this many items, the other page segmentation mode is tried too.
const FEW_ITEMS: usize = 3;

impl TesseractEngine {
    /// Wraps a probed binary.
    pub fn new(tesseract: Tesseract) -> Self {
        Self { tesseract }
    }

    /// Reads a prepared image: the extraction and the text it came from.
    ///
    /// 1. A Latin first pass (`eng`, psm 3) is cheap and, for six of the nine languages,
    ///    enough to tell the language from the header and common words; a label in another
    ///    Latin language is read again with its own pack (accents).
    /// 2. When the first pass does not look Latin, `--psm 0` tells the script (Hangul,
    ///    Japanese, Han) and the CJK pack reads it with psm 6 (psm 3 loses line starts), on
    ///    the image rescaled to the CJK line height ([`PrepareOptions::cjk_line_px`]).
    /// 3. Fewer than three items: the other segmentation mode is tried, the better kept.
    pub async fn read_label(
        &self,
        prepared: &Prepared,
    ) -> Result<(Extraction, String), TesseractError> {
        let mut png = std::borrow::Cow::Borrowed(prepared.png.as_slice());
        let first = self.tesseract.read(&png, "eng", 3).await?;
        let latin = looks_latin(&first);
        let (packs, psm) = match latin {
            Some(Language::English) => ("eng".to_owned(), 3),
            Some(language) => (self.packs_for(&[language.tesseract_pack()]), 3),
            None => {
                // OSD names scripts differently at other scales (measured): it reads the
                // CJK-scaled image too.
                if let Some(cjk) = self.cjk_scale(prepared).await {
                    png = std::borrow::Cow::Owned(cjk);
                }
                (self.cjk_packs(&png).await?, 6)
            }
        };
        let reading = if packs == "eng" && psm == 3 {
            first
        } else {
            self.tesseract.read(&png, &packs, psm).await?
        };
        let mut best = (label::extract(&reading.text), reading.text);
        if best.0.items.len() < FEW_ITEMS {
            let other_psm = if psm == 3 { 6 } else { 3 };
            let other = self.tesseract.read(&png, &packs, other_psm).await?;
            let found = label::extract(&other.text);
            if score(&found) > score(&best.0) {
                best = (found, other.text);
            }
        }
        let mut used = packs.clone();
        if latin.is_none()
            && let Some(pack) =
                pack_the_content_asks(&best.0, &packs, |p| self.tesseract.has_pack(p))
        {
            let retry = self.tesseract.read(&png, &pack, 6).await?;
            let found = label::extract(&retry.text);
            tracing::debug!(osd_packs = %packs, content_pack = %pack, "CJK label read again");
            if content_score(&found) > content_score(&best.0) {
                best = (found, retry.text);
                used = pack;
            }
        }
        // Print too small for the CJK line height (upscaling capped): Tesseract's reading
        // changes from scale to scale there more than it improves (docs/ocr.md), so a
        // second scale is read too and the better reading kept.
        if latin.is_none()
            && let Some(second) = self.small_print_scale(prepared).await
        {
            let other = self.tesseract.read(&second, &used, 6).await?;
            let found = label::extract(&other.text);
            if content_score(&found) > content_score(&best.0) {
                best = (found, other.text);
            }
        }
        // A name the knowledge base does not know, even after mending: the image at the
        // first pass's scale (26 px lines) is read too, where characters fall differently.
        if latin.is_none()
            && matches!(png, std::borrow::Cow::Owned(_))
            && unknown_items(&best.0) > 0
        {
            let other = self.tesseract.read(&prepared.png, &used, 6).await?;
            let found = label::extract(&other.text);
            if content_score(&found) > content_score(&best.0) {
                best = (found, other.text);
            }
        }
        // Light falling off across the label: Otsu's global threshold loses the dark part
        // (a CJK list's last items); Sauvola's local one finds them but loses characters on
        // other labels, so both readings are compared (docs/ocr.md). The same when a name is
        // still unknown after the readings above: the local threshold draws characters
        // differently (a two-column Korean label's last name, a small Chinese one).
        if latin.is_none() && (prepared.preparation.uneven_light || unknown_items(&best.0) > 0) {
            let local = self.tesseract.read_local_threshold(&png, &used, 6).await?;
            let found = label::extract(&local.text);
            if content_score(&found) > content_score(&best.0) {
                best = (found, local.text);
            }
        }
        // The pack's reading tells the language better than the first pass.
        if best.0.language.is_none() {
            best.0.language = latin;
        }
        Ok(best)
    }

    /// The turn (0, 90, 180 or 270 degrees) the orientation and script detection (`--psm 0`,
    /// the `osd` pack) says the page needs; `None` when it cannot tell (too few characters,
    /// no pack).
    pub async fn rotation(&self, png: &[u8]) -> Option<u16> {
        if !self.tesseract.has_pack("osd") {
            return None;
        }
        let osd = self.tesseract.run(png, "osd", 0, false).await.ok()?;
        osd.lines()
            .find_map(|l| l.strip_prefix("Rotate:"))
            .and_then(|degrees| degrees.trim().parse().ok())
    }

    /// Reads a prepared image with `language`'s pack alone (rescaled to the CJK line height for
    /// Korean, Japanese and Chinese), in one call: the list printed in that language.
    pub async fn read_in(
        &self,
        prepared: &Prepared,
        language: Language,
    ) -> Result<(Extraction, String), TesseractError> {
        let rescaled = if language.is_cjk() {
            self.cjk_scale(prepared).await
        } else {
            None
        };
        let png = rescaled.as_deref().unwrap_or(&prepared.png);
        let packs = self.packs_for(&[language.tesseract_pack()]);
        let reading = self.tesseract.read(png, &packs, 6).await?;
        Ok((label::extract(&reading.text), reading.text))
    }

    /// For CJK print too small to reach the CJK line height within the upscaling limit, the
    /// image upscaled [`SMALL_PRINT_SECOND_SCALE`] times less; `None` otherwise.
    async fn small_print_scale(&self, prepared: &Prepared) -> Option<Vec<u8>> {
        let target =
            small_print_line_px(prepared.preparation.line_px, prepared.unscaled.options())?;
        self.png_at_line_px(prepared, target, "small-print").await
    }

    /// The image rescaled to the CJK line height; `None` when the scale is the same or
    /// rescaling failed (the first image is used).
    async fn cjk_scale(&self, prepared: &Prepared) -> Option<Vec<u8>> {
        let line_px = prepared.unscaled.options().cjk_line_px;
        self.png_at_line_px(prepared, line_px, "CJK-scaled").await
    }

    /// The straightened image brought to `line_px` lines and encoded, on the blocking pool at
    /// OCR priority; `None` when that is the first pass's scale or rescaling failed (logged
    /// with `what`).
    async fn png_at_line_px(
        &self,
        prepared: &Prepared,
        line_px: f32,
        what: &str,
    ) -> Option<Vec<u8>> {
        let unscaled = prepared.unscaled.clone();
        let nice = self.tesseract.nice();
        let rescaled = tokio::task::spawn_blocking(move || {
            lower_thread_priority(nice);
            unscaled.png_for_line_px(line_px)
        })
        .await;
        match rescaled {
            Ok(Ok(png)) => png,
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "cannot encode the {what} image");
                None
            }
            Err(e) => {
                tracing::warn!(error = %e, "{what} rescaling stopped");
                None
            }
        }
    }

    /// `pack+eng` when installed, else what is installed, else `eng`.
    fn packs_for(&self, packs: &[&str]) -> String {
        let installed: Vec<&str> = packs
            .iter()
            .copied()
            .filter(|p| self.tesseract.has_pack(p))
            .collect();
        if installed.is_empty() {
            "eng".to_owned()
        } else {
            installed.join("+")
        }
    }

    /// The CJK packs for the script `--psm 0` reports.
    async fn cjk_packs(&self, png: &[u8]) -> Result<String, TesseractError> {
        let osd = if self.tesseract.has_pack("osd") {
            // OSD fails ("too few characters") on sparse images: then try all three.
            self.tesseract
                .run(png, "osd", 0, false)
                .await
                .unwrap_or_default()
        } else {
            String::new()
        };
        let script = osd
            .lines()
            .find_map(|l| l.strip_prefix("Script:"))
            .map(str::trim)
            .unwrap_or("");
        Ok(match script {
            "Hangul" | "Korean" => self.packs_for(&["kor"]),
            "Japanese" | "Katakana" | "Hiragana" => self.packs_for(&["jpn"]),
            // Kana-free Han text is Chinese; jpn alongside turned 剂 into 剤.
            "Han" => self.packs_for(&["chi_sim"]),
            _ => self.packs_for(&["chi_sim", "jpn", "kor"]),
        })
    }
}

/// The Latin language of a first `eng` pass, if the text reads as Latin script with
/// reasonable confidence.
fn looks_latin(reading: &Reading) -> Option<Language> {
    if reading.words < 3 {
        return None;
    }
    // A Latin header read by the `eng` pack settles it even on a noisy photo.
    let header = label::extract(&reading.text);
    if header.header_found
        && header.items.len() >= 2
        && header.language.is_some_and(|l| !l.is_cjk())
    {
        return header.language;
    }
    if reading.mean_confidence < 55.0 {
        return None;
    }
    label::detect_language(&reading.text).filter(|l| !l.is_cjk())
}

/// The CJK pack to read the label again with, when the reading by the packs OSD chose
/// does not fit its own content: the language its header names (else its script) is not
/// the one `packs` is for. OSD names the wrong script on small print (Latin or Bengali for
/// Korean and Chinese labels: then all three packs read together, which mixes scripts) and
/// now and then on photos; a label whose reading fits pays nothing.
fn pack_the_content_asks(
    found: &Extraction,
    packs: &str,
    installed: impl Fn(&str) -> bool,
) -> Option<String> {
    let language = found
        .header_language
        .or(found.language)
        .filter(|l| l.is_cjk())?;
    let pack = language.tesseract_pack();
    (packs != pack && installed(pack)).then(|| pack.to_owned())
}

/// The line height for the second reading of small CJK print: when lines of `line_px` would
/// need more than the upscaling limit to reach the CJK line height, that limit less
/// [`SMALL_PRINT_SECOND_SCALE`]; `None` for print big enough (or no line measured).
fn small_print_line_px(line_px: f32, options: PrepareOptions) -> Option<f32> {
    (line_px > 0.0 && options.cjk_line_px / line_px > options.max_upscale)
        .then_some(line_px * (options.max_upscale - SMALL_PRINT_SECOND_SCALE))
}

/// How good an extraction looks: a header, then more items.
fn score(found: &Extraction) -> (bool, usize) {
    (found.header_found, found.items.len())
}

/// How good a reading by one set of packs is against another's: a header, then more items
/// the knowledge base knows (names, or the name before a bracket), then more items.
fn content_score(found: &Extraction) -> (bool, usize, usize) {
    let known = found.items.len() - unknown_items(found);
    (found.header_found, known, found.items.len())
}

/// Items of a CJK extraction that are neither a knowledge-base name nor an additive class
/// name (before a bracket), after the CJK mending.
fn unknown_items(found: &Extraction) -> usize {
    let kb = KnowledgeBase::embedded();
    let Some(language) = found.language.filter(|l| l.is_cjk()) else {
        return found.items.len();
    };
    correct_spelling(kb, &found.items, Some(language))
        .iter()
        .filter(|item| !domain::ocr::cjk_spelling::is_known(kb, item, language))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_threads_run_at_a_lower_priority_once() {
        let priority = || rustix::process::getpriority_process(Some(rustix::thread::gettid()));
        let (before, after, again, other) = std::thread::spawn(move || {
            let before = priority().unwrap();
            lower_thread_priority(4);
            let after = priority().unwrap();
            lower_thread_priority(4);
            let again = priority().unwrap();
            (
                before,
                after,
                again,
                std::thread::spawn(priority).join().unwrap().unwrap(),
            )
        })
        .join()
        .unwrap();
        assert_eq!(after, (before + 4).min(19), "the thread was not lowered");
        assert_eq!(again, after, "a second call lowered it again");
        // A thread it creates inherits its value (Linux); the calling thread is untouched.
        assert_eq!(other, after);
        assert_eq!(
            priority().unwrap(),
            before,
            "another thread was lowered too"
        );
    }

    #[test]
    fn settings_defaults_and_overrides() {
        let s = OcrSettings::from_env(&EnvSource::from_pairs([("OCR_CONCURRENCY", "3")])).unwrap();
        assert_eq!(s.max_image_bytes, 10_000_000);
        assert_eq!(s.max_pixels, 40_000_000);
        assert_eq!((s.concurrency, s.queue_depth), (3, 6));
        assert_eq!(s.nice, 10);
        let s = OcrSettings::from_env(&EnvSource::from_pairs([("OCR_NICE", "0")])).unwrap();
        assert_eq!(s.nice, 0);
        for bad in ["20", "-5", "low"] {
            let err =
                OcrSettings::from_env(&EnvSource::from_pairs([("OCR_NICE", bad)])).unwrap_err();
            assert!(err.to_string().starts_with("invalid OCR_NICE"), "{err}");
        }
        let err = OcrSettings::from_env(&EnvSource::from_pairs([("OCR_MAX_PIXELS", "lots")]))
            .unwrap_err();
        assert!(
            err.to_string().starts_with("invalid OCR_MAX_PIXELS 'lots'"),
            "{err}"
        );
    }

    #[test]
    fn a_cjk_reading_that_does_not_fit_its_packs_is_read_again_with_its_own() {
        let all = |_: &str| true;
        // All three packs (OSD named Latin on small print) mixed Hangul into a Chinese label
        // whose header says Chinese: chi_sim alone reads it again.
        let mixed = label::extract("配料: 책조드 (45%), 시초한, 터마테, 食用盐");
        assert_eq!(
            pack_the_content_asks(&mixed, "chi_sim+jpn+kor", all).as_deref(),
            Some("chi_sim")
        );
        // OSD said Japanese, the header is Korean.
        let korean = label::extract("성분: 설탕, 코코아버터, 전지분유");
        assert_eq!(
            pack_the_content_asks(&korean, "jpn", all).as_deref(),
            Some("kor")
        );
        // A reading that fits its pack, a Latin one, or a pack not installed: no second call.
        assert_eq!(pack_the_content_asks(&korean, "kor", all), None);
        let latin = label::extract("Ingredients: Sugar, Salt, Flour");
        assert_eq!(pack_the_content_asks(&latin, "chi_sim+jpn+kor", all), None);
        assert_eq!(
            pack_the_content_asks(&mixed, "jpn", |p| p != "chi_sim"),
            None
        );
        // The shared header 成分 names no language: the script does (kana: Japanese).
        let japanese = label::extract("成分：砂糖、ココアバター、全粉乳");
        assert_eq!(
            pack_the_content_asks(&japanese, "chi_sim", all).as_deref(),
            Some("jpn")
        );
    }

    #[test]
    fn only_cjk_print_too_small_for_the_upscaling_limit_gets_a_second_scale() {
        let options = PrepareOptions::default();
        assert_eq!((options.cjk_line_px, options.max_upscale), (32.0, 3.0));
        // 8 px characters (7 pt at 96 dpi): 4× would be needed, 3× is the limit.
        assert_eq!(small_print_line_px(8.0, options), Some(20.0));
        // 14 px (7 pt at 150 dpi) and 23 px (11 pt) reach 32 px within the limit.
        assert_eq!(small_print_line_px(14.0, options), None);
        assert_eq!(small_print_line_px(23.0, options), None);
        assert_eq!(small_print_line_px(0.0, options), None);
    }

    #[test]
    fn latin_detection_needs_a_header_or_confidence() {
        let reading = Reading {
            text: "Zutaten: Zucker, Mehl, Salz und Öl".into(),
            mean_confidence: 90.0,
            words: 6,
        };
        assert_eq!(looks_latin(&reading), Some(Language::German));
        // A noisy photo: low confidence, but the Latin header settles it.
        let noisy = Reading {
            mean_confidence: 30.0,
            ..reading.clone()
        };
        assert_eq!(looks_latin(&noisy), Some(Language::German));
        // CJK read with the eng pack: no header, low confidence.
        let garbage = Reading {
            text: "BRE: AK, HBOS, Bee".into(),
            mean_confidence: 30.0,
            words: 4,
        };
        assert_eq!(looks_latin(&garbage), None);
    }

    /// Text lines one under the other, 20 px high, in reading order.
    fn page(rows: &[&str]) -> Vec<ppocr::TextLine> {
        rows.iter()
            .enumerate()
            .map(|(i, text)| ppocr::TextLine {
                rect: ppocr::geometry::RotatedRect {
                    cx: 200.0,
                    cy: 30.0 + 24.0 * i as f32,
                    width: 380.0,
                    height: 20.0,
                    axis: (1.0, 0.0),
                },
                text: (*text).to_owned(),
                confidence: 0.99,
            })
            .collect()
    }

    #[test]
    fn reading_stops_once_the_list_has_ended() {
        let lines = page(&[
            "Ingredients: wheat flour, sugar,",
            "palm oil, salt. Store in a dry place.",
            "Nutrition facts",
        ]);
        // The list runs on to the last line read: not yet.
        assert!(!list_is_read(&lines[..1], None));
        // Ended by a full stop before the last line read.
        assert!(list_is_read(&lines[..2], None));
        assert!(list_is_read(&lines, None));
        // The list in another language than the one asked for is not the answer.
        assert!(!list_is_read(&lines, Some(Language::French)));
        let both = page(&[
            "Ingredients: wheat flour, sugar.",
            "Ingrédients : farine de blé, sucre.",
            "Zutaten: Weizenmehl, Zucker.",
        ]);
        assert!(!list_is_read(&both[..1], Some(Language::French)));
        // A full stop then more items may be a blurred comma: the French list has not ended
        // until the next header is read.
        assert!(!list_is_read(&both[..2], Some(Language::French)));
        assert!(list_is_read(&both, Some(Language::French)));
        // The list read last but printed above what was read before it: its end is looked
        // for under its own last line, not at the end of the page's text.
        let mut above = page(&[
            "Nutrition facts",
            "Ingredients: sugar, salt. Store in a dry place.",
        ]);
        above[1].rect.cy = -100.0;
        assert!(list_is_read(&above, None));
        above[1].text = "Ingredients: sugar, salt,".into();
        assert!(!list_is_read(&above, None));
        // A full stop on the last line read may be a blurred comma before more items.
        above[1].text = "Ingredients: sugar, salt.".into();
        assert!(!list_is_read(&above, None));
        // No header: Tesseract will be asked, so the page is read whole.
        assert!(!list_is_read(
            &page(&["wheat flour, sugar, salt.", "x"]),
            None
        ));
    }

    #[test]
    fn boxes_are_read_block_by_block_in_steps() {
        let mut lines = page(&["a", "b", "c", "d", "e", "f", "g", "h"]);
        // A second column far to the right, level with the first two lines.
        lines.push(ppocr::TextLine {
            rect: ppocr::geometry::RotatedRect {
                cx: 2000.0,
                ..lines[0].rect
            },
            ..lines[0].clone()
        });
        let rects: Vec<_> = lines.iter().map(|l| l.rect).collect();
        let steps = reading_steps(&rects);
        assert_eq!(steps, [vec![0, 1, 2, 3, 4, 5], vec![6, 7], vec![8]]);
    }
}
