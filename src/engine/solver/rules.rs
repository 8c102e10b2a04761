//! The gomoku rules other than freestyle on the solver's board: which completed windows win,
//! which cells black may not play under renju, and what a stone next to a window changes.
//!
//! Under freestyle a window full of one side's stones wins whatever lies around it, so the
//! board's window counters answer every question. Under the other rules (`k = 5`, see
//! [`Rule`]) the cells just beyond a window's two ends matter as well: an own stone there makes
//! an overline (no win under standard, nor for black under renju), and under caro an opponent's
//! stone at both ends takes the win away. The counters still give the candidates (a five can
//! only be made in a window with four own stones and none of the opponent's); this module
//! decides them from the run of stones through the cell.

use super::windows::Windows;
use crate::engine::game::End;
use crate::engine::game::renju;
use crate::engine::game::{Geometry, Player, Rule};

use renju::DIRECTIONS;

/// The rule of one board and what it needs to know of the board's shape.
pub struct Rules {
    rule: Rule,
    rows: usize,
    cols: usize,
    k: usize,
    /// Per cell, the windows whose end it lies just beyond: a stone there changes whether the
    /// window wins (empty lists under freestyle, where it never does).
    flanks: Vec<Vec<u32>>,
}

impl Rules {
    /// The rule of `geometry`, whose windows are `windows`.
    pub fn new(geometry: Geometry, windows: &Windows) -> Self {
        let (rows, cols) = (geometry.rows(), geometry.cols());
        let mut flanks = vec![Vec::new(); geometry.cells()];
        if geometry.rule() != Rule::Freestyle && geometry.k() >= 2 {
            let at = |c: u16| ((c as usize / cols) as isize, (c as usize % cols) as isize);
            for w in 0..windows.count() {
                let cells = windows.cells(w);
                let ((r0, c0), (r1, c1)) = (at(cells[0]), at(cells[1]));
                let (dr, dc) = (r1 - r0, c1 - c0);
                let (rl, cl) = at(cells[cells.len() - 1]);
                for (r, c) in [(r0 - dr, c0 - dc), (rl + dr, cl + dc)] {
                    if (0..rows as isize).contains(&r) && (0..cols as isize).contains(&c) {
                        flanks[r as usize * cols + c as usize].push(w as u32);
                    }
                }
            }
        }
        Self {
            rule: geometry.rule(),
            rows,
            cols,
            k: geometry.k(),
            flanks,
        }
    }

    /// The rule.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Whether the rule is freestyle: a full window wins, whatever lies beyond it.
    pub fn is_freestyle(&self) -> bool {
        self.rule == Rule::Freestyle
    }

    /// Whether `side` has forbidden moves: black (the first side) under renju.
    pub fn forbids(&self, side: Player) -> bool {
        self.rule.forbids(side)
    }

    /// The windows whose end `cell` lies just beyond.
    pub fn flanks(&self, cell: usize) -> &[u32] {
        &self.flanks[cell]
    }

    /// The cell `steps` steps from `cell` along `(dr, dc)`, if it is on the board.
    fn step(&self, cell: usize, (dr, dc): (isize, isize), steps: isize) -> Option<usize> {
        let r = (cell / self.cols) as isize + dr * steps;
        let c = (cell % self.cols) as isize + dc * steps;
        ((0..self.rows as isize).contains(&r) && (0..self.cols as isize).contains(&c))
            .then(|| r as usize * self.cols + c as usize)
    }

    /// The stones of `side` in a row from `cell` (excluded) along `direction`, and what ends
    /// the run. `stones` holds 0 for an empty cell and `side index + 1` for a stone.
    fn run(
        &self,
        stones: &[u8],
        cell: usize,
        direction: (isize, isize),
        side: Player,
    ) -> (usize, End) {
        let own = side.index() as u8 + 1;
        let mut length = 0;
        loop {
            match self
                .step(cell, direction, length as isize + 1)
                .map(|c| stones[c])
            {
                None => return (length, End::Edge),
                Some(0) => return (length, End::Empty),
                Some(s) if s == own => length += 1,
                Some(_) => return (length, End::Opponent),
            }
        }
    }

    /// Whether a stone of `side` on the empty `cell` makes a line that wins under the rule: a
    /// run of exactly `k` whose ends the rule accepts, or a longer one where the rule lets an
    /// overline win (a window inside it has an own stone beyond an end).
    pub fn run_wins(&self, stones: &[u8], cell: usize, side: Player) -> bool {
        let player = side;
        DIRECTIONS.into_iter().any(|(dr, dc)| {
            let (before, before_end) = self.run(stones, cell, (-dr, -dc), side);
            let (after, after_end) = self.run(stones, cell, (dr, dc), side);
            let length = before + after + 1;
            if length == self.k {
                self.rule.window_wins(player, before_end, after_end)
            } else {
                length > self.k && self.rule.window_wins(player, End::Own, End::Own)
            }
        })
    }

    /// Whether `side` may play the empty `cell`: always, except black's forbidden moves under
    /// renju ([`renju::foul`]). Most cells are settled by a count of the black stones near them:
    /// every foul needs two lines with two more black stones within four cells (two threes or
    /// two fours), or one line with three within five (two fours on one line, an overline).
    pub fn may_play(&self, stones: &[u8], cell: usize, side: Player) -> bool {
        if !self.forbids(side) || !self.could_be_foul(stones, cell) {
            return true;
        }
        renju::foul_on(
            &Marks {
                rules: self,
                stones,
            },
            cell,
        )
        .is_none()
    }

    /// Whether black can never be forbidden `cell` once white holds `white` too, whatever
    /// stones are added later: the answer of a black pairing strategy ([`super::pairing`]) to a
    /// white stone on `white`, its partner.
    ///
    /// Every foul is made of shapes through the move, and each shape needs room free of white
    /// stones on its line (the edge ends a line as a white stone does, [`renju`]): a four needs
    /// a five through the move (five cells), a three a straight four through it (six cells),
    /// an overline six cells, and two fours on one line two different fives through the move
    /// (six cells or more). So a foul at `cell` needs two directions whose white-free stretch
    /// through `cell` spans five cells or more, or one that spans six. Stones added later only
    /// shorten these stretches (a white one) or leave them as they are (a black one), so a cell
    /// without either is never forbidden. Where no line is longer than five cells (boards up to
    /// 5 × 5), a stretch of five is a whole line without a white stone, and only double-fours
    /// remain possible.
    pub fn never_foul(&self, stones: &[u8], cell: usize, white: usize) -> bool {
        let free = |c: usize| c != white && stones[c] != 2;
        let mut roomy = 0;
        for (dr, dc) in DIRECTIONS {
            let reach = |sign: isize| {
                (1..)
                    .take_while(|&s| self.step(cell, (dr * sign, dc * sign), s).is_some_and(free))
                    .count()
            };
            let stretch = reach(-1) + reach(1) + 1;
            if stretch > self.k {
                return false;
            }
            if stretch == self.k {
                roomy += 1;
                if roomy == 2 {
                    return false;
                }
            }
        }
        true
    }

    /// The necessary condition for a black foul at `cell` (see [`Self::may_play`]).
    fn could_be_foul(&self, stones: &[u8], cell: usize) -> bool {
        let black = |c: Option<usize>| c.is_some_and(|c| stones[c] == 1);
        let mut lines_with_two = 0;
        for direction in DIRECTIONS {
            let near = |reach: isize| {
                (1..=reach)
                    .flat_map(|s| [s, -s])
                    .filter(|&s| black(self.step(cell, direction, s)))
                    .count()
            };
            if near(5) >= 3 {
                return true;
            }
            if near(4) >= 2 {
                lines_with_two += 1;
            }
        }
        lines_with_two >= 2
    }
}

/// The solver's stones (0 empty, 1 black, 2 white) as renju's forbidden-point test reads them,
/// in place.
struct Marks<'a> {
    rules: &'a Rules,
    stones: &'a [u8],
}

impl renju::Stones for Marks<'_> {
    fn step(&self, at: usize, line: usize, steps: isize) -> Option<usize> {
        self.rules.step(at, renju::DIRECTIONS[line], steps)
    }

    fn is_black_stone(&self, at: usize) -> bool {
        self.stones[at] == 1
    }

    fn is_empty_cell(&self, at: usize) -> bool {
        self.stones[at] == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::core::hash::splitmix;
    use crate::engine::solver::grid::Grid;

    /// The stones of `grid` as [`renju::foul`] reads them.
    fn cells(grid: &Grid) -> Vec<Option<Player>> {
        grid.stones()
            .iter()
            .map(|&s| match s {
                0 => None,
                1 => Some(Player::X),
                _ => Some(Player::O),
            })
            .collect()
    }

    /// A random empty cell of `grid` other than `not`, if there is one.
    fn random_empty(grid: &Grid, not: usize, seed: &mut u64) -> Option<usize> {
        let empty: Vec<usize> = (0..grid.cell_count())
            .filter(|&c| c != not && grid.is_empty(c))
            .collect();
        *seed = splitmix(*seed);
        (!empty.is_empty()).then(|| empty[*seed as usize % empty.len()])
    }

    #[test]
    fn a_cell_never_foul_stays_allowed_to_black_whatever_stones_follow() {
        let mut seed = 7_u64;
        let mut claims = 0;
        for (rows, cols, stones) in [(5_u64, 5_u64, 6), (5, 6, 8), (6, 6, 10), (7, 7, 14)] {
            let geometry = Geometry::new(rows, cols, 5)
                .unwrap()
                .with_rule(Rule::Renju)
                .unwrap();
            let n = geometry.cells();
            for _ in 0..300 {
                let mut grid = Grid::new(geometry, &vec![None; n]);
                for i in 0..stones {
                    let cell = random_empty(&grid, n, &mut seed).unwrap();
                    grid.play(cell, Player::X.after(i));
                }
                let (Some(cell), Some(white)) = (
                    random_empty(&grid, n, &mut seed),
                    random_empty(&grid, n, &mut seed),
                ) else {
                    continue;
                };
                if cell == white || !grid.never_foul(cell, white) {
                    continue;
                }
                claims += 1;
                grid.play(white, Player::O);
                // Black stones mostly: they are what makes a foul.
                while let Some(next) = random_empty(&grid, cell, &mut seed) {
                    let side = if seed.is_multiple_of(4) {
                        Player::O
                    } else {
                        Player::X
                    };
                    grid.play(next, side);
                    let foul =
                        renju::foul(rows as usize, cols as usize, &cells(&grid), Player::X, cell);
                    assert_eq!(
                        foul,
                        None,
                        "({rows},{cols}) {:?}: cell {cell}",
                        grid.stones()
                    );
                }
            }
        }
        assert!(claims > 200, "only {claims} cells claimed never foul");
    }
}
