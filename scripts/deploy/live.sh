#!/usr/bin/env bash
# make deploy-live: the real compose stack (deploy/compose/compose.yaml) on a real engine, checked
# live through its nginx. Runs as root on a fresh Debian machine:
#   1. installs Debian's docker.io (dockerd 20.10), docker-compose (1.29) and mmdebstrap when
#      missing, and starts its own dockerd (scripts/deploy/engine.sh: everything under
#      .tmp/deploy-live/, no firewall rules, no default bridge); stopped by PID on exit, even on
#      failure, leaving no container, network, volume, bridge or firewall rule behind;
#   2. builds the images from deploy/docker/*.Dockerfile with the host's release binaries
#      (--build-arg BINARIES=<an image of target/release>: the production Dockerfiles, minus
#      their compile stages) and the proxy stand-in (scripts/deploy/proxy-standin.Dockerfile,
#      tagged nginx:1.27-alpine), all FROM a local debian:bookworm-slim (mmdebstrap) and with
#      --network none: no registry, no download;
#   3. `docker-compose up` of the real compose file: a copy that publishes the proxy on a free
#      loopback port instead of 8080 and drops the top-level `name:` (docker-compose 1.29 predates
#      it; passed as -p), plus an override that polls the healthchecks every 2 s instead of 30 s
#      and turns on the request-id debug log; the proxy starts once both services are healthy;
#   4. scripts/deploy/live-checks.py through the published port (both hosts routed, unknown
#      host refused, gzip on ingredient-api, the 16m limit, a refresh, forwarded headers), then:
#      the containers' user and read-only root, the digest surviving `docker-compose restart
#      digest-web`, and a killed ingredient-api coming back healthy and answering through nginx.
# Expects `cargo build --release --bins` to have run (CARGO_TARGET_DIR is honoured).
#
# scripts/deploy/live.sh --production-build (make image-check): the same, but the service images
# are built the way users build them, by the Dockerfiles' own multi-stage builds (cargo inside the
# rust:1.95-bookworm builder), from a local rust:1.95-bookworm: the base image plus Debian's
# build-essential, the host's Rust 1.95 toolchain and the host's crate cache (CARGO_NET_OFFLINE).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
started=$(date +%s)

production=0
[ "${1:-}" = --production-build ] && production=1
[ "$(id -u)" -eq 0 ] || { echo "deploy-live: run as root (it starts its own dockerd)" >&2; exit 1; }
bin=${CARGO_TARGET_DIR:-$root/target}/release
if [ "$production" -eq 0 ]; then
  for b in ingredient-api digest-web digest-refresh; do
    [ -x "$bin/$b" ] || { echo "deploy-live: $bin/$b missing; run cargo build --release --bins" >&2; exit 1; }
  done
fi
TOOLCHAIN=$(readlink -f "${RUSTUP_HOME:-$HOME/.rustup}/toolchains/1.95.0-x86_64-unknown-linux-gnu")
scripts/setup/install-deps.sh deploy_live

# shellcheck source=scripts/deploy/engine.sh
source scripts/deploy/engine.sh

work=$root/.tmp/deploy-live
[ "$production" -eq 1 ] && work=$root/.tmp/image-check
project=ingredients-digest
mkdir -p "$work"
rm -rf "$work/run"
mkdir -p "$work/run"
run=$work/run
log_pids=()
compose=()

step() { printf '\ndeploy-live: %s (%ss)\n' "$*" "$(($(date +%s) - started))"; }

cleanup() {
  local rc=$?
  for pid in "${log_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  if [ "$rc" -ne 0 ] && [ -n "${DOCKER_HOST:-}" ]; then
    "$DOCKER" ps -a >"$run/ps.txt" 2>&1 || true
    echo "deploy-live: failed; logs in $run" >&2
  fi
  if [ "${#compose[@]}" -gt 0 ]; then "${compose[@]}" down -v --remove-orphans >/dev/null 2>&1 || true; fi
  engine_stop || rc=1
  exit "$rc"
}
trap cleanup EXIT INT TERM

step "dockerd (Debian docker.io) under $work/engine"
engine_start "$work/engine"

step "base image debian:bookworm-slim (mmdebstrap, with the .debs the Dockerfiles install)"
project_base_image

build() { engine_build "$1" "$2" "$run" "${@:3}"; }
if [ "$production" -eq 1 ]; then
  # The PP-OCR models the host's install script extracted (make test runs it first): image
  # builds have no network, so the Dockerfile's pip stage is replaced by these.
  models_dir=${OCR_MODELS_DIR:-.tmp/ocr-models}
  [ -f "$models_dir/det.onnx" ] ||
    { echo "deploy-live: no OCR models in $models_dir: run scripts/setup/install-ocr-models.sh" >&2; exit 1; }
  tar -C "$models_dir" --transform 's|^\.|out/ocr-models|' -cf - . |
    "$DOCKER" import - localhost/host-ocr-models:deploy-live >/dev/null
  models_arg=(--build-arg OCR_MODELS=localhost/host-ocr-models:deploy-live)
  step "builder image rust:1.95-bookworm (base + build-essential + host toolchain + crate cache)"
  [ -x "$TOOLCHAIN/bin/cargo" ] || { echo "deploy-live: no Rust 1.95 toolchain at $TOOLCHAIN" >&2; exit 1; }
  mounts=(-v "$TOOLCHAIN:/mnt/toolchain:ro")
  [ -d "$HOME/.cargo/registry" ] && mounts+=(-v "$HOME/.cargo/registry:/mnt/registry:ro")
  "$DOCKER" run --name rust-builder-base --network none "${mounts[@]}" debian:bookworm-slim sh -c "
    apt-get update -qq 2>/dev/null; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      --no-install-recommends $builder_packages >/dev/null && rm -rf /var/lib/apt/lists/* &&
    mkdir -p /usr/local/rust /usr/local/cargo/bin /usr/local/cargo/registry &&
    for d in bin lib libexec; do [ ! -d /mnt/toolchain/\$d ] || cp -a /mnt/toolchain/\$d /usr/local/rust/; done &&
    for d in cache index; do [ ! -d /mnt/registry/\$d ] || cp -a /mnt/registry/\$d /usr/local/cargo/registry/; done" \
    >"$run/rust-builder-base.log" 2>&1 || { tail -n 20 "$run/rust-builder-base.log" >&2; exit 1; }
  "$DOCKER" commit \
    --change 'ENV CARGO_HOME=/usr/local/cargo CARGO_NET_OFFLINE=true PATH=/usr/local/cargo/bin:/usr/local/rust/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    rust-builder-base rust:1.95-bookworm >/dev/null
  "$DOCKER" rm rust-builder-base >/dev/null
  step "images: ingredient-api, digest-web (the Dockerfiles' multi-stage builds), proxy stand-in"
  build nginx:1.27-alpine scripts/deploy/proxy-standin.Dockerfile
  # One at a time: each compiles the workspace's dependencies with every core.
  build ingredient-api:local deploy/docker/ingredient-api.Dockerfile "${models_arg[@]}"
  step "ingredient-api image built"
  build digest-web:local deploy/docker/digest-web.Dockerfile
else
  step "images: ingredient-api, digest-web (host release binaries), proxy stand-in"
  build nginx:1.27-alpine scripts/deploy/proxy-standin.Dockerfile &
  b3=$!
  host_service_images "$bin" "$run" && wait $b3
fi
for svc in ingredient-api digest-web; do
  "$DOCKER" inspect -f '{{.Config.Healthcheck.Test}}' "$svc:local" | grep -q /health ||
    { echo "deploy-live: the $svc image has no HEALTHCHECK" >&2; exit 1; }
done
"$DOCKER" images --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -E '^(ingredient-api|digest-web|nginx):' | sed 's/^/  /'

step "docker-compose up (deploy/compose/compose.yaml, proxy on a free loopback port)"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
[ "$port" != 8080 ] || port=$((port + 1))
grep -q '^ *- "8080:8080"$' deploy/compose/compose.yaml ||
  { echo "deploy-live: compose.yaml no longer publishes \"8080:8080\": update this script" >&2; exit 1; }
grep -v '^name:' deploy/compose/compose.yaml |
  sed "s|^\( *\)- \"8080:8080\"$|\1- \"127.0.0.1:$port:8080\"|" >"$run/compose.yaml"
cat >"$run/override.yaml" <<'EOF'
services:
  ingredient-api:
    healthcheck: {interval: 2s}
    environment: {RUST_LOG: "info,service_kit::request_id=debug"}
  digest-web:
    healthcheck: {interval: 2s}
    environment: {RUST_LOG: "info,service_kit::request_id=debug"}
  proxy:
    healthcheck: {interval: 2s}
EOF
compose=(docker-compose -p "$project" --project-directory deploy/compose -f "$run/compose.yaml" -f "$run/override.yaml")
up_at=$(date +%s)
timeout 180 "${compose[@]}" up -d --no-build >"$run/compose-up.log" 2>&1 || {
  cat "$run/compose-up.log" >&2
  exit 1
}
cid() { "${compose[@]}" ps -q "$1"; }
health() { "$DOCKER" inspect -f '{{.State.Health.Status}}' "$1"; }
wait_healthy() { # service seconds
  local id
  id=$(cid "$1")
  for _ in $(seq 1 $(($2 * 5))); do
    [ "$(health "$id" 2>/dev/null)" = healthy ] && return 0
    sleep 0.2
  done
  echo "deploy-live: $1 not healthy after $2 s: $(health "$id")" >&2
  "$DOCKER" logs --tail 20 "$id" >&2
  return 1
}
wait_healthy proxy 60
# Health gating: the proxy was started only after both services had reported healthy.
api=$(cid ingredient-api) web=$(cid digest-web) proxy=$(cid proxy)
"$DOCKER" events --since "$up_at" --until "$(date +%s)" \
  --format '{{.TimeNano}} {{.Actor.Attributes.name}} {{.Status}}' >"$run/events.txt"
python3 - "$run/events.txt" "$project" <<'EOF2'
import sys
first = {}
for line in open(sys.argv[1]):
    t, name, status = line.rstrip("\n").split(" ", 2)
    first.setdefault((name, status), int(t))
p = sys.argv[2]
proxy = first[(f"{p}_proxy_1", "start")]
for svc in ("ingredient-api", "digest-web"):
    ok = first.get((f"{p}_{svc}_1", "health_status: healthy"))
    assert ok is not None and ok < proxy, f"the proxy started before {svc} was healthy"
print("  health gating: the proxy started after both services reported healthy")
EOF2
for c in "$api" "$web" "$proxy"; do
  name=$("$DOCKER" inspect -f '{{.Name}}' "$c")
  "$DOCKER" logs -f "$c" >"$run/${name#/}.log" 2>&1 &
  log_pids+=($!)
done
engine_note_bridges
gateway=$("$DOCKER" network inspect "${project}_default" -f '{{range .IPAM.Config}}{{.Gateway}}{{end}}')
echo "  proxy on 127.0.0.1:$port; network ${project}_default, gateway $gateway"

step "live checks through the proxy"
# The proxy sees connections from docker-proxy, i.e. from the network's gateway address.
LIVE_PEER_ADDR=$gateway python3 scripts/deploy/live-checks.py "$port" \
  "$run/${project}_ingredient-api_1.log" "$run/${project}_digest-web_1.log" \
  "$run/${project}_proxy_1.log"

step "containers: uid 10001 (services), read-only root, no capabilities"
for c in "$api" "$web"; do
  [ "$("$DOCKER" exec "$c" id -u)" = 10001 ] || { echo "deploy-live: $c does not run as 10001" >&2; exit 1; }
  if "$DOCKER" exec "$c" touch /probe 2>/dev/null; then echo "deploy-live: $c root is writable" >&2; exit 1; fi
  "$DOCKER" exec "$c" grep -q '^CapEff:[[:space:]]*0000000000000000$' /proc/1/status ||
    { echo "deploy-live: $c has capabilities" >&2; exit 1; }
done
[ "$("$DOCKER" exec "$proxy" id -u)" = 101 ] || { echo "deploy-live: the proxy does not run as 101" >&2; exit 1; }
"$DOCKER" exec "$web" touch /data/.probe && "$DOCKER" exec "$web" rm /data/.probe
echo "  ok"

get() { curl -sS --fail-with-body --max-time 30 -H "Host: $1" "http://127.0.0.1:$port$2"; }

step "the digest survives docker-compose restart digest-web"
get digest.localhost /api/digest >"$run/digest-before.json"
get digest.localhost /api/status >"$run/status-before.json"
"${compose[@]}" restart digest-web >"$run/compose-restart.log" 2>&1
wait_healthy digest-web 60
get digest.localhost /api/digest >"$run/digest-after.json"
get digest.localhost /api/status >"$run/status-after.json"
python3 - "$run" <<'EOF'
import json, sys
run = sys.argv[1]
before = json.load(open(f"{run}/digest-before.json"))
after = json.load(open(f"{run}/digest-after.json"))
assert before.get("generated_at"), f"no digest before the restart: {before}"
assert after == before, "the digest changed across the restart"
s0 = json.load(open(f"{run}/status-before.json"))
s1 = json.load(open(f"{run}/status-after.json"))
print(f"  ok: digest of {before['generated_at']} with {len(before['categories'])} categories kept")
for key in ("last_run", "last_refresh", "runs", "total_runs"):
    if key in s0:
        assert s1.get(key) == s0[key], f"status {key}: {s0[key]!r} -> {s1.get(key)!r}"
        print(f"  ok: status {key} kept")
EOF

step "a killed ingredient-api comes back healthy (restart: unless-stopped)"
restarts=$("$DOCKER" inspect -f '{{.RestartCount}}' "$api")
kill -KILL "$("$DOCKER" inspect -f '{{.State.Pid}}' "$api")"
for _ in $(seq 1 150); do
  [ "$("$DOCKER" inspect -f '{{.RestartCount}}' "$api")" -gt "$restarts" ] && break
  sleep 0.2
done
[ "$("$DOCKER" inspect -f '{{.RestartCount}}' "$api")" -gt "$restarts" ] ||
  { echo "deploy-live: ingredient-api was not restarted" >&2; exit 1; }
wait_healthy ingredient-api 60
get api.localhost /health | grep -q healthy
curl -sS --fail-with-body --max-time 30 -H 'Host: api.localhost' -H 'Content-Type: application/json' \
  -d '{"ingredients": "Aqua, Glycerin"}' "http://127.0.0.1:$port/analyze" | grep -q '"success":true'
echo "  ok: restarted, healthy, answering through the proxy"

step "docker-compose down -v, dockerd stopped"
"${compose[@]}" down -v --remove-orphans >"$run/compose-down.log" 2>&1
compose=()
trap - EXIT INT TERM
for pid in "${log_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
engine_stop
step "all deploy-live checks passed"
