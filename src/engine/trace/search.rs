//! The traced search: plain minimax, alpha-beta (fail-soft, as AIMA writes it) and alpha-beta
//! with a transposition table, over any [`GameTree`], recording the nodes down to a depth.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::iter::once;

use crate::engine::core::pool::{Pooled, Renew, Tables};

use super::game::GameTree;
use super::{
    Algorithm, Cutoff, CutoffBound, Leaf, Role, TableBound, TableHit, TraceError, TraceNode,
    TraceOptions,
};

/// Nodes between two looks at the deadline and the cancel handle (and one at each search's
/// first node).
const CHECK_EVERY: u64 = 256;

/// The most positions the transposition table of a traced search holds. Once full it stores no
/// new position (those it holds are still updated), so its memory is fixed, whatever the board.
pub const TRACE_TABLE_POSITIONS: usize = 65_536;

/// The table of one traced search with a table: each position under a 128-bit digest of its
/// key, at most [`TRACE_TABLE_POSITIONS`] of them, borrowed from the engine's [`Tables`] under their
/// budget.
#[derive(Debug, Default)]
pub(crate) struct TraceTable {
    entries: HashMap<u128, Entry>,
}

impl TraceTable {
    /// The positions held.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    fn get(&self, digest: u128) -> Option<&Entry> {
        self.entries.get(&digest)
    }

    /// Stores `entry`, unless the table is full and does not hold the position yet.
    fn store(&mut self, digest: u128, entry: Entry) {
        if self.entries.len() < TRACE_TABLE_POSITIONS || self.entries.contains_key(&digest) {
            self.entries.insert(digest, entry);
        }
    }
}

impl Renew for TraceTable {
    // Made with room for every position it may hold, so it never grows: the buckets a hash map
    // needs for that many (at most twice as many, a power of two), each an entry and its
    // control byte.
    const BYTES: usize = 2 * TRACE_TABLE_POSITIONS * (size_of::<(u128, Entry)>() + 1);

    fn fresh() -> Self {
        Self {
            entries: HashMap::with_capacity(TRACE_TABLE_POSITIONS),
        }
    }

    fn renew(&mut self) {
        if !self.entries.is_empty() {
            self.entries.clear();
        }
    }
}

/// A 128-bit digest of a position's key: two independent 64-bit hashes.
fn digest<K: Hash>(key: &K) -> u128 {
    let half = |salt: u8| {
        let mut hasher = std::hash::DefaultHasher::new();
        salt.hash(&mut hasher);
        key.hash(&mut hasher);
        hasher.finish()
    };
    (u128::from(half(0)) << 64) | u128::from(half(1))
}

/// What one stored position says: its value, what kind of bound that is, and the move that
/// gave it.
#[derive(Clone, Copy, Debug)]
struct Entry {
    value: f64,
    bound: TableBound,
    best: Option<usize>,
}

/// One node's result: its value, its record when listed, and the line of best play from it
/// (only when the search keeps lines).
pub(super) struct Visit {
    pub value: f64,
    pub node: Option<TraceNode>,
    pub line: Vec<usize>,
}

/// What the children of an inner node gave: its value, the move that gave it, and the line.
struct Searched {
    value: f64,
    best: Option<usize>,
    line: Vec<usize>,
}

/// One run of one algorithm over a game.
pub(super) struct Search<'a, G: GameTree> {
    game: &'a G,
    options: &'a TraceOptions,
    algorithm: Algorithm,
    /// Nodes at this depth or shallower are listed; `None` lists none.
    list_to: Option<u32>,
    keep_lines: bool,
    /// The transposition table, for alpha-beta with a table only.
    table: Option<Pooled<TraceTable>>,
    /// Nodes visited so far, the root included.
    pub nodes: u64,
    /// Nodes visited at each depth.
    pub per_depth: Vec<u64>,
    /// Cutoffs that pruned at least one child.
    pub cutoffs: u64,
    /// Nodes whose position was found in the table.
    pub table_hits: u64,
    /// Whether a static evaluation at the depth limit was used.
    pub horizon: bool,
    /// Nodes listed.
    pub listed: usize,
}

impl<G: GameTree> Search<'_, G> {
    /// The positions its table holds (0 without a table).
    #[cfg(test)]
    pub fn table_len(&self) -> usize {
        self.table.as_ref().map_or(0, |table| table.len())
    }
}

impl<'a, G: GameTree> Search<'a, G> {
    pub fn new(
        game: &'a G,
        options: &'a TraceOptions,
        algorithm: Algorithm,
        tables: &Tables,
    ) -> Self {
        Self {
            game,
            options,
            algorithm,
            list_to: None,
            keep_lines: false,
            table: (algorithm == Algorithm::AlphaBetaTable).then(|| tables.borrow()),
            nodes: 0,
            per_depth: Vec::new(),
            cutoffs: 0,
            table_hits: 0,
            horizon: false,
            listed: 0,
        }
    }

    /// Lists the nodes down to `depth` and keeps the line of best play.
    pub fn listing(mut self, depth: u32) -> Self {
        self.list_to = Some(depth);
        self.keep_lines = true;
        self
    }

    /// Searches from the root with the full window.
    pub fn run(&mut self) -> Result<Visit, TraceError> {
        let root = self.game.root();
        self.visit(&root, 0, f64::NEG_INFINITY, f64::INFINITY, None)
    }

    /// Searches `state` at `depth` with the full window (the alternatives at the root).
    pub fn run_from(
        &mut self,
        state: &G::State,
        depth: u32,
        mv: usize,
    ) -> Result<Visit, TraceError> {
        self.visit(state, depth, f64::NEG_INFINITY, f64::INFINITY, Some(mv))
    }

    /// TraceCounts a node, and stops the search past the work limit, at the deadline or when
    /// cancelled.
    fn enter(&mut self, depth: u32) -> Result<(), TraceError> {
        self.nodes += 1;
        let depth = depth as usize;
        if self.per_depth.len() <= depth {
            self.per_depth.resize(depth + 1, 0);
        }
        self.per_depth[depth] += 1;
        if self.nodes > self.options.max_work {
            return Err(TraceError::TooLarge {
                limit: self.options.max_work,
                algorithm: self.algorithm,
            });
        }
        // At a search's first node too: the alternatives run one short search a root move.
        if (self.nodes == 1 || self.nodes.is_multiple_of(CHECK_EVERY)) && self.options.stopped() {
            return Err(TraceError::Stopped);
        }
        Ok(())
    }

    /// The record of a node about to be searched, when it is listed.
    fn listed_node(
        &mut self,
        state: &G::State,
        order: u64,
        (depth, alpha, beta, mv): (u32, f64, f64, Option<usize>),
    ) -> Option<TraceNode> {
        if self.list_to.is_none_or(|d| depth > d) {
            return None;
        }
        self.listed += 1;
        Some(TraceNode {
            order,
            mv,
            label: self.game.label(state),
            depth,
            role: if self.game.is_max(state) {
                Role::Max
            } else {
                Role::Min
            },
            alpha,
            beta,
            value: 0.0,
            best: None,
            leaf: None,
            cutoff: None,
            table: None,
            nodes: 1,
            summarised: false,
            children: Vec::new(),
        })
    }

    /// Looks the node up in the table: narrows the window by a stored bound, and gives the
    /// stored value when it settles the node.
    fn probe(
        &mut self,
        key: Option<u128>,
        window: &mut (f64, f64),
        node: &mut Option<TraceNode>,
    ) -> Option<Entry> {
        let entry = key.and_then(|k| self.table.as_ref()?.get(k)).copied()?;
        self.table_hits += 1;
        match entry.bound {
            TableBound::Exact => {}
            TableBound::Lower => window.0 = window.0.max(entry.value),
            TableBound::Upper => window.1 = window.1.min(entry.value),
        }
        let settled = entry.bound == TableBound::Exact || window.0 >= window.1;
        if let Some(node) = node {
            node.table = Some(TableHit {
                bound: entry.bound,
                value: entry.value,
                settled,
            });
            if settled {
                node.value = entry.value;
                node.best = entry.best;
            }
        }
        settled.then_some(entry)
    }

    fn visit(
        &mut self,
        state: &G::State,
        depth: u32,
        alpha: f64,
        beta: f64,
        mv: Option<usize>,
    ) -> Result<Visit, TraceError> {
        self.enter(depth)?;
        let order = self.nodes - 1;
        let mut node = self.listed_node(state, order, (depth, alpha, beta, mv));
        let horizon = self.options.max_depth == Some(depth);
        if let Some((value, leaf)) = self.game.leaf(state, depth, horizon) {
            self.horizon |= leaf == Leaf::Horizon;
            if let Some(node) = &mut node {
                node.value = value;
                node.leaf = Some(leaf);
            }
            return Ok(Visit {
                value,
                node,
                line: Vec::new(),
            });
        }
        let key = self
            .table
            .is_some()
            .then(|| self.game.key(state).map(|key| digest(&key)))
            .flatten();
        let mut window = (alpha, beta);
        if let Some(entry) = self.probe(key, &mut window, &mut node) {
            return Ok(Visit {
                value: entry.value,
                node,
                line: entry.best.into_iter().collect(),
            });
        }
        let searched = self.children(state, depth, window, &mut node)?;
        if let Some(key) = key {
            let bound = if searched.value <= window.0 {
                TableBound::Upper
            } else if searched.value >= window.1 {
                TableBound::Lower
            } else {
                TableBound::Exact
            };
            let entry = Entry {
                value: searched.value,
                bound,
                best: searched.best,
            };
            if let Some(table) = &mut self.table {
                table.store(key, entry);
            }
        }
        if let Some(node) = &mut node {
            node.value = searched.value;
            node.best = searched.best;
            node.nodes = self.nodes - order;
        }
        Ok(Visit {
            value: searched.value,
            node,
            line: searched.line,
        })
    }

    /// Searches the children of an inner node within `window`, recording them and the cutoff
    /// in `node` when it is listed.
    fn children(
        &mut self,
        state: &G::State,
        depth: u32,
        (mut alpha, mut beta): (f64, f64),
        node: &mut Option<TraceNode>,
    ) -> Result<Searched, TraceError> {
        let is_max = self.game.is_max(state);
        let children = self.game.children(state, self.options.ordering);
        let prunes = self.algorithm != Algorithm::Minimax;
        let mut best = Searched {
            value: if is_max {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            },
            best: None,
            line: Vec::new(),
        };
        for (i, (m, child)) in children.iter().enumerate() {
            let (a, b) = if prunes {
                (alpha, beta)
            } else {
                (f64::NEG_INFINITY, f64::INFINITY)
            };
            let visit = self.visit(child, depth + 1, a, b, Some(*m))?;
            if let Some(node) = node {
                match visit.node {
                    Some(child) => node.children.push(child),
                    None => node.summarised = true,
                }
            }
            if (is_max && visit.value > best.value) || (!is_max && visit.value < best.value) {
                best.value = visit.value;
                best.best = Some(*m);
                if self.keep_lines {
                    best.line = once(*m).chain(visit.line).collect();
                }
            }
            if !prunes {
                continue;
            }
            if is_max {
                alpha = alpha.max(best.value);
            } else {
                beta = beta.min(best.value);
            }
            if alpha >= beta && i + 1 < children.len() {
                self.cutoffs += 1;
                if let Some(node) = node {
                    node.cutoff = Some(Cutoff {
                        by: if is_max {
                            CutoffBound::Beta
                        } else {
                            CutoffBound::Alpha
                        },
                        alpha,
                        beta,
                        pruned: children[i + 1..].iter().map(|(m, _)| *m).collect(),
                    });
                }
                break;
            }
        }
        if children.is_empty() {
            // Never reached: a position in play has a move and an inner textbook node a child.
            best.value = 0.0;
        }
        Ok(best)
    }
}
