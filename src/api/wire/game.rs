//! The parts of answers that several routes share: a game's state, a cell forbidden to black,
//! a cell's coordinate.

use serde::Serialize;
use utoipa::ToSchema;

use crate::engine::renju::Foul;
use crate::engine::{GameResult, Geometry, Player};

/// The cell `index` in board notation (`h8`) on boards that name their cells
/// ([`Geometry::names_cells`]), `None` elsewhere: the `coordinate` beside an `index`.
#[must_use]
pub fn coordinate(geometry: Geometry, index: usize) -> Option<String> {
    geometry.names_cells().then(|| geometry.coordinate(index))
}

/// Why a cell is forbidden to black under renju: the engine's [`Foul`], documented under the
/// name the API has always used for it.
pub type ForbiddenReason = Foul;

/// A cell the side to move may not play, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(example = json!({"index": 112, "coordinate": "h8", "reason": "double_three"}))]
pub struct ForbiddenCell {
    /// The cell, a row-major index from 0.
    pub index: usize,
    /// The cell in board notation (gomoku boards: k = 5, or 100 cells or more).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, example = "h8")]
    pub coordinate: Option<String>,
    /// Why it is forbidden.
    pub reason: ForbiddenReason,
}

impl ForbiddenCell {
    /// The wire form of one of [`Position::forbidden`](crate::engine::Position::forbidden)'s
    /// cells.
    #[must_use]
    pub fn new(geometry: Geometry, (index, foul): (usize, Foul)) -> Self {
        Self {
            index,
            coordinate: coordinate(geometry, index),
            reason: foul,
        }
    }
}

/// In play, won or drawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameState {
    /// Neither side has a line and cells are free.
    InPlay,
    /// A side has completed a line.
    Win,
    /// The board is full with no line.
    Draw,
}

/// The state of a game: in play, won (with the winner and the line) or drawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct GameStatus {
    /// In play, won, or drawn.
    pub state: GameState,
    /// The winner when `state` is `win`, else null.
    #[schema(required = true)]
    pub winner: Option<Player>,
    /// The winning line's cells when `state` is `win`, else empty.
    pub line: Vec<usize>,
}

impl GameStatus {
    /// The wire form of a game's result: in play (`None`), won (with the winner and its line) or
    /// drawn.
    #[must_use]
    pub fn of(result: Option<&GameResult>) -> Self {
        Self {
            state: match result {
                None => GameState::InPlay,
                Some(r) if r.winner.is_some() => GameState::Win,
                Some(_) => GameState::Draw,
            },
            winner: result.and_then(|r| r.winner),
            line: result.map(|r| r.line.clone()).unwrap_or_default(),
        }
    }
}
