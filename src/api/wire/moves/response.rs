//! Answers on the wire: the game's state after a move and the answer of `POST /v1/move`.

use serde::Serialize;
use utoipa::ToSchema;

use crate::api::wire::board::{BoardStyle, RenderedBoard};
use crate::api::wire::game::{GameStatus, coordinate};
use crate::api::wire::schema::Board;
use crate::engine::MoveValue;
use crate::engine::{Geometry, MoveScore, OutcomeOrUnknown, Player, Suggestion};

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
