"""Positions and values from the bitbully-databases Connect Four books, for the engine's test.

The PyPI package bitbully-databases (MIT, Markus Thill) holds three 7 x 6 books of positions
with player 1 (who moved first) to move: 8 stones (34,515 entries: loss or draw for player 1;
a position that is absent is a win for player 1, per its docs), 12 stones (1,735,945 entries,
the same convention) and 12 stones with distances (4,200,899 entries: 100 - |value| is the
number of moves to the end of the game, positive when player 1 wins, 0 for a draw). Each book
is read with the package's own reader; each entry's code (columns left to right, each from the
bottom: 10 for a player 1 stone, 11 for a player 2 stone, 0 to end the column) is decoded into a
board, and the decoding is checked by encoding the board again and looking it up with the
package's own functions.

    python bitbully_samples.py --out FILE [--seed N] [--per-value N] [--per-outcome N]

Writes one line a position: `<book> <board> <value>`, the board as 42 characters row by row
from the top (`X` player 1, `O` player 2, `.` empty), the value as the book gives it:
- `8ply`: every entry of the 8-stone book in a shuffled order (the test solves the first ones
  and backs all of them up), `loss` or `draw`;
- `8ply-absent`, `12ply-absent`: random games of 8 and 12 stones still in play that the book
  does not hold: `win` by its convention;
- `12ply`: a sample of the 12-stone book, `--per-outcome` of each outcome it holds;
- `12dist`: a sample of the 12-stone book with distances, `--per-value` of each of its values.
Deterministic for a seed.
"""

import argparse
import random
import sys

import bitbully_databases as bbd

ROWS, COLS = 6, 7


def decode(code, stones):
    """The board (package layout: rows from the top, 0 empty, 1 and 2 the players) of a code."""
    bits = format(code & 0xFFFFFFFF, f"0{2 * stones + COLS + 1}b")
    board = [[0] * COLS for _ in range(ROWS)]
    i = 0
    for column in range(COLS):
        row = ROWS - 1
        while bits[i] == "1":
            board[row][column] = 1 if bits[i + 1] == "0" else 2
            row -= 1
            i += 2
        i += 1
    assert i == len(bits) - 1 and bits[i] == "0", (code, bits)
    return board


def text(board):
    return "".join(".XO"[v] for row in board for v in row)


def wins(board, player):
    """Whether `player` has four in a row."""
    for r in range(ROWS):
        for c in range(COLS):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(4)]
                if all(0 <= y < ROWS and 0 <= x < COLS and board[y][x] == player for y, x in cells):
                    return True
    return False


def random_game(rng, stones):
    """A random game of `stones` stones still in play, or None when one side won first."""
    board = [[0] * COLS for _ in range(ROWS)]
    for ply in range(stones):
        free = [c for c in range(COLS) if board[0][c] == 0]
        column = rng.choice(free)
        row = max(r for r in range(ROWS) if board[r][column] == 0)
        board[row][column] = 1 + ply % 2
        if wins(board, 1 + ply % 2):
            return None
    return board


def load(name, stones):
    """The book's entries as (code, value), read by the package; a sample of them decoded and
    looked up again with the package's own functions."""
    db = bbd.BitBullyDatabases(name)
    rng = random.Random(stones)
    for code, value in rng.sample(db.book, 200):
        board = decode(code, stones)
        assert bbd.BitBullyDatabases._to_huffman(board) == code, (name, code)
        assert db.get_book_value(board) == value, (name, text(board), value)
    return db


def absent(db, rng, stones, count):
    """Random positions in play that the book does not hold (a win for player 1)."""
    out = []
    while len(out) < count:
        board = random_game(rng, stones)
        if board is None:
            continue
        key = bbd.BitBullyDatabases._to_huffman(board)
        mirror = bbd.BitBullyDatabases._to_huffman(bbd.BitBullyDatabases._mirror_horiz(board))
        if all(bbd.BitBullyDatabases._binary_search(db.book, k) is None for k in (key, mirror)):
            out.append(board)
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--per-value", type=int, default=50)
    parser.add_argument("--per-outcome", type=int, default=600)
    parser.add_argument("--absent", type=int, default=300)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    outcome = {-1: "loss", 0: "draw"}
    lines = []

    db = load("8-ply", 8)
    entries = list(db.book)
    rng.shuffle(entries)
    lines += [f"8ply {text(decode(c, 8))} {outcome[v]}" for c, v in entries]
    lines += [f"8ply-absent {text(b)} win" for b in absent(db, rng, 8, args.absent)]

    for name, kind, stones in (("12-ply", "12ply", 12), ("12-ply-dist", "12dist", 12)):
        db = load(name, stones)
        by_value = {}
        for code, value in db.book:
            by_value.setdefault(value, []).append(code)
        count = args.per_outcome if kind == "12ply" else args.per_value
        for value in sorted(by_value):
            codes = rng.sample(by_value[value], min(count, len(by_value[value])))
            shown = outcome[value] if kind == "12ply" else value
            lines += [f"{kind} {text(decode(c, stones))} {shown}" for c in codes]
        if kind == "12ply":
            lines += [f"12ply-absent {text(b)} win" for b in absent(db, rng, 12, args.absent)]
        del db, by_value

    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{len(lines)} positions -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
