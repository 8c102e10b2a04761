//! How the wire types read in the OpenAPI document: the engine's enums under the names the API
//! uses, the move table's entries, the board, and the document-wide settings (servers, security,
//! licence).

use std::borrow::Cow;

use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, SchemaType, Type};
use utoipa::openapi::{KnownFormat, Ref, RefOr, Schema, SchemaFormat};
use utoipa::{Modify, PartialSchema, ToSchema};

use crate::engine::renju::Foul;
use crate::engine::{
    Difficulty, Label, MoveScore, OutcomeOrUnknown, Player, Rule, Scoring, TieBreak,
};

/// A string schema with fixed values, for the engine's enums that the API reads and writes.
fn string_enum(description: &str, values: &[&str]) -> RefOr<Schema> {
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
        impl PartialSchema for $type {
            fn schema() -> RefOr<Schema> {
                string_enum($description, &[$($value),+])
            }
        }
        impl ToSchema for $type {
            fn name() -> Cow<'static, str> {
                Cow::Borrowed($name)
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
    Rule,
    "RuleParam",
    "The gomoku rule: `freestyle` (five or more in a row wins), `standard` (exactly five), `renju` (X is black and moves first: exactly five, and no overline, double-four or double-three; O wins with five or more) or `caro` (five or more, except exactly five blocked at both ends by the opponent). Rules other than `freestyle` need k = 5 and no gravity.",
    ["freestyle", "standard", "renju", "caro"]
);
engine_enum_schema!(
    Foul,
    "ForbiddenReason",
    "Why a cell is forbidden to black under renju.",
    ["overline", "double_four", "double_three"]
);
engine_enum_schema!(
    Label,
    "MoveLabel",
    "The labels of reviewed moves.",
    ["best", "good", "inaccuracy", "mistake", "blunder"]
);
engine_enum_schema!(
    OutcomeOrUnknown,
    "OutcomeValue",
    "What best play gives.",
    ["win", "loss", "draw", "unknown"]
);

/// How the schemas describe a `coordinate` field.
const COORDINATE: &str = "Gomoku boards only (k = 5, or 100 cells or more, without gravity): the cell in board notation, its column as a letter from `a` (left) and its row as a number from 1 (the bottom row), as renju and Gomocup boards write it (`h8` is the centre of 15 × 15).";

/// A reference to a component, with a description of its own.
fn described_ref(name: &str, description: &str) -> Ref {
    let mut reference = Ref::from_schema_name(name);
    description.clone_into(&mut reference.description);
    reference
}

/// The move table's entries are the engine's [`MoveScore`]s, written by its serde impl (with
/// `column` added on gravity boards): every field is always present (`plies` is null when not
/// proven).
impl PartialSchema for MoveScore {
    fn schema() -> RefOr<Schema> {
        let plies = ObjectBuilder::new()
            .schema_type(SchemaType::from_iter([Type::Integer, Type::Null]))
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int32)))
            .description(Some(
                "Moves to the end with best play, this one included; null when not proven.",
            ))
            .minimum(Some(0));
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .description(Some("One legal move in the move table."))
            .property(
                "index",
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .description(Some("The cell, a row-major index from 0."))
                    .minimum(Some(0)),
            )
            .property(
                "coordinate",
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .description(Some(COORDINATE))
                    .examples([serde_json::json!("h8")]),
            )
            .property(
                "column",
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .description(Some(
                        "Gravity boards only: the column, from 0 (the cell is where a mark dropped there lands).",
                    ))
                    .minimum(Some(0)),
            )
            .property(
                "score",
                ObjectBuilder::new()
                    .schema_type(Type::Number)
                    .format(Some(SchemaFormat::KnownFormat(KnownFormat::Double)))
                    .description(Some("Its score from the mover's view.")),
            )
            .property(
                "outcome",
                described_ref(
                    &OutcomeOrUnknown::name(),
                    "What best play after it gives the mover.",
                ),
            )
            .property("plies", plies)
            .property(
                "exact",
                ObjectBuilder::new()
                    .schema_type(Type::Boolean)
                    .description(Some("Whether the score is proven.")),
            )
            .property(
                "searched",
                ObjectBuilder::new()
                    .schema_type(Type::Boolean)
                    .description(Some(
                        "Whether the score comes from a search of this move (or a proof). False: the move was not searched (the big-board engine searches only its candidate moves) and the score is a static estimate of the position after it, below every searched move; such moves are never ranked in `top`.",
                    )),
            )
            .required("index")
            .required("score")
            .required("outcome")
            .required("plies")
            .required("exact")
            .required("searched")
            .into()
    }
}

impl ToSchema for MoveScore {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("MoveEntry")
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((
            OutcomeOrUnknown::name().into_owned(),
            OutcomeOrUnknown::schema(),
        ));
    }
}

/// One cell of a board in the array form (a schema-only type).
pub struct Cell;

impl PartialSchema for Cell {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
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
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::Null)
                    .description(Some("an empty cell")),
            )
            .description(Some(
                "A cell: a mark, the cell's own index or an empty marker.",
            ))
            .into()
    }
}

impl ToSchema for Cell {}

/// A board, in the array or the compact string form (a schema-only type: the wire types hold
/// boards as JSON values and parse them at the edge).
pub struct Board;

impl PartialSchema for Board {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(
                ArrayBuilder::new()
                    .items(Ref::from_schema_name(Cell::name()))
                    .min_items(Some(1))
                    .max_items(Some(400))
                    .description(Some("row-major cells")),
            )
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .min_length(Some(1))
                    .max_length(Some(400))
                    .description(Some(
                        "compact form, one character a cell: X/O for marks, . - _ or space for empty",
                    )),
            )
            .description(Some(
                "The position: a row-major array of cells, or the compact string form.",
            ))
            .examples([serde_json::json!(["O", 1, "X", "X", 4, "X", 6, "O", "O"])])
            .into()
    }
}

impl ToSchema for Board {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((Cell::name().into_owned(), Cell::schema()));
    }
}

/// The document-wide settings: the server is the one serving the document, no operation needs
/// credentials, and the licence carries its SPDX expression.
#[derive(Clone, Copy, Debug)]
pub struct Contract;

impl Modify for Contract {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::server::ServerBuilder;
        openapi.servers = Some(vec![
            ServerBuilder::new()
                .url("/")
                .description(Some("The server that serves this document"))
                .build(),
        ]);
        openapi.security = Some(Vec::new());
        if let Some(license) = &mut openapi.info.license {
            license.identifier = Some(license.name.clone());
        }
    }
}
