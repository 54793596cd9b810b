//! Tesseract reading a label ([`TesseractEngine`]): script detection, language packs, page
//! segmentation fallbacks, second scales and thresholds, each reading's list found by the
//! list grammar ([`crate::ocr::repair::extract`]). Which engine reads a photo, and when, is the
//! orchestration's ([`crate::ocr::service`]); the CLI calls are [`super::Tesseract`]'s.

use domain::knowledge::KnowledgeBase;
use domain::ocr::label::{self, Extraction, Language};

use super::repair::correct_spelling;
use super::{Reading, Tesseract, TesseractError};
use crate::ocr::engine::{Engine, EngineReading, score};
use crate::ocr::prepare::{PrepareOptions, Prepared};
use crate::ocr::repair::{self, cjk};
use crate::ocr::threads::lower_thread_priority;

/// The Tesseract language pack that reads `language`.
pub fn pack(language: Language) -> &'static str {
    match language {
        Language::English => "eng",
        Language::French => "fra",
        Language::Spanish => "spa",
        Language::German => "deu",
        Language::Italian => "ita",
        Language::Portuguese => "por",
        Language::Korean => "kor",
        Language::Japanese => "jpn",
        Language::Chinese => "chi_sim",
    }
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
    pub async fn read_label(&self, prepared: &Prepared) -> Result<EngineReading, TesseractError> {
        let mut png = std::borrow::Cow::Borrowed(prepared.png.as_slice());
        let first = self.tesseract.read(&png, "eng", 3).await?;
        let latin = looks_latin(&first);
        let (packs, psm) = match latin {
            Some(Language::English) => ("eng".to_owned(), 3),
            Some(language) => (self.packs_for(&[pack(language)]), 3),
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
        let mut best = (repair::extract(&reading.text), reading.text);
        if best.0.items.len() < FEW_ITEMS {
            let other_psm = if psm == 3 { 6 } else { 3 };
            let other = self.tesseract.read(&png, &packs, other_psm).await?;
            let found = repair::extract(&other.text);
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
            let found = repair::extract(&retry.text);
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
            let found = repair::extract(&other.text);
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
            let found = repair::extract(&other.text);
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
            let found = repair::extract(&local.text);
            if content_score(&found) > content_score(&best.0) {
                best = (found, local.text);
            }
        }
        // The pack's reading tells the language better than the first pass.
        if best.0.language.is_none() {
            best.0.language = latin;
        }
        Ok(self::reading(best.0, best.1))
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
    ) -> Result<EngineReading, TesseractError> {
        let rescaled = if language.is_cjk() {
            self.cjk_scale(prepared).await
        } else {
            None
        };
        let png = rescaled.as_deref().unwrap_or(&prepared.png);
        let packs = self.packs_for(&[pack(language)]);
        let reading = self.tesseract.read(png, &packs, 6).await?;
        Ok(self::reading(repair::extract(&reading.text), reading.text))
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

/// Tesseract's reading of a page: the list found in its text.
fn reading(found: Extraction, text: String) -> EngineReading {
    EngineReading {
        engine: Engine::Tesseract,
        found,
        text,
        lines: Vec::new(),
    }
}

/// The Latin language of a first `eng` pass, if the text reads as Latin script with
/// reasonable confidence.
fn looks_latin(reading: &Reading) -> Option<Language> {
    if reading.words < 3 {
        return None;
    }
    // A Latin header read by the `eng` pack settles it even on a noisy photo.
    let header = repair::extract(&reading.text);
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
    let wanted = pack(language);
    (packs != wanted && installed(wanted)).then(|| wanted.to_owned())
}

/// The line height for the second reading of small CJK print: when lines of `line_px` would
/// need more than the upscaling limit to reach the CJK line height, that limit less
/// [`SMALL_PRINT_SECOND_SCALE`]; `None` for print big enough (or no line measured).
fn small_print_line_px(line_px: f32, options: PrepareOptions) -> Option<f32> {
    (line_px > 0.0 && options.cjk_line_px / line_px > options.max_upscale)
        .then_some(line_px * (options.max_upscale - SMALL_PRINT_SECOND_SCALE))
}

/// How good a reading by one set of packs is against another's: a header, then more items
/// the knowledge base knows (names, or the name before a bracket), then more items.
fn content_score(found: &Extraction) -> (bool, usize, usize) {
    let known = found.items.len() - unknown_items(found);
    (found.header_found, known, found.items.len())
}

/// Items of a CJK extraction that are neither a knowledge-base name nor a function class
/// name (before a bracket), after Tesseract's CJK mending.
fn unknown_items(found: &Extraction) -> usize {
    let kb = KnowledgeBase::embedded();
    let Some(language) = found.language.filter(|l| l.is_cjk()) else {
        return found.items.len();
    };
    correct_spelling(kb, &found.items, Some(language))
        .iter()
        .filter(|item| !cjk::is_known(kb, item, language))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cjk_reading_that_does_not_fit_its_packs_is_read_again_with_its_own() {
        let all = |_: &str| true;
        // All three packs (OSD named Latin on small print) mixed Hangul into a Chinese label
        // whose header says Chinese: chi_sim alone reads it again.
        let mixed = repair::extract("配料: 책조드 (45%), 시초한, 터마테, 食用盐");
        assert_eq!(
            pack_the_content_asks(&mixed, "chi_sim+jpn+kor", all).as_deref(),
            Some("chi_sim")
        );
        // OSD said Japanese, the header is Korean.
        let korean = repair::extract("성분: 설탕, 코코아버터, 전지분유");
        assert_eq!(
            pack_the_content_asks(&korean, "jpn", all).as_deref(),
            Some("kor")
        );
        // A reading that fits its pack, a Latin one, or a pack not installed: no second call.
        assert_eq!(pack_the_content_asks(&korean, "kor", all), None);
        let latin = repair::extract("Ingredients: Sugar, Salt, Flour");
        assert_eq!(pack_the_content_asks(&latin, "chi_sim+jpn+kor", all), None);
        assert_eq!(
            pack_the_content_asks(&mixed, "jpn", |p| p != "chi_sim"),
            None
        );
        // The shared header 成分 names no language: the script does (kana: Japanese).
        let japanese = repair::extract("成分：砂糖、ココアバター、全粉乳");
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
}
