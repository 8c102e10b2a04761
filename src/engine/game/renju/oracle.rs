//! The forbidden-point test as it was written before it read boards in place: it copies the
//! cells and writes the stones it tries into the copy. The tests compare [`super::foul`] and the
//! search board's test with it on random positions.

use crate::engine::game::Player;
use crate::engine::game::renju::Foul;

/// The four line directions as (row, column) steps.
const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

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
    if cells.len() != rows * cols || cells.get(index).is_none_or(Option::is_some) {
        return None;
    }
    let mut grid = Grid {
        rows,
        cols,
        cells: cells.to_vec(),
        black,
    };
    grid.foul_of(index)
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

/// A board that the tests change and restore as they try stones.
struct Grid {
    rows: usize,
    cols: usize,
    cells: Vec<Option<Player>>,
    black: Player,
}

impl Grid {
    /// The cell `steps` away from `index` along `direction`, if it is on the board.
    fn step(&self, index: usize, (dr, dc): (isize, isize), steps: isize) -> Option<usize> {
        let row = (index / self.cols).checked_add_signed(dr * steps)?;
        let col = (index % self.cols).checked_add_signed(dc * steps)?;
        (row < self.rows && col < self.cols).then(|| row * self.cols + col)
    }

    fn is_black(&self, index: Option<usize>) -> bool {
        index.is_some_and(|i| self.cells[i] == Some(self.black))
    }

    fn is_empty(&self, index: Option<usize>) -> bool {
        index.is_some_and(|i| self.cells[i].is_none())
    }

    /// The black run through `index` (black) along `direction`: how far it reaches back and
    /// forward, in steps.
    fn run(&self, index: usize, direction: (isize, isize)) -> (isize, isize) {
        let reach = |sign: isize| {
            (1..)
                .take_while(|&s| self.is_black(self.step(index, direction, sign * s)))
                .last()
                .unwrap_or(0)
        };
        (reach(-1), reach(1))
    }

    fn run_length(&self, index: usize, direction: (isize, isize)) -> isize {
        let (back, forward) = self.run(index, direction);
        back + forward + 1
    }

    /// Whether black playing the empty `index` is forbidden.
    fn foul_of(&mut self, index: usize) -> Option<Foul> {
        self.cells[index] = Some(self.black);
        let verdict = self.verdict(index);
        self.cells[index] = None;
        match verdict {
            Verdict::Forbidden(why) => Some(why),
            Verdict::Five | Verdict::Allowed => None,
        }
    }

    /// What the black stone just placed at `index` made, the shapes taken in the order the
    /// module doc gives: a five first, then two fours, two threes, an overline.
    fn verdict(&mut self, index: usize) -> Verdict {
        let lengths = DIRECTIONS.map(|d| self.run_length(index, d));
        if lengths.contains(&5) {
            return Verdict::Five;
        }
        let fours: usize = DIRECTIONS.iter().map(|&d| self.fours(index, d)).sum();
        if fours >= 2 {
            return Verdict::Forbidden(Foul::DoubleFour);
        }
        let mut threes = 0;
        for direction in DIRECTIONS {
            threes += usize::from(self.is_three(index, direction));
            if threes == 2 {
                return Verdict::Forbidden(Foul::DoubleThree);
            }
        }
        if lengths.iter().any(|&length| length > 5) {
            return Verdict::Forbidden(Foul::Overline);
        }
        Verdict::Allowed
    }

    /// The empty cells along `direction`, within four steps of `index`, that a black stone would
    /// turn into a five through `index`, as their offsets from it.
    fn five_points(&mut self, index: usize, direction: (isize, isize)) -> Vec<isize> {
        let mut points = Vec::new();
        for offset in (-4..=4).filter(|&o| o != 0) {
            let Some(cell) = self.step(index, direction, offset) else {
                continue;
            };
            if self.cells[cell].is_some() {
                continue;
            }
            self.cells[cell] = Some(self.black);
            let (back, forward) = self.run(index, direction);
            if back + forward + 1 == 5 && (-back..=forward).contains(&offset) {
                points.push(offset);
            }
            self.cells[cell] = None;
        }
        points
    }

    /// How many fours through `index` lie along `direction`: one for each point that makes a
    /// five, except that the two ends of a straight four (five steps apart) are one four.
    fn fours(&mut self, index: usize, direction: (isize, isize)) -> usize {
        let points = self.five_points(index, direction);
        let straight = points
            .iter()
            .filter(|&&a| points.contains(&(a + 5)))
            .count();
        points.len() - straight
    }

    /// Whether a three through `index` lies along `direction`: an empty cell there whose black
    /// stone makes a straight four through `index`, is itself allowed, and makes no five.
    fn is_three(&mut self, index: usize, direction: (isize, isize)) -> bool {
        for offset in (-4..=4).filter(|&o| o != 0) {
            let Some(cell) = self.step(index, direction, offset) else {
                continue;
            };
            if self.cells[cell].is_some() {
                continue;
            }
            self.cells[cell] = Some(self.black);
            let three = self.is_straight_four(index, direction, offset)
                && matches!(self.verdict(cell), Verdict::Allowed);
            self.cells[cell] = None;
            if three {
                return true;
            }
        }
        false
    }

    /// Whether the black run through `index` along `direction` is a straight four that includes
    /// the stone `offset` steps away: four in a row, an empty cell at each end, and each of those
    /// ends a five (not an overline).
    fn is_straight_four(&self, index: usize, direction: (isize, isize), offset: isize) -> bool {
        let (back, forward) = self.run(index, direction);
        if back + forward + 1 != 4 || !(-back..=forward).contains(&offset) {
            return false;
        }
        let (low, high) = (-back - 1, forward + 1);
        self.is_empty(self.step(index, direction, low))
            && self.is_empty(self.step(index, direction, high))
            && !self.is_black(self.step(index, direction, low - 1))
            && !self.is_black(self.step(index, direction, high + 1))
    }
}
