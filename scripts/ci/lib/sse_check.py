"""Live search with a real SSE client library (httpx-sse) against a running server.

For a big-board search and a small-board proof, `POST /v1/move` with `Accept: text/event-stream`
must send `progress` events (each with its documented fields, depth rising) and then one `result`
whose data equals the plain POST's answer for the same body. A stream the client closes early must
free its search slot: the server runs with one slot, so the next search is answered, not shed.

    python sse_check.py --url http://127.0.0.1:PORT

Bounded: three streams and two plain requests, each with a client timeout.
"""

import argparse
import json
import sys
import time

import httpx
from httpx_sse import connect_sse

PROGRESS_FIELDS = {"depth", "nodes", "index", "score", "outcome", "plies", "exact", "pv", "elapsed_ms"}


def stream(client, body):
    """The events of one live search, as (event, data) pairs."""
    with connect_sse(client, "POST", "/v1/move", json=body) as source:
        response = source.response
        assert response.status_code == 200, response.status_code
        assert response.headers["content-type"].startswith("text/event-stream"), response.headers
        return [(event.event, event.data) for event in source.iter_sse()]


def check_stream_equals_plain_answer(client, name, body):
    events = stream(client, body)
    kinds = [kind for kind, _ in events]
    assert kinds and kinds[-1] == "result", f"{name}: the stream ends with a result: {kinds}"
    assert kinds.count("result") == 1, f"{name}: one result: {kinds}"
    progress = [json.loads(data) for kind, data in events if kind == "progress"]
    assert progress, f"{name}: at least one progress event: {kinds}"
    depths = [p["depth"] for p in progress]
    assert depths == sorted(depths), f"{name}: depth rises: {depths}"
    for p in progress:
        assert set(p) >= PROGRESS_FIELDS, f"{name}: progress fields: {sorted(p)}"
        assert p["pv"] and p["pv"][0] == p["index"], f"{name}: the line starts at the best move: {p}"
    plain = client.post("/v1/move", json=body)
    assert plain.status_code == 200, plain.text
    result = json.loads(events[-1][1])
    assert result == plain.json(), f"{name}: the result is the plain answer\n{result}\n{plain.json()}"
    print(f"ok  {name}: {len(progress)} progress events (depths {depths[0]}..{depths[-1]}), result = plain answer")


def check_closed_stream_frees_its_slot(client):
    # A search that would run 10 s; the client reads one progress event and hangs up.
    body = {"board": "." * 225, "rows": 15, "cols": 15, "k": 5, "time_limit_ms": 10000}
    started = time.monotonic()
    with connect_sse(client, "POST", "/v1/move", json=body) as source:
        first = next(source.iter_sse())
        assert first.event == "progress", first.event
    # The server runs one search at a time and waits 2 s for a slot: had the abandoned search
    # kept its slot for its 10 s, this request would be shed with 503.
    after = client.post(
        "/v1/move",
        json={"board": "." * 225, "rows": 15, "cols": 15, "k": 5, "time_limit_ms": 200},
    )
    elapsed = time.monotonic() - started
    assert after.status_code == 200, f"the slot is free: {after.status_code} {after.text}"
    assert elapsed < 8, f"answered long before the abandoned search's 10 s: {elapsed:.1f} s"
    print(f"ok  a closed stream freed its slot: the next search answered {elapsed:.1f} s after it began")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    url = parser.parse_args().url
    with httpx.Client(base_url=url, timeout=30) as client:
        check_stream_equals_plain_answer(
            client,
            "15 x 15, max_depth 4",
            {"board": "." * 112 + "X" + "O" + "." * 111, "rows": 15, "cols": 15, "k": 5, "max_depth": 4},
        )
        check_stream_equals_plain_answer(
            client,
            "5 x 5 four in a row, proven",
            {"board": "." * 25, "rows": 5, "cols": 5, "k": 4, "moves": True, "time_limit_ms": 5000},
        )
        check_closed_stream_frees_its_slot(client)
    return 0


if __name__ == "__main__":
    sys.exit(main())
