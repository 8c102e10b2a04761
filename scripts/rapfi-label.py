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
answers, or stops, and is restarted.

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
