//! Wire types: the JSON a client sends and gets back, and the edge where a request body becomes a
//! validated [`Position`](crate::engine::Position) or a 422.
//!
//! - `board`: reading a board in either form, and writing it back in the request's style;
//! - `geometry`: the five geometry fields every request carries, and a board with them read
//!   into a position;
//! - `request`: the body of `POST /v1/move` and its validation;
//! - `response`: the answer of `POST /v1/move` and the game's state;
//! - `schema`: how these types, and the engine's, read in the OpenAPI document;
//! - `duplicates`: repeated keys, refused on every route and MCP tool.

mod board;
mod duplicates;
mod geometry;
mod request;
mod response;
mod schema;

pub use board::{BoardStyle, RenderedBoard};
pub use duplicates::repeated_key;
pub(crate) use duplicates::{refuse_repeated_keys, repeated_field};
pub use geometry::GeometryFields;
pub(crate) use geometry::request;
pub use request::{MoveBody, MoveRequest, ValidRequest, parse_body, parse_request};
pub use response::{
    ForbiddenCell, ForbiddenReason, GameState, GameStatus, MoveEntry, MoveResponse, coordinate,
};
pub use schema::{Board, Cell, Contract};

pub(crate) use board::parse_board;
pub(crate) use request::shape_error;
