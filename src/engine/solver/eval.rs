//! Static evaluation and move ordering: what the search falls back on at its horizon, and the
//! order in which it tries moves.
//!
//! The evaluation counts the windows each side can still complete, weighted steeply by the
//! stones already in them (4^stones), plus a small bonus for stones near the centre; the board
//! keeps both sums up to date on every move ([`Grid::weight`], [`Grid::centre`]).

use super::super::Geometry;
use super::grid::Grid;
use crate::engine::core::score::HEURISTIC_MAX;
use crate::engine::core::side::Side;

/// Static-evaluation units per ring a stone stands away from the edge: enough for an open board
/// to prefer the centre (on 15 × 15 every cell four or more from the edge lies on 20 windows, so
/// window counts alone do not), small against a window with one more stone.
const CENTRE_WEIGHT: i64 = 16;
/// A small bonus for having the move, in evaluation units.
const TEMPO: i64 = 2;

/// Static evaluation for `side` to move, within `±HEURISTIC_MAX`.
pub fn evaluate(grid: &Grid, side: Side) -> i32 {
    let other = side.opponent();
    let raw =
        grid.weight(side) - grid.weight(other) + grid.centre(side) - grid.centre(other) + TEMPO;
    raw.clamp(-i64::from(HEURISTIC_MAX), i64::from(HEURISTIC_MAX)) as i32
}

/// The weight of an open window holding `stones` stones of one side: a window with one more
/// stone is worth four times as much.
pub fn window_weight(stones: usize) -> i64 {
    1_i64 << (2 * stones.min(10))
}

/// Move-ordering tables of one geometry.
pub struct MovePriority {
    /// Bonus for playing into a window with `own` stones and no enemy stone.
    attack_bonus: Vec<i32>,
    /// Bonus for playing into a window with `enemy` stones and none of ours.
    block_bonus: Vec<i32>,
    /// A small preference for the centre, to break ordering ties sensibly.
    centrality: Vec<i32>,
}

impl MovePriority {
    /// The tables for `geometry`.
    pub fn new(geometry: Geometry) -> Self {
        let (rows, cols, k) = (geometry.rows(), geometry.cols(), geometry.k());
        let attack_bonus = (0..=k)
            .map(|own| {
                if own + 2 == k {
                    1 << 16
                } else {
                    4 << (2 * own.min(12))
                }
            })
            .collect();
        let block_bonus = (0..=k)
            .map(|enemy| {
                if enemy + 2 == k {
                    1 << 15
                } else {
                    3 << (2 * enemy.min(12))
                }
            })
            .collect();
        let centrality = (0..geometry.cells())
            .map(|c| {
                let (r, col) = ((c / cols) as i32, (c % cols) as i32);
                let dr = (2 * r - (rows as i32 - 1)).abs();
                let dc = (2 * col - (cols as i32 - 1)).abs();
                -(dr.max(dc))
            })
            .collect();
        Self {
            attack_bonus,
            block_bonus,
            centrality,
        }
    }

    /// Per cell, the static evaluation's centre bonus for a stone there: [`CENTRE_WEIGHT`] per
    /// ring from the edge.
    pub fn centre_bonuses(&self) -> Vec<i64> {
        let min = self.centrality.iter().copied().min().unwrap_or(0);
        self.centrality
            .iter()
            .map(|&c| i64::from(c - min) / 2 * CENTRE_WEIGHT)
            .collect()
    }

    /// How promising `cell` looks for `side` on `grid`, for move ordering only.
    pub fn score(&self, grid: &Grid, cell: usize, side: Side) -> i32 {
        let mut score = self.centrality[cell];
        for &w in grid.windows_of(cell) {
            let w = w as usize;
            let (own, enemy) = (
                grid.count(w, side) as usize,
                grid.count(w, side.opponent()) as usize,
            );
            if enemy == 0 {
                score += self.attack_bonus[own];
            }
            if own == 0 {
                score += self.block_bonus[enemy];
            }
        }
        score
    }
}
