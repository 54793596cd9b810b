#!/usr/bin/env bash
# `make bench-dashboard`: server CPU time per view of the dashboard (GET /) and of
# GET /api/digest on a large run store, for this build and, side by side in the same run,
# for an earlier build's binaries (BEFORE_BIN=<dir with digest-refresh and digest-web>;
# AFTER_BIN=<dir> measures those binaries instead of building this checkout).
#
# The store: scripts/bench/gen-maildir.py writes MESSAGES (10,000) inbox messages over 25 days
# and SENT (1,000) sent ones in .Sent (half answer Need-Action mail, half wait). Each build's
# digest-refresh reads them all once (`--window all`, so the run store holds every message's
# facts), then again with `--window WINDOW` (24h) so the digest is the size a view shows.
# Each server is then loaded by wrk (1 thread, 2 connections, BENCH_SECS = 8 s per URL), one
# after the other; CPU per request = the server's utime + stime from /proc over the run,
# divided by wrk's requests (CPU time hardly depends on the load of the shared machine).
# Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/../.."
messages=${MESSAGES:-10000}
sent=${SENT:-1000}
window=${WINDOW:-24h}
secs=${BENCH_SECS:-8}
before=${BEFORE_BIN:-}
if [ -n "${AFTER_BIN:-}" ]; then
  bin=$AFTER_BIN
else
  bin=${CARGO_TARGET_DIR:-target}/release
  cargo build --release -q -p digest-web --bins
fi
tmp=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
# shellcheck source=scripts/bench/lib.sh
source scripts/bench/lib.sh

python3 scripts/bench/gen-maildir.py "$tmp/Maildir" "$messages" "$sent" >&2

measure() { # measure LABEL BIN_DIR
  local label=$1 dir=$2 data=$tmp/data-$1 port pid emails page_kb
  "$dir/digest-refresh" --source "maildir:$tmp/Maildir" --data-dir "$data" \
    --window all --max-emails "$messages" >/dev/null
  "$dir/digest-refresh" --source "maildir:$tmp/Maildir" --data-dir "$data" \
    --window "$window" --max-emails "$messages" >/dev/null
  port=$(free_port)
  HOST=127.0.0.1 PORT=$port DIGEST_DATA_DIR="$data" DIGEST_OWNER_ADDRESSES=dana@example.com \
    RUST_LOG=warn "$dir/digest-web" 2>"$tmp/$label.log" &
  pid=$!
  pids+=("$pid")
  wait_up "$port"
  emails=$(curl -fsS "http://127.0.0.1:$port/api/digest" | python3 -c 'import json, sys; print(json.load(sys.stdin)["stats"]["total_emails"])')
  page_kb=$(curl -fsS "http://127.0.0.1:$port/" | wc -c | awk '{printf "%.0f", $1/1024}')
  local cells=()
  for path in / /api/digest; do
    local name="$label${path//\//-}" start
    start=$(cpu_of "$pid")
    wrk_run "$name" 2 1 "$secs" "http://127.0.0.1:$port$path"
    cells+=("$(per_request_us "$name" "$(awk -v a="$start" -v b="$(cpu_of "$pid")" 'BEGIN {print b - a}')") µs (${RPS[$name]} req/s, ${ERR[$name]} errors)")
  done
  echo "| $label | $emails | $page_kb KB | ${cells[0]} | ${cells[1]} |"
  kill "$pid"
}

echo "$messages inbox messages and $sent sent ones in the store, digest window $window;" \
  "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start, $(date -u '+%Y-%m-%d %H:%M UTC')."
echo
echo "| build | emails in the digest | page | \`GET /\` CPU per request | \`GET /api/digest\` CPU per request |"
echo "|---|---|---|---|---|"
[ -n "$before" ] && measure before "$before"
measure after "$bin"
