//! `GET /v1/connect4/solve?pos=`: the answer of the public Connect Four solver API
//! (connect4.gamesolver.org `/solve?pos=`), so that its clients can point here unchanged.
//!
//! `pos` is the game so far as the columns played, numbered from 1 (`4453`: X in column 4, O in
//! column 4, X in 5, O in 3). The answer is `{"pos": "4453", "score": [...]}`: Pons' score of
//! each of the seven columns for the side to move (a win with the stone numbered `m` scores
//! `22 - ⌈m / 2⌉`, that is `1 + (42 - m) / 2`, a loss the negative, a draw 0), and 100 for a full
//! column. Every score is proven, by the built-in opening book or the gravity solver.

use std::time::Duration;

use axum::extract::{RawQuery, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::answer::run_bounded;
use super::move_route::query_error;
use super::problem::{FieldError, PROBLEM_JSON, ProblemCode};
use super::{ApiError, AppState};
use crate::engine::gravity::{GravityError, GravityPosition, analyze};
use crate::engine::{Geometry, PositionError, SearchLimits, game_result};

const ROWS: usize = 6;
const COLS: usize = 7;
/// The score the public API gives a full column.
const FULL: i32 = 100;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(solve_connect4))
}

/// The query: the moves so far.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
struct SolveQuery {
    /// The columns played so far, each a digit from 1 to 7, first player first; empty (or
    /// missing) for the empty board.
    #[param(example = "4453")]
    pos: Option<String>,
}

/// The answer, as the public API writes it.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"pos": "", "score": [-2, -1, 0, 1, 0, -1, -2]}))]
struct Connect4Solution {
    /// The moves, as sent.
    pos: String,
    /// For each column from left to right, Pons' score of playing there for the side to move
    /// (positive: a win, the larger the sooner; 0: a draw; negative: a loss), or 100 when the
    /// column is full.
    score: Vec<i32>,
}

/// Connect Four: every column's score, as connect4.gamesolver.org answers it.
///
/// A drop-in for the public solver API's `GET /solve?pos=` (7 columns, 6 rows). Every score is
/// proven; a position the solver cannot finish within the server's largest time limit is a 503
/// rather than a guess.
#[utoipa::path(get, path = "/v1/connect4/solve", tag = "moves", params(SolveQuery),
    responses(
        (status = 200, description = "Every column's score for the side to move; 100 for a full column", body = Connect4Solution),
        (status = 422, description = "pos has a character other than 1 to 7, a move in a full column, or moves after the game ended (code game_over, with winner and line); an unknown parameter", body = super::Problem, content_type = "application/problem+json"),
        (status = 429, description = "Over the per-client rate limit (only when RATE_LIMIT_PER_SECOND is set)", body = super::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
        (status = 503, description = "Overloaded, or the position could not be solved within the server's largest time limit", body = super::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
    ))]
async fn solve_connect4(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let query = query.unwrap_or_default();
    let deserializer =
        serde_urlencoded::Deserializer::new(form_urlencoded::parse(query.as_bytes()));
    let query: SolveQuery =
        serde_path_to_error::deserialize(deserializer).map_err(|e| query_error(&e))?;
    let pos = query.pos.unwrap_or_default();
    let position = match parse(&pos) {
        Ok(position) => position,
        Err(rejection) => return Ok(*rejection),
    };
    // On the bounded pool like every search: it holds a slot, and stops (freeing it) when its
    // client goes away.
    let limit = Duration::from_millis(state.settings().max_time_limit_ms);
    let scores = run_bounded(&state, limit, move |deadline, cancel| {
        let limits = SearchLimits {
            deadline: Some(deadline),
            cancel,
            ..SearchLimits::default()
        };
        let analysis = analyze(&position, &limits);
        (0..COLS)
            .map(|c| match analysis.get(c) {
                None => Some(FULL),
                Some(column) => column.value.pons_score(),
            })
            .collect::<Option<Vec<i32>>>()
    })
    .await?
    .ok_or(ApiError::Timeout)?;
    let mut body = Vec::with_capacity(64);
    serde_json::to_writer(&mut body, &Connect4Solution { pos, score: scores })
        .expect("an answer serializes");
    Ok((
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response())
}

/// The position `pos` reaches, or the 422 that says why it is not one.
fn parse(pos: &str) -> Result<GravityPosition, Box<Response>> {
    let mut columns = Vec::with_capacity(pos.len());
    for (i, ch) in pos.chars().enumerate() {
        match ch.to_digit(10) {
            Some(d @ 1..=7) => columns.push(d as usize - 1),
            _ => {
                return Err(Box::new(
                    ApiError::invalid(
                    ProblemCode::InvalidRequest,
                    "/pos",
                    format!(
                        "character {} of pos is {ch:?}: pos holds the columns played, each a digit from 1 to 7",
                        i + 1
                    ),
                )
                    .into_response(),
                ));
            }
        }
    }
    GravityPosition::from_moves(ROWS, COLS, 4, &columns)
        .map_err(|error| Box::new(rejection(&columns, error)))
}

/// The 422 for a sequence of valid columns that is not a game in play.
fn rejection(columns: &[usize], error: GravityError) -> Response {
    match error {
        GravityError::FullColumn { index, column } => ApiError::invalid(
            ProblemCode::InvalidMove,
            "/pos",
            format!(
                "move {} of pos drops a stone in column {}, which is full",
                index + 1,
                column + 1
            ),
        )
        .into_response(),
        GravityError::AfterEnd { index } => game_over(
            &columns[..index],
            format!("move {} of pos comes after the end of the game", index + 1),
        ),
        GravityError::GameOver { .. } => game_over(
            columns,
            "the game is over: there is no move to score".to_owned(),
        ),
        other => {
            tracing::error!(error = %other, "a sequence of valid columns was refused");
            ApiError::Internal.into_response()
        }
    }
}

/// The `game_over` problem for the game that `columns` finish, with its winner and line.
fn game_over(columns: &[usize], detail: String) -> Response {
    let mut cells = vec![None; ROWS * COLS];
    let mut player = crate::engine::Player::X;
    for &column in columns {
        let row = (0..ROWS)
            .rev()
            .find(|&r| cells[r * COLS + column].is_none())
            .expect("the moves before the end are legal");
        cells[row * COLS + column] = Some(player);
        player = player.opponent();
    }
    let geometry = Geometry::new(ROWS as u64, COLS as u64, 4).expect("7 x 6 is a geometry");
    let Some(result) = game_result(geometry, &cells) else {
        tracing::error!("a finished game has no result");
        return ApiError::Internal.into_response();
    };
    let mut problem = ApiError::Position(PositionError::GameOver(result)).problem();
    problem.detail = detail.clone();
    problem.errors = vec![FieldError {
        pointer: "/pos".to_owned(),
        detail,
    }];
    let body = serde_json::to_vec(&problem).unwrap_or_default();
    (
        StatusCode::UNPROCESSABLE_ENTITY,
        [(header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON))],
        body,
    )
        .into_response()
}
