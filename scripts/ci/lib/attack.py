"""Attacks on the release binary, each bounded in count and time, on 127.0.0.1 only.

    python3 scripts/ci/lib/attack.py BINARY

Each attack starts its own server (free port, the environment it needs) and checks one defence:

1. huge bad input: a 60 KB body of invalid cells gets a 422 under 64 KiB (skipped, saying so,
   while the problem still lists every bad cell);
2. silent connections under `ulimit -n 128`: 150 sockets that never send a byte leave /healthz
   answering, get closed, and the accept loop neither spins nor floods the log; once with the
   default connection cap (below the descriptor limit), once with a cap above it (so that
   `accept` itself runs out of descriptors);
3. searches whose clients hang up: two 10 s searches on the only two slots, both clients gone,
   and a third search gets a slot at once (not 503);
4. SIGTERM with kept-alive clients: eight clients sending on one connection each lose nothing;
5. errors hyper answers before routing (a malformed request, a stalled head) are problem+json;
6. DNS rebinding and foreign pages: /mcp refuses a foreign Host, CORS grants no foreign Origin;
7. a k = 6 search on 15 x 15 is not a 500.

Prints PASS, FAIL or SKIP a check and exits non-zero on any FAIL. Standard library only.
"""

import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

BINARY = os.path.abspath(sys.argv[1])
results = []


def report(outcome, name, detail=""):
    results.append(outcome)
    print(f"{outcome}: {name}" + (f": {detail}" if detail else ""), flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """The release binary on a free loopback port, optionally under `ulimit -n`."""

    def __init__(self, env=None, open_files=None):
        self.port = free_port()
        self.log = tempfile.NamedTemporaryFile("w+", prefix="minimax-move-attack.", suffix=".log")
        full_env = dict(os.environ, HOST="127.0.0.1", PORT=str(self.port), RUST_LOG="warn")
        full_env.update(env or {})
        command = [BINARY]
        if open_files:
            command = ["bash", "-c", f'ulimit -n {open_files} && exec "$0"', BINARY]
        self.process = subprocess.Popen(command, env=full_env, stdout=self.log,
                                        stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while http("GET", "/readyz", self.port, timeout=1)[0] != 200:
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.stop()
                raise RuntimeError(f"the server did not become ready:\n{self.log_text()}")
            time.sleep(0.05)

    def log_text(self):
        self.log.flush()
        with open(self.log.name) as f:
            return f.read()

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
        self.log.close()


def read_response(sock):
    """One HTTP/1.1 response with a content-length: (status, headers, body), or None at EOF."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (l.partition(":") for l in lines[1:])}
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            return None
        body += chunk
    return int(lines[0].split(" ")[1]), headers, body


def raw_request(method, path, body=b"", headers=None, close=True):
    extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
    if body:
        extra += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    connection = "Connection: close\r\n" if close else ""
    return f"{method} {path} HTTP/1.1\r\nHost: localhost\r\n{connection}{extra}\r\n".encode() + body


def http(method, path, port, body=None, headers=None, timeout=10):
    """One request on a fresh connection: (status, headers, body), or (None, error, b"")."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            data = json.dumps(body, separators=(",", ":")).encode() if body is not None else b""
            sock.sendall(raw_request(method, path, data, headers))
            response = read_response(sock)
            if response is None:
                return None, "end of stream before an answer", b""
            return response
    except OSError as error:
        return None, repr(error), b""


def huge_bad_input():
    name = "huge bad input gets a bounded answer"
    with Server() as server:
        for what, board in (("20,000 invalid cells", [-1] * 20000),
                            ("60,000 invalid characters", "Z" * 60000)):
            status, _, body = http("POST", "/v1/move", server.port, {"board": board}, timeout=30)
            if status != 422:
                report("FAIL", name, f"{what}: status {status}")
                continue
            if len(body) < 64 * 1024:
                report("PASS", name, f"{what}: 422 of {len(body)} bytes")
                continue
            errors = json.loads(body).get("errors", [])
            if len(errors) >= len(board):
                report("SKIP", name, f"{what}: 422 of {len(body)} bytes listing all {len(errors)} "
                       "bad cells; the cap on listed cells is not in this build yet")
            else:
                report("FAIL", name, f"{what}: 422 of {len(body)} bytes ({len(errors)} errors)")


def open_silent(port, count):
    sockets = []
    for _ in range(count):
        try:
            s = socket.socket()
            s.setblocking(False)
            s.connect_ex(("127.0.0.1", port))
            sockets.append(s)
        except OSError:
            break
    return sockets


def closed_by_server(sock):
    readable, _, _ = select.select([sock], [], [], 0)
    if not readable:
        return False
    try:
        return sock.recv(1) == b""
    except (BlockingIOError, InterruptedError):
        return False
    except OSError:
        return True


def silent_connections(cap):
    what = "the default cap" if cap is None else f"MAX_CONNECTIONS={cap}, above the limit"
    name = f"150 silent connections under ulimit -n 128 ({what})"
    env = {"RUST_LOG": "info"}
    if cap is not None:
        env["MAX_CONNECTIONS"] = str(cap)
    with Server(env=env, open_files=128) as server:
        silent = open_silent(server.port, 150)
        time.sleep(0.5)
        started = time.monotonic()
        failures = []
        for i in range(5):
            status, detail, _ = http("GET", "/healthz", server.port, timeout=2)
            if status != 200:
                failures.append(f"probe {i}: {status or detail}")
            time.sleep(0.2)
        flood_seconds = time.monotonic() - started + 0.5
        # Every silent socket is closed by the first byte timeout (5 s), most sooner, by eviction.
        deadline = time.monotonic() + 10
        open_ones = silent
        while open_ones and time.monotonic() < deadline:
            open_ones = [s for s in open_ones if not closed_by_server(s)]
            time.sleep(0.1)
        for s in silent:
            s.close()
        log = server.log_text()
        accept_errors = log.count("accept failed")
        descriptor_errors = log.count("Too many open files")
        if failures:
            report("FAIL", name, "/healthz did not answer in 2 s: " + "; ".join(failures))
        elif open_ones:
            report("FAIL", name, f"{len(open_ones)} silent connections still open after 10 s")
        elif descriptor_errors > 5:
            report("FAIL", name, f"'Too many open files' logged {descriptor_errors} times in "
                   f"about {flood_seconds:.1f} s: the accept loop spins or its log floods")
        else:
            report("PASS", name, f"/healthz answered 5 of 5; all closed; accept errors logged "
                   f"{accept_errors} times")


def metric(port, name):
    status, _, body = http("GET", "/metrics", port, timeout=5)
    if status != 200:
        return None
    for line in body.decode().splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return 0.0


def abandoned_searches():
    name = "searches whose clients hang up free their slots"
    # A work rate no search reaches: only the 10 s deadline (or a cancellation) stops them.
    env = {"MAX_SEARCHES": "2", "QUEUE_WAIT_MS": "100", "SEARCH_WORK_RATE": "1000000000000"}
    search = {"board": "." * 225, "rows": 15, "cols": 15, "k": 5, "time_limit_ms": 10000}
    with Server(env=env) as server:
        clients = []
        for _ in range(2):
            s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            s.sendall(raw_request("POST", "/v1/move", json.dumps(search).encode()))
            clients.append(s)
        deadline = time.monotonic() + 10
        while metric(server.port, "minimax_searches_in_flight") != 2:
            if time.monotonic() > deadline:
                report("FAIL", name, "the two searches did not start")
                return
            time.sleep(0.02)
        for s in clients:
            s.close()
        hung_up = time.monotonic()
        time.sleep(0.2)
        third = dict(search, time_limit_ms=300)
        status, _, body = http("POST", "/v1/move", server.port, third, timeout=15)
        while metric(server.port, "minimax_searches_in_flight") and time.monotonic() < hung_up + 15:
            time.sleep(0.02)
        if status == 200:
            report("PASS", name, "the third search got a slot 0.2 s after the hang-ups")
        else:
            report("FAIL", name, f"the third search, 0.2 s after the hang-ups: {status} {body[:120]!r}")


def kept_alive_client(port, outcomes, answered, index):
    body = json.dumps({"board": ["O", 1, "X", "X", 4, "X", 6, "O", "O"], "moves": True}).encode()
    request = raw_request("POST", "/v1/move", body, close=False)
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    except OSError as error:
        outcomes[index] = f"lost: cannot connect: {error!r}"
        return
    with sock:
        while True:
            sock.setblocking(False)
            closed = closed_by_server(sock)
            sock.setblocking(True)
            sock.settimeout(10)
            if closed:
                # Like a client's connection pool: a connection seen closed is not used again.
                outcomes[index] = "closed while idle"
                return
            try:
                sock.sendall(request)
                response = read_response(sock)
            except OSError as error:
                outcomes[index] = f"lost: {error!r}"
                return
            if response is None:
                outcomes[index] = "lost: end of stream instead of an answer"
                return
            status, headers, _ = response
            if status != 200:
                outcomes[index] = f"lost: status {status}"
                return
            answered[index] += 1
            if headers.get("connection", "").lower() == "close":
                outcomes[index] = "answered with Connection: close"
                return


def sigterm_kept_alive():
    name = "SIGTERM with 8 kept-alive clients"
    clients = 8
    for round_number in (1, 2, 3):
        with Server(env={"SHUTDOWN_GRACE_MS": "10000"}) as server:
            outcomes = [None] * clients
            answered = [0] * clients
            threads = [threading.Thread(target=kept_alive_client, daemon=True,
                                        args=(server.port, outcomes, answered, i))
                       for i in range(clients)]
            for t in threads:
                t.start()
            deadline = time.monotonic() + 20
            while min(answered) < 20 and time.monotonic() < deadline:
                time.sleep(0.01)
            server.process.send_signal(signal.SIGTERM)
            for t in threads:
                t.join(timeout=20)
            code = server.stop()
            lost = [o for o in outcomes if o is None or o.startswith("lost")]
            if lost or code != 0:
                report("FAIL", name, f"round {round_number}: {len(lost)} of {clients} lost "
                       f"({lost[:3]}), exit {code}")
                return
    report("PASS", name, "3 rounds: every request answered, every connection closed cleanly")


def protocol_errors():
    name = "errors hyper answers before routing are problem+json"
    with Server(env={"HEADER_READ_TIMEOUT_MS": "500"}) as server:
        failures = []
        cases = (
            ("a header without a colon", b"GET /healthz HTTP/1.1\r\nHost: x\r\nno colon\r\n\r\n", 400),
            ("headers over 64 KiB", b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 70000 + b"\r\n\r\n", 431),
            ("a head that stalls", b"GET /healthz HTTP/1.1\r\nHost: x\r\n", 408),
        )
        for what, raw, want in cases:
            try:
                with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
                    try:
                        sock.sendall(raw)
                    except OSError:
                        pass
                    data = b""
                    while True:
                        try:
                            chunk = sock.recv(65536)
                        except OSError:
                            break
                        if not chunk:
                            break
                        data += chunk
            except OSError as error:
                failures.append(f"{what}: {error!r}")
                continue
            head, _, body = data.partition(b"\r\n\r\n")
            if not head.startswith(f"HTTP/1.1 {want} ".encode()):
                failures.append(f"{what}: {head[:40]!r}")
            elif b"application/problem+json" not in head.lower():
                failures.append(f"{what}: {want} without a problem document ({len(body)} bytes)")
            elif json.loads(body).get("status") != want:
                failures.append(f"{what}: {body[:80]!r}")
        report("FAIL" if failures else "PASS", name, "; ".join(failures) or "400, 431 and 408")


def foreign_pages():
    name = "foreign pages: /mcp refuses a foreign Host, CORS grants no foreign Origin"
    with Server() as server:
        rpc = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
        failures = []
        status = status_with_host(server.port, "rebound.evil.example:%d" % server.port, rpc)
        if status != 403:
            failures.append(f"/mcp with Host rebound.evil.example: {status}")
        status = status_with_host(server.port, "127.0.0.1:%d" % server.port, rpc)
        if status != 200:
            failures.append(f"/mcp with Host 127.0.0.1: {status}")
        _, headers, _ = http("POST", "/v1/move", server.port, ["O", 1, "X", "X", 4, "X", 6, "O", "O"],
                             headers={"Origin": "https://evil.example"})
        if isinstance(headers, dict) and "access-control-allow-origin" in headers:
            failures.append("a foreign Origin got " + headers["access-control-allow-origin"])
        report("FAIL" if failures else "PASS", name, "; ".join(failures))


def status_with_host(port, host, body):
    data = json.dumps(body).encode()
    raw = (f"POST /mcp HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n"
           "Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n"
           f"Content-Length: {len(data)}\r\n\r\n").encode() + data
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(raw)
            response = read_response(sock)
            return response[0] if response else None
    except OSError:
        return None


def k6_on_15x15():
    name = "k = 6 on 15 x 15 is not a 500"
    with Server() as server:
        request = {"board": "." * 225, "rows": 15, "cols": 15, "k": 6, "time_limit_ms": 1000}
        status, _, body = http("POST", "/v1/move", server.port, request, timeout=30)
        if status is None or status >= 500:
            report("FAIL", name, f"{status}: {body[:160]!r}")
        else:
            report("PASS", name, f"{status}")


def main():
    for attack in (huge_bad_input, lambda: silent_connections(None),
                   lambda: silent_connections(1000), abandoned_searches, sigterm_kept_alive,
                   protocol_errors, foreign_pages, k6_on_15x15):
        try:
            attack()
        except Exception as error:  # one attack's crash must not hide the others' results
            report("FAIL", getattr(attack, "__name__", "attack"), repr(error))
    failed = results.count("FAIL")
    print(f"attack: {results.count('PASS')} passed, {failed} failed, {results.count('SKIP')} skipped")
    sys.exit(1 if failed else 0)


main()
