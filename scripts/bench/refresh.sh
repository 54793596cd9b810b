#!/usr/bin/env bash
# Measures digest-refresh on a generated 10,000-message Maildir (release build): a cold run
# (empty cache), then a warm run (everything cached). Prints wall time and peak memory
# (GNU time's maximum resident set size). Usage: scripts/bench/refresh.sh [N]
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-10000}
cargo build --release -q -p digest-web --bin digest-refresh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 scripts/bench/gen-maildir.py "$tmp/Maildir" "$n" >/dev/null
run() {
  /usr/bin/time -f "%e %M" -o "$tmp/time" target/release/digest-refresh \
    --source "maildir:$tmp/Maildir" --data-dir "$tmp/data" --window all --max-emails "$n" >/dev/null
  read -r secs kb <"$tmp/time"
  printf '| %s | %s s | %s MB |\n' "$1" "$secs" "$((kb / 1024))"
}
echo "digest-refresh on $n generated messages ($(nproc) cores, release build, $(date -u +%Y-%m-%d))"
echo
echo "| run | wall time | peak memory (max RSS) |"
echo "|---|---|---|"
run "cold (nothing cached)"
run "warm (all cached)"
