#!/usr/bin/env bash
# Black-box checks of the release binary over a real socket, by a client written independently of
# the Rust code (scripts/ci/lib/api_check.py): every 3 x 3 position in play in both scorings against
# a plain minimax, random positions up to 15 x 15 at every difficulty (hard rules, reproducible
# seeds, board/status/explanation after the move), and /metrics through the Prometheus
# text-format parser. Bounded: a fixed number of requests, `timeout` around the run.
#
#   bash scripts/ci/api-check.sh
#   API_CHECK_SEED=$RANDOM API_CHECK_RANDOM=1000 bash scripts/ci/api-check.sh
#
# Installs prometheus_client into .venv (created if missing) only when it is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/server.sh

VENV=.venv
[[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV"
"$VENV/bin/python" -c 'import prometheus_client' 2>/dev/null ||
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "prometheus_client==0.26.0"

ensure_release_binary
# A quarter of the default work rate: the searches then stop on their work budget with a wide
# margin even on a busy CI machine, so "the same request gets the same answer" is checked
# without the clock ever deciding it (the default leaves a margin of about two).
server_start SEARCH_WORK_RATE=12000
timeout 600 "$VENV/bin/python" scripts/ci/lib/api_check.py "$SERVER_URL" \
    --seed "${API_CHECK_SEED:-20261122}" --random "${API_CHECK_RANDOM:-300}"
