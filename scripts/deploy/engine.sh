# Sourced by scripts/deploy/live.sh (make deploy-live, make image-check) and k8s-check.sh: a
# private Docker engine (Debian's docker.io: dockerd 20.10 + containerd + runc) for the deploy
# tests, and the local base images.
#
#   engine_start DIR [ARG...]  dockerd with everything under DIR (data-root, exec-root, socket,
#                      pid file), no iptables rules, no default bridge, no IP forwarding (nothing in
#                      the host's firewall changes, and containers reach only each other and the
#                      host's loopback-published ports); exports DOCKER_HOST. ENGINE_BRIDGE names
#                      an existing Linux bridge for the default network instead (make k8s-check's
#                      pods); ARGs go to dockerd as they are.
#   engine_note_bridges  records the bridges of the engine's networks, for engine_stop.
#   engine_stop        removes every container, network and volume, stops dockerd by PID (and so
#                      its containerd), unmounts and removes DIR, and fails when a noted bridge, a
#                      docker firewall rule or a process of the engine is left behind. Safe to
#                      call twice and after a failed start.
#   base_image TAG PKG...  imports `debian:bookworm-slim` made by mmdebstrap (shaped like the
#                      official slim image) with the Debian package lists and the .debs of PKG...
#                      already downloaded, so a Dockerfile's `apt-get update && apt-get install`
#                      runs unchanged in a build with --network none (apt-get update warns that it
#                      cannot reach deb.debian.org and keeps the lists; install takes the .debs
#                      from the cache; dpkg's post-invoke hook empties the cache, as in the
#                      official image). The root filesystem is cached in $DEPLOY_CACHE (.tmp/).
#   base_rootfs PKG...  only makes (or finds) that cached root filesystem: no engine needed, so
#                      make test starts it early, beside the Rust build.
#
# The docker 20.10 client from docker.io (/usr/bin/docker) does the builds: it has BuildKit
# built in, which builds only the stages an image needs (the machine's newer client wants buildx).

DOCKER=/usr/bin/docker
DEPLOY_CACHE=${DEPLOY_CACHE:-$PWD/.tmp/deploy-cache}

engine_dir=""
engine_pid=""

firewall_docker_rules() { # the host's firewall rules that name docker (none expected)
  local table
  for table in filter nat mangle raw; do iptables -t "$table" -S 2>/dev/null || true; done | grep -ci docker || true
}

engine_start() {
  engine_dir=$1
  shift
  engine_cleanup_stale
  mkdir -p "$engine_dir"
  firewall_docker_rules >"$engine_dir.firewall-before"
  : >"$engine_dir.bridges"
  dockerd --data-root "$engine_dir/data" --exec-root "$engine_dir/x" \
    -H "unix://$engine_dir/docker.sock" --pidfile "$engine_dir/dockerd.pid" \
    --storage-driver overlay2 --iptables=false --ip-forward=false --ip-masq=false \
    --bridge="${ENGINE_BRIDGE:-none}" --userland-proxy=true "$@" >"$engine_dir.dockerd.log" 2>&1 </dev/null &
  engine_pid=$!
  export DOCKER_HOST=unix://$engine_dir/docker.sock
  local i
  for i in $(seq 1 100); do
    "$DOCKER" version >/dev/null 2>&1 && return 0
    kill -0 "$engine_pid" 2>/dev/null || break
    sleep 0.2
  done
  echo "engine: dockerd did not start (log: $engine_dir.dockerd.log)" >&2
  tail -n 20 "$engine_dir.dockerd.log" >&2
  return 1
}

# A run killed before its cleanup (SIGKILL, power loss) leaves mounts and a dockerd behind.
engine_cleanup_stale() {
  local pid
  pid=$(cat "$engine_dir/dockerd.pid" 2>/dev/null || true)
  if [ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$engine_dir/data"; then
    echo "engine: stopping the dockerd ($pid) of an earlier run" >&2
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  fi
  engine_unmount
  rm -rf "$engine_dir"
}

engine_unmount() {
  local m
  for m in $(findmnt -rn -o TARGET 2>/dev/null | grep -F "$engine_dir/" | sort -r || true); do
    umount -l "$m" 2>/dev/null || true
  done
}

# Notes the Linux bridges of the engine's networks (br- and 12 digits of the network id), which
# engine_stop then checks are gone. Call it once the networks exist.
engine_note_bridges() {
  "$DOCKER" network ls -q --filter driver=bridge | cut -c1-12 | sed 's/^/br-/' >>"$engine_dir.bridges"
}

engine_stop() {
  [ -n "$engine_dir" ] || return 0
  local dir=$engine_dir rc=0 pid b
  engine_dir=""
  if [ -n "$engine_pid" ] && kill -0 "$engine_pid" 2>/dev/null; then
    engine_dir=$dir engine_note_bridges 2>/dev/null || true
    # Leave no container, network or volume: remove them while the engine still runs.
    "$DOCKER" ps -aq 2>/dev/null | xargs -r "$DOCKER" rm -f -v >/dev/null 2>&1 || true
    "$DOCKER" network prune -f >/dev/null 2>&1 || true
    "$DOCKER" volume prune -f >/dev/null 2>&1 || true
    kill -TERM "$engine_pid" 2>/dev/null || true
    for _ in $(seq 1 150); do kill -0 "$engine_pid" 2>/dev/null || break; sleep 0.2; done
    if kill -0 "$engine_pid" 2>/dev/null; then
      echo "engine: dockerd $engine_pid did not stop in 30 s: killing it" >&2
      kill -KILL "$engine_pid" 2>/dev/null || true
      rc=1
    fi
    wait "$engine_pid" 2>/dev/null || true
  fi
  engine_pid=""
  # containerd and the shims of this engine, found by their state directory (this run's only).
  for pid in $(pgrep -f -- "$dir/" 2>/dev/null || true); do
    echo "engine: process $pid outlived dockerd: $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" >&2
    kill -KILL "$pid" 2>/dev/null || true
    rc=1
  done
  engine_dir=$dir engine_unmount
  rm -rf "$dir"
  for b in $(sort -u "$dir.bridges" 2>/dev/null); do
    if ip link show "$b" >/dev/null 2>&1; then
      echo "engine: bridge $b left behind" >&2
      rc=1
    fi
  done
  if [ -f "$dir.firewall-before" ] && [ "$(firewall_docker_rules)" != "$(cat "$dir.firewall-before")" ]; then
    echo "engine: the host's firewall has docker rules it did not have before:" >&2
    for table in filter nat; do iptables -t "$table" -S | grep -i docker >&2 || true; done
    rc=1
  fi
  return "$rc"
}

# The packages every `apt-get install` of the given Dockerfiles names.
dockerfile_packages() {
  python3 - "$@" <<'EOF'
import re, sys
names = set()
for path in sys.argv[1:]:
    text = open(path).read().replace("\\\n", " ")
    for cmd in re.findall(r"apt-get install([^&;]*)", text):
        names.update(w for w in cmd.split() if re.fullmatch(r"[a-z0-9][a-z0-9.+-]+", w))
print(" ".join(sorted(names)))
EOF
}

# The base image of make deploy-live, image-check and k8s-check: one package set (one cached root
# filesystem), what the Dockerfiles and the proxy stand-in install plus the builder image's.
builder_packages="build-essential pkg-config ca-certificates"
project_packages() {
  echo "$(dockerfile_packages deploy/docker/*.Dockerfile scripts/deploy/proxy-standin.Dockerfile) $builder_packages"
}
project_base_image() {
  # shellcheck disable=SC2046 # the package list is split on purpose
  base_image debian:bookworm-slim $(project_packages)
}
project_base_rootfs() {
  # shellcheck disable=SC2046 # the package list is split on purpose
  base_rootfs $(project_packages)
}

base_image() {
  local tag=$1
  shift
  base_rootfs "$@"
  "$DOCKER" import --change 'CMD ["bash"]' \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    "$base_tarball" "$tag" >/dev/null
}

# Sets base_tarball to the cached root filesystem with the .debs of PKG..., made first if
# missing (or when DEPLOY_FRESH=1). Two callers at once wait for each other (flock).
base_rootfs() {
  local pkgs="$*" key tarball
  key=$(printf '%s\n' "bookworm minbase slim-shape v1" "$pkgs" | cksum | cut -d' ' -f1)
  tarball=$DEPLOY_CACHE/bookworm-slim-$key.tar
  base_tarball=$tarball
  mkdir -p "$DEPLOY_CACHE"
  exec 8>"$DEPLOY_CACHE/.lock"
  flock 8
  if [ ! -f "$tarball" ] || [ "${DEPLOY_FRESH:-0}" = 1 ]; then
    command -v mmdebstrap >/dev/null || { echo "engine: mmdebstrap missing (apt-get install mmdebstrap)" >&2; return 1; }
    rm -f "$DEPLOY_CACHE"/bookworm-slim-*.tar
    echo "engine: making the bookworm base root filesystem (mmdebstrap, Debian packages; cached in $DEPLOY_CACHE)" >&2
    # As the official slim image: merged /usr without the usrmerge package, no docs, man pages
    # or translations, and dpkg's post-invoke hook empties apt's cache. Unlike it, the package
    # lists and the .debs of $pkgs stay, for the offline `apt-get install` of the builds.
    printf '%s\n' \
      'DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };' \
      'Dir::Cache::pkgcache ""; Dir::Cache::srcpkgcache "";' >"$DEPLOY_CACHE/docker-clean"
    # shellcheck disable=SC2016 # $1 is the chroot's path, expanded by mmdebstrap's hook shell
    mmdebstrap --quiet --variant=minbase --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
      --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
      --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
      --dpkgopt='path-exclude=/usr/share/locale/*' \
      --skip=cleanup/apt/lists --skip=cleanup/apt/cache \
      --customize-hook="upload $DEPLOY_CACHE/docker-clean /etc/apt/apt.conf.d/docker-clean" \
      --customize-hook="chroot \"\$1\" apt-get install -y -qq --download-only --no-install-recommends $pkgs" \
      bookworm "${tarball%.tar}.part.tar" \
      "deb http://deb.debian.org/debian bookworm main" \
      "deb http://deb.debian.org/debian bookworm-updates main" \
      "deb http://deb.debian.org/debian-security bookworm-security main" \
      >"$DEPLOY_CACHE/mmdebstrap.log" 2>&1 || { tail -n 30 "$DEPLOY_CACHE/mmdebstrap.log" >&2; return 1; }
    mv "${tarball%.tar}.part.tar" "$tarball"
  fi
  flock -u 8
  exec 8>&-
}

# engine_build TAG DOCKERFILE LOGDIR [ARG...]: a BuildKit build from the repository root with no
# network (the base images are local); the log goes to LOGDIR/build-<name>.log.
engine_build() {
  local tag=$1 file=$2 logs=$3
  shift 3
  DOCKER_BUILDKIT=1 "$DOCKER" build --network none --progress plain "$@" -f "$file" -t "$tag" . \
    >"$logs/build-${tag%%:*}.log" 2>&1 || { tail -n 30 "$logs/build-${tag%%:*}.log" >&2; return 1; }
}

# host_service_images BIN_DIR LOGDIR: ingredient-api:local and digest-web:local from the
# production Dockerfiles with the host's release binaries (BINARIES build argument, their compile
# stages skipped) and the PP-OCR models the host's install script extracted (OCR_MODELS: image
# builds have no network, so the Dockerfile's pip stage is replaced by these). Both in parallel.
host_service_images() {
  local bin=$1 logs=$2 models_dir=${OCR_MODELS_DIR:-.tmp/ocr-models} b1 b2
  [ -f "$models_dir/det.onnx" ] ||
    { echo "engine: no OCR models in $models_dir: run scripts/setup/install-ocr-models.sh" >&2; return 1; }
  tar -C "$models_dir" --transform 's|^\.|out/ocr-models|' -cf - . |
    "$DOCKER" import - localhost/host-ocr-models:deploy-live >/dev/null
  tar -C "$bin" --transform 's|^|out/|' -cf - ingredient-api digest-web digest-refresh |
    "$DOCKER" import - localhost/host-binaries:deploy-live >/dev/null
  engine_build ingredient-api:local deploy/docker/ingredient-api.Dockerfile "$logs" \
    --build-arg BINARIES=localhost/host-binaries:deploy-live \
    --build-arg OCR_MODELS=localhost/host-ocr-models:deploy-live &
  b1=$!
  engine_build digest-web:local deploy/docker/digest-web.Dockerfile "$logs" \
    --build-arg BINARIES=localhost/host-binaries:deploy-live &
  b2=$!
  wait "$b1" && wait "$b2"
}
