//! The rules of the games, before any search: the board's shape and its winning lines
//! ([`Geometry`], with gravity and the gomoku [`Rule`]s), the two sides ([`Player`]), renju's
//! forbidden points ([`renju`]) and a legal position in play ([`Position`]), with the errors
//! that say why a board, a move or a geometry is not one.
//!
//! Everything here depends only on itself: the searches, the analysis types and the answers
//! build on it.

mod geometry;
mod player;
mod position;
mod record;
pub mod renju;
mod rule;

pub use geometry::{Geometry, GeometryError};
pub use player::Player;
pub use position::{
    CompactCellError, GameResult, PlayError, Played, Position, PositionError, game_result,
};
pub use record::{Game, GameEnd, GameError, GameErrorKind};
pub use rule::{End, Rule};
