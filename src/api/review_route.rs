//! `POST /v1/review`: a whole game, move by move, each move compared with the best one and
//! labelled (see [`crate::engine::review`] for the labels and their thresholds).

use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::answer::{run_bounded, search_limits};
use super::extract::JsonBody;
use super::wire::{ReviewRequest, ReviewResponse, ValidReview, parse_review};
use super::{ApiError, AppState, Settings};
use crate::engine::{SearchLimits, review};

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
        (status = 400, description = "Malformed JSON", body = super::Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over the limit", body = super::Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not sent as uncompressed application/json", body = super::Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid request or geometry, or a move that is off the board, on a taken cell or after the game ended (code invalid_move, the pointer /moves/{i} naming it), or under renju a move forbidden to black (code forbidden_move, with its reason)", body = super::Problem, content_type = "application/problem+json"),
        (status = 429, description = "Over the per-client rate limit (only when RATE_LIMIT_PER_SECOND is set)", body = super::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
        (status = 503, description = "Overloaded or timed out; retry later", body = super::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
    ))]
async fn post_review(
    State(state): State<AppState>,
    JsonBody(body): JsonBody,
) -> Result<Response, ApiError> {
    let value: Value =
        serde_json::from_slice(&body).map_err(|e| ApiError::MalformedJson(e.to_string()))?;
    let response = review_bounded(&state, parse_review(value)?).await?;
    let mut body = Vec::with_capacity(2048);
    serde_json::to_writer(&mut body, &response).map_err(|_| ApiError::Internal)?;
    Ok((
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response())
}

/// Reviews a game: inline when every position is a table lookup, else on the bounded blocking
/// pool under one search slot, one deadline and one work budget for the whole game.
pub(crate) async fn review_bounded(
    state: &AppState,
    request: ValidReview,
) -> Result<ReviewResponse, ApiError> {
    if request.game.is_solved() {
        super::metrics::table_answers().increment(1);
        let review = review(&request.game, &SearchLimits::default());
        return Ok(ReviewResponse::new(&request.game, &review));
    }
    let settings = state.settings().clone();
    let millis = time_limit_ms(&request, &settings);
    run_bounded(
        state,
        Duration::from_millis(millis),
        move |deadline, cancel| {
            // Every move of every position scored: the review compares the played move with
            // the best.
            let limits = SearchLimits {
                all_moves: true,
                ..search_limits(
                    &settings,
                    request.game.geometry(),
                    request.max_depth,
                    millis,
                    deadline,
                    cancel,
                )
            };
            let review = review(&request.game, &limits);
            if review.nodes > 0 {
                metrics::counter!("minimax_search_nodes_total").increment(review.nodes);
            }
            ReviewResponse::new(&request.game, &review)
        },
    )
    .await
}

/// The default budget of a review, per position searched: a review's labels are as good as
/// each position's search, so a longer game gets a longer review (up to the server's cap).
pub const POSITION_TIME_MS: u64 = 200;

/// The whole game's time limit: the request's, else [`POSITION_TIME_MS`] a position; capped by
/// the server like a move's.
fn time_limit_ms(request: &ValidReview, settings: &Settings) -> u64 {
    let positions = request.game.moves().len() as u64;
    request
        .time_limit_ms
        .unwrap_or(POSITION_TIME_MS.saturating_mul(positions))
        .clamp(1, settings.max_time_limit_ms)
}
