#!/usr/bin/env bash
# Soak test: the release binary on a free 127.0.0.1 port under a steady load at 80% of its
# measured saturation for 60 s. Passes when every response is a 200 (no other status, no socket
# error) and the server's resident memory (VmRSS from /proc/PID/status) grows by less than 10%
# from the start of the steady run to its end.
#
#   1. saturation: wrk at 64 connections for SOAK_SATURATION_SECONDS (10), which also warms up
#   2. steady load: wrk at SOAK_FRACTION (0.8) of that rate for SOAK_SECONDS (60); each connection
#      waits between requests, the wait corrected every second from the rate achieved
#
#   bash scripts/ops/soak.sh                      # the seed board (3 × 3, table lookups)
#   SOAK_KIND=4x4 bash scripts/ops/soak.sh        # a 4 × 4 search, time_limit_ms 50
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/server.sh

SECONDS_STEADY="${SOAK_SECONDS:-60}"
SECONDS_SATURATION="${SOAK_SATURATION_SECONDS:-10}"
FRACTION="${SOAK_FRACTION:-0.8}"
CONNECTIONS="${SOAK_CONNECTIONS:-64}"
THREADS=2
MAX_GROWTH_PERCENT=10
case "${SOAK_KIND:-3x3}" in
    3x3) BODY='{"board":["O",1,"X","X",4,"X",6,"O","O"],"moves":true}' ;;
    4x4) BODY='{"board":"X.O..X....O.....","rows":4,"cols":4,"k":4,"time_limit_ms":50}' ;;
    *) echo "SOAK_KIND is 3x3 or 4x4" >&2; exit 2 ;;
esac
LUA="$PWD/scripts/ops/lib/wrk-report.lua"

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
ensure_release_binary
server_start
echo "server pid $SERVER_PID on $SERVER_URL; body $BODY"

# run_wrk CONNECTIONS SECONDS [ENV=VALUE ...]: prints wrk's RESULT line.
run_wrk() {
    local connections=$1 duration=$2
    shift 2
    env WRK_METHOD=POST WRK_BODY="$BODY" WRK_STATUS=1 "$@" \
        timeout $((duration + 30)) wrk -t "$THREADS" -c "$connections" -d "${duration}s" \
        --timeout 5s -s "$LUA" "$SERVER_URL/v1/move" | sed -n 's/^RESULT //p'
}
field() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"; }

saturation_line="$(run_wrk "$CONNECTIONS" "$SECONDS_SATURATION")"
echo "saturation: $saturation_line"
saturation="$(field "$saturation_line" rps)"
target="$(awk -v s="$saturation" -v f="$FRACTION" 'BEGIN { printf "%d", s * f }')"
per_thread="$(awk -v t="$target" -v n="$THREADS" 'BEGIN { printf "%.1f", t / n }')"
echo "steady load: $target requests/s ($FRACTION of $saturation) for $SECONDS_STEADY s"

rss_start="$(rss_kib "$SERVER_PID")"
samples=("$rss_start")
(
    for ((i = 0; i < SECONDS_STEADY / 10; i++)); do
        sleep 10
        rss_kib "$SERVER_PID" 2>/dev/null || true
    done
) >"${SERVER_LOG}.rss" &
sampler=$!
steady_line="$(run_wrk "$CONNECTIONS" "$SECONDS_STEADY" WRK_RATE="$per_thread" WRK_CONNS=$((CONNECTIONS / THREADS)))"
wait "$sampler" || true
rss_end="$(rss_kib "$SERVER_PID")"
mapfile -t -O 1 samples <"${SERVER_LOG}.rss"
echo "steady: $steady_line"

achieved="$(field "$steady_line" rps)"
statuses="$(field "$steady_line" statuses)"
socket_errors=$(($(field "$steady_line" connect) + $(field "$steady_line" read) + $(field "$steady_line" write) + $(field "$steady_line" timeout)))
growth="$(awk -v a="$rss_start" -v b="$rss_end" 'BEGIN { printf "%.1f", (b - a) * 100 / a }')"
share="$(awk -v a="$achieved" -v s="$saturation" 'BEGIN { printf "%.0f", a * 100 / s }')"

echo
echo "achieved $achieved requests/s = $share% of saturation ($saturation)"
echo "p50 $(field "$steady_line" p50_ms) ms, p99 $(field "$steady_line" p99_ms) ms, max $(field "$steady_line" max_ms) ms"
echo "statuses: $statuses; socket errors: $socket_errors"
echo "VmRSS: start ${rss_start} KiB, end ${rss_end} KiB, growth ${growth}% (samples every 10 s: ${samples[*]} KiB)"

failed=0
if [[ "$statuses" != 200:* || "$statuses" == *,* || "$(field "$steady_line" non2xx)" != 0 ]]; then
    echo "FAIL: responses other than 200: $statuses" >&2
    failed=1
fi
if ((socket_errors != 0)); then
    echo "FAIL: $socket_errors socket errors or timeouts" >&2
    failed=1
fi
if awk -v g="$growth" -v m="$MAX_GROWTH_PERCENT" 'BEGIN { exit !(g >= m) }'; then
    echo "FAIL: resident memory grew by ${growth}% (limit ${MAX_GROWTH_PERCENT}%)" >&2
    failed=1
fi
if ((share < 60)); then
    echo "WARN: the load reached only $share% of saturation (the machine is busy?)" >&2
fi
if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "FAIL: the server died" >&2
    failed=1
fi
((failed)) && exit 1
echo "soak: ok"
