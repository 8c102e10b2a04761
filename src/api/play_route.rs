//! `POST /v1/play` and `POST /v1/status`: play one move on a board, or read a board's state. The
//! REST twins of the MCP tools `apply_move` and `game_status`, so that no client (and no language
//! model) ever edits a board by hand.

use axum::Json;
use axum::extract::State;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::JsonBody;
use super::problem::ProblemCode;
use super::wire::{
    Board, ForbiddenCell, GameStatus, RenderedBoard, coordinate, request, shape_error,
};
use super::{ApiError, AppState};
use crate::engine::{Player, Position, PositionError};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(post_play))
        .routes(routes!(post_status))
}

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
        /// Rows of the board, 1..=15, or 1..=20 when k = 5 (3 when absent or null).
        rows,
        /// Columns of the board, 1..=15, or 1..=20 when k = 5 (3 when absent or null).
        cols,
        /// Marks in a row needed to win, 1..=max(rows, cols) (3 when absent or null).
        k,
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
        /// Rows of the board, 1..=15, or 1..=20 when k = 5 (3 when absent or null).
        rows,
        /// Columns of the board, 1..=15, or 1..=20 when k = 5 (3 when absent or null).
        cols,
        /// Marks in a row needed to win, 1..=max(rows, cols) (3 when absent or null).
        k,
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

/// The cell a play request names: its `index`, or where a mark dropped in its `column` lands.
fn cell_to_play(request: &PlayRequest, position: &Position) -> Result<usize, ApiError> {
    let geometry = position.geometry();
    let Some(column) = request.column else {
        return request.index.ok_or_else(|| {
            ApiError::invalid(
                ProblemCode::InvalidRequest,
                "/index",
                "give the cell to play as `index` (or, on a gravity board, `column`)",
            )
        });
    };
    if !geometry.is_gravity() {
        return Err(ApiError::invalid(
            ProblemCode::InvalidRequest,
            "/column",
            "`column` is for gravity boards; give the cell to play as `index`",
        ));
    }
    let invalid = |detail: String| ApiError::invalid(ProblemCode::InvalidMove, "/column", detail);
    if column >= geometry.cols() {
        return Err(invalid(format!(
            "there is no column {column}: the board has columns 0 to {}",
            geometry.cols() - 1
        )));
    }
    let cell = geometry
        .landing_cell(position.cells(), column)
        .ok_or_else(|| invalid(format!("column {column} is full")))?;
    match request.index {
        Some(index) if index != cell => Err(invalid(format!(
            "index {index} and column {column} disagree: a mark dropped in column {column} lands on cell {cell}"
        ))),
        _ => Ok(cell),
    }
}

fn deserialize<T: serde::de::DeserializeOwned>(input: Value) -> Result<T, ApiError> {
    if !input.is_object() {
        return Err(ApiError::invalid(
            ProblemCode::InvalidRequest,
            "",
            "the body must be a JSON object",
        ));
    }
    serde_path_to_error::deserialize(input).map_err(|e| shape_error(&e))
}

/// Plays one move.
///
/// # Errors
/// The same 422 problems as `POST /v1/move` for the board (a finished game is `game_over`), and
/// `invalid_move` (pointer `/index`, or `/column`) for a cell that is off the board, taken or,
/// on a gravity board, above an empty cell, or for a column that is missing or full;
/// `forbidden_move` (pointer `/index`, with the `reason`) for black's forbidden cell under renju.
pub fn play(input: Value) -> Result<PlayResponse, ApiError> {
    let request: PlayRequest = deserialize(input)?;
    let (position, style) = request
        .geometry_fields()
        .position(&request.board, request.player)?;
    let index = cell_to_play(&request, &position)?;
    let geometry = position.geometry();
    let played = position
        .try_play(index)
        .map_err(|e| ApiError::for_play(&e, "/index", e.to_string()))?;
    Ok(PlayResponse {
        index,
        coordinate: coordinate(geometry, index),
        column: geometry.is_gravity().then(|| geometry.column_of(index)),
        player: position.to_move(),
        status: GameStatus::of(played.result.as_ref()),
        to_move: played.next.as_ref().map(|next| next.to_move()),
        legal_moves: played
            .next
            .as_ref()
            .map(crate::engine::Position::legal_moves)
            .unwrap_or_default(),
        board: style.render(played.cells),
    })
}

/// Reads a board's state.
///
/// # Errors
/// The same 422 problems as `POST /v1/move` for the board, except that a finished game is a
/// status.
pub fn status(input: Value) -> Result<StatusResponse, ApiError> {
    let request: StatusRequest = deserialize(input)?;
    let counts = |cells: &[Option<Player>]| {
        (
            cells.iter().filter(|&&c| c == Some(Player::X)).count(),
            cells.iter().filter(|&&c| c == Some(Player::O)).count(),
        )
    };
    match request
        .geometry_fields()
        .position(&request.board, request.player)
    {
        Ok((position, _)) => {
            let (x_count, o_count) = counts(position.cells());
            let forbidden = position.forbidden();
            Ok(StatusResponse {
                legal: true,
                status: GameStatus::of(None),
                to_move: Some(position.to_move()),
                legal_moves: position.legal_moves(),
                forbidden: forbidden.iter().map(|&(index, _)| index).collect(),
                forbidden_detail: forbidden
                    .into_iter()
                    .map(|cell| ForbiddenCell::new(position.geometry(), cell))
                    .collect(),
                x_count,
                o_count,
            })
        }
        Err(ApiError::Position(PositionError::GameOver(result))) => {
            // The board is legal and parsed; read it again without a side to move for the counts.
            let (cells, _) = super::wire::parse_board(&request.board)?;
            let (x_count, o_count) = counts(&cells);
            Ok(StatusResponse {
                legal: true,
                status: GameStatus::of(Some(&result)),
                to_move: None,
                legal_moves: Vec::new(),
                forbidden: Vec::new(),
                forbidden_detail: Vec::new(),
                x_count,
                o_count,
            })
        }
        Err(error) => Err(error),
    }
}

/// Plays one move on a board.
///
/// Returns the board after the move (written the way the request wrote it), whether the move won
/// or drew the game (with the winning line), who moves next and the legal moves. Under renju
/// black (X) may not play a forbidden cell: that is a 422 `forbidden_move` whose `reason` says
/// why.
#[utoipa::path(post, path = "/v1/play", tag = "moves",
    request_body(content = PlayRequest, content_type = "application/json"),
    responses(
        (status = 200, description = "The board after the move and the game's state", body = PlayResponse),
        (status = 400, description = "Malformed JSON", body = super::Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over the limit", body = super::Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not sent as application/json", body = super::Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid request or board, impossible position, wrong side, a finished game (game_over), a cell off the board or taken (invalid_move), or under renju a cell forbidden to black (forbidden_move, with its reason: overline, double_four or double_three)", body = super::Problem, content_type = "application/problem+json"),
        (status = 429, description = "Over the per-client rate limit (only when RATE_LIMIT_PER_SECOND is set)", body = super::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
        (status = 503, description = "Overloaded or timed out; retry later", body = super::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
    ))]
async fn post_play(
    State(_state): State<AppState>,
    JsonBody(body): JsonBody,
) -> Result<Json<PlayResponse>, ApiError> {
    play(json_body(&body)?).map(Json)
}

/// The state of a board.
///
/// Whether the position is legal (an impossible one is a 422 with the same code as `POST
/// /v1/move`), the side to move, whether the game is won (with the line), drawn or in play, the
/// legal moves and, under renju with black to move, the forbidden cells and why. A finished game
/// is a 200 status here, not an error.
#[utoipa::path(post, path = "/v1/status", tag = "moves",
    request_body(content = StatusRequest, content_type = "application/json"),
    responses(
        (status = 200, description = "The board's state", body = StatusResponse),
        (status = 400, description = "Malformed JSON", body = super::Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over the limit", body = super::Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not sent as application/json", body = super::Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid request or board, impossible position or wrong side", body = super::Problem, content_type = "application/problem+json"),
        (status = 429, description = "Over the per-client rate limit (only when RATE_LIMIT_PER_SECOND is set)", body = super::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
        (status = 503, description = "Overloaded or timed out; retry later", body = super::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
    ))]
async fn post_status(
    State(_state): State<AppState>,
    JsonBody(body): JsonBody,
) -> Result<Json<StatusResponse>, ApiError> {
    status(json_body(&body)?).map(Json)
}

fn json_body(body: &[u8]) -> Result<Value, ApiError> {
    serde_json::from_slice(body).map_err(|e| ApiError::MalformedJson(e.to_string()))
}
