//! Every error the API returns, as RFC 9457 `application/problem+json`.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

mod code;

pub use code::ProblemCode;

use crate::engine::renju::Foul;
use crate::engine::{GameError, GameErrorKind, GeometryError, PlayError, PositionError};

/// The media type of every error body.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// The most entries a problem's `errors` lists; the rest are counted in `errors_omitted`, so that
/// a board with thousands of bad cells gets an answer of a few kilobytes.
pub const MAX_FIELD_ERRORS: usize = 20;

/// One offending part of the request: a JSON Pointer into the body and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct FieldError {
    /// JSON Pointer (RFC 6901) into the request body, such as `/board/3` or `/scoring`.
    #[schema(example = "/board/3")]
    pub pointer: String,
    /// What is wrong there.
    #[schema(example = "7 is not this cell's index (3): an empty cell holds its own index")]
    pub detail: String,
}

/// An RFC 9457 problem document.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[schema(example = json!({
    "type": "/problems/invalid_cell",
    "title": "Invalid cell",
    "status": 422,
    "detail": "1 cell of the board is not a mark, its own index or an empty marker",
    "code": "invalid_cell",
    "errors": [{"pointer": "/board/3", "detail": "7 is not this cell's index (3): an empty cell holds its own index"}]
}))]
pub struct Problem {
    /// A URI reference naming the problem type: `/problems/{code}`.
    #[serde(rename = "type")]
    pub problem_type: String,
    /// A short summary of the problem type.
    pub title: &'static str,
    /// The HTTP status code.
    pub status: u16,
    /// What went wrong with this request, in plain English.
    pub detail: String,
    /// A stable machine-readable code to branch on, such as `invalid_cell`, `impossible_position`
    /// or `game_over`.
    pub code: ProblemCode,
    /// Each offending part of the request, for validation problems: the first 20, in the order
    /// of the request.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(max_items = 20)]
    pub errors: Vec<FieldError>,
    /// How many more offending parts there are beyond those listed in `errors` (absent when
    /// `errors` lists them all).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = u64, minimum = 1)]
    pub errors_omitted: Option<usize>,
    /// For `game_over`: the side that won, or null for a draw.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::engine::Player>)]
    pub winner: Option<Option<&'static str>>,
    /// For `game_over`: the cells of the winning line(s), empty for a draw.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Vec<usize>)]
    pub line: Option<Vec<usize>>,
    /// For `forbidden_move`: why the cell is forbidden to black under renju.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = crate::api::wire::ForbiddenReason)]
    pub reason: Option<crate::api::wire::ForbiddenReason>,
}

/// The offending parts of a request as they are found: the first [`MAX_FIELD_ERRORS`] kept, the
/// rest only counted, so that the work and the answer stay small whatever the request's size.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FieldErrors {
    kept: Vec<FieldError>,
    omitted: usize,
}

impl FieldErrors {
    /// Records one offending part; `describe` runs only while fewer than [`MAX_FIELD_ERRORS`]
    /// are kept.
    pub fn push_with(&mut self, describe: impl FnOnce() -> FieldError) {
        if self.kept.len() < MAX_FIELD_ERRORS {
            self.kept.push(describe());
        } else {
            self.omitted += 1;
        }
    }

    /// How many offending parts were recorded, kept or not.
    #[must_use]
    pub fn len(&self) -> usize {
        self.kept.len() + self.omitted
    }

    /// Whether none was recorded.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    /// The 422 with this code and detail, listing the parts recorded.
    #[must_use]
    pub fn into_error(self, code: ProblemCode, detail: String) -> ApiError {
        ApiError::Invalid {
            code,
            detail,
            errors: self.kept,
            omitted: self.omitted,
        }
    }
}

/// Everything that can go wrong with a request. Each variant documents its status.
#[derive(Clone, Debug, PartialEq)]
pub enum ApiError {
    /// 400: the body is not well-formed JSON.
    MalformedJson(String),
    /// 415: the body is not sent as `application/json`.
    UnsupportedMediaType,
    /// 415: the body is sent with a content coding (such as gzip) the server does not decode.
    UnsupportedEncoding(String),
    /// 413: the body is larger than the configured limit.
    PayloadTooLarge {
        /// The limit in bytes.
        limit: usize,
    },
    /// 422: well-formed JSON of the wrong shape (a missing, mistyped or unknown field, an unknown
    /// value, a board that is not a board).
    Invalid {
        /// The stable code, such as `invalid_request` or `unknown_field`.
        code: ProblemCode,
        /// What is wrong.
        detail: String,
        /// The offending parts, at most [`MAX_FIELD_ERRORS`] of them.
        errors: Vec<FieldError>,
        /// How many more offending parts there are beyond `errors`.
        omitted: usize,
    },
    /// 422: the rows, cols and k do not make a supported game, or the rule does not apply to
    /// it.
    Geometry(GeometryError),
    /// 422: under renju, black plays a forbidden cell.
    ForbiddenMove {
        /// JSON Pointer to the move in the request (`/index`, `/moves/3`).
        pointer: String,
        /// What is wrong, naming the cell and the reason.
        detail: String,
        /// Why the cell is forbidden.
        foul: Foul,
    },
    /// 422: the board is not a legal position in play, or the side to move contradicts it.
    Position(PositionError),
    /// 404: no such route.
    NotFound,
    /// 405: the route exists but not for this method.
    MethodNotAllowed,
    /// 400: the `Host` header is not a host name with an optional port.
    BadHost(String),
    /// 403: a search started from a link by a `Host` outside the allow-list, or by a page on
    /// another site that CORS does not allow.
    Forbidden(String),
    /// 429: this client sent more requests than the per-client rate limit allows.
    RateLimited {
        /// Seconds to wait, sent as `Retry-After`.
        retry_after: u32,
    },
    /// 503: too many searches are running; try again after `retry_after` seconds.
    Overloaded {
        /// Seconds to wait, sent as `Retry-After`.
        retry_after: u32,
    },
    /// 503: the request took longer than the configured request timeout.
    Timeout,
    /// 503: the service is still starting or is shutting down.
    NotReady,
    /// 503 (code `not_ready`): the server is shutting down and stopped a stream of events that
    /// would have outlasted its drain.
    ShuttingDown,
    /// 500: a bug. The body says nothing internal; the cause is logged where it happened.
    Internal,
}

impl ApiError {
    /// A 422 for a well-formed body of the wrong shape.
    pub fn invalid(
        code: ProblemCode,
        pointer: impl Into<String>,
        detail: impl Into<String>,
    ) -> Self {
        let detail = detail.into();
        Self::Invalid {
            code,
            errors: vec![FieldError {
                pointer: pointer.into(),
                detail: detail.clone(),
            }],
            detail,
            omitted: 0,
        }
    }

    /// The 422 naming the move of a game (its number, and its cell or column) that makes a
    /// list of moves not a game, at `pointer` (`/moves/3`, `/pos`): as [`ApiError::for_play`]
    /// for a move that cannot be played, else `invalid_move`.
    pub fn for_move(error: &GameError, pointer: impl Into<String>) -> Self {
        match &error.kind {
            GameErrorKind::Play(play) => Self::for_play(play, pointer, error.to_string()),
            _ => Self::invalid(ProblemCode::InvalidMove, pointer, error.to_string()),
        }
    }

    /// The 422 for a cell that cannot be played, at `pointer` with `detail`: `forbidden_move`
    /// with its reason for black's forbidden cell under renju, else `invalid_move`.
    pub fn for_play(error: &PlayError, pointer: impl Into<String>, detail: String) -> Self {
        match *error {
            PlayError::Forbidden { foul, .. } => Self::ForbiddenMove {
                pointer: pointer.into(),
                detail,
                foul,
            },
            _ => Self::invalid(ProblemCode::InvalidMove, pointer, detail),
        }
    }

    /// The HTTP status of this error.
    #[must_use]
    pub const fn status(&self) -> StatusCode {
        self.code().status()
    }

    /// The stable code clients branch on.
    #[must_use]
    pub const fn code(&self) -> ProblemCode {
        match self {
            Self::MalformedJson(_) => ProblemCode::MalformedJson,
            Self::UnsupportedMediaType | Self::UnsupportedEncoding(_) => {
                ProblemCode::UnsupportedMediaType
            }
            Self::PayloadTooLarge { .. } => ProblemCode::PayloadTooLarge,
            Self::Invalid { code, .. } => *code,
            Self::Geometry(_) => ProblemCode::InvalidGeometry,
            Self::ForbiddenMove { .. } => ProblemCode::ForbiddenMove,
            Self::Position(e) => ProblemCode::for_position(e),
            Self::NotFound => ProblemCode::NotFound,
            Self::MethodNotAllowed => ProblemCode::MethodNotAllowed,
            Self::BadHost(_) => ProblemCode::BadRequest,
            Self::Forbidden(_) => ProblemCode::Forbidden,
            Self::RateLimited { .. } => ProblemCode::RateLimited,
            Self::Overloaded { .. } => ProblemCode::Overloaded,
            Self::Timeout => ProblemCode::Timeout,
            Self::NotReady | Self::ShuttingDown => ProblemCode::NotReady,
            Self::Internal => ProblemCode::Internal,
        }
    }

    /// The problem document for this error.
    #[must_use]
    pub fn problem(&self) -> Problem {
        let code = self.code();
        let mut problem = Problem {
            problem_type: format!("/problems/{}", code.as_str()),
            title: code.title(),
            status: self.status().as_u16(),
            detail: self.detail(),
            code,
            errors: Vec::new(),
            errors_omitted: None,
            winner: None,
            line: None,
            reason: None,
        };
        match self {
            Self::Invalid {
                errors, omitted, ..
            } => {
                problem.errors.clone_from(errors);
                problem.errors_omitted = (*omitted > 0).then_some(*omitted);
            }
            Self::Geometry(e) => {
                problem.errors = vec![FieldError {
                    pointer: geometry_pointer(e).to_owned(),
                    detail: e.to_string(),
                }];
            }
            Self::ForbiddenMove {
                pointer,
                detail,
                foul,
            } => {
                problem.errors = vec![FieldError {
                    pointer: pointer.clone(),
                    detail: detail.clone(),
                }];
                problem.reason = Some(*foul);
            }
            Self::Position(PositionError::GameOver(result)) => {
                problem.winner = Some(result.winner.map(|p| p.as_str()));
                problem.line = Some(result.line.clone());
            }
            _ => {}
        }
        problem
    }

    /// The problem's `detail`: what is wrong, in a sentence.
    fn detail(&self) -> String {
        match self {
            Self::MalformedJson(why) => format!("the body is not valid JSON: {why}"),
            Self::UnsupportedMediaType => {
                "send the body as JSON with `Content-Type: application/json`".to_owned()
            }
            Self::UnsupportedEncoding(coding) => {
                format!("send the body uncompressed: Content-Encoding `{coding}` is not supported")
            }
            Self::PayloadTooLarge { limit } => {
                format!("the body is larger than the limit of {limit} bytes")
            }
            Self::Invalid { detail, .. } | Self::ForbiddenMove { detail, .. } => detail.clone(),
            Self::Geometry(e) => e.to_string(),
            Self::Position(e) => e.to_string(),
            Self::NotFound => "there is no such resource; see /docs for the API".to_owned(),
            Self::MethodNotAllowed => "this resource does not support that method".to_owned(),
            Self::BadHost(host) => {
                format!("the Host header `{host}` is not a host name with an optional port number")
            }
            Self::Forbidden(why) => why.clone(),
            Self::RateLimited { retry_after } => {
                format!("this client is over its request rate; retry after {retry_after} second(s)")
            }
            Self::Overloaded { retry_after } => {
                format!("too many searches are running; retry after {retry_after} second(s)")
            }
            Self::Timeout => "the request took longer than the server allows".to_owned(),
            Self::NotReady => "the service is starting or shutting down".to_owned(),
            Self::ShuttingDown => "the server is shutting down and stopped this search before \
                its end; send the request again and another replica will answer it"
                .to_owned(),
            Self::Internal => "something went wrong on our side".to_owned(),
        }
    }
}

/// The request field a geometry error is about.
const fn geometry_pointer(error: &GeometryError) -> &'static str {
    match error {
        GeometryError::Rows { .. } => "/rows",
        GeometryError::Cols { .. } => "/cols",
        GeometryError::K { .. } => "/k",
        GeometryError::Rule { .. } => "/rule",
        GeometryError::Gravity { .. } => "/gravity",
    }
}

impl From<GeometryError> for ApiError {
    fn from(e: GeometryError) -> Self {
        Self::Geometry(e)
    }
}

impl From<PositionError> for ApiError {
    fn from(e: PositionError) -> Self {
        Self::Position(e)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let problem = self.problem();
        let body = serde_json::to_vec(&problem).unwrap_or_default();
        let mut response = (self.status(), body).into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON));
        let retry_after = match self {
            Self::Overloaded { retry_after } | Self::RateLimited { retry_after } => {
                Some(retry_after)
            }
            // Only where a retry can succeed: a slot frees up, the rate refills, another
            // replica answers. A request that ran out of time would run out again (a position
            // too hard to solve in the time allowed stays so), so a timeout advises no retry.
            Self::NotReady | Self::ShuttingDown => Some(1),
            _ => None,
        };
        if let Some(seconds) = retry_after {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}
