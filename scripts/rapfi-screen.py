#!/usr/bin/env python3
"""A screen of an engine's moves judged by Rapfi (BENCHMARKS-search.md, "A screen judged by
Rapfi"): how much of Rapfi's expected score an engine's move gives away, on average, in positions
from real games. Losses against Rapfi are mostly gradual (many moves that each give away a
little), not one blunder into a forced win, so this screen measures every move, not only the
turning points of `turn-screen.py`.

Two steps:

    scripts/rapfi-screen.py build SEED N GAMES.sgf... > POSITIONS.tsv
        N positions drawn from every position of the games where minimax-move was to move, from
        ply 6 to ply 29, in a random order drawn from SEED; Rapfi (classical, JUDGE_MS) values
        each for the side to move, and positions it already sees as won or lost by force are
        left out. Prints `moves  rapfi's-move  value` lines.

    scripts/rapfi-screen.py play POSITIONS.tsv ENGINE[@ms] [ENGINE[@ms] ...]
        each ENGINE (`ENGINE pbrain`; a `pbrain-rapfi` path runs Rapfi itself) plays each
        position at its time (500 ms unless given), and Rapfi (JUDGE_MS) values the position after
        each distinct move, one after the other, so that every engine is judged under the same
        load and two engines that play the same move get the same value. Prints one line a
        position, then for each engine the mean expected score after its moves (a value v counts
        as 1 / (1 + exp(-v / 200)) for the side that moved, a forced win as 1), the mean loss
        against the value before the move, the moves lost by force and those that were Rapfi's;
        and for each engine after the first, its mean difference from the first, position by
        position, with a 95 % interval.

    RAPFI_DIR   the folder of pbrain-rapfi (default /tmp/gomoku-anchors/rapfi)
    JUDGE_MS    Rapfi's time a position as the judge, in both steps (default 300)
    COUNT       play only the first COUNT positions

Rapfi's searches end on its clock, so its values drift with the machine's load: compare engines
within one run, not across runs (BENCHMARKS-search.md measures the noise). Standard library
only.
"""
import math, os, random, sys

from gomocup_engine import WIN, Engine, match_games

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
    return Engine(["./pbrain-rapfi"], RAPFI_DIR, os.environ.get("JUDGE_MS", "300"), patience=10)


def build(seed, count, files):
    positions = []
    for path in files:
        for ours, _, moves in match_games(path):
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


def engine_for(spec):
    """An engine from `PATH[@ms]` (500 ms unless given)."""
    path, _, ms = spec.partition("@")
    command = [os.path.abspath(path)]
    cwd = os.path.dirname(command[0])
    if not os.path.basename(path).startswith("pbrain-rapfi"):
        command.append("pbrain")
        cwd = "/"
    return Engine(command, cwd, ms or "500", patience=30)


def play(listing, specs, count):
    rows = [line.rstrip("\n").split("\t") for line in open(listing)][:count]
    engines = [engine_for(spec) for spec in specs]
    judge = rapfi()
    # Per engine: the expected score after its move, position by position (None: no answer).
    scores = [[] for _ in specs]
    losses = [[] for _ in specs]
    forced = [0] * len(specs)
    agree = [0] * len(specs)
    for text, best, before in rows:
        moves = text.split()
        judged = {}
        line = [text, best, before]
        for i, engine in enumerate(engines):
            _, move = engine.ask(moves)
            if move is not None and move not in judged:
                judged[move], _ = judge.ask(moves + [move])
            after = judged.get(move)
            if after is None:
                scores[i].append(None)
                line += [str(move), "None", ""]
                continue
            score = 1 - expected(after)
            scores[i].append(score)
            losses[i].append(expected(int(before)) - score)
            forced[i] += after >= WIN // 2
            agree[i] += move == best
            line += [move, str(after), f"{score:.3f}"]
        print(*line, sep="\t", flush=True)
    for i, spec in enumerate(specs):
        mine = [s for s in scores[i] if s is not None]
        print(f"# {spec}: {len(mine)} positions, mean expected score {sum(mine) / len(mine):.4f}, "
              f"mean loss {sum(losses[i]) / len(losses[i]):.4f}, {forced[i]} lost by force, "
              f"{agree[i]} as Rapfi's move")
        if i == 0:
            continue
        pairs = [(a, b) for a, b in zip(scores[0], scores[i]) if a is not None and b is not None]
        diffs = [b - a for a, b in pairs]
        mean = sum(diffs) / len(diffs)
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1))
        print(f"#   against {specs[0]}: {mean:+.4f} +- {1.96 * sd / math.sqrt(len(diffs)):.4f} "
              f"(95 %) over {len(diffs)} positions, {sum(d != 0 for d in diffs)} with another "
              "value")


if __name__ == "__main__":
    if len(sys.argv) >= 5 and sys.argv[1] == "build":
        build(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:])
    elif len(sys.argv) >= 4 and sys.argv[1] == "play":
        count = int(os.environ.get("COUNT", 10**9))
        play(sys.argv[2], sys.argv[3:], count)
    else:
        sys.exit(__doc__)
