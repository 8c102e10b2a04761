//! `POST /v1/trace` on the wire: the request (a position or a textbook tree) and its
//! validation here, the answer (the search tree) in `response`.

mod response;

use std::borrow::Cow;

use serde_json::Value;
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, SchemaType, Type};
use utoipa::openapi::{Ref, RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};

pub use response::{
    CutBy, LeafKind, NodeCutoff, NodeSide, NodeTableHit, TableKind, TraceAlternative, TraceCounts,
    TraceNodeBody, TraceResponse,
};

use super::board::describe;
use super::geometry::request;
use super::moves::parse_object;
use super::schema::Board;
use crate::api::problem::{ApiError, ProblemCode};
use crate::engine::{
    Algorithm, MAX_TREE_DEPTH, MAX_TREE_NODES, TRACE_MAX_LISTED, TraceInput, TraceOptions, Tree,
    TreeError,
};
use crate::engine::{Player, Rule, Scoring};

request! {
    /// The body of `POST /v1/trace` and the input of the MCP tool `trace_search`: a position (as
    /// for `POST /v1/move`) or a textbook tree (`tree`, or `branching` with `leaves`), and how to
    /// search it. Every optional field may be absent or null, both meaning its default.
    #[schema(example = json!({"tree": [[[-1, 4], [2, 6]], [[-3, -5], [0, 7]]], "algorithm": "alphabeta"}))]
    pub struct TraceRequest {
        /// The position to trace, as for `POST /v1/move` (array or compact string); MAX is its side
        /// to move. Give a board, a tree, or branching with leaves.
        #[serde(default)]
        #[schema(value_type = Option<Board>)]
        pub board: Option<Value>,
        /// The side to move (inferred from the counts when absent or null).
        #[serde(default)]
        pub player: Option<Player>,
    }
    geometry {
        /// Rows of the board (3 when absent or null).
        rows,
        /// Columns of the board (3 when absent or null).
        cols,
        /// Marks in a row needed to win (3 when absent or null).
        k,
        /// Gravity (false when absent or null), as for `POST /v1/move`.
        gravity,
        /// The rule: only `freestyle` (k or more in a row wins) is traced.
        rule,
    }
    {
        /// A textbook tree: nested arrays whose numbers are the leaves' values from MAX's point of
        /// view (the root is MAX, levels alternate), such as
        /// `[[[-1, 4], [2, 6]], [[-3, -5], [0, 7]]]`; or the same in parenthesised text, such as
        /// `"((3 12 8)(2 4 6)(14 5 2))"`, where a group holding one number is that leaf, so
        /// `"((3)(12)(8))"` is a root with three leaves. At most 4,096 nodes, 24 levels.
        #[serde(default)]
        #[schema(value_type = Option<TextbookTree>)]
        pub tree: Option<Value>,
        /// With `leaves`: a complete textbook tree with this many children at every inner node.
        #[serde(default)]
        #[schema(value_type = Option<i32>, minimum = 2)]
        pub branching: Option<u64>,
        /// With `branching`: the leaves' values, left to right; their number must be a power of
        /// `branching`.
        #[serde(default)]
        #[schema(max_items = 4096)]
        pub leaves: Option<Vec<f64>>,
        /// The algorithm traced (`minimax` when absent or null).
        #[serde(default)]
        #[schema(value_type = Option<Algorithm>)]
        pub algorithm: Option<Algorithm>,
        /// Positions only: search the moves best first (a win, a block, then the cells on the most
        /// open lines) rather than by index (false when absent or null).
        #[serde(default)]
        pub ordering: Option<bool>,
        /// Positions only: how the end of a game scores (`depth` when absent or null): `depth`
        /// gives a win for MAX `W − d` and a loss `d − W` (`W = cells + 1`, `d` plies from the
        /// root: the `10 − depth` of 3 × 3), `classic` +10 / −10; a draw is 0.
        #[serde(default)]
        #[schema(value_type = Option<Scoring>)]
        pub scoring: Option<Scoring>,
        /// Positions only: the depth limit in plies; a position in play this deep gets the static
        /// evaluation (lines open to MAX minus lines open to MIN, over the number of lines plus
        /// one). No limit when absent or null.
        #[serde(default)]
        #[schema(value_type = Option<i32>, minimum = 1, maximum = 400)]
        pub max_depth: Option<u32>,
        /// The most nodes listed in `root` (1,000 when absent or null, at most 10,000): the tree is
        /// listed level by level down to the deepest level that fits, and deeper subtrees are
        /// summarised by their node counts. The counts are exact whatever this is.
        #[serde(default)]
        #[schema(value_type = Option<i32>, minimum = 1, maximum = 10000)]
        pub max_nodes: Option<u64>,
    }
}

/// A textbook tree on the wire (a schema-only type).
pub struct TextbookTree;

impl PartialSchema for TextbookTree {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(
                ArrayBuilder::new()
                    .items(Ref::from_schema_name(TreeBranch::name()))
                    .min_items(Some(1))
                    .description(Some("nested arrays of leaf values")),
            )
            .item(ObjectBuilder::new().schema_type(Type::String).description(Some(
                "parenthesised text: a group is an inner node, a number a leaf, a group of one number that leaf",
            )))
            .description(Some(
                "A textbook tree: nested arrays of leaf values, or the same in parenthesised text.",
            ))
            .examples([serde_json::json!([[[-1, 4], [2, 6]], [[-3, -5], [0, 7]]])])
            .into()
    }
}

impl ToSchema for TextbookTree {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((TreeBranch::name().into_owned(), TreeBranch::schema()));
    }
}

/// A child in a textbook tree: a leaf value or a subtree (a schema-only type).
pub struct TreeBranch;

impl PartialSchema for TreeBranch {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::Number)
                    .description(Some("a leaf's value, from MAX's point of view")),
            )
            // The children are described, not referenced: a schema that refers to itself
            // makes generated clients' types refer to themselves, which TypeScript refuses.
            .item(
                ArrayBuilder::new()
                    .items(
                        ObjectBuilder::new()
                            .schema_type(SchemaType::from_iter([Type::Number, Type::Array]))
                            .description(Some("a child: a leaf value or a subtree, as this one")),
                    )
                    .min_items(Some(1))
                    .description(Some("an inner node's children, left to right")),
            )
            .description(Some("A leaf value or a subtree."))
            .into()
    }
}

impl ToSchema for TreeBranch {}

impl PartialSchema for Algorithm {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(
                "The search: `minimax` (plain, every node), `alphabeta` (alpha-beta pruning) or `alphabeta_table` (alpha-beta with a transposition table).",
            ))
            .enum_values(Some(Algorithm::ALL.map(Algorithm::as_str)))
            .into()
    }
}

impl ToSchema for Algorithm {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Algorithm")
    }
}

/// A trace request past the edge: what to trace and how.
#[derive(Clone, Debug)]
pub struct ValidTrace {
    pub(crate) input: TraceInput,
    pub(crate) options: TraceOptions,
}

impl TryFrom<TraceRequest> for ValidTrace {
    type Error = ApiError;

    fn try_from(request: TraceRequest) -> Result<Self, ApiError> {
        let max_listed = match request.max_nodes {
            None => crate::engine::TRACE_DEFAULT_LISTED,
            Some(n @ 1..=10_000) => n as usize,
            Some(n) => {
                return Err(ApiError::invalid(
                    ProblemCode::InvalidRequest,
                    "/max_nodes",
                    format!("max_nodes must be between 1 and {TRACE_MAX_LISTED}, got {n}"),
                ));
            }
        };
        if let Some(d) = request.max_depth.filter(|d| !(1..=400).contains(d)) {
            return Err(ApiError::invalid(
                ProblemCode::InvalidRequest,
                "/max_depth",
                format!("max_depth must be between 1 and 400, got {d}"),
            ));
        }
        let input = input(&request)?;
        let options = TraceOptions {
            algorithm: request.algorithm.unwrap_or_default(),
            ordering: request.ordering.unwrap_or(false),
            scoring: request.scoring.unwrap_or_default(),
            max_depth: request.max_depth,
            max_listed,
            ..TraceOptions::default()
        };
        Ok(Self { input, options })
    }
}

/// What the request traces: its position, or its textbook tree in one of the three forms.
fn input(request: &TraceRequest) -> Result<TraceInput, ApiError> {
    let given: Vec<&str> = [
        ("board", request.board.is_some()),
        ("tree", request.tree.is_some()),
        ("leaves", request.leaves.is_some()),
    ]
    .into_iter()
    .filter_map(|(name, present)| present.then_some(name))
    .collect();
    let invalid = |pointer: &str, detail: String| {
        ApiError::invalid(ProblemCode::InvalidRequest, pointer, detail)
    };
    match given.as_slice() {
        [] => Err(invalid(
            "",
            "give a position (board), a textbook tree (tree), or branching with leaves".to_owned(),
        )),
        ["board"] => {
            if request.branching.is_some() {
                return Err(invalid(
                    "/branching",
                    "branching goes with leaves, not with a board".to_owned(),
                ));
            }
            position(request)
        }
        [_] => {
            let player = request.player.is_some().then_some("player");
            let options = [
                ("ordering", request.ordering.is_some()),
                ("scoring", request.scoring.is_some()),
                ("max_depth", request.max_depth.is_some()),
            ]
            .into_iter()
            .filter_map(|(name, given)| given.then_some(name));
            let geometry = request.geometry_fields().given();
            if let Some(field) = player.into_iter().chain(geometry).chain(options).next() {
                return Err(invalid(
                    &format!("/{field}"),
                    format!("{field} applies to positions, not to textbook trees"),
                ));
            }
            textbook_tree(request).map(TraceInput::Tree)
        }
        many => Err(invalid(
            &format!("/{}", many[1]),
            format!(
                "give one of board, tree or leaves, not {}",
                many.join(" and ")
            ),
        )),
    }
}

fn position(request: &TraceRequest) -> Result<TraceInput, ApiError> {
    if let Some(rule) = request.rule.filter(|rule| *rule != Rule::Freestyle) {
        return Err(ApiError::invalid(
            ProblemCode::InvalidRequest,
            "/rule",
            format!(
                "traces play freestyle rules (k or more in a row wins); the {} rule is for POST /v1/move",
                rule.as_str()
            ),
        ));
    }
    let board = request.board.as_ref().unwrap_or(&Value::Null);
    let (position, _) = request.geometry_fields().position(board, request.player)?;
    Ok(TraceInput::Position(position))
}

fn textbook_tree(request: &TraceRequest) -> Result<Tree, ApiError> {
    let tree_error = |pointer: &str, error: TreeError| {
        let code = match error {
            TreeError::TooManyNodes { .. } | TreeError::TooDeep { .. } => {
                ProblemCode::TraceTooLarge
            }
            _ => ProblemCode::InvalidRequest,
        };
        ApiError::invalid(code, pointer, error.to_string())
    };
    if let Some(leaves) = &request.leaves {
        let branching = request.branching.ok_or_else(|| {
            ApiError::invalid(
                ProblemCode::InvalidRequest,
                "/branching",
                "leaves need a branching factor (branching)",
            )
        })?;
        if leaves.len() > MAX_TREE_NODES {
            return Err(tree_error(
                "/leaves",
                TreeError::TooManyNodes {
                    limit: MAX_TREE_NODES,
                },
            ));
        }
        let branching = usize::try_from(branching).unwrap_or(usize::MAX);
        return Tree::from_leaves(branching, leaves).map_err(|e| {
            let pointer = if matches!(e, TreeError::Branching(_)) {
                "/branching"
            } else {
                "/leaves"
            };
            tree_error(pointer, e)
        });
    }
    if request.branching.is_some() {
        return Err(ApiError::invalid(
            ProblemCode::InvalidRequest,
            "/branching",
            "branching goes with leaves",
        ));
    }
    match request.tree.as_ref() {
        Some(Value::String(text)) => Tree::parse(text).map_err(|e| tree_error("/tree", e)),
        Some(value @ Value::Array(_)) => {
            let mut nodes = 0;
            let tree = nested(value, "/tree".to_owned(), 0, &mut nodes)?;
            tree.checked().map_err(|e| tree_error("/tree", e))
        }
        _ => Err(ApiError::invalid(
            ProblemCode::InvalidRequest,
            "/tree",
            "the tree must be nested arrays of numbers, or parenthesised text",
        )),
    }
}

/// Reads nested arrays into a tree, naming the first bad part by its pointer.
fn nested(
    value: &Value,
    pointer: String,
    depth: usize,
    nodes: &mut usize,
) -> Result<Tree, ApiError> {
    *nodes += 1;
    let too_large = |pointer: &str, error: TreeError| {
        ApiError::invalid(ProblemCode::TraceTooLarge, pointer, error.to_string())
    };
    if *nodes > MAX_TREE_NODES {
        return Err(too_large(
            &pointer,
            TreeError::TooManyNodes {
                limit: MAX_TREE_NODES,
            },
        ));
    }
    if depth > MAX_TREE_DEPTH {
        return Err(too_large(
            &pointer,
            TreeError::TooDeep {
                limit: MAX_TREE_DEPTH,
            },
        ));
    }
    match value {
        Value::Number(n) => n
            .as_f64()
            .filter(|v| v.is_finite())
            .map(Tree::Leaf)
            .ok_or_else(|| {
                ApiError::invalid(
                    ProblemCode::InvalidRequest,
                    &pointer,
                    "a leaf value must be a finite number",
                )
            }),
        Value::Array(children) if children.is_empty() => Err(ApiError::invalid(
            ProblemCode::InvalidRequest,
            &pointer,
            "an inner node needs at least one child: [] is neither a leaf nor a node",
        )),
        Value::Array(children) => children
            .iter()
            .enumerate()
            .map(|(i, child)| nested(child, format!("{pointer}/{i}"), depth + 1, nodes))
            .collect::<Result<Vec<_>, _>>()
            .map(Tree::Node),
        other => Err(ApiError::invalid(
            ProblemCode::InvalidRequest,
            &pointer,
            format!(
                "expected a leaf value (a number) or an array of children, got {}",
                describe(other)
            ),
        )),
    }
}

/// Reads a trace request that is already known to be JSON.
///
/// # Errors
/// A 422 naming the offending field.
pub fn parse_trace(body: Value) -> Result<ValidTrace, ApiError> {
    ValidTrace::try_from(parse_object::<TraceRequest>(body)?)
}
