#!/usr/bin/env bash
# `make ocr-real`: reads the shared real label photos (../shared/data/real-photos) through a
# release ingredient-api on one core (taskset -c 0, OCR_CONCURRENCY=1), started on a free loopback
# port and stopped by PID, and prints every photo and the two fixed halves (tune / check, by the
# CRC-32 of the file name: scripts/test/ocr-real.py). Says "skipped" and succeeds when
# ../shared/data is not beside the checkout. Arguments go to ocr-real.py (--save FILE, --only RE,
# --half tune|check); the CPU seconds of each photo are read from the server's /proc entry.
# OCR_REAL_BIN runs another build of the binary (a baseline) side by side; OCR_REAL_CORE picks the
# core (default 0), so that two builds can be read at once, one on each core.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -d ../shared/data/real-photos ]; then
  echo "skipped: ../shared/data not found"
  exit 0
fi
bin=${OCR_REAL_BIN:-}
if [ -z "$bin" ]; then
  cargo build --release -q --bin ingredient-api
  bin=${CARGO_TARGET_DIR:-target}/release/ingredient-api
fi
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; }
trap cleanup EXIT
# shellcheck source=scripts/bench/lib.sh
source scripts/bench/lib.sh
port=$(free_port)
cores=(taskset -c "${OCR_REAL_CORE:-0}")
command -v taskset >/dev/null || cores=()
HOST=127.0.0.1 PORT=$port OCR_CONCURRENCY=1 OMP_THREAD_LIMIT=1 RUST_LOG=${RUST_LOG:-warn} \
  OCR_QUEUE_WAIT_SECS=600 "${cores[@]}" "$bin" 2>/dev/null &
pid=$!
wait_up "$port"
python3 scripts/test/ocr-real.py "http://127.0.0.1:$port" --pid "$pid" "$@"
