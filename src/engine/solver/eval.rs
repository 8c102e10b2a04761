//! Static evaluation and move ordering: what the search falls back on at its horizon, and the
//! order in which it tries moves.
//!
//! The evaluation counts the windows each side can still complete, weighted steeply by the
//! stones already in them (4^stones), plus a small bonus for stones near the centre; the board
//! keeps both sums up to date on every move ([`Grid::weight`], [`Grid::centre`]).

use super::grid::Grid;
use super::params::TEMPO;
use crate::engine::core::score::{EvalScale, HEURISTIC_MAX};
use crate::engine::game::Player;

/// The evaluation on the estimate scale: an evaluation of 2,000 reports as 0.69. One past
/// [`HEURISTIC_MAX`] is a bound beyond every evaluation, and keeps its place above them.
pub const SCALE: EvalScale = EvalScale {
    max: HEURISTIC_MAX + 1,
    divisor: 2_000.0,
};

/// Static evaluation for `side` to move, within `±HEURISTIC_MAX`.
pub fn evaluate(grid: &Grid, side: Player) -> i32 {
    let other = side.opponent();
    let raw =
        grid.weight(side) - grid.weight(other) + grid.centre(side) - grid.centre(other) + TEMPO;
    raw.clamp(-i64::from(HEURISTIC_MAX), i64::from(HEURISTIC_MAX)) as i32
}
