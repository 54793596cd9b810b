#!/usr/bin/env bash
# Makes the Debian bookworm root filesystem the deploy images are built FROM (mmdebstrap, with
# the .debs the Dockerfiles install), or finds it cached in .tmp/deploy-cache/: what
# `make deploy-live`, `image-check` and `k8s-check` import as debian:bookworm-slim (engine.sh).
# It needs no container engine, so `make test` runs it in the background beside the Rust build.
# Runs as root (mmdebstrap); installs mmdebstrap when missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/setup/install-deps.sh deploy_live
# shellcheck source=scripts/deploy/engine.sh
source scripts/deploy/engine.sh
project_base_rootfs
echo "base-rootfs: $base_tarball" >&2
