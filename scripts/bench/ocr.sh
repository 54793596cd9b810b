#!/usr/bin/env bash
# `make bench-ocr`: CPU seconds and peak memory per /ocr image, measured per request on one
# core (taskset -c 0, OCR_CONCURRENCY=1, ONNX Runtime with one intra-op thread), on the real
# photos of ../shared/data/real-photos (skipped when absent) and one synthetic label per
# language, side by side with plain Tesseract on the same photos and with RapidOCR's Python pipeline
# (scripts/bench/ocr-rapidocr.py, .tmp/venv). Prints Markdown tables
# (examples/ocr_bench.rs explains how CPU and memory are taken). About 1 minute.
#
# Environment: OCR_BENCH_ARGS (extra arguments, e.g. "--side 1280"), and any OCR_* setting.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p ingredient-api --example ocr_bench
target_dir=${CARGO_TARGET_DIR:-target}
cores=(taskset -c 0)
command -v taskset >/dev/null || cores=()
# shellcheck disable=SC2086 # OCR_BENCH_ARGS is a list of arguments
OCR_CONCURRENCY=1 OMP_THREAD_LIMIT=1 RUST_LOG=${RUST_LOG:-warn} \
  "${cores[@]}" "$target_dir/release/examples/ocr_bench" ${OCR_BENCH_ARGS:-}

# Side by side: RapidOCR's own Python pipeline (the same models) on the same photos, one core,
# from .tmp/venv (installed for the bench only; skipped when pip cannot reach PyPI).
venv=.tmp/venv
if [ -d ../shared/data/real-photos ]; then
  if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
  if "$venv/bin/pip" install -q rapidocr==3.10.0 onnxruntime==1.23.2 >/dev/null 2>&1; then
    echo
    echo "| pipeline | photos | fuzzy F1 | CPU median s | CPU p95 s | images/s per core |"
    echo "|---|---|---|---|---|---|"
    OMP_NUM_THREADS=1 "${cores[@]}" "$venv/bin/python" scripts/bench/ocr-rapidocr.py --side 736,1280
  else
    echo "RapidOCR skipped: pip could not install rapidocr into $venv" >&2
  fi
fi
