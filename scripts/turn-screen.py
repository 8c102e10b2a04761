#!/usr/bin/env python3
"""A quick screen of an engine's judgement of quiet moves (BENCHMARKS-search.md, "The evaluation
fitted to game results"): every position of a `scripts/rapfi-turns.py` listing where one of our
moves took a position Rapfi did not see as lost into one where it found a forced win for the
opponent. ENGINE (`ENGINE pbrain`, the given time a move) plays each of those positions again,
and Rapfi (classical, 0.3 s) judges the position after its move. Prints one line a position,
then how many positions are still lost and how many got the same move as before.

    RAPFI_DIR   the folder of pbrain-rapfi (default /tmp/gomoku-anchors/rapfi)
    usage: scripts/turn-screen.py TURNS.tsv ENGINE [ms a move, default 500]

scripts/data/turns-tune-vct-defence.tsv is the listing for the VCT-defence release's games on
the tuning openings (84 such positions). Both engines' searches end on their clocks, so a rerun
differs by a position or two.
"""
import os, sys

from gomocup_engine import WIN, Engine, screen_positions
turns, engine_path = sys.argv[1], sys.argv[2]
ms = sys.argv[3] if len(sys.argv) > 3 else "500"
rapfi_dir = os.environ.get("RAPFI_DIR", "/tmp/gomoku-anchors/rapfi")

positions = screen_positions(turns)

rapfi = Engine(["./pbrain-rapfi"], rapfi_dir, "300")
engine = Engine([os.path.abspath(engine_path), "pbrain"], "/", ms)
lost = same = 0
for moves, old in positions:
    _, move = engine.ask(moves)
    # Rapfi's value for the opponent, who moves next.
    after, _ = rapfi.ask(moves + [move])
    still_lost = after is not None and after >= WIN // 2
    lost += still_lost
    same += move == old
    print(" ".join(moves), old, move, after, "lost" if still_lost else "holds", flush=True)
print(f"# {len(positions)} positions: {lost} still lost, {same} with the same move as before")
