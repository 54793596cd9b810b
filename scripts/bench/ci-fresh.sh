#!/usr/bin/env bash
# Times CI the way a fresh machine sees it, as closely as one machine that already ran it can:
#   - a fresh `git clone` of REV (default HEAD) into OUT/main, with OUT/shared linked to this
#     checkout's ../shared when that exists (as beside a worktree; SHARED=none leaves it out);
#   - empty target/ and .tmp/ (cold Rust build, no venv, no OCR models, no deploy base image);
#   - an empty cargo registry: CARGO_HOME is a new empty folder (rustup's toolchains are still
#     found through PATH and RUSTUP_HOME), so every crate is downloaded again;
#   - pip's cache bypassed (PIP_NO_CACHE_DIR=1);
#   - then `CI=true .ci/run` (= make test), every line of its output prefixed by the wall-clock
#     time, under /usr/bin/time (the CPU seconds of the whole run, robust to a busy machine).
# The Debian packages already installed cannot be removed without harm: docs/ci.md says how
# their install time on a fresh machine is accounted for.
# The load average is sampled every 30 s into OUT/load.txt (other builds on the machine slow
# the run: compare figures taken at the same load, or on a quiet machine).
# Usage: scripts/bench/ci-fresh.sh [REV]   (OUT: CI_FRESH_DIR, default a new /tmp/ci-fresh.XXXXXX)
# Writes OUT/log.txt, OUT/start and OUT/end (epoch seconds), OUT/time.txt (GNU time),
# OUT/load.txt, OUT/stages.txt (make test's stage table) and prints a summary. Run as root, as
# CI does (the deploy stages start their own dockerd); never two at once (two dockerds would
# give their networks the same addresses).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
rev=${1:-HEAD}
sha=$(git rev-parse --short "$rev")
out=${CI_FRESH_DIR:-$(mktemp -d /tmp/ci-fresh.XXXXXX)}
mkdir -p "$out"
[ ! -e "$out/main" ] || { echo "ci-fresh: $out/main exists; pick another CI_FRESH_DIR" >&2; exit 1; }

git clone --quiet --no-hardlinks "$repo" "$out/main"
git -C "$out/main" checkout --quiet --detach "$sha"
if [ "${SHARED:-}" != none ] && [ -d "$repo/../shared" ]; then
  ln -s "$(cd "$repo/../shared" && pwd)" "$out/shared"
fi
mkdir -p "$out/cargo-home"

sample_load() {
  while :; do
    printf '%s %s rustc=%s\n' "$(date +%T)" "$(cut -d' ' -f1-3 /proc/loadavg)" \
      "$(pgrep -c -x rustc || true)"
    sleep 30
  done
}
sample_load >"$out/load.txt" &
sampler=$!
trap 'kill "$sampler" 2>/dev/null || true' EXIT

echo "ci-fresh: $sha in $out/main, CARGO_HOME=$out/cargo-home; log in $out/log.txt" >&2
date +%s >"$out/start"
set +e
(
  cd "$out/main"
  env CI=true CARGO_HOME="$out/cargo-home" PIP_NO_CACHE_DIR=1 STAGE_TIMES="$out/stages.txt" \
    /usr/bin/time -o "$out/time.txt" -f '%e s wall, %U s user, %S s system, %M KB peak' \
    bash .ci/run 2>&1 | while IFS= read -r line; do printf '%s %s\n' "$(date +%T)" "$line"; done
  exit "${PIPESTATUS[0]}"
) >"$out/log.txt"
rc=$?
set -e
date +%s >"$out/end"
kill "$sampler" 2>/dev/null || true

secs=$(($(cat "$out/end") - $(cat "$out/start")))
echo "ci-fresh: $sha exit $rc in $secs s ($((secs / 60)) min $((secs % 60)) s); $(cat "$out/time.txt")"
echo "ci-fresh: load average during the run (1-min value): $(awk '{print $2}' "$out/load.txt" | sort -n | awk '{a[NR]=$1} END {print "min " a[1] ", median " a[int((NR+1)/2)] ", max " a[NR]}')"
if [ -f "$out/stages.txt" ]; then cat "$out/stages.txt"; fi
exit "$rc"
