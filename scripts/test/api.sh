#!/usr/bin/env bash
# API contract fuzzing: starts both services on loopback ports with throw-away data
# dirs and runs schemathesis (PyPI, in the project-local venv .tmp/venv) against each service's
# /openapi.json with every applicable check. Zero server errors and zero responses that break
# the documented schema, or it exits non-zero. Services are stopped by PID on exit.
#   scripts/test/api.sh            (make test-api)
#   MAX_EXAMPLES=500 scripts/test/api.sh   (more cases per operation; default 100)
#   SERVICE_BIN_DIR=DIR scripts/test/api.sh  (the services' debug binaries in DIR, not built here)
set -euo pipefail
cd "$(dirname "$0")/../.."
tag=test-api
# shellcheck source=scripts/test/schemathesis-lib.sh
source scripts/test/schemathesis-lib.sh

# SERVICE_BIN_DIR: binaries already built (make test passes those of its test build, whose
# features differ from a plain `cargo build -p`'s, so building here would compile again).
bin=${SERVICE_BIN_DIR:-target/debug}
[ -n "${SERVICE_BIN_DIR:-}" ] || cargo build -q -p ingredient-api -p digest-web --bins

# digest-web's data: one real run of the job on the embedded sample (a real digest, a real run
# store); the fuzzed POST /api/refresh then runs `true`, fast and harmless.
data="$work/digest-data"
DIGEST_DATA_DIR="$data" DIGEST_SOURCE=sample "$bin/digest-refresh" >/dev/null

api_port=$(free_port)
env -i PATH="$PATH" HOST=127.0.0.1 PORT="$api_port" WORKERS=2 OCR_TIMEOUT_SECS=5 \
  OCR_QUEUE_WAIT_SECS=5 RUST_LOG=warn "$bin/ingredient-api" >"$work/ingredient-api.log" 2>&1 &
pids+=($!)
web_port=$(free_port)
env -i PATH="$PATH" HOST=127.0.0.1 PORT="$web_port" WORKERS=2 DIGEST_DATA_DIR="$data" \
  DIGEST_REFRESH_COMMAND=true DIGEST_REFRESH_TIMEOUT_SECS=10 RUST_LOG=warn \
  "$bin/digest-web" >"$work/digest-web.log" 2>&1 &
pids+=($!)
wait_port "$api_port" "$work/ingredient-api.log"
wait_port "$web_port" "$work/digest-web.log"

run() {
  echo "== schemathesis: $1 (127.0.0.1:$2)" >&2
  schemathesis_run "$2"
}
status=0
run ingredient-api "$api_port" || status=1
run digest-web "$web_port" || status=1
for pid in "${pids[@]}"; do
  kill -0 "$pid" 2>/dev/null || { echo "test-api: a service died during the run" >&2; status=1; }
done
if [ "$status" -ne 0 ]; then
  for log in "$work"/*.log; do echo "== last lines of $log" >&2; tail -n 30 "$log" >&2; done
fi
exit $status
