#!/usr/bin/env bash
# Builds the Kubernetes 1.20.2 components make k8s-check runs, once, into .tmp/k8s/bin (reused
# while the stamp matches): kube-apiserver, kube-controller-manager, kube-scheduler, kubelet and
# kube-proxy, from Debian bookworm's `kubernetes` source package (the complete upstream tree
# with vendor/; Debian ships no binary package of them) with Debian's Go 1.19, plus `pause`
# (the pod sandbox's process, from the same tree, gcc -static). No registry but Debian's:
# `apt-get source --download-only` through a private sources list (nothing in /etc changes),
# GOPATH mode with the vendored dependencies (GO111MODULE=off, as debian/rules does).
# The tarball lacks pkg/generated/openapi/zz_generated.openapi.go (kube-apiserver does not
# compile without it): openapi-gen, built from vendor/, generates it as upstream's make does.
# The machine is shared: nice 19 and one package at a time (go build -p 1). About 11 min cold.
# Usage: scripts/deploy/k8s-build.sh   (prints the bin directory on its last line)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
work=$root/.tmp/k8s
bin=$work/bin
version=v1.20.2
components="kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy"
stamp="$bin/.built-$version-$(echo "$components pause" | cksum | cut -d' ' -f1)"
if [ -f "$stamp" ]; then
  echo "$bin"
  exit 0
fi
scripts/setup/install-deps.sh k8s
started=$(date +%s)
mkdir -p "$work/apt/lists/partial" "$work/src" "$bin"

src=$work/src/kubernetes-1.20.2
if [ ! -d "$src/cmd/kube-apiserver" ]; then
  echo "k8s-build: fetching Debian bookworm's kubernetes source package" >&2
  echo 'deb-src http://deb.debian.org/debian bookworm main' >"$work/apt/src.list"
  apt_opts=(-o "Dir::Etc::SourceList=$work/apt/src.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$work/apt/lists")
  apt-get "${apt_opts[@]}" update -qq >/dev/null ||
    { echo "k8s-build: apt-get update of the deb-src list failed (deb.debian.org unreachable?)" >&2; exit 1; }
  (cd "$work/src" && apt-get "${apt_opts[@]}" source --download-only kubernetes >/dev/null) ||
    { echo "k8s-build: apt-get source --download-only kubernetes failed" >&2; exit 1; }
  orig=$(ls "$work/src"/kubernetes_*.orig.tar.gz | head -n1)
  case "$orig" in *1.20.2.orig.tar.gz) ;; *)
    echo "k8s-build: expected the 1.20.2 tarball, got $orig (Debian's package moved: update this script)" >&2
    exit 1 ;;
  esac
  tar xzf "$orig" -C "$work/src"
  [ -d "$src/cmd/kube-apiserver" ] || { echo "k8s-build: $src/cmd/kube-apiserver missing after unpacking" >&2; exit 1; }
fi

mkdir -p "$work/gopath/src/k8s.io"
ln -sfn "$src" "$work/gopath/src/k8s.io/kubernetes"
cd "$work/gopath/src/k8s.io/kubernetes"
export GOPATH=$work/gopath GO111MODULE=off CGO_ENABLED=0 GOCACHE=$work/gocache GOFLAGS=
GOROOT=$(go env GOROOT)
export GOROOT

gen=pkg/generated/openapi/zz_generated.openapi.go
if [ ! -s "$gen" ]; then
  echo "k8s-build: generating $gen (openapi-gen from vendor/)" >&2
  nice -n 19 go build -p 1 -o "$work/openapi-gen" ./vendor/k8s.io/kube-openapi/cmd/openapi-gen
  # The packages tagged +k8s:openapi-gen, found as upstream's hack/make-rules do.
  dirs=$(find -H . \( -not \( \( -path './_*' -o -path './.*' -o -path ./vendor \) -prune \) \) \
    -type f -name '*.go' | sed 's|^./staging/src|vendor|; s|/[^/]*$||; s|^./||' | LC_ALL=C sort -u)
  # shellcheck disable=SC2086 # one directory per word
  files=$(for d in $dirs; do ls "$d"/*.go 2>/dev/null; done | xargs grep -l '^// *+k8s:' 2>/dev/null |
    grep -v -E '^vendor/k8s.io/(code-generator|sample-apiserver)/')
  # shellcheck disable=SC2086
  inputs=$(grep -l '+k8s:openapi-gen=' $files | xargs -n1 dirname | LC_ALL=C sort -u |
    sed 's|^|k8s.io/kubernetes/|' | paste -sd,)
  nice -n 19 "$work/openapi-gen" -i "$inputs" -p k8s.io/kubernetes/pkg/generated/openapi \
    -O zz_generated.openapi -h vendor/k8s.io/code-generator/hack/boilerplate.go.txt \
    -r "$work/openapi-violations.report" >"$work/openapi-gen.log" 2>&1 ||
    { tail -n 20 "$work/openapi-gen.log" >&2; echo "k8s-build: openapi-gen failed" >&2; exit 1; }
fi

ld="-s -w"
for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ld="$ld -X k8s.io/kubernetes/vendor/$p.gitVersion=$version -X k8s.io/kubernetes/vendor/$p.gitMajor=1"
  ld="$ld -X k8s.io/kubernetes/vendor/$p.gitMinor=20"
done
for c in $components; do
  [ -x "$bin/$c" ] && continue
  t0=$(date +%s)
  nice -n 19 go build -p 1 -ldflags "$ld" -o "$bin/$c.part" "./cmd/$c" ||
    { echo "k8s-build: go build ./cmd/$c failed" >&2; exit 1; }
  mv "$bin/$c.part" "$bin/$c"
  echo "k8s-build: $c built in $(($(date +%s) - t0)) s" >&2
done
# The pod sandbox (kubelet's --pod-infra-container-image): upstream's pause, static.
nice -n 19 gcc -Os -static -o "$bin/pause" build/pause/linux/pause.c
"$bin/kube-apiserver" --version | grep -qF "$version" ||
  { echo "k8s-build: kube-apiserver does not report $version" >&2; exit 1; }
touch "$stamp"
echo "k8s-build: built in $(($(date +%s) - started)) s into $bin" >&2
echo "$bin"
