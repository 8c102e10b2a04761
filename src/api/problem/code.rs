//! The stable `code` of every problem, with its title and HTTP status: one table.

use axum::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;

use crate::engine::PositionError;

/// Every stable `code` a problem document can carry, with its title and HTTP status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(
    description = "A stable machine-readable code to branch on, such as `invalid_cell`, `impossible_position` or `game_over`."
)]
pub enum ProblemCode {
    /// 400: the body is not well-formed JSON.
    MalformedJson,
    /// 415: not `application/json`, or compressed.
    UnsupportedMediaType,
    /// 413: the body is over the limit.
    PayloadTooLarge,
    /// 422: a field that the request type does not have.
    UnknownField,
    /// 422: a missing, mistyped or out-of-range field, or a body of the wrong shape.
    InvalidRequest,
    /// 422: the board is neither an array of cells nor a string, or has the wrong length.
    InvalidBoard,
    /// 422: a cell that is not a mark, its own index or an empty marker.
    InvalidCell,
    /// 422: rows, cols and k that do not make a supported game.
    InvalidGeometry,
    /// 422: a board no game can reach.
    ImpossiblePosition,
    /// 422: the side to move contradicts the mark counts.
    WrongPlayer,
    /// 422: the game on the board is already over.
    GameOver,
    /// 422: a cell to play that is off the board or already taken.
    InvalidMove,
    /// 422: under renju, a cell forbidden to black (an overline, a double-four or a
    /// double-three); the problem's `reason` says which.
    ForbiddenMove,
    /// 422: `POST /v1/trace` asked for more than a trace may search or read; the detail names
    /// the limit.
    TraceTooLarge,
    /// 404: no such route.
    NotFound,
    /// 405: the route exists but not for this method.
    MethodNotAllowed,
    /// 400: the request line or a header is not valid HTTP/1.1 (answered before routing).
    BadRequest,
    /// 408: the request's head did not arrive within the header read timeout (before routing).
    RequestTimeout,
    /// 414: the request target is longer than the server accepts (before routing).
    UriTooLong,
    /// 431: the request line and headers are larger than the server accepts (before routing).
    HeadersTooLarge,
    /// 403: a search started from a link by a `Host` not allowed, or by a page on another site.
    Forbidden,
    /// 429: over the per-client rate limit.
    RateLimited,
    /// 503: every search slot is busy.
    Overloaded,
    /// 503: the request took longer than the server allows.
    Timeout,
    /// 503: starting or shutting down.
    NotReady,
    /// 500: a bug.
    Internal,
}

/// The one table of problem codes, in the order of [`ProblemCode`]'s variants: each code, its
/// name in problem documents, its title and its HTTP status.
const CODES: [(ProblemCode, &str, &str, StatusCode); 26] = [
    (
        ProblemCode::MalformedJson,
        "malformed_json",
        "Malformed JSON",
        StatusCode::BAD_REQUEST,
    ),
    (
        ProblemCode::UnsupportedMediaType,
        "unsupported_media_type",
        "Unsupported media type",
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
    ),
    (
        ProblemCode::PayloadTooLarge,
        "payload_too_large",
        "Payload too large",
        StatusCode::PAYLOAD_TOO_LARGE,
    ),
    (
        ProblemCode::UnknownField,
        "unknown_field",
        "Unknown field",
        StatusCode::UNPROCESSABLE_ENTITY,
    ),
    (
        ProblemCode::InvalidRequest,
        "invalid_request",
        "Invalid request",
        StatusCode::UNPROCESSABLE_ENTITY,
    ),
    (
        ProblemCode::InvalidBoard,
        "invalid_board",
        "Invalid board",
        StatusCode::UNPROCESSABLE_ENTITY,
    ),
    (
        ProblemCode::InvalidCell,
        "invalid_cell",
        "Invalid cell",
        StatusCode::UNPROCESSABLE_ENTITY,
    ),
    (
        ProblemCode::InvalidGeometry,
        "invalid_geometry",
        "Invalid board geometry",
        StatusCode::UNPROCESSABLE_ENTITY,
    ),
    (
        ProblemCode::ImpossiblePosition,
        "impossible_position",
        "Impossible position",
        StatusCode::UNPROCESSABLE_ENTITY,
    ),
    (
        ProblemCode::WrongPlayer,
        "wrong_player",
        "Wrong side to move",
        StatusCode::UNPROCESSABLE_ENTITY,
    ),
    (
        ProblemCode::GameOver,
        "game_over",
        "Game over",
        StatusCode::UNPROCESSABLE_ENTITY,
    ),
    (
        ProblemCode::InvalidMove,
        "invalid_move",
        "Invalid move",
        StatusCode::UNPROCESSABLE_ENTITY,
    ),
    (
        ProblemCode::ForbiddenMove,
        "forbidden_move",
        "Forbidden move",
        StatusCode::UNPROCESSABLE_ENTITY,
    ),
    (
        ProblemCode::TraceTooLarge,
        "trace_too_large",
        "Too large to trace",
        StatusCode::UNPROCESSABLE_ENTITY,
    ),
    (
        ProblemCode::NotFound,
        "not_found",
        "Not found",
        StatusCode::NOT_FOUND,
    ),
    (
        ProblemCode::MethodNotAllowed,
        "method_not_allowed",
        "Method not allowed",
        StatusCode::METHOD_NOT_ALLOWED,
    ),
    (
        ProblemCode::BadRequest,
        "bad_request",
        "Bad request",
        StatusCode::BAD_REQUEST,
    ),
    (
        ProblemCode::RequestTimeout,
        "request_timeout",
        "Request timeout",
        StatusCode::REQUEST_TIMEOUT,
    ),
    (
        ProblemCode::UriTooLong,
        "uri_too_long",
        "URI too long",
        StatusCode::URI_TOO_LONG,
    ),
    (
        ProblemCode::HeadersTooLarge,
        "headers_too_large",
        "Request headers too large",
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
    ),
    (
        ProblemCode::Forbidden,
        "forbidden",
        "Forbidden",
        StatusCode::FORBIDDEN,
    ),
    (
        ProblemCode::RateLimited,
        "rate_limited",
        "Too many requests",
        StatusCode::TOO_MANY_REQUESTS,
    ),
    (
        ProblemCode::Overloaded,
        "overloaded",
        "Overloaded",
        StatusCode::SERVICE_UNAVAILABLE,
    ),
    (
        ProblemCode::Timeout,
        "timeout",
        "Request timed out",
        StatusCode::SERVICE_UNAVAILABLE,
    ),
    (
        ProblemCode::NotReady,
        "not_ready",
        "Not ready",
        StatusCode::SERVICE_UNAVAILABLE,
    ),
    (
        ProblemCode::Internal,
        "internal",
        "Internal error",
        StatusCode::INTERNAL_SERVER_ERROR,
    ),
];

impl ProblemCode {
    /// The code's row of [`CODES`]: as written in problem documents, its title, and the HTTP
    /// status every problem with this code has.
    const fn row(self) -> (&'static str, &'static str, StatusCode) {
        let (_, name, title, status) = CODES[self as usize];
        (name, title, status)
    }

    /// The code as written in problem documents, such as `"invalid_cell"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        self.row().0
    }

    /// A short summary of the problem type.
    #[must_use]
    pub const fn title(self) -> &'static str {
        self.row().1
    }

    /// The HTTP status every problem with this code has.
    #[must_use]
    pub const fn status(self) -> StatusCode {
        self.row().2
    }

    /// The code for a board the engine refused.
    #[must_use]
    pub const fn for_position(error: &PositionError) -> Self {
        match error {
            PositionError::WrongLength { .. } => Self::InvalidBoard,
            PositionError::Floating { .. }
            | PositionError::UnbalancedCounts { .. }
            | PositionError::BothHaveLines
            | PositionError::WinnerDidNotMoveLast { .. }
            | PositionError::DisjointLines { .. }
            | PositionError::BlackMovesFirst { .. } => Self::ImpossiblePosition,
            PositionError::GameOver(_) => Self::GameOver,
            PositionError::WrongPlayer { .. } => Self::WrongPlayer,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_of_codes_is_in_the_order_of_the_variants_and_names_each_once() {
        for (i, &(code, name, _, _)) in CODES.iter().enumerate() {
            assert_eq!(code as usize, i, "{name} is out of place");
            let json = serde_json::to_value(code).unwrap();
            assert_eq!(json, name, "the serialized code is its name");
        }
    }
}
