#!/usr/bin/env bash
# `make fuzz`: runs every cargo-fuzz target of fuzz/ for FUZZ_SECS seconds each (default 60),
# installing cargo-fuzz first when it is missing. FUZZ_TARGETS="a b" picks targets.
#
# cargo-fuzz passes nightly-only flags (-Zsanitizer=address, sancov); the only toolchain here
# is stable, so RUSTC_BOOTSTRAP=1 lets it use them. Each target starts from its seeds
# (fuzz/corpus/<target>/, read only: committed, or generated from the services' fixtures by
# scripts/fuzz/seed-corpora.sh) plus what earlier runs found (fuzz/target/corpus/, not in git). A crash leaves its input in fuzz/artifacts/<target>/ and fails the run; turn
# it into a regression test in the crate that owns the code (docs/benchmarks.md).
# The summary goes into docs/benchmarks.md (the `fuzz` block).
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${FUZZ_SECS:-60}
out=${BENCH_OUT:-docs/benchmarks.md}
export RUSTC_BOOTSTRAP=1

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz: installing cargo-fuzz from crates.io" >&2
  cargo install cargo-fuzz --locked
fi
targets=${FUZZ_TARGETS:-$(cargo fuzz list)}
scripts/fuzz/seed-corpora.sh
cargo fuzz build

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
: >"$tmp/rows.md"
for target in $targets; do
  echo "fuzz: $target for ${secs}s" >&2
  mkdir -p "fuzz/target/corpus/$target"
  status=0
  cargo fuzz run "$target" "fuzz/target/corpus/$target" "fuzz/corpus/$target" -- \
    -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
    >"$tmp/$target.log" 2>&1 || status=$?
  execs=$(awk '/stat::number_of_executed_units/ {print $NF}' "$tmp/$target.log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$tmp/$target.log" | tail -1 | awk '{print $2}')
  corpus=$(find "fuzz/target/corpus/$target" -type f | wc -l)
  if [ "$status" -eq 0 ]; then
    result="no crash"
  else
    failed=$((failed + 1))
    artefact=$(grep -o 'fuzz/artifacts/[^ ]*' "$tmp/$target.log" | tail -1 || true)
    result="**crash** (exit $status) ${artefact:-see the log}"
    tail -40 "$tmp/$target.log" >&2
  fi
  echo "| \`$target\` | ${secs} s | ${execs:-?} | ${cov:-?} | $corpus | $result |" >>"$tmp/rows.md"
done

{
  echo "Run by \`make fuzz\` (FUZZ_SECS=$secs) on $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores," \
    "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; cargo-fuzz $(cargo fuzz --version | awk '{print $2}')," \
    "libFuzzer with AddressSanitizer, debug assertions and overflow checks on."
  echo
  echo "| target | time | executions | coverage (edges) | corpus after | result |"
  echo "|---|---|---|---|---|---|"
  cat "$tmp/rows.md"
} >"$tmp/block.md"
scripts/bench/splice.py "$out" fuzz <"$tmp/block.md"
cat "$tmp/block.md"
[ "$failed" -eq 0 ]
