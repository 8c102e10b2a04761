//! The synchronous engine: boards and rules, validation, scoring, the solved 3 × 3 table and the
//! alpha-beta search for larger m,n,k games.
//!
//! It knows nothing of HTTP, async or I/O, and builds on its own with
//! `cargo build --no-default-features`; the optional `serde` feature serializes its answer types.
//!
//! [`suggest`] is the one entry point: it analyses a [`Position`], chooses the move and says what
//! it leads to, as a [`Suggestion`].
//!
//! ```
//! use minimax_move::engine::{suggest, Geometry, Outcome, Position, SuggestOptions};
//!
//! let cells = Position::parse_compact("XXOOX.O..").unwrap();
//! let position = Position::new(Geometry::TIC_TAC_TOE, cells, None).unwrap();
//! let suggestion = suggest(&position, &SuggestOptions::default());
//! let chosen = suggestion.chosen;
//! assert_eq!(chosen.index, 7);
//! assert_eq!((chosen.value.outcome(), chosen.value.plies()), (Some(Outcome::Win), Some(1)));
//! ```
//!
//! Layout, leaves first: [`Geometry`] (the board's shape and its winning lines, computed once per
//! geometry), [`Player`], [`Position`] (a legal position in play), the analysis types
//! ([`Value`], [`MoveScore`], [`Analysis`]), then the two analysers, the solved 3 × 3 table and the
//! search, which depend on those types and not on each other, then [`choose`] and [`explanation`],
//! and at the top [`suggest`].
#![deny(missing_docs)]

mod analysis;
mod cancel;
mod choose;
mod core;
mod explain;
mod game;
mod gomoku;
pub mod gravity;
mod limits;
mod progress;
mod review;
mod solved;
mod solver;
mod suggest;
mod tactics;
pub mod trace;

#[cfg(feature = "serde")]
pub use analysis::OutcomeOrUnknown;
pub use analysis::{Analysis, Evaluation, MoveScore, Outcome, Scoring, Value, best_of};
pub use cancel::Cancel;
pub use choose::{Difficulty, TieBreak, choose, immediate_wins};
pub use core::pool::keep_tables_for;
pub use explain::{cell_name, explanation, in_a_row, line_name, rounded};
pub use game::renju;
pub use game::{
    CompactCellError, GameResult, PlayError, Played, Position, PositionError, game_result,
};
pub use game::{Geometry, GeometryError, Player, Rule};
pub use limits::{SearchLimits, WORK_PER_MS_TIMES_CELLS};
pub use progress::{Iteration, Progress};
pub use review::{
    GOOD_COST, Game, GameEnd, GameError, GameErrorKind, INACCURACY_COST, Label, MISTAKE_COST,
    PlayerSummary, Review, ReviewedMove, review,
};
pub use solved::{warm_up, warmed_up};
pub use suggest::{SuggestOptions, Suggestion, analyze, principal_variation, suggest};
