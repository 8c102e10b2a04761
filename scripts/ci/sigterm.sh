#!/usr/bin/env bash
# SIGTERM in the middle of load. Starts the release binary on a free 127.0.0.1 port, drives it
# with concurrent clients (slow 7 × 7 searches with time_limit_ms 300, which mostly queue and are
# shed with 503, mixed with 3 × 3 lookups), each request on a fresh connection, and with
# SIGTERM_KEEPALIVE_CLIENTS more that send 3 × 3 lookups one after another on one kept-alive
# connection each, sends SIGTERM after SIGTERM_AFTER seconds, and checks:
#
#   - every request that the server had accepted got a complete response: a 200 or a 503, with
#     the whole body its Content-Length promised, and JSON in it; no reset, no truncation;
#   - every request sent on a kept-alive connection got one: the server closes such a connection
#     only after an answer that says `Connection: close`, or while it is idle (which a client
#     sees before it sends, as HTTP clients' connection pools check);
#   - the process exits with status 0 within its grace period (SHUTDOWN_GRACE_MS).
#
# A request counts as accepted when it was sent at least ACCEPT_MARGIN_MS before the signal (the
# server accepts connections as they come, so by then it has them). Requests sent later may find
# the listener closed: their SYN goes unanswered and then the port is closed (refused), which is
# the intended behaviour, counted and reported, not a failure. A reset, a broken pipe or a
# partial response is a failure whenever it happens: the server completes no handshake it does
# not then serve.
#
#   bash scripts/ci/sigterm.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/server.sh
ensure_release_binary

exec timeout --kill-after=5 300 python3 - "$BINARY" <<'PY'
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time

BINARY = sys.argv[1]
GRACE_MS = int(os.environ.get("SHUTDOWN_GRACE_MS", "10000"))
SIGTERM_AFTER = float(os.environ.get("SIGTERM_AFTER", "2.0"))
CLIENTS = int(os.environ.get("SIGTERM_CLIENTS", "24"))
KEEPALIVE_CLIENTS = int(os.environ.get("SIGTERM_KEEPALIVE_CLIENTS", "8"))
ROUNDS = int(os.environ.get("SIGTERM_ROUNDS", "3"))
# Every second round keeps accepting for a while after the signal (as behind a load balancer).
DELAY_MS = int(os.environ.get("SIGTERM_DELAY_MS", "300"))
SLOW = json.dumps({"board": "." * 49, "rows": 7, "cols": 7, "k": 5, "time_limit_ms": 300})
FAST = json.dumps({"board": ["O", 1, "X", "X", 4, "X", 6, "O", "O"], "moves": True})
LOSSES = ("reset", "broken pipe", "partial", "bad")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def one_request(port, body, timeout=15.0):
    """One POST over a fresh connection. Returns (sent_at, outcome, detail)."""
    sent_at = time.monotonic()
    chunks = []
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=3)
    except OSError as e:
        # Refused (port closed) or no SYN-ACK (the listener drops new handshakes while it drains):
        # the connection never existed, nothing was lost.
        return sent_at, "refused", repr(e)
    try:
        sock.settimeout(timeout)
        data = body.encode()
        sock.sendall(b"POST /v1/move HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                     b"Content-Type: application/json\r\nContent-Length: "
                     + str(len(data)).encode() + b"\r\n\r\n" + data)
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    except OSError as e:
        got = b"".join(chunks)
        if got:
            kind = "partial"
        elif isinstance(e, BrokenPipeError):
            kind = "broken pipe"
        else:
            kind = "reset"
        return sent_at, kind, f"{e!r} after {len(got)} bytes"
    finally:
        sock.close()
    raw = b"".join(chunks)
    if not raw:
        return sent_at, "reset", "EOF before any byte"
    head, sep, payload = raw.partition(b"\r\n\r\n")
    if not sep:
        return sent_at, "partial", f"no end of headers in {len(raw)} bytes"
    lines = head.decode("latin-1").split("\r\n")
    try:
        status = int(lines[0].split(" ")[1])
    except (IndexError, ValueError):
        return sent_at, "partial", f"bad status line {lines[0]!r}"
    headers = {k.strip().lower(): v.strip() for k, _, v in (l.partition(":") for l in lines[1:])}
    length = headers.get("content-length")
    if length is None or int(length) != len(payload):
        return sent_at, "partial", f"status {status}, content-length {length}, got {len(payload)} bytes"
    try:
        json.loads(payload)
    except ValueError:
        return sent_at, "partial", f"status {status}: body is not JSON"
    if status == 503 and "retry-after" not in headers:
        return sent_at, "bad", "503 without Retry-After"
    if status not in (200, 503):
        return sent_at, "bad", f"status {status}: {payload[:200]!r}"
    return sent_at, str(status), ""


def read_answer(sock):
    """One response on a kept-alive connection: (outcome, detail, closes), `closes` when it says
    `Connection: close`."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return ("partial" if data else "reset"), f"end of stream after {len(data)} bytes", True
        data += chunk
    head, _, payload = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (l.partition(":") for l in lines[1:])}
    length = int(headers.get("content-length", "-1"))
    while 0 <= length and len(payload) < length:
        chunk = sock.recv(65536)
        if not chunk:
            return "partial", f"body cut at {len(payload)} of {length} bytes", True
        payload += chunk
    status = lines[0].split(" ")[1] if " " in lines[0] else "?"
    closes = headers.get("connection", "").lower() == "close"
    if status not in ("200", "503") or length < 0:
        return "bad", f"{lines[0]!r}, content-length {length}", closes
    return status, "", closes


def closed_while_idle(sock):
    """Whether the server closed the connection while no request was outstanding."""
    readable, _, _ = select.select([sock], [], [], 0)
    if not readable:
        return False
    try:
        return sock.recv(1, socket.MSG_PEEK) == b""
    except OSError:
        return True


def kept_alive_client(port, stop, record):
    """3 × 3 lookups one after another on one connection; a new connection when the server
    closes one, until the port is closed."""
    data = FAST.encode()
    request = (b"POST /v1/move HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
               b"Content-Length: " + str(len(data)).encode() + b"\r\n\r\n" + data)
    while not stop.is_set():
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=3)
        except OSError as e:
            record(time.monotonic(), "refused", repr(e), False)
            return
        with sock:
            sock.settimeout(15)
            while not stop.is_set():
                if closed_while_idle(sock):
                    break
                sent_at = time.monotonic()
                try:
                    sock.sendall(request)
                    outcome, detail, closes = read_answer(sock)
                except OSError as e:
                    outcome, detail, closes = ("broken pipe" if isinstance(e, BrokenPipeError)
                                               else "reset"), repr(e), True
                record(sent_at, outcome, "kept-alive: " + detail, False)
                if closes:
                    break


def one_round(number):
    port = free_port()
    delay = DELAY_MS if number % 2 == 0 else 0
    env = dict(os.environ, HOST="127.0.0.1", PORT=str(port), RUST_LOG="info",
               SHUTDOWN_GRACE_MS=str(GRACE_MS), SHUTDOWN_DELAY_MS=str(delay))
    log_path = os.environ.get("SIGTERM_LOG", "/tmp/minimax-move-sigterm.log")
    log = open(f"{log_path}.{number}", "w")
    server = subprocess.Popen([BINARY], env=env, stdout=log, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                s.sendall(b"GET /readyz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                if s.recv(64).startswith(b"HTTP/1.1 200"):
                    break
        except OSError:
            pass
        if time.monotonic() > deadline or server.poll() is not None:
            server.kill()
            return [f"round {number}: the server did not become ready"]
        time.sleep(0.05)

    results = []
    lock = threading.Lock()
    stop = threading.Event()

    def client(n):
        i = 0
        while not stop.is_set():
            body = SLOW if (n + i) % 3 else FAST
            i += 1
            sent_at, outcome, detail = one_request(port, body)
            with lock:
                results.append((sent_at, outcome, detail, body is SLOW))
            if outcome == "refused":
                return

    def record(sent_at, outcome, detail, slow):
        with lock:
            results.append((sent_at, outcome, detail, slow))

    threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(CLIENTS)]
    threads += [threading.Thread(target=kept_alive_client, args=(port, stop, record), daemon=True)
                for _ in range(KEEPALIVE_CLIENTS)]
    for t in threads:
        t.start()
    time.sleep(SIGTERM_AFTER)
    signalled = time.monotonic()
    server.send_signal(signal.SIGTERM)
    try:
        code = server.wait(timeout=GRACE_MS / 1000 + 5)
    except subprocess.TimeoutExpired:
        code = None
    exited = time.monotonic()
    stop.set()
    for t in threads:
        t.join(timeout=20)
    with lock:
        results = list(results)

    before = [r for r in results if r[0] < signalled]
    after = [r for r in results if r[0] >= signalled]
    count = lambda rows, what: sum(1 for r in rows if r[1] == what)
    summary = lambda rows: ", ".join(f"{what}: {count(rows, what)}" for what in
                                     ("200", "503", "refused") + LOSSES)
    print(f"round {number}: pid {server.pid} on 127.0.0.1:{port}, {CLIENTS} clients and "
          f"{KEEPALIVE_CLIENTS} kept-alive ones, "
          f"SIGTERM after {SIGTERM_AFTER} s, SHUTDOWN_DELAY_MS {delay}")
    print(f"  started before the signal: {len(before)}: {summary(before)}")
    print(f"  started after the signal:  {len(after)}: {summary(after)}")
    if code is None:
        print(f"  still running {GRACE_MS / 1000 + 5:.1f} s after SIGTERM", file=sys.stderr)
        server.kill()
        server.wait()
    else:
        print(f"  exit status {code}, {(exited - signalled) * 1000:.0f} ms after SIGTERM "
              f"(grace {GRACE_MS} ms)")

    failures = []
    lost = [r for r in results if r[1] in LOSSES]
    for r in lost[:10]:
        failures.append(f"lost: {r[1]} ({(r[0] - signalled) * 1000:+.1f} ms from the signal): {r[2]}")
    if len(lost) > 10:
        failures.append(f"... {len(lost) - 10} more lost")
    if code != 0:
        failures.append(f"exit status {code} (want 0 within {GRACE_MS} ms)")
    elif exited - signalled > (GRACE_MS + delay) / 1000:
        failures.append("exited after the grace period")
    if count(before, "200") == 0:
        failures.append("no request succeeded before the signal: the round proves nothing")
    if not any(r[1] in ("200", "503") and r[3] for r in before):
        failures.append("no slow request was in flight")
    if not after:
        failures.append("no request started after the signal: the drain was not exercised")
    if delay and not any(r[1] in ("200", "503") for r in after):
        failures.append("nothing was served during the shutdown delay")
    return [f"round {number}: {f}" for f in failures], len(results)


failures = []
total = 0
for number in range(1, ROUNDS + 1):
    round_failures, n = one_round(number)
    failures += round_failures
    total += n
for f in failures:
    print("FAIL:", f, file=sys.stderr)
print(f"sigterm: {ROUNDS} rounds, {total} requests, " + ("FAILED" if failures else "ok, none lost"))
sys.exit(1 if failures else 0)
PY
