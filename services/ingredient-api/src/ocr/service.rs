//! `/ocr`'s orchestration ([`OcrService`]): which engine reads a photo, in which order, within
//! which budget, and what happens when one fails; the engines themselves know none of it
//! ([`super::engine`]).
//!
//! [`OcrService::recognise_in`] runs, under a [`Limiter`] permit (bounded concurrency with a
//! bounded wait queue):
//! 1. the vision LLM, when one is configured, reads the photo as taken, outside the OCR slot;
//!    the offline engines answer when it fails;
//! 2. on an OCR thread ([`OcrThreads`]): base64 → bytes → decoded upright image, every limit
//!    checked first ([`super::input`]); PP-OCR ([`PpOcrEngine`]) reads it, and a list with a
//!    header and two items answers at once;
//! 3. otherwise the image is prepared (rescaled, deskewed, re-encoded: the client's bytes never
//!    reach Tesseract, [`super::prepare`]) and Tesseract ([`TesseractEngine`]) reads it in a
//!    child process; the better list answers (a Korean list printed before one PP-OCR read is
//!    read by Tesseract's Korean pack alone);
//! 4. the answering engine's misreads are mended ([`EngineReading::repaired_items`]) and the
//!    items made English ([`translate`]).

use std::future::Future;
use std::time::{Duration, Instant};

use domain::knowledge::KnowledgeBase;
use domain::ocr::label::Language;

use super::OcrError;
use super::engine::{Engine, EngineReading, known_items, list_is_enough, score};
use super::input::{self, InputLimits};
use super::layout;
use super::limiter::Limiter;
use super::ppocr::reader::{NeuralReading, PpOcrEngine};
use super::prepare::{self, PrepareOptions, Prepared};
use super::settings::OcrSettings;
use super::tesseract::Tesseract;
use super::tesseract::engine::{TesseractEngine, pack};
use super::threads::{OcrThreads, lower_thread_priority};
use super::vision::{self, VisionEngine};

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

/// The answer when nothing read is credible as an ingredient list.
pub const NO_LIST: &str = "no ingredient list found: photograph the list itself, flat and in focus";

/// The answer when no engine read a list within the time budget (`OCR_TIMEOUT_SECS`).
pub const NO_LIST_IN_TIME: &str = "no ingredient list read in time: photograph the list itself, \
     flat and in focus, filling the frame";

/// The service behind `POST /ocr`; cheap to clone (shared between workers).
#[derive(Debug, Clone)]
pub struct OcrService {
    /// Tesseract, when its binary runs.
    tesseract: Option<TesseractEngine>,
    /// Why Tesseract cannot run (then `/ocr` answers 500 when PP-OCR has no list).
    unavailable: Option<String>,
    /// Tried first when configured.
    vision: Option<VisionEngine>,
    limiter: Limiter,
    limits: InputLimits,
    prepare: PrepareOptions,
    cjk_mending: bool,
    /// The PP-OCR engine, when its models loaded.
    neural: Option<PpOcrEngine>,
    /// `OCR_TIMEOUT_SECS`: the whole request's budget across engines and retries.
    timeout: Duration,
    /// Where images are decoded and prepared and the neural engine runs: one thread per slot,
    /// at `OCR_NICE`.
    threads: OcrThreads,
}

/// What the blocking stage produced: the neural engine's list when it is good enough, or the
/// image prepared for Tesseract (with the neural list, if any, to compare).
enum Stage {
    Done(NeuralReading),
    /// The prepared image, the neural list, and the upright image when the neural engine
    /// turned the page sideways without reading a list (which way up it is may be wrong).
    Tesseract(Prepared, Option<NeuralReading>, Option<image::DynamicImage>),
}

impl OcrService {
    /// Loads the PP-OCR models and probes Tesseract. A missing binary is logged and makes
    /// `/ocr` answer 500 when PP-OCR cannot answer alone; the rest of the service still
    /// starts.
    pub async fn build(settings: &OcrSettings) -> Self {
        let neural = {
            let settings = settings.clone();
            tokio::task::spawn_blocking(move || PpOcrEngine::load(&settings))
                .await
                .unwrap_or_else(|e| {
                    tracing::error!(error = %e, "loading the PP-OCR models stopped");
                    None
                })
        };
        let (tesseract, unavailable) = match Tesseract::probe(
            settings.tesseract_bin.clone(),
            settings.timeout,
            settings.nice,
        )
        .await
        {
            Ok(tesseract) => {
                let missing: Vec<&str> = Language::ALL
                    .iter()
                    .map(|l| pack(*l))
                    .chain(["osd"])
                    .filter(|p| !tesseract.has_pack(p))
                    .collect();
                if !missing.is_empty() {
                    tracing::warn!(
                        ?missing,
                        "Tesseract language packs missing; those labels read worse"
                    );
                }
                (Some(TesseractEngine::new(tesseract)), None)
            }
            Err(reason) => {
                tracing::error!(%reason, "OCR engine unavailable: /ocr will answer 500");
                (None, Some(reason))
            }
        };
        Self {
            tesseract,
            unavailable,
            vision: None,
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
    /// misreads ([`super::repair::cjk`]; measurements).
    pub fn with_cjk_mending(mut self, on: bool) -> Self {
        self.cjk_mending = on;
        self
    }

    /// The same service with a vision LLM tried before the offline engines.
    pub fn with_vision(mut self, vision: Option<VisionEngine>) -> Self {
        self.vision = vision;
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
                let cpu = super::ppocr::thread_cpu();
                let image = input::decode_image(&bytes, limits)?;
                drop(bytes);
                tracing::debug!(
                    cpu_decode_s = super::ppocr::thread_cpu() - cpu,
                    "image decoded"
                );
                // One RGB copy of the photo serves both engines (no copy for an RGB JPEG).
                let (image, neural_found) = match neural {
                    Some(engine) => {
                        let rgb = image.into_rgb8();
                        let found = engine.read(&rgb, deadline, language);
                        (image::DynamicImage::ImageRgb8(rgb), found)
                    }
                    None => (image, None),
                };
                match neural_found {
                    Some(n) if n.is_enough() => Ok(Stage::Done(n)),
                    // The budget is spent: the best reading so far answers (or, without a
                    // list, the failure that says so). Preparing the page for Tesseract
                    // would cost a second of CPU the request no longer has, and the slot's
                    // next request would wait for it.
                    Some(n) if Instant::now() >= deadline => Ok(Stage::Done(n)),
                    // No text at all: the detector finds regions of every script (Hangul
                    // too), so Tesseract would read nothing either, for seconds.
                    Some(n) if n.boxes == 0 => Ok(Stage::Done(n)),
                    // A page the neural engine read in Latin print without finding a list:
                    // Tesseract reads the same print worse (docs/ocr.md).
                    Some(n) if layout::read_in_latin(&n.reading.text) => Ok(Stage::Done(n)),
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
                        let unsure = turns % 2 == 1
                            && other
                                .as_ref()
                                .is_some_and(|n| !n.reading.found.header_found);
                        Ok(Stage::Tesseract(prepared, other, unsure.then_some(image)))
                    }
                }
            })
            .await
            .map_err(|e| OcrError::Engine(format!("image preparation stopped: {e}")))??;
        let reading = match stage {
            Stage::Done(neural) => neural.reading,
            Stage::Tesseract(mut prepared, neural, sideways) => {
                // The neural engine tells a sideways page by its boxes and which way up it
                // is by its classifier, both from the scripts it knows: on one it cannot read
                // (Hangul) either may be wrong, and Tesseract's orientation check has the last
                // word. The engine's turn stands when the check finds it upright, half a turn
                // more when it finds it upside down; otherwise (still sideways, or no answer)
                // the page as it came.
                let quarter_turns = neural.as_ref().map_or(0, |n| n.quarter_turns);
                let correction = match sideways {
                    Some(image) => match self.osd_rotation(&prepared, deadline).await {
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
                // The first list is in a script the models lack, before one they read well,
                // or the whole page is: Korean is the one of the nine languages they cannot
                // read, so Tesseract reads it with its own pack first (its whole path, an
                // `eng` pass and script detection before the Korean pack, took most of the
                // budget). A Korean reading without a list takes the whole path below.
                let korean_first = |n: &NeuralReading| {
                    (n.unread_first && list_is_enough(&n.reading.found))
                        || layout::unread_page(&n.reading.text)
                };
                if neural.as_ref().is_some_and(korean_first)
                    && let Some(reading) = self.read_korean(&prepared, deadline).await
                {
                    return self.finish(in_language(reading, language), started, deadline);
                }
                match (self.read_tesseract(&prepared, deadline).await, neural) {
                    (Ok(tess), Some(n)) if score(&n.reading.found) > score(&tess.found) => {
                        n.reading
                    }
                    (Ok(tess), _) => {
                        return self.finish(in_language(tess, language), started, deadline);
                    }
                    (Err(_), Some(n)) => n.reading,
                    (Err(e), None) => return Err(e),
                }
            }
        };
        self.finish(in_language(reading, language), started, deadline)
    }

    /// The response from an engine's reading: its misreads mended, items translated; a
    /// reading that is not credible as an ingredient list ([`credible`]) is
    /// [`OcrError::NoList`], never a made-up list (saying the time ran out when it did).
    fn finish(
        &self,
        reading: EngineReading,
        started: Instant,
        deadline: Instant,
    ) -> Result<OcrOutcome, OcrError> {
        let found = &reading.found;
        tracing::info!(
            engine = reading.engine.name(),
            language = found.language.map(Language::code),
            items = found.items.len(),
            header = found.header_found,
            seconds = started.elapsed().as_secs_f32(),
            "label read"
        );
        let kb = KnowledgeBase::embedded();
        let items = reading.repaired_items(kb, self.cjk_mending);
        if !credible(&items, found.header_found) {
            tracing::info!(
                engine = reading.engine.name(),
                items = items.len(),
                "no credible ingredient list"
            );
            let spent = Instant::now() >= deadline;
            return Err(OcrError::NoList(if spent {
                NO_LIST_IN_TIME
            } else {
                NO_LIST
            }));
        }
        Ok(OcrOutcome {
            text: translate(&items, found.language).join(", "),
            original_text: items.join(", "),
            language: found.language,
            engine: reading.engine.name().to_owned(),
            raw_text: reading.text,
        })
    }

    /// The vision model first, then the offline engines. The slot is held while decoding
    /// (CPU) and again for the offline engines, but not while waiting for the model: a slow
    /// LLM must not keep the OCR slot idle. Only the decoded file (at most
    /// `OCR_MAX_IMAGE_BYTES`) is kept meanwhile.
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
                "vision LLM failed; the offline engines answer"
            ),
        }
        drop(sent);
        // Admitted once already: a full queue does not turn the fallback away.
        let _permit = self.limiter.reacquire().await?;
        self.read_offline(bytes, language).await
    }

    /// The clockwise turn Tesseract's orientation check (`--psm 0`) asks of the prepared page.
    async fn osd_rotation(&self, prepared: &Prepared, deadline: Instant) -> Option<u16> {
        within(deadline, self.tesseract.as_ref()?.rotation(&prepared.png))
            .await
            .flatten()
    }

    /// Tesseract's Korean list on a prepared image, when it finds one with a header and two
    /// items; `None` otherwise (also when Tesseract is missing or fails).
    async fn read_korean(&self, prepared: &Prepared, deadline: Instant) -> Option<EngineReading> {
        let tesseract = self.tesseract.as_ref()?;
        match within(deadline, tesseract.read_in(prepared, Language::Korean)).await? {
            Ok(reading) if reading.found.header_found && reading.found.items.len() >= 2 => {
                Some(reading)
            }
            Ok(_) => None,
            Err(e) => {
                tracing::warn!(error = %e, "Tesseract could not read the Korean list");
                None
            }
        }
    }

    /// Tesseract's reading of a prepared image, within the request's budget
    /// ([`OcrError::NoList`] past it).
    async fn read_tesseract(
        &self,
        prepared: &Prepared,
        deadline: Instant,
    ) -> Result<EngineReading, OcrError> {
        let Some(tesseract) = &self.tesseract else {
            let reason = self.unavailable.clone();
            return Err(OcrError::Unavailable(
                reason.unwrap_or_else(|| "no OCR engine configured".into()),
            ));
        };
        let started = Instant::now();
        let Some(read) = within(deadline, tesseract.read_label(prepared)).await else {
            tracing::info!(
                engine = Engine::Tesseract.name(),
                seconds = started.elapsed().as_secs_f32(),
                "time budget spent"
            );
            return Err(OcrError::NoList(NO_LIST_IN_TIME));
        };
        match read {
            Ok(reading) => {
                tracing::debug!(
                    engine = Engine::Tesseract.name(),
                    scale = prepared.preparation.scale,
                    skew = prepared.preparation.skew_degrees,
                    seconds = started.elapsed().as_secs_f32(),
                    "Tesseract read"
                );
                Ok(reading)
            }
            Err(e) => {
                tracing::error!(engine = Engine::Tesseract.name(), error = %e, "OCR engine failed");
                Err(OcrError::Engine(e.to_string()))
            }
        }
    }
}

/// `work`, stopped at `deadline` (`None`; Tesseract's children are killed when their future is
/// dropped).
async fn within<T>(deadline: Instant, work: impl Future<Output = T>) -> Option<T> {
    tokio::time::timeout_at(tokio::time::Instant::from_std(deadline), work)
        .await
        .ok()
}

/// Whether the items read are credible as an ingredient list: after a header, at least one
/// item is a name the knowledge base resolves or a function class (the name before any
/// bracket, without marks and figures: `rote Paprika* 11%`), or three quarters of two items
/// or more read as words ([`reads_as_words`]: the materials of a plaster, `Mineralöl,
/// Absorber, synthetischer Kleber` or `Viskose-Vlies, Klebstoff auf Acrylat-Basis`, which
/// the knowledge base of foods and cosmetics does not know; of two items, both); without a
/// header, at least half are known. Noise read off a pack (`500, Wm,
/// MadnMc`), a reading in a script the label is not printed in, or nothing at all is not a
/// list. (Requiring a third known after a header turned away real lists of products the
/// knowledge base hardly knows, on the shared photos.)
pub fn credible(items: &[String], header: bool) -> bool {
    let known = known_items(items);
    if header {
        let words = items.iter().filter(|item| reads_as_words(item)).count();
        known >= 1 || (items.len() >= 2 && 4 * words >= 3 * items.len())
    } else {
        known >= 1 && 2 * known >= items.len()
    }
}

/// The accented letters of the Latin-script label languages (lower case).
const LATIN_LETTERS: &str = "äöüßàâéèêëîïôûùçœæåáíóúñãõì";

/// The vowels of the Latin-script label languages, accented or not (lower case).
const LATIN_VOWELS: &str = "aeiouyäöüàâéèêëîïôûùœæåáíóúãõì";

/// Whether an item reads as words of a language written in Latin letters rather than as what
/// a recogniser makes of a blur: no digit inside a word (`Wa55er`), no capital after a
/// lower-case letter (`MadnMc`), a vowel in each word, and one word of four letters or more.
/// Figures and shares as separate words (`11%`) and brackets do not count against it.
fn reads_as_words(item: &str) -> bool {
    let head = item.split(['(', '（']).next().unwrap_or(item);
    let words: Vec<&str> = head
        .split([' ', '-', '/'])
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|w| !w.is_empty() && !w.chars().all(|c| c.is_ascii_digit() || c == ','))
        .collect();
    let lower = |c: char| c.to_lowercase().next().unwrap_or(c);
    let letter = |c: char| c.is_ascii_alphabetic() || LATIN_LETTERS.contains(lower(c));
    let vowel = |c: char| LATIN_VOWELS.contains(lower(c));
    let word_like = |w: &&str| {
        let chars: Vec<char> = w.chars().collect();
        chars.iter().all(|&c| letter(c))
            && chars.iter().any(|&c| vowel(c))
            && !chars
                .windows(2)
                .any(|p| p[0].is_lowercase() && p[1].is_uppercase())
    };
    !words.is_empty() && words.iter().all(word_like) && words.iter().any(|w| w.chars().count() >= 4)
}

/// The reading with the list in the requested language when the page has one, else the
/// extraction as found.
fn in_language(mut reading: EngineReading, language: Option<Language>) -> EngineReading {
    if let Some(found) = language.and_then(|l| layout::list_in_language(&reading.text, l)) {
        reading.found = found;
    }
    reading
}

/// Translates the items to English through the knowledge base's multilingual names; unknown
/// and INCI names stay as printed.
pub fn translate(items: &[String], language: Option<Language>) -> Vec<String> {
    domain::ocr::translate::to_english(KnowledgeBase::embedded(), items, language)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn a_list_is_credible_when_the_knowledge_base_knows_some_of_it() {
        // Misreads among known names, after a header.
        assert!(credible(
            &items(&[
                "Sojsauce (Wasser, Sojabohnen)",
                "Modifizierte Stärke",
                "Branntenessg"
            ]),
            true
        ));
        // Marks and figures around a known name, and a class name before its bracket.
        assert!(credible(
            &items(&["rote Paprika* 11%", "Xq", "Yq", "Zq"]),
            true
        ));
        assert!(credible(
            &items(&["Emulgator (Sojalecithin)", "Xyzzy"]),
            true
        ));
        // Noise read off a pack, with or without a header read into it, and nothing at all.
        assert!(!credible(&items(&["500", "Wm", "MadnMc"]), true));
        assert!(!credible(&items(&["トン和信", "Ab"]), true));
        assert!(!credible(&[], true));
        // After a header, materials the knowledge base does not know, read as words; not
        // the same number of misreads.
        assert!(credible(
            &items(&[
                "Mineralöl",
                "Absorber",
                "synthetischer Kleber",
                "Polyurethan-Folie"
            ]),
            true
        ));
        assert!(!credible(
            &items(&["Wa55er 00982", "temnperaturMa", "Xq"]),
            true
        ));
        // Two materials, each read as words (a plaster's), are a list; two items of noise
        // or one word are not.
        assert!(credible(
            &items(&["Viskose-Vlies", "Klebstoff auf Acrylat-Basis"]),
            true
        ));
        assert!(!credible(&items(&["Wm Sesam", "MadnMc"]), true));
        assert!(!credible(&items(&["Vlies", "5x7 cm"]), true));
        assert!(!credible(&items(&["Absorber"]), true));
        // One item after a header, a known food and how it was made (peanut butter's
        // `Erdnüsse* geröstet`): a list; one unknown word or a misread name is not.
        assert!(credible(&items(&["Erdnüsse* geröstet"]), true));
        assert!(credible(
            &items(&["Butter eingesotten aus pasteurisiertem Rahm"]),
            true
        ));
        assert!(!credible(&items(&["Sutter eingesotten"]), true));
        // Without a header, most items must be known.
        assert!(!credible(&items(&["Zucker", "Wm", "MadnMc", "Xq"]), false));
        assert!(credible(&items(&["Zucker", "Salz", "Xq"]), false));
    }
}
