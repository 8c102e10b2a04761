#!/usr/bin/env python3
"""A screen of an engine's moves judged by Rapfi (BENCHMARKS-search.md, "A screen judged by
Rapfi"): how much of Rapfi's expected score an engine's move gives away, on average, in positions
from real games. Losses against Rapfi are mostly gradual (many moves that each give away a
little), not one blunder into a forced win, so this screen measures every move, not only the
turning points of `turn-screen.py`.

Two steps:

    scripts/rapfi-screen.py build SEED N GAMES.sgf... > POSITIONS.tsv
        N positions drawn from every position of the games where minimax-move was to move, from ply 6 to ply 29, in a
        random order drawn from SEED; Rapfi (classical, 300 ms) values each for the side to
        move, and positions it already sees as won or lost by force are left out. Prints
        `moves  rapfi's-move  value` lines.

    scripts/rapfi-screen.py play POSITIONS.tsv ENGINE [ms a move, default 500] [N positions]
        ENGINE (`ENGINE pbrain`; a `pbrain-rapfi` path runs Rapfi itself, as a ceiling) plays each
        position at the given time, and Rapfi (300 ms) values the position after its move. Prints
        one line a position, then the mean expected score after the engine's moves (a value v
        counts as 1 / (1 + exp(-v / 200)) for the side that moved, a forced win as 1), the mean
        loss against the value before the move, and how many moves lost more than 0.1, or lost
        by force.

    RAPFI_DIR   the folder of pbrain-rapfi (default /tmp/gomoku-anchors/rapfi)

Rapfi's searches end on its clock and ours on its work budget, so a rerun differs a little (the
noise is measured in BENCHMARKS-search.md). Standard library only.
"""
import math, os, random, re, sys

from gomocup_engine import WIN, Engine

RAPFI_DIR = os.environ.get("RAPFI_DIR", "/tmp/gomoku-anchors/rapfi")
# Rapfi's values are in its own units; 200 of them are about e : 1 odds.
SCALE = 200


def expected(value):
    """The expected score of a Rapfi value for the side it is given for."""
    if value >= WIN // 2:
        return 1.0
    if value <= -WIN // 2:
        return 0.0
    return 1 / (1 + math.exp(-value / SCALE))


def rapfi():
    # A patience: Rapfi, now and then, never answers.
    return Engine(["./pbrain-rapfi"], RAPFI_DIR, "300", patience=10)


def build(seed, count, files):
    positions = []
    for path in files:
        for game in open(path).read().split("(;FF")[1:]:
            black = re.search(r"PB\[([^\]]*)\]", game).group(1) == "minimax-move"
            moves = re.findall(r";[BW]\[([a-o]{2})\]", game)
            ours = 0 if black else 1
            # The position must not be over: our move there is not the last of the game.
            for ply in range(6, min(len(moves) - 1, 30)):
                if ply % 2 == ours:
                    positions.append(moves[:ply])
    random.Random(seed).shuffle(positions)
    judge = rapfi()
    kept = 0
    for moves in positions:
        if kept == count:
            break
        value, best = judge.ask(moves)
        if value is None or best is None or abs(value) >= WIN // 2:
            continue
        kept += 1
        print(" ".join(moves), best, value, sep="\t", flush=True)


def play(listing, engine_path, ms, count):
    rows = [line.rstrip("\n").split("\t") for line in open(listing)][:count]
    command = [os.path.abspath(engine_path)]
    cwd = os.path.dirname(command[0])
    if not os.path.basename(engine_path).startswith("pbrain-rapfi"):
        command.append("pbrain")
        cwd = "/"
    engine = Engine(command, cwd, ms, patience=30)
    judge = rapfi()
    total = loss = bad = lost = same = n = 0
    for text, best, before in rows:
        moves = text.split()
        _, move = engine.ask(moves)
        if move is None:
            continue
        after, _ = judge.ask(moves + [move])
        if after is None:
            continue
        score = 1 - expected(after)
        drop = expected(int(before)) - score
        n += 1
        total += score
        loss += drop
        bad += drop > 0.1
        lost += after >= WIN // 2
        same += move == best
        print(text, best, move, before, after, f"{score:.3f}", sep="\t", flush=True)
    print(f"# {n} positions: mean expected score {total / n:.4f}, mean loss {loss / n:.4f}, "
          f"{bad} moves lost more than 0.1, {lost} lost by force, {same} as Rapfi's move")


if __name__ == "__main__":
    if len(sys.argv) >= 5 and sys.argv[1] == "build":
        build(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:])
    elif len(sys.argv) >= 4 and sys.argv[1] == "play":
        play(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else "500",
             int(sys.argv[5]) if len(sys.argv) > 5 else 10**9)
    else:
        sys.exit(__doc__)
