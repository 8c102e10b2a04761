#!/usr/bin/env python3
"""Records a server's answers to a fixed set of positions, to check that a refactoring changed
nothing: run it against the build before and the build after, then compare the files (`cmp`).

    scripts/dev/same-answers.py PORT OUT games N SGF...
                                               N positions (plies 6-59, 15 x 15) from the games
                                               (the games.sgf of scripts/strength/match.sh)
    scripts/dev/same-answers.py PORT OUT random
                                               8 random positions on each of ten geometries
                                               (3 x 3 to 15 x 15, k 3 to 8), every move's value

Start the servers with a low SEARCH_WORK_RATE (40000 for `games`, 24000 for `random`): the
requests ask for 3000 and 2000 ms, so the work budget, not the clock, ends every search and
the answers reproduce. Only 127.0.0.1 is asked; one request at a time.
"""
import json
import random
import re
import sys
import time
import urllib.error
import urllib.request


def games(files, n):
    boards = []
    for f in files:
        for game in open(f).read().split("(;")[1:]:
            moves = re.findall(r";([BW])\[([a-o])([a-o])\]", game)
            for i in range(6, min(60, len(moves))):
                cells = ["."] * 225
                for j, (_, col, row) in enumerate(moves[:i]):
                    cells[(ord(row) - 97) * 15 + ord(col) - 97] = "X" if j % 2 == 0 else "O"
                boards.append("".join(cells))
    random.seed(11)
    return [{"board": b, "rows": 15, "cols": 15, "k": 5, "time_limit_ms": 3000}
            for b in random.sample(boards, n)]


def randoms():
    random.seed(5)
    shapes = [(3, 3, 3, 0, 6), (4, 4, 3, 0, 8), (5, 5, 4, 2, 10), (6, 6, 4, 4, 12),
              (7, 7, 5, 4, 14), (10, 10, 7, 6, 30), (12, 12, 8, 6, 30), (11, 11, 6, 6, 30),
              (10, 10, 4, 4, 20), (15, 15, 5, 6, 40)]
    requests = []
    for rows, cols, k, low, high in shapes:
        for _ in range(8):
            cells = ["."] * (rows * cols)
            for i, c in enumerate(random.sample(range(rows * cols), random.randint(low, high))):
                cells[c] = "X" if i % 2 == 0 else "O"
            requests.append({"board": "".join(cells), "rows": rows, "cols": cols, "k": k,
                             "time_limit_ms": 2000, "moves": True})
    return requests


def main():
    port, out, mode = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    requests = games(sys.argv[5:], int(sys.argv[4])) if mode == "games" else randoms()
    start = time.monotonic()
    with open(out, "w") as o:
        for body in requests:
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/v1/move", data=json.dumps(body).encode(),
                headers={"content-type": "application/json"})
            try:
                answer = json.load(urllib.request.urlopen(request, timeout=30))
            except urllib.error.HTTPError as e:
                answer = {"status": e.code, "problem": json.load(e)}
            o.write(json.dumps(answer, sort_keys=True) + "\n")
    print(f"{len(requests)} positions in {time.monotonic() - start:.1f} s")


if __name__ == "__main__":
    main()
