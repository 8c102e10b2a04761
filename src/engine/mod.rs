//! The synchronous engine: boards and rules, validation, scoring, the solved 3 × 3 table and the
//! alpha-beta search for larger m,n,k games.
//!
//! It knows nothing of HTTP, async or I/O, and builds on its own with
//! `cargo build --no-default-features`.
//!
//! ```
//! use minimax_move::engine::{analyze, Geometry, Outcome, Position, Scoring, SearchLimits};
//!
//! let cells = Position::parse_compact("XXOOX.O..").unwrap();
//! let position = Position::new(Geometry::TIC_TAC_TOE, cells, None).unwrap();
//! let analysis = analyze(&position, Scoring::Depth, &SearchLimits::default());
//! let best = analysis.best_move();
//! assert_eq!((best.index, best.outcome, best.plies), (7, Outcome::Win, Some(1)));
//! ```

mod analysis;
mod choose;
mod explain;
mod geometry;
mod player;
mod position;
mod search;
mod solved;

pub use analysis::{
    Analysis, Evaluation, MoveScore, Outcome, Score, Scoring, SearchLimits,
    WORK_PER_MS_TIMES_CELLS, analyze, best_of,
};
pub use choose::{Difficulty, TieBreak, choose, immediate_wins};
pub use explain::{explanation, line_name, principal_variation};
pub use geometry::{Geometry, GeometryError};
pub use player::Player;
pub use position::{
    CompactCellError, GameResult, PlayError, Played, Position, PositionError, game_result,
};
pub use solved::warm_up;
