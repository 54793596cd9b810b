#!/usr/bin/env bash
# API fuzzing with a failing LLM: ingredient-api with every LLM
# backend on, pointed at scripts/test/llm-garbage-server.py (HTTP 500s and garbage answers), then
# schemathesis against its /openapi.json as in scripts/test/api.sh. Passes when schemathesis
# finds no server error or schema violation AND the log shows the LLM path was taken (fallback
# warnings), i.e. every answer came from the offline path despite the LLM.
#   scripts/test/api-llm.sh        (make test-api-llm)
set -euo pipefail
cd "$(dirname "$0")/../.."
tag=test-api-llm
# shellcheck source=scripts/test/schemathesis-lib.sh
source scripts/test/schemathesis-lib.sh
# SERVICE_BIN_DIR: as in scripts/test/api.sh, binaries already built.
bin=${SERVICE_BIN_DIR:-target/debug}
[ -n "${SERVICE_BIN_DIR:-}" ] || cargo build -q -p ingredient-api --bin ingredient-api

llm_port=$(free_port)
python3 scripts/test/llm-garbage-server.py "$llm_port" &
pids+=($!)
api_port=$(free_port)
env -i PATH="$PATH" HOST=127.0.0.1 PORT="$api_port" WORKERS=2 OCR_TIMEOUT_SECS=5 \
  OCR_QUEUE_WAIT_SECS=5 LLM_BASE_URL="http://127.0.0.1:$llm_port/v1" LLM_MODEL=garbage \
  LLM_OCR_BUDGET_SECS=2 LLM_ANALYZE_BUDGET_SECS=2 LOG_FORMAT=json RUST_LOG=warn \
  "$bin/ingredient-api" >"$work/ingredient-api.log" 2>&1 &
pids+=($!)
wait_port "$llm_port"
wait_port "$api_port" "$work/ingredient-api.log"

status=0
schemathesis_run "$api_port" || status=1
fallbacks=$(grep -c 'the template summary answers\|stay unknown\|Tesseract answers' "$work/ingredient-api.log" || true)
echo "test-api-llm: $fallbacks LLM fallbacks logged" >&2
if [ "$fallbacks" -eq 0 ]; then
  echo "test-api-llm: the LLM path was never taken" >&2
  status=1
fi
kill -0 "${pids[1]}" 2>/dev/null || { echo "test-api-llm: ingredient-api died" >&2; status=1; }
if [ "$status" -ne 0 ]; then tail -n 30 "$work/ingredient-api.log" >&2; fi
exit $status
