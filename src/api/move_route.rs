//! `POST /v1/move` and `GET /v1/move`: the best move for a position.

use std::time::{Duration, Instant};

use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::Value;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::JsonBody;
use super::problem::ProblemCode;
use super::wire::{MoveRequest, MoveResponse, ValidRequest, parse_body};
use super::{ApiError, AppState, Settings};
use crate::engine::{
    Cancel, Difficulty, Player, Progress, Scoring, SearchLimits, SuggestOptions, TieBreak, suggest,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(post_move, get_move))
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
        )),
    responses(
        (status = 200, description = "The best move (or the move chosen at the requested difficulty). With `Accept: text/event-stream` the answer is a stream of server-sent events instead: a `progress` event after each completed iteration of the search (none on 3 × 3, a table lookup), whose data is a JSON object: `depth`, `nodes`, `index` (the best move so far), `score`, `outcome`, `plies` and `exact` (as in the answer), `pv` (the line from `index`) and `elapsed_ms`, then one `result` event whose data is the JSON of the plain answer, or one `error` event whose data is a problem document (a request that is invalid gets the plain problem response instead of a stream). A client that closes the stream stops the search.",
            content(
                (MoveResponse = "application/json"),
                (String = "text/event-stream", example = json!("event: progress\ndata: {\"depth\":1,\"nodes\":225,\"index\":112,\"score\":0.01,\"outcome\":\"unknown\",\"plies\":null,\"exact\":false,\"pv\":[112],\"elapsed_ms\":3}\n\nevent: result\ndata: {\"index\":112,...}\n\n")),
            )),
        (status = 400, description = "Malformed JSON", body = super::Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over the limit", body = super::Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not sent as uncompressed application/json", body = super::Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid request or board, impossible position, wrong side to move, or a finished game (code game_over, with winner and line)", body = super::Problem, content_type = "application/problem+json"),
        (status = 429, description = "Over the per-client rate limit (only when RATE_LIMIT_PER_SECOND is set)", body = super::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
        (status = 503, description = "Overloaded or timed out; retry later", body = super::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
    ))]
async fn post_move(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonBody(body): JsonBody,
) -> Result<Response, ApiError> {
    let request = parse_body(&body)?;
    if super::move_stream::wants_events(&headers) {
        return Ok(super::move_stream::stream(state, request));
    }
    respond(&state, request).await
}

/// Query parameters of `GET /v1/move`: the same options as the POST body.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
struct MoveQuery {
    /// The board: the compact string form (`O.XX.X.OO`), or a JSON array.
    #[param(example = "O.XX.X.OO")]
    board: String,
    /// The side to move.
    player: Option<Player>,
    /// `depth` (default) or `classic`.
    scoring: Option<Scoring>,
    /// Whether to include the move table.
    moves: Option<bool>,
    /// Rows (default 3).
    #[param(value_type = Option<i32>, minimum = 1, maximum = 15)]
    rows: Option<u64>,
    /// Columns (default 3).
    #[param(value_type = Option<i32>, minimum = 1, maximum = 15)]
    cols: Option<u64>,
    /// Marks in a row to win (default 3).
    #[param(value_type = Option<i32>, minimum = 1, maximum = 15)]
    k: Option<u64>,
    /// Gravity (default false): marks drop to the lowest empty cell of their column.
    gravity: Option<bool>,
    /// Deepest search in plies.
    #[param(value_type = Option<i32>, minimum = 1)]
    max_depth: Option<u32>,
    /// Search time budget in milliseconds (a work budget derived from it makes answers
    /// reproducible; the time limit is the hard stop).
    #[param(value_type = Option<i32>, minimum = 1)]
    time_limit_ms: Option<u64>,
    /// `perfect` (default), `hard`, `medium`, `easy`.
    difficulty: Option<Difficulty>,
    /// `first` (default) or `random`.
    tie_break: Option<TieBreak>,
    /// Seed for reproducible randomness.
    #[param(value_type = Option<i64>, minimum = 0)]
    seed: Option<u64>,
}

/// Best move for a position given in the query string, for links and curl.
///
/// Returns the same answer as `POST /v1/move` with the same options.
#[utoipa::path(get, path = "/v1/move", tag = "moves", params(MoveQuery),
    responses(
        (status = 200, description = "The best move", body = MoveResponse),
        (status = 422, description = "Invalid query, board or position, or a finished game", body = super::Problem, content_type = "application/problem+json"),
        (status = 429, description = "Over the per-client rate limit (only when RATE_LIMIT_PER_SECOND is set)", body = super::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
        (status = 503, description = "Overloaded or timed out; retry later", body = super::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
    ))]
async fn get_move(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let query = query.unwrap_or_default();
    let deserializer =
        serde_urlencoded::Deserializer::new(form_urlencoded::parse(query.as_bytes()));
    let query: MoveQuery =
        serde_path_to_error::deserialize(deserializer).map_err(|e| query_error(&e))?;
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
        rows: query.rows,
        cols: query.cols,
        k: query.k,
        gravity: query.gravity.unwrap_or(false),
        max_depth: query.max_depth,
        time_limit_ms: query.time_limit_ms,
        difficulty: query.difficulty.unwrap_or_default(),
        tie_break: query.tie_break.unwrap_or_default(),
        seed: query.seed,
        ..MoveRequest::for_board(board)
    };
    respond(&state, ValidRequest::try_from(request)?).await
}

/// The 422 for a query string of the wrong shape, naming the parameter serde stopped at.
pub(crate) fn query_error(
    error: &serde_path_to_error::Error<serde_urlencoded::de::Error>,
) -> ApiError {
    let name = error.path().to_string();
    let message = error.inner().to_string();
    // serde reports an unknown field only through `de::Error::unknown_field`, whose one trace
    // in the error type is its message text: there is no typed path to tell it apart.
    let code = if message.starts_with("unknown field") {
        ProblemCode::UnknownField
    } else {
        ProblemCode::InvalidRequest
    };
    if name.is_empty() || name == "." || name == "?" {
        ApiError::invalid(code, "", format!("query string: {message}"))
    } else {
        ApiError::invalid(
            code,
            format!("/{name}"),
            format!("query parameter `{name}`: {message}"),
        )
    }
}

/// Answers a valid request: inline for a 3 × 3 table lookup, on the bounded blocking pool for a
/// search.
async fn respond(state: &AppState, request: ValidRequest) -> Result<Response, ApiError> {
    let body = answer_bounded(state, request).await?;
    Ok((
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response())
}

/// The answer's JSON bytes, computed the way [`respond`] does: inline for a table lookup, on the
/// bounded blocking pool (a search slot, 503 when none frees up in time) for a search.
///
/// A search stops when this future is dropped (its client went away, or the request timed out):
/// it notices within about a thousand nodes and gives its slot back.
pub(crate) async fn answer_bounded(
    state: &AppState,
    request: ValidRequest,
) -> Result<Vec<u8>, ApiError> {
    answer_watched(state, request, Progress::default()).await
}

/// As [`answer_bounded`], with `progress` called after each completed iteration of the search.
pub(crate) async fn answer_watched(
    state: &AppState,
    request: ValidRequest,
    progress: Progress,
) -> Result<Vec<u8>, ApiError> {
    let settings = state.settings();
    let time_limit = Duration::from_millis(time_limit_ms(&request, settings));
    if request.position.geometry().is_tic_tac_toe() {
        // A lookup takes well under a microsecond: the hop to the blocking pool would cost more
        // than the work (see the README's measurements).
        super::metrics::table_answers().increment(1);
        let options = options(
            &request,
            settings,
            Instant::now() + time_limit,
            Cancel::default(),
        );
        return Ok(answer(&request, &options));
    }
    let settings = settings.clone();
    run_bounded(state, time_limit, move |deadline, cancel| {
        let mut options = options(&request, &settings, deadline, cancel);
        options.limits.progress = progress;
        answer(&request, &options)
    })
    .await
}

/// Runs `work` on the bounded blocking pool: it waits for a search slot (503 when none frees up
/// within the queue wait), holds it until `work` returns, and gets the deadline `time_limit`
/// from now and a [`Cancel`] raised when this future is dropped (its client went away, or the
/// request timed out), which its searches must watch.
pub(crate) async fn run_bounded<T: Send + 'static>(
    state: &AppState,
    time_limit: Duration,
    work: impl FnOnce(Instant, Cancel) -> T + Send + 'static,
) -> Result<T, ApiError> {
    let settings = state.settings();
    let Ok(Ok(permit)) =
        tokio::time::timeout(settings.queue_wait, state.searches().acquire_owned()).await
    else {
        metrics::counter!("minimax_shed_total").increment(1);
        return Err(ApiError::Overloaded {
            retry_after: state.seconds_until_a_search_ends(),
        });
    };
    let deadline = Instant::now() + time_limit;
    let slot = state.occupy_search_slot(permit, deadline);
    let cancel = Cancel::new();
    let _stop_when_dropped = StopWhenDropped(cancel.clone());
    let span = tracing::Span::current();
    let task = tokio::task::spawn_blocking(move || {
        let _entered = span.enter();
        // Counted inside the task: it runs until the search notices a cancellation.
        metrics::gauge!("minimax_searches_in_flight").increment(1.0);
        lower_search_priority();
        let started = Instant::now();
        let output = work(deadline, cancel);
        drop(slot);
        metrics::histogram!("minimax_search_seconds").record(started.elapsed().as_secs_f64());
        metrics::gauge!("minimax_searches_in_flight").decrement(1.0);
        output
    });
    task.await.map_err(|e| {
        tracing::error!(error = %e, "search task failed");
        ApiError::Internal
    })
}

/// Cancels a search when the future waiting for it is dropped; after the search has answered,
/// cancelling does nothing.
struct StopWhenDropped(Cancel);

impl Drop for StopWhenDropped {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// Runs searches at a lower CPU priority (about nice 10) than the async workers, so that a flood of
/// large-board searches cannot delay the sub-microsecond 3 × 3 answers by more than a scheduling
/// slice. Set once per blocking-pool thread; only searches run on that pool.
fn lower_search_priority() {
    use std::cell::Cell;
    use thread_priority::{ThreadPriority, set_current_thread_priority};
    thread_local!(static LOWERED: Cell<bool> = const { Cell::new(false) });
    if !LOWERED.get() {
        LOWERED.set(true);
        // On Linux the cross-platform value 25 (of 0..=99) maps to nice 9 or 10.
        let low = ThreadPriority::Crossplatform(25_u8.try_into().expect("25 is in 0..=99"));
        if let Err(error) = set_current_thread_priority(low) {
            tracing::debug!(?error, "could not lower the search thread's priority");
        }
    }
}

/// A request's search time limit in milliseconds, capped by the server's settings.
fn time_limit_ms(request: &ValidRequest, settings: &Settings) -> u64 {
    request
        .time_limit_ms
        .unwrap_or(settings.default_time_limit_ms)
        .clamp(1, settings.max_time_limit_ms)
}

/// The search limits for a request, capped by the server's settings, with its deadline and the
/// handle that cancels it.
fn limits(
    request: &ValidRequest,
    settings: &Settings,
    deadline: Instant,
    cancel: Cancel,
) -> SearchLimits {
    SearchLimits {
        max_depth: Some(
            request
                .max_depth
                .unwrap_or(settings.max_depth)
                .min(settings.max_depth),
        ),
        // The work budget usually stops the search before the clock on an unloaded machine, so
        // the same request gets the same answer; the deadline is the hard stop under load.
        deadline: Some(deadline),
        // The gravity solver proves values, whatever the order it searches in, so it runs to the
        // deadline: a work budget would only cut proofs short.
        max_work: (!request.position.geometry().is_gravity()).then(|| {
            SearchLimits::work_at_rate(
                request.position.geometry(),
                time_limit_ms(request, settings),
                settings.search_work_rate,
            )
        }),
        all_moves: request.moves || request.scoring == Scoring::Classic,
        cancel,
        progress: Progress::default(),
    }
}

/// The engine's options for a request: its scoring, limits, difficulty and tie-break, and a
/// seed (the request's, or a fresh random one when the answer involves chance).
fn options(
    request: &ValidRequest,
    settings: &Settings,
    deadline: Instant,
    cancel: Cancel,
) -> SuggestOptions {
    let mut options = SuggestOptions {
        scoring: request.scoring,
        limits: limits(request, settings, deadline, cancel),
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

/// Computes the answer and serializes it in one piece.
fn answer(request: &ValidRequest, options: &SuggestOptions) -> Vec<u8> {
    let suggestion = suggest(&request.position, options);
    if suggestion.analysis.nodes > 0 {
        metrics::counter!("minimax_search_nodes_total").increment(suggestion.analysis.nodes);
    }
    let response = MoveResponse::new(
        suggestion,
        request.moves,
        &request.style,
        request.position.geometry(),
    );
    let mut body = Vec::with_capacity(1024);
    serde_json::to_writer(&mut body, &response).expect("a response serializes");
    body
}
