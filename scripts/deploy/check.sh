#!/usr/bin/env bash
# make deploy-check: proves the deployment files without Docker or a cluster.
#   1. yamllint --strict over deploy/ (config: .yamllint)
#   2. hadolint over every Dockerfile (config: .hadolint.yaml)
#   3. every Kubernetes overlay rendered with `kubectl kustomize` and validated with
#      `kubernetes-validate --strict` (any WARN fails: it means a schema was not checked)
#   4. scripts/deploy/check-manifests.py over the rendered objects (what schemas cannot see)
#   5. scripts/deploy/live-test.sh: both release binaries behind the project's nginx config
# The Python tools live in a project-local venv (.tmp/deploy-venv), installed once per version
# set by scripts/setup/install-python-tools.sh. Usage: scripts/deploy/check.sh [--no-live | --live-only]
set -euo pipefail
cd "$(dirname "$0")/../.."

live=1 static=1
case "${1:-}" in
  --no-live) live=0 ;;
  --live-only) static=0 ;;
esac

# Kubernetes version the manifests are validated against (the cluster's minimum).
K8S_VERSION=1.32.0
venv=.tmp/deploy-venv
step() { printf '\ndeploy-check: %s\n' "$*"; }

# Steps 1 to 4: the files alone.
static_checks() {
  scripts/setup/install-python-tools.sh deploy
  if ! command -v kubectl >/dev/null; then
    echo "deploy-check: kubectl not found; install kubectl 1.32 (https://kubernetes.io/docs/tasks/tools/install-kubectl-linux/)" >&2
    exit 1
  fi

  step "yamllint deploy/"
  "$venv/bin/yamllint" --strict -c .yamllint deploy/ .yamllint .hadolint.yaml

  step "hadolint deploy/docker/*.Dockerfile"
  "$venv/bin/hadolint" --config .hadolint.yaml deploy/docker/*.Dockerfile

  local rendered=.tmp/deploy-rendered overlay name out files=()
  rm -rf "$rendered"
  mkdir -p "$rendered"
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
}

# Step 5: the release binaries behind nginx.
live_check() {
  step "cargo build --release --bins"
  cargo build --release --bins --quiet
  step "live: nginx in front of both release binaries"
  scripts/deploy/live-test.sh
}

[ "$static" -eq 0 ] || static_checks
[ "$live" -eq 0 ] || live_check
step "all deploy checks passed"
