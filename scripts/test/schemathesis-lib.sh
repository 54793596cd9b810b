# Shared by scripts/test/api.sh and scripts/test/api-llm.sh (source it from the project root
# after setting `tag`, the name that prefixes messages): schemathesis in the project-local
# venv (pinned in scripts/setup/install-python-tools.sh), a work dir whose services are stopped
# by PID on exit, free ports, and one schemathesis run with the checks both scripts use.

MAX_EXAMPLES=${MAX_EXAMPLES:-100}
root=$PWD
venv=.tmp/venv
scripts/setup/install-python-tools.sh schemathesis

mkdir -p .tmp
work=$(mktemp -d "$root/.tmp/$tag.XXXXXX")
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# wait_port PORT [LOG]: until something listens on PORT; else print LOG and exit 1.
wait_port() {
  for _ in $(seq 200); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.05
  done
  echo "$tag: nothing listens on port $1" >&2
  if [ -n "${2:-}" ]; then cat "$2" >&2; fi
  exit 1
}

# schemathesis_run PORT: every check but positive_data_acceptance (docs/proof.md says why:
# acceptance of a schema-valid body depends on what the text contains, which JSON Schema
# cannot state), from the work dir (schemathesis and hypothesis keep caches in the current
# directory).
schemathesis_run() {
  (cd "$work" && HYPOTHESIS_STORAGE_DIRECTORY="$PWD/.hypothesis" \
    "$root/$venv/bin/schemathesis" run "http://127.0.0.1:$1/openapi.json" \
    --checks all --exclude-checks positive_data_acceptance \
    --max-examples "$MAX_EXAMPLES" --workers 1 --request-timeout 30 \
    --seed 9 --generation-database none)
}
