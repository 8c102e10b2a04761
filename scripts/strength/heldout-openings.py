#!/usr/bin/env python3
"""Held-out balanced 15 x 15 openings for scripts/strength/match.sh (OPENINGS=...): random 4-stone
openings in the central 7 x 7 cells, kept when Rapfi (its classical evaluation, 0.3 s) gives the
side to move an evaluation within +-120, until ten are kept (or 200 tried). The same seed draws
the same candidates. scripts/strength/openings/heldout-15.txt holds the openings of seeds 185 to
204, in that order.

    usage: scripts/strength/heldout-openings.py RAPFI_DIR [SEED, default 11] > openings.txt

RAPFI_DIR is the folder of pbrain-rapfi with its config.toml and model. Standard library only.
"""
import os, random, re, subprocess, sys
if len(sys.argv) < 2:
    sys.exit("usage: heldout-openings.py RAPFI_DIR [SEED] > openings.txt")
rapfi = sys.argv[1]
random.seed(int(sys.argv[2]) if len(sys.argv) > 2 else 11)
kept = []
tries = 0
while len(kept) < 10 and tries < 200:
    tries += 1
    cells = set()
    stones = []
    while len(stones) < 4:
        x, y = random.randint(4, 10), random.randint(4, 10)
        if (x, y) in cells: continue
        cells.add((x, y)); stones.append((x, y))
    pos = "".join(f"{chr(97+x)}{y+1}" for x, y in stones)
    # side to move = black (stones 0 and 2 are black): its own stones are 1.
    lines = ["START 15", "INFO timeout_turn 300", "INFO timeout_match 100000000",
             "INFO time_left 100000000", "INFO rule 0", "BOARD"]
    for i, (x, y) in enumerate(stones):
        lines.append(f"{x},{y},{1 if i % 2 == 0 else 2}")
    lines.append("DONE")
    # END only after the answer: Rapfi reads its input while it thinks, and an END that is
    # already waiting stops the search at once.
    engine = subprocess.Popen(["./pbrain-rapfi"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, cwd=rapfi)
    engine.stdin.write("\n".join(lines) + "\n")
    engine.stdin.flush()
    out = ""
    for line in engine.stdout:
        out += line
        if re.fullmatch(r"\d+,\d+", line.strip()):
            break
    engine.stdin.write("END\n")
    engine.stdin.close()
    engine.wait(timeout=30)
    evals = re.findall(r"Eval (-?\d+)", out)
    if not evals: continue
    ev = int(evals[-1])
    if abs(ev) <= 120:
        kept.append(pos)
        print(f"{pos}: Rapfi {ev:+d}", file=sys.stderr, flush=True)
print("\n".join(kept))
