#!/usr/bin/env bash
# The first move of a fresh process under each rule, against its time limit: whatever the engine
# builds on first use (pattern tables, move-ordering lookups, transposition tables) must be built
# before the process says it is ready, not on the first search's clock.
#
#   bash scripts/dev/first-move.sh [LIMIT_MS]        (default 50)
#
# HTTP: for each case a new server (the release binary, 127.0.0.1, a free port), wait for
# /readyz, one POST /v1/move with time_limit_ms = LIMIT_MS, timed by curl from the request's
# first byte to the answer's last; then the server is stopped.
# The warm-up column is the server's own `warm_up_ms` log field, and for the brain the time from
# its spawn to the answer to START (process start included).
# Gomocup: for each INFO rule a new `minimax-move pbrain`, START 15, INFO timeout_turn LIMIT_MS,
# INFO rule N, a BOARD of four stones, timed from DONE to the move.
# Connect Four: one position six stones in, past the built-in book.
# Prints one Markdown table row a case. Builds the release binary unless SKIP_BUILD=1.
set -euo pipefail
cd "$(dirname "$0")/../.."
BINARY="${BINARY:-${CARGO_TARGET_DIR:-target}/release/minimax-move}"
source scripts/lib/server.sh
LIMIT="${1:-50}"
ensure_release_binary

# Four stones around the centre of a rows × cols board, X to move: a position the search plays
# out under its clock (an empty board is answered at once in the centre).
board() {
    python3 -c '
import sys
rows, cols = int(sys.argv[1]), int(sys.argv[2])
cells = ["."] * (rows * cols)
r, c = rows // 2, cols // 2
for (dr, dc, mark) in [(0, 0, "X"), (0, 1, "O"), (1, 1, "X"), (-1, 0, "O")]:
    cells[(r + dr) * cols + c + dc] = mark
print("".join(cells))' "$1" "$2"
}

echo "| door | case | warm-up (ms) | limit (ms) | first move (ms) |"
echo "|---|---|---:|---:|---:|"
while read -r name rows cols k options cells; do
    server_start RUST_LOG=info
    warm_up=$(grep -o 'warm_up_ms[^0-9]*[0-9]*' "$SERVER_LOG" | grep -o '[0-9]*$' || echo '?')
    [[ -n "$cells" ]] || cells="$(board "$rows" "$cols")"
    body=$(printf '{"board":"%s","rows":%d,"cols":%d,"k":%d,%s,"time_limit_ms":%d}' \
        "$cells" "$rows" "$cols" "$k" "$options" "$LIMIT")
    seconds=$(curl -fsS -o /dev/null -w '%{time_total}' -H 'content-type: application/json' \
        -d "$body" "$SERVER_URL/v1/move")
    server_stop
    printf '| HTTP | %s | %s | %d | %.0f |\n' "$name" "$warm_up" "$LIMIT" "$(python3 -c "print($seconds * 1000)")"
done <<'CASES'
freestyle-15x15 15 15 5 "rule":"freestyle"
standard-15x15 15 15 5 "rule":"standard"
renju-15x15 15 15 5 "rule":"renju"
caro-15x15 15 15 5 "rule":"caro"
k4-10x10 10 10 4 "rule":"freestyle"
k6-12x12 12 12 6 "rule":"freestyle"
connect-four-6-stones 6 7 4 "gravity":true ...............................XO....XOXO.
CASES

for rule in 0 1 4 8; do
    python3 - "$BINARY" "$LIMIT" "$rule" <<'PY'
import subprocess, sys, time
binary, limit, rule = sys.argv[1], int(sys.argv[2]), sys.argv[3]
spawned = time.monotonic()
brain = subprocess.Popen([binary, "pbrain"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
def send(line):
    brain.stdin.write(line + "\n")
    brain.stdin.flush()
send("START 15")
assert brain.stdout.readline().strip() == "OK"
warm_up = (time.monotonic() - spawned) * 1000
for line in [f"INFO timeout_turn {limit}", f"INFO rule {rule}", "BOARD",
             "7,7,1", "8,7,2", "8,8,1", "7,6,2"]:
    send(line)
started = time.monotonic()
send("DONE")
while True:
    answer = brain.stdout.readline().strip()
    if not answer.startswith("MESSAGE"):
        break
elapsed = (time.monotonic() - started) * 1000
assert "," in answer, answer
send("END")
brain.wait(timeout=10)
print(f"| pbrain | INFO rule {rule} | {warm_up:.0f} | {limit} | {elapsed:.0f} |")
PY
done
