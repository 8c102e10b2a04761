"""Black-box checks of a running server over a real socket, written independently of the Rust code.

    python3 scripts/ci/lib/api_check.py http://127.0.0.1:PORT [--seed N] [--random N]

1. 3 x 3: every one of the 4,520 non-terminal positions reachable with X first, in both scorings
   with the move table, against a plain minimax written here (fastest win, slowest loss).
2. Random positions on 3 x 3 to 15 x 15 at every difficulty: a legal move; every level takes an
   immediate win and `hard` blocks a single immediate threat; the same request (same seed) gives
   the same answer; `board`, `status` and `explanation` agree with the move.
3. /metrics parses with the Prometheus text-format parser (prometheus_client) when it is
   installed, and its labels carry no user input.

Prints 'N passed, M failed' and exits non-zero on any failure. Standard library only, apart from
the optional prometheus_client.
"""

import functools
import json
import random
import re
import sys
import urllib.error
import urllib.request

BASE = sys.argv[1].rstrip("/")
ARGS = sys.argv[2:]
SEED = int(ARGS[ARGS.index("--seed") + 1]) if "--seed" in ARGS else 20261122
RANDOM_POSITIONS = int(ARGS[ARGS.index("--random") + 1]) if "--random" in ARGS else 300
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        if failed <= 20:
            print("FAIL:", what)


def post(body):
    request = urllib.request.Request(
        BASE + "/v1/move", json.dumps(body).encode(), {"content-type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def lines(rows, cols, k):
    found = []
    for y in range(rows):
        for x in range(cols):
            for dy, dx in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if 0 <= y + (k - 1) * dy < rows and 0 <= x + (k - 1) * dx < cols:
                    found.append([(y + i * dy) * cols + x + i * dx for i in range(k)])
    return found


def has_line(board, all_lines, mark):
    return any(all(board[i] == mark for i in line) for line in all_lines)


def completing(board, all_lines, mark):
    """Cells where `mark` completes a line at once."""
    cells = set()
    for line in all_lines:
        values = [board[i] for i in line]
        if values.count(mark) == len(line) - 1 and values.count(".") == 1:
            cells.add(line[values.index(".")])
    return cells


# ---------------------------------------------------------------------------------------------
# 1. 3 x 3 against plain minimax

LINES3 = lines(3, 3, 3)


@functools.lru_cache(maxsize=None)
def solve(board, mover):
    """(value for `mover` in -1/0/1, plies to the end) under perfect play, mover to move."""
    if has_line(board, LINES3, "X") or has_line(board, LINES3, "O"):
        return -1, 0
    if "." not in board:
        return 0, 0
    other = "O" if mover == "X" else "X"
    best = None
    for i, cell in enumerate(board):
        if cell == ".":
            value, plies = solve(board[:i] + mover + board[i + 1:], other)
            value, plies = -value, plies + 1
            key = (value, -plies if value > 0 else plies)
            if best is None or key > best[0]:
                best = (key, value, plies)
    return best[1], best[2]


def check_3x3():
    seen, stack = set(), ["." * 9]
    while stack:
        board = stack.pop()
        if board in seen:
            continue
        seen.add(board)
        if has_line(board, LINES3, "X") or has_line(board, LINES3, "O") or "." not in board:
            continue
        mover = "X" if board.count("X") == board.count("O") else "O"
        stack.extend(board[:i] + mover + board[i + 1:] for i, c in enumerate(board) if c == ".")
    in_play = sorted(
        b for b in seen if "." in b and not has_line(b, LINES3, "X") and not has_line(b, LINES3, "O")
    )
    check(len(seen) == 5478 and len(in_play) == 4520, f"position counts {len(seen)}, {len(in_play)}")
    for board in in_play:
        mover = "X" if board.count("X") == board.count("O") else "O"
        other = "O" if mover == "X" else "X"
        for scoring in ("depth", "classic"):
            expected = []
            for i, cell in enumerate(board):
                if cell != ".":
                    continue
                value, plies = solve(board[:i] + mover + board[i + 1:], other)
                value, plies = -value, plies + 1
                if scoring == "depth":
                    score = 10 - plies if value > 0 else plies - 10 if value < 0 else 0
                else:
                    score = 10 * value
                outcome = {1: "win", -1: "loss", 0: "draw"}[value]
                expected.append((i, score, outcome, plies))
            top = max(e[1] for e in expected)
            best = min(e for e in expected if e[1] == top)
            wire = [c if c != "." else i for i, c in enumerate(board)]
            status, answer = post({"board": wire, "scoring": scoring, "moves": True})
            got = (
                [(m["index"], m["score"], m["outcome"], m["plies"]) for m in answer.get("moves", [])]
                if status == 200
                else None
            )
            check(
                status == 200
                and got == expected
                and (answer["index"], answer["score"], answer["outcome"], answer["plies"]) == best
                and answer["player"] == mover
                and answer["exact"] is True,
                f"{board} {scoring}: {status} {answer}",
            )


# ---------------------------------------------------------------------------------------------
# 2. random positions, difficulties, seeds, status and explanation


def check_random():
    rng = random.Random(SEED)
    sizes = [(3, 3, 3), (3, 3, 3), (4, 4, 4), (5, 5, 4), (6, 6, 5), (7, 7, 5), (15, 15, 5)]
    done = 0
    while done < RANDOM_POSITIONS:
        rows, cols, k = rng.choice(sizes)
        cells = rows * cols
        all_lines = lines(rows, cols, k)
        board, mover = ["."] * cells, "X"
        for _ in range(rng.randint(0, min(cells - 1, 8 if cells == 9 else 14))):
            board[rng.choice([i for i, c in enumerate(board) if c == "."])] = mover
            mover = "O" if mover == "X" else "X"
        if has_line(board, all_lines, "X") or has_line(board, all_lines, "O") or "." not in board:
            continue
        done += 1
        other = "O" if mover == "X" else "X"
        wins, threats = completing(board, all_lines, mover), completing(board, all_lines, other)
        for difficulty in ("perfect", "hard", "medium", "easy"):
            request = {
                "board": "".join(board), "rows": rows, "cols": cols, "k": k,
                "difficulty": difficulty, "tie_break": rng.choice(["first", "random"]),
                "seed": rng.randrange(2**53), "time_limit_ms": 50,
            }
            status, answer = post(request)
            if not check(status == 200, f"{request}: {status} {answer}") and status != 200:
                continue
            index = answer["index"]
            check(board[index] == ".", f"{request}: {index} is not empty")
            if wins:
                check(index in wins, f"{request}: missed an immediate win {wins}, played {index}")
            elif difficulty == "hard" and threats:
                check(index in threats, f"{request}: did not block {threats}, played {index}")
            check(post(request) == (200, answer), f"{request}: the same request answered differently")
            after = board[:]
            after[index] = mover
            check(answer["board"] == "".join(after), f"{request}: board after {answer['board']}")
            state = answer["status"]
            if has_line(after, all_lines, mover):
                check(
                    state["state"] == "win" and state["winner"] == mover and len(state["line"]) >= k
                    and all(after[i] == mover for i in state["line"]),
                    f"{request}: status {state}",
                )
            elif "." not in after:
                check(state["state"] == "draw", f"{request}: status {state}")
            else:
                check(state["state"] == "in_play", f"{request}: status {state}")
            # Gomoku boards (five in a row, or 100 cells or more) name cells in board notation:
            # the column's letter from the left, the row's number from the bottom.
            name = str(index)
            if k == 5 or cells >= 100:
                name = f"{chr(ord('a') + index % cols)}{rows - index // cols}"
                check(answer.get("coordinate") == name, f"{request}: coordinate {answer.get('coordinate')}")
            else:
                check("coordinate" not in answer, f"{request}: a coordinate on a small board")
            sentence = answer["explanation"]
            check(
                sentence.startswith(f"{mover} ") and name in sentence and sentence.endswith(".")
                and re.sub(r"\d\.\d", "", sentence).count(".") == 1,
                f"{request}: explanation {sentence!r}",
            )


# ---------------------------------------------------------------------------------------------
# 3. /metrics


def check_metrics():
    # A request with user input in the path and the method: neither may become a label.
    try:
        urllib.request.urlopen(urllib.request.Request(BASE + "/secret-user-path", method="BREWCOFFEE"))
    except urllib.error.HTTPError:
        pass
    with urllib.request.urlopen(BASE + "/metrics", timeout=10) as response:
        text = response.read().decode()
    check("secret-user-path" not in text and "BREWCOFFEE" not in text, "labels carry user input")
    try:
        from prometheus_client.parser import text_string_to_metric_families
    except ImportError:
        print("prometheus_client not installed: /metrics not parsed")
        return
    families = {f.name: f for f in text_string_to_metric_families(text)}
    for name in ("http_requests", "http_request_duration_seconds", "minimax_table_answers"):
        check(name in families, f"/metrics has {name}: {sorted(families)}")


check_3x3()
check_random()
check_metrics()
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
