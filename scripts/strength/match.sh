#!/usr/bin/env bash
# Plays minimax-move (as a Gomocup brain, `minimax-move pbrain`) against another Gomocup engine
# with the c-gomoku-cli match manager, and prints wins/losses/draws, the score and the Elo
# difference with its 95 % error. Not part of CI: it needs third-party engines built on your
# machine (AIWine: github.com/jinjiebang/AIWine; Rapfi: github.com/dhbloo/rapfi with a classical
# model from github.com/dhbloo/rapfi-networks; the manager: github.com/dhbloo/c-gomoku-cli).
# docs/strength.md has the commands behind its figures.
#
#   usage: OPPONENT=/path/to/pbrain-wine bash scripts/strength/match.sh
#
# Relative paths are taken from the repository's root.
#   OPPONENT  any Gomocup engine; Rapfi needs its config.toml and model beside it (the manager
#             runs an engine from its own folder)                                      (required)
#   ENGINE    our binary, run with the `pbrain` argument   (default target/release/minimax-move)
#   MANAGER   c-gomoku-cli                                   (default: c-gomoku-cli on the PATH)
#   OPENINGS  one opening a line in "pos" notation (f14e9e7g7: column letter, row from 1)
#                     (default scripts/strength/openings/heldout-15.txt, on 20 x 20 heldout-20.txt)
#   TIME_MS   thinking time a move for both sides, in milliseconds                 (default 500)
#   OUR_TIME_MS  our thinking time a move, when it is to differ from the opponent's, as in
#             "what does twice the time buy?"                               (default TIME_MS)
#   GAMES     games in all; each opening is played twice with colours swapped, in file order
#                                                  (default: two for each line of OPENINGS)
#   ROUNDS    repeat the whole match this many times (the engines mostly replay the same
#             games: count distinct games, or use more openings)                     (default 1)
#   OUT_DIR   where the games (SGF), the engines' messages and the manager's log go
#                                                                      (default: a temp folder)
#   BOARD     the board's side, 15 or 20                                            (default 15)
#   RULE      the Gomocup rule number: 0 freestyle (five or more wins), 1 standard (exactly
#             five), 4 renju, 8 caro; the manager adjudicates it (under renju a forbidden
#             move by black loses, and is counted in the endings)                    (default 0)
#   VIA       `pbrain` (the engine in-process) or `http`: ENGINE serves on 127.0.0.1:HTTP_PORT
#             and scripts/strength/pbrain-http.py asks POST /v1/move for every move, so the match
#             measures the service as clients see it              (default pbrain; HTTP_PORT 18080)
#
# One game at a time.
set -euo pipefail
cd "$(dirname "$0")/../.."

board=${BOARD:-15}
rule=${RULE:-0}

engine=${ENGINE:-target/release/minimax-move}
opponent=${OPPONENT:-}
manager=${MANAGER:-$(command -v c-gomoku-cli || echo c-gomoku-cli)}
openings=${OPENINGS:-scripts/strength/openings/heldout-$board.txt}
time_ms=${TIME_MS:-500}
our_time_ms=${OUR_TIME_MS:-$time_ms}
rounds=${ROUNDS:-1}
via=${VIA:-pbrain}
http_port=${HTTP_PORT:-18080}

missing=0
need_executable() {  # what, path, how to get it
  if [ -z "$2" ]; then
    echo "missing $1: not set ($3)" >&2
    missing=1
  elif [ ! -f "$2" ] || [ ! -x "$2" ]; then
    echo "missing $1: $2 is not an executable file ($3)" >&2
    missing=1
  fi
}
need_executable "engine (ENGINE)" "$engine" "build it with: cargo build --release"
need_executable "opponent (OPPONENT)" "$opponent" \
  "set OPPONENT to a Gomocup engine built on your machine, such as AIWine's pbrain-wine"
need_executable "match manager (MANAGER)" "$manager" \
  "set MANAGER to c-gomoku-cli, or put it on the PATH"
if [ ! -f "$openings" ]; then
  echo "missing openings (OPENINGS): $openings is not a file" >&2
  missing=1
fi
command -v python3 >/dev/null || { echo "missing python3 (computes the Elo difference)" >&2; missing=1; }
[[ "$time_ms" =~ ^[1-9][0-9]*$ ]] || { echo "TIME_MS must be a positive whole number, got '$time_ms'" >&2; missing=1; }
[[ "$our_time_ms" =~ ^[1-9][0-9]*$ ]] || { echo "OUR_TIME_MS must be a positive whole number, got '$our_time_ms'" >&2; missing=1; }
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS must be a positive whole number, got '$rounds'" >&2; missing=1; }
[[ "$board" == 15 || "$board" == 20 ]] || { echo "BOARD must be 15 or 20, got '$board'" >&2; missing=1; }
[[ "$rule" =~ ^(0|1|4|8)$ ]] || { echo "RULE must be 0, 1, 4 or 8, got '$rule'" >&2; missing=1; }
[[ "$via" == pbrain || "$via" == http ]] || { echo "VIA must be pbrain or http, got '$via'" >&2; missing=1; }
command -v curl >/dev/null || [ "$via" = pbrain ] || { echo "missing curl (VIA=http waits for the server with it)" >&2; missing=1; }
[ "$missing" = 0 ] || exit 2

opening_count=$(grep -c '[a-z][0-9]' "$openings" || true)
games=${GAMES:-$((2 * opening_count))}
[[ "$games" =~ ^[1-9][0-9]*$ ]] || { echo "GAMES must be a positive whole number, got '$games'" >&2; exit 2; }

out=${OUT_DIR:-$(mktemp -d /tmp/minimax-match.XXXXXX)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
abs() { (cd "$(dirname "$1")" && echo "$(pwd)/$(basename "$1")"); }
engine=$(abs "$engine")
opponent=$(abs "$opponent")
manager=$(abs "$manager")
openings=$(abs "$openings")

# The manager splits a command on spaces; a wrapper without spaces in its path carries the
# `pbrain` argument (and any path with spaces) safely.
wrapper="$out/minimax-move-pbrain"
if [ "$via" = http ]; then
  # The service on embedded defaults (as in production, SEARCH_WORK_RATE included), on loopback.
  HOST=127.0.0.1 PORT="$http_port" "$engine" > "$out/server.log" 2>&1 &
  server=$!
  trap 'kill "$server" 2>/dev/null || true' EXIT
  for _ in $(seq 100); do
    curl -fs "http://127.0.0.1:$http_port/healthz" >/dev/null 2>&1 && break
    sleep 0.1
  done
  curl -fs "http://127.0.0.1:$http_port/healthz" >/dev/null || { echo "the server did not start; see $out/server.log" >&2; exit 1; }
  printf '#!/bin/sh\nMINIMAX_URL=http://127.0.0.1:%s exec python3 "%s" "$@"\n' "$http_port" "$(pwd)/scripts/strength/pbrain-http.py" > "$wrapper"
else
  printf '#!/bin/sh\nexec "%s" pbrain "$@"\n' "$engine" > "$wrapper"
fi
chmod +x "$wrapper"

ours=minimax-move
theirs=$(basename "$opponent")
[ "$theirs" = "$ours" ] && theirs="$ours-opponent"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD -- src 2>/dev/null || commit="$commit+dirty"
seconds=$(python3 -c "print($time_ms / 1000)")
our_seconds=$(python3 -c "print($our_time_ms / 1000)")
if [ "$our_time_ms" = "$time_ms" ]; then
  times="$time_ms ms a move"
else
  times="$our_time_ms ms a move for minimax-move, $time_ms ms for $theirs"
fi

rule_name=$(case "$rule" in 0) echo freestyle;; 1) echo standard;; 4) echo renju;; 8) echo caro;; esac)
echo "minimax-move ($commit, via $via) vs $theirs: $games games x $rounds round(s), $times, $board x $board $rule_name"
echo "openings: $openings; output: $out"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown) on $(nproc) cores"
started=$(date +%s)
"$manager" \
  -engine "name=$ours" "cmd=$wrapper" "tc=0/$our_seconds" \
  -engine "name=$theirs" "cmd=$opponent" "tc=0/$seconds" \
  -rule "$rule" -boardsize "$board" -concurrency 1 -repeat \
  -games "$games" -rounds "$rounds" \
  -openings "file=$openings" type=pos order=sequential \
  -sgf "$out/games.sgf" -msg "$out/messages.txt" \
  > "$out/manager.log" 2>&1 || { echo "the match manager failed; see $out/manager.log:" >&2; tail -n 20 "$out/manager.log" >&2; exit 1; }
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown); $(( $(date +%s) - started )) s"

python3 - "$out/manager.log" "$ours" "$out/messages.txt" "$our_time_ms" <<'EOF'
import math, re, statistics, sys
log, ours, messages, time_ms = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
finished = re.compile(r"Finished game \d+ \((.+) vs (.+)\): (1-0|0-1|1/2-1/2) \{(.*)\}")
scores, reasons = [], {}
for line in open(log, encoding="utf-8", errors="replace"):
    m = finished.search(line)
    if not m:
        continue
    black, white, result, reason = m.groups()
    black_score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
    scores.append(black_score if black == ours else 1.0 - black_score)
    reasons[reason] = reasons.get(reason, 0) + 1
tally = [line.strip() for line in open(log, encoding="utf-8", errors="replace") if line.startswith("Score of")]
n = len(scores)
if n == 0:
    sys.exit(f"no finished games in {log}")
wins, losses = scores.count(1.0), scores.count(0.0)
draws = n - wins - losses
s = sum(scores) / n
sd = math.sqrt(sum((x - s) ** 2 for x in scores) / (n - 1)) if n > 1 else 0.0
margin = 1.96 * sd / math.sqrt(n)
elo = lambda p: -400 * math.log10(1 / p - 1)
print(f"games {n}: W {wins} / L {losses} / D {draws}, score {100 * s:.1f} % (95 %: +/- {100 * margin:.1f})")
if tally:
    print(f"manager: {tally[-1]}")
thinking = re.compile(r"\) " + re.escape(ours) + r": depth (\d+) .* time (\d+) ms")
moves = [tuple(map(int, m.groups())) for m in map(thinking.search, open(messages, errors="replace")) if m]
# Through HTTP the adapter reports the round trip's time (no depth).
http = re.compile(r"\) " + re.escape(ours) + r": http .* time (\d+) ms")
trips = [int(m.group(1)) for m in map(http.search, open(messages, errors="replace")) if m]
if trips:
    spent = statistics.median(trips)
    print(f"our moves: {len(trips)} through POST /v1/move, median round trip {spent:g} ms ({100 * spent / time_ms:.0f} % of {time_ms} ms)")
if moves:
    depth, spent = statistics.median(d for d, _ in moves), statistics.median(t for _, t in moves)
    print(f"our moves: {len(moves)}, median depth {depth:g}, median time {spent:g} ms ({100 * spent / time_ms:.0f} % of {time_ms} ms)")
print("endings: " + ", ".join(f"{k}: {v}" for k, v in sorted(reasons.items())))
if 0 < s - margin and s + margin < 1:
    print(f"Elo difference {elo(s):+.0f} +/- {(elo(s + margin) - elo(s - margin)) / 2:.0f} (95 %)")
elif 0 < s < 1:
    # The score's interval reaches 0 % or 100 %, where the Elo scale ends: give the interval.
    low = elo(s - margin) if s - margin > 0 else -math.inf
    high = elo(s + margin) if s + margin < 1 else math.inf
    print(f"Elo difference {elo(s):+.0f}, 95 % interval [{low:+.0f}, {high:+.0f}]")
elif n >= 6:
    # Every game won or lost: the estimate is unbounded; the rule of three bounds the true score
    # by 3/n (95 %), which bounds the Elo difference.
    bound = 3 / n
    if s == 0:
        print(f"Elo difference -inf (below {elo(bound):+.0f} at 95 %, rule of three)")
    else:
        print(f"Elo difference +inf (above {elo(1 - bound):+.0f} at 95 %, rule of three)")
else:
    print("Elo difference unbounded (every game had the same result; too few games to bound it)")
EOF
