//! The synchronous engine: boards and rules, validation, scoring, and the searches of every
//! game the service plays.
//!
//! It knows nothing of HTTP, async or I/O, and builds on its own with
//! `cargo build --no-default-features`; the optional `serde` feature serializes its answer types.
//!
//! [`Engine`] is the one door: it owns the tables its searches borrow and the limits policy, and
//! it analyses a [`Position`], suggests a move ([`Suggestion`]), reviews a [`Game`], traces a
//! search and scores Connect Four's columns.
//!
//! ```
//! use minimax_move::engine::{Engine, Geometry, Outcome, Position, SuggestOptions};
//!
//! let engine = Engine::default();
//! let cells = Position::parse_compact("XXOOX.O..").unwrap();
//! let position = Position::new(Geometry::TIC_TAC_TOE, cells, None).unwrap();
//! let suggestion = engine.suggest(&position, &SuggestOptions::default());
//! let chosen = suggestion.chosen;
//! assert_eq!(chosen.index, 7);
//! assert_eq!((chosen.value.outcome(), chosen.value.plies()), (Some(Outcome::Win), Some(1)));
//! ```
//!
//! Layers, leaves first (docs/engine.md draws them):
//! - the game: [`Geometry`] (the board's shape and its winning lines, computed once per
//!   geometry), [`Player`], [`Rule`], [`Position`] (a legal position in play) and the game record
//!   ([`Game`]);
//! - the analysis types ([`MoveValue`], [`MoveScore`], [`Analysis`]) and the bounds of a search
//!   ([`SearchLimits`]);
//! - the search core every search shares: scores, the work budget, iterative deepening, and the
//!   tables, borrowed from the engine's own set under one memory budget;
//! - the searches, siblings that depend on those layers and not on each other: the solved 3 × 3
//!   table, the small-board solver, the big-board (gomoku) engine, the gravity solver, and the
//!   teaching trace;
//! - above them the choice of a move at a difficulty, the sentences that explain it, the review
//!   of a game, and at the top [`Engine`].
#![deny(missing_docs)]

mod analysis;
mod cancel;
mod choose;
mod core;
mod explain;
mod facade;
mod game;
mod gomoku;
mod gravity;
mod limits;
mod progress;
mod review;
mod solver;
mod suggest;
mod tactics;
mod tic_tac_toe;
mod trace;

#[cfg(feature = "serde")]
pub use analysis::OutcomeOrUnknown;
pub use analysis::{Analysis, Evaluation, MoveScore, MoveValue, Outcome, Scoring, best_of};
pub use cancel::Cancel;
pub use choose::{Difficulty, TieBreak, choose, immediate_wins};
pub use explain::{explanation, in_a_row, line_name, rounded};
pub use facade::{Engine, EngineSettings, slot_bytes};
pub use game::renju;
pub use game::{
    CompactCellError, GameResult, PlayError, Played, Position, PositionError, game_result,
};
pub use game::{Game, GameEnd, GameError, GameErrorKind};
pub use game::{Geometry, GeometryError, Player, Rule};
pub use gravity::{Book, BookBuilder, BookError, Solution, build_book, pons_score};
pub use limits::{SearchLimits, WORK_PER_MS_TIMES_CELLS};
pub use progress::{Iteration, Progress};
pub use review::{
    GOOD_COST, INACCURACY_COST, Label, MISTAKE_COST, PlayerSummary, Review, ReviewedMove,
};
pub use suggest::{SuggestOptions, Suggestion, principal_variation};
pub use trace::{
    Algorithm, Alternative, Cutoff, CutoffBound, Leaf, MAX_TREE_DEPTH, MAX_TREE_NODES, Role,
    TRACE_DEFAULT_LISTED, TRACE_MAX_LISTED, TRACE_MAX_WORK, TRACE_TABLE_POSITIONS, TableBound,
    TableHit, Trace, TraceCounts, TraceError, TraceInput, TraceNode, TraceOptions, Tree, TreeError,
};
#[cfg(feature = "server")]
pub(crate) use trace::{explain as explain_trace, outcome_of};
