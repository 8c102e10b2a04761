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

WIN = 30000
sgf = sys.argv[1]
ms = sys.argv[2] if len(sys.argv) > 2 else "300"
rapfi = os.environ.get("RAPFI_DIR", "/tmp/gomoku-anchors/rapfi")
engine = subprocess.Popen(["./pbrain-rapfi"], cwd=rapfi, stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)


def send(line):
    engine.stdin.write(line + "\n")
    engine.stdin.flush()


def until_ok():
    while engine.stdout.readline().strip() != "OK":
        pass


# time_left and timeout_match matter: without them Rapfi answers at once. END is sent only at
# the very end: an END already waiting stops its search.
send("START 15"); until_ok()
for info in (f"timeout_turn {ms}", "timeout_match 1000000000", "time_left 1000000000", "rule 0"):
    send("INFO " + info)


def ask(moves):
    """Rapfi's evaluation for the side to move, and its move."""
    me = len(moves) % 2
    send("RESTART"); until_ok()
    send("BOARD")
    for i, m in enumerate(moves):
        send(f"{ord(m[0]) - 97},{ord(m[1]) - 97},{1 if i % 2 == me else 2}")
    send("DONE")
    value = None
    while True:
        line = engine.stdout.readline().strip()
        found = re.search(r"Eval ([-+]?M?\d+)", line)
        if found:
            text = found.group(1).lstrip("+")
            if text.startswith("M"):
                value = WIN - int(text[1:])
            elif text.startswith("-M"):
                value = -(WIN - int(text[2:]))
            else:
                value = int(text)
        if re.fullmatch(r"\d+,\d+", line):
            x, y = map(int, line.split(","))
            return value, chr(97 + x) + chr(97 + y)


lost_at_start = turned = lost_games = 0
turns = []
for number, game in enumerate(open(sgf).read().split("(;FF")[1:], start=1):
    black = re.search(r"PB\[([^\]]*)\]", game).group(1) == "minimax-move"
    result = re.search(r"RE\[([^\]]*)\]", game).group(1)
    if not ((result.startswith("W+") and black) or (result.startswith("B+") and not black)):
        continue
    lost_games += 1
    moves = re.findall(r";[BW]\[([a-o]{2})\]", game)
    ours = 0 if black else 1
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
send("END")
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
