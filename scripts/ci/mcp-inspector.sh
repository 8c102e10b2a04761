#!/usr/bin/env bash
# MCP through the official MCP Inspector CLI (npm @modelcontextprotocol/inspector, `--cli`), over
# streamable HTTP (/mcp of the release binary on a free loopback port) and over stdio
# (`minimax-move mcp`): the tool list with its schema checks (--strict), every tool called, its
# structured answer validated by the Inspector against the tool's outputSchema, and tool errors
# (exit 5, `code: detail` text, no structured content). tests/clients/src/inspector-check.ts says
# what each call expects.
#
#   bash scripts/ci/mcp-inspector.sh   # ends with "inspector-http: ..." and "inspector-stdio: ..."
#
# Installs Node 22 and the packages pinned in tests/clients (package-lock.json) under target/ when
# missing; SKIP_BUILD=1 and BINARY as in scripts/lib/server.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
BINARY="${BINARY:-${CARGO_TARGET_DIR:-target}/release/minimax-move}"
source scripts/lib/server.sh
source scripts/ci/lib/clients.sh

clients_install
clients_build
ensure_release_binary
server_start
# The Inspector keeps a catalog and a client configuration under HOME: a scratch one.
home="$(mktemp -d -t mcp-inspector.XXXXXX)"
HOME="$home" timeout 300 node "$CLIENTS_DIR/build/inspector-check.js" --http "$SERVER_URL/mcp"
HOME="$home" timeout 300 node "$CLIENTS_DIR/build/inspector-check.js" --stdio "$(realpath "$BINARY")"
rm -rf "$home"
