#!/usr/bin/env bash
# The Connect Four book and solver against an independent oracle: the opening books of the PyPI
# package bitbully-databases (MIT; pinned), installed in the suite's venv only, never in the
# product. scripts/ci/lib/bitbully_samples.py reads its 8-stone, 12-stone and 12-stone-with-
# distances books with the package's own reader and writes positions and values to a file
# (deterministic for a seed); tests/engine/bitbully.rs solves them and backs the 8-stone book up
# to the engine's opening book.
#
#   bash scripts/ci/bitbully-check.sh            # the suite's tier
#   bash scripts/ci/bitbully-check.sh --ignored  # every 12-stone sample and 400 more 8-stone
#                                                # positions (minutes)
#
# Installs bitbully-databases into .venv (created if missing) only when it is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."

VENV=.venv
BITBULLY_VERSION=0.0.2
[[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV"
"$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('bitbully-databases') != '$BITBULLY_VERSION')" 2>/dev/null ||
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "bitbully-databases==$BITBULLY_VERSION"

samples="${CARGO_TARGET_DIR:-target}/bitbully-samples.txt"
mkdir -p "$(dirname "$samples")"
"$VENV/bin/python" scripts/ci/lib/bitbully_samples.py --out "$samples" --seed 1
tier=()
[[ "${1:-}" == "--ignored" ]] && tier=(--include-ignored)
BITBULLY_SAMPLES="$samples" cargo test --test engine bitbully -- "${tier[@]}"
