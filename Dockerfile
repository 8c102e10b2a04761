# syntax=docker/dockerfile:1
#
# minimax-move: a multi-stage build. The builder compiles the dependencies in a layer of their own
# (keyed on Cargo.toml and Cargo.lock only), then the crate; the runtime image is distroless/cc
# (glibc and libgcc, no shell, no package manager) running as an unprivileged user.
#
#   docker build -t minimax-move .
#   docker run --rm -p 8080:8080 minimax-move
#
# Lint: scripts/ci/lint-deploy.sh (hadolint, no warnings allowed).

ARG RUST_VERSION=1.95.0

FROM rust:${RUST_VERSION}-slim-bookworm AS builder
WORKDIR /build

# 1. Dependencies only: stub every target Cargo.toml names, so this layer is rebuilt only when the
#    manifest or the lock file changes.
COPY Cargo.toml Cargo.lock ./
RUN mkdir -p src/bin benches \
    && echo 'fn main() {}' > src/main.rs \
    && echo 'fn main() {}' > src/bin/prove.rs \
    && echo 'fn main() {}' > src/bin/connect4-book.rs \
    && echo 'fn main() {}' > benches/engine.rs \
    && echo 'fn main() {}' > benches/search.rs \
    && echo 'fn main() {}' > benches/connect4.rs \
    && touch src/lib.rs \
    && cargo build --release --locked --bin minimax-move \
    && rm -rf src benches

# 2. The crate itself. touch: the copied sources can be older than the stub build's artifacts.
COPY src ./src
COPY benches ./benches
COPY static ./static
RUN touch src/main.rs src/lib.rs \
    && cargo build --release --locked --bin minimax-move \
    && cp target/release/minimax-move /minimax-move

FROM gcr.io/distroless/cc-debian12:nonroot AS runtime
COPY --from=builder /minimax-move /usr/local/bin/minimax-move
# Inside a container the service must listen on every interface; the port is the EXPOSEd one.
# Behind a load balancer /mcp sees the public host name and pages of any origin may call the API
# (it takes no credentials), so the image opens both; the binary's own defaults, for a desktop,
# accept loopback names and origins only. Narrow them per deployment (docs/operations.md).
ENV HOST=0.0.0.0 \
    PORT=8080 \
    LOG_FORMAT=json \
    MCP_ALLOWED_HOSTS="*" \
    CORS_ORIGINS="*"
EXPOSE 8080
# distroless "nonroot": uid/gid 65532, numeric so Kubernetes' runAsNonRoot can verify it.
USER 65532:65532
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["/usr/local/bin/minimax-move", "healthcheck"]
# Exec form: the binary is PID 1 and gets SIGTERM itself (it drains open requests, then exits 0).
ENTRYPOINT ["/usr/local/bin/minimax-move"]
