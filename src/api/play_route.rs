//! `POST /v1/play` and `POST /v1/status`: play one move on a board, or read a board's state. The
//! REST twins of the MCP tools `apply_move` and `game_status`, so that no client (and no language
//! model) ever edits a board by hand.

use axum::Json;
use axum::extract::State;
use serde_json::Value;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::JsonBody;
use super::problem::ProblemCode;
use super::wire::{
    ForbiddenCell, GameStatus, PlayRequest, PlayResponse, StatusRequest, StatusResponse,
    coordinate, parse_object,
};
use super::{ApiError, AppState};
use crate::engine::{Player, Position, PositionError};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(post_play))
        .routes(routes!(post_status))
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

/// Plays one move.
///
/// # Errors
/// The same 422 problems as `POST /v1/move` for the board (a finished game is `game_over`), and
/// `invalid_move` (pointer `/index`, or `/column`) for a cell that is off the board, taken or,
/// on a gravity board, above an empty cell, or for a column that is missing or full;
/// `forbidden_move` (pointer `/index`, with the `reason`) for black's forbidden cell under renju.
pub fn play(input: Value) -> Result<PlayResponse, ApiError> {
    let request: PlayRequest = parse_object(input)?;
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
    let request: StatusRequest = parse_object(input)?;
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
