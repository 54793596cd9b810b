#!/usr/bin/env bash
# `make bench-ocr`: CPU seconds and peak memory per /ocr image, measured per request on one
# core (taskset -c 0, OCR_CONCURRENCY=1, ONNX Runtime with one intra-op thread), on the real
# photos of ../shared/data/real-photos (skipped when absent) and one synthetic label per
# language, side by side with plain Tesseract on the same photos. Prints a Markdown table
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
