#!/usr/bin/env python3
"""A Gomocup (piskvork) brain that asks a running minimax-move server for every move.

It speaks the protocol's subset that match managers use (START, RECTSTART, RESTART, INFO, BEGIN,
TURN, BOARD ... DONE, TAKEBACK, ABOUT, END) on stdin/stdout and sends each position to
`POST /v1/move`, so a match measures the service as clients see it: JSON parsing, the blocking
pool, the work budget and the response. `scripts/strength/match.sh` uses it with VIA=http.

    MINIMAX_URL     the server (default http://127.0.0.1:8080)
    MARGIN_MS       time kept back from each move for the round trip (default 50)

Only the standard library: urllib and json.
"""
import json
import os
import sys
import time
import urllib.error
import urllib.request

URL = os.environ.get("MINIMAX_URL", "http://127.0.0.1:8080").rstrip("/") + "/v1/move"
MARGIN_MS = int(os.environ.get("MARGIN_MS", "50"))


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class Brain:
    def __init__(self):
        self.width = self.height = 0
        self.cells = []  # None, "X" (the brain) or "O" (the opponent), row-major
        self.turn_ms = 5000
        self.board_lines = None
        self.rule = "freestyle"

    def new_game(self, width, height):
        self.width, self.height = width, height
        self.cells = [None] * (width * height)
        say("OK")

    def index(self, x, y):
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ValueError(f"{x},{y} is off the board")
        return y * self.width + x

    def move(self):
        """Asks the server for the brain's move and plays it. The board is relabelled so that the
        side that moved first (black) is X, as renju needs; the server infers the side to move."""
        ours = sum(1 for c in self.cells if c == "X")
        theirs = sum(1 for c in self.cells if c == "O")
        board = "".join(
            "." if c is None else (c if ours == theirs else ("O" if c == "X" else "X"))
            for c in self.cells
        )
        body = {
            "board": board,
            "rows": self.height,
            "cols": self.width,
            "k": 5,
            "rule": self.rule,
            "time_limit_ms": max(1, min(10_000, self.turn_ms - MARGIN_MS)),
        }
        started = time.monotonic()
        request = urllib.request.Request(
            URL, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                answer = json.load(response)
        except urllib.error.HTTPError as error:
            say(f"ERROR the server answered {error.code}: {error.read().decode(errors='replace')}")
            return
        except OSError as error:
            say(f"ERROR no answer from {URL}: {error}")
            return
        at = answer["index"]
        self.cells[at] = "X"
        elapsed = int((time.monotonic() - started) * 1000)
        say(f"MESSAGE http score {answer.get('score')} exact {answer.get('exact')} time {elapsed} ms")
        say(f"{at % self.width},{at // self.width}")

    def handle(self, line):
        words = line.strip().split(maxsplit=1)
        if not words:
            return True
        command, rest = words[0].upper(), (words[1] if len(words) > 1 else "")
        if self.board_lines is not None:
            if command == "DONE":
                stones, self.board_lines = self.board_lines, None
                self.cells = [None] * (self.width * self.height)
                for x, y, who in stones:
                    self.cells[self.index(x, y)] = "X" if who == 1 else "O"
                self.move()
            else:
                x, y, who = (int(v) for v in line.strip().split(","))
                self.board_lines.append((x, y, who))
            return True
        if command == "START":
            self.new_game(int(rest), int(rest))
        elif command == "RECTSTART":
            width, height = (int(v) for v in rest.split(","))
            self.new_game(width, height)
        elif command == "RESTART":
            self.new_game(self.width, self.height)
        elif command == "INFO":
            key, _, value = rest.partition(" ")
            if key == "timeout_turn" and value.strip().isdigit() and int(value) > 0:
                self.turn_ms = int(value)
            elif key == "rule":
                # The protocol's bitmask: 1 exactly five, 2 continuous game (no effect on one
                # game), 4 renju, 8 caro.
                rules = {0: "freestyle", 1: "standard", 4: "renju", 8: "caro"}
                bits = int(value) if value.strip().isdigit() else -1
                if bits >= 0 and bits & ~2 in rules:
                    self.rule = rules[bits & ~2]
                else:
                    say(f"ERROR rule {value.strip()} is not supported: 0, 1, 4 or 8, with 2 or not")
        elif command == "BEGIN":
            self.move()
        elif command == "TURN":
            x, y = (int(v) for v in rest.split(","))
            self.cells[self.index(x, y)] = "O"
            self.move()
        elif command == "BOARD":
            self.board_lines = []
        elif command == "TAKEBACK":
            x, y = (int(v) for v in rest.split(","))
            self.cells[self.index(x, y)] = None
            say("OK")
        elif command == "ABOUT":
            say('name="minimax-move (HTTP)", version="1", author="minimax-move", country="-"')
        elif command == "END":
            return False
        else:
            say(f"UNKNOWN {command}")
        return True


def main():
    brain = Brain()
    for line in sys.stdin:
        try:
            if not brain.handle(line):
                break
        except (ValueError, IndexError) as error:
            say(f"ERROR {error}")


if __name__ == "__main__":
    main()
