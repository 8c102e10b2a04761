//! Reviewing a game, for `POST /v1/review` and the MCP tool `review_game`: every move labelled
//! against the best one (see [`Review`](crate::engine::Review) for the labels and their
//! thresholds).

use std::time::Duration;

use super::slots::run_bounded;
use crate::api::problem::ApiError;
use crate::api::state::{AppState, Settings};
use crate::api::wire::{ReviewResponse, ValidReview};
use crate::engine::SearchLimits;

/// Reviews a game: inline when every position is a table lookup, else on the bounded blocking
/// pool under one search slot, one deadline and one work budget for the whole game.
pub(crate) async fn review_bounded(
    state: &AppState,
    request: ValidReview,
) -> Result<ReviewResponse, ApiError> {
    let engine = state.engine().clone();
    if engine.reviews_inline(&request.game) {
        crate::api::metrics::table_answers().increment(1);
        let review = engine.review(&request.game, &SearchLimits::default());
        return Ok(ReviewResponse::new(&request.game, &review));
    }
    let millis = time_limit_ms(&request, state.settings());
    run_bounded(
        state,
        Duration::from_millis(millis),
        move |deadline, cancel| {
            // Every move of every position scored: the review compares the played move with
            // the best.
            let limits = SearchLimits {
                all_moves: true,
                ..engine.limits(
                    request.game.geometry(),
                    request.max_depth,
                    millis,
                    deadline,
                    cancel,
                )
            };
            let review = engine.review(&request.game, &limits);
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
