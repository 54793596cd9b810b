//! The pure crate knows no OCR engine: engine names, Tesseract pack names and tables of what
//! an engine confuses belong to the service's OCR code (`services/ingredient-api/src/ocr/`),
//! next to the engine they are about. This test reads every source file of `src/`.

use std::path::{Path, PathBuf};

/// Words that name an engine, its packs or its confusion tables (matched case-insensitively).
const ENGINE_WORDS: &[&str] = &[
    "tesseract",
    "ppocr",
    "pp-ocr",
    "paddle",
    "onnx",
    "rapidocr",
    "chi_sim",
    "\"jpn\"",
    "\"kor\"",
    "\"deu\"",
    "\"fra\"",
    "confusable",
    "ocr_class",
];

/// Each line of `text` naming an engine word, with the word.
fn engine_words(text: &str) -> Vec<(usize, &'static str)> {
    text.lines()
        .enumerate()
        .flat_map(|(n, line)| {
            let lower = line.to_lowercase();
            ENGINE_WORDS
                .iter()
                .filter(move |w| lower.contains(*w))
                .map(move |w| (n + 1, *w))
        })
        .collect()
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_domain_source_names_no_ocr_engine() {
    let mut files = Vec::new();
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    assert!(files.len() > 10, "src/ not found: {files:?}");
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a UTF-8 source file");
        for (line, word) in engine_words(&text) {
            found.push(format!("{}:{line}: {word}", file.display()));
        }
    }
    assert!(
        found.is_empty(),
        "OCR engine knowledge in crates/domain (move it to the service's ocr/ code):\n{}",
        found.join("\n")
    );
}

#[test]
fn engine_words_are_found_in_any_case() {
    assert_eq!(
        engine_words("ok\n/// Tesseract misreads\nconst CONFUSABLE: &[(char, char)] = &[];"),
        [(2, "tesseract"), (3, "confusable")]
    );
    assert!(engine_words("the list grammar, OCR noise").is_empty());
}
