//! Requests on the wire: the body of `POST /v1/move` and the edge where it becomes a validated
//! [`Position`] and settled options, or a 422.

use serde::{Deserialize, Deserializer};
use serde_json::Value;
use utoipa::openapi::schema::OneOfBuilder;
use utoipa::openapi::{Ref, RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};

use crate::api::problem::{ApiError, ProblemCode};
use crate::api::wire::board::{BoardStyle, describe};
use crate::api::wire::geometry::request;
use crate::api::wire::schema::Board;
use crate::engine::{Difficulty, Player, Position, Scoring, TieBreak};

/// Reads an optional field whose `null` means its default, as OpenAI's strict function calling
/// sends every optional field.
pub(crate) fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

request! {
    /// The options object of `POST /v1/move` (the bare board may also be sent as the whole body, with
    /// every option at its default). Every optional field may be absent or null, both meaning its
    /// default.
    #[schema(example = json!({"board": ["O", 1, "X", "X", 4, "X", 6, "O", "O"], "moves": true}))]
    pub struct MoveRequest {
        /// The position.
        #[schema(value_type = Board)]
        pub board: Value,
        /// The side to move (the AI's). Inferred when absent or null: the side with fewer marks, X
        /// when the counts are equal. When given it must agree with the counts.
        #[serde(default)]
        pub player: Option<Player>,
        /// How scores are counted (`depth` when absent or null).
        #[serde(default, deserialize_with = "null_as_default")]
        #[schema(value_type = Option<Scoring>)]
        pub scoring: Scoring,
        /// Whether to include every legal move with its score (false when absent or null).
        #[serde(default, deserialize_with = "null_as_default")]
        #[schema(value_type = Option<bool>)]
        pub moves: bool,
        /// How many of the best moves to list in `top`, best first, each with a value from a search
        /// of its own (multi-PV), 1..=10 (no `top` when absent or null). The search shares its time
        /// among them, so a larger count searches each less deeply.
        #[serde(default)]
        #[schema(value_type = Option<i32>, minimum = 1, maximum = 10)]
        pub top: Option<u64>,
    }
    geometry {
        /// Gravity (false when absent or null): a mark drops to the lowest empty cell of its
        /// column, as in Connect Four (`rows: 6, cols: 7, k: 4`); every mark on the board must rest
        /// on the bottom row or on another mark, and answers add `column` (from 0). Needs
        /// `(rows + 1) × cols` of at most 128.
        gravity,
        /// The gomoku rule (`freestyle` when absent or null): `standard` (exactly five wins),
        /// `renju` (X is black and moves first; black wins with exactly five and may not play an
        /// overline, a double-four or a double-three; white wins with five or more) or `caro` (five
        /// or more, except exactly five blocked at both ends). Rules other than `freestyle` need
        /// k = 5 and no gravity. See docs/rules.md.
        rule,
    }
    {
        /// Deepest search iteration in plies (larger boards); capped by the server.
        #[serde(default)]
        #[schema(value_type = Option<i32>, minimum = 1)]
        pub max_depth: Option<u32>,
        /// Time budget for the search in milliseconds (larger boards); capped by the server. The
        /// search stops on a work budget derived from it (for a 15 × 15 midgame at 500 ms, about two
        /// thirds of it on the reference machine), so the same request gets the same answer; the time
        /// limit itself is the hard stop, and a search that reaches it first may answer differently.
        #[serde(default)]
        #[schema(value_type = Option<i32>, minimum = 1)]
        pub time_limit_ms: Option<u64>,
        /// How strong the suggested move is (`perfect` when absent or null).
        #[serde(default, deserialize_with = "null_as_default")]
        #[schema(value_type = Option<Difficulty>)]
        pub difficulty: Difficulty,
        /// How to choose among equally scored moves (`first` when absent or null).
        #[serde(default, deserialize_with = "null_as_default")]
        #[schema(value_type = Option<TieBreak>)]
        pub tie_break: TieBreak,
        /// Seed for the randomness of `difficulty` and `tie_break: random`; the same seed gives the
        /// same answer. Without one, answers vary from call to call.
        #[serde(default)]
        #[schema(value_type = Option<i64>, minimum = 0)]
        pub seed: Option<u64>,
    }
}

impl MoveRequest {
    /// A request with the given board and every option at its default.
    #[must_use]
    pub fn for_board(board: Value) -> Self {
        Self {
            board,
            player: None,
            scoring: Scoring::Depth,
            moves: false,
            top: None,
            rows: None,
            cols: None,
            k: None,
            gravity: None,
            rule: None,
            max_depth: None,
            time_limit_ms: None,
            difficulty: Difficulty::Perfect,
            tie_break: TieBreak::First,
            seed: None,
        }
    }
}

/// The body of `POST /v1/move`: the options object, or the bare board with every option at its
/// default (a schema-only type: [`parse_body`] reads either).
pub struct MoveBody;

impl PartialSchema for MoveBody {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(Ref::from_schema_name(MoveRequest::name()))
            .item(Ref::from_schema_name(Board::name()))
            .description(Some(
                "A MoveRequest object, or the bare board (an array or a compact string) as the whole body, with every option at its default.",
            ))
            .into()
    }
}

impl ToSchema for MoveBody {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((MoveRequest::name().into_owned(), MoveRequest::schema()));
        MoveRequest::schemas(schemas);
        schemas.push((Board::name().into_owned(), Board::schema()));
        Board::schemas(schemas);
    }
}

/// The most moves `top` may ask for.
pub const MAX_TOP: usize = 10;

/// A request past the edge: a legal position and settled options.
#[derive(Clone, Debug)]
pub struct ValidRequest {
    /// The position to move from.
    pub position: Position,
    /// How the board was written.
    pub style: BoardStyle,
    /// Scoring convention.
    pub scoring: Scoring,
    /// Whether to return the move table.
    pub moves: bool,
    /// How many of the best moves to list, searched each (multi-PV); 0 for none.
    pub top: usize,
    /// Requested search depth cap.
    pub max_depth: Option<u32>,
    /// Requested time budget.
    pub time_limit_ms: Option<u64>,
    /// Strength.
    pub difficulty: Difficulty,
    /// Tie-breaking.
    pub tie_break: TieBreak,
    /// Seed for randomness.
    pub seed: Option<u64>,
}

impl TryFrom<MoveRequest> for ValidRequest {
    type Error = ApiError;

    fn try_from(request: MoveRequest) -> Result<Self, ApiError> {
        // The documented ranges (the JSON types are int32/int64 in the OpenAPI document).
        let int32 = i32::MAX as u64;
        in_range("max_depth", request.max_depth.map(u64::from), 1, int32)?;
        in_range("time_limit_ms", request.time_limit_ms, 1, int32)?;
        in_range("seed", request.seed, 0, i64::MAX as u64)?;
        in_range("top", request.top, 1, MAX_TOP as u64)?;
        let (position, style) = request
            .geometry_fields()
            .position(&request.board, request.player)?;
        Ok(Self {
            position,
            style,
            scoring: request.scoring,
            moves: request.moves,
            top: request.top.unwrap_or(0) as usize,
            max_depth: request.max_depth,
            time_limit_ms: request.time_limit_ms,
            difficulty: request.difficulty,
            tie_break: request.tie_break,
            seed: request.seed,
        })
    }
}

/// The 422 for a body of the wrong shape, naming the field serde stopped at.
pub(crate) fn shape_error(error: &serde_path_to_error::Error<serde_json::Error>) -> ApiError {
    let pointer: String = error
        .path()
        .iter()
        .map(|segment| match segment {
            serde_path_to_error::Segment::Seq { index } => format!("/{index}"),
            other => format!("/{}", other.to_string().trim_start_matches('.')),
        })
        .collect();
    let detail = error.inner().to_string();
    // Like a duplicate field, an unknown one reaches us only as `de::Error::unknown_field`'s
    // message: serde_json keeps no typed kind for it.
    let code = if detail.starts_with("unknown field") {
        ProblemCode::UnknownField
    } else {
        ProblemCode::InvalidRequest
    };
    let pointer = if pointer == "/?" {
        String::new()
    } else {
        pointer
    };
    ApiError::invalid(code, pointer, detail)
}

/// Reads a request that must be a JSON object into `T`.
///
/// # Errors
/// A 422 `invalid_request` for a body that is not an object, else as [`shape_error`].
pub(crate) fn parse_object<T: serde::de::DeserializeOwned>(body: Value) -> Result<T, ApiError> {
    if !body.is_object() {
        return Err(ApiError::invalid(
            ProblemCode::InvalidRequest,
            "",
            "the body must be a JSON object",
        ));
    }
    serde_path_to_error::deserialize(body).map_err(|e| shape_error(&e))
}

/// A 422 when an optional numeric field is outside `min..=max`.
fn in_range(field: &str, value: Option<u64>, min: u64, max: u64) -> Result<(), ApiError> {
    match value {
        Some(v) if !(min..=max).contains(&v) => Err(ApiError::invalid(
            ProblemCode::InvalidRequest,
            format!("/{field}"),
            format!("{field} must be between {min} and {max}, got {v}"),
        )),
        _ => Ok(()),
    }
}

/// Parses a request body: a JSON object, or a bare board (array or compact string).
///
/// # Errors
/// 400 for malformed JSON; a 422 naming the offending field for a body of the wrong shape, or any
/// board problem.
pub fn parse_body(body: &[u8]) -> Result<ValidRequest, ApiError> {
    // The common case, an object, is read straight from the bytes with no intermediate `Value`.
    // Any failure takes the careful path below, which tells malformed JSON (400) from JSON of the
    // wrong shape (422) however late in the body the problem is.
    let is_object = body.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    if is_object {
        let mut deserializer = serde_json::Deserializer::from_slice(body);
        if let Ok(request) = MoveRequest::deserialize(&mut deserializer)
            && deserializer.end().is_ok()
        {
            return ValidRequest::try_from(request);
        }
    }
    let value: Value =
        serde_json::from_slice(body).map_err(|e| ApiError::MalformedJson(e.to_string()))?;
    // A `Value` keeps only the last of repeated keys (which the typed pass above refuses): a
    // repeated field is ambiguous, so it is rejected, naming the field.
    crate::api::wire::duplicates::refuse_repeated_keys(body)?;
    parse_request(value)
}

/// Parses a request body that is already known to be JSON: an object, or a bare board.
///
/// # Errors
/// A 422 naming the offending field for a body of the wrong shape, or any board problem.
pub fn parse_request(body: Value) -> Result<ValidRequest, ApiError> {
    let request = match body {
        Value::Object(_) => {
            serde_path_to_error::deserialize::<_, MoveRequest>(body).map_err(|e| shape_error(&e))?
        }
        board @ (Value::Array(_) | Value::String(_)) => MoveRequest::for_board(board),
        other => {
            return Err(ApiError::invalid(
                ProblemCode::InvalidRequest,
                "",
                format!(
                    "the body must be a JSON object or a board array, got {}",
                    describe(&other)
                ),
            ));
        }
    };
    ValidRequest::try_from(request)
}
