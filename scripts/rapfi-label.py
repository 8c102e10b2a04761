#!/usr/bin/env python3
"""Rapfi's value of positions sampled from games, and its move there, for fitting the evaluation
(or the move ordering) to a strong engine's judgement rather than to game results
(`examples/fit-eval.rs` reads the output; BENCHMARKS-search.md, "Pair classes, Rapfi as a
teacher, cheaper threat checks" and "Rapfi's moves as a teacher"). From every game, one position
in EVERY (at a random offset, seeded, so a rerun picks the same) from the sixth stone to three
plies before the end; Rapfi (classical) searches each for MS milliseconds. Prints one line a
position, tab-separated:

    game  ply  value  move

`game` numbers the games from 0 in file order; the position is the game's first `ply` moves;
`value` is Rapfi's `Eval` for the side to move (forced wins as +-(30000 - plies)) and `move` its
move (SGF letters; `None` when it did not answer). Positions Rapfi gives no value are left out.
Given 50 ms, Rapfi answers in about 16 ms a position; in about one position in 10,000 it never
answers, or stops, and is restarted. `scripts/data/labels-rapfi.tsv` is one position in four of
`scripts/data/games-unique.sgf` (its moves were not kept); `scripts/data/labels-rapfi-moves.tsv`
is every position (EVERY 1) of games 0-159 and 1484-1709 of it: two runs side by side on the
file's two halves (games 0-1483 and 1484-2968, the second run's game numbers then raised by
1484), stopped after 20 minutes.

    RAPFI_DIR   the folder of pbrain-rapfi (default /tmp/gomoku-anchors/rapfi)
    usage: scripts/rapfi-label.py GAMES.sgf [MS, default 50] [EVERY, default 4] > labels.tsv
"""
import os, random, re, sys

from gomocup_engine import Engine
sgf = sys.argv[1]
ms = sys.argv[2] if len(sys.argv) > 2 else "50"
every = int(sys.argv[3]) if len(sys.argv) > 3 else 4
rapfi = Engine(["./pbrain-rapfi"], os.environ.get("RAPFI_DIR", "/tmp/gomoku-anchors/rapfi"), ms,
               patience=1.5)
rng = random.Random(1)
for game, text in enumerate(open(sgf).read().split("(;")[1:]):
    moves = re.findall(r";[BW]\[([a-o]{2})\]", text)
    offset = rng.randrange(every)
    for ply in range(6 + offset, len(moves) - 2, every):
        value, move = rapfi.ask(moves[:ply])
        if value is not None:
            print(f"{game}\t{ply}\t{value}\t{move}", flush=True)
