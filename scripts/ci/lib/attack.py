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
7. a k = 6 search on 15 x 15 is not a 500;
8. streams at SIGTERM: streams of events in progress (HTTP/1.1, and h2c through curl) each end
   with a `result` or an `error` event carrying `retry:` advice, never cut without an event;
9. streams at the connection cap: with MAX_CONNECTIONS=64 and KEEP_ALIVE_TIMEOUT_MS=1000, a live
   stream survives 400 sockets that each send one byte, and reaches its `result`;
10. a geometry sweep sample: random rows, cols, k, gravity and rule within the schema (the seed
   is printed; ATTACK_SEED repeats it) on POST /v1/move, /v1/move/stream and /v1/review are
   answered or a 422, never a 5xx nor an `internal` event;
11. a field given twice is a 422 naming it on every JSON route, and a tool error naming it in an
   MCP tools/call over /mcp, for every tool;
12. searches started by a link: GET and HEAD /v1/move?... and /v1/connect4/solve?pos=... with a
   foreign Host or from a cross-site page are a 403, a malformed Host (`localhost:abc`) a 400;
13. half-closed clients (the request sent, then the writing side shut) get their answer, for a
   3 x 3 lookup and for a small search; a client that really leaves frees its search slot.

Prints PASS, FAIL or SKIP a check and exits non-zero on any FAIL. Standard library only (and the
curl command line for HTTP/2 without TLS).
"""

import json
import os
import random
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


class Reader:
    """HTTP/1.1 answers read off one socket, with a buffer: interim (1xx) answers, chunked bodies,
    answers to HEAD."""

    def __init__(self, sock, deadline):
        self.sock, self.deadline, self.buffer = sock, deadline, b""

    def fill(self):
        self.sock.settimeout(max(0.01, self.deadline - time.monotonic()))
        chunk = self.sock.recv(65536)
        if not chunk:
            raise EOFError("end of stream")
        self.buffer += chunk

    def until(self, marker):
        while marker not in self.buffer:
            self.fill()
        data, _, self.buffer = self.buffer.partition(marker)
        return data

    def exactly(self, count):
        while len(self.buffer) < count:
            self.fill()
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def head(self):
        lines = self.until(b"\r\n\r\n").decode("latin-1").split("\r\n")
        headers = {k.strip().lower(): v.strip() for k, _, v in (l.partition(":") for l in lines[1:])}
        return int(lines[0].split(" ")[1]), headers

    def answer(self, head_only=False, on_chunk=None):
        """(status, headers, body, interim statuses); the body whole when it ends cleanly, else
        EOFError or a timeout (socket.timeout) is raised."""
        interim = []
        status, headers = self.head()
        while 100 <= status < 200:
            interim.append(status)
            status, headers = self.head()
        if head_only:
            return status, headers, b"", interim
        if headers.get("transfer-encoding", "").lower() == "chunked":
            body = b""
            while True:
                size = int(self.until(b"\r\n").split(b";")[0], 16)
                if size == 0:
                    self.until(b"\r\n")
                    return status, headers, body, interim
                body += self.exactly(size)
                self.exactly(2)
                if on_chunk:
                    on_chunk(body)
        return status, headers, self.exactly(int(headers.get("content-length", "0"))), interim


def exchange(port, raw, timeout=15, head_only=False, half_close=False):
    """Sends `raw` on a fresh connection: (status, headers, body, interim), or (None, error, b"", [])."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(raw)
            if half_close:
                sock.shutdown(socket.SHUT_WR)
            return Reader(sock, time.monotonic() + timeout).answer(head_only=head_only)
    except (OSError, EOFError, ValueError) as error:
        return None, repr(error), b"", []


def request_bytes(method, path, body=b"", host="localhost", headers=None):
    extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
    if body:
        extra += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    return f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n{extra}\r\n".encode() + body


def events_of(body):
    """The events of a text/event-stream body: a list of dicts with `event`, `data`, `retry`."""
    events = []
    for block in body.decode("utf-8", "replace").replace("\r\n", "\n").split("\n\n"):
        event = {}
        for line in block.split("\n"):
            if not line or line.startswith(":"):
                continue
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            event[field] = event[field] + "\n" + value if field in event else value
        if event:
            events.append(event)
    return events


def stream_verdict(body, want_error=False):
    """None when the events end with a `result`, or with an `error` carrying `retry:` advice (an
    error only when `want_error`); else what is wrong."""
    events = events_of(body)
    kinds = [e.get("event") for e in events]
    if not events:
        return "no event at all"
    last = events[-1]
    if last.get("event") == "result" and not want_error:
        return None
    if last.get("event") == "error":
        if "retry" not in last:
            return f"an error event without retry: advice: {last}"
        if json.loads(last.get("data", "{}")).get("code") != "not_ready":
            return f"an error event that is not not_ready: {last}"
        return None
    return f"the last event is {kinds[-1]!r} ({len(kinds)} events)"


class Http1Stream(threading.Thread):
    """A stream of events over HTTP/1.1 on its own connection, read to its end in a thread."""

    def __init__(self, port, body, timeout=30):
        super().__init__(daemon=True)
        self.port, self.body, self.timeout = port, body, timeout
        self.outcome = None  # (status, body) once it ended cleanly, else an error string

    def run(self):
        data = json.dumps(self.body).encode()
        raw = request_bytes("POST", "/v1/move/stream", data, headers={"Accept": "text/event-stream"})
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=self.timeout) as sock:
                sock.sendall(raw)
                status, _, body, _ = Reader(sock, time.monotonic() + self.timeout).answer()
                self.outcome = (status, body)
        except (OSError, EOFError, ValueError) as error:
            self.outcome = f"cut: {error!r}"

    def verdict(self, want_error=False):
        if not isinstance(self.outcome, tuple):
            return self.outcome or "no outcome"
        status, body = self.outcome
        if status != 200:
            return f"status {status}: {body[:120]!r}"
        return stream_verdict(body, want_error)


class H2cStream(threading.Thread):
    """A stream of events over HTTP/2 without TLS (prior knowledge), through curl."""

    def __init__(self, port, body, timeout=30):
        super().__init__(daemon=True)
        self.port, self.body, self.timeout = port, body, timeout
        self.outcome = None

    def run(self):
        command = ["curl", "-sS", "-N", "--http2-prior-knowledge", "--max-time", str(self.timeout),
                   "-H", "Content-Type: application/json", "-H", "Accept: text/event-stream",
                   "-w", "\n:status %{http_code} %{http_version}\n", "--data-binary", "@-",
                   f"http://127.0.0.1:{self.port}/v1/move/stream"]
        done = subprocess.run(command, input=json.dumps(self.body).encode(), capture_output=True,
                              timeout=self.timeout + 5)
        self.outcome = (done.returncode, done.stdout, done.stderr)

    def verdict(self, want_error=False):
        if self.outcome is None:
            return "no outcome"
        code, out, err = self.outcome
        if code != 0:
            return f"curl exit {code} ({err.decode().strip()}): cut after {out[-160:]!r}"
        if b":status 200 2\n" not in out:
            return f"not a 200 over HTTP/2: {out[-80:]!r}"
        return stream_verdict(out, want_error)


def wait_for_searches(port, count, seconds=10):
    deadline = time.monotonic() + seconds
    while metric(port, "minimax_searches_in_flight") != count:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def empty_15x15(time_limit_ms):
    return {"board": "." * 225, "rows": 15, "cols": 15, "k": 5, "time_limit_ms": time_limit_ms}


def streams_at_sigterm():
    name = "streams in progress at SIGTERM end with an event"
    if subprocess.run(["curl", "--version"], capture_output=True).stdout.find(b"HTTP2") < 0:
        report("SKIP", name + " (h2c)", "this curl speaks no HTTP/2")
        kinds = (Http1Stream,)
    else:
        kinds = (Http1Stream, H2cStream)
    # A 3 s grace period: a stream still searching 2 s after the signal is stopped with an error
    # event; one whose search ends within 1.5 s of it reaches its result.
    env = {"SHUTDOWN_GRACE_MS": "3000", "MAX_SEARCHES": "4", "SEARCH_WORK_RATE": "1000000000000"}
    with Server(env=env) as server:
        streams = []
        for kind in kinds:
            streams.append((kind.__name__, "10 s search", True, kind(server.port, empty_15x15(10000))))
            streams.append((kind.__name__, "1.2 s search", False, kind(server.port, empty_15x15(1200))))
        for *_, stream in streams:
            stream.start()
        if not wait_for_searches(server.port, len(streams)):
            report("FAIL", name, "the streams' searches did not start")
            return
        server.process.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        for *_, stream in streams:
            stream.join(timeout=30)
        took = time.monotonic() - signalled
        code = server.stop()
        failures = [f"{kind} {what}: {stream.verdict(want_error)}"
                    for kind, what, want_error, stream in streams if stream.verdict(want_error)]
        if code != 0:
            failures.append(f"exit {code}")
        protocols = " and ".join(k.__name__.replace("Stream", "") for k in kinds)
        report("FAIL" if failures else "PASS", name, "; ".join(failures) or
               f"{protocols}: the 1.2 s searches reached their result, the 10 s ones an error "
               f"event with retry: advice; all ended {took:.1f} s after SIGTERM, exit 0")


def stream_at_the_connection_cap():
    name = "a live stream survives 400 one-byte sockets at MAX_CONNECTIONS=64"
    env = {"MAX_CONNECTIONS": "64", "KEEP_ALIVE_TIMEOUT_MS": "1000",
           "SEARCH_WORK_RATE": "1000000000000"}
    with Server(env=env) as server:
        stream = Http1Stream(server.port, empty_15x15(4000))
        stream.start()
        if not wait_for_searches(server.port, 1):
            report("FAIL", name, "the stream's search did not start")
            return
        flood, started = [], time.monotonic()
        for _ in range(400):
            try:
                s = socket.create_connection(("127.0.0.1", server.port), timeout=2)
                s.sendall(b"P")
                flood.append(s)
            except OSError:
                pass
        flood_seconds = time.monotonic() - started
        health = http("GET", "/healthz", server.port, timeout=5)[0]
        stream.join(timeout=20)
        closed = sum(1 for s in flood if closed_by_server(s))
        for s in flood:
            s.close()
        problem = stream.verdict()
        if problem is None and health != 200:
            problem = f"/healthz during the flood: {health}"
        report("FAIL" if problem else "PASS", name, problem or
               f"{len(flood)} sockets opened in {flood_seconds:.1f} s ({closed} closed by the "
               f"server), /healthz answered, the stream reached its result")


GRAVITY_PANICS = [(5, 20), (20, 5), (1, 17), (17, 17), (20, 20), (6, 18)]


def geometry_sweep_sample():
    seed = int(os.environ.get("ATTACK_SEED", time.time_ns() % 1_000_000))
    name = f"geometry sweep sample (ATTACK_SEED={seed})"
    rng = random.Random(seed)
    rules = ["freestyle", "standard", "renju", "caro"]
    # The family that once failed (gravity, k = 5, a side of 17 to 20) first, then random ones.
    samples = [(r, c, 5, True, "freestyle") for r, c in GRAVITY_PANICS]
    for _ in range(150):
        rows, cols = rng.randint(1, 20), rng.randint(1, 20)
        # Mostly a k that fits the board (a longer one is a plain 422), sometimes any k.
        k = rng.randint(1, max(rows, cols)) if rng.random() < 0.8 else rng.randint(1, 20)
        samples.append((rows, cols, k, rng.random() < 0.5, rng.choice(rules)))
    failures, answered, refused = [], 0, 0
    deadline = time.monotonic() + 60
    with Server() as server:
        for rows, cols, k, gravity, rule in samples:
            if time.monotonic() > deadline:
                break
            what = f"{rows} x {cols}, k = {k}, gravity {gravity}, {rule}"
            geometry = {"rows": rows, "cols": cols, "k": k, "gravity": gravity, "rule": rule,
                        "time_limit_ms": 50}
            body = json.dumps(dict(geometry, board="." * (rows * cols))).encode()
            status, _, answer, _ = exchange(server.port, request_bytes("POST", "/v1/move", body))
            if status == 422:
                refused += 1
                continue
            if status != 200:
                failures.append(f"POST /v1/move {what}: {status} {answer[:100]!r}")
                continue
            answered += 1
            first = json.loads(answer)["index"]
            review = json.dumps(dict(geometry, moves=[first])).encode()
            status, _, answer, _ = exchange(server.port, request_bytes("POST", "/v1/review", review))
            if status not in (200, 422):
                failures.append(f"POST /v1/review {what}: {status} {answer[:100]!r}")
            status, _, answer, _ = exchange(server.port, request_bytes(
                "POST", "/v1/move/stream", body, headers={"Accept": "text/event-stream"}))
            events = events_of(answer) if status == 200 else []
            if status != 200 or not events or events[-1].get("event") != "result":
                failures.append(f"POST /v1/move/stream {what}: {status} {answer[-120:]!r}")
        log = server.log_text()
    if "panicked" in log:
        failures.append("the log has a panic: " + log[log.index("panicked"):][:160])
    tried = answered + refused
    report("FAIL" if failures else "PASS", name, "; ".join(failures[:4]) or
           f"{tried} geometries: {answered} answered on all three routes, {refused} refused with 422")


REPEATED_FIELDS = [
    ("/v1/move", b'{"board": "O.XX.X.OO", "board": "XXOOX.O.."}', "board"),
    ("/v1/move/stream", b'{"board": "O.XX.X.OO", "k": 3, "k": 3}', "k"),
    ("/v1/play", b'{"board": "O.XX.X.OO", "index": 1, "index": 4}', "index"),
    ("/v1/status", b'{"board": "O.XX.X.OO", "rows": 3, "rows": 3}', "rows"),
    ("/v1/review", b'{"moves": [4, 0], "first": "X", "first": "O"}', "first"),
    ("/v1/trace", b'{"tree": [[1, 2], [3, 4]], "algorithm": "minimax", "algorithm": "alphabeta"}',
     "algorithm"),
]

REPEATED_ARGUMENTS = [
    ("suggest_move", '{"board": "O.XX.X.OO", "board": "XXXXXXXXX"}', "board"),
    ("apply_move", '{"board": "O.XX.X.OO", "index": 4, "index": 1}', "index"),
    ("game_status", '{"board": "O.XX.X.OO", "player": "X", "player": "O"}', "player"),
    ("review_game", '{"moves": [4], "moves": [0]}', "moves"),
    ("trace_search", '{"tree": [[1, 2], [3, 4]], "tree": [[5, 6]]}', "tree"),
]


def repeated_fields():
    name = "a field given twice is refused, naming it, on every JSON route and MCP tool"
    failures = []
    with Server() as server:
        for path, body, field in REPEATED_FIELDS:
            status, _, answer, _ = exchange(server.port, request_bytes("POST", path, body))
            problem = json.loads(answer) if status == 422 else {}
            pointer = (problem.get("errors") or [{}])[0].get("pointer")
            if (status != 422 or f"`{field}` appears more than once" not in problem.get("detail", "")
                    or pointer != "/" + field):
                failures.append(f"{path} with {field} twice: {status} {answer[:120]!r}")
        for id_, (tool, arguments, field) in enumerate(REPEATED_ARGUMENTS, 1):
            call = ('{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {"name": "%s", '
                    '"arguments": %s}}' % (id_, tool, arguments)).encode()
            raw = request_bytes("POST", "/mcp", call, host=f"127.0.0.1:{server.port}",
                                headers={"Accept": "application/json, text/event-stream"})
            status, _, answer, _ = exchange(server.port, raw)
            result = json.loads(answer).get("result", {}) if status == 200 else {}
            text = (result.get("content") or [{}])[0].get("text", "")
            if (not result.get("isError") or not text.startswith("invalid_request:")
                    or f"`{field}` appears more than once" not in text):
                failures.append(f"MCP {tool} with {field} twice: {status} {answer[:160]!r}")
    report("FAIL" if failures else "PASS", name, "; ".join(failures) or
           f"{len(REPEATED_FIELDS)} routes 422, {len(REPEATED_ARGUMENTS)} tools a tool error")


def searches_by_link():
    name = "searches started by a link: foreign Host and cross-site pages 403, a bad Host 400"
    # X to move and win at once in column 1: the solver answers at once.
    links = ("/v1/move?board=O.XX.X.OO&moves=true", "/v1/connect4/solve?pos=121212")
    cross_site = {"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}
    failures, count = [], 0
    with Server() as server:
        def expect(want, method, path, host, headers=None):
            nonlocal count
            count += 1
            raw = request_bytes(method, path, host=host, headers=headers)
            status, got, body, _ = exchange(server.port, raw, head_only=method == "HEAD")
            if status != want:
                failures.append(f"{method} {path} Host {host} {headers or ''}: {status} {body[:80]!r}")
            elif want >= 400 and "problem+json" not in got.get("content-type", ""):
                failures.append(f"{method} {path} Host {host}: {want} without a problem document")

        for path in links:
            for method in ("GET", "HEAD"):
                expect(200, method, path, f"127.0.0.1:{server.port}")
                expect(403, method, path, f"rebound.evil.example:{server.port}")
                expect(403, method, path, "evil.example")
                expect(403, method, path, "localhost", cross_site)
                expect(403, method, path, "localhost", {"Sec-Fetch-Site": "same-site"})
                expect(400, method, path, "localhost:abc")
        expect(400, "GET", "/healthz", "localhost:abc")
        count += 1
        body = json.dumps({"board": "O.XX.X.OO"}).encode()
        status, _, answer, _ = exchange(server.port, request_bytes("POST", "/v1/move", body,
                                                                   host="localhost:abc"))
        if status != 400:
            failures.append(f"POST /v1/move Host localhost:abc: {status} {answer[:80]!r}")
        searches = metric(server.port, "minimax_search_nodes_total")
    report("FAIL" if failures else "PASS", name, "; ".join(failures[:4]) or
           f"{count} requests as expected (search nodes counted: {searches:.0f})")


def half_closed_clients():
    name = "half-closed clients get their answers; a client that leaves frees its slot"
    failures = []
    env = {"MAX_SEARCHES": "1", "QUEUE_WAIT_MS": "100", "SEARCH_WORK_RATE": "1000000000000"}
    with Server(env=env) as server:
        lookup = json.dumps({"board": "O.XX.X.OO", "moves": True}).encode()
        small = json.dumps({"board": "." * 49, "rows": 7, "cols": 7, "k": 4,
                            "time_limit_ms": 600}).encode()
        for what, body in (("3 x 3 lookup", lookup), ("7 x 7 search of 0.6 s", small)):
            status, _, answer, interim = exchange(
                server.port, request_bytes("POST", "/v1/move", body), half_close=True)
            if status != 200 or "index" not in json.loads(answer or b"{}"):
                failures.append(f"{what}, half-closed: {status} {answer[:100]!r}")
        # A client that shuts its writing side, keeps reading a while, then really leaves.
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        sock.sendall(request_bytes("POST", "/v1/move", json.dumps(empty_15x15(10000)).encode()))
        sock.shutdown(socket.SHUT_WR)
        if not wait_for_searches(server.port, 1):
            failures.append("the abandoned search did not start")
        time.sleep(0.5)
        if metric(server.port, "minimax_searches_in_flight") != 1:
            failures.append("a half-closed client's search was cancelled while it still read")
        sock.close()
        left = time.monotonic()
        freed = wait_for_searches(server.port, 0, seconds=3)
        freed_after = time.monotonic() - left
        status, _, answer, _ = exchange(server.port, request_bytes(
            "POST", "/v1/move", json.dumps(dict(empty_15x15(300))).encode()))
        if not freed or status != 200:
            failures.append(f"after the client left: slot freed {freed}, next search {status} "
                            f"{answer[:100]!r}")
    report("FAIL" if failures else "PASS", name, "; ".join(failures) or
           f"both half-closed requests answered; the slot was free {freed_after:.2f} s after "
           "the client left, and the next search answered")


def main():
    for attack in (huge_bad_input, lambda: silent_connections(None),
                   lambda: silent_connections(1000), abandoned_searches, sigterm_kept_alive,
                   protocol_errors, foreign_pages, k6_on_15x15, streams_at_sigterm,
                   stream_at_the_connection_cap, geometry_sweep_sample, repeated_fields,
                   searches_by_link, half_closed_clients):
        try:
            attack()
        except Exception as error:  # one attack's crash must not hide the others' results
            report("FAIL", getattr(attack, "__name__", "attack"), repr(error))
    failed = results.count("FAIL")
    print(f"attack: {results.count('PASS')} passed, {failed} failed, {results.count('SKIP')} skipped")
    sys.exit(1 if failed else 0)


main()
