//! One plain minimax oracle for every m,n,k game, with marks placed anywhere or dropped under
//! gravity, and the one rule checker it stands on: a line of `k` or more. Written once for both
//! test binaries, independently of the crate's rules and search (only its `Rule` and `Player`
//! name what to judge): no pruning, no symmetry, a table only to remember
//! positions already solved.
//!
//! A board is one byte a cell, row-major: [`EMPTY`], `b'X'` or `b'O'`.

use std::collections::HashMap;

use minimax_move::engine::{Player, Rule};

/// An empty cell.
pub const EMPTY: u8 = b'.';

/// The other side's mark.
pub const fn opponent(mark: u8) -> u8 {
    if mark == b'X' { b'O' } else { b'X' }
}

/// A board's shape and rule: `rows` × `cols`, `k` or more in a row wins, and whether marks drop
/// to the lowest empty cell of their column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
    /// Marks in a row that win.
    pub k: usize,
    /// Whether marks drop to the lowest empty cell of their column.
    pub gravity: bool,
}

impl Shape {
    /// Marks placed anywhere.
    pub const fn free(rows: usize, cols: usize, k: usize) -> Self {
        Self {
            rows,
            cols,
            k,
            gravity: false,
        }
    }

    /// Marks dropped under gravity.
    pub const fn gravity(rows: usize, cols: usize, k: usize) -> Self {
        Self {
            rows,
            cols,
            k,
            gravity: true,
        }
    }

    /// The depth scores' `W`: cells + 1, so a win in `p` plies scores `W - p`.
    pub const fn win(self) -> i32 {
        (self.rows * self.cols) as i32 + 1
    }

    /// The cells the side to move may play, ascending: every empty cell, or under gravity the
    /// lowest empty cell of each column that has one.
    pub fn moves(self, cells: &[u8]) -> Vec<usize> {
        if !self.gravity {
            return (0..cells.len()).filter(|&i| cells[i] == EMPTY).collect();
        }
        (0..self.cols)
            .filter_map(|c| {
                (0..self.rows)
                    .rev()
                    .map(|r| r * self.cols + c)
                    .find(|&i| cells[i] == EMPTY)
            })
            .collect()
    }

    /// Whether the mark on cell `i` is part of a line of `k` or more of its kind, across, down
    /// or along either diagonal.
    pub fn line_through(self, cells: &[u8], i: usize) -> bool {
        self.wins(cells, i, (cells[i], opponent(cells[i])), Win::AtLeast)
    }

    /// Whether a stone `mark` on cell `i` (whatever `i` holds now) makes a run of its kind that
    /// wins by `win`, across, down or along either diagonal; `mark` is the pair of the side's
    /// stone and the other side's, for caro's blocked ends (the edge does not block).
    pub fn wins<T: Copy + PartialEq>(self, cells: &[T], i: usize, mark: (T, T), win: Win) -> bool {
        let (stone, other) = mark;
        let (r, c) = ((i / self.cols) as i64, (i % self.cols) as i64);
        let at = |r: i64, c: i64| {
            (r >= 0 && c >= 0 && r < self.rows as i64 && c < self.cols as i64)
                .then(|| cells[(r * self.cols as i64 + c) as usize])
        };
        [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|&(dr, dc)| {
            let mut length = 1;
            let mut blocked = 0;
            for sign in [1, -1] {
                let mut step = 1;
                loop {
                    match at(r + sign * dr * step, c + sign * dc * step) {
                        Some(cell) if cell == stone => length += 1,
                        Some(cell) => {
                            blocked += usize::from(cell == other);
                            break;
                        }
                        None => break,
                    }
                    step += 1;
                }
            }
            match win {
                Win::AtLeast => length >= self.k,
                Win::Exactly => length == self.k,
                Win::Caro => length > self.k || length == self.k && blocked < 2,
            }
        })
    }

    /// Whether `mark` has a line of `k` or more anywhere on the board.
    pub fn has_line(self, cells: &[u8], mark: u8) -> bool {
        (0..cells.len()).any(|i| cells[i] == mark && self.line_through(cells, i))
    }
}

/// How a run of stones wins, by the rules' definitions: `k` or more (freestyle, renju's white),
/// exactly `k` (standard, renju's black), or `k` or more except exactly `k` with the other
/// side's stones right beyond both ends (caro).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Win {
    /// `k` or more in a row.
    AtLeast,
    /// Exactly `k` in a row.
    Exactly,
    /// `k` or more, except exactly `k` blocked at both ends.
    Caro,
}

impl Win {
    /// How a stone of `player` wins under the crate's `rule` (renju's black is X).
    pub fn of(rule: Rule, player: Player) -> Self {
        match rule {
            Rule::Freestyle => Self::AtLeast,
            Rule::Standard => Self::Exactly,
            Rule::Renju if player == Player::X => Self::Exactly,
            Rule::Renju => Self::AtLeast,
            Rule::Caro => Self::Caro,
        }
    }
}

/// Positions already solved: the cells and the side to move, with its best depth score.
pub type Memo = HashMap<(Vec<u8>, u8), i32>;

/// The depth score of each legal move of `mover` (`W - p` for a win in `p` plies, the move
/// included, `p - W` for a loss, 0 for a draw), by ascending cell, on a board in play.
pub fn move_scores(
    shape: Shape,
    cells: &mut [u8],
    mover: u8,
    memo: &mut Memo,
) -> Vec<(usize, i32)> {
    shape
        .moves(cells)
        .into_iter()
        .map(|i| {
            cells[i] = mover;
            let score = if shape.line_through(cells, i) {
                shape.win() - 1
            } else if !cells.contains(&EMPTY) {
                0
            } else {
                // The opponent's best, one ply further away.
                let theirs = value(shape, cells, opponent(mover), memo);
                -theirs + theirs.signum()
            };
            cells[i] = EMPTY;
            (i, score)
        })
        .collect()
}

/// The depth score of the best move of `mover` on a board in play.
pub fn value(shape: Shape, cells: &mut [u8], mover: u8, memo: &mut Memo) -> i32 {
    let key = (cells.to_vec(), mover);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let v = move_scores(shape, cells, mover, memo)
        .into_iter()
        .map(|(_, score)| score)
        .max()
        .expect("a board in play has a move");
    memo.insert(key, v);
    v
}
