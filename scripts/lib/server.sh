# Helpers sourced by the load and fault scripts: start the release binary on a free loopback port,
# wait for readiness, stop it. Only 127.0.0.1 is ever used.
#
#   source scripts/lib/server.sh
#   server_start [ENV=VALUE ...]    # sets SERVER_PID, SERVER_PORT, SERVER_URL, SERVER_LOG
#   server_stop                     # SIGTERM, then SIGKILL after 30 s; also run on EXIT

BINARY="${BINARY:-target/release/minimax-move}"

# Builds the release binary unless SKIP_BUILD=1 (cargo does nothing when it is up to date).
ensure_release_binary() {
    if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
        cargo build --release --quiet --bin minimax-move
    fi
    [[ -x "$BINARY" ]] || { echo "no $BINARY: run cargo build --release" >&2; exit 1; }
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Starts the binary with the given extra environment, on 127.0.0.1 and a free port, and waits up
# to 10 s for /readyz.
server_start() {
    SERVER_PORT="$(free_port)"
    SERVER_URL="http://127.0.0.1:$SERVER_PORT"
    SERVER_LOG="$(mktemp -t minimax-move-server.XXXXXX.log)"
    env HOST=127.0.0.1 PORT="$SERVER_PORT" RUST_LOG="${RUST_LOG:-warn}" "$@" \
        "$BINARY" >"$SERVER_LOG" 2>&1 &
    SERVER_PID=$!
    trap server_stop EXIT
    local deadline=$((SECONDS + 10))
    until curl -fsS -o /dev/null --max-time 1 "$SERVER_URL/readyz" 2>/dev/null; do
        if ! kill -0 "$SERVER_PID" 2>/dev/null; then
            echo "the server exited during start-up:" >&2
            cat "$SERVER_LOG" >&2
            exit 1
        fi
        if ((SECONDS > deadline)); then
            echo "the server was not ready within 10 s" >&2
            exit 1
        fi
        sleep 0.05
    done
}

server_stop() {
    if [[ -n "${SERVER_PID:-}" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        local deadline=$((SECONDS + 30))
        while kill -0 "$SERVER_PID" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.05; done
        kill -KILL "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    SERVER_PID=
}

# Resident memory of a process in KiB (VmRSS from /proc/PID/status).
rss_kib() {
    awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"
}
