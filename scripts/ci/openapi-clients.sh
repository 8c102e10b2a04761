#!/usr/bin/env bash
# openapi.yaml as client developers use it, with their tools at their defaults: Redocly's lint
# (recommended rules), openapi-typescript (default flags) generating the TypeScript types, the
# README's requests written with openapi-fetch compiled against them under `tsc --strict` (a body
# the schema does not allow, or an always-present answer field typed as optional, fails the
# build), then run against the release binary on a free loopback port.
#
#   bash scripts/ci/openapi-clients.sh      # the last line is "readme-requests: N passed, M failed"
#
# Installs Node 22 and the packages pinned in tests/clients (package-lock.json) under target/ when
# missing; SKIP_BUILD=1 and BINARY as in scripts/lib/server.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
BINARY="${BINARY:-${CARGO_TARGET_DIR:-target}/release/minimax-move}"
source scripts/lib/server.sh
source scripts/ci/lib/clients.sh

clients_install
echo "==> redocly lint openapi.yaml (recommended rules)"
redocly lint openapi.yaml --config tests/clients/redocly.yaml
echo "==> openapi-typescript, then tsc --strict"
clients_build
ensure_release_binary
server_start
echo "==> the README's requests through openapi-fetch against $SERVER_URL"
timeout 120 node "$CLIENTS_DIR/build/readme-requests.js" "$SERVER_URL"
