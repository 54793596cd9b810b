//! PP-OCR as a label engine ([`PpOcrEngine`]): the models loaded once, a page read in the
//! layout's reading order only as far as the list asked for (recognition is most of a photo's
//! CPU), the list found by the layout and the grammar ([`layout`]).

use std::sync::Arc;
use std::time::Instant;

use domain::ocr::label::{Extraction, Language};

use super::{PpOcr, TextLine};
use crate::ocr::engine::{Engine, EngineReading, known_items, list_is_enough};
use crate::ocr::layout;
use crate::ocr::settings::OcrSettings;

/// The PP-OCR engine with its models loaded (one set of sessions per OCR slot); cheap to
/// clone.
#[derive(Debug, Clone)]
pub struct PpOcrEngine {
    engine: Arc<PpOcr>,
}

/// What PP-OCR read on a page, with what the orchestration needs to decide whether Tesseract
/// reads too.
pub struct NeuralReading {
    /// The list, the page text and the lines read (with their confidences, for the repairs).
    pub reading: EngineReading,
    /// Clockwise quarter turns that made the page upright (Tesseract reads it turned so).
    pub quarter_turns: u8,
    /// A list printed before the one found, in a script the models cannot read
    /// ([`layout::unread_list_first`]).
    pub unread_first: bool,
    /// Text regions the detector found (whatever their script; none on a blank page).
    pub boxes: usize,
}

impl NeuralReading {
    /// A reading that answers without asking Tesseract: a list good enough
    /// ([`list_is_enough`]) with no unread list printed before it.
    pub fn is_enough(&self) -> bool {
        list_is_enough(&self.reading.found) && !self.unread_first
    }
}

impl PpOcrEngine {
    /// Loads the models (blocking: a few hundred milliseconds per slot); `None`, logged, when
    /// they are not configured or fail to load.
    pub fn load(settings: &OcrSettings) -> Option<Self> {
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
                Some(Self {
                    engine: Arc::new(engine),
                })
            }
            Err(reason) => {
                tracing::warn!(%reason, "PP-OCR unavailable: Tesseract reads every label");
                None
            }
        }
    }

    /// The neural engine's list on an upright image. Lines are recognised a few at a time in
    /// reading order until the list asked for has been read whole (recognition is most of the
    /// CPU of a photo; what follows the list, a nutrition table, other columns, is not read); a
    /// page without such a list is read whole.
    pub fn read(
        &self,
        image: &image::RgbImage,
        deadline: Instant,
        language: Option<Language>,
    ) -> Option<NeuralReading> {
        let started = Instant::now();
        let reading = self
            .engine
            .read_until(image, deadline, reading_steps, |lines| {
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
        tracing::trace!(text = %text, "the page");
        // Known names first: small print read enlarged may lose a letter or two of its
        // header (`Igedients:`) while its items become names.
        let quality = |found: &Extraction| {
            (
                known_items(&found.items),
                found.header_found,
                found.items.len(),
            )
        };
        let first_quality = quality(&found);
        // A list read whole of which three quarters of the items are known needs no second
        // look.
        let well_read = |found: &Extraction, known: usize| {
            list_is_enough(found) && 4 * known >= 3 * found.items.len()
        };
        // A page of a script the models lack (Hangul) reads no better enlarged: Tesseract
        // reads it.
        let unreadable = layout::unread_page(&text) || layout::unread_list_first(&text);
        let mut zoom = if well_read(&found, first_quality.0) || unreadable || !reading.complete {
            None
        } else {
            zoom_region(
                &reading.lines,
                &blocks,
                image.dimensions(),
                reading.quarter_turns,
            )
        };
        let page = zoom.map(|_| turned(image, reading.quarter_turns));
        let mut best: Option<(EngineReading, (usize, bool, usize))> = None;
        let mut passes = 0;
        while let (Some(z), Some(page)) = (zoom.take(), page.as_ref())
            && passes < ZOOM_PASSES
            && deadline.saturating_duration_since(Instant::now())
                > ZOOM_LEAST_TIME.max(self.engine.pace().detection(z.pixels()) + ZOOM_LEAST_READ)
        {
            passes += 1;
            let zoomed = self.engine.read_zoomed(
                page.as_ref(),
                z.bounds,
                z.scale,
                deadline,
                reading_steps,
                |lines| {
                    list_is_read(lines, language)
                        || (header_block_passed(lines) && list_has_ended(lines, language))
                },
            );
            let zoomed = match zoomed {
                Ok(zoomed) => zoomed,
                Err(e) => {
                    tracing::warn!(error = %e, "PP-OCR failed on the enlarged print");
                    break;
                }
            };
            let zoomed_blocks = layout::blocks(&zoomed.lines);
            let (zoomed_found, zoomed_text) = layout::find_list(&zoomed_blocks);
            let zoomed_quality = quality(&zoomed_found);
            tracing::debug!(
                bounds = ?z.bounds,
                scale = z.scale,
                boxes = zoomed.boxes,
                header = zoomed_found.header_found,
                items = zoomed_found.items.len(),
                known = zoomed_quality.0,
                cut = zoomed.cut.map(super::Stage::name),
                seconds = started.elapsed().as_secs_f32(),
                "PP-OCR read the small print enlarged"
            );
            tracing::trace!(text = %zoomed_text, "the enlarged print");
            // Print still too small at the first enlargement (capped by its pixels when the
            // print spans a whole label, a tube's 5 px): the header's block of the enlarged
            // reading, closer.
            if zoomed.complete
                && zoomed_found.header_found
                && !well_read(&zoomed_found, zoomed_quality.0)
            {
                let (_, _, w, h) = z.bounds;
                let size = (
                    (w as f32 * z.scale).round() as u32,
                    (h as f32 * z.scale).round() as u32,
                );
                zoom = zoom_region(&zoomed.lines, &zoomed_blocks, size, 0)
                    .and_then(|inner| z.closer(inner));
            }
            let better = best.as_ref().map_or(first_quality, |b| b.1);
            if zoomed_quality > better {
                best = Some((
                    EngineReading {
                        engine: Engine::PpOcr,
                        found: zoomed_found,
                        text: zoomed_text,
                        lines: zoomed.lines,
                    },
                    zoomed_quality,
                ));
            }
        }
        if let Some((zoomed, _)) = best {
            return Some(NeuralReading {
                unread_first: layout::unread_list_first(&zoomed.text),
                reading: zoomed,
                quarter_turns: reading.quarter_turns,
                boxes: reading.boxes,
            });
        }
        tracing::debug!(
            boxes = reading.boxes,
            lines = reading.lines.len(),
            blocks = blocks.len(),
            quarter_turns = reading.quarter_turns,
            complete = reading.complete,
            cut = reading.cut.map(super::Stage::name),
            header = found.header_found,
            items = found.items.len(),
            seconds = started.elapsed().as_secs_f32(),
            "PP-OCR read"
        );
        Some(NeuralReading {
            unread_first: layout::unread_list_first(&text),
            reading: EngineReading {
                engine: Engine::PpOcr,
                found,
                text,
                lines: reading.lines,
            },
            quarter_turns: reading.quarter_turns,
            boxes: reading.boxes,
        })
    }
}

/// Where small print is read again enlarged ([`zoom_region`]): a part of the page in its
/// upright pixels (`x, y, width, height`) and how many times it is enlarged.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Zoom {
    bounds: (u32, u32, u32, u32),
    scale: f32,
}

impl Zoom {
    /// The pixels of the enlarged part (its detector input).
    fn pixels(self) -> u64 {
        let (_, _, w, h) = self.bounds;
        let side = |v: u32| (v as f32 * self.scale).round() as u64;
        side(w) * side(h)
    }

    /// The part `inner` of this zoom's enlarged part (in its pixels and scale) as a zoom of
    /// the page, enlarged at most [`ZOOM_MOST_SCALE`] times in all; `None` when it would not
    /// enlarge the print [`ZOOM_CLOSER`] times more than this one.
    fn closer(self, inner: Self) -> Option<Self> {
        let (x, y, _, _) = self.bounds;
        let (ix, iy, iw, ih) = inner.bounds;
        let page = |v: u32| (v as f32 / self.scale).round() as u32;
        let scale = (self.scale * inner.scale).min(ZOOM_MOST_SCALE);
        (scale >= self.scale * ZOOM_CLOSER).then(|| Self {
            bounds: (x + page(ix), y + page(iy), page(iw).max(1), page(ih).max(1)),
            scale,
        })
    }
}

/// Most readings of a part of the page enlarged (each about a megapixel of detection).
const ZOOM_PASSES: usize = 2;

/// Least enlargement of a closer zoom over the one before it for a further reading.
const ZOOM_CLOSER: f32 = 1.3;

/// Least time left in the budget to read small print again enlarged (a detection of about a
/// megapixel and the recognition of its lines).
const ZOOM_LEAST_TIME: std::time::Duration = std::time::Duration::from_millis(1500);

/// Least time left for recognition after the detection of an enlarged part (a few batches of
/// the list's lines): an enlarged part is read only when its detection, as long as the
/// engine's runs take now ([`super::Pace`]), leaves that much of the budget.
const ZOOM_LEAST_READ: std::time::Duration = std::time::Duration::from_millis(500);

/// Height the lines' boxes are enlarged to (the detector finds and separates lines of print
/// well at 30–60 px boxes; the small print of a whole pack in a 720×1280 frame has 8–16 px
/// boxes, where lines merge and characters blur).
const ZOOM_BOX_HEIGHT: f32 = 64.0;

/// Most pixels of the enlarged part (the detector's cost grows with them: about a megapixel
/// is what a 720×1280 frame costs).
const ZOOM_MOST_PIXELS: f32 = 1.6e6;

/// The part of a page to read again enlarged when no list was read whole: the block whose
/// text has a list header (with the block after it when the header stands nearly alone),
/// else every block of small print; enlarged so that its boxes reach
/// [`ZOOM_BOX_HEIGHT`], within [`ZOOM_MOST_PIXELS`]. `None` when no block is worth it (the
/// print is large enough already, or there is none).
fn zoom_region(
    lines: &[TextLine],
    blocks: &[layout::Block],
    (width, height): (u32, u32),
    quarter_turns: u8,
) -> Option<Zoom> {
    let (width, height) = if quarter_turns % 2 == 1 {
        (height, width)
    } else {
        (width, height)
    };
    let median_height = |members: &[usize]| {
        let mut h: Vec<f32> = members
            .iter()
            .filter_map(|&i| lines.get(i))
            .map(|l| l.rect.height.min(l.rect.width))
            .collect();
        h.sort_by(f32::total_cmp);
        h.get(h.len() / 2).copied().unwrap_or(0.0)
    };
    let header = blocks
        .iter()
        .position(|b| crate::ocr::repair::extract(&b.lines.join("\n")).header_found);
    let mut members: Vec<usize> = match header {
        Some(i) => {
            let mut m = blocks[i].members.clone();
            if blocks[i].lines.len() <= 2
                && let Some(next) = blocks.get(i + 1)
            {
                m.extend_from_slice(&next.members);
            }
            m
        }
        // No header read: every block of small print (the list is among them, unread).
        None => blocks
            .iter()
            .filter(|b| median_height(&b.members) * ZOOM_SMALL < ZOOM_BOX_HEIGHT)
            .flat_map(|b| b.members.iter().copied())
            .collect(),
    };
    if members.len() < ZOOM_LEAST_BOXES {
        return None;
    }
    members.retain(|&i| i < lines.len());
    let box_height = median_height(&members);
    if box_height <= 0.0 {
        return None;
    }
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for &i in &members {
        let (a, b, c, d) = lines[i].rect.bounds();
        (x0, y0, x1, y1) = (x0.min(a), y0.min(b), x1.max(c), y1.max(d));
    }
    // The rest of the rows: a line's start or end detected as a box of its own, thicker or
    // in another block (print squeezed at a tube's or a bottle's edge), beside the part
    // taken. Cutting it off loses the header and each line's first word (`sen ten:` for
    // `Zutaten:`).
    for _ in 0..2 {
        for line in lines {
            let (a, b, c, d) = line.rect.bounds();
            let centre = (b + d) / 2.0;
            let gap = if c < x0 { x0 - c } else { a - x1 };
            if centre > y0 && centre < y1 && gap < ZOOM_ROW_GAP * box_height {
                (x0, x1) = (x0.min(a), x1.max(c));
            }
        }
    }
    // A margin of a line around the block, and three lines below it (the list's last lines
    // may have been detected as a block of their own).
    let (x0, y0) = ((x0 - 2.0 * box_height).max(0.0), (y0 - box_height).max(0.0));
    let x1 = (x1 + 2.0 * box_height).min(width as f32);
    let y1 = (y1 + 3.0 * box_height).min(height as f32);
    let (w, h) = (x1 - x0, y1 - y0);
    if w < 1.0 || h < 1.0 {
        return None;
    }
    let scale = (ZOOM_BOX_HEIGHT / box_height)
        .min((ZOOM_MOST_PIXELS / (w * h)).sqrt())
        .min(ZOOM_MOST_SCALE);
    (scale >= ZOOM_SMALL).then_some(Zoom {
        bounds: (x0 as u32, y0 as u32, w.ceil() as u32, h.ceil() as u32),
        scale,
    })
}

/// Widest gap, in box heights, between the part of a page read enlarged and a line level
/// with it that is taken in too ([`zoom_region`]).
const ZOOM_ROW_GAP: f32 = 3.0;

/// Least enlargement worth a second reading (and what makes a block's print small).
const ZOOM_SMALL: f32 = 1.5;

/// Most enlargement (beyond it the print is a blur whatever its size).
const ZOOM_MOST_SCALE: f32 = 4.0;

/// Least boxes of small print worth reading again enlarged.
const ZOOM_LEAST_BOXES: usize = 3;

/// The page turned clockwise by `quarter_turns` (the frame of a reading's rectangles).
fn turned(image: &image::RgbImage, quarter_turns: u8) -> std::borrow::Cow<'_, image::RgbImage> {
    use std::borrow::Cow;
    match quarter_turns % 4 {
        1 => Cow::Owned(image::imageops::rotate90(image)),
        2 => Cow::Owned(image::imageops::rotate180(image)),
        3 => Cow::Owned(image::imageops::rotate270(image)),
        _ => Cow::Borrowed(image),
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
/// with, whole: a list that answers without Tesseract ([`NeuralReading::is_enough`]), in `language`
/// when one is asked for, that a line under the last one read would not change.
fn list_is_read(lines: &[TextLine], language: Option<Language>) -> bool {
    list_ended(lines, language, list_is_enough)
}

/// Whether the list with a header read so far, however short, has ended: a line under the
/// last one read would not change it.
fn list_has_ended(lines: &[TextLine], language: Option<Language>) -> bool {
    list_ended(lines, language, |found| found.header_found)
}

/// Whether the lines read so far hold a list that `wanted` accepts (in `language` when one
/// is asked for) that a line under the last one read would not change.
fn list_ended(
    lines: &[TextLine],
    language: Option<Language>,
    wanted: impl Fn(&Extraction) -> bool,
) -> bool {
    let answer = |lines: &[TextLine]| {
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
    let Some(found) = answer(lines).filter(|f| wanted(f)) else {
        return false;
    };
    // The next line of the last one's block: one line height further across its axis (the
    // reading order of a page read in part may put that block anywhere in the page's text).
    let r = last.rect;
    let step = 1.2 * r.height;
    let next = TextLine {
        rect: super::geometry::RotatedRect {
            cx: r.cx - r.axis.1 * step,
            cy: r.cy + r.axis.0 * step,
            ..r
        },
        text: NEXT_LINE.to_owned(),
        confidence: 1.0,
        choices: Vec::new(),
    };
    let more: Vec<TextLine> = lines.iter().cloned().chain([next]).collect();
    answer(&more).is_some_and(|f| f.items == found.items)
}

/// Whether the lines read so far (in reading order) have gone past a list header's block
/// and the block after it (what an enlarged reading reads closer after it: [`zoom_region`]).
/// With the list ended ([`list_has_ended`]), an enlarged reading stops there, however short
/// its list ([`list_is_read`] waits for one that answers).
fn header_block_passed(lines: &[TextLine]) -> bool {
    let last = lines.len().saturating_sub(1);
    let blocks = layout::blocks(lines);
    let Some(header) = blocks
        .iter()
        .position(|b| crate::ocr::repair::extract(&b.lines.join("\n")).header_found)
    else {
        return false;
    };
    blocks
        .iter()
        .position(|b| b.members.contains(&last))
        .is_some_and(|at| at > header + 1)
}

/// The layout's reading order, each block cut into steps of [`BOXES_PER_STEP`] boxes.
fn reading_steps(rects: &[super::geometry::RotatedRect]) -> Vec<Vec<usize>> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Text lines one under the other, 20 px high, in reading order.
    fn page(rows: &[&str]) -> Vec<TextLine> {
        rows.iter()
            .enumerate()
            .map(|(i, text)| TextLine {
                rect: super::super::geometry::RotatedRect {
                    cx: 200.0,
                    cy: 30.0 + 24.0 * i as f32,
                    width: 380.0,
                    height: 20.0,
                    axis: (1.0, 0.0),
                },
                text: (*text).to_owned(),
                confidence: 0.99,
                choices: Vec::new(),
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
    fn an_enlarged_reading_stops_past_the_header_block() {
        // Three blocks one under the other (gaps of several line heights between them).
        let mut lines = page(&[
            "Mangoschnitze getrocknet. Zutaten: Mangoschnitze.",
            "Morceaux de mangue séchés.",
            "Nährwerte pro 100 g",
            "Energie 1295 kJ",
        ]);
        for (i, l) in lines.iter_mut().enumerate() {
            l.rect.cy = 30.0 + 100.0 * i as f32;
        }
        assert_eq!(layout::blocks(&lines).len(), 4);
        // The header's block, then the block after it: not yet.
        assert!(!header_block_passed(&lines[..1]));
        assert!(!header_block_passed(&lines[..2]));
        // A block beyond them.
        assert!(header_block_passed(&lines[..3]));
        // A list of one item has ended with its block; one running on to the last line read
        // has not. Neither answers.
        assert!(list_has_ended(&lines[..3], None));
        let mut open = lines.clone();
        open[0].text = "Mangoschnitze getrocknet. Zutaten: Mangoschnitze,".into();
        assert!(!list_has_ended(&open[..1], None));
        assert!(!list_is_read(&lines[..3], None));
        // No header read: the whole part is read.
        let mut none = lines.clone();
        none[0].text = "Mangoschnitze getrocknet.".into();
        assert!(!header_block_passed(&none));
    }

    #[test]
    fn a_closer_zoom_is_taken_back_to_the_page_and_capped() {
        let first = Zoom {
            bounds: (100, 200, 600, 400),
            scale: 2.0,
        };
        // The top-left quarter of the enlarged part, enlarged twice more: four times in all.
        let closer = first.closer(Zoom {
            bounds: (0, 0, 600, 400),
            scale: 2.0,
        });
        assert_eq!(
            closer,
            Some(Zoom {
                bounds: (100, 200, 300, 200),
                scale: 4.0
            })
        );
        // Capped at four times in all: three times more is four, still closer.
        let capped = first.closer(Zoom {
            bounds: (200, 100, 400, 200),
            scale: 3.0,
        });
        assert_eq!(
            capped.map(|z| (z.bounds, z.scale)),
            Some(((200, 250, 200, 100), 4.0))
        );
        // Already at the cap: no closer reading.
        let at_cap = Zoom {
            bounds: (0, 0, 100, 100),
            scale: 4.0,
        };
        assert_eq!(at_cap.closer(first), None);
    }

    #[test]
    fn boxes_are_read_block_by_block_in_steps() {
        let mut lines = page(&["a", "b", "c", "d", "e", "f", "g", "h"]);
        // A second column far to the right, level with the first two lines.
        lines.push(TextLine {
            rect: super::super::geometry::RotatedRect {
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
