//! Gravity games solved: Connect Four (7 columns, 6 rows, four in a row) and every other board
//! where a stone drops to the lowest empty cell of its column: every gravity
//! [`Geometry`] the engine takes (up to 20 on a side, `(rows + 1) × columns` at most
//! [`Geometry::MAX_GRAVITY_BITS`]).
//!
//! A gravity game is an engine [`Position`] whose geometry has gravity, and its answers are the
//! engine's own [`Analysis`] and [`MoveValue`]: the moves are the landing cells. Pons' scores, the
//! convention of the public Connect Four solver, are a view of those values
//! ([`MoveValue::pons_score`], [`column_scores`]).
//!
//! The solver follows Pascal Pons' Connect Four solver: the board as two bitboards with a
//! sentinel row, negamax with alpha-beta on null windows narrowing the score from both sides,
//! a transposition table keeping a lower and an upper bound per position (2^23 entries, 64 MiB,
//! mirror images sharing an entry), moves that hand the opponent a win never tried, moves
//! ordered by the winning cells they create and then centre first. 7 × 6 positions early in
//! the game come from an opening book built into the binary (see `connect4.book` and the
//! `connect4-book` tool).
//!
//! [`analyze`] scores every legal move; [`solve`] gives the position's own value (through the
//! [`Engine`](crate::engine::Engine): `analyze`, `solve_gravity`, `column_scores`). Both take
//! the engine's [`SearchLimits`] (work budget, deadline, cancel handle): a value the search
//! proved is [`MoveValue::Proven`], one it could not finish a [`MoveValue::Estimate`] strictly inside
//! (-1, 1).
//!
//! ```
//! use minimax_move::engine::{Engine, Geometry, Outcome, Player, Position, Scoring, SearchLimits};
//!
//! let engine = Engine::default();
//!
//! // Connect Four from the empty board: only the centre column wins, on the 41st move.
//! let empty = Position::new(Geometry::CONNECT_FOUR, vec![None; 42], None).unwrap();
//! let analysis = engine.analyze(&empty, Scoring::Depth, &SearchLimits::default());
//! assert_eq!(Geometry::CONNECT_FOUR.column_of(analysis.best), 3);
//! let centre = analysis.best_move().value;
//! assert_eq!((centre.outcome(), centre.plies(), centre.pons_score(42, 0)), (Some(Outcome::Win), Some(41), Some(1)));
//! assert_eq!(engine.column_scores(&empty, &analysis), Some(vec![Some(-2), Some(-1), Some(0), Some(1), Some(0), Some(-1), Some(-2)]));
//!
//! // A small board, solved from scratch: 4 × 4 four in a row is a draw.
//! let geometry = Geometry::new(4, 4, 4).unwrap().with_gravity(true).unwrap();
//! let small = Position::new(geometry, vec![None; 16], None).unwrap();
//! assert_eq!(engine.solve_gravity(&small, &SearchLimits::default()).value.outcome(), Some(Outcome::Draw));
//! ```

mod bits;
mod board;
mod book;
mod generate;
mod params;
mod root;
mod score;
mod search;
mod table;

pub use book::{Book, BookError};
pub use generate::{BookBuilder, build_book};
pub use score::pons_score;
pub(crate) use table::Table;

use crate::engine::analysis::{Analysis, MoveValue};
use crate::engine::core::job::Job;
use crate::engine::core::pool::Tables;
use crate::engine::game::{Geometry, Position};
use crate::engine::limits::SearchLimits;

/// The most rows, and the most columns, a board may have: the engine's longest side, the
/// size of the solver's per-column arrays.
const MAX_SIDE: usize = Geometry::MAX_SIDE as usize;

/// The value of a position, from its side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Solution {
    /// The value under depth scoring; its plies count from this position.
    pub value: MoveValue,
    /// Nodes searched (0 when the book or the immediate rules answered).
    pub nodes: u64,
}

/// Scores every legal move of a gravity `position` (its landing cells) under `scoring`, within
/// `limits` (its work budget in nodes, its deadline and its cancel handle; the other fields
/// are ignored). It first settles every move's outcome, then their lengths, so that a search
/// cut short still knows as much as it can; a value not proven in time is an estimate.
///
/// # Panics
/// If `position` is not a gravity position.
#[must_use]
pub fn analyze(job: Job<'_>) -> Analysis {
    assert!(job.position.geometry().is_gravity(), "a gravity position");
    if root::fits_u64(job.position.geometry()) {
        root::scored_moves::<u64>(job)
    } else {
        root::scored_moves::<u128>(job)
    }
}

/// The value of a gravity `position` for its side to move, within `limits` as in
/// [`analyze`]; cheaper than analysing every move.
///
/// # Panics
/// If `position` is not a gravity position.
#[must_use]
pub fn solve(tables: &Tables, position: &Position, limits: &SearchLimits) -> Solution {
    assert!(position.geometry().is_gravity(), "a gravity position");
    if root::fits_u64(position.geometry()) {
        root::position_value::<u64>(tables, position, limits)
    } else {
        root::position_value::<u128>(tables, position, limits)
    }
}

/// Pons' score of every column of `position` in `analysis` (its analysis), left to right,
/// `None` for a full column: the public Connect Four solver's view of the engine's values.
/// `None` in all when a playable column's value is not proven (the search was cut short), so
/// that an unfinished column is never mistaken for a full one.
#[must_use]
pub fn column_scores(position: &Position, analysis: &Analysis) -> Option<Vec<Option<i32>>> {
    let geometry = position.geometry();
    let stones = geometry.cells() - position.empty_count();
    (0..geometry.cols())
        .map(
            |column| match geometry.landing_cell(position.cells(), column) {
                None => Some(None),
                Some(cell) => analysis
                    .get(cell)?
                    .value
                    .pons_score(geometry.cells(), stones)
                    .map(Some),
            },
        )
        .collect()
}
