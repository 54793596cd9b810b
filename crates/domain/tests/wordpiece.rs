//! The WordPiece tokenizer against the reference (Hugging Face `tokenizers` with the model's
//! own `tokenizer.json`): the ids in `data/wordpiece.jsonl` were written by it for the
//! hand-written examples of the service's corpus (six languages) and edge cases (accents,
//! Han, kana, Hangul, controls, zero-width and full-width characters, emoji, long words).
//! Needs the installed table (`scripts/setup/install-embedding-model.sh`); skipped without it.

use domain::email::embedding::Embedder;

#[test]
fn token_ids_are_the_reference_tokenizers() {
    let path = std::env::var("DIGEST_EMBEDDING_MODEL").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../.tmp/embedding-model/tokens.bin"
        )
        .to_owned()
    });
    let Ok(embedder) = Embedder::load(std::path::Path::new(&path)) else {
        eprintln!(
            "skipped: no embedding table at {path} (scripts/setup/install-embedding-model.sh)"
        );
        return;
    };
    let mut checked = 0;
    for line in include_str!("data/wordpiece.jsonl").lines() {
        let case: serde_json::Value = serde_json::from_str(line).unwrap();
        let text = case["text"].as_str().unwrap();
        let want: Vec<u32> = case["ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as u32)
            .collect();
        let mut got = Vec::new();
        embedder.tokenizer().encode(text, usize::MAX, &mut got);
        assert_eq!(got, want, "{text:?}");
        checked += 1;
    }
    assert!(checked > 300, "{checked}");
}
