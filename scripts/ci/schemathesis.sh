#!/usr/bin/env bash
# Contract fuzzing: schemathesis generates requests from the committed openapi.yaml and runs them
# against the real release binary on a free loopback port, with every check. Zero failures are
# required. Bounded: --max-examples per operation, a per-request timeout, a per-response time
# limit, and `timeout` around the whole run.
#
#   bash scripts/ci/schemathesis.sh                 # fixed seed, as CI runs it
#   ST_SEED=$RANDOM ST_EXAMPLES=2000 bash scripts/ci/schemathesis.sh
#
# Installs schemathesis into .venv (created if missing) only when it is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/server.sh

SEED="${ST_SEED:-20261122}"
# Per operation, of the spec's eight; the examples, coverage and fuzzing phases add up to a few
# thousand cases in all at 500.
EXAMPLES="${ST_EXAMPLES:-500}"
MIN_CASES="${ST_MIN_CASES:-1000}"
OVERALL_TIMEOUT="${ST_TIMEOUT:-600}"
SPEC="${ST_SPEC:-openapi.yaml}"

VENV=.venv
[[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV"
[[ -x "$VENV/bin/st" ]] || "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==4.32.5"

ensure_release_binary
[[ -f "$SPEC" ]] || { echo "no $SPEC (generate it: $BINARY openapi > $SPEC)" >&2; exit 1; }
SPEC="$(realpath "$SPEC")"

# Searches get at most 200 ms, so that hypothesis's large boards do not make the run slow; every
# other setting is the default.
server_start MAX_TIME_LIMIT_MS=200

log="$(mktemp -t schemathesis.XXXXXX.log)"
echo "schemathesis against $SERVER_URL with $SPEC (seed $SEED, $EXAMPLES examples per operation)"

# Checks: all (the default), except
# - not_a_server_error on GET /v1/connect4/solve and POST /v1/trace alone, whose documented 503
#   `timeout` answers a position not proven, or a trace not finished, in time
#   (scripts/ci/lib/schemathesis.toml says why);
# - positive_data_acceptance: it expects every schema-valid request to be accepted, but a JSON
#   Schema cannot express what makes a board legal (each integer cell must equal its own index,
#   the counts of X and O may differ by at most one, at most one side may have a line, rows × cols
#   must equal the board's length, k at most max(rows, cols), the game must not be over). Schema-
#   valid but illegal boards are rightly answered 422 with a problem+json body naming the cell;
#   the rest of the contract (status codes, content types, response schemas, rejection of
#   schema-invalid requests) is still checked on every one of them.
# Hypothesis's per-example deadline is off in schemathesis 4; --max-response-time (a check that
# fails a slow response) and --request-timeout bound each case instead, `timeout` the whole run.
# Run from a scratch directory: schemathesis and hypothesis keep caches (.schemathesis,
# .hypothesis) in the working directory.
scratch="$(mktemp -d -t schemathesis.XXXXXX)"
root="$PWD"
set +e
(cd "$scratch" && timeout --kill-after=10 "$OVERALL_TIMEOUT" "$root/$VENV/bin/st" \
    --config-file "$root/scripts/ci/lib/schemathesis.toml" run "$SPEC" \
    --url "$SERVER_URL" \
    --exclude-checks positive_data_acceptance \
    --max-examples "$EXAMPLES" \
    --seed "$SEED" \
    --workers 2 \
    --request-timeout 10 \
    --max-response-time 5 \
    --continue-on-failure \
    --generation-database none \
    --no-color) 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e

if ((status == 124 || status == 137)); then
    echo "schemathesis: did not finish within ${OVERALL_TIMEOUT} s" >&2
    exit 1
fi
if ((status != 0)); then
    echo "schemathesis: FAILED (exit $status); log: $log" >&2
    exit "$status"
fi
# The summary says "Test cases:" and then "N generated, ...".
cases="$(grep -A1 '^Test cases:' "$log" | grep -oE '[0-9]+ generated' | grep -oE '[0-9]+' || echo 0)"
if ((cases < MIN_CASES)); then
    echo "schemathesis: only $cases cases generated, fewer than $MIN_CASES" >&2
    exit 1
fi
if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "schemathesis: the server died during the run" >&2
    exit 1
fi
echo "schemathesis: ok, $cases generated cases, no failures"
