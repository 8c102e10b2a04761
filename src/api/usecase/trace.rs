//! Tracing a search, for `POST /v1/trace` and the MCP trace tool: the tree a position or a
//! textbook tree gets, on the bounded blocking pool.

use std::time::Duration;

use super::slots::run_bounded;
use crate::api::problem::ApiError;
use crate::api::problem::ProblemCode;
use crate::api::state::AppState;
use crate::api::wire::{TraceResponse, ValidTrace};
use crate::engine::{TraceError, TraceOptions};

/// Traces on the bounded blocking pool under a search slot, stopped at the server's longest
/// time limit or when the caller goes away.
pub(crate) async fn trace_bounded(
    state: &AppState,
    request: ValidTrace,
) -> Result<TraceResponse, ApiError> {
    let millis = state.settings().max_time_limit_ms.max(1);
    let engine = state.engine().clone();
    let result = run_bounded(
        state,
        Duration::from_millis(millis),
        move |deadline, cancel| {
            let options = TraceOptions {
                deadline: Some(deadline),
                cancel,
                ..request.options
            };
            engine
                .trace(&request.input, &options)
                .map(|trace| TraceResponse::new(&request.input, trace, &options))
        },
    )
    .await?;
    result.map_err(|error| match error {
        TraceError::TooLarge { .. } => {
            ApiError::invalid(ProblemCode::TraceTooLarge, "", error.to_string())
        }
        TraceError::Stopped => ApiError::Timeout,
    })
}
