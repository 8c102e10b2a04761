//! The search for big boards (at least [`Geometry::BIG_BOARD_CELLS`] cells, `k` from 4 to 6): the game gomoku
//! players know, played with their tools.
//!
//! - [`pattern`]: what a stone makes along a line (five, open four, four, open three, three,
//!   twos), one table per `k`;
//! - [`board`]: the stones and, kept up to date stone by stone, each empty cell's patterns, its
//!   strongest combination ([`threat::Threat`]) and its value for each side; with the array it
//!   keeps them in ([`layout`]), its line windows ([`windows`]) and the cells where each side
//!   makes a five or a four ([`sets`]);
//! - [`eval`]: the weights of the patterns and combinations, and so the static evaluation;
//! - [`threats`]: victory by continuous fours (VCF), a proven win when found, and by threes and
//!   fours (VCT), at the root for attack and for the opponent's threats;
//! - [`moves`]: which moves a node tries (forced blocks, defences against open threes and
//!   against the opponent's VCF, else the best quiet moves near the stones), in what order;
//! - [`negamax`]: principal-variation search with the transposition table, killer
//!   and history ordering, a VCF check at the horizon, and selectivity: late-move reductions,
//!   reverse futility, futility and move-count pruning, and a null move, for quiet moves and calm
//!   nodes only;
//! - [`root`]: iterative deepening until the work budget or the deadline stops it.
//!
//! **Honesty.** A win by continuous fours found at the root is proven (every defender reply in it
//! is forced) and reported exactly, with its plies. Everything else is an estimate: the search
//! skips moves (only the best quiet moves, only the standard defences and their counters), so
//! even a win or loss it finds is reported as an estimate, above (or below) every evaluation.

mod board;
mod eval;
mod layout;
mod moves;
mod negamax;
mod params;
mod pattern;
mod root;
mod sets;
mod threat;
mod threats;
mod windows;

use crate::engine::game::{Geometry, Position};

pub use root::search;

pub use {eval::WEIGHTS, pattern::PatternTable};

/// Whether a position is searched here rather than by the small-board solver.
pub fn applies(position: &Position) -> bool {
    plays(position.geometry())
}

/// Whether boards of `geometry` are searched here: big boards with `k` from
/// 4 to 6, under every rule. Smaller boards, whatever the rule, go to the small-board solver,
/// which knows each rule's wins and black's forbidden moves and proves what it can.
fn plays(geometry: Geometry) -> bool {
    geometry.is_big() && (pattern::MIN_K..=pattern::MAX_K).contains(&geometry.k())
}
