#!/usr/bin/env bash
# API contract fuzzing (issue 9): starts both services on loopback ports with throw-away data
# dirs and runs schemathesis (PyPI, in the project-local venv .tmp/venv) against each service's
# /openapi.json with every applicable check. Zero server errors and zero responses that break
# the documented schema, or it exits non-zero. Services are stopped by PID on exit.
#   scripts/test-api.sh            (make test-api)
#   MAX_EXAMPLES=500 scripts/test-api.sh   (more cases per operation; default 100)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

SCHEMATHESIS_VERSION=4.32.5
MAX_EXAMPLES=${MAX_EXAMPLES:-100}
venv=.tmp/venv
if ! "$venv/bin/schemathesis" --version 2>/dev/null | grep -q "$SCHEMATHESIS_VERSION"; then
  echo "test-api: installing schemathesis $SCHEMATHESIS_VERSION into $venv" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

cargo build -q -p ingredient-api -p digest-web --bins
bin=target/debug

mkdir -p .tmp
work=$(mktemp -d "$root/.tmp/test-api.XXXXXX")
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_healthy() {
  for _ in $(seq 200); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.05
  done
  echo "test-api: nothing listens on port $1; log:" >&2
  cat "$2" >&2
  exit 1
}

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
wait_healthy "$api_port" "$work/ingredient-api.log"
wait_healthy "$web_port" "$work/digest-web.log"

# Checks: all of them, minus positive_data_acceptance (docs/proof.md says why: acceptance
# of a schema-valid body depends on what the text contains, which JSON Schema cannot state).
run() {
  local name=$1 port=$2
  echo "== schemathesis: $name (127.0.0.1:$port)" >&2
  # From the work dir: schemathesis and hypothesis keep caches in the current directory.
  (cd "$work" && HYPOTHESIS_STORAGE_DIRECTORY="$PWD/.hypothesis" \
  "$root/$venv/bin/schemathesis" run "http://127.0.0.1:$port/openapi.json" \
    --checks all --exclude-checks positive_data_acceptance \
    --max-examples "$MAX_EXAMPLES" --workers 1 --request-timeout 30 \
    --seed 9 --generation-database none)
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
