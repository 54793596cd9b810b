#!/usr/bin/env bash
# `make bench-ocr`: /ocr side by side with RapidOCR's Python pipeline (the same PP-OCRv6 models)
# on the real photos of ../shared/data/real-photos (skipped when absent), one core each, in one
# Markdown table: fuzzy F1 on each half and overall, CPU seconds per photo, images per second
# per core. /ocr is read through a release server by scripts/test/ocr-real.sh (the server's own
# CPU from /proc); RapidOCR (scripts/bench/ocr-rapidocr.py) runs from .tmp/venv, installed from
# PyPI for the bench only (skipped when pip cannot reach it). Then CPU seconds and peak memory
# per image (examples/ocr_bench.rs: real photos, one synthetic label per language, plain
# Tesseract beside them). About 15 minutes on a quiet machine.
#
# Environment: OCR_REAL_BIN (an ingredient-api binary instead of building one), RAPIDOCR_SIDES
# (detector sizes: "1280" is the longest side at 1,280 px as /ocr's, "736:min" RapidOCR's own
# rule, the shortest side scaled up to 736 px; default "1280,736:min"), OCR_BENCH_ARGS (extra arguments of ocr_bench, e.g.
# "--side 1280"), OCR_BENCH_PER_IMAGE=0 (skip the per-image table), OCR_BENCH_SIDE_BY_SIDE=0
# (skip the side-by-side table: `make bench` does, to stay within minutes), and any OCR_* setting.
set -euo pipefail
cd "$(dirname "$0")/../.."
target_dir=${CARGO_TARGET_DIR:-target}
cores=(taskset -c 0)
command -v taskset >/dev/null || cores=()

if [ "${OCR_BENCH_SIDE_BY_SIDE:-1}" = 0 ]; then
  :
elif [ -d ../shared/data/real-photos ]; then
  results=$(mktemp)
  trap 'rm -f "$results"' EXIT
  echo "/ocr on the real photos (scripts/test/ocr-real.sh) ..." >&2
  scripts/test/ocr-real.sh --save "$results" --timeout 900 >&2
  venv=.tmp/venv
  if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
  if "$venv/bin/pip" install -q rapidocr==3.10.0 onnxruntime==1.23.2 >/dev/null 2>&1; then
    echo "RapidOCR on the same photos ..." >&2
    OMP_NUM_THREADS=1 "${cores[@]}" "$venv/bin/python" scripts/bench/ocr-rapidocr.py \
      --side "${RAPIDOCR_SIDES:-1280,736:min}" --ours "$results"
  else
    echo "RapidOCR skipped: pip could not install rapidocr into $venv" >&2
    python3 scripts/bench/ocr-rapidocr.py --side "" --ours "$results" || true
  fi
else
  echo "real photos skipped: ../shared/data not found"
fi

if [ "${OCR_BENCH_PER_IMAGE:-1}" != 0 ]; then
  echo
  cargo build --release -q -p ingredient-api --example ocr_bench
  # shellcheck disable=SC2086 # OCR_BENCH_ARGS is a list of arguments
  OCR_CONCURRENCY=1 OMP_THREAD_LIMIT=1 RUST_LOG=${RUST_LOG:-warn} \
    "${cores[@]}" "$target_dir/release/examples/ocr_bench" ${OCR_BENCH_ARGS:-}
fi
