#!/usr/bin/env bash
# make image-check: builds the real images from deploy/docker/*.Dockerfile with no Docker daemon
# and no registry, runs both containers with runc on loopback behind nginx, and runs the same
# live checks as make deploy-check (scripts/deploy/live-test.sh) against them.
#   - base images made locally and tagged with the names the Dockerfiles use:
#     docker.io/library/debian:bookworm-slim  = mmdebstrap --variant=minbase bookworm
#     docker.io/library/rust:1.95-bookworm    = that + build-essential + the host's Rust 1.95
#                                               toolchain (rustup) + the host's crate cache
#   - buildah: vfs storage, chroot isolation, --pull-never, docker format (keeps HEALTHCHECK)
#   - each image exported as OCI, unpacked with umoci, run with runc: host network (loopback
#     ports), uid 10001, read-only root, tmpfs /tmp, a bind-mounted /data for digest-web
# Everything lives under deploy/.build (IMAGE_CHECK_DIR overrides); the base images are kept
# between runs (IMAGE_CHECK_FRESH=1 rebuilds them). Stops every container it starts on exit.
# Runs as root (buildah with vfs and runc need it here). Takes many minutes (two release builds).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

[ "$(id -u)" -eq 0 ] || { echo "image-check: run as root (buildah and runc need it here)" >&2; exit 1; }
for tool in buildah mmdebstrap umoci runc nginx envsubst; do
  command -v "$tool" >/dev/null || { echo "image-check: $tool missing; run scripts/setup/install-deps.sh deploy" >&2; exit 1; }
done

work=${IMAGE_CHECK_DIR:-$root/deploy/.build}
mkdir -p "$work/tmp"
export TMPDIR=$work/tmp
bh=(buildah --root "$work/storage" --runroot "$work/run" --storage-driver vfs)
runc_=(runc --root "$work/runc")

DEBIAN=docker.io/library/debian:bookworm-slim
RUST=docker.io/library/rust:1.95-bookworm
TOOLCHAIN=$(readlink -f "${RUSTUP_HOME:-$HOME/.rustup}/toolchains/1.95.0-x86_64-unknown-linux-gnu")

containers=()
cleanup() {
  local rc=$?
  for c in "${containers[@]}"; do
    "${runc_[@]}" kill "$c" TERM 2>/dev/null || true
  done
  sleep 1
  for c in "${containers[@]}"; do "${runc_[@]}" delete -f "$c" 2>/dev/null || true; done
  "${bh[@]}" rm --all >/dev/null 2>&1 || true
  [ "$rc" -eq 0 ] || echo "image-check: failed; logs in $work" >&2
  exit "$rc"
}
trap cleanup EXIT INT TERM

have_image() { "${bh[@]}" inspect --type image "$1" >/dev/null 2>&1; }
step() { printf '\nimage-check: %s\n' "$*"; }

if [ "${IMAGE_CHECK_FRESH:-0}" = 1 ]; then
  "${bh[@]}" rmi -f "$DEBIAN" "$RUST" >/dev/null 2>&1 || true
fi

if ! have_image "$DEBIAN"; then
  step "base image $DEBIAN from mmdebstrap"
  # Like the official slim image: merged /usr without the usrmerge package (and its perl), no
  # docs, man pages or translations, and apt keeps no downloaded .debs or caches.
  clean='"rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"'
  {
    echo "DPkg::Post-Invoke { $clean; };"
    echo "APT::Update::Post-Invoke { $clean; };"
    echo 'Dir::Cache::pkgcache ""; Dir::Cache::srcpkgcache "";'
  } >"$work/docker-clean"
  # shellcheck disable=SC2016 # $1 is the chroot's path, expanded by mmdebstrap's hook shell
  mmdebstrap --quiet --variant=minbase --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --customize-hook="upload $work/docker-clean /etc/apt/apt.conf.d/docker-clean" \
    --customize-hook='rm -rf "$1"/var/cache/apt/* "$1"/var/lib/apt/lists/*' \
    bookworm "$work/bookworm.tar" \
    "deb http://deb.debian.org/debian bookworm main" \
    "deb http://deb.debian.org/debian bookworm-updates main" \
    "deb http://deb.debian.org/debian-security bookworm-security main" \
    >"$work/mmdebstrap.log" 2>&1 || { tail -n 30 "$work/mmdebstrap.log" >&2; exit 1; }
  ctr=$("${bh[@]}" from scratch)
  "${bh[@]}" add --quiet "$ctr" "$work/bookworm.tar" / >/dev/null
  "${bh[@]}" config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --cmd bash "$ctr"
  "${bh[@]}" commit --quiet --rm "$ctr" "$DEBIAN" >/dev/null
  rm -f "$work/bookworm.tar"
fi

if ! have_image "$RUST"; then
  step "builder image $RUST from $DEBIAN + the host's toolchain ($TOOLCHAIN)"
  [ -x "$TOOLCHAIN/bin/cargo" ] || { echo "image-check: no Rust 1.95 toolchain at $TOOLCHAIN" >&2; exit 1; }
  ctr=$("${bh[@]}" from --pull-never "$DEBIAN")
  "${bh[@]}" run --isolation chroot "$ctr" -- sh -c \
    'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
       build-essential pkg-config ca-certificates >/dev/null && rm -rf /var/lib/apt/lists/*'
  for part in bin lib libexec; do
    if [ -d "$TOOLCHAIN/$part" ]; then
      "${bh[@]}" copy --quiet "$ctr" "$TOOLCHAIN/$part" "/usr/local/rust/$part" >/dev/null
    fi
  done
  # The host's crate cache: the build then needs no network for crates already seen here.
  if [ -d "$HOME/.cargo/registry/cache" ]; then
    "${bh[@]}" copy --quiet "$ctr" "$HOME/.cargo/registry/cache" /usr/local/cargo/registry/cache >/dev/null
    "${bh[@]}" copy --quiet "$ctr" "$HOME/.cargo/registry/index" /usr/local/cargo/registry/index >/dev/null
  fi
  "${bh[@]}" config \
    --env CARGO_HOME=/usr/local/cargo \
    --env PATH=/usr/local/cargo/bin:/usr/local/rust/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    "$ctr"
  "${bh[@]}" run --isolation chroot "$ctr" -- sh -c 'mkdir -p /usr/local/cargo/bin && cargo --version && rustc --version'
  "${bh[@]}" commit --quiet --rm "$ctr" "$RUST" >/dev/null
fi

for svc in ${IMAGE_CHECK_SERVICES:-ingredient-api digest-web}; do
  step "buildah build deploy/docker/$svc.Dockerfile"
  "${bh[@]}" build --quiet --pull-never --isolation chroot --format docker \
    -f "deploy/docker/$svc.Dockerfile" -t "localhost/$svc:check" . >"$work/$svc-build.log" 2>&1 || {
    tail -n 40 "$work/$svc-build.log" >&2
    exit 1
  }
  "${bh[@]}" inspect --type image --format '{{.Docker.Config.Healthcheck}}' "localhost/$svc:check" |
    grep -q /health || { echo "image-check: $svc image lost its HEALTHCHECK" >&2; exit 1; }
  size=$("${bh[@]}" images --format '{{.Size}}' "localhost/$svc:check")
  echo "$svc image: $size"
  rm -rf "$work/oci-$svc" "$work/bundle-$svc"
  "${bh[@]}" push --quiet "localhost/$svc:check" "oci:$work/oci-$svc:check" >/dev/null
  umoci unpack --image "$work/oci-$svc:check" "$work/bundle-$svc" >/dev/null
done

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# start SERVICE PORT [extra env...]: the unpacked image as a runc container on loopback.
start() {
  local svc=$1 port=$2
  shift 2
  local bundle=$work/bundle-$svc
  mkdir -p "$work/data-$svc" && chown 10001:10001 "$work/data-$svc"
  python3 - "$bundle/config.json" "$port" "$work/data-$svc" "$@" <<'EOF'
import json, sys
path, port, data, extra = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
c = json.load(open(path))
p = c["process"]
p["terminal"] = False
p["user"] = {"uid": 10001, "gid": 10001}
env = dict(e.split("=", 1) for e in p.get("env", []))
env.update(HOST="127.0.0.1", PORT=port, RUST_LOG="info,service_kit::request_id=debug")
env.update(dict(e.split("=", 1) for e in extra))
p["env"] = [f"{k}={v}" for k, v in env.items()]
p["capabilities"] = {k: [] for k in ("bounding", "effective", "inheritable", "permitted", "ambient")}
p["noNewPrivileges"] = True
c["root"]["readonly"] = True
# Host network: the container listens on a loopback port the proxy reaches.
c["linux"]["namespaces"] = [n for n in c["linux"]["namespaces"] if n["type"] != "network"]
c["mounts"] = [m for m in c["mounts"] if m["destination"] not in ("/tmp", "/data")]
c["mounts"].append({"destination": "/tmp", "type": "tmpfs", "source": "tmpfs",
                    "options": ["nosuid", "nodev", "mode=1777", "size=256m"]})
c["mounts"].append({"destination": "/data", "type": "bind", "source": data,
                    "options": ["rbind", "rw"]})
c["hostname"] = "check"
json.dump(c, open(path, "w"), indent=1)
EOF
  local id=check-$svc-$$
  "${runc_[@]}" run --detach --bundle "$bundle" --pid-file "$work/$svc.pid" "$id" \
    >"$work/$svc.log" 2>&1 </dev/null
  containers+=("$id")
}

for svc in ingredient-api digest-web; do
  [ -e "$work/bundle-$svc/config.json" ] || {
    echo "image-check: no $svc image built: the live checks need both (IMAGE_CHECK_SERVICES)" >&2
    exit 1
  }
done
api_port=$(free_port)
web_port=$(free_port)
step "runc: ingredient-api on 127.0.0.1:$api_port, digest-web on 127.0.0.1:$web_port"
start ingredient-api "$api_port"
start digest-web "$web_port"

step "live checks through nginx against the containers"
INGREDIENT_API_UPSTREAM=127.0.0.1:$api_port DIGEST_WEB_UPSTREAM=127.0.0.1:$web_port \
  INGREDIENT_API_LOG=$work/ingredient-api.log DIGEST_WEB_LOG=$work/digest-web.log \
  LIVE_RUNDIR=$work/live scripts/deploy/live-test.sh
step "images built, run and checked"
