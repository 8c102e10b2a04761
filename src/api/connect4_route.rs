//! `GET /v1/connect4/solve?pos=`: the answer of the public Connect Four solver API
//! (connect4.gamesolver.org `/solve?pos=`), so that its clients can point here unchanged.
//!
//! `pos` is the game so far as the columns played, numbered from 1 (`4453`: X in column 4, O in
//! column 4, X in 5, O in 3). The answer is `{"pos": "4453", "score": [...]}`: Pons' score of
//! each of the seven columns for the side to move (a win with the stone numbered `m` scores
//! `22 - ⌈m / 2⌉`, that is `1 + (42 - m) / 2`, a loss the negative, a draw 0), and 100 for a full
//! column. Every score is proven, by the built-in opening book or the gravity solver.

use axum::extract::State;
use axum::response::Response;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::StrictQuery;
use super::problem::ProblemCode;
use super::respond::json_response;
use super::usecase::connect4::column_scores;
use super::wire::{Connect4Solution, SolveQuery};
use crate::api::problem::ApiError;
use crate::api::state::AppState;
use crate::engine::{Game, Geometry, Player, Position, PositionError};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(solve_connect4))
}

/// Connect Four: every column's score, as connect4.gamesolver.org answers it.
///
/// A drop-in for the public solver API's `GET /solve?pos=` (7 columns, 6 rows). Every score is
/// proven; a position the solver cannot finish within the server's largest time limit is a 503
/// rather than a guess.
#[utoipa::path(get, path = "/v1/connect4/solve", tag = "moves", params(SolveQuery),
    responses(
        (status = 200, description = "Every column's score for the side to move; 100 for a full column", body = Connect4Solution),
        (status = 422, description = "pos has a character other than 1 to 7 (invalid_request), a move in a full column or after the game ended (invalid_move), or ends the game (game_over, with winner and line); an unknown parameter", body = crate::api::problem::Problem, content_type = "application/problem+json"),
        (status = 429, description = "Over the per-client rate limit (only when RATE_LIMIT_PER_SECOND is set)", body = crate::api::problem::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
        (status = 503, description = "Overloaded (code overloaded, with Retry-After), or the position could not be solved within the server's largest time limit (code timeout, without Retry-After: the same position fails the same way)", body = crate::api::problem::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait; sent with overloaded only"))),
    ))]
async fn solve_connect4(
    State(state): State<AppState>,
    StrictQuery(query): StrictQuery<SolveQuery>,
) -> Result<Response, ApiError> {
    let pos = query.pos.unwrap_or_default();
    let position = parse(&pos)?;
    let score = column_scores(&state, position).await?;
    Ok(json_response(&Connect4Solution { pos, score }, 64))
}

/// The position `pos` reaches: the engine's game replayed from the columns, or the 422 that
/// says why it is not one (a character that is not a column, a move the game does not allow,
/// a game already over).
fn parse(pos: &str) -> Result<Position, ApiError> {
    let mut columns = Vec::with_capacity(pos.len());
    for (i, ch) in pos.chars().enumerate() {
        match ch.to_digit(10) {
            Some(d @ 1..=7) => columns.push(d as usize - 1),
            _ => {
                return Err(ApiError::invalid(
                    ProblemCode::InvalidRequest,
                    "/pos",
                    format!(
                        "character {} of pos is {ch:?}: pos holds the columns played, each a digit from 1 to 7",
                        i + 1
                    ),
                ));
            }
        }
    }
    let game = Game::from_columns(Geometry::CONNECT_FOUR, Player::X, &columns)
        .map_err(|e| ApiError::for_move(&e, "/pos"))?;
    match (game.position(), game.result()) {
        (Some(position), _) => Ok(position.clone()),
        (None, Some(result)) => Err(PositionError::GameOver(result.clone()).into()),
        (None, None) => unreachable!("a game is either in play or over"),
    }
}
