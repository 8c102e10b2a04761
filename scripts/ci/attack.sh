#!/usr/bin/env bash
# Attacks on the release binary, as outside reviewers ran them: huge bad input, silent connections
# under a low descriptor limit, searches whose clients hang up, SIGTERM with kept-alive clients,
# malformed and stalled requests, foreign pages, a k = 6 search on 15 x 15, streams at SIGTERM
# (HTTP/1.1 and h2c through curl) and at the connection cap, a random geometry sample, fields given
# twice, searches by link from other origins, half-closed clients. Every attack is bounded in
# count and time and stays on 127.0.0.1; scripts/ci/lib/attack.py says what each checks.
#
#   bash scripts/ci/attack.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/server.sh
ensure_release_binary

exec timeout --kill-after=5 480 python3 scripts/ci/lib/attack.py "$BINARY"
