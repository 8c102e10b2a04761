//! `POST /v1/move`, `GET /v1/move` and `POST /v1/move/stream` on the wire: the request and its
//! validation (`request`), the query string of the GET, the answer (`response`) and the events
//! of the stream.

mod request;
mod response;

use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

pub use request::{MoveBody, MoveRequest, ValidRequest, parse_body, parse_request};
pub(crate) use request::{parse_object, shape_error};
pub use response::{MoveEntry, MoveResponse};

use crate::engine::{Difficulty, Player, Rule, Scoring, TieBreak};

/// Query parameters of `GET /v1/move`: the same options as the POST body.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct MoveQuery {
    /// The board: the compact string form (`O.XX.X.OO`), or a JSON array.
    #[param(example = "O.XX.X.OO")]
    pub board: String,
    /// The side to move.
    pub player: Option<Player>,
    /// `depth` (default) or `classic`.
    pub scoring: Option<Scoring>,
    /// Whether to include the move table.
    pub moves: Option<bool>,
    /// How many of the best moves to list in `top` (multi-PV), 1..=10.
    #[param(value_type = Option<i32>, minimum = 1, maximum = 10)]
    pub top: Option<u64>,
    /// Rows (default 3): up to 15, or 20 when k = 5.
    #[param(value_type = Option<i32>, minimum = 1, maximum = 20)]
    pub rows: Option<u64>,
    /// Columns (default 3): up to 15, or 20 when k = 5.
    #[param(value_type = Option<i32>, minimum = 1, maximum = 20)]
    pub cols: Option<u64>,
    /// Marks in a row to win (default 3).
    #[param(value_type = Option<i32>, minimum = 1, maximum = 20)]
    pub k: Option<u64>,
    /// Gravity (default false): marks drop to the lowest empty cell of their column.
    pub gravity: Option<bool>,
    /// The gomoku rule (default `freestyle`); rules other than `freestyle` need k = 5 and no
    /// gravity.
    pub rule: Option<Rule>,
    /// Deepest search in plies.
    #[param(value_type = Option<i32>, minimum = 1)]
    pub max_depth: Option<u32>,
    /// Search time budget in milliseconds (a work budget derived from it makes answers
    /// reproducible; the time limit is the hard stop).
    #[param(value_type = Option<i32>, minimum = 1)]
    pub time_limit_ms: Option<u64>,
    /// `perfect` (default), `hard`, `medium`, `easy`.
    pub difficulty: Option<Difficulty>,
    /// `first` (default) or `random`.
    pub tie_break: Option<TieBreak>,
    /// Seed for reproducible randomness.
    #[param(value_type = Option<i64>, minimum = 0)]
    pub seed: Option<u64>,
}

/// One server-sent event of a live search, as an SSE client reads it: the contract of each
/// event of `POST /v1/move/stream` (a schema-only type).
#[derive(ToSchema)]
pub struct ServerSentEvent {
    /// `progress`, `result` or `error`.
    pub event: String,
    /// The event's JSON: a progress report, the plain answer, or a problem document.
    pub data: String,
    /// Milliseconds to wait before retrying, on the `error` event of a shutdown.
    #[schema(value_type = Option<i32>)]
    pub retry: Option<u32>,
}
