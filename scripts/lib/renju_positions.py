#!/usr/bin/env python3
"""Random 15 x 15 renju positions for scripts/renju-referee-diff.sh, black to move.

    usage: renju_positions.py COUNT SEED > boards.txt

One board a line, 225 characters row by row from the top: 'X' black, 'O' white, '.' empty.
Black and white have as many stones each, so black is to move. The positions lean towards the
shapes the forbidden-move rules are about: most stones go into a small square around the centre
(its size varies, so does the number of stones), many black stones are put one or two steps
from another black stone along a line, and a few stones are scattered anywhere. A position where
either side already has five or more in a row is drawn again. The same COUNT and SEED give the
same boards. Standard library only.
"""
import random
import sys

SIZE = 15
DIRECTIONS = [(0, 1), (1, 0), (1, 1), (1, -1)]
NEIGHBOURS = [(dr * s, dc * s) for dr, dc in DIRECTIONS for s in (-2, -1, 1, 2)]


def has_five(board):
    """Whether some row of either colour holds five or more stones."""
    for r in range(SIZE):
        for c in range(SIZE):
            stone = board[r][c]
            if stone == ".":
                continue
            for dr, dc in DIRECTIONS:
                n = 1
                while (
                    0 <= r + dr * n < SIZE
                    and 0 <= c + dc * n < SIZE
                    and board[r + dr * n][c + dc * n] == stone
                ):
                    n += 1
                if n >= 5:
                    return True
    return False


def random_cell(rng, board, half, centre):
    while True:
        if rng.random() < 0.1:
            r, c = rng.randrange(SIZE), rng.randrange(SIZE)
        else:
            r = rng.randint(centre[0] - half, centre[0] + half)
            c = rng.randint(centre[1] - half, centre[1] + half)
        if 0 <= r < SIZE and 0 <= c < SIZE and board[r][c] == ".":
            return r, c


def black_cell(rng, board, half, centre, blacks, lean):
    """A cell for a black stone: next to another black stone along a line, `lean` of the time."""
    if blacks and rng.random() < lean:
        for _ in range(20):
            r, c = rng.choice(blacks)
            dr, dc = rng.choice(NEIGHBOURS)
            if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE and board[r + dr][c + dc] == ".":
                return r + dr, c + dc
    return random_cell(rng, board, half, centre)


def position(rng):
    while True:
        board = [["."] * SIZE for _ in range(SIZE)]
        half = rng.randint(2, 6)
        pairs = rng.randint(3, min(45, (2 * half + 1) ** 2 * 2 // 5))
        centre = (rng.randint(4, 10), rng.randint(4, 10))
        lean = rng.choice([0.0, 0.4, 0.7, 0.9])
        blacks = []
        for _ in range(pairs):
            r, c = black_cell(rng, board, half, centre, blacks, lean)
            board[r][c] = "X"
            blacks.append((r, c))
            r, c = random_cell(rng, board, half, centre)
            board[r][c] = "O"
        if not has_five(board):
            return "".join("".join(row) for row in board)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: renju_positions.py COUNT SEED > boards.txt")
    count, seed = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    for _ in range(count):
        print(position(rng))


if __name__ == "__main__":
    main()
