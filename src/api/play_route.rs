//! `POST /v1/play` and `POST /v1/status`: play one move on a board, or read a board's state. The
//! REST twins of the MCP tools `apply_move` and `game_status`, so that no client (and no language
//! model) ever edits a board by hand.

use axum::Json;
use axum::extract::State;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::{JsonBody, read_json};
use super::usecase::play::{play, status};
use super::wire::{PlayRequest, PlayResponse, StatusRequest, StatusResponse};
use crate::api::problem::ApiError;
use crate::api::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(post_play))
        .routes(routes!(post_status))
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
        (status = 400, description = "Malformed JSON", body = crate::api::problem::Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over the limit", body = crate::api::problem::Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not sent as application/json", body = crate::api::problem::Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid request or board, impossible position, wrong side, a finished game (game_over), a cell off the board or taken (invalid_move), or under renju a cell forbidden to black (forbidden_move, with its reason: overline, double_four or double_three)", body = crate::api::problem::Problem, content_type = "application/problem+json"),
        (status = 429, description = "Over the per-client rate limit (only when RATE_LIMIT_PER_SECOND is set)", body = crate::api::problem::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
        (status = 503, description = "Overloaded or timed out; retry later", body = crate::api::problem::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
    ))]
async fn post_play(
    State(state): State<AppState>,
    JsonBody(body): JsonBody,
) -> Result<Json<PlayResponse>, ApiError> {
    play(state.engine(), read_json(&body)?).map(Json)
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
        (status = 400, description = "Malformed JSON", body = crate::api::problem::Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over the limit", body = crate::api::problem::Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not sent as application/json", body = crate::api::problem::Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid request or board, impossible position or wrong side", body = crate::api::problem::Problem, content_type = "application/problem+json"),
        (status = 429, description = "Over the per-client rate limit (only when RATE_LIMIT_PER_SECOND is set)", body = crate::api::problem::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
        (status = 503, description = "Overloaded or timed out; retry later", body = crate::api::problem::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
    ))]
async fn post_status(
    State(_state): State<AppState>,
    JsonBody(body): JsonBody,
) -> Result<Json<StatusResponse>, ApiError> {
    status(read_json(&body)?).map(Json)
}
