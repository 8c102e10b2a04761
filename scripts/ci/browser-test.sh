#!/usr/bin/env bash
# Browser tests of the game page: headless Debian chromium (never a downloaded browser) driven by
# playwright-core, against the real release binary. Installs whatever is missing, then runs
# tests/browser/play.mjs (which runs goban.mjs, trace.mjs and analysis.mjs too). Run from the
# repository root (works from a fresh clone).
#
#   scripts/ci/browser-test.sh            # the last line of output is "N passed, M failed"
#
# Environment: CHROMIUM (default /usr/bin/chromium), SKIP_BUILD=1 to use the existing binary,
# CARGO_TARGET_DIR (the binary is looked for there), GAMES_PER_SIDE and SEED (see
# tests/browser/play.mjs).
set -euo pipefail

cd "$(dirname "$0")/../.."
export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
export MINIMAX_BIN="${MINIMAX_BIN:-${CARGO_TARGET_DIR:-target}/release/minimax-move}"
# playwright-core never downloads browsers; make sure nothing else tries either.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo -n "$@"; else
    echo "browser-test: need root to run: $*" >&2; return 1; fi
}

if [ ! -x "$CHROMIUM" ]; then
  echo "browser-test: installing chromium from apt" >&2
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -q
  as_root apt-get install -y -q --no-install-recommends chromium
fi

if ! command -v node >/dev/null 2>&1; then
  echo "browser-test: installing nodejs and npm from apt" >&2
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -q
  as_root apt-get install -y -q --no-install-recommends nodejs npm
fi

if [ ! -d tests/browser/node_modules/playwright-core ]; then
  echo "browser-test: installing npm packages" >&2
  if [ -f tests/browser/package-lock.json ]; then
    (cd tests/browser && npm ci --no-audit --no-fund)
  else
    (cd tests/browser && npm install --no-audit --no-fund)
  fi
fi

# The page is compiled into the binary (include_str!), so cargo rebuilds when a file in static/
# changes; cargo itself decides whether anything is out of date.
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  cargo build --release
fi

exec timeout --kill-after=10 450 node tests/browser/play.mjs
