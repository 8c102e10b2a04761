//! The search tree as a teacher draws it: plain minimax, alpha-beta, or alpha-beta with a
//! transposition table, run on a position or a textbook tree, with every node's α and β on
//! entry, its value, the child that gave it, its cutoff and its table hit, in visiting order.
//!
//! Conventions, the ones textbooks use:
//! - values are from MAX's point of view: MAX is the side to move at the root (or a textbook
//!   tree's root), and the levels alternate MAX, MIN, MAX…;
//! - a node is one call of the search: the root, every inner node, every leaf (the end of a
//!   game, a textbook leaf, or a position at the depth limit), and every position settled by
//!   the table, each counts once. So plain minimax on the empty 3 × 3 board visits the whole
//!   game tree, 549,946 nodes;
//! - alpha-beta is fail-soft (AIMA's): a node returns the best value it saw, which may lie
//!   outside its window; a cutoff is recorded where α ≥ β with children still unsearched, and
//!   names the bound: a MAX node is cut by β, a MIN node by α;
//! - a game that ends scores +10 / −10 / 0 under [`Scoring::Classic`], or `W − d` / `d − W` / 0
//!   under [`Scoring::Depth`], `d` the plies from the root to the end and `W = cells + 1` (the
//!   `10 − depth` of 3 × 3);
//! - at a depth limit a position in play gets the static evaluation: the lines still open to
//!   MAX minus those open to MIN, over one more than the number of lines, strictly between −1
//!   and 1.
//!
//! ```
//! use minimax_move::engine::{Algorithm, Engine, Tree, TraceInput, TraceOptions};
//! let tree = Tree::from_leaves(2, &[-1.0, 4.0, 2.0, 6.0, -3.0, -5.0, 0.0, 7.0]).unwrap();
//! let options = TraceOptions { algorithm: Algorithm::AlphaBeta, ..TraceOptions::default() };
//! let result = Engine::default().trace(&TraceInput::Tree(tree), &options).unwrap();
//! assert_eq!(result.value, 4.0);
//! assert_eq!(result.counts.minimax, Some(15));
//! assert!(result.counts.alphabeta < result.counts.minimax);
//! ```

mod explain;
mod game;
mod search;
mod tree;

use std::time::Instant;

use thiserror::Error;

use crate::engine::analysis::Scoring;

use crate::engine::cancel::Cancel;

use crate::engine::core::pool::Tables;
use crate::engine::game::Position;
#[cfg(feature = "server")]
pub(crate) use explain::{explain, outcome_of};
use game::{GameTree, PositionGame, TreeGame};
use search::Search;
pub use search::TRACE_TABLE_POSITIONS;
pub(crate) use search::TraceTable;
pub use tree::{MAX_TREE_DEPTH, MAX_TREE_NODES, Tree, TreeError};

/// The most nodes one algorithm may visit in a trace (the largest exact count it reports).
pub const TRACE_MAX_WORK: u64 = 2_000_000;

/// The most nodes a trace lists by default.
pub const TRACE_DEFAULT_LISTED: usize = 1_000;

/// The most nodes a trace may list.
pub const TRACE_MAX_LISTED: usize = 10_000;

/// The search algorithm.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Algorithm {
    /// Plain minimax: every node, no bounds.
    #[default]
    Minimax,
    /// Alpha-beta pruning.
    #[cfg_attr(feature = "serde", serde(rename = "alphabeta"))]
    AlphaBeta,
    /// Alpha-beta with a transposition table: a position met again by another order of moves
    /// is settled, or its window narrowed, by what the table holds.
    #[cfg_attr(feature = "serde", serde(rename = "alphabeta_table"))]
    AlphaBetaTable,
}

impl Algorithm {
    /// The three, in the order the counts list them.
    pub const ALL: [Self; 3] = [Self::Minimax, Self::AlphaBeta, Self::AlphaBetaTable];

    /// The name on the wire: `minimax`, `alphabeta` or `alphabeta_table`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Minimax => "minimax",
            Self::AlphaBeta => "alphabeta",
            Self::AlphaBetaTable => "alphabeta_table",
        }
    }
}

/// What a trace starts from.
#[derive(Clone, Debug, PartialEq)]
pub enum TraceInput {
    /// A position in play: MAX is its side to move, a move is a cell. Traced under freestyle
    /// rules (k or more in a row wins), whatever the position's rule.
    Position(Position),
    /// A textbook tree: the root is MAX, a move is a child's index from 0.
    Tree(Tree),
}

/// How to trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceOptions {
    /// The algorithm traced.
    pub algorithm: Algorithm,
    /// Search the moves best first (a win, a block, then the cells on the most open lines)
    /// rather than by index. Positions only.
    pub ordering: bool,
    /// How the ends of games score. Positions only.
    pub scoring: Scoring,
    /// The depth limit: positions this many plies from the root get the static evaluation.
    /// Positions only.
    pub max_depth: Option<u32>,
    /// The most nodes listed: the tree is listed down to the deepest level that keeps within
    /// it (the root at least), and deeper subtrees are summarised by their node counts.
    pub max_listed: usize,
    /// The most nodes one algorithm may visit.
    pub max_work: u64,
    /// When to give up.
    pub deadline: Option<Instant>,
    /// Raised when nobody waits for the trace any more.
    pub cancel: Cancel,
}

impl TraceOptions {
    /// Whether the trace must stop: cancelled, or past the deadline.
    fn stopped(&self) -> bool {
        self.cancel.is_cancelled() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

impl Default for TraceOptions {
    fn default() -> Self {
        Self {
            algorithm: Algorithm::default(),
            ordering: false,
            scoring: Scoring::Depth,
            max_depth: None,
            max_listed: TRACE_DEFAULT_LISTED,
            max_work: TRACE_MAX_WORK,
            deadline: None,
            cancel: Cancel::default(),
        }
    }
}

/// Why a trace has no answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum TraceError {
    /// The traced algorithm needs more nodes than the limit.
    #[error(
        "{} visits more than {limit} nodes here, the most a trace may search; give a smaller board, a depth limit, or another algorithm", algorithm.as_str()
    )]
    TooLarge {
        /// The limit, [`TraceOptions::max_work`].
        limit: u64,
        /// The algorithm that reached it.
        algorithm: Algorithm,
    },
    /// Cancelled, or past the deadline.
    #[error("the trace was stopped before it finished")]
    Stopped,
}

/// Whose turn it is at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The maximising side (the root's).
    Max,
    /// The minimising side.
    Min,
}

/// Why a node has no children.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaf {
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CutoffBound {
    /// At a MIN node: its value fell to α or below, a value MAX already has elsewhere.
    Alpha,
    /// At a MAX node: its value rose to β or above, a value MIN already has elsewhere.
    Beta,
}

/// A cutoff: the bounds when they crossed and the moves left unsearched.
#[derive(Clone, Debug, PartialEq)]
pub struct Cutoff {
    /// Which bound cut.
    pub by: CutoffBound,
    /// α at the cutoff (then α ≥ β).
    pub alpha: f64,
    /// β at the cutoff.
    pub beta: f64,
    /// The moves not searched, in search order.
    pub pruned: Vec<usize>,
}

/// What kind of value the table holds for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableBound {
    /// The exact value.
    Exact,
    /// At least this value (the search that stored it failed high).
    Lower,
    /// At most this value (the search that stored it failed low).
    Upper,
}

/// A position found in the transposition table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TableHit {
    /// What kind of value was stored.
    pub bound: TableBound,
    /// The stored value.
    pub value: f64,
    /// Whether it settled the node (an exact value, or a bound that closed the window), so that
    /// no child was searched.
    pub settled: bool,
}

/// One node as searched.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceNode {
    /// Its place in visiting order, the root 0, counting every node visited (listed or not).
    pub order: u64,
    /// The move that leads here (a cell, or a child's index in a textbook tree); `None` at the
    /// root.
    pub mv: Option<usize>,
    /// Its letter in a textbook tree (A, B, … level by level).
    pub label: Option<String>,
    /// Plies from the root.
    pub depth: u32,
    /// Who moves here.
    pub role: Role,
    /// α on entry (−∞ when nothing bounds it; always so under plain minimax).
    pub alpha: f64,
    /// β on entry (+∞ when nothing bounds it).
    pub beta: f64,
    /// The value it returned.
    pub value: f64,
    /// The move of the child that gave the value.
    pub best: Option<usize>,
    /// Why it has no children, when it is a leaf.
    pub leaf: Option<Leaf>,
    /// Its cutoff, if the bounds crossed with children unsearched.
    pub cutoff: Option<Cutoff>,
    /// The table entry found for it, if any.
    pub table: Option<TableHit>,
    /// Nodes in its subtree as searched, itself included (exact even when summarised).
    pub nodes: u64,
    /// Whether children were searched but are not listed (past the listing's depth).
    pub summarised: bool,
    /// Its children as listed, in visiting order.
    pub children: Vec<TraceNode>,
}

/// The nodes each algorithm visits on the same input with the same options; `None` where it
/// is more than [`TraceOptions::max_work`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TraceCounts {
    /// Plain minimax.
    pub minimax: Option<u64>,
    /// Alpha-beta.
    pub alphabeta: Option<u64>,
    /// Alpha-beta with a transposition table.
    pub alphabeta_table: Option<u64>,
}

impl TraceCounts {
    fn set(&mut self, algorithm: Algorithm, nodes: Option<u64>) {
        match algorithm {
            Algorithm::Minimax => self.minimax = nodes,
            Algorithm::AlphaBeta => self.alphabeta = nodes,
            Algorithm::AlphaBetaTable => self.alphabeta_table = nodes,
        }
    }

    /// The count of one algorithm.
    #[must_use]
    pub const fn get(&self, algorithm: Algorithm) -> Option<u64> {
        match algorithm {
            Algorithm::Minimax => self.minimax,
            Algorithm::AlphaBeta => self.alphabeta,
            Algorithm::AlphaBetaTable => self.alphabeta_table,
        }
    }
}

/// A move at the root and its exact value (searched with the full window, unlike the traced
/// alpha-beta, which may only bound it).
#[derive(Clone, Debug, PartialEq)]
pub struct Alternative {
    /// The move.
    pub mv: usize,
    /// Its letter in a textbook tree.
    pub label: Option<String>,
    /// Its value, from MAX's point of view.
    pub value: f64,
    /// Whether the value rests on the static evaluation at the depth limit.
    pub estimate: bool,
}

/// A traced search.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// The algorithm traced.
    pub algorithm: Algorithm,
    /// The root's value, from MAX's point of view.
    pub value: f64,
    /// The move the root chose (the first of the best value in search order); `None` for a
    /// textbook tree that is a lone leaf.
    pub best: Option<usize>,
    /// The line of best play from the root, as this search found it.
    pub line: Vec<usize>,
    /// The root, its listed subtree inside.
    pub root: TraceNode,
    /// Nodes the traced algorithm visited.
    pub nodes: u64,
    /// Nodes each algorithm visits.
    pub counts: TraceCounts,
    /// Nodes listed under `root`.
    pub listed: usize,
    /// The deepest level listed.
    pub listed_depth: u32,
    /// Whether some subtrees are summarised rather than listed.
    pub summarised: bool,
    /// Cutoffs that pruned at least one child.
    pub cutoffs: u64,
    /// Nodes found in the table.
    pub table_hits: u64,
    /// Whether the value rests on the static evaluation at the depth limit.
    pub estimate: bool,
    /// Every move at the root with its exact value; empty when that search would pass the
    /// work limit.
    pub alternatives: Vec<Alternative>,
}

/// Traces `input` under `options`, with its transposition tables borrowed from `tables` (an
/// engine's, under its memory budget).
///
/// # Errors
/// [`TraceError::TooLarge`] when the traced algorithm visits more than `max_work` nodes (the
/// other algorithms' counts are then left out: `None`), [`TraceError::Stopped`] when cancelled
/// or past the deadline.
pub(crate) fn trace_in(
    tables: &Tables,
    input: &TraceInput,
    options: &TraceOptions,
) -> Result<Trace, TraceError> {
    match input {
        TraceInput::Position(position) => run(
            &PositionGame::new(position.clone(), options.scoring),
            options,
            tables,
        ),
        TraceInput::Tree(tree) => {
            let options = TraceOptions {
                ordering: false,
                max_depth: None,
                ..options.clone()
            };
            run(&TreeGame(tree::FlatTree::new(tree)), &options, tables)
        }
    }
}

fn run<G: GameTree>(
    game: &G,
    options: &TraceOptions,
    tables: &Tables,
) -> Result<Trace, TraceError> {
    let mut counted = Search::new(game, options, options.algorithm, tables);
    counted.run()?;
    let mut counts = TraceCounts::default();
    counts.set(options.algorithm, Some(counted.nodes));
    for other in Algorithm::ALL {
        if other != options.algorithm {
            let mut search = Search::new(game, options, other, tables);
            match search.run() {
                Ok(_) => counts.set(other, Some(search.nodes)),
                Err(TraceError::TooLarge { .. }) => counts.set(other, None),
                Err(stopped) => return Err(stopped),
            }
        }
    }
    let listed_depth = listed_depth(&counted.per_depth, options.max_listed);
    drop(counted);
    let mut listing = Search::new(game, options, options.algorithm, tables).listing(listed_depth);
    let visit = listing.run()?;
    let root = visit.node.ok_or(TraceError::Stopped)?;
    Ok(Trace {
        algorithm: options.algorithm,
        value: visit.value,
        best: root.best,
        line: visit.line,
        nodes: listing.nodes,
        counts,
        listed: listing.listed,
        listed_depth,
        summarised: (listed_depth as usize) + 1 < listing.per_depth.len(),
        cutoffs: listing.cutoffs,
        table_hits: listing.table_hits,
        estimate: listing.horizon,
        alternatives: alternatives(game, options, tables)?,
        root,
    })
}

/// The deepest level such that the nodes down to it number at most `max_listed` (0 at least).
fn listed_depth(per_depth: &[u64], max_listed: usize) -> u32 {
    let mut total = 0;
    let mut depth = 0;
    for (d, &count) in per_depth.iter().enumerate() {
        total += count;
        if total > max_listed as u64 {
            break;
        }
        depth = d as u32;
    }
    depth
}

/// Every root move with its exact value, searched by alpha-beta with a table and the full
/// window, in index order; empty when that passes the work limit.
fn alternatives<G: GameTree>(
    game: &G,
    options: &TraceOptions,
    tables: &Tables,
) -> Result<Vec<Alternative>, TraceError> {
    let root = game.root();
    if game.leaf(&root, 0, options.max_depth == Some(0)).is_some() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for (mv, child) in game.children(&root, false) {
        if options.stopped() {
            return Err(TraceError::Stopped);
        }
        // A search of its own for each move, so that `estimate` says what this move's value
        // rests on.
        let mut search = Search::new(game, options, Algorithm::AlphaBetaTable, tables);
        match search.run_from(&child, 1, mv) {
            Ok(visit) => out.push(Alternative {
                mv,
                label: game.label(&child),
                value: visit.value,
                estimate: search.horizon,
            }),
            Err(TraceError::TooLarge { .. }) => return Ok(Vec::new()),
            Err(stopped) => return Err(stopped),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
