#!/usr/bin/env bash
# `make soak`: ingredient-api (release build) under mixed /analyze and /ocr load for SOAK_SECS
# (default 300), then a verdict; exits non-zero when any check fails. Not part of `make test`.
#
#   1. warm-up (SOAK_WARMUP_SECS, 15): both loads;
#   2. /analyze alone (SOAK_PROBE_SECS, 15): its idle p99;
#   3. the soak: /ocr saturated (2 connections per OCR slot: every slot busy, the queue never
#      full) while /analyze runs at a steady pace; memory sampled every SOAK_SAMPLE_SECS (5).
#
# Checks: no errors (non-2xx responses, socket errors) in any phase; memory flat: the final RSS
# within 20% (or 5 MB) of the baseline, the highest RSS sampled in the soak's first
# SOAK_SETTLE_SECS (60) under the soak's own load (the RSS right after the 15 s warm-up was
# measured at half the settled value: the OCR threads' buffers and malloc arenas were not all
# there yet, so growth to the steady state read as a leak); /analyze p99 during the soak
# under twice its idle value. The result also goes into docs/benchmarks.md (the `soak` block).
set -euo pipefail
cd "$(dirname "$0")/../.."
soak_secs=${SOAK_SECS:-300}
warmup_secs=${SOAK_WARMUP_SECS:-15}
settle_secs=${SOAK_SETTLE_SECS:-60}
probe_secs=${SOAK_PROBE_SECS:-15}
sample_secs=${SOAK_SAMPLE_SECS:-5}
# Steady /analyze load: 8 connections, each pausing 5 ms between requests.
analyze_conns=8
analyze_pause_ms=5
out=${BENCH_OUT:-docs/benchmarks.md}
bin=${CARGO_TARGET_DIR:-target}/release
cores=$(nproc)
ocr_slots=${OCR_CONCURRENCY:-$cores}
ocr_conns=$((2 * ocr_slots))

cargo build --release -q --bins
tmp=$(mktemp -d)
pids=()
cleanup() {
  local status=$?
  if [ "$status" -ne 0 ] && [ -s "$tmp/server.log" ]; then
    echo "soak: failed; the server's last log lines:" >&2
    tail -20 "$tmp/server.log" >&2
  fi
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
# shellcheck source=scripts/bench/lib.sh
source scripts/bench/lib.sh
make_bodies

port=$(free_port)
HOST=127.0.0.1 PORT=$port OCR_CONCURRENCY=$ocr_slots OMP_THREAD_LIMIT=1 RUST_LOG=warn \
  "$bin/ingredient-api" 2>"$tmp/server.log" &
pid=$!
pids+=("$pid")
wait_up "$port"
analyze_url="http://127.0.0.1:$port/analyze"
ocr_url="http://127.0.0.1:$port/ocr"
say() { echo "soak: $*" >&2; }

say "warm-up ${warmup_secs}s (both loads)"
WRK_DELAY_MS=$analyze_pause_ms wrk_start warm_analyze "$analyze_conns" 1 "$warmup_secs" "$analyze_url" "$tmp/analyze.json" &
warm_a=$!
wrk_start warm_ocr "$ocr_conns" 1 "$warmup_secs" "$ocr_url" "$tmp/ocr.json" &
warm_o=$!
wait "$warm_a" "$warm_o"
wrk_parse warm_analyze
wrk_parse warm_ocr
rss_warm=$(vm "$pid" VmRSS)

say "/analyze alone ${probe_secs}s (idle p99)"
WRK_DELAY_MS=$analyze_pause_ms wrk_run idle "$analyze_conns" 1 "$probe_secs" "$analyze_url" "$tmp/analyze.json"

say "soak ${soak_secs}s: /ocr saturated ($ocr_slots slots, $ocr_conns connections) and /analyze"
wrk_start soak_ocr "$ocr_conns" 1 "$soak_secs" "$ocr_url" "$tmp/ocr.json" &
ocr_job=$!
WRK_DELAY_MS=$analyze_pause_ms wrk_start soak_analyze "$analyze_conns" 1 "$soak_secs" "$analyze_url" "$tmp/analyze.json" &
analyze_job=$!
: >"$tmp/rss"
elapsed=0
while kill -0 "$ocr_job" 2>/dev/null || kill -0 "$analyze_job" 2>/dev/null; do
  sleep "$sample_secs"
  elapsed=$((elapsed + sample_secs))
  tess=$({ ps -o rss= --ppid "$pid" 2>/dev/null || true; } | awk '{s += $1} END {printf "%.1f", s/1024}')
  echo "$elapsed $(vm "$pid" VmRSS) $tess" >>"$tmp/rss"
done
wait "$ocr_job" "$analyze_job"
wrk_parse soak_ocr
wrk_parse soak_analyze
rss_final=$(vm "$pid" VmRSS)
rss_max=$(awk 'BEGIN {m = 0} $2 > m {m = $2} END {print m}' "$tmp/rss")
rss_base=$(awk -v t="$settle_secs" 'BEGIN {m = 0} $1 <= t && $2 > m {m = $2} END {print m}' "$tmp/rss")
tess_max=$(awk 'BEGIN {m = 0} $3 > m {m = $3} END {print m}' "$tmp/rss")
alive=yes
kill -0 "$pid" 2>/dev/null || alive=no

errors=$((ERR[warm_analyze] + ERR[warm_ocr] + ERR[idle] + ERR[soak_ocr] + ERR[soak_analyze]))
requests=$((REQS[warm_analyze] + REQS[warm_ocr] + REQS[idle] + REQS[soak_ocr] + REQS[soak_analyze]))
check() { if awk "BEGIN {exit !($1)}"; then echo pass; else echo "**FAIL**"; fi; }
c_errors=$(check "$errors == 0 && ${REQS[soak_ocr]} > 0 && \"$alive\" == \"yes\"")
c_memory=$(check "$rss_final <= $rss_base * 1.2 || $rss_final <= $rss_base + 5")
limit=$(awk -v p="${P99[idle]}" 'BEGIN {printf "%.3f", 2 * p}')
c_latency=$(check "${P99[soak_analyze]} < $limit")
verdict=PASS
for c in "$c_errors" "$c_memory" "$c_latency"; do [ "$c" = pass ] || verdict=FAIL; done

{
  echo "Measured by \`make soak\` (SOAK_SECS=$soak_secs) on $(date -u '+%Y-%m-%d %H:%M UTC'), $cores cores," \
    "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; ingredient-api release build with" \
    "OCR_CONCURRENCY=$ocr_slots; /ocr: $ocr_conns connections sending the bench label; /analyze:" \
    "$analyze_conns connections pausing ${analyze_pause_ms} ms between requests."
  echo
  echo "| check | figure | target | result |"
  echo "|---|---|---|---|"
  echo "| errors over $requests requests (/analyze ${REQS[soak_analyze]}, /ocr ${REQS[soak_ocr]} during the soak; server alive: $alive) | $errors | 0 | $c_errors |"
  echo "| ingredient-api RSS: after warm-up $rss_warm MB; settled (max of the soak's first ${settle_secs} s) → end (max during the soak) | $rss_base MB → $rss_final MB ($rss_max MB) | end within 20% of settled | $c_memory |"
  echo "| /analyze p99 idle → with /ocr saturated | ${P99[idle]} ms → ${P99[soak_analyze]} ms | < 2 × idle ($limit ms) | $c_latency |"
  echo "| /analyze p50 idle → with /ocr saturated | ${P50[idle]} ms → ${P50[soak_analyze]} ms | (recorded) | — |"
  echo "| /ocr throughput during the soak, median latency | ${RPS[soak_ocr]} images/s, ${P50[soak_ocr]} ms | (recorded) | — |"
  echo "| Tesseract processes, max resident memory sampled | $tess_max MB | (recorded) | — |"
  echo
  echo "Verdict: **$verdict**."
} >"$tmp/block.md"
scripts/bench/splice.py "$out" soak <"$tmp/block.md"
cat "$tmp/block.md"
echo "memory samples (seconds, server RSS MB, Tesseract RSS MB):" >&2
cat "$tmp/rss" >&2
[ "$verdict" = PASS ]
