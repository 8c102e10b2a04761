#!/usr/bin/env bash
# MCP with a real client: the official Python MCP SDK (PyPI `mcp`, pinned) lists and calls every
# tool of the release binary over streamable HTTP (/mcp) and over stdio (`minimax-move mcp`):
# suggest_move against its own plain minimax on random 3 x 3 positions, apply_move and game_status
# on won, drawn and running games, bad input as tool errors naming the problem code, a 15 x 15 call.
# Bounded: a fixed number of calls, `timeout` around each run; loopback only.
#
#   bash scripts/ci/mcp-check.sh
#
# Installs mcp into .venv (created if missing) only when it is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/server.sh

VENV=.venv
MCP_VERSION=2.3.0
[[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV"
"$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('mcp') != '$MCP_VERSION')" 2>/dev/null ||
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "mcp==$MCP_VERSION"

ensure_release_binary
server_start
timeout 300 "$VENV/bin/python" scripts/ci/lib/mcp_check.py --url "$SERVER_URL/mcp"
timeout 300 "$VENV/bin/python" scripts/ci/lib/mcp_check.py --stdio "$BINARY"
