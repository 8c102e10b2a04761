//! Renju's forbidden moves for black, as the RIF rules define them and as the Gomocup
//! tournament referee (Piskvork) applies them.
//!
//! Black (the side that moves first) may not make an overline (six or more in a row), a
//! double-four (two or more fours at once, two on one line included) or a double-three (two or
//! more threes at once), except that a move that makes exactly five is always allowed and wins.
//!
//! - A **five** is exactly five black stones in a row.
//! - A **four** is a set of four black stones on a line that one more stone turns into a five.
//!   `.XXXX.` (a *straight four*: an unbroken four that two different stones turn into a five)
//!   is one four; `X.XXX.X`, `XX.XX.XX` and `XXX.X.XXX` are two fours on one line when the move
//!   is one of the stones that both share. Four stones whose only completion would make six in a
//!   row (`OXXXX.X`) are no four.
//! - A **three** is a set of three black stones on a line that one more stone turns into a
//!   straight four, where that stone is itself allowed and makes no five anywhere (the RIF text:
//!   "without at the same time a five in a row is made"). Whether the stone is allowed depends on
//!   the fours and threes it makes in turn, so the test recurses. A line counts one three at
//!   most: `..XXX..` is one three with two stones that make it a straight four.
//!
//! The cases that need a decision, each decided as the referee decides it (its `checkforbid` in
//! `source/renju.cpp`; `scripts/renju-referee-diff.sh` compares the two on random positions):
//!
//! - Only the shapes that the move itself is part of count: a four or three elsewhere on the
//!   board is not the move's.
//! - A five wins first: a move that makes exactly five in one direction is allowed even if it
//!   makes an overline, two fours or two threes in the others.
//! - When a move makes several forbidden shapes, the one reported is, in this order: a
//!   double-four, then a double-three, then an overline. Six in a row and two fours through the
//!   same move are a [`Foul::DoubleFour`]; six in a row and two threes a [`Foul::DoubleThree`].
//! - A four and a three at once (4-3) is allowed; two fours and a three is a double-four, a four
//!   and two threes a double-three.
//! - A three whose every straight-four stone would also complete a five (because black already
//!   has a four through that cell) is no three, so with one other three the move is allowed.
//! - A three whose every straight-four stone is itself forbidden (an overline, a double-four or a
//!   double-three, with the move on the board) is no three.
//! - The edge of the board ends a line as a white stone does: `|XXX..` is no three, `|XXXX.` is
//!   a four and no straight four.
//!
//! ```
//! use minimax_move::engine::{Player, renju::{Foul, foul}};
//! // Black stones at (1, 3) and (2, 3) in a column, (3, 1) and (3, 2) in a row of a 15 × 15
//! // board: (3, 3) would make two open threes at once.
//! let mut cells = vec![None; 225];
//! for index in [18, 33, 46, 47] {
//!     cells[index] = Some(Player::X);
//! }
//! assert_eq!(foul(15, 15, &cells, Player::X, 48), Some(Foul::DoubleThree));
//! assert_eq!(foul(15, 15, &cells, Player::X, 49), None);
//! ```

use super::Player;

/// Why a move is forbidden to black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Foul {
    /// Six or more black stones in a row.
    Overline,
    /// Two or more fours at once.
    DoubleFour,
    /// Two or more threes at once.
    DoubleThree,
}

impl Foul {
    /// The foul's name in snake case, as the API writes it: `overline`, `double_four`,
    /// `double_three`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Overline => "overline",
            Self::DoubleFour => "double_four",
            Self::DoubleThree => "double_three",
        }
    }

    /// The foul in words: "it makes an overline", "two fours", "two threes".
    #[must_use]
    pub const fn describe(self) -> &'static str {
        match self {
            Self::Overline => "it makes an overline (six or more in a row)",
            Self::DoubleFour => "it makes two fours at once (a double-four)",
            Self::DoubleThree => "it makes two open threes at once (a double-three)",
        }
    }
}

/// The four line directions as (row, column) steps, in the order [`Stones::step`] numbers them:
/// across, down, down-right, down-left.
pub const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// A board as the forbidden-point test reads it, in place: the search's pattern board and the
/// plain row-major cells both implement it, so one test serves both and neither is copied. The
/// test never writes to the board: the black stones it tries sit on top of it, on the call stack.
pub trait Stones {
    /// The cell `steps` steps from `at` along line `line` (an index of [`DIRECTIONS`]), if it
    /// is on the board.
    fn step(&self, at: usize, line: usize, steps: isize) -> Option<usize>;

    /// Whether the cell `at` holds a black stone.
    fn is_black_stone(&self, at: usize) -> bool;

    /// Whether the cell `at` is empty.
    fn is_empty_cell(&self, at: usize) -> bool;
}

/// Row-major cells (`rows` × `cols`) as [`Stones`], `black` the side that moves first.
#[derive(Clone, Copy, Debug)]
pub struct Plain<'a> {
    rows: usize,
    cols: usize,
    cells: &'a [Option<Player>],
    black: Player,
}

impl<'a> Plain<'a> {
    /// The board of `cells`, if there are `rows` × `cols` of them.
    #[must_use]
    pub fn new(
        rows: usize,
        cols: usize,
        cells: &'a [Option<Player>],
        black: Player,
    ) -> Option<Self> {
        (cells.len() == rows * cols).then_some(Self {
            rows,
            cols,
            cells,
            black,
        })
    }
}

impl Stones for Plain<'_> {
    fn step(&self, at: usize, line: usize, steps: isize) -> Option<usize> {
        let (dr, dc) = DIRECTIONS[line];
        let row = (at / self.cols).checked_add_signed(dr * steps)?;
        let col = (at % self.cols).checked_add_signed(dc * steps)?;
        (row < self.rows && col < self.cols).then(|| row * self.cols + col)
    }

    fn is_black_stone(&self, at: usize) -> bool {
        self.cells[at] == Some(self.black)
    }

    fn is_empty_cell(&self, at: usize) -> bool {
        self.cells[at].is_none()
    }
}

/// Whether black playing `index` on the board (`rows` × `cols`, row-major, `black` the side that
/// moves first) is forbidden, and why. `None` for an allowed move, and for a cell that is off the
/// board or taken (that is no move at all).
#[must_use]
pub fn foul(
    rows: usize,
    cols: usize,
    cells: &[Option<Player>],
    black: Player,
    index: usize,
) -> Option<Foul> {
    let board = Plain::new(rows, cols, cells, black)?;
    if index >= cells.len() {
        return None;
    }
    foul_on(&board, index)
}

/// Whether black playing the cell `at` of `board` is forbidden, and why: the test of [`foul`] on
/// any board, read in place. `None` for an allowed move and for a taken cell.
///
/// ```
/// use minimax_move::engine::{Player, renju::{Foul, Plain, foul_on}};
/// let mut cells = vec![None; 225];
/// for index in [18, 33, 46, 47] {
///     cells[index] = Some(Player::X);
/// }
/// let board = Plain::new(15, 15, &cells, Player::X).unwrap();
/// assert_eq!(foul_on(&board, 48), Some(Foul::DoubleThree));
/// assert_eq!(foul_on(&board, 18), None, "a taken cell is no move");
/// ```
pub fn foul_on<B: Stones + ?Sized>(board: &B, at: usize) -> Option<Foul> {
    if !board.is_empty_cell(at) {
        return None;
    }
    let tried = Tried {
        board,
        at,
        below: None,
    };
    match tried.verdict(at) {
        Verdict::Forbidden(why) => Some(why),
        Verdict::Five | Verdict::Allowed => None,
    }
}

/// Every empty cell that is forbidden to black, with why, in board order.
#[must_use]
pub fn forbidden_points(
    rows: usize,
    cols: usize,
    cells: &[Option<Player>],
    black: Player,
) -> Vec<(usize, Foul)> {
    let Some(board) = Plain::new(rows, cols, cells, black) else {
        return Vec::new();
    };
    (0..cells.len())
        .filter_map(|index| foul_on(&board, index).map(|why| (index, why)))
        .collect()
}

/// What a black stone makes where it has just been placed.
enum Verdict {
    /// Exactly five in a row: a win, whatever else the stone makes.
    Five,
    /// A forbidden shape and no five.
    Forbidden(Foul),
    /// Neither.
    Allowed,
}

/// The board with the black stones the test tries on it: each stone is a frame on the call
/// stack that points to the one below, the last tried on top, so trying a stone neither writes
/// to the board nor allocates.
struct Tried<'a, B: ?Sized> {
    board: &'a B,
    at: usize,
    below: Option<&'a Tried<'a, B>>,
}

impl<B: Stones + ?Sized> Tried<'_, B> {
    /// The board with a black stone tried on the empty `at` as well.
    fn with(&self, at: usize) -> Tried<'_, B> {
        Tried {
            board: self.board,
            at,
            below: Some(self),
        }
    }

    fn tried(&self, at: usize) -> bool {
        let mut frame = Some(self);
        while let Some(tried) = frame {
            if tried.at == at {
                return true;
            }
            frame = tried.below;
        }
        false
    }

    fn step(&self, at: usize, line: usize, steps: isize) -> Option<usize> {
        self.board.step(at, line, steps)
    }

    fn is_black(&self, at: Option<usize>) -> bool {
        at.is_some_and(|i| self.board.is_black_stone(i) || self.tried(i))
    }

    fn is_empty(&self, at: Option<usize>) -> bool {
        at.is_some_and(|i| self.board.is_empty_cell(i) && !self.tried(i))
    }

    /// The black run through `index` (black) along `line`: how far it reaches back and forward,
    /// in steps.
    fn run(&self, index: usize, line: usize) -> (isize, isize) {
        let reach = |sign: isize| {
            let mut steps = 0;
            while self.is_black(self.step(index, line, sign * (steps + 1))) {
                steps += 1;
            }
            steps
        };
        (reach(-1), reach(1))
    }

    fn run_length(&self, index: usize, line: usize) -> isize {
        let (back, forward) = self.run(index, line);
        back + forward + 1
    }

    /// What the black stone just tried at `index` made, the shapes taken in the order the module
    /// doc gives: a five first, then two fours, two threes, an overline.
    fn verdict(&self, index: usize) -> Verdict {
        let lengths = [0, 1, 2, 3].map(|line| self.run_length(index, line));
        if lengths.contains(&5) {
            return Verdict::Five;
        }
        let fours: u32 = (0..4).map(|line| self.fours(index, line)).sum();
        if fours >= 2 {
            return Verdict::Forbidden(Foul::DoubleFour);
        }
        let mut threes = 0;
        for line in 0..4 {
            threes += usize::from(self.is_three(index, line));
            if threes == 2 {
                return Verdict::Forbidden(Foul::DoubleThree);
            }
        }
        if lengths.iter().any(|&length| length > 5) {
            return Verdict::Forbidden(Foul::Overline);
        }
        Verdict::Allowed
    }

    /// The empty cells along `line`, within four steps of `index`, that a black stone would turn
    /// into a five through `index`: bit `offset + 4` for the cell `offset` steps away.
    fn five_points(&self, index: usize, line: usize) -> u16 {
        let mut points = 0;
        for offset in (-4..=4).filter(|&o| o != 0) {
            let Some(cell) = self.step(index, line, offset) else {
                continue;
            };
            if !self.is_empty(Some(cell)) {
                continue;
            }
            let (back, forward) = self.with(cell).run(index, line);
            if back + forward + 1 == 5 && (-back..=forward).contains(&offset) {
                points |= 1 << (offset + 4);
            }
        }
        points
    }

    /// How many fours through `index` lie along `line`: one for each point that makes a five,
    /// except that the two ends of a straight four (five steps apart) are one four.
    fn fours(&self, index: usize, line: usize) -> u32 {
        let points = self.five_points(index, line);
        points.count_ones() - (points & (points >> 5)).count_ones()
    }

    /// Whether a three through `index` lies along `line`: an empty cell there whose black stone
    /// makes a straight four through `index`, is itself allowed, and makes no five.
    fn is_three(&self, index: usize, line: usize) -> bool {
        (-4..=4).filter(|&o| o != 0).any(|offset| {
            let Some(cell) = self.step(index, line, offset) else {
                return false;
            };
            if !self.is_empty(Some(cell)) {
                return false;
            }
            let tried = self.with(cell);
            tried.is_straight_four(index, line, offset)
                && matches!(tried.verdict(cell), Verdict::Allowed)
        })
    }

    /// Whether the black run through `index` along `line` is a straight four that includes the
    /// stone `offset` steps away: four in a row, an empty cell at each end, and each of those
    /// ends a five (not an overline).
    fn is_straight_four(&self, index: usize, line: usize, offset: isize) -> bool {
        let (back, forward) = self.run(index, line);
        if back + forward + 1 != 4 || !(-back..=forward).contains(&offset) {
            return false;
        }
        let (low, high) = (-back - 1, forward + 1);
        self.is_empty(self.step(index, line, low))
            && self.is_empty(self.step(index, line, high))
            && !self.is_black(self.step(index, line, low - 1))
            && !self.is_black(self.step(index, line, high + 1))
    }
}

#[cfg(test)]
pub(crate) mod oracle;

#[cfg(test)]
pub(crate) mod tests;
