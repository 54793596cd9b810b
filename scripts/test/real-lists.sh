#!/usr/bin/env bash
# Scores POST /analyze on the real product lists of ../shared/data/real-lists (Open Food Facts
# and Open Beauty Facts): builds ingredient-api (debug: only the counts matter here), starts it
# on a free loopback port, runs score.py (per-language table: recognised items, allergen
# recall and precision, errors) and stops it. Extra arguments go to score.py (--verbose,
# --lang fr). Says "skipped" and succeeds when ../shared/data is not beside the checkout.
set -euo pipefail
cd "$(dirname "$0")/../.."
score=../shared/data/real-lists/score.py
if [ ! -f "$score" ]; then
  echo "skipped: ../shared/data not found"
  exit 0
fi
cargo build -q --bin ingredient-api
bin=${CARGO_TARGET_DIR:-target}/debug/ingredient-api
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; }
trap cleanup EXIT
# shellcheck source=scripts/bench/lib.sh
source scripts/bench/lib.sh
port=$(free_port)
HOST=127.0.0.1 PORT=$port RUST_LOG=warn "$bin" 2>/dev/null &
pid=$!
wait_up "$port"
python3 "$score" "http://127.0.0.1:$port" "$@"
