//! `GET /v1/connect4/solve` on the wire: the query and the answer, as the public Connect Four
//! solver API writes them.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// The query: the moves so far.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct SolveQuery {
    /// The columns played so far, each a digit from 1 to 7, first player first; empty (or
    /// missing) for the empty board.
    #[param(example = "4453")]
    pub pos: Option<String>,
}

/// The answer, as the public API writes it.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"pos": "", "score": [-2, -1, 0, 1, 0, -1, -2]}))]
pub struct Connect4Solution {
    /// The moves, as sent.
    pub pos: String,
    /// For each column from left to right, Pons' score of playing there for the side to move
    /// (positive: a win, the larger the sooner; 0: a draw; negative: a loss), or 100 when the
    /// column is full.
    pub score: Vec<i32>,
}
