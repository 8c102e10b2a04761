"""A Gomocup (piskvork) engine driven one position at a time, for the analysis scripts
(`rapfi-turns.py`, `turn-screen.py`): standard library only."""
import re, subprocess, sys

# Rapfi's mate scores count as +-(WIN - plies).
WIN = 30000


class Engine:
    """A Gomocup engine, asked one position at a time."""

    def __init__(self, command, cwd, ms):
        self.process = subprocess.Popen(command, cwd=cwd, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        text=True, bufsize=1)
        self.send("START 15")
        self.until_ok()
        # Without timeout_match and time_left Rapfi answers at once.
        for info in (f"timeout_turn {ms}", "timeout_match 1000000000", "time_left 1000000000",
                     "rule 0"):
            self.send("INFO " + info)

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until_ok(self):
        while self.process.stdout.readline().strip() != "OK":
            pass

    def ask(self, moves):
        """The engine's value for the side to move (Rapfi's `Eval`, mates as +-(WIN - plies);
        None from engines that do not give one) and its move."""
        me = len(moves) % 2
        self.send("RESTART")
        self.until_ok()
        self.send("BOARD")
        for i, m in enumerate(moves):
            self.send(f"{ord(m[0]) - 97},{ord(m[1]) - 97},{1 if i % 2 == me else 2}")
        self.send("DONE")
        value = None
        while True:
            line = self.process.stdout.readline()
            if not line:
                sys.exit("an engine stopped")
            line = line.strip()
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
