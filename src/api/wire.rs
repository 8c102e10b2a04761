//! Wire types: the JSON a client sends and gets back, and the edge where a request body becomes a
//! validated [`Position`] or a 422.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa::openapi::{RefOr, Schema};

use super::problem::ProblemCode;
use super::problem::{ApiError, FieldError};
use crate::engine::Value as MoveValue;
use crate::engine::{
    Difficulty, Geometry, MoveScore, OutcomeOrUnknown, Player, Position, Scoring, Suggestion,
    TieBreak,
};

/// A string schema with fixed values, for the engine's enums that the API reads and writes.
fn string_enum(description: &str, values: &[&str]) -> RefOr<Schema> {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(description))
        .enum_values(Some(values.iter().copied()))
        .into()
}

/// Documents an engine enum (serialized by its own serde derive) under the schema name the API
/// has always used for it.
macro_rules! engine_enum_schema {
    ($type:ty, $name:literal, $description:literal, [$($value:literal),+]) => {
        impl utoipa::PartialSchema for $type {
            fn schema() -> RefOr<Schema> {
                string_enum($description, &[$($value),+])
            }
        }
        impl ToSchema for $type {
            fn name() -> std::borrow::Cow<'static, str> {
                std::borrow::Cow::Borrowed($name)
            }
        }
    };
}

engine_enum_schema!(
    Player,
    "Mark",
    "A mark, in either case on the way in, upper case on the way out.",
    ["X", "O"]
);
engine_enum_schema!(
    Scoring,
    "ScoringParam",
    "How scores are counted.",
    ["depth", "classic"]
);
engine_enum_schema!(
    Difficulty,
    "DifficultyParam",
    "How strong the suggested move is.",
    ["perfect", "hard", "medium", "easy"]
);
engine_enum_schema!(
    TieBreak,
    "TieBreakParam",
    "How to choose among equally scored moves.",
    ["first", "random"]
);
engine_enum_schema!(
    OutcomeOrUnknown,
    "OutcomeValue",
    "What best play gives.",
    ["win", "loss", "draw", "unknown"]
);

/// The move table's entries are the engine's [`MoveScore`]s, written by its serde impl.
impl utoipa::PartialSchema for MoveScore {
    fn schema() -> RefOr<Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        use utoipa::openapi::{KnownFormat, Ref, SchemaFormat};
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .description(Some("One legal move in the move table."))
            .property(
                "index",
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .description(Some("The cell."))
                    .minimum(Some(0)),
            )
            .required("index")
            .property(
                "score",
                ObjectBuilder::new()
                    .schema_type(Type::Number)
                    .format(Some(SchemaFormat::KnownFormat(KnownFormat::Double)))
                    .description(Some("Its score from the mover's view.")),
            )
            .required("score")
            .property("outcome", {
                let mut reference = Ref::from_schema_name(OutcomeOrUnknown::name());
                reference.description = "What best play after it gives the mover.".to_owned();
                reference
            })
            .required("outcome")
            .property(
                "plies",
                ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
                        Type::Integer,
                        Type::Null,
                    ]))
                    .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int32)))
                    .description(Some(
                        "Moves to the end with best play, this one included; null when not proven.",
                    ))
                    .minimum(Some(0)),
            )
            .property(
                "exact",
                ObjectBuilder::new()
                    .schema_type(Type::Boolean)
                    .description(Some("Whether the score is proven.")),
            )
            .required("exact")
            .into()
    }
}

impl ToSchema for MoveScore {
    fn name() -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed("MoveEntry")
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        use utoipa::PartialSchema;
        schemas.push((
            OutcomeOrUnknown::name().into_owned(),
            OutcomeOrUnknown::schema(),
        ));
    }
}

pub(crate) fn board_schema() -> impl Into<RefOr<Schema>> {
    use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, Type};
    let cell = OneOfBuilder::new()
        .item(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .description(Some(
                    "\"X\" or \"O\" (either case) for a mark; \"\", \" \", \"-\", \"_\" or \".\" for an empty cell",
                )),
        )
        .item(
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .minimum(Some(0))
                .description(Some("an empty cell holding its own index")),
        )
        .item(ObjectBuilder::new().schema_type(Type::Null).description(Some("an empty cell")));
    OneOfBuilder::new()
        .item(
            ArrayBuilder::new()
                .items(cell)
                .min_items(Some(1))
                .max_items(Some(225))
                .description(Some("row-major cells")),
        )
        .item(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .min_length(Some(1))
                .max_length(Some(225))
                .description(Some(
                    "compact form, one character a cell: X/O for marks, . - _ or space for empty",
                )),
        )
        .description(Some(
            "The position: a row-major array of cells, or the compact string form.",
        ))
        .examples([serde_json::json!(["O", 1, "X", "X", 4, "X", 6, "O", "O"])])
}

/// The body of `POST /v1/move`. The bare board array may also be sent as the whole body, with every
/// option at its default.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"board": ["O", 1, "X", "X", 4, "X", 6, "O", "O"], "moves": true}))]
pub struct MoveRequest {
    /// The position.
    #[schema(schema_with = board_schema)]
    pub board: Value,
    /// The side to move (the AI's). Inferred when absent: the side with fewer marks, X when the
    /// counts are equal. When given it must agree with the counts.
    #[serde(default)]
    pub player: Option<Player>,
    /// How scores are counted.
    #[serde(default)]
    pub scoring: Scoring,
    /// Whether to include every legal move with its score.
    #[serde(default)]
    pub moves: bool,
    /// Rows of the board (1..=15).
    #[serde(default)]
    #[schema(value_type = Option<i32>, minimum = 1, maximum = 15, default = 3)]
    pub rows: Option<u64>,
    /// Columns of the board (1..=15).
    #[serde(default)]
    #[schema(value_type = Option<i32>, minimum = 1, maximum = 15, default = 3)]
    pub cols: Option<u64>,
    /// Marks in a row needed to win (1..=max(rows, cols)).
    #[serde(default)]
    #[schema(value_type = Option<i32>, minimum = 1, maximum = 15, default = 3)]
    pub k: Option<u64>,
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
    /// How strong the suggested move is.
    #[serde(default)]
    pub difficulty: Difficulty,
    /// How to choose among equally scored moves.
    #[serde(default)]
    pub tie_break: TieBreak,
    /// Seed for the randomness of `difficulty` and `tie_break: random`; the same seed gives the
    /// same answer. Without one, answers vary from call to call.
    #[serde(default)]
    #[schema(value_type = Option<i64>, minimum = 0)]
    pub seed: Option<u64>,
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
            rows: None,
            cols: None,
            k: None,
            max_depth: None,
            time_limit_ms: None,
            difficulty: Difficulty::Perfect,
            tie_break: TieBreak::First,
            seed: None,
        }
    }
}

/// How the board was written, so the board after the move comes back the same way.
#[derive(Clone, Debug, PartialEq)]
pub enum BoardStyle {
    /// An array whose empty cells were written like this (`Value::Null` stands for an index).
    Array(Option<Value>),
    /// The compact string form with this empty character.
    Compact(char),
}

impl BoardStyle {
    /// `cells` written in this style.
    #[must_use]
    pub fn render(&self, cells: Vec<Option<Player>>) -> RenderedBoard {
        RenderedBoard {
            cells,
            style: self.clone(),
        }
    }
}

/// A board written in a request's style. It serializes straight to JSON, with no intermediate
/// `Value`: it is part of every response.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderedBoard {
    cells: Vec<Option<Player>>,
    style: BoardStyle,
}

impl Serialize for RenderedBoard {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        match &self.style {
            BoardStyle::Array(empty) => {
                let mut seq = serializer.serialize_seq(Some(self.cells.len()))?;
                for (i, cell) in self.cells.iter().enumerate() {
                    match (cell, empty) {
                        (Some(p), _) => seq.serialize_element(p.as_str())?,
                        (None, Some(e)) => seq.serialize_element(e)?,
                        (None, None) => seq.serialize_element(&i)?,
                    }
                }
                seq.end()
            }
            BoardStyle::Compact(empty) => serializer.serialize_str(
                &self
                    .cells
                    .iter()
                    .map(|c| c.map_or(*empty, Player::as_char))
                    .collect::<String>(),
            ),
        }
    }
}

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

fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Reads one cell of the array form.
fn parse_cell(index: usize, value: &Value) -> Result<Option<Player>, String> {
    match value {
        Value::Null => Ok(None),
        Value::String(s) => match s.as_str() {
            "X" | "x" => Ok(Some(Player::X)),
            "O" | "o" => Ok(Some(Player::O)),
            "" | " " | "-" | "_" | "." => Ok(None),
            other => Err(format!(
                "{other:?} is not a mark: expected \"X\", \"O\", the cell's index {index}, or an empty marker (null, \"\", \" \", \"-\", \"_\", \".\")"
            )),
        },
        Value::Number(n) => match n.as_u64() {
            Some(v) if v == index as u64 => Ok(None),
            Some(v) => Err(format!(
                "{v} is not this cell's index ({index}): an empty cell holds its own index, and numeric codes such as 0/1/2 for marks are not accepted"
            )),
            None if n.is_i64() => Err(format!(
                "{n} is not this cell's index ({index}): an empty cell holds its own index"
            )),
            None => Err(format!(
                "{n} is not an integer: an empty cell holds its own index ({index})"
            )),
        },
        other => Err(format!(
            "expected \"X\", \"O\", the cell's index {index}, or an empty marker, got {}",
            describe(other)
        )),
    }
}

/// Reads the board in either form, reporting every bad cell at once.
pub(crate) fn parse_board(board: &Value) -> Result<(Vec<Option<Player>>, BoardStyle), ApiError> {
    match board {
        Value::Array(values) => {
            let mut errors = Vec::new();
            let cells: Vec<Option<Player>> = values
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    parse_cell(i, v).unwrap_or_else(|detail| {
                        errors.push(FieldError {
                            pointer: format!("/board/{i}"),
                            detail,
                        });
                        None
                    })
                })
                .collect();
            if !errors.is_empty() {
                let n = errors.len();
                return Err(ApiError::Invalid {
                    code: ProblemCode::InvalidCell,
                    detail: format!(
                        "{n} cell{} of the board {} not a mark, its own index or an empty marker",
                        if n == 1 { "" } else { "s" },
                        if n == 1 { "is" } else { "are" },
                    ),
                    errors,
                });
            }
            let empty = values
                .iter()
                .zip(&cells)
                .find(|(v, c)| c.is_none() && !v.is_number())
                .map(|(v, _)| v.clone());
            let style = if values
                .iter()
                .zip(&cells)
                .any(|(v, c)| c.is_none() && v.is_number())
            {
                BoardStyle::Array(None)
            } else {
                BoardStyle::Array(empty)
            };
            Ok((cells, style))
        }
        Value::String(s) => {
            let cells = Position::parse_compact(s).map_err(|errors| {
                let n = errors.len();
                ApiError::Invalid {
                    code: ProblemCode::InvalidCell,
                    detail: format!(
                        "{n} character{} of the board string {} not X, O or an empty cell",
                        if n == 1 { "" } else { "s" },
                        if n == 1 { "is" } else { "are" },
                    ),
                    errors: errors
                        .into_iter()
                        .map(|e| FieldError {
                            pointer: "/board".to_owned(),
                            detail: e.to_string(),
                        })
                        .collect(),
                }
            })?;
            let empty = s
                .chars()
                .find(|c| Player::from_char(*c).is_none())
                .unwrap_or('.');
            Ok((cells, BoardStyle::Compact(empty)))
        }
        other => Err(ApiError::invalid(
            ProblemCode::InvalidBoard,
            "/board",
            format!(
                "the board must be an array of cells or a string, got {}",
                describe(other)
            ),
        )),
    }
}

impl TryFrom<MoveRequest> for ValidRequest {
    type Error = ApiError;

    fn try_from(request: MoveRequest) -> Result<Self, ApiError> {
        // The documented ranges (the JSON types are int32/int64 in the OpenAPI document).
        let int32 = i32::MAX as u64;
        in_range("max_depth", request.max_depth.map(u64::from), 1, int32)?;
        in_range("time_limit_ms", request.time_limit_ms, 1, int32)?;
        in_range("seed", request.seed, 0, i64::MAX as u64)?;
        let (cells, style) = parse_board(&request.board)?;
        let geometry = Geometry::new(
            request.rows.unwrap_or(3),
            request.cols.unwrap_or(3),
            request.k.unwrap_or(3),
        )?;
        if cells.len() != geometry.cells() {
            let hint = if request.rows.is_none() && request.cols.is_none() {
                "; send rows, cols and k for boards other than 3 × 3"
            } else {
                ""
            };
            return Err(ApiError::invalid(
                ProblemCode::InvalidBoard,
                "/board",
                format!(
                    "the board has {} cells, but rows × cols = {} × {} = {}{hint}",
                    cells.len(),
                    geometry.rows(),
                    geometry.cols(),
                    geometry.cells()
                ),
            ));
        }
        let position = Position::new(geometry, cells, request.player)?;
        Ok(Self {
            position,
            style,
            scoring: request.scoring,
            moves: request.moves,
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
        .map(|segment| format!("/{}", segment.to_string().trim_start_matches('.')))
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
    let mut duplicate = None;
    if is_object {
        let mut deserializer = serde_json::Deserializer::from_slice(body);
        match MoveRequest::deserialize(&mut deserializer) {
            Ok(request) if deserializer.end().is_ok() => return ValidRequest::try_from(request),
            Ok(_) => {}
            Err(error) => duplicate = duplicate_field(&error),
        }
    }
    let value: Value =
        serde_json::from_slice(body).map_err(|e| ApiError::MalformedJson(e.to_string()))?;
    // A `Value` keeps only the last of repeated keys; the typed pass above saw them all. A
    // repeated field is ambiguous (parsers disagree on which one wins), so it is rejected.
    if let Some(field) = duplicate {
        return Err(ApiError::invalid(
            ProblemCode::InvalidRequest,
            format!("/{field}"),
            format!("the field `{field}` appears more than once"),
        ));
    }
    parse_request(value)
}

/// The field named by serde's "duplicate field `name`" error, if that is what `error` is.
///
/// This reads the message text because there is no typed path: the derive reports a repeated key
/// through `de::Error::duplicate_field`, which serde_json turns into a plain `Category::Data`
/// error carrying only that message.
fn duplicate_field(error: &serde_json::Error) -> Option<String> {
    let message = error.to_string();
    let rest = message.strip_prefix("duplicate field `")?;
    Some(rest[..rest.find('`')?].to_owned())
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

/// The state of the game after the suggested move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameState {
    /// Neither side has a line and cells are free.
    InPlay,
    /// The move completed a line.
    Win,
    /// The move filled the board with no line.
    Draw,
}

/// The game after the suggested move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct GameStatus {
    /// In play, won, or drawn.
    pub state: GameState,
    /// The winner when `state` is `win`, else null.
    pub winner: Option<Player>,
    /// The winning line's cells when `state` is `win`, else empty.
    pub line: Vec<usize>,
}

/// The answer of `POST /v1/move`.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[schema(example = json!({
    "index": 4, "score": 9, "player": "X", "outcome": "win", "plies": 1, "exact": true,
    "moves": [
        {"index": 1, "score": -8, "outcome": "loss", "plies": 2, "exact": true},
        {"index": 4, "score": 9, "outcome": "win", "plies": 1, "exact": true},
        {"index": 6, "score": -8, "outcome": "loss", "plies": 2, "exact": true}
    ],
    "board": ["O", 1, "X", "X", "X", "X", 6, "O", "O"],
    "status": {"state": "win", "winner": "X", "line": [3, 4, 5]},
    "pv": [4],
    "explanation": "X takes 4 and wins at once, completing the middle row."
}))]
pub struct MoveResponse {
    /// The cell to play.
    pub index: usize,
    /// Its score from the mover's view.
    #[schema(value_type = f64)]
    pub score: MoveValue,
    /// The side to move (the AI's).
    pub player: Player,
    /// What best play after this move gives the mover.
    pub outcome: OutcomeOrUnknown,
    /// Moves to the end with best play, this one included; null when not proven.
    pub plies: Option<u32>,
    /// False only when a depth or time limit cut the search; the score is then an estimate.
    pub exact: bool,
    /// Every legal move with its score, by index (only when `moves` was true).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<MoveScore>>,
    /// The board after the move, written the way the request wrote it.
    #[schema(schema_with = board_schema)]
    pub board: RenderedBoard,
    /// The game after the move.
    pub status: GameStatus,
    /// The expected line of best play, starting with this move (on 3 × 3 to the end of the game;
    /// on larger boards as far as the search recorded it, at least this move).
    pub pv: Vec<usize>,
    /// One plain-English sentence about the move.
    pub explanation: String,
    /// The seed used when the answer involved chance (difficulty below perfect or random
    /// tie-break); send it back to get the same answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<i64>, minimum = 0)]
    pub seed: Option<u64>,
}

impl GameStatus {
    /// The wire form of a game's result: in play (`None`), won (with the winner and its line) or
    /// drawn.
    #[must_use]
    pub fn of(result: Option<&crate::engine::GameResult>) -> Self {
        Self {
            state: match result {
                None => GameState::InPlay,
                Some(r) if r.winner.is_some() => GameState::Win,
                Some(_) => GameState::Draw,
            },
            winner: result.and_then(|r| r.winner),
            line: result.map(|r| r.line.clone()).unwrap_or_default(),
        }
    }
}

impl MoveResponse {
    /// The wire form of a suggestion: `moves` includes the move table, `style` writes the board
    /// after the move the way the request wrote it.
    #[must_use]
    pub fn new(suggestion: Suggestion, moves: bool, style: &BoardStyle) -> Self {
        let chosen = suggestion.chosen;
        let status = GameStatus::of(suggestion.after.result.as_ref());
        Self {
            index: chosen.index,
            score: chosen.value,
            player: suggestion.player,
            outcome: OutcomeOrUnknown(chosen.value.outcome()),
            plies: chosen.value.plies(),
            exact: chosen.value.is_exact(),
            moves: moves.then_some(suggestion.analysis.moves),
            board: style.render(suggestion.after.cells),
            status,
            pv: suggestion.pv,
            explanation: suggestion.explanation,
            seed: suggestion.seed,
        }
    }
}
