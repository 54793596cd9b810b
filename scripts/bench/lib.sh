# Shell functions shared by scripts/bench/all.sh and scripts/bench/soak.sh (sourced, not run).
# They expect `set -euo pipefail`, the repository root as working directory and $tmp set.

# A free loopback port.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# Waits until GET /health answers on PORT (30 s at most).
wait_up() {
  for _ in $(seq 300); do curl -fsS "http://127.0.0.1:$1/health" >/dev/null 2>&1 && return 0; sleep 0.1; done
  echo "server on port $1 did not start" >&2
  return 1
}

# Converts a wrk duration (812.00us, 1.52ms, 2.01s, 1.00m) to milliseconds.
to_ms() {
  awk -v v="$1" 'BEGIN {
    n = v + 0; u = v; sub(/^[0-9.]+/, "", u)
    f = (u == "us") ? 0.001 : (u == "ms") ? 1 : (u == "s") ? 1000 : (u == "m") ? 60000 : 1
    printf "%.3f", n * f }'
}

# wrk_run NAME CONNECTIONS THREADS SECONDS URL [BODY_FILE]: runs wrk (POSTing BODY_FILE when
# given; WRK_DELAY_MS paces each connection) and sets RPS[NAME], REQS[NAME], P50[NAME],
# P99[NAME] (milliseconds) and ERR[NAME] (non-2xx/3xx responses plus socket errors).
declare -A RPS REQS P50 P99 ERR
wrk_parse() {
  local name=$1 res
  res=$(cat "$tmp/wrk-$name.txt")
  RPS[$name]=$(awk '/Requests\/sec/ {print $2}' <<<"$res")
  REQS[$name]=$(awk '/requests in/ {print $1}' <<<"$res")
  P50[$name]=$(to_ms "$(awk '$1=="50%" {print $2}' <<<"$res")")
  P99[$name]=$(to_ms "$(awk '$1=="99%" {print $2}' <<<"$res")")
  ERR[$name]=$(awk '/Non-2xx/ {n += $NF} /Socket errors/ {gsub(/,/, ""); n += $4 + $6 + $8 + $10} END {print n + 0}' <<<"$res")
}
wrk_start() { # like wrk_run, in the background; wrk_parse NAME after `wait`
  local name=$1 c=$2 t=$3 d=$4 url=$5 body=${6:-}
  # GNU time records wrk's own CPU seconds (user system) in $tmp/wrk-NAME.cpu.
  local timed=(/usr/bin/time -f '%U %S' -o "$tmp/wrk-$name.cpu")
  if [ -n "$body" ]; then
    WRK_BODY=$body "${timed[@]}" wrk -t"$t" -c"$c" -d"${d}s" --timeout 60s --latency -s scripts/bench/post.lua "$url" >"$tmp/wrk-$name.txt"
  else
    "${timed[@]}" wrk -t"$t" -c"$c" -d"${d}s" --timeout 60s --latency "$url" >"$tmp/wrk-$name.txt"
  fi
}

# CPU seconds (user + system) that PID has used so far.
cpu_of() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.3f", ($14 + $15) / hz}' "/proc/$1/stat"; }

# per_request_us NAME CPU_SECONDS: microseconds per request of wrk run NAME.
per_request_us() { awk -v s="$2" -v n="${REQS[$1]}" 'BEGIN {printf "%.1f", s * 1e6 / n}'; }

# wrk_cpu_us NAME: wrk's own CPU per request in run NAME, microseconds.
wrk_cpu_us() { per_request_us "$1" "$(awk '{print $1 + $2}' "$tmp/wrk-$1.cpu")"; }
wrk_run() {
  wrk_start "$@"
  wrk_parse "$1"
}

# Resident memory of PID in MB: vm PID VmRSS|VmHWM.
vm() { awk -v k="$2:" '$1==k {printf "%.1f", $2/1024}' "/proc/$1/status"; }

# Writes $tmp/analyze.json (the 40-ingredient AnalyzeRequest) and $tmp/ocr.json (an OcrRequest
# with a label rendered by pango-view, the way the OCR tests render theirs).
make_bodies() {
  python3 - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
items = open("scripts/bench/analyze-40.txt", encoding="utf-8").read().strip()
json.dump({"product_name": "Bench cream", "ingredients": items,
           "allergies": ["Milk/Dairy", "Tree Nut", "fragrance"],
           "skin_type": "sensitive", "expertise": "expert"}, open(f"{tmp}/analyze.json", "w"))
PY
  pango-view --font="DejaVu Sans 11" --dpi=150 --width=330 --wrap=word-char --margin=24 \
    --antialias=gray -q -o "$tmp/label.png" scripts/bench/label.txt
  python3 -c 'import base64, json, sys; json.dump({"image": base64.b64encode(open(sys.argv[1], "rb").read()).decode()}, open(sys.argv[2], "w"))' \
    "$tmp/label.png" "$tmp/ocr.json"
}
