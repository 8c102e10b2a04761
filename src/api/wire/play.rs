//! `POST /v1/play` and `POST /v1/status` on the wire: their requests and answers.

use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::board::RenderedBoard;
use super::game::{ForbiddenCell, GameStatus};
use super::geometry::request;
use super::schema::Board;
use crate::engine::Player;

request! {
    /// The body of `POST /v1/play` and the input of the MCP tool `apply_move`. Every optional field
    /// may be absent or null, both meaning its default.
    #[schema(example = json!({"board": ["O", 1, "X", "X", 4, "X", 6, "O", "O"], "index": 4}))]
    pub struct PlayRequest {
        /// The position before the move.
        #[schema(value_type = Board)]
        pub board: Value,
        /// The cell to play, a row-major index from 0 (the `index` that `POST /v1/move` answers).
        /// `cell`, its former name, is still accepted. Give `index` or, on a gravity board,
        /// `column`.
        #[serde(default, alias = "cell")]
        #[schema(minimum = 0, maximum = 399)]
        pub index: Option<usize>,
        /// On a gravity board, the column to drop a mark in, from 0 (the `column` that `POST
        /// /v1/move` answers): an alternative to `index`. When both are given they must agree.
        #[serde(default)]
        #[schema(minimum = 0, maximum = 19)]
        pub column: Option<usize>,
        /// The side that plays the move. Inferred when absent or null (the side with fewer marks, X when
        /// the counts are equal); when given it must agree with the counts.
        pub player: Option<Player>,
    }
    geometry {
        /// Gravity (false when absent or null): marks drop to the lowest empty cell of their
        /// column, as in Connect Four.
        gravity,
        /// The gomoku rule (`freestyle` when absent or null): `standard`, `renju` or `caro`, for
        /// k = 5 without gravity (see `POST /v1/move`).
        rule,
    }
    {}
}

request! {
    /// The body of `POST /v1/status` and the input of the MCP tool `game_status`. Every optional field
    /// may be absent or null, both meaning its default.
    #[schema(example = json!({"board": "XXXOO....", "rows": 3, "cols": 3, "k": 3}))]
    pub struct StatusRequest {
        /// The position.
        #[schema(value_type = Board)]
        pub board: Value,
        /// The side to move, when the caller knows it (either side is possible when the counts are
        /// equal). Inferred when absent or null.
        pub player: Option<Player>,
    }
    geometry {
        /// Gravity (false when absent or null): marks drop to the lowest empty cell of their
        /// column, as in Connect Four.
        gravity,
        /// The gomoku rule (`freestyle` when absent or null): `standard`, `renju` or `caro`, for
        /// k = 5 without gravity (see `POST /v1/move`).
        rule,
    }
    {}
}

/// The answer of `POST /v1/play`: the board after the move and the game's state.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[schema(example = json!({
    "board": ["O", 1, "X", "X", "X", "X", 6, "O", "O"], "index": 4, "player": "X",
    "status": {"state": "win", "winner": "X", "line": [3, 4, 5]},
    "to_move": null, "legal_moves": []
}))]
pub struct PlayResponse {
    /// The board after the move, written the way the request wrote it.
    #[schema(value_type = Board)]
    pub board: RenderedBoard,
    /// The cell played.
    pub index: usize,
    /// The cell played in board notation (`h8`), on gomoku boards (k = 5, or 100 cells or
    /// more, without gravity).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, example = "h8")]
    pub coordinate: Option<String>,
    /// The column played, from 0 (gravity boards only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// The side that played it.
    pub player: Player,
    /// The game after the move: in play, won (with the winner and the line) or drawn.
    pub status: GameStatus,
    /// The side to move next, null when the move ended the game.
    #[schema(required = true)]
    pub to_move: Option<Player>,
    /// The cells the next side may play, empty when the game is over: the empty cells, less
    /// black's forbidden ones under renju.
    pub legal_moves: Vec<usize>,
}

/// The answer of `POST /v1/status`. A finished game is a status, not an error.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[schema(example = json!({
    "legal": true, "status": {"state": "win", "winner": "X", "line": [0, 1, 2]},
    "to_move": null, "legal_moves": [], "forbidden": [], "forbidden_detail": [],
    "x_count": 3, "o_count": 2
}))]
pub struct StatusResponse {
    /// True: the position can arise in a game (an impossible one is a 422 problem, or a tool
    /// error naming the same code).
    pub legal: bool,
    /// In play, won (with the winner and the line) or drawn.
    pub status: GameStatus,
    /// The side to move, null when the game is over.
    #[schema(required = true)]
    pub to_move: Option<Player>,
    /// The cells the side to move may play, ascending, empty when the game is over: the empty
    /// cells (on a gravity board the lowest empty cell of each column), less the `forbidden`
    /// ones.
    pub legal_moves: Vec<usize>,
    /// The empty cells forbidden to the side to move, ascending: black's (X's) overlines,
    /// double-fours and double-threes under renju; empty under every other rule, for white and
    /// when the game is over.
    pub forbidden: Vec<usize>,
    /// The `forbidden` cells with why each is forbidden (and its coordinate on boards of 100
    /// cells or more).
    pub forbidden_detail: Vec<ForbiddenCell>,
    /// Number of X marks on the board.
    pub x_count: usize,
    /// Number of O marks on the board.
    pub o_count: usize,
}
