#!/usr/bin/env bash
# make test (what CI runs, through .ci/run): lint and every test, scheduled so that two cores
# stay busy. Stage by stage, with the make target that runs the same alone:
#   prepare   (background, from the start) the Debian packages of every stage, then at once the
#             PP-OCR models, the mail categoriser's sentence-embedding table, the Python tools (schemathesis, the deploy linters) and the deploy
#             base root filesystem (mmdebstrap), then the static deploy checks.
#             [make deps, make deploy-check]
#   release   (background, from the start, at nice 19: it takes only what the stages below
#             leave idle) cargo build --release --bins, for the deploy stages.
#   lint      cargo fmt --check and the module map.  [make lint]
#   build     one dev build of every target of the workspace with clippy-driver compiling the
#             workspace's own crates: the lints of `cargo clippy --workspace --all-targets -D
#             warnings` and the test binaries from one build, instead of a check build of every
#             dependency and then a test build.  [make clippy]
#   rust      every Rust test (nextest).  [make test-rust]
#   api       schemathesis on both services, and beside it schemathesis with a failing LLM.
#             [make test-api, make test-api-llm]
#   deploy    the release binaries behind nginx, then the compose stack on a real engine.
#             [make deploy-check, make deploy-live]
# Each stage prints "ci: STAGE took N s" as it ends, and a table of every stage at the end
# (STAGE_TIMES=FILE also writes it there); the background stages log to .tmp/ci/.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .tmp/ci
logs=.tmp/ci
started=$(date +%s)
declare -a table=()
# A CI machine builds once and throws the build away: incremental caches would only cost time.
[ "${CI:-}" != true ] || export CARGO_INCREMENTAL=0
# A fresh run writes about 5 GB (the dev and release builds, models, venvs, the deploy root):
# say so in one line before a linker fails on a full disk with a bus error.
free_kb=$(df -Pk . | awk 'NR == 2 { print $4 }')
if [ "${free_kb:-0}" -lt $((8 * 1024 * 1024)) ]; then
  echo "make test: only $((free_kb / 1024)) MB free on $(df -P . | awk 'NR == 2 { print $6 }'); a run writes about 5 GB, and a full disk fails the build with a linker bus error" >&2
fi

# CPU seconds (user + system) of the children this shell has waited for: a stage's CPU time
# says what it costs whatever else the machine runs, where its wall time does not.
# cpu sets cpu_s; `times` must run in this shell, not in a $(...) subshell.
cpu() {
  local file="$logs/.times-$BASHPID"
  times >"$file"
  cpu_s=$(awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); s += t[1] * 60 + t[2] } }
    END { printf "%d", s }' "$file")
}
row() { # NAME WALL CPU FROM TO [NOTE]
  table+=("$(printf '%-20s %5s s %6s s  %5s s to %5s s  %s' "$@")")
}

# run_stage NAME COMMAND...: runs COMMAND in the foreground and notes its time.
run_stage() {
  local name=$1 t0 c0
  cpu
  t0=$(date +%s) c0=$cpu_s
  shift
  printf '\nci: %s (%s s in)\n' "$name" "$((t0 - started))"
  "$@"
  note "$name" "$t0" "$c0"
}
note() { # NAME T0 CPU0
  local now c
  cpu
  now=$(date +%s) c=$((cpu_s - $3))
  row "$1" "$((now - $2))" "$c" "$(($2 - started))" "$((now - started))"
  printf 'ci: %s took %s s (%s s of CPU)\n' "$1" "$((now - $2))" "$c"
}
# background NAME COMMAND...: runs COMMAND in the background; its wall and CPU seconds go to
# .tmp/ci/NAME.end.
background() {
  local name=$1
  shift
  (
    t0=$(date +%s)
    "$@"
    cpu
    echo "$(($(date +%s) - t0)) $cpu_s" >"$logs/$name.end"
  ) >"$logs/$name.log" 2>&1 &
}
# wait_bg NAME PID T0: waits for a background stage; on failure prints its log and stops.
wait_bg() {
  local wall c pid kept=()
  if ! wait "$2"; then
    echo "ci: $1 failed; its log ($logs/$1.log):" >&2
    tail -n 40 "$logs/$1.log" >&2
    exit 1
  fi
  for pid in "${pids[@]}"; do [ "$pid" = "$2" ] || kept+=("$pid"); done
  pids=("${kept[@]}")
  read -r wall c <"$logs/$1.end"
  row "$1" "$wall" "$c" "$3" "$(($3 + wall))" "(background)"
}

prepare() {
  scripts/setup/install-deps.sh test deploy_live
  local pids=()
  scripts/setup/install-ocr-models.sh & pids+=($!)
  scripts/setup/install-embedding-model.sh & pids+=($!)
  scripts/setup/install-python-tools.sh & pids+=($!)
  scripts/deploy/base-rootfs.sh & pids+=($!)
  local pid rc=0
  for pid in "${pids[@]}"; do wait "$pid" || rc=1; done
  [ "$rc" -eq 0 ]
  scripts/deploy/check.sh --no-live
}

# On failure or Ctrl-C, the background stages stop too: each started process, by its id.
pids=()
kill_tree() {
  local child
  for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do kill_tree "$child"; done
  kill -TERM "$1" 2>/dev/null || true
}
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill_tree "$pid"; done
}
trap cleanup EXIT

# Not root: install-deps.sh only names the missing packages, at once rather than minutes in.
[ "$(id -u)" -eq 0 ] || scripts/setup/install-deps.sh test deploy_live
background prepare prepare
prepare_pid=$! prepare_t0=$(($(date +%s) - started))
pids+=("$prepare_pid")
background release nice -n 19 cargo build --release --bins
release_pid=$! release_t0=$(($(date +%s) - started))
pids+=("$release_pid")

# clippy-driver as the workspace's compiler, as `cargo clippy` sets it up (its CLIPPY_ARGS are
# the arguments after `--`, joined by __CLIPPY_HACKERY__). nextest's own build step uses the
# same setting, so it finds everything built.
clippy_env=(
  RUSTC_WORKSPACE_WRAPPER="$(rustc --print sysroot)/bin/clippy-driver"
  CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
)
lint() {
  cargo fmt --all -- --check
  python3 scripts/test/module-map.py --check docs/architecture.md
}
run_stage lint lint
run_stage build env "${clippy_env[@]}" cargo test --workspace --all-targets --no-run

t0=$(date +%s)
wait_bg prepare "$prepare_pid" "$prepare_t0"
waited=$(($(date +%s) - t0))
[ "$waited" -lt 2 ] || row "(waiting for prepare)" "$waited" - "$((t0 - started))" "$((t0 + waited - started))"

run_stage rust env "${clippy_env[@]}" scripts/test/rust.sh

# The services' binaries of the test build (cargo test puts them in target/debug/).
api() {
  SERVICE_BIN_DIR="${CARGO_TARGET_DIR:-target}/debug" scripts/test/api-llm.sh >"$logs/api-llm.log" 2>&1 &
  local llm=$! rc=0
  SERVICE_BIN_DIR="${CARGO_TARGET_DIR:-target}/debug" scripts/test/api.sh || rc=1
  wait "$llm" || { echo "ci: test-api-llm failed:" >&2; rc=1; }
  cat "$logs/api-llm.log"
  return "$rc"
}
run_stage api api

t0=$(date +%s)
wait_bg release "$release_pid" "$release_t0"
waited=$(($(date +%s) - t0))
[ "$waited" -lt 2 ] || row "(waiting for release)" "$waited" - "$((t0 - started))" "$((t0 + waited - started))"
run_stage deploy-check scripts/deploy/check.sh --live-only
run_stage deploy-live scripts/deploy/live.sh

total=$(($(date +%s) - started))
cpu
row total "$total" "$cpu_s" 0 "$total"
printf '\nci: every stage passed in %s s (%d min %02d s); load average now %s\n' \
  "$total" "$((total / 60))" "$((total % 60))" "$(cut -d' ' -f1-3 /proc/loadavg)"
header=$(printf '%-20s %7s %8s  %s' stage wall CPU "from start")
printf '%s\n' "$header" "${table[@]}"
if [ -n "${STAGE_TIMES:-}" ]; then printf '%s\n' "$header" "${table[@]}" >"$STAGE_TIMES"; fi
