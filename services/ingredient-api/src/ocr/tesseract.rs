//! The Tesseract command-line engine: one child process per call, fed a PNG we encoded
//! ourselves on stdin (never the client's bytes: given a non-image, the CLI reads the bytes
//! as a list of file names), with `OMP_THREAD_LIMIT=1` and a hard timeout.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::process::Command;

/// Why a Tesseract call failed.
#[derive(Debug, thiserror::Error)]
pub enum TesseractError {
    /// The binary could not be started.
    #[error("cannot start {binary}: {source}")]
    Spawn {
        /// The binary.
        binary: String,
        /// The cause.
        source: std::io::Error,
    },
    /// Reading or writing the pipes failed.
    #[error("tesseract I/O failed: {0}")]
    Io(#[from] std::io::Error),
    /// The call ran over its time budget and was killed.
    #[error("tesseract did not finish within {0:?}")]
    Timeout(Duration),
    /// The process exited with an error.
    #[error("tesseract exited with {status}: {stderr}")]
    Failed {
        /// Exit status.
        status: std::process::ExitStatus,
        /// The last lines of its stderr.
        stderr: String,
    },
}

/// How to call the `tesseract` binary.
#[derive(Debug, Clone)]
pub struct Tesseract {
    binary: PathBuf,
    timeout: Duration,
    packs: Vec<String>,
}

/// One word of `tsv` output.
#[derive(Debug, Clone, PartialEq)]
pub struct Word {
    /// Block, paragraph and line numbers: a change starts a new line of text.
    pub line_key: (u32, u32, u32),
    /// Confidence 0–100.
    pub confidence: f32,
    /// The word.
    pub text: String,
}

/// Text with its words' confidences.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reading {
    /// The text, one line per OCR line, a blank line between blocks and paragraphs.
    pub text: String,
    /// Mean word confidence (0–100), 0 when no word was read.
    pub mean_confidence: f32,
    /// Number of words.
    pub words: usize,
}

impl Tesseract {
    /// Checks that `binary` runs and lists its language packs. `Err` names what is missing.
    pub async fn probe(binary: PathBuf, timeout: Duration) -> Result<Self, String> {
        let output = Command::new(&binary)
            .arg("--list-langs")
            .env("OMP_THREAD_LIMIT", "1")
            .stdin(Stdio::null())
            .kill_on_drop(true)
            .output();
        let output = match tokio::time::timeout(Duration::from_secs(10), output).await {
            Err(_) => return Err(format!("{} --list-langs timed out", binary.display())),
            Ok(Err(e)) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err("tesseract not found".to_owned());
            }
            Ok(Err(e)) => return Err(format!("cannot start {}: {e}", binary.display())),
            Ok(Ok(output)) => output,
        };
        if !output.status.success() {
            return Err(format!(
                "{} --list-langs failed: {}",
                binary.display(),
                String::from_utf8_lossy(&output.stderr).trim()
            ));
        }
        // The list goes to stdout (5.x) after a one-line heading.
        let packs: Vec<String> = String::from_utf8_lossy(&output.stdout)
            .lines()
            .skip(1)
            .map(|l| l.trim().to_owned())
            .filter(|l| !l.is_empty())
            .collect();
        if packs.is_empty() {
            return Err("tesseract has no language packs".to_owned());
        }
        Ok(Self {
            binary,
            timeout,
            packs,
        })
    }

    /// Whether a language pack is installed.
    pub fn has_pack(&self, pack: &str) -> bool {
        self.packs.iter().any(|p| p == pack)
    }

    /// Runs `tesseract stdin stdout -l LANGS --psm PSM [tsv]` on a PNG.
    pub async fn run(
        &self,
        png: &[u8],
        langs: &str,
        psm: u8,
        tsv: bool,
    ) -> Result<String, TesseractError> {
        let mut command = Command::new(&self.binary);
        command
            .args(["stdin", "stdout", "-l", langs, "--psm", &psm.to_string()])
            .env("OMP_THREAD_LIMIT", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        if tsv {
            command.arg("tsv");
        }
        let mut child = command.spawn().map_err(|source| TesseractError::Spawn {
            binary: self.binary.display().to_string(),
            source,
        })?;
        let mut stdin = child
            .stdin
            .take()
            .ok_or_else(|| std::io::Error::other("stdin of the child was not piped"))?;
        let input = png.to_vec();
        let work = async move {
            // Write and read concurrently: a large image could fill both pipes.
            let writer = async move {
                let result = stdin.write_all(&input).await;
                drop(stdin);
                result
            };
            let (written, output) = tokio::join!(writer, child.wait_with_output());
            let output = output?;
            if let Err(e) = written
                && output.status.success()
            {
                return Err(TesseractError::Io(e));
            }
            Ok(output)
        };
        // On timeout the future is dropped with the child, which kill_on_drop kills.
        let output = tokio::time::timeout(self.timeout, work)
            .await
            .map_err(|_| TesseractError::Timeout(self.timeout))??;
        if !output.status.success() {
            let stderr = String::from_utf8_lossy(&output.stderr);
            let tail: Vec<&str> = stderr.lines().rev().take(3).collect();
            return Err(TesseractError::Failed {
                status: output.status,
                stderr: tail.into_iter().rev().collect::<Vec<_>>().join(" | "),
            });
        }
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    }

    /// Like [`Tesseract::run`] with `tsv` output, parsed into text and confidences.
    pub async fn read(&self, png: &[u8], langs: &str, psm: u8) -> Result<Reading, TesseractError> {
        Ok(parse_tsv(&self.run(png, langs, psm, true).await?))
    }
}

/// Rebuilds text from `tsv` rows: words of one line joined by spaces, a blank line between
/// paragraphs. Rows that do not parse are skipped.
pub fn parse_tsv(tsv: &str) -> Reading {
    let mut words = Vec::new();
    for row in tsv.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        if cols.len() < 12 || cols[0] != "5" {
            continue;
        }
        let num = |i: usize| cols[i].parse::<u32>().unwrap_or(0);
        let text = cols[11].trim();
        if text.is_empty() {
            continue;
        }
        words.push(Word {
            line_key: (num(2), num(3), num(4)),
            confidence: cols[10].parse().unwrap_or(0.0),
            text: text.to_owned(),
        });
    }
    let mut text = String::new();
    let mut previous: Option<(u32, u32, u32)> = None;
    for word in &words {
        match previous {
            Some(p) if p == word.line_key => text.push(' '),
            Some(p) if (p.0, p.1) == (word.line_key.0, word.line_key.1) => text.push('\n'),
            Some(_) => text.push_str("\n\n"),
            None => {}
        }
        text.push_str(&word.text);
        previous = Some(word.line_key);
    }
    let mean_confidence = if words.is_empty() {
        0.0
    } else {
        words.iter().map(|w| w.confidence).sum::<f32>() / words.len() as f32
    };
    Reading {
        text,
        mean_confidence,
        words: words.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tsv_rows_become_lines_and_paragraphs() {
        let tsv = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n\
            1\t1\t0\t0\t0\t0\t0\t0\t100\t100\t-1\t\n\
            5\t1\t1\t1\t1\t1\t0\t0\t10\t10\t90\tIngredients:\n\
            5\t1\t1\t1\t1\t2\t0\t0\t10\t10\t80\tWater,\n\
            5\t1\t1\t1\t2\t1\t0\t0\t10\t10\t70\tSalt\n\
            5\t1\t2\t1\t1\t1\t0\t0\t10\t10\t60\tMade\n\
            5\t1\t2\t1\t1\t2\t0\t0\t10\t10\t50\t \n";
        let reading = parse_tsv(tsv);
        assert_eq!(reading.text, "Ingredients: Water,\nSalt\n\nMade");
        assert_eq!(reading.words, 4);
        assert!((reading.mean_confidence - 75.0).abs() < 0.01);
    }

    #[test]
    fn garbage_tsv_gives_nothing() {
        assert_eq!(parse_tsv("no\ttabs here\n5\tbroken"), Reading::default());
    }
}
