#!/usr/bin/env bash
# A rolling update without errors. Two replicas of the release binary behind HAProxy (Debian's;
# installed when missing), everything on 127.0.0.1. Under steady load through the balancer, each
# replica in turn gets SIGTERM (with SHUTDOWN_DELAY_MS, so the balancer's /readyz check sees it
# leave before its listener closes), exits, is started again, and rejoins once HAProxy reports it
# UP. Every request must succeed (200): no refused, reset or 5xx.
#
# Bounded: ROLLOVER_CLIENTS (default 8) clients, the whole script by `timeout`.
#
#   bash scripts/ci/rollover.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/server.sh
ensure_release_binary
command -v haproxy >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null

exec timeout --kill-after=5 120 python3 - "$BINARY" <<'PY'
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

BINARY = sys.argv[1]
CLIENTS = int(os.environ.get("ROLLOVER_CLIENTS", "8"))
DELAY_MS = int(os.environ.get("ROLLOVER_DELAY_MS", "1000"))
BODY = b'{"board":["O",1,"X","X",4,"X",6,"O","O"]}'


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


work = tempfile.mkdtemp(prefix="rollover.")
ports = [free_port(), free_port()]
front, stats = free_port(), free_port()
# Health check every 100 ms; one failed /readyz takes a replica out, one success brings it back.
# A refused connection is retried on the other replica (retry-on conn-failure, redispatch).
config = f"""
global
    maxconn 1000
defaults
    mode http
    timeout connect 1s
    timeout client 10s
    timeout server 10s
    retries 3
    retry-on conn-failure empty-response response-timeout
    option redispatch 1
frontend web
    bind 127.0.0.1:{front}
    default_backend replicas
frontend stats
    bind 127.0.0.1:{stats}
    stats enable
    stats uri /stats
backend replicas
    balance roundrobin
    option httpchk GET /readyz
    default-server inter 100ms fall 1 rise 1
    server a 127.0.0.1:{ports[0]} check
    server b 127.0.0.1:{ports[1]} check
"""
open(f"{work}/haproxy.cfg", "w").write(config)
haproxy = subprocess.Popen(["haproxy", "-f", f"{work}/haproxy.cfg"], stdout=subprocess.DEVNULL,
                           stderr=open(f"{work}/haproxy.log", "w"))


def start(i):
    env = dict(os.environ, HOST="127.0.0.1", PORT=str(ports[i]), SHUTDOWN_DELAY_MS=str(DELAY_MS),
               SHUTDOWN_GRACE_MS="5000")
    return subprocess.Popen([BINARY], env=env, stdout=open(f"{work}/replica{i}.log", "a"),
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)


def status(name):
    """A server's status in HAProxy, with its last health check's result appended once it has
    one: "UP L7OK", "DOWN L7STS", or "UP" alone before the first check."""
    with urllib.request.urlopen(f"http://127.0.0.1:{stats}/stats;csv", timeout=2) as r:
        for line in r.read().decode().splitlines():
            cols = line.split(",")
            if len(cols) > 36 and cols[0] == "replicas" and cols[1] == name:
                return f"{cols[17]} {cols[36]}".strip()
    return None


def wait_for(name, want, limit=15):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            if (status(name) or "").startswith(want):
                return True
        except OSError:
            pass
        time.sleep(0.02)
    return False


replicas = [start(0), start(1)]
failures = []
# HAProxy counts a server UP before its first check, and a replica listens (answering /readyz
# with 503) while it warms up: wait for a passed check of each, or a replica still warming up
# when the other gets SIGTERM leaves no server (seen once on a loaded machine: 292 requests got
# HAProxy's own 503).
if not (wait_for("a", "UP L7OK") and wait_for("b", "UP L7OK")):
    failures.append("the replicas never passed HAProxy's health check")

results = {"ok": 0}
errors = []
lock = threading.Lock()
stop = threading.Event()


def client():
    while not stop.is_set():
        try:
            s = socket.create_connection(("127.0.0.1", front), timeout=5)
            s.settimeout(10)
            s.sendall(b"POST /v1/move HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                      b"Content-Type: application/json\r\nContent-Length: "
                      + str(len(BODY)).encode() + b"\r\n\r\n" + BODY)
            raw = b""
            while chunk := s.recv(65536):
                raw += chunk
            s.close()
            ok = raw.startswith(b"HTTP/1.1 200") and b'"index":4' in raw
            with lock:
                if ok:
                    results["ok"] += 1
                else:
                    errors.append(raw[:120])
        except OSError as e:
            with lock:
                errors.append(repr(e))


threads = [threading.Thread(target=client, daemon=True) for _ in range(CLIENTS)]
started = time.monotonic()
if not failures:
    for t in threads:
        t.start()
    for i, name in enumerate("ab"):
        with lock:
            before = results["ok"]
        t0 = time.monotonic()
        replicas[i].send_signal(signal.SIGTERM)
        went_down = wait_for(name, "DOWN")
        code = replicas[i].wait(timeout=DELAY_MS / 1000 + 10)
        down_ms = (time.monotonic() - t0) * 1000
        if code != 0:
            failures.append(f"replica {name} exited with {code}")
        if not went_down:
            failures.append(f"HAProxy never marked {name} DOWN")
        replicas[i] = start(i)
        if not wait_for(name, "UP"):
            failures.append(f"replica {name} did not come back UP")
        print(f"replica {name}: SIGTERM, exit {code} after {down_ms:.0f} ms, restarted, UP again "
              f"after {(time.monotonic() - t0) * 1000:.0f} ms; {results['ok'] - before} requests served meanwhile")
    # Some load after both are back.
    with lock:
        mark = results["ok"]
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        with lock:
            if results["ok"] >= mark + 200:
                break
        time.sleep(0.02)
stop.set()
for t in threads:
    t.join(timeout=15)
elapsed = time.monotonic() - started
for p in replicas + [haproxy]:
    p.terminate()
for p in replicas + [haproxy]:
    try:
        p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
print(f"rollover: {CLIENTS} clients, {results['ok']} requests OK, {len(errors)} failed, "
      f"{elapsed:.1f} s, SHUTDOWN_DELAY_MS {DELAY_MS}")
for e in errors[:10]:
    failures.append(f"failed request: {e}")
if results["ok"] < 100:
    failures.append("fewer than 100 requests succeeded: the test proves nothing")
for f in failures:
    print("FAIL:", f, file=sys.stderr)
print("rollover: " + ("FAILED" if failures else "ok"))
sys.exit(1 if failures else 0)
PY
