#!/usr/bin/env bash
# Measures both services on this machine and writes docs/benchmarks.md.
# Starts release binaries on loopback ports, loads them with wrk (64 connections), stops them.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --bins -q
out=docs/benchmarks.md
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT

IA_PORT=18000; DW_PORT=18001
HOST=127.0.0.1 PORT=$IA_PORT target/release/ingredient-api 2>"$tmp/ia.log" & IA_PID=$!
HOST=127.0.0.1 PORT=$DW_PORT DIGEST_DATA_DIR="$tmp/data" target/release/digest-web 2>"$tmp/dw.log" & DW_PID=$!
for port in $IA_PORT $DW_PORT; do
  for _ in $(seq 100); do curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break; sleep 0.1; done
done

# wrk_row NAME URL: one table row with requests/s and latency percentiles.
wrk_row() {
  local name=$1 url=$2 res
  res=$(wrk -t2 -c64 -d10s --latency "$url")
  local rps p50 p99
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$res")
  p50=$(awk '$1=="50%" {print $2}' <<<"$res")
  p99=$(awk '$1=="99%" {print $2}' <<<"$res")
  echo "| $name | $rps | $p50 | $p99 |"
}

{
  echo "# Benchmarks"
  echo
  echo "Measured by \`make bench\` on $(date -u +%Y-%m-%d) on this machine ($(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)); release build; wrk, 2 threads, 64 connections, 10 s per row."
  echo
  echo "| request | requests/s | p50 | p99 |"
  echo "|---|---|---|---|"
  wrk_row "ingredient-api GET /health" "http://127.0.0.1:$IA_PORT/health"
  wrk_row "digest-web GET /health" "http://127.0.0.1:$DW_PORT/health"
  echo
  echo "Peak resident memory (VmHWM) after the load: ingredient-api $(awk '/VmHWM/ {print $2 " kB"}' /proc/$IA_PID/status), digest-web $(awk '/VmHWM/ {print $2 " kB"}' /proc/$DW_PID/status)."
} >"$out"
cat "$out"
