# digest-web: the ops dashboard and its API (port 8001), with the digest-refresh job it runs.
# Build from the repository root:
#   docker build -f deploy/docker/digest-web.Dockerfile -t digest-web .
# Stage 1 builds the dependencies from a stub copy of the workspace (manifests + empty sources),
# so that layer is reused until Cargo.toml/Cargo.lock change; stage 2 builds the real code.
# The runtime image is debian:bookworm-slim with both binaries, the templates, the static
# files and the sample mailbox; the data dir /data is a volume.

# BINARIES: the stage or image that holds the binaries under /out: the `builder` stage below
# (the default: what users build), or an image of the release binaries built on the host
# (make deploy-live: same Debian release and glibc as the runtime image). BuildKit builds
# only the stages the image needs, so the second way compiles nothing.
ARG BINARIES=builder

FROM rust:1.95-bookworm AS stubs
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
WORKDIR /src
COPY . .
# Keep only what decides the dependency graph: every manifest, the lock file, and each .rs file
# replaced by an empty stub at the same path (so explicit [[bin]]/[[test]]/[[bench]] paths
# resolve). The result changes only when a manifest changes or a source file is added.
RUN find . -type f ! -name Cargo.toml ! -name Cargo.lock ! -name '*.rs' -delete \
 && find . -type f -name '*.rs' -print0 | while IFS= read -r -d '' f; do echo 'fn main() {}' > "$f"; done \
 && find . -type d -empty -delete

FROM rust:1.95-bookworm AS builder
WORKDIR /src
ENV CARGO_TERM_COLOR=never CARGO_INCREMENTAL=0
COPY --from=stubs /src ./
RUN cargo build --release --locked -p digest-web --bins
COPY . .
# The real sources may be older than the stub build: touch them so cargo rebuilds our crates.
RUN find crates services tests -type f -exec touch {} + \
 && cargo build --release --locked -p digest-web --bins \
 && install -D -m 0755 target/release/digest-web /out/digest-web \
 && install -D -m 0755 target/release/digest-refresh /out/digest-refresh

# hadolint ignore=DL3006
FROM ${BINARIES} AS binaries

FROM debian:bookworm-slim
# ca-certificates: IMAPS and the LLM endpoint are reached over TLS (rustls reads the system
# store through the OS). Versions are not pinned: bookworm's security updates on rebuild.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 app \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin app \
 && install -d -o 10001 -g 10001 -m 0750 /data
# digest-web runs the digest-refresh beside it (same directory).
COPY --from=binaries /out/digest-web /out/digest-refresh /usr/local/bin/
WORKDIR /app
COPY services/digest-web/templates ./templates
COPY services/digest-web/static ./static
COPY services/digest-web/sample-mailbox ./sample-mailbox
ENV HOST=0.0.0.0 \
    PORT=8001 \
    LOG_FORMAT=json \
    RUST_LOG=info \
    DIGEST_DATA_DIR=/data \
    DIGEST_SOURCE=maildir:/app/sample-mailbox
VOLUME ["/data"]
USER 10001:10001
EXPOSE 8001
# No curl in the image: bash's /dev/tcp speaks enough HTTP/1.0 for the health check.
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${PORT:-8001} && printf 'GET /health HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && head -n1 <&3 | grep -q ' 200 '"]
ENTRYPOINT ["/usr/local/bin/digest-web"]
