//! `POST /v1/trace`: the search tree a position or a textbook tree gets under plain minimax,
//! alpha-beta or alpha-beta with a table (see [`crate::engine::trace`] for the conventions).

use std::borrow::Cow;
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::{Serialize, Serializer};
use serde_json::Value;
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, SchemaType, Type};
use utoipa::openapi::{Ref, RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::answer::run_bounded;
use super::extract::JsonBody;
use super::problem::ProblemCode;
use super::wire::{Board, request, shape_error};
use super::{ApiError, AppState};
use crate::engine::trace::{
    Algorithm, Alternative, Cutoff, CutoffBound, Leaf, MAX_LISTED, MAX_TREE_DEPTH, MAX_TREE_NODES,
    Side, TableBound, TableHit, Trace, TraceError, TraceInput, TraceNode, TraceOptions, Tree,
    TreeError, explain, outcome_of,
};
use crate::engine::{OutcomeOrUnknown, Player, Rule, Scoring};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(post_trace))
}

request! {
    /// The body of `POST /v1/trace` and the input of the MCP tool `explain_move`: a position (as
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

/// Writes a value as an integer when it is one (`4`, not `4.0`).
fn number<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    if value.fract() == 0.0 && value.abs() < 9.0e15 {
        serializer.serialize_i64(*value as i64)
    } else {
        serializer.serialize_f64(*value)
    }
}

/// Writes a bound: as [`number`], or null for an infinite one (α = −∞, β = +∞).
fn bound<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    if value.is_finite() {
        number(value, serializer)
    } else {
        serializer.serialize_none()
    }
}

/// Who moves at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum NodeSide {
    /// The maximising side, the root's.
    Max,
    /// The minimising side.
    Min,
}

/// Why a node has no children.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum LeafKind {
    /// The game ended in a win for MAX.
    Win,
    /// The game ended in a win for MIN.
    Loss,
    /// The game ended in a draw.
    Draw,
    /// The depth limit: the static evaluation.
    Horizon,
    /// A textbook leaf with its given value.
    Given,
}

/// The bound that cut a node off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CutBy {
    /// At a MIN node: its value fell to α or below (MAX has as much elsewhere).
    Alpha,
    /// At a MAX node: its value rose to β or above (MIN has as little elsewhere).
    Beta,
}

/// A cutoff: the bounds when they crossed, and the moves left unsearched.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct NodeCutoff {
    /// Which bound cut.
    pub by: CutBy,
    /// α at the cutoff (α ≥ β).
    #[serde(serialize_with = "number")]
    pub alpha: f64,
    /// β at the cutoff.
    #[serde(serialize_with = "number")]
    pub beta: f64,
    /// The moves not searched, in search order.
    pub pruned: Vec<usize>,
}

/// What kind of value the table held.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TableKind {
    /// The exact value.
    Exact,
    /// A lower bound (the search that stored it failed high).
    Lower,
    /// An upper bound (the search that stored it failed low).
    Upper,
}

/// A position found in the transposition table.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct NodeTableHit {
    /// What kind of value was stored.
    pub bound: TableKind,
    /// The stored value.
    #[serde(serialize_with = "number")]
    pub value: f64,
    /// Whether it settled the node (no child searched).
    pub settled: bool,
}

/// One node of the search, its listed children inside, in visiting order.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct TraceNodeBody {
    /// Its place in visiting order: the root 0, counting every node visited, listed or not.
    pub order: u64,
    /// The move that leads here: a cell (row-major from 0), or in a textbook tree the child's
    /// index from 0; null at the root.
    #[serde(rename = "move")]
    #[schema(required = true, minimum = 0)]
    pub mv: Option<usize>,
    /// Its letter in a textbook tree (A, B, … level by level, left to right); null for
    /// positions.
    #[schema(required = true)]
    pub label: Option<String>,
    /// Plies from the root.
    pub depth: u32,
    /// Who moves here.
    pub player: NodeSide,
    /// α on entry; null for −∞ (always so under plain minimax).
    #[serde(serialize_with = "bound")]
    #[schema(value_type = Option<f64>, required = true)]
    pub alpha: f64,
    /// β on entry; null for +∞.
    #[serde(serialize_with = "bound")]
    #[schema(value_type = Option<f64>, required = true)]
    pub beta: f64,
    /// The value it returned, from MAX's point of view. Under alpha-beta (fail-soft) a node
    /// that was cut off, or whose value fell outside its window, returns a bound on its true
    /// value.
    #[serde(serialize_with = "number")]
    pub value: f64,
    /// The move of the child that gave the value; null at a leaf.
    #[schema(required = true, minimum = 0)]
    pub best: Option<usize>,
    /// Why it has no children; null for an inner node.
    #[schema(required = true)]
    pub leaf: Option<LeafKind>,
    /// Its cutoff, if the bounds crossed with children unsearched.
    #[schema(required = true)]
    pub cutoff: Option<NodeCutoff>,
    /// The table entry found for it (alphabeta_table), if any.
    #[schema(required = true)]
    pub table: Option<NodeTableHit>,
    /// Nodes in its subtree as searched, itself included (exact even when summarised).
    pub nodes: u64,
    /// Whether its children were searched but are not listed.
    pub summarised: bool,
    /// Its listed children, in visiting order.
    #[schema(no_recursion)]
    pub children: Vec<TraceNodeBody>,
}

impl From<TraceNode> for TraceNodeBody {
    fn from(node: TraceNode) -> Self {
        Self {
            order: node.order,
            mv: node.mv,
            label: node.label,
            depth: node.depth,
            player: match node.side {
                Side::Max => NodeSide::Max,
                Side::Min => NodeSide::Min,
            },
            alpha: node.alpha,
            beta: node.beta,
            value: node.value,
            best: node.best,
            leaf: node.leaf.map(|leaf| match leaf {
                Leaf::Win => LeafKind::Win,
                Leaf::Loss => LeafKind::Loss,
                Leaf::Draw => LeafKind::Draw,
                Leaf::Horizon => LeafKind::Horizon,
                Leaf::Given => LeafKind::Given,
            }),
            cutoff: node.cutoff.map(cutoff),
            table: node.table.map(table_hit),
            nodes: node.nodes,
            summarised: node.summarised,
            children: node.children.into_iter().map(Self::from).collect(),
        }
    }
}

fn cutoff(cutoff: Cutoff) -> NodeCutoff {
    NodeCutoff {
        by: match cutoff.by {
            CutoffBound::Alpha => CutBy::Alpha,
            CutoffBound::Beta => CutBy::Beta,
        },
        alpha: cutoff.alpha,
        beta: cutoff.beta,
        pruned: cutoff.pruned,
    }
}

fn table_hit(hit: TableHit) -> NodeTableHit {
    NodeTableHit {
        bound: match hit.bound {
            TableBound::Exact => TableKind::Exact,
            TableBound::Lower => TableKind::Lower,
            TableBound::Upper => TableKind::Upper,
        },
        value: hit.value,
        settled: hit.settled,
    }
}

/// The nodes each algorithm visits on the same input with the same options; null where it
/// passes the work limit (`max_work`).
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct TraceCounts {
    /// Plain minimax.
    #[schema(required = true, minimum = 1)]
    pub minimax: Option<u64>,
    /// Alpha-beta.
    #[schema(required = true, minimum = 1)]
    pub alphabeta: Option<u64>,
    /// Alpha-beta with a transposition table.
    #[schema(required = true, minimum = 1)]
    pub alphabeta_table: Option<u64>,
}

/// A move at the root with its exact value (searched with the full window).
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct TraceAlternative {
    /// The move: a cell, or a child's index in a textbook tree.
    #[serde(rename = "move")]
    pub mv: usize,
    /// Its letter in a textbook tree; null for positions.
    #[schema(required = true)]
    pub label: Option<String>,
    /// Its value from MAX's point of view.
    #[serde(serialize_with = "number")]
    pub value: f64,
    /// Positions: what it leads to for MAX with best play (`unknown` when the value rests on
    /// the static evaluation); null for textbook trees.
    #[schema(required = true, value_type = Option<OutcomeOrUnknown>)]
    pub outcome: Option<OutcomeOrUnknown>,
}

/// The answer of `POST /v1/trace`.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct TraceResponse {
    /// The algorithm traced.
    #[schema(value_type = Algorithm)]
    pub algorithm: Algorithm,
    /// The root's value, from MAX's point of view.
    #[serde(serialize_with = "number")]
    pub value: f64,
    /// Positions: what the root's value means for MAX (`unknown` when it rests on the static
    /// evaluation); null for textbook trees.
    #[schema(required = true, value_type = Option<OutcomeOrUnknown>)]
    pub outcome: Option<OutcomeOrUnknown>,
    /// Positions: the side to move at the root, MAX; null for textbook trees.
    #[schema(required = true)]
    pub player: Option<Player>,
    /// The move chosen at the root (the first of the best value in search order); null for a
    /// textbook tree that is a lone leaf.
    #[schema(required = true, minimum = 0)]
    pub best: Option<usize>,
    /// The line of best play from the root as this search found it, moves in order.
    pub line: Vec<usize>,
    /// The root node, its listed subtree inside.
    pub root: TraceNodeBody,
    /// Nodes the traced algorithm visited (the root, inner nodes, leaves and table hits, each
    /// once).
    pub nodes: u64,
    /// Nodes each algorithm visits on the same input.
    pub counts: TraceCounts,
    /// Nodes listed in `root`.
    pub listed: usize,
    /// The deepest level listed (the root is 0).
    pub listed_depth: u32,
    /// Whether some subtrees are summarised (children searched but not listed).
    pub summarised: bool,
    /// Cutoffs that pruned at least one child.
    pub cutoffs: u64,
    /// Nodes found in the transposition table.
    pub table_hits: u64,
    /// Whether the value rests on the static evaluation at the depth limit.
    pub estimate: bool,
    /// Every move at the root with its exact value, in index order (empty when that search
    /// would pass the work limit).
    pub alternatives: Vec<TraceAlternative>,
    /// A few plain sentences: the move chosen, the alternatives, what pruning saved.
    pub explanation: String,
    /// The most nodes one algorithm may visit here.
    pub max_work: u64,
}

impl TraceResponse {
    fn new(input: &TraceInput, trace: Trace, options: &TraceOptions) -> Self {
        let is_position = matches!(input, TraceInput::Position(_));
        let outcome = |value: f64, estimate: bool| {
            is_position.then(|| OutcomeOrUnknown(outcome_of(value, estimate)))
        };
        let explanation = explain(input, &trace, options);
        Self {
            algorithm: trace.algorithm,
            value: trace.value,
            outcome: outcome(trace.value, trace.estimate),
            player: match input {
                TraceInput::Position(p) => Some(p.to_move()),
                TraceInput::Tree(_) => None,
            },
            best: trace.best,
            line: trace.line,
            nodes: trace.nodes,
            counts: TraceCounts {
                minimax: trace.counts.minimax,
                alphabeta: trace.counts.alphabeta,
                alphabeta_table: trace.counts.alphabeta_table,
            },
            listed: trace.listed,
            listed_depth: trace.listed_depth,
            summarised: trace.summarised,
            cutoffs: trace.cutoffs,
            table_hits: trace.table_hits,
            estimate: trace.estimate,
            alternatives: trace
                .alternatives
                .into_iter()
                .map(|a: Alternative| TraceAlternative {
                    outcome: outcome(a.value, a.estimate),
                    mv: a.mv,
                    label: a.label,
                    value: a.value,
                })
                .collect(),
            explanation,
            max_work: options.max_work,
            root: trace.root.into(),
        }
    }
}

/// A trace request past the edge: what to trace and how.
#[derive(Clone, Debug)]
pub struct ValidTrace {
    input: TraceInput,
    options: TraceOptions,
}

impl TryFrom<TraceRequest> for ValidTrace {
    type Error = ApiError;

    fn try_from(request: TraceRequest) -> Result<Self, ApiError> {
        let max_listed = match request.max_nodes {
            None => crate::engine::trace::DEFAULT_LISTED,
            Some(n @ 1..=10_000) => n as usize,
            Some(n) => {
                return Err(ApiError::invalid(
                    ProblemCode::InvalidRequest,
                    "/max_nodes",
                    format!("max_nodes must be between 1 and {MAX_LISTED}, got {n}"),
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
                kind(other)
            ),
        )),
    }
}

/// What kind of JSON value this is, for error messages.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Reads a trace request that is already known to be JSON.
///
/// # Errors
/// A 422 naming the offending field.
pub fn parse_trace(body: Value) -> Result<ValidTrace, ApiError> {
    if !body.is_object() {
        return Err(ApiError::invalid(
            ProblemCode::InvalidRequest,
            "",
            "the body must be a JSON object",
        ));
    }
    let request: TraceRequest =
        serde_path_to_error::deserialize(body).map_err(|e| shape_error(&e))?;
    ValidTrace::try_from(request)
}

/// The search tree of a position or a textbook tree.
///
/// Send a position (`board` and its geometry, as for `POST /v1/move`) or a textbook tree
/// (`tree` as nested arrays or parenthesised text, or `branching` with `leaves`), and the
/// algorithm: `minimax`, `alphabeta` or `alphabeta_table`. The answer is the tree as searched,
/// in visiting order: every node with its move, depth, α and β on entry, value, the child that
/// gave it, its cutoff and table hit; and the node counts of all three algorithms. Values are
/// from MAX's point of view, MAX being the side to move at the root.
#[utoipa::path(post, path = "/v1/trace", tag = "moves",
    request_body(content = TraceRequest, content_type = "application/json",
        examples(
            ("textbook" = (summary = "The textbook tree A…G: minimax gives the root 4; alpha-beta prunes",
                value = json!({"tree": [[[-1, 4], [2, 6]], [[-3, -5], [0, 7]]], "algorithm": "alphabeta"}))),
            ("leaves" = (summary = "The same tree as a branching factor and its leaves",
                value = json!({"branching": 2, "leaves": [-1, 4, 2, 6, -3, -5, 0, 7], "algorithm": "alphabeta"}))),
            ("text" = (summary = "AIMA's tree in parenthesised text: root value 3",
                value = json!({"tree": "((3 12 8)(2 4 6)(14 5 2))", "algorithm": "alphabeta"}))),
            ("position" = (summary = "The freeCodeCamp board under alpha-beta, classic scoring",
                value = json!({"board": ["O", 1, "X", "X", 4, "X", 6, "O", "O"], "algorithm": "alphabeta", "scoring": "classic"}))),
            ("empty board" = (summary = "The empty board: minimax visits 549,946 nodes; the listing stops at 200",
                value = json!({"board": ".........", "algorithm": "alphabeta_table", "ordering": true, "max_nodes": 200}))),
        )),
    responses(
        (status = 200, description = "The tree as searched, the root's value and move, the node counts of each algorithm, the root's alternatives and a few sentences", body = TraceResponse),
        (status = 400, description = "Malformed JSON", body = super::Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over the limit", body = super::Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not sent as uncompressed application/json", body = super::Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid request, board, position or tree; or too large to trace (code trace_too_large, the detail naming the limit: 2,000,000 nodes searched by one algorithm, 4,096 nodes or 24 levels in a textbook tree)", body = super::Problem, content_type = "application/problem+json"),
        (status = 429, description = "Over the per-client rate limit (only when RATE_LIMIT_PER_SECOND is set)", body = super::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait"))),
        (status = 503, description = "Overloaded (code overloaded, with Retry-After), or the trace did not finish within the server's largest time limit (code timeout, without Retry-After)", body = super::Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u32, description = "Seconds to wait; sent with overloaded only"))),
    ))]
async fn post_trace(
    State(state): State<AppState>,
    JsonBody(body): JsonBody,
) -> Result<Response, ApiError> {
    let value: Value =
        serde_json::from_slice(&body).map_err(|e| ApiError::MalformedJson(e.to_string()))?;
    let response = trace_bounded(&state, parse_trace(value)?).await?;
    let mut body = Vec::with_capacity(16 * 1024);
    serde_json::to_writer(&mut body, &response).map_err(|_| ApiError::Internal)?;
    Ok((
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response())
}

/// Traces on the bounded blocking pool under a search slot, stopped at the server's longest
/// time limit or when the caller goes away.
pub(crate) async fn trace_bounded(
    state: &AppState,
    request: ValidTrace,
) -> Result<TraceResponse, ApiError> {
    let millis = state.settings().max_time_limit_ms.max(1);
    let result = run_bounded(
        state,
        Duration::from_millis(millis),
        move |deadline, cancel| {
            let options = TraceOptions {
                deadline: Some(deadline),
                cancel,
                ..request.options
            };
            crate::engine::trace::trace(&request.input, &options)
                .map(|trace| TraceResponse::new(&request.input, trace, &options))
        },
    )
    .await?;
    result.map_err(|error| match error {
        TraceError::TooLarge { .. } => {
            ApiError::invalid(ProblemCode::TraceTooLarge, "", error.to_string())
        }
        TraceError::Stopped => ApiError::Timeout,
    })
}
