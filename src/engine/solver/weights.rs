//! The weights behind the solver's evaluation and move ordering, per geometry: what an open window
//! is worth by its stones, and the ordering bonuses for attacking and blocking windows and for
//! the centre. The board ([`super::grid`]) keeps the sums they feed up to date.

use crate::engine::game::Geometry;

/// Static-evaluation units per ring a stone stands away from the edge: enough for an open board
/// to prefer the centre (on 15 × 15 every cell four or more from the edge lies on 20 windows, so
/// window counts alone do not), small against a window with one more stone.
const CENTRE_WEIGHT: i64 = 16;

/// The weight of an open window holding `stones` stones of one side: a window with one more
/// stone is worth four times as much.
pub fn window_weight(stones: usize) -> i64 {
    1_i64 << (2 * stones.min(10))
}

/// Move-ordering tables of one geometry.
pub struct MovePriority {
    /// Bonus for playing into a window with `own` stones and no enemy stone.
    pub attack_bonus: Vec<i32>,
    /// Bonus for playing into a window with `enemy` stones and none of ours.
    pub block_bonus: Vec<i32>,
    /// A small preference for the centre, to break ordering ties sensibly.
    pub centrality: Vec<i32>,
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
}
