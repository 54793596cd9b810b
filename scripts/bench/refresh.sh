#!/usr/bin/env bash
# Measures digest-refresh on a generated 10,000-message Maildir (release build): a cold run
# (empty cache), then a warm run (everything cached), then a run after one dashboard
# correction and the run after that. Prints wall time and peak memory
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
# One correction on the dashboard (the first email of the digest moved to Need-Action): the
# next run learns from its cached features and categorises only its sender group again.
python3 - "$tmp/data" <<'PY'
import json, sqlite3, sys
data = sys.argv[1]
digest = json.load(open(f"{data}/digest.json"))
cat, items = next((c, i) for c, i in digest["categories"].items() if i and c != "Need-Action")
e = items[0]
db = sqlite3.connect(f"{data}/runs.sqlite3")
db.execute(
    "INSERT INTO corrections (email_id, sender, subject, snippet, from_category, category,"
    " created_by, created_at) VALUES (?, ?, ?, ?, ?, 'Need-Action', 'bench', '2026-01-01T00:00:00')",
    (e["id"], e["from"].lower(), e["subject"], e["snippet"], cat),
)
db.commit()
PY
run "after one correction (its sender group again)"
run "the run after it (all cached again)"
