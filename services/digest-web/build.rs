//! Embeds the sample Maildir (`sample-mailbox/{cur,new}`) into the binaries, so the
//! `digest-refresh` default source works from any directory and inside containers.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let root = Path::new(&manifest).join("sample-mailbox");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    for sub in ["cur", "new"] {
        let dir = root.join(sub);
        println!("cargo:rerun-if-changed={}", dir.display());
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if !name.starts_with('.') && entry.path().is_file() {
                files.push((name, entry.path()));
            }
        }
    }
    files.sort();
    let mut code = String::from("/// The sample Maildir: (file name, raw message).\n");
    code.push_str("pub(crate) static SAMPLE_MESSAGES: &[(&str, &[u8])] = &[\n");
    for (name, path) in files {
        // Debug formatting quotes and escapes both strings for Rust source.
        let _ = writeln!(
            code,
            "    ({:?}, include_bytes!({:?})),",
            name,
            path.display().to_string()
        );
    }
    code.push_str("];\n");
    let out = std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into());
    if let Err(e) = std::fs::write(Path::new(&out).join("sample_mailbox.rs"), code) {
        println!("cargo:warning=cannot write sample_mailbox.rs: {e}");
        std::process::exit(1);
    }
}
