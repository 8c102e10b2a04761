//! `POST /v1/move` and `GET /v1/move`: the best move for a position.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use serde_json::Value;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::{JsonBody, StrictQuery};
use super::problem::ProblemCode;
use super::respond::json_response;
use super::usecase::moves::answer_bounded;
use super::wire::{
    MoveQuery, MoveRequest, MoveResponse, ServerSentEvent, ValidRequest, parse_body,
};
use crate::api::problem::ApiError;
use crate::api::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(post_move, get_move))
        .routes(routes!(post_move_stream))
}

/// Best move for a position.
///
/// Send the position as a JSON object (`board` and options) or as the bare board array. On 3 × 3
/// the answer is a lookup in the solved table; larger boards are searched within the time budget.
#[utoipa::path(post, path = "/v1/move", tag = "moves",
    request_body(content = super::wire::MoveBody, content_type = "application/json",
        examples(
            ("seed board" = (summary = "The freeCodeCamp board, with the move table",
                value = json!({"board": ["O", 1, "X", "X", 4, "X", 6, "O", "O"], "moves": true}))),
            ("classic" = (summary = "Classic +10/-10/0 scoring: index 4, score 10",
                value = json!({"board": ["O", 1, "X", "X", 4, "X", 6, "O", "O"], "scoring": "classic", "moves": true}))),
            ("fast win" = (summary = "Depth scoring prefers the immediate win at 7",
                value = json!({"board": ["X", "X", "O", "O", "X", 5, "O", 7, 8]}))),
            ("slow loss" = (summary = "O started; X blocks at 2 and loses as late as possible (score -6)",
                value = json!({"board": [0, 1, 2, 3, 4, "O", 6, "X", "O"]}))),
            ("compact" = (summary = "The compact string form",
                value = json!({"board": "O.XX.X.OO"}))),
            ("bare array" = (summary = "The bare board as the whole body",
                value = json!(["O", 1, "X", "X", 4, "X", 6, "O", "O"]))),
            ("4x4" = (summary = "A 4 × 4 board, four in a row",
                value = json!({"board": "................", "rows": 4, "cols": 4, "k": 4, "time_limit_ms": 500}))),
            ("renju" = (summary = "15 × 15 renju: X (black) to move, never on a forbidden cell",
                value = json!({"board": ".".repeat(225), "rows": 15, "cols": 15, "k": 5, "rule": "renju", "time_limit_ms": 500}))),
        )),
    responses(
        (status = 200, description = "The best move (or the move chosen at the requested difficulty). A request whose `Accept` prefers `text/event-stream` gets the stream of `POST /v1/move/stream` instead.", body = MoveResponse),
        (status = 400, description = "Malformed JSON", body = crate::api::problem::Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over the limit", body = crate::api::problem::Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not sent as uncompressed application/json", body = crate::api::problem::Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid request or board, a geometry or rule that is not supported (invalid_geometry, naming `/rule` for a rule other than freestyle off a gomoku board), impossible position, wrong side to move, or a finished game (code game_over, with winner and line)", body = crate::api::problem::Problem, content_type = "application/problem+json"),
        (status = 429, description = "Over the per-client rate limit (only when RATE_LIMIT_PER_SECOND is set)", body = crate::api::problem::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
        (status = 503, description = "Overloaded (with Retry-After: every search slot busy), or timed out (no Retry-After: the same request would run out of time again)", body = crate::api::problem::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
    ))]
async fn post_move(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonBody(body): JsonBody,
) -> Result<Response, ApiError> {
    let request = parse_body(&body)?;
    if super::move_stream::wants_events(&headers) {
        return super::move_stream::stream(state, request).await;
    }
    respond(&state, request).await
}

/// Best move for a position, as a live search: server-sent events.
///
/// The same request as `POST /v1/move`; the answer is a stream of server-sent events: a
/// `progress` event after each completed iteration of the search (none on 3 × 3, a table
/// lookup), then one `result` event whose data is the JSON of the plain answer, or one `error`
/// event whose data is a problem document. A request that is invalid, or that finds every search
/// slot busy, gets the plain problem response instead of a stream. A client that closes the
/// stream stops the search. `POST /v1/move` with `Accept: text/event-stream` answers the same.
#[utoipa::path(post, path = "/v1/move/stream", tag = "moves",
    request_body(content = super::wire::MoveBody, content_type = "application/json",
        examples(
            ("15x15" = (summary = "A 15 × 15 gomoku search, half a second",
                value = json!({"board": ".".repeat(225), "rows": 15, "cols": 15, "k": 5, "time_limit_ms": 500}))),
        )),
    responses(
        (status = 200, description = "Server-sent events: `progress` events, whose data is a JSON object: `depth`, `nodes`, `index` (the best move so far, with its `coordinate` on gomoku boards: k = 5, or 100 cells or more), `score`, `outcome`, `plies` and `exact` (as in the answer), `pv` (the line from `index`) and `elapsed_ms`; then one `result` event (the plain answer's JSON) or one `error` event (a problem document; `not_ready` with `retry:` advice when the server shuts down before the search ends). Sent with `Cache-Control: no-store`.",
            content(
                (ServerSentEvent = "text/event-stream", example = json!("event: progress\ndata: {\"depth\":1,\"nodes\":225,\"index\":112,\"score\":0.01,\"outcome\":\"unknown\",\"plies\":null,\"exact\":false,\"pv\":[112],\"elapsed_ms\":3}\n\nevent: result\ndata: {\"index\":112,...}\n\n")),
            )),
        (status = 400, description = "Malformed JSON", body = crate::api::problem::Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over the limit", body = crate::api::problem::Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not sent as uncompressed application/json", body = crate::api::problem::Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid request or board, as for `POST /v1/move`", body = crate::api::problem::Problem, content_type = "application/problem+json"),
        (status = 429, description = "Over the per-client rate limit (only when RATE_LIMIT_PER_SECOND is set)", body = crate::api::problem::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
        (status = 503, description = "Every search slot busy (overloaded, with Retry-After), or starting or shutting down", body = crate::api::problem::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
    ))]
async fn post_move_stream(
    State(state): State<AppState>,
    JsonBody(body): JsonBody,
) -> Result<Response, ApiError> {
    let request = parse_body(&body)?;
    super::move_stream::stream(state, request).await
}

/// Best move for a position given in the query string, for links and curl.
///
/// Returns the same answer as `POST /v1/move` with the same options.
#[utoipa::path(get, path = "/v1/move", tag = "moves", params(MoveQuery),
    responses(
        (status = 200, description = "The best move", body = MoveResponse),
        (status = 422, description = "Invalid query, board or position, or a finished game", body = crate::api::problem::Problem, content_type = "application/problem+json"),
        (status = 429, description = "Over the per-client rate limit (only when RATE_LIMIT_PER_SECOND is set)", body = crate::api::problem::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
        (status = 503, description = "Overloaded (with Retry-After: every search slot busy), or timed out (no Retry-After: the same request would run out of time again)", body = crate::api::problem::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
    ))]
async fn get_move(
    State(state): State<AppState>,
    StrictQuery(query): StrictQuery<MoveQuery>,
) -> Result<Response, ApiError> {
    let geometry = query.geometry_fields();
    let board = if query.board.trim_start().starts_with('[') {
        serde_json::from_str(&query.board).map_err(|e| {
            ApiError::invalid(
                ProblemCode::InvalidBoard,
                "/board",
                format!("the board looks like a JSON array but is not valid JSON: {e}"),
            )
        })?
    } else {
        Value::String(query.board)
    };
    let request = MoveRequest {
        player: query.player,
        scoring: query.scoring.unwrap_or_default(),
        moves: query.moves.unwrap_or(false),
        top: query.top,
        max_depth: query.max_depth,
        time_limit_ms: query.time_limit_ms,
        difficulty: query.difficulty.unwrap_or_default(),
        tie_break: query.tie_break.unwrap_or_default(),
        seed: query.seed,
        ..MoveRequest::for_board(board)
    }
    .with_geometry_fields(geometry);
    respond(&state, ValidRequest::try_from(request)?).await
}

/// Answers a valid request: inline for a 3 × 3 table lookup, on the bounded blocking pool for a
/// search.
async fn respond(state: &AppState, request: ValidRequest) -> Result<Response, ApiError> {
    Ok(json_response(&answer_bounded(state, request).await?, 1024))
}
