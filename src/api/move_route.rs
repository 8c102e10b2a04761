//! `POST /v1/move` and `GET /v1/move`: the best move for a position.

use std::time::{Duration, Instant};

use axum::extract::{RawQuery, State};
use axum::http::{HeaderValue, header};
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
use crate::engine::{Difficulty, Player, Scoring, SearchLimits, SuggestOptions, TieBreak, suggest};

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
        (status = 200, description = "The best move (or the move chosen at the requested difficulty)", body = MoveResponse),
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
    JsonBody(body): JsonBody,
) -> Result<Response, ApiError> {
    respond(&state, parse_body(&body)?).await
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
fn query_error(error: &serde_path_to_error::Error<serde_urlencoded::de::Error>) -> ApiError {
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
pub(crate) async fn answer_bounded(
    state: &AppState,
    request: ValidRequest,
) -> Result<Vec<u8>, ApiError> {
    Ok(if request.position.geometry().is_tic_tac_toe() {
        // A lookup takes well under a microsecond: the hop to the blocking pool would cost more
        // than the work (see the README's measurements).
        super::metrics::table_answers().increment(1);
        answer(&request, state.settings())
    } else {
        let permit = tokio::time::timeout(
            state.settings().queue_wait,
            state.searches().acquire_owned(),
        )
        .await
        .ok()
        .and_then(Result::ok)
        .ok_or_else(|| {
            metrics::counter!("minimax_shed_total").increment(1);
            ApiError::Overloaded { retry_after: 1 }
        })?;
        let settings = state.settings().clone();
        let span = tracing::Span::current();
        let task = tokio::task::spawn_blocking(move || {
            let _entered = span.enter();
            // Counted inside the task: it runs to the end even if the client goes away.
            metrics::gauge!("minimax_searches_in_flight").increment(1.0);
            lower_search_priority();
            let started = Instant::now();
            let body = answer(&request, &settings);
            drop(permit);
            metrics::histogram!("minimax_search_seconds").record(started.elapsed().as_secs_f64());
            metrics::gauge!("minimax_searches_in_flight").decrement(1.0);
            body
        });
        task.await.map_err(|e| {
            tracing::error!(error = %e, "search task failed");
            ApiError::Internal
        })?
    })
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

/// The search limits for a request, capped by the server's settings.
fn limits(request: &ValidRequest, settings: &Settings) -> SearchLimits {
    let ms = request
        .time_limit_ms
        .unwrap_or(settings.default_time_limit_ms)
        .clamp(1, settings.max_time_limit_ms);
    SearchLimits {
        max_depth: Some(
            request
                .max_depth
                .unwrap_or(settings.max_depth)
                .min(settings.max_depth),
        ),
        // The work budget usually stops the search before the clock on an unloaded machine, so
        // the same request gets the same answer; the deadline is the hard stop under load.
        deadline: Some(Instant::now() + Duration::from_millis(ms)),
        max_work: Some(SearchLimits::work_at_rate(
            request.position.geometry(),
            ms,
            settings.search_work_rate,
        )),
        all_moves: request.moves || request.scoring == Scoring::Classic,
        ..SearchLimits::default()
    }
}

/// The engine's options for a request: its scoring, limits, difficulty and tie-break, and a
/// seed (the request's, or a fresh random one when the answer involves chance).
fn options(request: &ValidRequest, settings: &Settings) -> SuggestOptions {
    let mut options = SuggestOptions {
        scoring: request.scoring,
        limits: limits(request, settings),
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
pub(crate) fn answer(request: &ValidRequest, settings: &Settings) -> Vec<u8> {
    let suggestion = suggest(&request.position, &options(request, settings));
    if suggestion.analysis.nodes > 0 {
        metrics::counter!("minimax_search_nodes_total").increment(suggestion.analysis.nodes);
    }
    let response = MoveResponse::new(suggestion, request.moves, &request.style);
    let mut body = Vec::with_capacity(1024);
    serde_json::to_writer(&mut body, &response).expect("a response serializes");
    body
}
