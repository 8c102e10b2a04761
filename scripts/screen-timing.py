#!/usr/bin/env python3
"""The time an engine build takes for the same searches (BENCHMARKS-search.md, "Aspiration
windows, and smaller cells"): the first N positions of a `rapfi-turns.py` listing's screen (see
`turn-screen.py`), each given 10 s a move, so that a small `SEARCH_WORK_RATE` ends every search on
its work budget, not its clock. Two builds that search the same trees print the same lines but
for the times; the last line is the total time.

    usage: SEARCH_WORK_RATE=27000 scripts/screen-timing.py TURNS.tsv ENGINE [N, default 12]

Standard library only.
"""
import os, re, sys

from gomocup_engine import Engine, screen_positions

turns, engine_path = sys.argv[1], sys.argv[2]
count = int(sys.argv[3]) if len(sys.argv) > 3 else 12
engine = Engine([os.path.abspath(engine_path), "pbrain"], "/", "10000")
total = 0
for moves, _ in screen_positions(turns)[:count]:
    _, move = engine.ask(moves)
    for line in engine.messages:
        print(line)
        found = re.search(r"time (\d+) ms", line)
        total += int(found.group(1)) if found else 0
    print("MOVE", move, flush=True)
print(f"# {count} positions: {total} ms")
