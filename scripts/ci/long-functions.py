#!/usr/bin/env python3
"""Lists the functions in src/ longer than a limit (default 80 lines), counting from the `fn` line
to its closing brace; exits 1 when there is one. Run from anywhere:
    python3 scripts/ci/long-functions.py [LIMIT]"""
import pathlib
import re
import sys

LIMIT = int(sys.argv[1]) if len(sys.argv) > 1 else 80
ROOT = pathlib.Path(__file__).resolve().parents[2]
FN = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?fn\s+(\w+)")

def strip(line):
    """The line without string literals and comments, so braces in them do not count."""
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    line = re.sub(r"'(\\.|[^'\\])'", "''", line)
    return line.split("//")[0]

long = []
for path in sorted((ROOT / "src").rglob("*.rs")):
    lines = path.read_text().splitlines()
    i = 0
    while i < len(lines):
        match = FN.match(lines[i])
        if not match:
            i += 1
            continue
        depth, opened, j = 0, False, i
        while j < len(lines):
            code = strip(lines[j])
            if not opened and ";" in code and "{" not in code:
                break  # a declaration without a body
            depth += code.count("{") - code.count("}")
            opened |= "{" in code
            if opened and depth <= 0:
                break
            j += 1
        length = j - i + 1
        if opened and length > LIMIT:
            long.append((length, f"{path.relative_to(ROOT)}:{i + 1}", match.group(6)))
        i += 1
for length, place, name in sorted(long, reverse=True):
    print(f"{length:5} {place} {name}")
sys.exit(1 if long else 0)
