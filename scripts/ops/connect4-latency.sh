#!/usr/bin/env bash
# Connect Four through the real server, loopback only, one request at a time: random 7 x 6 games
# (a fixed seed) cut at every number of stones from 0 to 41, each position sent to
# `GET /v1/connect4/solve?pos=` and to `POST /v1/move` with `"gravity": true` (the default time
# limit). Prints, by band of stones, the median, 99th percentile and worst latency seen by the
# client, and how many answers were not exact (a 503 `timeout` from the solve route; from the
# move route, asked for the whole move table, a table with a move `exact: false`, and apart an
# answer whose chosen move is `exact: false`), then the same over all positions and the slowest
# positions of each route. Bounded: at most PER_STONES positions a stone count (5 by default),
# stone counts from the range STONES (0-41 by default), each request under its own timeout, the
# whole run under `timeout`. POSITIONS=FILE sends the positions of FILE instead (a line's first
# word: the columns played, from 1, as the solve route's `pos`; a second word, the position's
# score, is checked against the best column's; at most PER_STONES of each number of stones in
# STONES, in file order), for c4's test sets for example.
#
#   bash scripts/ops/connect4-latency.sh
#   PER_STONES=20 bash scripts/ops/connect4-latency.sh
#   STONES=6-12 PER_STONES=100 bash scripts/ops/connect4-latency.sh   # the opening past the book
#   POSITIONS=opening_L3.txt PER_STONES=10 bash scripts/ops/connect4-latency.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/server.sh
ensure_release_binary
server_start
PER_STONES="${PER_STONES:-5}" STONES="${STONES:-0-41}" POSITIONS="${POSITIONS:-}" URL="$SERVER_URL" timeout 3600 python3 - <<'PY'
import json, os, random, time, urllib.error, urllib.request

url, per = os.environ["URL"], int(os.environ["PER_STONES"])
first, last = map(int, os.environ["STONES"].split("-"))
assert 0 <= first <= last <= 41, "STONES is a range such as 6-12 within 0-41"
rng = random.Random(2026)

def in_play(columns):
    """Whether the game after `columns` (from 0) is still in play: no four, board not full."""
    grid = [[None] * 6 for _ in range(7)]
    for i, c in enumerate(columns):
        row = next(r for r in range(6) if grid[c][r] is None)
        grid[c][row] = i % 2
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                x, y = c + sign * dc, row + sign * dr
                while 0 <= x < 7 and 0 <= y < 6 and grid[x][y] == i % 2:
                    run, x, y = run + 1, x + sign * dc, y + sign * dr
            if run >= 4:
                return False
    return len(columns) < 42

def random_game(stones):
    while True:
        heights, columns = [0] * 7, []
        for _ in range(stones):
            c = rng.choice([c for c in range(7) if heights[c] < 6])
            heights[c] += 1
            columns.append(c)
        if in_play(columns):
            return columns

def timed(request):
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            body, status = json.loads(r.read()), r.status
    except urllib.error.HTTPError as e:
        body, status = json.loads(e.read() or b"{}"), e.code
    return time.perf_counter() - start, status, body

def solve(columns, expected):
    pos = "".join(str(c + 1) for c in columns)
    seconds, status, body = timed(urllib.request.Request(f"{url}/v1/connect4/solve?pos={pos}"))
    if status == 200 and expected is not None:
        best = max(s for s in body["score"] if s != 100)
        if best != expected:
            raise SystemExit(f"{pos}: the best column scores {best}, the set says {expected}")
    return seconds, status == 200, status == 200

def move(columns, _expected):
    cells = ["."] * 42
    heights = [0] * 7
    for i, c in enumerate(columns):
        cells[(5 - heights[c]) * 7 + c] = "XO"[i % 2]
        heights[c] += 1
    body = {"board": "".join(cells), "rows": 6, "cols": 7, "k": 4, "gravity": True, "moves": True}
    request = urllib.request.Request(f"{url}/v1/move", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    seconds, status, answer = timed(request)
    ok = status == 200
    return seconds, ok and all(m["exact"] for m in answer["moves"]), ok and answer["exact"]

bands = [(0, 3), (4, 4), (5, 6), (7, 8), (9, 10), (11, 12), (13, 20), (21, 41)]
results = {"solve": {}, "move": {}}
def games():
    """The positions to send: random games, or the lines of POSITIONS, by number of stones."""
    if not os.environ["POSITIONS"]:
        for stones in range(first, last + 1):
            for _ in range(per):
                yield random_game(stones), None
        return
    taken = {}
    with open(os.environ["POSITIONS"]) as lines:
        for line in lines:
            words = line.split()
            columns = [int(c) - 1 for c in words[0]] if words else []
            expected = int(words[1]) if len(words) > 1 else None
            if first <= len(columns) <= last and taken.get(len(columns), 0) < per:
                taken[len(columns)] = taken.get(len(columns), 0) + 1
                yield columns, expected

for columns, expected in games():
    pos = "".join(str(c + 1) for c in columns)
    for name, call in (("solve", solve), ("move", move)):
        seconds, table, chosen = call(columns, expected)
        results[name].setdefault(len(columns), []).append((seconds, table, pos, chosen))

def row(label, rows):
    times = sorted(r[0] for r in rows)
    at = lambda q: times[round((len(times) - 1) * q)]
    print(f"{label:<10} {len(rows):>4} {at(0.5):>8.3f}s {at(0.99):>8.3f}s "
          f"{times[-1]:>8.3f}s {sum(not r[1] for r in rows):>10} {sum(not r[3] for r in rows):>7}")

for name, route in (("solve", "GET /v1/connect4/solve"), ("move", "POST /v1/move, gravity")):
    print(f"\n{route}")
    print(f"{'stones':<10} {'n':>4} {'median':>9} {'p99':>9} {'max':>9} {'not exact':>10} {'answer':>7}")
    for low, high in bands:
        rows = [r for s in range(low, high + 1) for r in results[name].get(s, [])]
        if rows:
            row(f"{low} to {high}", rows)
    every = [r for rows in results[name].values() for r in rows]
    row("all", every)
    slowest = sorted(every, reverse=True)[:5]
    print("slowest:", ", ".join(f"{pos or '(empty)'} {t:.2f}s" for t, _, pos, _ in slowest))
PY
