//! `POST /v1/move` and `GET /v1/move`: the best move for a position.

use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{FromRequest, Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;
use serde_json::Value;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::wire::{
    DifficultyParam, GameState, GameStatus, Mark, MoveEntry, MoveRequest, MoveResponse,
    ScoringParam, TieBreakParam, ValidRequest, parse_body,
};
use super::{ApiError, AppState, Settings};
use crate::engine::{
    Analysis, Difficulty, Player, SearchLimits, TieBreak, analyze, choose, explanation,
    principal_variation,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(post_move, get_move))
}

/// Whether the request says its body is JSON (`application/json`, any parameters such as a
/// charset allowed).
pub(crate) fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|media| media.trim().eq_ignore_ascii_case("application/json"))
}

/// Best move for a position.
///
/// Send the position as a JSON object (`board` and options) or as the bare board array. On 3 × 3
/// the answer is a lookup in the solved table; larger boards are searched within the time budget.
#[utoipa::path(post, path = "/v1/move", tag = "moves",
    request_body(content = MoveRequest, content_type = "application/json",
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
async fn post_move(State(state): State<AppState>, request: Request) -> Result<Response, ApiError> {
    // Taking the request whole, rather than a `HeaderMap` extractor, avoids cloning the headers.
    let headers = request.headers();
    if !is_json(headers) {
        return Err(ApiError::UnsupportedMediaType);
    }
    if let Some(coding) = headers
        .get(header::CONTENT_ENCODING)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).trim().to_owned())
        .filter(|coding| !coding.is_empty() && !coding.eq_ignore_ascii_case("identity"))
    {
        return Err(ApiError::UnsupportedEncoding(coding));
    }
    // A declared length over the limit is refused before any of the body is read.
    let limit = state.settings().body_limit;
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|length| length > limit as u64) {
        return Err(ApiError::PayloadTooLarge { limit });
    }
    let body = Bytes::from_request(request, &state)
        .await
        .map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::PayloadTooLarge { limit }
            } else {
                ApiError::MalformedJson(rejection.body_text())
            }
        })?;
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
    player: Option<Mark>,
    /// `depth` (default) or `classic`.
    scoring: Option<ScoringParam>,
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
    difficulty: Option<DifficultyParam>,
    /// `first` (default) or `random`.
    tie_break: Option<TieBreakParam>,
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
    query: Result<Query<MoveQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|e| query_error(&e))?;
    let board = if query.board.trim_start().starts_with('[') {
        serde_json::from_str(&query.board).map_err(|e| {
            ApiError::invalid(
                "invalid_board",
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

/// The 422 for a query string of the wrong shape, naming the parameter when axum's message does
/// (it reads "Failed to deserialize query string: moves: provided string was not ...").
fn query_error(rejection: &QueryRejection) -> ApiError {
    let text = rejection.body_text();
    let detail = text
        .strip_prefix("Failed to deserialize query string: ")
        .unwrap_or(&text);
    let is_name =
        |name: &str| !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_');
    let (pointer, message) = match detail.split_once(": ") {
        Some((name, message)) if is_name(name) => (format!("/{name}"), message),
        _ => (String::new(), detail),
    };
    let code = if message.starts_with("unknown field") {
        "unknown_field"
    } else {
        "invalid_request"
    };
    let detail = match pointer.strip_prefix('/') {
        Some(name) => format!("query parameter `{name}`: {message}"),
        None => format!("query string: {message}"),
    };
    ApiError::invalid(code, pointer, detail)
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
        metrics::counter!("minimax_table_answers_total").increment(1);
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
        // The work budget stops the search long before the clock on an unloaded machine, so
        // the same request gets the same answer; the deadline is the hard stop under load.
        deadline: Some(Instant::now() + Duration::from_millis(ms)),
        max_work: Some(SearchLimits::work_at_rate(
            request.position.geometry(),
            ms,
            settings.search_work_rate,
        )),
        all_moves: request.moves || request.scoring == crate::engine::Scoring::Classic,
    }
}

/// Computes the answer and serializes it in one piece.
pub(crate) fn answer(request: &ValidRequest, settings: &Settings) -> Vec<u8> {
    let position = &request.position;
    let analysis: Analysis = analyze(position, request.scoring, &limits(request, settings));
    metrics::counter!("minimax_search_nodes_total").increment(analysis.nodes);
    let chance = request.difficulty != Difficulty::Perfect || request.tie_break == TieBreak::Random;
    // A generated seed stays below 2^53 so JavaScript clients can send it back unchanged.
    let seed = chance.then(|| request.seed.unwrap_or_else(|| rand::random::<u64>() >> 11));
    let mut rng = ChaCha8Rng::seed_from_u64(seed.unwrap_or(0));
    let mut random = || rng.next_u64();
    let chosen = &analysis.moves[choose(
        position,
        &analysis,
        request.difficulty,
        request.tie_break,
        &mut random,
    )];
    let played = position
        .try_play(chosen.index)
        .expect("the engine only suggests legal moves");
    let status = match &played.result {
        None => GameStatus {
            state: GameState::InPlay,
            winner: None,
            line: Vec::new(),
        },
        Some(result) => GameStatus {
            state: if result.winner.is_some() {
                GameState::Win
            } else {
                GameState::Draw
            },
            winner: result.winner.map(mark),
            line: result.line.clone(),
        },
    };
    let response = MoveResponse {
        index: chosen.index,
        score: chosen.score.into(),
        player: mark(position.to_move()),
        outcome: chosen.outcome.into(),
        plies: chosen.plies,
        exact: chosen.exact,
        moves: request
            .moves
            .then(|| analysis.moves.iter().map(MoveEntry::from).collect()),
        board: request.style.render(played.cells),
        status,
        pv: if chosen.index == analysis.best_move().index && analysis.pv.len() > 1 {
            analysis.pv.clone()
        } else {
            principal_variation(position, chosen.index)
        },
        explanation: explanation(
            position,
            chosen,
            analysis.best_move(),
            played.result.as_ref(),
        ),
        seed,
    };
    let mut body = Vec::with_capacity(1024);
    serde_json::to_writer(&mut body, &response).expect("a response serializes");
    body
}

const fn mark(player: Player) -> Mark {
    match player {
        Player::X => Mark::X,
        Player::O => Mark::O,
    }
}
