#!/usr/bin/env bash
# `make bench`: measures both services side by side in one run (release build, loopback) with
# wrk, GNU time and criterion, and writes the results table into docs/benchmarks.md (the
# `bench` block; the method is described in the same file). About 4-5 minutes in total.
#
#   1. ingredient-api: GET /health and POST /analyze (40 ingredients) with wrk, 64 connections;
#      POST /ocr (a label rendered by pango-view) with one connection and OCR_CONCURRENCY=1,
#      i.e. images per second on one core; peak memory of the server and of Tesseract.
#   2. digest-web: GET / with a 500-email digest (made by digest-refresh), wrk, 64 connections.
#   3. digest-refresh cold and warm on 10,000 generated messages (scripts/bench/refresh.sh).
#   4. The criterion bench of the analysis engine (cargo bench -p domain --bench analyze).
#   5. /ocr per image on one core (scripts/bench/ocr.sh): the `ocr` block.
#
# Environment: BENCH_SECS (wrk seconds per HTTP row, default 10), OCR_SECS (default 20),
# REFRESH_MESSAGES (default 10000), BENCH_OUT (default docs/benchmarks.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${BENCH_SECS:-10}
ocr_secs=${OCR_SECS:-20}
messages=${REFRESH_MESSAGES:-10000}
out=${BENCH_OUT:-docs/benchmarks.md}
target_dir=${CARGO_TARGET_DIR:-target}
bin=$target_dir/release
started=$(date +%s)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

cargo build --release -q --bins
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
mark() { if awk "BEGIN {exit !($1)}"; then echo "pass"; else echo "**FAIL**"; fi; }
fails=0
row() { # row MEASUREMENT FIGURE TARGET MARK
  [ "$4" = "**FAIL**" ] && fails=$((fails + 1))
  echo "| $1 | $2 | $3 | $4 |" >>"$tmp/rows.md"
}

make_bodies

# --- ingredient-api -----------------------------------------------------------------------
ia=$(free_port)
HOST=127.0.0.1 PORT=$ia OCR_CONCURRENCY=1 OMP_THREAD_LIMIT=1 RUST_LOG=warn \
  "$bin/ingredient-api" 2>"$tmp/ia.log" &
ia_pid=$!
pids+=("$ia_pid")
wait_up "$ia"
items=$(curl -fsS -H 'Content-Type: application/json' --data-binary @"$tmp/analyze.json" \
  "http://127.0.0.1:$ia/analyze" | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["ingredients"]))')
ocr_items=$(curl -fsS -H 'Content-Type: application/json' --data-binary @"$tmp/ocr.json" \
  "http://127.0.0.1:$ia/ocr" | python3 -c 'import json, sys; print(len([t for t in json.load(sys.stdin)["text"].split(",") if t.strip()]))')

# The CPU each side spends per request (server from /proc, wrk from GNU time): on 2 cores
# shared by both, the throughput ratio is the ratio of these sums.
declare -A SERVER_US
for ep in health analyze; do
  before=$(cpu_of "$ia_pid")
  if [ "$ep" = health ]; then
    wrk_run health 64 2 "$secs" "http://127.0.0.1:$ia/health"
  else
    wrk_run analyze 64 2 "$secs" "http://127.0.0.1:$ia/analyze" "$tmp/analyze.json"
  fi
  SERVER_US[$ep]=$(per_request_us "$ep" "$(awk -v a="$before" -v b="$(cpu_of "$ia_pid")" 'BEGIN {print b - a}')")
done
# Tesseract children's resident memory, sampled while /ocr is loaded.
(
  peak=0
  while kill -0 "$ia_pid" 2>/dev/null; do
    # ps exits 1 while no Tesseract runs: not an error here.
    kb=$({ ps -o rss= --ppid "$ia_pid" 2>/dev/null || true; } | awk '{s += $1} END {print s + 0}')
    [ "$kb" -gt "$peak" ] && peak=$kb && echo "$peak" >"$tmp/tess-peak"
    sleep 0.2
  done
) &
pids+=($!)
wrk_run ocr 1 1 "$ocr_secs" "http://127.0.0.1:$ia/ocr" "$tmp/ocr.json"
ia_hwm=$(vm "$ia_pid" VmHWM)
tess_peak=$(awk '{printf "%.1f", $1/1024}' "$tmp/tess-peak" 2>/dev/null || echo "?")

# --- digest-web with 500 emails -------------------------------------------------------------
python3 scripts/bench/gen-maildir.py "$tmp/Maildir500" 500 >/dev/null
"$bin/digest-refresh" --source "maildir:$tmp/Maildir500" --data-dir "$tmp/dw-data" \
  --window all --max-emails 500 >/dev/null
dw=$(free_port)
HOST=127.0.0.1 PORT=$dw DIGEST_DATA_DIR="$tmp/dw-data" RUST_LOG=warn \
  "$bin/digest-web" 2>"$tmp/dw.log" &
dw_pid=$!
pids+=("$dw_pid")
wait_up "$dw"
digest_emails=$(curl -fsS "http://127.0.0.1:$dw/api/digest" | python3 -c 'import json, sys; print(json.load(sys.stdin)["stats"]["total_emails"])')
page_kb=$(curl -fsS "http://127.0.0.1:$dw/" | wc -c | awk '{printf "%.0f", $1/1024}')
wrk_run digest 64 2 "$secs" "http://127.0.0.1:$dw/"
dw_hwm=$(vm "$dw_pid" VmHWM)

# --- digest-refresh on 10,000 messages (the refresh helper's script) --------------------------
refresh_table=$(scripts/bench/refresh.sh "$messages")
echo "$refresh_table" >"$tmp/refresh.txt"
refresh_field() { # refresh_field cold|warm COLUMN
  awk -F'|' -v run="$1" -v col="$2" '$2 ~ run {gsub(/[^0-9.]/, "", $col); print $col}' "$tmp/refresh.txt"
}
cold_s=$(refresh_field cold 3); cold_mb=$(refresh_field cold 4)
warm_s=$(refresh_field warm 3); warm_mb=$(refresh_field warm 4)

# --- criterion: the analysis engine and the knowledge-base index ----------------------------
cargo bench -q -p domain --bench analyze -- --warm-up-time 1 --measurement-time 3 \
  >"$tmp/criterion.txt" 2>&1
estimate() { # estimate BENCH_PATH → median in microseconds
  python3 -c 'import json, sys; print("%.1f" % (json.load(open(sys.argv[1]))["median"]["point_estimate"] / 1000))' \
    "$target_dir/criterion/$1/new/estimates.json"
}
analyze_us=$(estimate analyze_40_ingredients)
validate_us=$(estimate validate_and_analyze_40_ingredients)
index_ms=$(awk -v us="$(estimate knowledge_base/build_index)" 'BEGIN {printf "%.1f", us/1000}')

# --- The table -----------------------------------------------------------------------------
ratio=$(awk -v a="${RPS[analyze]}" -v h="${RPS[health]}" 'BEGIN {printf "%.2f", a/h}')
ocr_median_s=$(awk -v ms="${P50[ocr]}" 'BEGIN {printf "%.2f", ms/1000}')
: >"$tmp/rows.md"
row "ingredient-api \`GET /health\`, 64 connections" "${RPS[health]} req/s; p50 ${P50[health]} ms, p99 ${P99[health]} ms; ${ERR[health]} errors" "no errors" "$(mark "${ERR[health]} == 0")"
row "ingredient-api \`POST /analyze\`, $items ingredients, 64 connections" "${RPS[analyze]} req/s; ${ERR[analyze]} errors" "no errors" "$(mark "${ERR[analyze]} == 0")"
row "\`/analyze\` ÷ \`/health\` throughput" "$ratio" "≥ 0.5" "$(mark "$ratio >= 0.5")"
row "CPU per request at 64 connections: server (from /proc) + wrk (GNU time)" "\`/health\` ${SERVER_US[health]} + $(wrk_cpu_us health) µs; \`/analyze\` ${SERVER_US[analyze]} + $(wrk_cpu_us analyze) µs" "(recorded: when the two cores run nothing else, the ratio above is about the inverse ratio of these sums)" "—"
row "\`/analyze\` latency p50" "${P50[analyze]} ms" "(recorded)" "—"
row "\`/analyze\` latency p99" "${P99[analyze]} ms" "< 5 ms" "$(mark "${P99[analyze]} < 5")"
row "\`/ocr\` images per second on one core (OCR_CONCURRENCY=1, 1 connection, $ocr_items items read)" "$(awk -v r="${RPS[ocr]}" 'BEGIN {printf "%.2f", r}') images/s; ${ERR[ocr]} errors" "no errors" "$(mark "${ERR[ocr]} == 0 && ${RPS[ocr]} > 0")"
row "\`/ocr\` median latency" "$ocr_median_s s (p99 $(awk -v ms="${P99[ocr]}" 'BEGIN {printf "%.2f", ms/1000}') s)" "(recorded)" "—"
row "ingredient-api peak memory (VmHWM) after the /analyze and /ocr loads" "$ia_hwm MB" "< 100 MB" "$(mark "$ia_hwm < 100")"
row "Tesseract processes, peak resident memory (sampled)" "$tess_peak MB" "(recorded; not counted above)" "—"
row "digest-web \`GET /\`, $digest_emails emails in the digest ($page_kb KB page), 64 connections" "${RPS[digest]} req/s; p50 ${P50[digest]} ms, p99 ${P99[digest]} ms; ${ERR[digest]} errors" "500 emails, no errors" "$(mark "$digest_emails == 500 && ${ERR[digest]} == 0")"
row "digest-web peak memory (VmHWM) after the \`GET /\` load" "$dw_hwm MB" "(recorded)" "—"
row "digest-refresh cold, $messages messages (nothing cached)" "$cold_s s, peak $cold_mb MB" "< 120 s (the refresh time limit)" "$(mark "$cold_s < 120")"
row "digest-refresh warm, $messages messages (all cached)" "$warm_s s, peak $warm_mb MB" "< cold run" "$(mark "$warm_s < $cold_s")"
row "criterion \`analyze\`, 40-ingredient list (median)" "$analyze_us µs" "< 50 µs" "$(mark "$analyze_us < 50")"
row "criterion validate + \`analyze\` (median)" "$validate_us µs" "(recorded)" "—"
row "criterion knowledge-base index build (median)" "$index_ms ms" "(recorded; once at start-up)" "—"

# /ocr per image on one core, real photos and synthetic labels, beside plain Tesseract.
{
  echo "Measured by \`make bench\` (scripts/bench/ocr.sh) on $(date -u '+%Y-%m-%d %H:%M UTC'):" \
    "per request on one core (taskset -c 0, OCR_CONCURRENCY=1), models loaded beforehand."
  echo
  OCR_BENCH_SIDE_BY_SIDE=0 scripts/bench/ocr.sh 2>"$tmp/ocr-bench.log"
} >"$tmp/ocr-block.md"
scripts/bench/splice.py "$out" ocr <"$tmp/ocr-block.md"

load_after=$(cut -d' ' -f1-3 /proc/loadavg)
{
  echo "Measured by \`make bench\` on $(date -u '+%Y-%m-%d %H:%M UTC'): $(nproc) cores," \
    "$(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) RAM, release build, loopback;" \
    "wrk 2 threads, $secs s per HTTP row ($ocr_secs s for /ocr); load average before the run" \
    "$load_before, after $load_after; the whole run took $(($(date +%s) - started)) s."
  echo
  echo "| measurement | figure | target | result |"
  echo "|---|---|---|---|"
  cat "$tmp/rows.md"
  echo
  echo "$fails target(s) missed."
} >"$tmp/block.md"
scripts/bench/splice.py "$out" bench <"$tmp/block.md"
cat "$tmp/block.md"
[ "$fails" -eq 0 ]
