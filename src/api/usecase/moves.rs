//! Answering a move request, once for every front door (`POST` and `GET /v1/move`, its event
//! stream, the MCP tool `suggest_move`): a lookup inline when the engine answers one, else a
//! search in a slot ([`super::slots`]) under the engine's limits policy.

use std::time::{Duration, Instant};

use super::slots::{Reserved, reserve_slot, run_reserved};
use crate::api::problem::ApiError;
use crate::api::state::{AppState, Settings};
use crate::api::wire::{MoveResponse, ValidRequest};
use crate::engine::{Cancel, Engine, Progress, Scoring, SearchLimits, SuggestOptions};

/// The answer: inline for a table lookup, on the bounded blocking pool (a search slot, 503 when none frees up in time) for a search.
///
/// A search stops when this future is dropped (its client went away, or the request timed out):
/// it notices within about a thousand nodes and gives its slot back.
pub(crate) async fn answer_bounded(
    state: &AppState,
    request: ValidRequest,
) -> Result<MoveResponse, ApiError> {
    answer_watched(state, request, Progress::default()).await
}

/// As [`answer_bounded`], with `progress` called after each completed iteration of the search.
pub(crate) async fn answer_watched(
    state: &AppState,
    request: ValidRequest,
    progress: Progress,
) -> Result<MoveResponse, ApiError> {
    let slot = if state.engine().answers_inline(&request.position) {
        None
    } else {
        Some(reserve_slot(state).await?)
    };
    answer_in_slot(state, request, progress, slot).await
}

/// As [`answer_watched`], with the search slot already reserved (`None` for a 3 × 3 lookup,
/// which needs none).
pub(crate) async fn answer_in_slot(
    state: &AppState,
    request: ValidRequest,
    progress: Progress,
    slot: Option<Reserved>,
) -> Result<MoveResponse, ApiError> {
    let settings = state.settings();
    let millis = time_limit_ms(&request, settings);
    let time_limit = Duration::from_millis(millis);
    let engine = state.engine().clone();
    let Some(slot) = slot else {
        // A lookup takes well under a microsecond: the hop to the blocking pool would cost more
        // than the work (see the README's measurements).
        crate::api::metrics::table_answers().increment(1);
        let options = options(
            &engine,
            &request,
            millis,
            Instant::now() + time_limit,
            Cancel::default(),
        );
        return Ok(answer(&engine, &request, &options));
    };
    run_reserved(state, slot, time_limit, move |deadline, cancel| {
        let mut options = options(&engine, &request, millis, deadline, cancel);
        options.limits.progress = progress;
        answer(&engine, &request, &options)
    })
    .await
}

/// A request's search time limit in milliseconds, capped by the server's settings.
fn time_limit_ms(request: &ValidRequest, settings: &Settings) -> u64 {
    request
        .time_limit_ms
        .unwrap_or(settings.default_time_limit_ms)
        .clamp(1, settings.max_time_limit_ms)
}

/// The search limits for a request of `millis`, by the engine's policy, with its deadline and
/// the handle that cancels it.
fn limits(
    engine: &Engine,
    request: &ValidRequest,
    millis: u64,
    deadline: Instant,
    cancel: Cancel,
) -> SearchLimits {
    SearchLimits {
        all_moves: request.moves || request.scoring == Scoring::Classic,
        multi_pv: request.top,
        ..engine.limits(
            request.position.geometry(),
            request.max_depth,
            millis,
            deadline,
            cancel,
        )
    }
}

/// The engine's options for a request: its scoring, limits, difficulty and tie-break, and a
/// seed (the request's, or a fresh random one when the answer involves chance).
fn options(
    engine: &Engine,
    request: &ValidRequest,
    millis: u64,
    deadline: Instant,
    cancel: Cancel,
) -> SuggestOptions {
    let mut options = SuggestOptions {
        scoring: request.scoring,
        limits: limits(engine, request, millis, deadline, cancel),
        difficulty: request.difficulty,
        tie_break: request.tie_break,
        seed: 0,
    };
    if options.uses_chance() {
        // A generated seed stays below 2^53 so JavaScript clients can send it back unchanged.
        options.seed = request.seed.unwrap_or_else(|| rand::random::<u64>() >> 11);
    }
    options
}

/// Computes the answer.
fn answer(engine: &Engine, request: &ValidRequest, options: &SuggestOptions) -> MoveResponse {
    let suggestion = engine.suggest(&request.position, options);
    if suggestion.analysis.nodes > 0 {
        metrics::counter!("minimax_search_nodes_total").increment(suggestion.analysis.nodes);
    }
    MoveResponse::new(
        suggestion,
        request.moves,
        request.top,
        &request.style,
        request.position.geometry(),
    )
}
