//! Playing one move on a board, and reading a board's state: what `POST /v1/play` and `POST
//! /v1/status` answer and the MCP tools `apply_move` and `game_status` call, so that no client
//! (and no language model) ever edits a board by hand.

use serde_json::Value;

use crate::api::problem::ApiError;
use crate::api::problem::ProblemCode;
use crate::api::wire::{
    ForbiddenCell, GameStatus, PlayRequest, PlayResponse, StatusRequest, StatusResponse,
    coordinate, parse_object,
};
use crate::engine::{Engine, Player, Position, PositionError};

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
pub(crate) fn play(engine: &Engine, input: Value) -> Result<PlayResponse, ApiError> {
    let request: PlayRequest = parse_object(input)?;
    let (position, style) = request
        .geometry_fields()
        .position(&request.board, request.player)?;
    let index = cell_to_play(&request, &position)?;
    let geometry = position.geometry();
    let played = engine
        .play(&position, index)
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
pub(crate) fn status(input: Value) -> Result<StatusResponse, ApiError> {
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
            let (cells, _) = crate::api::wire::parse_board(&request.board)?;
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
