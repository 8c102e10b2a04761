//! The five tools, and the former name of one kept as a deprecated alias: what each is called
//! and does, its input and output schemas (the OpenAPI components of its REST twin, with every
//! `$ref` inlined), and running it.

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde_json::{Map, Value, json};

use crate::api::problem::ApiError;
use crate::api::state::AppState;
use crate::api::usecase::{moves, play, review, trace};
use crate::api::wire::{
    MoveResponse, PlayResponse, ReviewResponse, StatusResponse, TraceResponse, parse_request,
};

/// One tool: its name, the OpenAPI components of its input and output, its description, and for
/// a deprecated alias the tool it calls.
pub(super) struct ToolSpec {
    pub name: &'static str,
    input: &'static str,
    output: &'static str,
    description: &'static str,
    /// The tool this deprecated name calls; `None` for a tool of its own.
    pub alias_of: Option<&'static str>,
}

impl ToolSpec {
    /// The tool that runs when this one is called: itself, or the one it is an alias of.
    pub fn runs(&self) -> &'static str {
        self.alias_of.unwrap_or(self.name)
    }
}

/// What `trace_search` does, after the first sentence of each of its names.
macro_rules! trace_search_description {
    () => {
        " Pass a small position (board, and rows, cols, k, gravity for boards other than 3 × 3) or a \
         textbook tree (tree as nested arrays of leaf values such as [[[-1,4],[2,6]],[[-3,-5],[0,7]]] \
         or text such as \"((3 12 8)(2 4 6)(14 5 2))\", or branching with leaves). Returns the move \
         chosen and its value (from the view of the side to move, MAX), every alternative with its \
         exact value and outcome (why it loses or draws), and how many nodes plain minimax, \
         alpha-beta and alpha-beta with a table visit (what pruning saves); explanation holds the \
         sentences. algorithm (minimax, alphabeta, alphabeta_table), ordering, scoring (depth or \
         classic) and max_depth choose the search; root lists the search tree down to max_nodes \
         nodes (1 when absent: the root alone). Boards whose search passes 2,000,000 nodes are \
         refused with trace_too_large: give max_depth."
    };
}

/// The tools, in the order they are listed: the five, then the deprecated alias.
pub(super) const TOOLS: [ToolSpec; 6] = [
    ToolSpec {
        name: "suggest_move",
        input: "MoveRequest",
        output: "MoveResponse",
        description: "Best move for the side to move in tic-tac-toe or an m,n,k game (rows × cols \
         board, k in a row wins, up to 15 × 15, or 20 × 20 for gomoku with k = 5), solved exactly on \
         3 × 3. Pass the board as a \
         row-major array (\"X\", \"O\", or the cell's own index / null for empty) or a compact \
         string such as \"O.XX.X.OO\"; give rows, cols and k for other boards. Returns the cell to \
         play (index), its minimax score and outcome (win/draw/loss with best play), the board \
         after the move, the game status, the expected line of play and a one-sentence \
         explanation; moves=true adds every legal move with its score. gravity=true plays \
         Connect Four and other gravity games (rows=6, cols=7, k=4 for Connect Four): marks \
         drop to the lowest empty cell of their column, and answers add the column (from 0 in \
         the JSON; the text counts columns from 1, as players do). \
         For gomoku (k=5) rule picks the rule: freestyle (default, five or more wins), standard \
         (exactly five), renju (X is black and moves first, and may not play overlines, \
         double-fours or double-threes) or caro (five or more, but not exactly five blocked at \
         both ends). On gomoku boards (k = 5, or 100 cells or more) answers add the coordinate (\"h8\") beside \
         each index. Do not edit boards yourself: pass the index to apply_move to play it.",
        alias_of: None,
    },
    ToolSpec {
        name: "apply_move",
        input: "PlayRequest",
        output: "PlayResponse",
        description: "Plays one move: a board and a cell index (row-major from 0, as suggest_move \
         answers it) give the board after the move, whether it won (winner and winning line) or \
         drew the game, who moves next (to_move) and the legal moves. The mover is inferred from \
         the mark counts (or checked against player). On a gravity board (gravity=true) give \
         the column (from 0) instead of the index if you like. Use it instead of editing a board \
         yourself; errors name the problem (invalid_move for a taken, off-board or floating \
         cell or a full column, game_over for a finished game, forbidden_move with its reason \
         for a cell forbidden to black under rule=renju).",
        alias_of: None,
    },
    ToolSpec {
        name: "game_status",
        input: "StatusRequest",
        output: "StatusResponse",
        description: "Reads a board: whether the position is legal (an impossible board is an \
         error naming the problem code), whose turn it is (to_move), whether the game is won \
         (winner and line), drawn or in play, and the legal moves. Under rule=renju with X \
         (black) to move, forbidden lists the cells black may not play and forbidden_detail \
         why (overline, double_four, double_three); legal_moves leaves them out. A finished \
         game is a normal answer here, not an error.",
        alias_of: None,
    },
    ToolSpec {
        name: "review_game",
        input: "ReviewRequest",
        output: "ReviewResponse",
        description: "Reviews a whole game: pass the cells played in order (moves, row-major \
         indices from 0; X moves first unless first is \"O\"; rows, cols, k and rule for other \
         boards). \
         Every move gets its player, the best move(s) and their score, the played move's score, \
         what it cost and a label (best, good, inaccuracy, mistake, blunder: on 3 × 3 every value \
         is proven and a blunder is a move that made the proven outcome worse). Also each \
         player's tally and accuracy, the turning point and one sentence to tell the user. \
         Errors name the first illegal move (invalid_move with its number and cell).",
        alias_of: None,
    },
    ToolSpec {
        name: "trace_search",
        input: "TraceRequest",
        output: "TraceResponse",
        description: concat!(
            "Traces the minimax search (plain, alpha-beta, or alpha-beta with a table) and says \
             how it decides, in a few sentences to tell the user.",
            trace_search_description!()
        ),
        alias_of: None,
    },
    ToolSpec {
        name: "explain_move",
        input: "TraceRequest",
        output: "TraceResponse",
        description: concat!(
            "Deprecated: use trace_search, which this former name calls (same input, same \
             answer).",
            trace_search_description!()
        ),
        alias_of: Some("trace_search"),
    },
];

/// A tool's answer: its REST twin's response.
#[derive(Clone, Debug, PartialEq)]
pub enum ToolAnswer {
    /// `suggest_move`: the answer of `POST /v1/move`.
    Move(MoveResponse),
    /// `apply_move`: the answer of `POST /v1/play`.
    Play(PlayResponse),
    /// `game_status`: the answer of `POST /v1/status`.
    Status(StatusResponse),
    /// `review_game`: the answer of `POST /v1/review`.
    Review(ReviewResponse),
    /// `trace_search`: the answer of `POST /v1/trace`.
    Trace(TraceResponse),
}

impl ToolAnswer {
    /// The answer's JSON, the tool result's structured content.
    ///
    /// # Errors
    /// [`ApiError::Internal`] if the answer does not serialize (it always does).
    pub fn to_json(&self) -> Result<Value, ApiError> {
        let json = match self {
            Self::Move(answer) => serde_json::to_value(answer),
            Self::Play(answer) => serde_json::to_value(answer),
            Self::Status(answer) => serde_json::to_value(answer),
            Self::Review(answer) => serde_json::to_value(answer),
            Self::Trace(answer) => serde_json::to_value(answer),
        };
        json.map_err(|e| {
            tracing::error!(error = %e, "an answer did not serialize");
            ApiError::Internal
        })
    }
}

/// Runs a tool (by the name it runs under, [`ToolSpec::runs`]) on its arguments, exactly as its
/// REST twin would.
pub(super) async fn run(
    state: &AppState,
    tool: &str,
    arguments: Value,
) -> Result<ToolAnswer, ApiError> {
    match tool {
        "suggest_move" => {
            let request = parse_request(arguments)?;
            moves::answer_bounded(state, request)
                .await
                .map(ToolAnswer::Move)
        }
        "apply_move" => play::play(state.engine(), arguments).map(ToolAnswer::Play),
        "game_status" => play::status(arguments).map(ToolAnswer::Status),
        "review_game" => {
            let request = crate::api::wire::parse_review(arguments)?;
            review::review_bounded(state, request)
                .await
                .map(ToolAnswer::Review)
        }
        "trace_search" => {
            let mut arguments = arguments;
            // A chatbot needs the sentences and the root's alternatives, not the whole tree.
            if let Some(fields) = arguments.as_object_mut()
                && fields.get("max_nodes").is_none_or(Value::is_null)
            {
                fields.insert("max_nodes".to_owned(), json!(1));
            }
            let request = crate::api::wire::parse_trace(arguments)?;
            trace::trace_bounded(state, request)
                .await
                .map(ToolAnswer::Trace)
        }
        _ => Err(ApiError::NotFound),
    }
}

/// The tools with their schemas, from the OpenAPI document.
#[must_use]
pub fn tools() -> Vec<Tool> {
    let schemas = openapi_schemas();
    TOOLS
        .iter()
        .map(|spec| {
            let mut annotations = ToolAnnotations::new();
            annotations.read_only_hint = Some(true);
            annotations.open_world_hint = Some(false);
            annotations.idempotent_hint = Some(true);
            Tool::new(
                spec.name,
                spec.description,
                object(component(&schemas, spec.input)),
            )
            .with_raw_output_schema(object(component(&schemas, spec.output)))
            .with_annotations(annotations)
        })
        .collect()
}

fn object(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(map) => Arc::new(map),
        _ => Arc::new(JsonObject::new()),
    }
}

fn openapi_schemas() -> Map<String, Value> {
    let doc = serde_json::to_value(crate::api::openapi()).expect("the OpenAPI document serializes");
    doc["components"]["schemas"]
        .as_object()
        .cloned()
        .expect("the OpenAPI document has schemas")
}

/// The OpenAPI component `name` as a self-contained JSON Schema: every `$ref` inlined, and every
/// `type` a single type (`["integer", "null"]` becomes an `anyOf`), the form that tool-schema
/// dialects with a single `type` read.
fn component(schemas: &Map<String, Value>, name: &str) -> Value {
    /// Inlines `value`; `within` names the components being inlined around it, so that a
    /// component met again inside itself (a tree's children) becomes a schema that only
    /// describes it, instead of inlining for ever.
    fn inline(value: &Value, schemas: &Map<String, Value>, within: &mut Vec<String>) -> Value {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(target)) = map.get("$ref")
                    && let Some(name) = target.strip_prefix("#/components/schemas/")
                {
                    if within.iter().any(|n| n == name) {
                        // Still a typed schema, so that strict clients see what it accepts.
                        let kind = schemas[name]
                            .get("type")
                            .cloned()
                            .unwrap_or(json!("object"));
                        let mut stub =
                            json!({"type": kind, "description": format!("A {name}, as above.")});
                        if stub["type"] == "object" {
                            stub["additionalProperties"] = json!(true);
                        }
                        return stub;
                    }
                    within.push(name.to_owned());
                    let mut resolved = inline(&schemas[name], schemas, within);
                    within.pop();
                    // Keep siblings of the reference (a description, say).
                    if let Value::Object(resolved_map) = &mut resolved {
                        for (key, v) in map.iter().filter(|(k, _)| *k != "$ref") {
                            resolved_map.insert(key.clone(), inline(v, schemas, within));
                        }
                    }
                    return resolved;
                }
                let mut map: Map<String, Value> = map
                    .iter()
                    .map(|(k, v)| (k.clone(), inline(v, schemas, within)))
                    .collect();
                single_types(&mut map);
                Value::Object(map)
            }
            Value::Array(items) => {
                Value::Array(items.iter().map(|v| inline(v, schemas, within)).collect())
            }
            other => other.clone(),
        }
    }
    inline(&schemas[name], schemas, &mut vec![name.to_owned()])
}

/// Rewrites `{"type": ["integer", "null"], "minimum": 1, "description": d}` as
/// `{"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}], "description": d}`.
fn single_types(schema: &mut Map<String, Value>) {
    let Some(Value::Array(types)) = schema.get("type").cloned() else {
        return;
    };
    let mut shared = Map::new();
    let mut specific = Map::new();
    for (key, value) in std::mem::take(schema) {
        match key.as_str() {
            "type" => {}
            "description" | "title" | "default" | "example" | "examples" => {
                shared.insert(key, value);
            }
            _ => {
                specific.insert(key, value);
            }
        }
    }
    let branches = types
        .into_iter()
        .map(|t| {
            if t == "null" {
                json!({"type": "null"})
            } else {
                let mut branch = specific.clone();
                branch.insert("type".to_owned(), t);
                Value::Object(branch)
            }
        })
        .collect();
    shared.insert("anyOf".to_owned(), Value::Array(branches));
    *schema = shared;
}
