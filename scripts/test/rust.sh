#!/usr/bin/env bash
# Runs every Rust test of the workspace: nextest when installed, cargo test otherwise.
set -euo pipefail
cd "$(dirname "$0")/../.."
if cargo nextest --version >/dev/null 2>&1; then
  exec cargo nextest run --workspace --no-fail-fast "$@"
else
  exec cargo test --workspace --no-fail-fast "$@"
fi
