//! Connect Four's column scores in the public solver's form, for `GET /v1/connect4/solve`: every
//! column proven, or none.

use std::time::Duration;

use super::slots::run_bounded;
use crate::api::problem::ApiError;
use crate::api::state::AppState;
use crate::engine::{Position, SearchLimits, SuggestOptions};

/// The score the public API gives a full column.
const FULL: i32 = 100;

/// Pons' score of every column of `position` for its side to move, 100 for a full column. On
/// the bounded pool like every search: it holds a slot, runs to the server's longest time limit
/// (the gravity solver gets no work budget), and stops, freeing the slot, when its client goes
/// away.
///
/// # Errors
/// 503 `overloaded` when no slot frees up; 503 `timeout` when a column is not proven in time:
/// the format has no way to say "estimate".
pub(crate) async fn column_scores(
    state: &AppState,
    position: Position,
) -> Result<Vec<i32>, ApiError> {
    let limit = Duration::from_millis(state.settings().max_time_limit_ms);
    let engine = state.engine().clone();
    run_bounded(state, limit, move |deadline, cancel| {
        let limits = SearchLimits {
            deadline: Some(deadline),
            cancel,
            ..SearchLimits::default()
        };
        let options = SuggestOptions {
            limits,
            ..SuggestOptions::default()
        };
        let analysis = engine.suggest(&position, &options).analysis;
        engine.column_scores(&position, &analysis).map(|scores| {
            scores
                .into_iter()
                .map(|score| score.unwrap_or(FULL))
                .collect::<Vec<i32>>()
        })
    })
    .await?
    .ok_or(ApiError::Timeout)
}
