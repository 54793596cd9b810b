#!/usr/bin/env bash
# Live test of the deployment's reverse proxy: starts both release binaries on free loopback
# ports, renders deploy/proxy/nginx.conf.template with the upstreams on loopback, starts Debian's
# nginx unprivileged with it (-p RUNDIR, every temp path under RUNDIR), then runs
# scripts/deploy/live-checks.py through the proxy. Everything it starts is stopped on exit, even
# on failure.
# Usage: scripts/deploy/live-test.sh
#   With INGREDIENT_API_UPSTREAM and DIGEST_WEB_UPSTREAM (host:port) and INGREDIENT_API_LOG and
#   DIGEST_WEB_LOG set, it starts no services and checks those instead.
# Expects `cargo build --release --bins` to have run (CARGO_TARGET_DIR is honoured); LIVE_RUNDIR
# overrides the work folder.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

rundir=${LIVE_RUNDIR:-$root/.tmp/deploy-live}
rm -rf "$rundir"
mkdir -p "$rundir/nginx" "$rundir/digest-data"

pids=()
stop() {
  local rc=$?
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "$rc" -ne 0 ]; then
    echo "deploy-live-test: failed; logs in $rundir" >&2
    tail -n 20 "$rundir"/*.log >&2 2>/dev/null || true
  fi
  exit "$rc"
}
trap stop EXIT INT TERM

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

wait_for() { # host port what
  for _ in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "deploy-live-test: $3 did not listen on $1:$2" >&2
  return 1
}

if [ -z "${INGREDIENT_API_UPSTREAM:-}" ]; then
  bin=${CARGO_TARGET_DIR:-$root/target}/release
  for b in ingredient-api digest-web; do
    [ -x "$bin/$b" ] || { echo "deploy-live-test: $bin/$b missing; run cargo build --release --bins" >&2; exit 1; }
  done
  api_port=$(free_port)
  web_port=$(free_port)
  INGREDIENT_API_LOG=$rundir/ingredient-api.log
  DIGEST_WEB_LOG=$rundir/digest-web.log
  # JSON logs with the request-id debug event: the forwarded-headers check reads them.
  common=(HOST=127.0.0.1 LOG_FORMAT=json WORKERS=2 "RUST_LOG=info,service_kit::request_id=debug")
  env -i PATH="$PATH" "${common[@]}" PORT="$api_port" OMP_THREAD_LIMIT=1 \
    "$bin/ingredient-api" >"$INGREDIENT_API_LOG" 2>&1 &
  pids+=($!)
  env -i PATH="$PATH" "${common[@]}" PORT="$web_port" DIGEST_DATA_DIR="$rundir/digest-data" \
    "$bin/digest-web" >"$DIGEST_WEB_LOG" 2>&1 &
  pids+=($!)
  INGREDIENT_API_UPSTREAM=127.0.0.1:$api_port
  DIGEST_WEB_UPSTREAM=127.0.0.1:$web_port
fi
wait_for "${INGREDIENT_API_UPSTREAM%:*}" "${INGREDIENT_API_UPSTREAM##*:}" ingredient-api
wait_for "${DIGEST_WEB_UPSTREAM%:*}" "${DIGEST_WEB_UPSTREAM##*:}" digest-web

PROXY_PORT=$(free_port)
PROXY_RUNTIME_DIR=$rundir/nginx
export PROXY_PORT PROXY_RUNTIME_DIR INGREDIENT_API_UPSTREAM DIGEST_WEB_UPSTREAM
# shellcheck disable=SC2016 # the variable names are for envsubst, not for the shell
envsubst '${PROXY_PORT} ${PROXY_RUNTIME_DIR} ${INGREDIENT_API_UPSTREAM} ${DIGEST_WEB_UPSTREAM}' \
  <deploy/proxy/nginx.conf.template >"$rundir/nginx/nginx.conf"

# Unprivileged even when this runs as root: nginx runs as nobody, like the non-root container.
as_user=()
if [ "$(id -u)" -eq 0 ]; then
  touch "$rundir/proxy-access.log" "$rundir/proxy-error.log"
  chown -R nobody:nogroup "$rundir/nginx" "$rundir/proxy-access.log" "$rundir/proxy-error.log"
  as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
fi
"${as_user[@]}" nginx -t -q -p "$rundir/nginx" -c "$rundir/nginx/nginx.conf" -e stderr >/dev/null
"${as_user[@]}" nginx -p "$rundir/nginx" -c "$rundir/nginx/nginx.conf" -e stderr -g 'daemon off;' \
  >"$rundir/proxy-access.log" 2>"$rundir/proxy-error.log" &
pids+=($!)
wait_for 127.0.0.1 "$PROXY_PORT" nginx

python3 scripts/deploy/live-checks.py "$PROXY_PORT" "$INGREDIENT_API_LOG" "$DIGEST_WEB_LOG" \
  "$rundir/proxy-access.log"
