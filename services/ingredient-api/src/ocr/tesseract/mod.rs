//! The Tesseract command-line engine ([`Tesseract`]): one child process per call, fed a PNG we encoded
//! ourselves on stdin (never the client's bytes: given a non-image, the CLI reads the bytes
//! as a list of file names), with `OMP_THREAD_LIMIT=1` and a hard timeout.
//!
//! Each child runs below the HTTP workers' priority (`chrt --idle 0 nice -n OCR_NICE
//! tesseract …`; the `chrt` binary of util-linux and `nice` of coreutils, because setting the
//! priority between fork and exec would need `unsafe`), so a saturated OCR slot cannot starve
//! `/analyze` of CPU. `SCHED_IDLE` gives way to an HTTP worker the moment it wakes, where
//! niceness alone only shrinks Tesseract's share and lets it finish its time slice first.
//!
//! [`engine`] reads a label with it (packs, segmentation modes, second scales); [`repair`]
//! mends what it typically misreads.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::process::Command;

pub mod engine;
pub mod repair;

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
    /// Niceness added to the child's (0: run at the service's own priority).
    nice: u8,
    /// Whether the child runs under `SCHED_IDLE` (with `nice` > 0, when `chrt` runs).
    idle: bool,
    packs: Vec<String>,
}

/// The `nice` binary (coreutils) that starts Tesseract at a lower priority.
const NICE_BIN: &str = "nice";

/// The `chrt` binary (util-linux) that starts Tesseract under `SCHED_IDLE`.
const CHRT_BIN: &str = "chrt";

/// Highest niceness Linux knows.
pub const MAX_NICE: u8 = 19;

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
    /// Checks that `binary` runs (through `nice -n NICE` when `nice` > 0) and lists its
    /// language packs. `Err` names what is missing. Without a `nice` binary Tesseract runs at
    /// the service's priority, with a warning.
    pub async fn probe(binary: PathBuf, timeout: Duration, nice: u8) -> Result<Self, String> {
        let mut nice = nice.min(MAX_NICE);
        if nice > 0 && !nice_runs().await {
            tracing::warn!(
                "`{NICE_BIN}` not found: Tesseract runs at the HTTP workers' priority (OCR_NICE ignored)"
            );
            nice = 0;
        }
        let idle = nice > 0 && runs(CHRT_BIN, &["--idle", "0", "true"]).await;
        if nice > 0 && !idle {
            tracing::warn!(
                "`{CHRT_BIN} --idle` does not run: Tesseract runs niced only, and may hold a core a time slice longer"
            );
        }
        let output = command(&binary, nice, idle)
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
        // `nice` exits with 127 when it cannot find the binary, 126 when it cannot run it.
        if nice > 0 && output.status.code() == Some(127) {
            return Err("tesseract not found".to_owned());
        }
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
            nice,
            idle,
            packs,
        })
    }

    /// The niceness Tesseract runs with (0 when `nice` is missing or `OCR_NICE=0`).
    pub fn nice(&self) -> u8 {
        self.nice
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
        self.run_with(png, langs, psm, tsv, &[]).await
    }

    /// [`Tesseract::run`] with `-c NAME=VALUE` settings.
    async fn run_with(
        &self,
        png: &[u8],
        langs: &str,
        psm: u8,
        tsv: bool,
        settings: &[&str],
    ) -> Result<String, TesseractError> {
        let mut command = command(&self.binary, self.nice, self.idle);
        command
            .args(["stdin", "stdout", "-l", langs, "--psm", &psm.to_string()])
            .env("OMP_THREAD_LIMIT", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        if is_cjk(langs) {
            // Tesseract rejects a text row of one character as noise; on CJK labels it is
            // the end of a list (`料` of `香料` wrapped alone onto the last line). Measured
            // on the 81 CJK images: that item found, nothing lost (docs/ocr.md).
            command.args(["-c", "textord_noise_rejrows=0"]);
        }
        for setting in settings {
            command.args(["-c", setting]);
        }
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

    /// [`Tesseract::read`] binarising with Sauvola's local threshold instead of Otsu's
    /// global one (`thresholding_method=2`, Tesseract 5): better where light falls off
    /// across the label, worse elsewhere (docs/ocr.md).
    pub async fn read_local_threshold(
        &self,
        png: &[u8],
        langs: &str,
        psm: u8,
    ) -> Result<Reading, TesseractError> {
        let settings = ["thresholding_method=2"];
        Ok(parse_tsv(
            &self.run_with(png, langs, psm, true, &settings).await?,
        ))
    }
}

/// Whether `langs` (`kor`, `chi_sim+jpn+kor`, …) holds a Korean, Japanese or Chinese pack.
fn is_cjk(langs: &str) -> bool {
    langs
        .split('+')
        .any(|pack| matches!(pack, "kor" | "jpn" | "chi_sim" | "chi_tra"))
}

/// `nice -n NICE BINARY` (niceness is added to the service's own), or `BINARY` alone when
/// `nice` is 0. `nice` execs the binary, so the child's pid is Tesseract's and a kill on
/// timeout reaches it.
fn command(binary: &std::path::Path, nice: u8, idle: bool) -> Command {
    if nice == 0 {
        return Command::new(binary);
    }
    let mut command = if idle {
        let mut chrt = Command::new(CHRT_BIN);
        chrt.args(["--idle", "0", NICE_BIN]);
        chrt
    } else {
        Command::new(NICE_BIN)
    };
    command.arg("-n").arg(nice.to_string()).arg(binary);
    command
}

/// Whether the `nice` binary can be started.
async fn nice_runs() -> bool {
    runs(NICE_BIN, &["true"]).await
}

/// Whether `program args` starts and succeeds (within 5 s).
async fn runs(program: &str, args: &[&str]) -> bool {
    let run = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .status();
    matches!(
        tokio::time::timeout(Duration::from_secs(5), run).await,
        Ok(Ok(status)) if status.success()
    )
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
    fn the_command_goes_through_chrt_and_nice_unless_nice_is_zero() {
        let binary = std::path::Path::new("/usr/bin/tesseract");
        let idle = command(binary, 10, true);
        assert_eq!(idle.as_std().get_program(), CHRT_BIN);
        let args: Vec<_> = idle.as_std().get_args().collect();
        assert_eq!(
            args,
            ["--idle", "0", NICE_BIN, "-n", "10", "/usr/bin/tesseract"]
        );
        let niced = command(binary, 10, false);
        assert_eq!(niced.as_std().get_program(), NICE_BIN);
        let args: Vec<_> = niced.as_std().get_args().collect();
        assert_eq!(args, ["-n", "10", "/usr/bin/tesseract"]);
        for idle in [true, false] {
            let plain = command(std::path::Path::new("tesseract"), 0, idle);
            assert_eq!(plain.as_std().get_program(), "tesseract");
            assert_eq!(plain.as_std().get_args().count(), 0);
        }
    }

    /// The child really runs `OCR_NICE` steps below this process, under `SCHED_IDLE`: a
    /// stand-in binary (a shell script answering `--list-langs` and reporting its own niceness
    /// and scheduling policy otherwise) is run the way Tesseract is.
    #[tokio::test]
    async fn the_child_runs_at_a_lower_priority() {
        use std::os::unix::fs::PermissionsExt;

        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("fake-tesseract");
        std::fs::write(
            &script,
            "#!/bin/sh\nif [ \"$1\" = --list-langs ]; then printf 'List of languages:\\neng\\n'; \
             else cat >/dev/null; nice; chrt -p $$; fi\n",
        )
        .unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let own = own_niceness();
        for wanted in [10u8, 0, 30] {
            let tesseract = Tesseract::probe(script.clone(), Duration::from_secs(10), wanted)
                .await
                .unwrap();
            assert!(tesseract.has_pack("eng"));
            let expected = wanted.min(MAX_NICE);
            assert_eq!(tesseract.nice(), expected);
            assert_eq!(tesseract.idle, expected > 0, "asked for {wanted}");
            let reported = tesseract.run(b"png", "eng", 3, false).await.unwrap();
            let (niceness, policy) = reported.split_once('\n').unwrap();
            assert_eq!(
                policy.contains("SCHED_IDLE"),
                expected > 0,
                "asked for {wanted}: {policy}"
            );
            let child: i32 = niceness.trim().parse().unwrap();
            // Niceness saturates at 19.
            assert_eq!(
                child,
                (own + i32::from(expected)).min(19),
                "asked for {wanted}"
            );
        }
    }

    #[tokio::test]
    async fn a_missing_binary_is_reported_through_nice_too() {
        for nice in [10, 0] {
            let err = Tesseract::probe(
                "/nonexistent/tesseract".into(),
                Duration::from_secs(5),
                nice,
            )
            .await
            .unwrap_err();
            assert_eq!(err, "tesseract not found", "nice {nice}");
        }
    }

    /// This process's niceness (field 19 of /proc/self/stat).
    fn own_niceness() -> i32 {
        let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
        let after_name = stat.rsplit_once(')').unwrap().1;
        after_name
            .split_whitespace()
            .nth(16)
            .unwrap()
            .parse()
            .unwrap()
    }

    #[test]
    fn garbage_tsv_gives_nothing() {
        assert_eq!(parse_tsv("no\ttabs here\n5\tbroken"), Reading::default());
    }
}
