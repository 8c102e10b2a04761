#!/usr/bin/env bash
# Memory soak: the release binary, with the pod's settings (deploy/k8s: MAX_SEARCHES=2,
# MALLOC_ARENA_MAX=2), under mixed traffic from a few clients: every game family (3 × 3, 4 × 4
# and 5 × 5 proofs, 7 × 7, Connect Four and gravity 10 × 10, gomoku 15 × 15 and 20 × 20 under
# every rule), streams, reviews, MCP tool calls, Connect Four solves and traces with a table on
# large boards (one to the trace's work limit), while
# MEMORY_SOAK_HEADS sockets (400) each hold a 60 KiB request head that never ends (the largest
# buffers a connection can make the server keep). Passes when every answer is a 200, a 503
# `overloaded` or a 429 (for a trace also a 422 `trace_too_large` or a 503 `timeout`), and the
# peak resident memory (VmHWM from /proc/PID/status) stays under MEMORY_SOAK_LIMIT_MIB (200 MiB:
# the pod's 256 MiB limit less its connection-buffer worst case beyond the 400 heads held here).
#
#   bash scripts/ops/memory-soak.sh                        # 90 s, 3 clients
#   MEMORY_SOAK_SECONDS=600 bash scripts/ops/memory-soak.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/server.sh

SECONDS_SOAK="${MEMORY_SOAK_SECONDS:-90}"
CLIENTS="${MEMORY_SOAK_CLIENTS:-3}"
HEADS="${MEMORY_SOAK_HEADS:-400}"
LIMIT_MIB="${MEMORY_SOAK_LIMIT_MIB:-200}"
MAX_REQUESTS=20000

ensure_release_binary
# The pod's settings; the header read timeout is raised so that the held heads stay for the
# whole soak.
server_start MAX_SEARCHES=2 MALLOC_ARENA_MAX=2 HEADER_READ_TIMEOUT_MS=$(((SECONDS_SOAK + 30) * 1000))
echo "server pid $SERVER_PID on $SERVER_URL"
echo "ready: VmRSS $(rss_kib "$SERVER_PID") KiB"

python3 - "$SERVER_PORT" "$HEADS" "$((SECONDS_SOAK + 5))" <<'PY' &
import socket, sys, time
port, count, hold = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
head = b"POST /v1/move HTTP/1.1\r\nhost: 127.0.0.1\r\nx-pad: " + b"a" * (60 * 1024)
sockets = []
for _ in range(count):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(head)
    sockets.append(s)
time.sleep(hold)
PY
heads=$!

traffic="$(python3 scripts/ops/lib/mixed_traffic.py "$SERVER_PORT" "$SECONDS_SOAK" "$CLIENTS" "$MAX_REQUESTS")"
peak="$(awk '/^VmHWM:/ { print $2 }' "/proc/$SERVER_PID/status")"
end="$(rss_kib "$SERVER_PID")"
kill "$heads" 2>/dev/null || true
wait "$heads" 2>/dev/null || true
echo "$traffic"
echo "held heads: $HEADS × 60 KiB"
echo "VmHWM (peak) ${peak} KiB = $((peak / 1024)) MiB; VmRSS at the end ${end} KiB; limit ${LIMIT_MIB} MiB"

failed=0
bad="$(sed -n 's/^TOTAL .*bad=//p' <<<"$traffic")"
if [[ "$bad" != 0 ]]; then
    echo "FAIL: $bad answers other than 200, 503 overloaded or 429" >&2
    failed=1
fi
if ((peak > LIMIT_MIB * 1024)); then
    echo "FAIL: peak resident memory $((peak / 1024)) MiB over $LIMIT_MIB MiB" >&2
    failed=1
fi
if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "FAIL: the server died" >&2
    failed=1
fi
((failed)) && exit 1
echo "memory soak: ok"
