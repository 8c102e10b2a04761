//! The answer of `POST /v1/trace`: the search tree as searched, with its counts and sentences.

use serde::{Serialize, Serializer};
use utoipa::ToSchema;

use crate::engine::{
    Algorithm, Alternative, Cutoff, CutoffBound, Leaf, Role, TableBound, TableHit, Trace,
    TraceInput, TraceNode, TraceOptions, explain_trace, outcome_of,
};
use crate::engine::{OutcomeOrUnknown, Player};

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
            player: match node.role {
                Role::Max => NodeSide::Max,
                Role::Min => NodeSide::Min,
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
    /// The wire form of a trace.
    #[must_use]
    pub fn new(input: &TraceInput, trace: Trace, options: &TraceOptions) -> Self {
        let is_position = matches!(input, TraceInput::Position(_));
        let outcome = |value: f64, estimate: bool| {
            is_position.then(|| OutcomeOrUnknown(outcome_of(value, estimate)))
        };
        let explanation = explain_trace(input, &trace, options);
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
