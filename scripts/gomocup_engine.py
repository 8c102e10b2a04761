"""A Gomocup (piskvork) engine driven one position at a time, for the analysis scripts
(`rapfi-turns.py`, `turn-screen.py`, `screen-timing.py`, `rapfi-label.py`, `rapfi-screen.py`),
and the games of a match as they read them: standard library only."""
import re, subprocess, sys, threading

# Rapfi's mate scores count as +-(WIN - plies).
WIN = 30000


def match_games(path):
    """The games of a match's `games.sgf` (c-gomoku-cli): for each, the colour minimax-move
    played (0 black, 1 white: the parity of its plies), the result (`RE`) and the moves."""
    for game in open(path).read().split("(;FF")[1:]:
        ours = 0 if re.search(r"PB\[([^\]]*)\]", game).group(1) == "minimax-move" else 1
        result = re.search(r"RE\[([^\]]*)\]", game).group(1)
        yield ours, result, re.findall(r";[BW]\[([a-o]{2})\]", game)


class Engine:
    """A Gomocup engine, asked one position at a time. With `patience` (seconds), a line that
    does not come in time (Rapfi, given 50 ms, now and then never answers) restarts the engine,
    and `ask` returns the last value reported and no move."""

    def __init__(self, command, cwd, ms, patience=None):
        self.command, self.cwd, self.ms, self.patience = command, cwd, ms, patience
        self.start()

    def start(self):
        self.process = subprocess.Popen(self.command, cwd=self.cwd, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        text=True, bufsize=1)
        self.send("START 15")
        # Starting (Rapfi reads its configuration) takes longer than a move, more so on a
        # loaded machine: ten times the patience.
        if not self.until_ok(slack=10):
            sys.exit("an engine did not start")
        # Without timeout_match and time_left Rapfi answers at once.
        for info in (f"timeout_turn {self.ms}", "timeout_match 1000000000",
                     "time_left 1000000000", "rule 0"):
            self.send("INFO " + info)

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def readline(self, slack=1):
        """The next line, stripped; None if the engine stopped or kept silent longer than
        `slack` times the patience."""
        timer = None
        if self.patience is not None:
            timer = threading.Timer(self.patience * slack, self.process.kill)
            timer.start()
        line = self.process.stdout.readline()
        if timer is not None:
            timer.cancel()
        return line.strip() if line else None

    def until_ok(self, slack=1):
        """Reads up to the engine's OK; False if it stopped first (and was given a patience,
        so the caller restarts it); without a patience, a stopped engine ends the script."""
        while True:
            line = self.readline(slack)
            if line is None:
                if self.patience is None:
                    sys.exit("an engine stopped")
                return False
            if line == "OK":
                return True

    def ask(self, moves):
        """The engine's value for the side to move (Rapfi's `Eval`, mates as +-(WIN - plies);
        None from engines that do not give one) and its move (None if it did not answer in
        time)."""
        me = len(moves) % 2
        self.send("RESTART")
        if not self.until_ok(slack=10):
            self.start()
        self.send("BOARD")
        for i, m in enumerate(moves):
            self.send(f"{ord(m[0]) - 97},{ord(m[1]) - 97},{1 if i % 2 == me else 2}")
        self.send("DONE")
        value = None
        self.messages = []
        while True:
            line = self.readline()
            if line is None:
                if self.patience is None:
                    sys.exit("an engine stopped")
                self.start()
                return value, None
            if line.startswith("MESSAGE"):
                self.messages.append(line)
            found = re.search(r"Eval ([-+]?M?\d+)", line)
            if found:
                text = found.group(1).lstrip("+")
                if text.startswith("M"):
                    value = WIN - int(text[1:])
                elif text.startswith("-M"):
                    value = -(WIN - int(text[2:]))
                else:
                    value = int(text)
            if re.fullmatch(r"\d+,\d+", line):
                x, y = map(int, line.split(","))
                return value, chr(97 + x) + chr(97 + y)


def screen_positions(turns):
    """The positions of a `rapfi-turns.py` listing where one of our moves took a position Rapfi
    did not see as lost into one where it found a forced win for the opponent: (moves, our move
    then)."""
    positions = []
    for row in open(turns):
        fields = row.rstrip("\n").split("\t")
        try:
            before, after = int(fields[5]), int(fields[6])
        except (IndexError, ValueError):
            continue  # summary lines, and positions Rapfi gave no value
        if before > -WIN // 2 and after <= -WIN // 2:
            positions.append((fields[2].split(), fields[3]))
    return positions
