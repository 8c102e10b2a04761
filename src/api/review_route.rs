//! `POST /v1/review`: a whole game, move by move, each move compared with the best one and
//! labelled (see [`Review`](crate::engine::Review) for the labels and their thresholds).

use axum::extract::State;
use axum::response::Response;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::{JsonBody, read_json};
use super::respond::json_response;
use super::usecase::review::review_bounded;
use super::wire::{ReviewRequest, ReviewResponse, parse_review};
use crate::api::problem::ApiError;
use crate::api::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(post_review))
}

/// Review of a whole game.
///
/// Send the cells played in order; every move is compared with the best move of its position
/// and labelled `best`, `good`, `inaccuracy`, `mistake` or `blunder`. On 3 × 3 every value is
/// proven and the answer is immediate; larger boards share one time budget over the positions.
#[utoipa::path(post, path = "/v1/review", tag = "moves",
    request_body(content = ReviewRequest, content_type = "application/json",
        examples(
            ("edge reply" = (summary = "O answers the centre on an edge and loses",
                value = json!({"moves": [4, 1, 0, 8, 2, 6, 3, 5]}))),
            ("O first" = (summary = "O moves first",
                value = json!({"moves": [0, 4, 8], "first": "O"}))),
        )),
    responses(
        (status = 200, description = "Every move labelled, the players' tallies, the turning point and a sentence", body = ReviewResponse),
        (status = 400, description = "Malformed JSON", body = crate::api::problem::Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over the limit", body = crate::api::problem::Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not sent as uncompressed application/json", body = crate::api::problem::Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid request or geometry, or a move that is off the board, on a taken cell or after the game ended (code invalid_move, the pointer /moves/{i} naming it), or under renju a move forbidden to black (code forbidden_move, with its reason)", body = crate::api::problem::Problem, content_type = "application/problem+json"),
        (status = 429, description = "Over the per-client rate limit (only when RATE_LIMIT_PER_SECOND is set)", body = crate::api::problem::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
        (status = 503, description = "Overloaded or timed out; retry later", body = crate::api::problem::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
    ))]
async fn post_review(
    State(state): State<AppState>,
    JsonBody(body): JsonBody,
) -> Result<Response, ApiError> {
    let response = review_bounded(&state, parse_review(read_json(&body)?)?).await?;
    Ok(json_response(&response, 2048))
}
