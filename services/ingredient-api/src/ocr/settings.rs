//! `/ocr`'s settings from the environment ([`OcrSettings`], docs/configuration.md).

use std::path::PathBuf;
use std::time::Duration;

use service_kit::config::{ConfigError, EnvSource};

use super::ppocr::PpOcrOptions;
use super::ppocr::models::{ModelChoice, ModelSize};
use super::tesseract::MAX_NICE;

/// `/ocr` settings (see docs/configuration.md).
#[derive(Debug, Clone)]
pub struct OcrSettings {
    /// `OCR_MAX_IMAGE_BYTES`: largest decoded image file (default 10 MB).
    pub max_image_bytes: usize,
    /// `OCR_MAX_PIXELS`: largest image in pixels, checked from the header (default 40 M).
    pub max_pixels: u64,
    /// `OCR_TIMEOUT_SECS`: the whole request's time budget across engines and retries, from
    /// the moment it holds an OCR slot (default 8 s wall): past it, the best reading so far or
    /// a clear failure.
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
    /// `OCR_MALLOC`: `tuned` (default) runs the server with glibc's allocator settings for ONNX
    /// Runtime's activations ([`super::memory`]: a lower peak for more system CPU),
    /// `default` with glibc's own.
    pub malloc_tuned: bool,
    /// The neural engine's tuning (not configurable: measurements change it), but for which
    /// models run: `OCR_DETECTOR` (default `small`), `OCR_SECOND_DETECTOR` (the detector of
    /// the enlarged and turned looks, default `OCR_DETECTOR`'s) and `OCR_RECOGNISER` (default
    /// `small`), each `small`, `tiny` or `mobile-v5` ([`ModelSize`]).
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
                env.parse_or("OCR_TIMEOUT_SECS", 8u64, "a whole number of seconds")?
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
            malloc_tuned: parse_malloc(env)?,
            models_dir: Some(env.string_or("OCR_MODELS_DIR", DEV_MODELS_DIR))
                .filter(|d| !d.is_empty())
                .map(PathBuf::from),
            ort_library: Some(env.string_or("OCR_ORT_LIBRARY", ""))
                .filter(|d| !d.is_empty())
                .map(PathBuf::from),
            ppocr: PpOcrOptions {
                models: parse_models(env)?,
                ..PpOcrOptions::default()
            },
        })
    }
}

/// `OCR_DETECTOR`, `OCR_SECOND_DETECTOR` and `OCR_RECOGNISER`.
fn parse_models(env: &EnvSource) -> Result<ModelChoice, ConfigError> {
    let size = |key: &str, default: ModelSize| -> Result<ModelSize, ConfigError> {
        match env.raw(key) {
            None => Ok(default),
            Some(name) => ModelSize::parse(name).ok_or_else(|| ConfigError::Invalid {
                key: key.into(),
                value: name.into(),
                expected: ModelSize::NAMES.into(),
            }),
        }
    };
    let detector = size("OCR_DETECTOR", ModelSize::Small)?;
    Ok(ModelChoice {
        detector,
        second_detector: size("OCR_SECOND_DETECTOR", detector)?,
        recogniser: size("OCR_RECOGNISER", ModelSize::Small)?,
    })
}

/// `OCR_NICE`, 0 to 19.
fn parse_nice(env: &EnvSource) -> Result<u8, ConfigError> {
    const EXPECTED: &str = "a niceness from 0 to 19";
    let nice: u8 = env.parse_or("OCR_NICE", 10, EXPECTED)?;
    if nice > MAX_NICE {
        return Err(ConfigError::Invalid {
            key: "OCR_NICE".into(),
            value: nice.to_string(),
            expected: EXPECTED.into(),
        });
    }
    Ok(nice)
}

/// `OCR_MALLOC`: `tuned` or `default` (read again before the server starts:
/// [`super::memory::exec_with_malloc_tunables`]).
fn parse_malloc(env: &EnvSource) -> Result<bool, ConfigError> {
    match env.string_or("OCR_MALLOC", "tuned").as_str() {
        "tuned" => Ok(true),
        "default" => Ok(false),
        other => Err(ConfigError::Invalid {
            key: "OCR_MALLOC".into(),
            value: other.into(),
            expected: "tuned or default".into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_defaults_and_overrides() {
        let s = OcrSettings::from_env(&EnvSource::from_pairs([("OCR_CONCURRENCY", "3")])).unwrap();
        assert_eq!(s.max_image_bytes, 10_000_000);
        assert_eq!(s.max_pixels, 40_000_000);
        assert_eq!((s.concurrency, s.queue_depth), (3, 6));
        assert_eq!(s.nice, 10);
        // One budget for the whole request.
        assert_eq!(s.timeout, Duration::from_secs(8));
        let s = OcrSettings::from_env(&EnvSource::from_pairs([("OCR_NICE", "0")])).unwrap();
        assert_eq!(s.nice, 0);
        for bad in ["20", "-5", "low"] {
            let err =
                OcrSettings::from_env(&EnvSource::from_pairs([("OCR_NICE", bad)])).unwrap_err();
            assert!(err.to_string().starts_with("invalid OCR_NICE"), "{err}");
        }
        assert_eq!(s.ppocr.models, ModelChoice::default());
        let s = OcrSettings::from_env(&EnvSource::from_pairs([("OCR_DETECTOR", "tiny")])).unwrap();
        assert_eq!(
            (s.ppocr.models.detector, s.ppocr.models.second_detector),
            (ModelSize::Tiny, ModelSize::Tiny)
        );
        let s = OcrSettings::from_env(&EnvSource::from_pairs([
            ("OCR_DETECTOR", "tiny"),
            ("OCR_SECOND_DETECTOR", "small"),
            ("OCR_RECOGNISER", "mobile-v5"),
        ]))
        .unwrap();
        assert_eq!(
            s.ppocr.models,
            ModelChoice {
                detector: ModelSize::Tiny,
                second_detector: ModelSize::Small,
                recogniser: ModelSize::MobileV5,
            }
        );
        let err = OcrSettings::from_env(&EnvSource::from_pairs([("OCR_RECOGNISER", "large")]))
            .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("invalid OCR_RECOGNISER 'large'"),
            "{err}"
        );
        let err = OcrSettings::from_env(&EnvSource::from_pairs([("OCR_MAX_PIXELS", "lots")]))
            .unwrap_err();
        assert!(
            err.to_string().starts_with("invalid OCR_MAX_PIXELS 'lots'"),
            "{err}"
        );
    }
}
