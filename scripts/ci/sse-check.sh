#!/usr/bin/env bash
# Live search with a real SSE client library: httpx-sse (PyPI, pinned) reads `POST /v1/move`
# with `Accept: text/event-stream` from the release binary: progress events, then a result equal
# to the plain answer (a 15 x 15 search and a 5 x 5 proof), and a stream closed early freeing its
# search slot (the server runs with one slot). Bounded: three streams, client timeouts, `timeout`
# around the run; loopback only.
#
#   bash scripts/ci/sse-check.sh
#
# Installs httpx and httpx-sse into .venv (created if missing) only when they are missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/server.sh

VENV=.venv
HTTPX_VERSION=0.28.1
HTTPX_SSE_VERSION=0.4.3
[[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV"
"$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('httpx') != '$HTTPX_VERSION' or m.version('httpx-sse') != '$HTTPX_SSE_VERSION')" 2>/dev/null ||
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "httpx==$HTTPX_VERSION" "httpx-sse==$HTTPX_SSE_VERSION"

ensure_release_binary
server_start MAX_SEARCHES=1 QUEUE_WAIT_MS=2000
timeout 300 "$VENV/bin/python" scripts/ci/lib/sse_check.py --url "$SERVER_URL"
