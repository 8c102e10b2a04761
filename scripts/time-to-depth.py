#!/usr/bin/env python3
"""Time to depth on 15 x 15: how long the search takes to complete a fixed depth, by threads.

Starts `BINARY` (default target/release/minimax-move) once per thread count with
SEARCH_THREADS set and a work rate so large that only `max_depth` ends a search, sends each
opening of OPENINGS to `POST /v1/move` with that `max_depth` and a 10 s time limit, one request at
a time, and prints each round trip and the total. The search with helper threads is not
reproducible, so run it more than once (BENCHMARKS-search.md, "Helper threads").

    usage: scripts/time-to-depth.py [depth, default 9] [threads ..., default 1 2]
    OPENINGS   openings file, one per line as `h8i9j7` (default scripts/data/openings-balanced-15.txt)
    COUNT      how many of its openings (default 6)
    BINARY     the server binary; PORT the port to use (default 18431)

Only the standard library.
"""
import json
import os
import re
import subprocess
import sys
import time
import urllib.request

depth = int(sys.argv[1]) if len(sys.argv) > 1 else 9
thread_counts = [int(t) for t in sys.argv[2:]] or [1, 2]
openings_file = os.environ.get("OPENINGS", "scripts/data/openings-balanced-15.txt")
count = int(os.environ.get("COUNT", "6"))
binary = os.environ.get("BINARY", "target/release/minimax-move")
port = int(os.environ.get("PORT", "18431"))


def boards():
    """The openings as 225-cell boards, black (X) first."""
    for line in open(openings_file).read().split()[:count]:
        cells = ["."] * 225
        for i, (col, row) in enumerate(re.findall(r"([a-o])(\d+)", line)):
            cells[(int(row) - 1) * 15 + ord(col) - ord("a")] = "X" if i % 2 == 0 else "O"
        yield line, "".join(cells)


def wait_ready(url):
    for _ in range(200):
        try:
            with urllib.request.urlopen(url + "/readyz", timeout=1) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.05)
    sys.exit(f"the server at {url} did not become ready")


for threads in thread_counts:
    env = dict(os.environ, PORT=str(port), HOST="127.0.0.1", SEARCH_THREADS=str(threads),
               SEARCH_WORK_RATE="100000000000", MAX_SEARCHES="1")
    server = subprocess.Popen([binary], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_ready(url)
        total = 0.0
        for name, board in boards():
            body = json.dumps({"board": board, "rows": 15, "cols": 15, "k": 5,
                               "max_depth": depth, "time_limit_ms": 10_000}).encode()
            request = urllib.request.Request(url + "/v1/move", data=body,
                                             headers={"content-type": "application/json"})
            started = time.monotonic()
            with urllib.request.urlopen(request, timeout=30) as response:
                answer = json.load(response)
            took = time.monotonic() - started
            total += took
            print(f"threads {threads}  {name:14} depth {depth}  {took * 1000:7.0f} ms  move {answer['index']}")
        print(f"threads {threads}  total {total:.2f} s")
    finally:
        server.terminate()
        server.wait()
