#!/usr/bin/env bash
# CPU time per analysis (perf stat task-clock), robust on a busy shared machine where
# criterion's wall-clock numbers are inflated by other processes. Needs `perf`.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p domain --example analyze_cpu
bin=target/release/examples/analyze_cpu
ms() { perf stat -x, -e task-clock "$bin" "$@" 2>&1 >/dev/null | awk -F, '/task-clock/ {print $1}'; }
base=$(ms analyze 0)
# CPU_MODES: a comma-separated subset, e.g. "respond 20000,parse 20000".
IFS=, read -ra specs <<<"${CPU_MODES:-respond 20000,analyze 20000,parse 20000,build 20}"
for spec in "${specs[@]}"; do
  set -- $spec
  total=$(ms "$1" "$2")
  awk -v t="$total" -v b="$base" -v n="$2" -v m="$1" \
    'BEGIN { per = (t - b) / n; if (per < 1) printf "%-8s %8.1f us CPU per run\n", m, per * 1000; else printf "%-8s %8.1f ms CPU per run\n", m, per }'
done
