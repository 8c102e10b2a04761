#!/usr/bin/env python3
"""Where our lost games turned, by Rapfi's judgement (BENCHMARKS-search.md, "Store forwarding"):
for every game of a match that minimax-move lost, Rapfi (classical, its search left to run for
the given time) evaluates the position before and after each of our first eleven moves after
the opening, from our side. Prints one line a move, tab-separated:

    game  ply  moves-before  our-move  rapfi's-move  eval-before  eval-after

(forced wins count as +-(30000 - plies)), then a summary: games already below -300 at our first
move, and games where one of our moves took a position Rapfi did not see as lost into one where it
found a forced win for the opponent. With ENGINE set, that engine (`ENGINE pbrain`, 0.5 s) then
plays the winner's side of each of those positions, and the summary says in how many its search
reports a win ("win in n" or an estimate above 0.9).

    RAPFI_DIR   the folder of pbrain-rapfi (default /tmp/gomoku-anchors/rapfi)
    ENGINE      a minimax-move binary (optional)
    usage: scripts/rapfi-turns.py OUT_DIR/games.sgf [ms a position, default 300]
"""
import os, re, subprocess, sys

from gomocup_engine import WIN, Engine, match_games
sgf = sys.argv[1]
ms = sys.argv[2] if len(sys.argv) > 2 else "300"
rapfi = os.environ.get("RAPFI_DIR", "/tmp/gomoku-anchors/rapfi")
# Without timeout_match and time_left Rapfi answers at once; END is never sent before its answer
# (an END already waiting stops its search).
rapfi_engine = Engine(["./pbrain-rapfi"], rapfi, ms, patience=10)
ask = rapfi_engine.ask


lost_at_start = turned = lost_games = 0
turns = []
for number, (ours, result, moves) in enumerate(match_games(sgf), start=1):
    if not result.startswith("W+" if ours == 0 else "B+"):
        continue
    lost_games += 1
    first = True
    for ply in range(4, min(len(moves), 26)):
        if ply % 2 != ours:
            continue
        before, best = ask(moves[:ply])
        after, _ = ask(moves[:ply + 1])
        after = None if after is None else -after
        print(f"{number}\t{ply}\t{' '.join(moves[:ply])}\t{moves[ply]}\t{best}\t{before}\t{after}",
              flush=True)
        if before is None or after is None:
            continue
        if first and before < -300:
            lost_at_start += 1
        first = False
        if before <= -WIN // 2:
            break
        if after <= -WIN // 2 and moves[ply] != best:
            turned += 1
            turns.append(" ".join(moves[:ply + 1]))
            break
rapfi_engine.send("END")
print(f"# {lost_games} lost games: {lost_at_start} below -300 at our first move; in {turned} one "
      f"of our moves turned a position not seen as lost into a forced win for the opponent")
if os.environ.get("ENGINE"):
    found = 0
    for line in turns:
        moves = line.split()
        me = len(moves) % 2
        board = [f"{ord(m[0]) - 97},{ord(m[1]) - 97},{1 if i % 2 == me else 2}"
                 for i, m in enumerate(moves)]
        text = "\n".join(["START 15", "INFO timeout_turn 500", "INFO rule 0", "BOARD", *board,
                          "DONE", "END"]) + "\n"
        out = subprocess.run([os.environ["ENGINE"], "pbrain"], input=text, capture_output=True,
                             text=True, timeout=60).stdout
        scores = re.findall(r"score (\S+)", out)
        last = scores[-1] if scores else "0"
        found += last == "win" or (last[0] in "+-0123456789" and float(last) > 0.9)
    print(f"# {os.environ['ENGINE']} finds the win in {found} of those {len(turns)}")
