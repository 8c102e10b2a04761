//! Wire types: the JSON a client sends and gets back, and the edge where a request becomes a
//! validated [`Position`](crate::engine::Position) (or game, or tree) or a 422. Every route's
//! request and answer types live here, one module a route; the handlers live in the route
//! modules beside `wire`.
//!
//! - `moves`: `POST` and `GET /v1/move` and the stream of `POST /v1/move/stream`;
//! - `play`: `POST /v1/play` and `POST /v1/status`;
//! - `review`: `POST /v1/review`;
//! - `trace`: `POST /v1/trace`;
//! - `connect4`: `GET /v1/connect4/solve`;
//! - `geometry`: the five geometry fields every request carries, and a board with them read
//!   into a position;
//! - `board`: reading a board in either form, and writing it back in the request's style;
//! - `game`: the parts of answers that several routes share (a game's state, forbidden cells);
//! - `schema`: how these types, and the engine's, read in the OpenAPI document;
//! - `duplicates`: repeated keys, refused on every route and MCP tool.

mod board;
mod connect4;
mod duplicates;
mod game;
mod geometry;
mod moves;
mod play;
mod review;
mod schema;
mod trace;

pub use board::{BoardStyle, RenderedBoard};
pub use connect4::{Connect4Solution, SolveQuery};
pub use duplicates::repeated_key;
pub(crate) use duplicates::{refuse_repeated_keys, repeated_field};
pub use game::{ForbiddenCell, ForbiddenReason, GameState, GameStatus, coordinate};
pub use geometry::GeometryFields;
pub use moves::{
    MoveBody, MoveEntry, MoveQuery, MoveRequest, MoveResponse, ServerSentEvent, ValidRequest,
    parse_body, parse_request,
};
pub use play::{PlayRequest, PlayResponse, StatusRequest, StatusResponse};
pub use review::{
    MoveLabel, MoveReview, PlayerReview, ReviewRequest, ReviewResponse, ValidReview, parse_review,
};
pub use schema::{Board, Cell, Contract};
pub use trace::{
    CutBy, LeafKind, NodeCutoff, NodeSide, NodeTableHit, TableKind, TextbookTree, TraceAlternative,
    TraceCounts, TraceNodeBody, TraceRequest, TraceResponse, TreeBranch, ValidTrace, parse_trace,
};

pub(crate) use board::parse_board;
pub(crate) use moves::parse_object;
