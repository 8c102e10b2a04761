#!/usr/bin/env python3
"""Match results read back from `scripts/strength/match.sh` output folders (OUT_DIR, its
games.sgf): each folder's score by our colour, all of them pooled (score and Elo with the 95 %
error, computed as match.sh computes one match's), and with `--against BASE`, each folder game by
game against BASE (the same openings in the same order): the games it won that BASE lost, and
those it lost that BASE won (half a point for a draw). Each folder's line also counts its openings
(the two games of one opening, one with each colour, as match.sh plays them) that we won with both
colours and lost with both. Use it to pool matches run side by side, or to compare a candidate
build with the release on the same openings.

    usage: scripts/strength/compare-matches.py [--against BASE_DIR] DIR [DIR ...]

Standard library only.
"""
import math, re, sys


def scores(folder):
    """Our score in each game of the folder's games.sgf (1, 0.5 or 0), and whether we were black."""
    games = []
    for game in open(f"{folder}/games.sgf", errors="replace").read().split("(;")[1:]:
        black = re.search(r"PB\[([^]]*)\]", game).group(1)
        result = re.search(r"RE\[([^]]*)\]", game).group(1)
        ours_black = "minimax" in black
        score = 0.5 if result[:1] not in ("B", "W") else float((result[0] == "B") == ours_black)
        games.append((score, ours_black))
    return games


args = sys.argv[1:]
base = None
if args[:1] == ["--against"]:
    base, args = scores(args[1]), args[2:]
if not args:
    sys.exit(__doc__)
pooled = []
for folder in args:
    games = scores(folder)
    pooled += [s for s, _ in games]
    by_colour = {c: sum(s for s, b in games if b == (c == "black")) for c in ("black", "white")}
    openings = list(zip(games[0::2], games[1::2]))
    both_won = sum(1 for a, b in openings if a[0] == b[0] == 1.0)
    both_lost = sum(1 for a, b in openings if a[0] == b[0] == 0.0)
    line = (
        f"{folder}: {sum(s for s, _ in games)} / {len(games)}; as black {by_colour['black']}, "
        f"as white {by_colour['white']}; openings won twice {both_won}, lost twice {both_lost}"
    )
    if base is not None:
        pairs = list(zip(base, games))
        won = sum(max(0.0, g[0] - b[0]) for b, g in pairs)
        lost = sum(max(0.0, b[0] - g[0]) for b, g in pairs)
        line += f"; against the base, game by game: won {won}, lost {lost} (of {len(pairs)})"
    print(line)
n = len(pooled)
mean = sum(pooled) / n
margin = 1.96 * math.sqrt(sum((x - mean) ** 2 for x in pooled) / (n - 1) / n) if n > 1 else 0.0
elo = lambda p: -400 * math.log10(1 / p - 1)
wins, losses = pooled.count(1.0), pooled.count(0.0)
summary = f"pooled: {n} games, W {wins} / L {losses} / D {n - wins - losses}, score {100 * mean:.1f} % (95 %: +/- {100 * margin:.1f})"
if 0 < mean - margin and mean + margin < 1:
    summary += f", Elo {elo(mean):+.0f} +/- {(elo(mean + margin) - elo(mean - margin)) / 2:.0f}"
print(summary)
