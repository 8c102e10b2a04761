#!/usr/bin/env bash
# The whole test suite, as CI runs it. Installs what it needs when missing: a Python venv (.venv)
# with hadolint, kubernetes-validate, schemathesis, prometheus_client, mcp, httpx-sse and
# bitbully-databases; the npm packages of tests/browser, and of tests/clients with Node 22
# (under target/); Debian's chromium. Run from anywhere: bash scripts/ci/test-all.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

step() { printf '\n==> %s\n' "$*"; }
export CARGO_TERM_COLOR=never
# The scripts below only need a fast binary, not the last few percent that LTO gives the shipped
# one (the Dockerfile and scripts/ops/load.sh build with the release profile as committed): release
# builds here skip LTO, which saves the longest single step of a cold run.
export CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16

step "format"
cargo fmt --all -- --check

step "clippy (all targets, warnings denied)"
cargo clippy --all-targets -- -D warnings

step "structure: no function in src/ over 90 lines"
python3 scripts/ci/long-functions.py 90

step "the engine builds alone (--no-default-features)"
cargo clippy --no-default-features --lib -- -D warnings

step "tests (unit, integration, doctests)"
cargo test

step "slow tier: the exhaustive sweeps, #[ignore]d by cargo test and named slow_*"
cargo test --lib -- --ignored slow_
cargo test --test engine -- --ignored slow_
cargo test --test api -- --ignored slow_

step "Connect Four against the bitbully-databases books (an independent oracle, 12 and 8 stones)"
bash scripts/ci/bitbully-check.sh

step "docs (warnings denied)"
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps

step "release build"
cargo build --release

step "Dockerfile and Kubernetes manifests"
bash scripts/ci/lint-deploy.sh

step "black-box API checks (independent oracle, difficulties, seeds, metrics)"
bash scripts/ci/api-check.sh

step "MCP with the official Python SDK (HTTP and stdio)"
bash scripts/ci/mcp-check.sh

step "MCP with the official MCP Inspector CLI (HTTP and stdio)"
bash scripts/ci/mcp-inspector.sh

step "live search with a real SSE client library (httpx-sse)"
bash scripts/ci/sse-check.sh

step "openapi.yaml with client tools (Redocly lint, openapi-typescript, openapi-fetch, tsc --strict)"
bash scripts/ci/openapi-clients.sh

step "SIGTERM under load (3 rounds; a reset or broken pipe is a loss)"
bash scripts/ci/sigterm.sh

step "attacks: huge bad input, silent connections, abandoned searches, SIGTERM with kept-alive clients and streams, the connection cap, geometries, repeated fields, other origins, half-closed clients"
bash scripts/ci/attack.sh

step "rolling update behind HAProxy (zero failed requests)"
bash scripts/ci/rollover.sh

step "container: build the Dockerfile with podman on stand-in bases, run it read-only"
bash scripts/ci/container-test.sh

step "contract fuzzing (schemathesis against openapi.yaml)"
bash scripts/ci/schemathesis.sh

step "supply chain (cargo-deny licences, bans, sources; CycloneDX SBOM)"
bash scripts/ci/supply-chain.sh

step "browser tests (playwright-core + Debian chromium)"
bash scripts/ci/browser-test.sh
