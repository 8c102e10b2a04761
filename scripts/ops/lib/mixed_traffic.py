"""Mixed traffic for the memory soak: every game family, streams, reviews and MCP tool calls,
from a few client threads, for a bounded time and count, on 127.0.0.1 only.

    python3 scripts/ops/lib/mixed_traffic.py PORT SECONDS CLIENTS MAX_REQUESTS

Prints one line a request kind (answers by status) and a last line `TOTAL requests=N bad=M`;
a bad answer is a status other than 200, 503 `overloaded` (every slot busy: shed by design) or
429. Standard library only.
"""

import http.client
import itertools
import json
import sys
import threading
import time

PORT, SECONDS, CLIENTS, MAX_REQUESTS = (int(a) for a in sys.argv[1:5])


def empty(cells):
    return "." * cells


def gomoku(rows, cols, rule, time_limit_ms):
    centre = (rows // 2) * cols + cols // 2
    board = list(empty(rows * cols))
    board[centre] = "X"
    board[centre + 1] = "O"
    board[centre + cols] = "X"
    return {"board": "".join(board), "rows": rows, "cols": cols, "k": 5, "rule": rule,
            "time_limit_ms": time_limit_ms, "moves": True}


def gravity(rows, cols, k, moves, time_limit_ms):
    return {"moves": moves, "rows": rows, "cols": cols, "k": k, "gravity": True,
            "time_limit_ms": time_limit_ms}


def mcp(name, arguments):
    return {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}}


RULES = ["freestyle", "standard", "renju", "caro"]
# (name, method, path, body, accept): each kind is sent in turn by every client.
KINDS = [
    ("3x3 lookup", "POST", "/v1/move", {"board": "O.XX.X.OO", "moves": True}, None),
    ("4x4 proof", "POST", "/v1/move",
     {"board": empty(16), "rows": 4, "cols": 4, "k": 4, "time_limit_ms": 1000}, None),
    ("5x5 k4 proof", "POST", "/v1/move",
     {"board": empty(25), "rows": 5, "cols": 5, "k": 4, "time_limit_ms": 1000}, None),
    ("7x7 k5", "POST", "/v1/move",
     {"board": empty(49), "rows": 7, "cols": 7, "k": 5, "time_limit_ms": 500}, None),
    ("connect4 7x6", "POST", "/v1/move",
     {"board": empty(42), "rows": 6, "cols": 7, "k": 4, "gravity": True,
      "time_limit_ms": 1000}, None),
    ("gravity 10x10", "POST", "/v1/move",
     {"board": empty(100), "rows": 10, "cols": 10, "k": 4, "gravity": True,
      "time_limit_ms": 1000}, None),
    ("connect4 solve", "GET", "/v1/connect4/solve?pos=44444433333322", None, None),
]
for rule in RULES:
    KINDS.append((f"15x15 {rule}", "POST", "/v1/move", gomoku(15, 15, rule, 500), None))
    KINDS.append((f"20x20 {rule}", "POST", "/v1/move", gomoku(20, 20, rule, 500), None))
KINDS += [
    ("stream 15x15", "POST", "/v1/move/stream", gomoku(15, 15, "freestyle", 500),
     "text/event-stream"),
    ("stream connect4", "POST", "/v1/move/stream",
     {"board": empty(42), "rows": 6, "cols": 7, "k": 4, "gravity": True,
      "time_limit_ms": 500}, "text/event-stream"),
    ("review 3x3", "POST", "/v1/review", {"moves": [4, 1, 0, 8, 2, 6, 3, 5]}, None),
    ("review connect4", "POST", "/v1/review",
     gravity(6, 7, 4, [38, 31, 39, 24, 40, 41], 1500), None),
    ("review 15x15", "POST", "/v1/review",
     {"moves": [112, 113, 97, 127, 82], "rows": 15, "cols": 15, "k": 5, "time_limit_ms": 1500},
     None),
    ("mcp suggest 15x15", "POST", "/mcp",
     mcp("suggest_move", gomoku(15, 15, "renju", 500)), "application/json, text/event-stream"),
    ("mcp suggest connect4", "POST", "/mcp",
     mcp("suggest_move", {"board": empty(42), "rows": 6, "cols": 7, "k": 4, "gravity": True,
                          "time_limit_ms": 500}), "application/json, text/event-stream"),
    ("mcp review", "POST", "/mcp",
     mcp("review_game", gravity(6, 7, 4, [38, 31, 39, 24], 1000)),
     "application/json, text/event-stream"),
]

# Traces with a transposition table on large boards: the one without a depth limit searches to
# the 2,000,000-node work limit (a 422 `trace_too_large`), its table full at its cap.
TRACE_LARGE = {"board": empty(120), "rows": 8, "cols": 15, "k": 15, "algorithm": "alphabeta_table"}
KINDS += [
    ("trace 8x15 to the work limit", "POST", "/v1/trace", TRACE_LARGE, None),
    ("trace 8x15 depth 2", "POST", "/v1/trace", dict(TRACE_LARGE, max_depth=2), None),
    ("trace 20x20 depth 2", "POST", "/v1/trace",
     {"board": empty(400), "rows": 20, "cols": 20, "k": 5, "algorithm": "alphabeta_table",
      "max_depth": 2}, None),
]

lock = threading.Lock()
counts = {}
sent = itertools.count()
deadline = time.monotonic() + SECONDS


def send(kind):
    name, method, path, body, accept = kind
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    headers = {"host": f"127.0.0.1:{PORT}"}
    payload = None
    if body is not None:
        payload = json.dumps(body).encode()
        headers["content-type"] = "application/json"
    if accept:
        headers["accept"] = accept
    try:
        connection.request(method, path, payload, headers)
        response = connection.getresponse()
        text = response.read()
        status = response.status
        if status == 503 and b"overloaded" in text:
            status = "503 overloaded"
        elif status == 422 and b"trace_too_large" in text:
            status = "422 trace_too_large"
        elif status == 503 and b'"timeout"' in text:
            status = "503 timeout"
        elif accept == "text/event-stream" and b"event: result" not in text:
            status = f"{status} without result"
    except OSError as error:
        status = type(error).__name__
    finally:
        connection.close()
    with lock:
        counts.setdefault(name, {}).setdefault(status, 0)
        counts[name][status] += 1


def client(offset):
    for index in itertools.count(offset):
        if time.monotonic() > deadline or next(sent) >= MAX_REQUESTS:
            return
        send(KINDS[index % len(KINDS)])


threads = [threading.Thread(target=client, args=(i * 5,)) for i in range(CLIENTS)]
for t in threads:
    t.start()
for t in threads:
    t.join()
total = bad = 0
for name, by_status in counts.items():
    print(name + ": " + ", ".join(f"{s}: {n}" for s, n in sorted(by_status.items(), key=str)))
    for status, n in by_status.items():
        total += n
        expected = {200, 429, "503 overloaded"}
        if name.startswith("trace"):
            # A trace stops at the work limit or at the server's longest time limit.
            expected |= {"422 trace_too_large", "503 timeout"}
        if status not in expected:
            bad += n
print(f"TOTAL requests={total} bad={bad}")
