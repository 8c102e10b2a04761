#!/usr/bin/env bash
# Isolation of lookups from searches, bounded and loopback-only: 50 concurrent 15 x 15 searches
# (time_limit_ms 500) while a 3 x 3 lookup is timed every 20 ms. Prints the 15 x 15 answer times
# and statuses, the 3 x 3 latency percentiles, and the server's resident memory before and after.
#   bash scripts/ops/flood-latency.sh            (FLOOD=50 ROUNDS=3 by default)
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/server.sh
ensure_release_binary
server_start
FLOOD="${FLOOD:-50}" ROUNDS="${ROUNDS:-3}" URL="$SERVER_URL" PID="$SERVER_PID" timeout 120 python3 - <<'PY'
import json, os, threading, time, urllib.request, urllib.error

url, pid = os.environ["URL"], os.environ["PID"]
flood, rounds = int(os.environ["FLOOD"]), int(os.environ["ROUNDS"])

def rss_mib():
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024

def post(body, timeout=10):
    req = urllib.request.Request(url + "/v1/move", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            r.read()
            status = r.status
    except urllib.error.HTTPError as e:
        e.read()
        status = e.code
    return status, (time.perf_counter() - start) * 1000

big = {"board": "." * 112 + "X" + "." * 112, "rows": 15, "cols": 15, "k": 5, "time_limit_ms": 500}
small = {"board": ["O", 1, "X", "X", 4, "X", 6, "O", "O"], "moves": True}
rss_before = rss_mib()
for _ in range(3):
    post(small)
lone_status, lone_ms = post(big)
print(f"one 15x15 request alone (time_limit_ms 500): {lone_status} in {lone_ms:.0f} ms")
big_results, small_ms = [], []
for round_ in range(rounds):
    done = threading.Event()
    def flood_one():
        big_results.append(post(big))
    threads = [threading.Thread(target=flood_one) for _ in range(flood)]
    for t in threads:
        t.start()
    deadline = time.time() + 1.5
    while time.time() < deadline:
        status, ms = post(small)
        assert status == 200, status
        small_ms.append(ms)
        time.sleep(0.02)
    for t in threads:
        t.join(timeout=30)
small_ms.sort()
pct = lambda p: small_ms[min(len(small_ms) - 1, int(p / 100 * len(small_ms)))]
statuses = {}
for s, _ in big_results:
    statuses[s] = statuses.get(s, 0) + 1
ok_ms = sorted(ms for s, ms in big_results if s == 200)
print(f"{rounds} rounds of {flood} concurrent 15x15 requests: statuses {statuses}; "
      f"200s answered in max {max(ok_ms):.0f} ms" if ok_ms else "no 200s")
print(f"3x3 lookups during the floods: n={len(small_ms)} p50={pct(50):.2f} ms "
      f"p90={pct(90):.2f} ms p99={pct(99):.2f} ms max={small_ms[-1]:.2f} ms")
print(f"server RSS: {rss_before:.1f} MiB before, {rss_mib():.1f} MiB after")
PY
