//! Loading the PP-OCR ONNX models once, through ONNX Runtime loaded from its shared library.
//!
//! `ort` runs a session through `&mut`, so each concurrent OCR slot gets its own set of
//! sessions ([`ModelPool`]): built at start-up, one per `OCR_CONCURRENCY` slot, each running
//! on the calling thread only (one intra-op thread, no inter-op pool, no spinning), so a
//! request never uses more than the one core its slot stands for.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, OnceLock};

use ort::environment::Environment;
use ort::session::builder::GraphOptimizationLevel;
use ort::session::{RunOptions, Session};

/// The files the install script puts in the models folder: the default detector (PP-OCRv6
/// small; the other sizes are [`ModelSize::detector_file`]).
pub const DETECTOR_FILE: &str = "det.onnx";
/// The default recogniser (its character list is in the model's metadata, key `character`;
/// a model without it has its list in a text file beside it, [`dictionary_file`]).
pub const RECOGNISER_FILE: &str = "rec.onnx";
/// The text-line angle classifier (0° or 180°).
pub const CLASSIFIER_FILE: &str = "cls.onnx";

/// One of the PP-OCR model sizes the install script puts in the models folder
/// (`OCR_DETECTOR`, `OCR_SECOND_DETECTOR`, `OCR_RECOGNISER`; docs/ocr.md, "Engines", says what
/// each costs and reads).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ModelSize {
    /// PP-OCRv6 small (`det.onnx`, `rec.onnx`): the default.
    #[default]
    Small,
    /// PP-OCRv6 tiny (`det-tiny.onnx`, `rec-tiny.onnx`; the recogniser knows 6,904
    /// characters: Latin, Greek, Cyrillic and Chinese, no kana).
    Tiny,
    /// PP-OCRv5 mobile (`det-mobile-v5.onnx`, `rec-mobile-v5.onnx`).
    MobileV5,
}

impl ModelSize {
    /// The names [`Self::parse`] takes.
    pub const NAMES: &'static str = "small, tiny or mobile-v5";

    /// `small`, `tiny` or `mobile-v5`.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "small" => Some(Self::Small),
            "tiny" => Some(Self::Tiny),
            "mobile-v5" => Some(Self::MobileV5),
            _ => None,
        }
    }

    fn suffix(self) -> &'static str {
        match self {
            Self::Small => "",
            Self::Tiny => "-tiny",
            Self::MobileV5 => "-mobile-v5",
        }
    }

    /// The detector's file in the models folder.
    pub fn detector_file(self) -> String {
        format!("det{}.onnx", self.suffix())
    }

    /// The recogniser's file in the models folder.
    pub fn recogniser_file(self) -> String {
        format!("rec{}.onnx", self.suffix())
    }
}

/// Which model of each kind the engine runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ModelChoice {
    /// The detector of a page's first look (`OCR_DETECTOR`).
    pub detector: ModelSize,
    /// The detector of every other look: small print enlarged, a page turned a quarter
    /// (`OCR_SECOND_DETECTOR`, by default the first look's).
    pub second_detector: ModelSize,
    /// The recogniser (`OCR_RECOGNISER`).
    pub recogniser: ModelSize,
}

/// The character list of a recogniser whose model carries none: `rec-tiny.txt` beside
/// `rec-tiny.onnx`, one character a line.
pub fn dictionary_file(recogniser: &Path) -> PathBuf {
    recogniser.with_extension("txt")
}

/// Why the models cannot be used (the service falls back to Tesseract).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ModelError {
    /// A model file is not there.
    #[error("{0} not found (run scripts/setup/install-ocr-models.sh)")]
    Missing(PathBuf),
    /// ONNX Runtime could not be loaded or refused a model.
    #[error("ONNX Runtime: {0}")]
    Runtime(String),
    /// The recogniser has no character list in its metadata, nor a readable one beside it.
    #[error("the recogniser has no `character` metadata and no dictionary file beside it")]
    NoDictionary,
}

/// One slot's sessions.
pub struct Models {
    /// Text detection (DB) of a page's first look.
    pub detector: Session,
    /// Text detection of the other looks, when its model is not the first look's.
    pub second_detector: Option<Session>,
    /// Text-line recognition (CTC).
    pub recogniser: Session,
    /// Text-line angle classification.
    pub classifier: Session,
    /// The options of every recogniser and classifier run (their arena shrunk after it).
    pub line_run: RunOptions,
}

impl std::fmt::Debug for Models {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Models")
            .field("detector", &self.detector)
            .field("second_detector", &self.second_detector)
            .field("recogniser", &self.recogniser)
            .field("classifier", &self.classifier)
            .finish_non_exhaustive()
    }
}

/// The sessions of every slot and the recogniser's alphabet.
#[derive(Debug)]
pub struct ModelPool {
    slots: Vec<Mutex<Models>>,
    /// CTC classes: index 0 is the blank, then the dictionary, then a space.
    pub alphabet: Vec<String>,
}

/// ONNX Runtime allows one environment per process; every pool shares it.
static ENVIRONMENT: OnceLock<Result<Environment, String>> = OnceLock::new();

fn environment(library: &Path) -> Result<Environment, ModelError> {
    ENVIRONMENT
        .get_or_init(|| {
            ort::init_from(library)
                .map_err(|e| format!("cannot load {}: {e}", library.display()))?
                .with_name("ingredient-api")
                .build()
                .map_err(|e| e.to_string())
        })
        .clone()
        .map_err(ModelError::Runtime)
}

/// A session of one model on the calling thread. With `arena`, its tensors come from ONNX
/// Runtime's CPU arena (the recogniser and the classifier: tens of small runs a photo, each
/// reusing the arena's blocks instead of memory mapped afresh for every tensor, which the
/// allocator setting of [`crate::ocr::memory`] does for every block over 128 KiB: about a
/// fifth less CPU a photo), shrunk after each run ([`line_run_options`]) so that it holds
/// nothing while the detector runs. The detector's activations (about 110 MB a megapixel of
/// input) stay out of it: an arena keeps its blocks in the sizes it grew them in, and with
/// the detector in it a photo's peak rose from 348 to 523 MB.
fn session(env: &Environment, path: &Path, arena: bool) -> Result<Session, ModelError> {
    let runtime = |e: ort::Error| ModelError::Runtime(format!("{}: {e}", path.display()));
    let builder = |e: ort::Error<ort::session::builder::SessionBuilder>| {
        ModelError::Runtime(format!("{}: {e}", path.display()))
    };
    Session::builder(env)
        .map_err(runtime)?
        .with_optimization_level(GraphOptimizationLevel::Level3)
        .map_err(builder)?
        .with_intra_threads(1)
        .map_err(builder)?
        .with_inter_threads(1)
        .map_err(builder)?
        .with_intra_op_spinning(false)
        .map_err(builder)?
        // Without memory patterns the activations of one image are freed when it is done,
        // rather than kept at their peak for the next one per slot.
        .with_memory_pattern(false)
        .map_err(builder)?
        .with_execution_providers([ort::ep::CPU::default().with_arena_allocator(arena).build()])
        .map_err(builder)?
        .commit_from_file(path)
        .map_err(runtime)
}

/// The options of every recogniser and classifier run: their arena is shrunk back to what it
/// holds in use (nothing) when the run is done ([`session`]).
fn line_run_options() -> Result<RunOptions, ModelError> {
    let runtime = |e: ort::Error| ModelError::Runtime(e.to_string());
    let mut run = RunOptions::new().map_err(runtime)?;
    run.set("memory.enable_memory_arena_shrinkage", "cpu:0")
        .map_err(runtime)?;
    Ok(run)
}

impl Models {
    /// The detector of a first look (`again` false) or of another look.
    pub fn detector(&mut self, again: bool) -> &mut Session {
        match (again, self.second_detector.as_mut()) {
            (true, Some(second)) => second,
            _ => &mut self.detector,
        }
    }
}

impl ModelPool {
    /// Loads `slots` sets of the models `choice` names from `dir`, with ONNX Runtime from
    /// `library`.
    pub fn load(
        dir: &Path,
        library: &Path,
        slots: usize,
        choice: ModelChoice,
    ) -> Result<Self, ModelError> {
        let detector = dir.join(choice.detector.detector_file());
        let second_detector = (choice.second_detector != choice.detector)
            .then(|| dir.join(choice.second_detector.detector_file()));
        let recogniser = dir.join(choice.recogniser.recogniser_file());
        let classifier = dir.join(CLASSIFIER_FILE);
        for file in [Some(&detector), second_detector.as_ref(), Some(&recogniser)]
            .into_iter()
            .flatten()
            .chain([&classifier, &library.to_owned()])
        {
            if !file.is_file() {
                return Err(ModelError::Missing(file.clone()));
            }
        }
        let env = environment(library)?;
        let mut sets = Vec::with_capacity(slots);
        for _ in 0..slots.max(1) {
            sets.push(Mutex::new(Models {
                detector: session(&env, &detector, false)?,
                second_detector: second_detector
                    .as_ref()
                    .map(|path| session(&env, path, false))
                    .transpose()?,
                recogniser: session(&env, &recogniser, true)?,
                classifier: session(&env, &classifier, true)?,
                line_run: line_run_options()?,
            }));
        }
        let alphabet = {
            let first = sets[0].lock().unwrap_or_else(|p| p.into_inner());
            let meta = first
                .recogniser
                .metadata()
                .map_err(|e| ModelError::Runtime(e.to_string()))?;
            let dictionary = match meta.custom("character") {
                Some(dictionary) => dictionary,
                None => std::fs::read_to_string(dictionary_file(&recogniser))
                    .map_err(|_| ModelError::NoDictionary)?,
            };
            alphabet(&dictionary)
        };
        Ok(Self {
            slots: sets,
            alphabet,
        })
    }

    /// A free set of sessions. The OCR limiter admits at most one request per slot, so one
    /// is free; should one not be (a slot held past its permit), this waits for the first.
    pub fn take(&self) -> MutexGuard<'_, Models> {
        for slot in &self.slots {
            if let Ok(models) = slot.try_lock() {
                return models;
            }
        }
        // A panic inside ONNX Runtime's call cannot leave the sessions half-changed.
        self.slots[0].lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The CTC classes from the dictionary (one character a line, a last line break or none):
/// blank first, space last.
pub fn alphabet(dictionary: &str) -> Vec<String> {
    let dictionary = dictionary
        .strip_suffix('\n')
        .map_or(dictionary, |d| d.strip_suffix('\r').unwrap_or(d));
    std::iter::once(String::new())
        .chain(
            dictionary
                .split('\n')
                .map(|c| c.trim_end_matches('\r').to_owned()),
        )
        .chain(std::iter::once(" ".to_owned()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_alphabet_has_a_blank_first_and_a_space_last() {
        assert_eq!(alphabet("a\nb\r\nç"), ["", "a", "b", "ç", " "]);
        // A dictionary file's last line break ends its last line; it adds no class.
        assert_eq!(alphabet("a\nb\r\nç\r\n"), alphabet("a\nb\r\nç"));
        assert_eq!(alphabet("a\n\n"), ["", "a", "", " "]);
    }

    #[test]
    fn each_size_names_its_files() {
        assert_eq!(ModelSize::default().detector_file(), DETECTOR_FILE);
        assert_eq!(ModelSize::default().recogniser_file(), RECOGNISER_FILE);
        assert_eq!(ModelSize::Tiny.recogniser_file(), "rec-tiny.onnx");
        assert_eq!(ModelSize::MobileV5.detector_file(), "det-mobile-v5.onnx");
        assert_eq!(
            dictionary_file(Path::new("/m/rec-tiny.onnx")),
            Path::new("/m/rec-tiny.txt")
        );
        for name in ["small", "tiny", "mobile-v5"] {
            assert!(ModelSize::NAMES.contains(name));
            assert!(ModelSize::parse(name).is_some(), "{name}");
        }
        assert_eq!(ModelSize::parse("large"), None);
    }

    #[test]
    fn missing_files_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let library = dir.path().join("libonnxruntime.so");
        let err = ModelPool::load(dir.path(), &library, 1, ModelChoice::default()).unwrap_err();
        assert_eq!(err, ModelError::Missing(dir.path().join(DETECTOR_FILE)));
        assert!(err.to_string().contains("install-ocr-models.sh"), "{err}");
        // A second detector or another recogniser is looked for by its own name.
        for name in [DETECTOR_FILE, RECOGNISER_FILE, CLASSIFIER_FILE] {
            std::fs::write(dir.path().join(name), b"").unwrap();
        }
        let choice = ModelChoice {
            second_detector: ModelSize::Tiny,
            ..ModelChoice::default()
        };
        let err = ModelPool::load(dir.path(), &library, 1, choice).unwrap_err();
        assert_eq!(err, ModelError::Missing(dir.path().join("det-tiny.onnx")));
        let choice = ModelChoice {
            recogniser: ModelSize::MobileV5,
            ..ModelChoice::default()
        };
        let err = ModelPool::load(dir.path(), &library, 1, choice).unwrap_err();
        assert_eq!(
            err,
            ModelError::Missing(dir.path().join("rec-mobile-v5.onnx"))
        );
        let err = ModelPool::load(dir.path(), &library, 1, ModelChoice::default()).unwrap_err();
        assert_eq!(err, ModelError::Missing(library));
    }
}
