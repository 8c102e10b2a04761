//! Answers on the wire: the game's state after a move and the answer of `POST /v1/move`.

use serde::Serialize;
use utoipa::ToSchema;

use super::board::{BoardStyle, RenderedBoard};
use super::schema::Board;
use crate::engine::Value as MoveValue;
use crate::engine::renju::Foul;
use crate::engine::{GameResult, Geometry, MoveScore, OutcomeOrUnknown, Player, Suggestion};

/// The cell `index` in board notation (`h8`) on boards that name their cells
/// ([`Geometry::names_cells`]), `None` elsewhere: the `coordinate` beside an `index`.
#[must_use]
pub fn coordinate(geometry: Geometry, index: usize) -> Option<String> {
    geometry.names_cells().then(|| geometry.coordinate(index))
}

/// Why a cell is forbidden to black under renju.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ForbiddenReason {
    /// Six or more black stones in a row.
    Overline,
    /// Two or more fours at once.
    DoubleFour,
    /// Two or more open threes at once.
    DoubleThree,
}

impl ForbiddenReason {
    /// Its name on the wire: `overline`, `double_four`, `double_three`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Overline => "overline",
            Self::DoubleFour => "double_four",
            Self::DoubleThree => "double_three",
        }
    }
}

impl From<Foul> for ForbiddenReason {
    fn from(foul: Foul) -> Self {
        match foul {
            Foul::Overline => Self::Overline,
            Foul::DoubleFour => Self::DoubleFour,
            Foul::DoubleThree => Self::DoubleThree,
        }
    }
}

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
            reason: foul.into(),
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

/// The answer of `POST /v1/move`.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[schema(example = json!({
    "index": 4, "score": 9, "player": "X", "outcome": "win", "plies": 1, "exact": true,
    "moves": [
        {"index": 1, "score": -8, "outcome": "loss", "plies": 2, "exact": true, "searched": true},
        {"index": 4, "score": 9, "outcome": "win", "plies": 1, "exact": true, "searched": true},
        {"index": 6, "score": -8, "outcome": "loss", "plies": 2, "exact": true, "searched": true}
    ],
    "board": ["O", 1, "X", "X", "X", "X", 6, "O", "O"],
    "status": {"state": "win", "winner": "X", "line": [3, 4, 5]},
    "pv": [4],
    "explanation": "X takes 4 and wins at once, completing the middle row."
}))]
pub struct MoveResponse {
    /// The cell to play, a row-major index from 0.
    pub index: usize,
    /// Gomoku boards only (k = 5, or 100 cells or more, without gravity): the cell in board
    /// notation, its column as a letter from `a` (left) and its row as a number from 1 (the
    /// bottom row): `h8` is the centre of 15 × 15.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, example = "h8")]
    pub coordinate: Option<String>,
    /// Gravity boards only: the column to play, from 0 (`index` is where the mark lands).
    /// Sentences (`explanation`, MCP texts, reviews) count columns from 1, as players do: column
    /// 3 here is "column 4" there, the centre of 7.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 0)]
    pub column: Option<usize>,
    /// Its score from the mover's view.
    #[schema(value_type = f64)]
    pub score: MoveValue,
    /// The side to move (the AI's).
    pub player: Player,
    /// What best play after this move gives the mover.
    pub outcome: OutcomeOrUnknown,
    /// Moves to the end with best play, this one included; null when not proven.
    #[schema(required = true, minimum = 0)]
    pub plies: Option<u32>,
    /// False only when a depth or time limit cut the search; the score is then an estimate.
    pub exact: bool,
    /// Every legal move with its score, by index (present only when `moves` was true).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Vec<MoveScore>)]
    pub moves: Option<Vec<MoveEntry>>,
    /// The best moves, best first, as many as `top` asked for and the search searched (present
    /// only when `top` was given): the best move, then the others by score. Only searched moves
    /// are ranked; equal scores go in the engine's order of preference (on gomoku boards its move
    /// ordering: the patterns a stone makes there for both sides), then nearest the centre.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Vec<MoveScore>)]
    pub top: Option<Vec<MoveEntry>>,
    /// The board after the move, written the way the request wrote it.
    #[schema(value_type = Board)]
    pub board: RenderedBoard,
    /// The game after the move.
    pub status: GameStatus,
    /// The expected line of best play, starting with this move (on 3 × 3 to the end of the game;
    /// on larger boards as far as the search recorded it, at least this move).
    pub pv: Vec<usize>,
    /// One plain-English sentence about the move.
    pub explanation: String,
    /// The seed used when the answer involved chance (difficulty below perfect or random
    /// tie-break); send it back to get the same answer. Present only then.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = i64, minimum = 0)]
    pub seed: Option<u64>,
}

impl MoveResponse {
    /// The wire form of a suggestion: `moves` includes the move table, `style` writes the board
    /// after the move the way the request wrote it.
    #[must_use]
    pub fn new(
        suggestion: Suggestion,
        moves: bool,
        top: usize,
        style: &BoardStyle,
        geometry: Geometry,
    ) -> Self {
        let chosen = suggestion.chosen;
        let status = GameStatus::of(suggestion.after.result.as_ref());
        let column = |index| geometry.is_gravity().then(|| geometry.column_of(index));
        let entry = |score: MoveScore| MoveEntry {
            score,
            coordinate: coordinate(geometry, score.index),
            column: column(score.index),
        };
        Self {
            index: chosen.index,
            coordinate: coordinate(geometry, chosen.index),
            column: column(chosen.index),
            score: chosen.value,
            player: suggestion.player,
            outcome: OutcomeOrUnknown(chosen.value.outcome()),
            plies: chosen.value.plies(),
            exact: chosen.value.is_exact(),
            moves: moves.then(|| {
                suggestion
                    .analysis
                    .moves
                    .iter()
                    .map(|&m| entry(m))
                    .collect()
            }),
            top: (top > 0).then(|| {
                let ranked = suggestion.analysis.ranked(geometry);
                ranked.into_iter().take(top).map(entry).collect()
            }),
            board: style.render(suggestion.after.cells),
            status,
            pv: suggestion.pv,
            explanation: suggestion.explanation,
            seed: suggestion.seed,
        }
    }
}

/// One entry of the move table: the engine's [`MoveScore`], with its coordinate on a board that
/// names its cells and its column on a gravity board.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveEntry {
    /// The move and its value.
    pub score: MoveScore,
    /// The cell in board notation, on gomoku boards (k = 5, or 100 cells or more).
    pub coordinate: Option<String>,
    /// The column, from 0, on a gravity board.
    pub column: Option<usize>,
}

impl Serialize for MoveEntry {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let value = self.score.value;
        let mut entry = serializer.serialize_struct("MoveEntry", 8)?;
        entry.serialize_field("index", &self.score.index)?;
        if let Some(coordinate) = &self.coordinate {
            entry.serialize_field("coordinate", coordinate)?;
        } else {
            entry.skip_field("coordinate")?;
        }
        if let Some(column) = self.column {
            entry.serialize_field("column", &column)?;
        } else {
            entry.skip_field("column")?;
        }
        entry.serialize_field("score", &value)?;
        entry.serialize_field("outcome", &OutcomeOrUnknown(value.outcome()))?;
        entry.serialize_field("plies", &value.plies())?;
        entry.serialize_field("exact", &value.is_exact())?;
        entry.serialize_field("searched", &self.score.searched)?;
        entry.end()
    }
}
