//! `POST /v1/move`, `GET /v1/move` and `POST /v1/move/stream` on the wire: the request and its
//! validation (`request`), the query string of the GET, the answer (`response`) and the events
//! of the stream.

mod request;
mod response;

use utoipa::ToSchema;

pub use request::{MoveBody, MoveRequest, ValidRequest, parse_body, parse_request};
pub(crate) use request::{parse_object, shape_error};
pub use response::{MoveEntry, MoveResponse};

use super::geometry::request;
use crate::engine::{Difficulty, Player, Scoring, TieBreak};

request! {
    query;
    /// Query parameters of `GET /v1/move`: the same options as the POST body.
    pub struct MoveQuery {
        /// The board: the compact string form (`O.XX.X.OO`), or a JSON array.
        #[param(example = "O.XX.X.OO")]
        pub board: String,
        /// The side to move.
        #[serde(default)]
        pub player: Option<Player>,
        /// `depth` (default) or `classic`.
        #[serde(default)]
        pub scoring: Option<Scoring>,
        /// Whether to include the move table.
        #[serde(default)]
        pub moves: Option<bool>,
        /// How many of the best moves to list in `top` (multi-PV), 1..=10.
        #[serde(default)]
        #[param(value_type = Option<i32>, minimum = 1, maximum = 10)]
        pub top: Option<u64>,
    }
    geometry {
        /// Gravity (default false): marks drop to the lowest empty cell of their column.
        gravity,
        /// The gomoku rule (default `freestyle`); rules other than `freestyle` need k = 5 and no
        /// gravity.
        rule,
    }
    {
        /// Deepest search in plies.
        #[serde(default)]
        #[param(value_type = Option<i32>, minimum = 1)]
        pub max_depth: Option<u32>,
        /// Search time budget in milliseconds (a work budget derived from it makes answers
        /// reproducible; the time limit is the hard stop).
        #[serde(default)]
        #[param(value_type = Option<i32>, minimum = 1)]
        pub time_limit_ms: Option<u64>,
        /// `perfect` (default), `hard`, `medium`, `easy`.
        #[serde(default)]
        pub difficulty: Option<Difficulty>,
        /// `first` (default) or `random`.
        #[serde(default)]
        pub tie_break: Option<TieBreak>,
        /// Seed for reproducible randomness.
        #[serde(default)]
        #[param(value_type = Option<i64>, minimum = 0)]
        pub seed: Option<u64>,
    }
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
