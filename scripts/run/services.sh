#!/usr/bin/env bash
# Starts both release binaries on their embedded defaults; Ctrl-C (or SIGTERM) stops both.
# Expects `cargo build --release` to have run (make run does it).
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=target/release
pids=()
stop() { kill -TERM "${pids[@]}" 2>/dev/null; wait; exit 0; }
trap stop INT TERM
# A first refresh from the embedded sample mailbox, so the dashboard opens on a real digest.
data_dir=${DIGEST_DATA_DIR:-data}
if [ ! -f "$data_dir/digest.json" ]; then
  DIGEST_DATA_DIR="$data_dir" "$bin/digest-refresh" || echo "first refresh failed; the dashboard's Refresh button retries" >&2
fi
env -u PORT "$bin/ingredient-api" & pids+=($!)
env -u PORT "$bin/digest-web" & pids+=($!)
echo "ingredient-api: http://localhost:8000   digest-web: http://localhost:8001   (Ctrl-C stops both)"
# If either dies, stop the other too.
wait -n
stop
