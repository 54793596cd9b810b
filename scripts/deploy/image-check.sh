#!/usr/bin/env bash
# make image-check: the production build path on a real engine. Builds both service images with
# the Dockerfiles' own multi-stage builds (cargo inside the builder stage) on a private dockerd
# (Debian's docker.io), runs the real compose file with them and runs the same live checks as
# make deploy-live: see scripts/deploy/live.sh (--production-build). Slow: two release builds of
# the workspace inside the builder, one per image. Runs as root.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec scripts/deploy/live.sh --production-build
