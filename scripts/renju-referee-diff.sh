#!/usr/bin/env bash
# Differential test of the renju forbidden points (src/engine/renju.rs) against the Gomocup
# tournament referee's own checker, Piskvork's source/renju.cpp (checkforbid, line4v::foulr).
#
#   usage: scripts/renju-referee-diff.sh MIRROR_DIR [COUNT, default 2000] [SEED, default 1]
#
# MIRROR_DIR is a clone of https://github.com/plastovicka/Piskvork, bare or not. Piskvork is
# GPL: its renju.cpp is extracted into a temporary folder outside the repository, built there
# with g++ together with our harness and header stand-ins (scripts/lib/renju-referee/), and
# deleted afterwards; nothing of it enters the repository. The script
#   1. draws COUNT random 15 x 15 positions, black to move (scripts/lib/renju_positions.py);
#   2. has the referee judge every empty cell of each (black plays there: forbidden, and why);
#   3. runs the engine's test forbidden_points_match_the_gomocup_referee
#      (tests/engine/renju.rs) on those answers, which prints every mismatch with its board and
#      a summary: positions, cells checked, mismatches.
# It exits non-zero when a cell differs. RENJU_REFEREE_SAVE=FILE keeps the referee's answers
# (that is how tests/engine/data/renju-referee.txt, which the regular suite checks, was made:
# `RENJU_REFEREE_SAVE=tests/engine/data/renju-referee.txt scripts/renju-referee-diff.sh
# MIRROR_DIR 300 45`). Needs git, g++ (C++11), python3 and cargo.
set -euo pipefail

if [[ $# -lt 1 || $# -gt 3 ]]; then
    echo "usage: $0 MIRROR_DIR [COUNT] [SEED]" >&2
    exit 2
fi
mirror=$1
count=${2:-2000}
seed=${3:-1}
repo=$(cd "$(dirname "$0")/.." && pwd)

work=$(mktemp -d "${TMPDIR:-/tmp}/renju-referee.XXXXXX")
trap 'rm -rf "$work"' EXIT

if [[ -f $mirror/source/renju.cpp ]]; then
    cp "$mirror/source/renju.cpp" "$work/renju.cpp"
elif ! git --git-dir="$mirror" show HEAD:source/renju.cpp >"$work/renju.cpp" 2>/dev/null &&
    ! git --git-dir="$mirror/.git" show HEAD:source/renju.cpp >"$work/renju.cpp" 2>/dev/null; then
    echo "no source/renju.cpp in $mirror (a Piskvork clone, bare or not)" >&2
    exit 2
fi
cp "$repo"/scripts/lib/renju-referee/{hdr.h,piskvork.h,harness.cpp} "$work/"
g++ -std=c++11 -O2 -w -o "$work/referee" "$work/harness.cpp"

python3 "$repo/scripts/lib/renju_positions.py" "$count" "$seed" >"$work/boards.txt"
{
    echo "# The Gomocup referee's forbidden points (Piskvork source/renju.cpp, checkforbid), black to move:"
    echo "# $count random positions of scripts/lib/renju_positions.py, seed $seed. One position a line: the"
    echo "# board's rows from the top joined by '/' (X black, O white, . empty), then each forbidden"
    echo "# cell as coordinate:reason (column letter from the left, row from 1 at the bottom), or '-'."
    "$work/referee" <"$work/boards.txt"
} >"$work/cases.txt"
if [[ -n ${RENJU_REFEREE_SAVE:-} ]]; then
    cp "$work/cases.txt" "$RENJU_REFEREE_SAVE"
fi

cd "$repo"
RENJU_REFEREE_CASES="$work/cases.txt" cargo test --test engine -- --exact --nocapture \
    renju::forbidden_points_match_the_gomocup_referee
