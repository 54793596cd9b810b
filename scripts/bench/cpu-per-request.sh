#!/usr/bin/env bash
# CPU time the ingredient-api process spends per request on GET /health and POST /analyze
# (the 40-ingredient body of `make bench`), from /proc/PID/stat (utime + stime) around a
# wrk run of 4 connections. Unlike throughput, this figure holds on a machine shared with
# other work. Usage: scripts/bench/cpu-per-request.sh [BINARY] (default: the release build,
# brought up to date first). CPU_SECS sets the seconds per run (default 5).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-${CARGO_TARGET_DIR:-target}/release/ingredient-api}
secs=${CPU_SECS:-5}
[ $# -gt 0 ] || cargo build --release -q --bin ingredient-api
tmp=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
# shellcheck source=scripts/bench/lib.sh
source scripts/bench/lib.sh
make_bodies
port=$(free_port)
HOST=127.0.0.1 PORT=$port RUST_LOG=warn "$bin" 2>/dev/null &
pid=$!
wait_up "$port"
for ep in health analyze health analyze; do
  t0=$(cpu_of "$pid")
  if [ "$ep" = health ]; then
    wrk -t1 -c4 -d"${secs}s" "http://127.0.0.1:$port/health" >"$tmp/w.txt"
  else
    WRK_BODY=$tmp/analyze.json wrk -t1 -c4 -d"${secs}s" -s scripts/bench/post.lua \
      "http://127.0.0.1:$port/analyze" >"$tmp/w.txt"
  fi
  t1=$(cpu_of "$pid")
  n=$(awk '/requests in/ {print $1}' "$tmp/w.txt")
  awk -v ep="$ep" -v n="$n" -v a="$t0" -v b="$t1" \
    'BEGIN {printf "%-8s %7d requests, %6.1f us CPU per request\n", ep, n, (b - a) * 1e6 / n}'
done
echo "peak RSS $(vm "$pid" VmHWM) MB"
