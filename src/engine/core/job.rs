//! One analysis to run, as every family's search takes it.

use crate::engine::analysis::Scoring;
use crate::engine::core::pool::Tables;
use crate::engine::game::Position;
use crate::engine::limits::SearchLimits;

/// One analysis to run: the position, how its scores are counted, what bounds the search and
/// the engine's tables to search with. Every family's search takes one.
#[derive(Clone, Copy)]
pub(crate) struct Job<'a> {
    /// The engine's tables.
    pub tables: &'a Tables,
    /// The position to analyse.
    pub position: &'a Position,
    /// How scores are counted.
    pub scoring: Scoring,
    /// What bounds the search.
    pub limits: &'a SearchLimits,
}

impl<'a> Job<'a> {
    /// The tables, the position, the scoring and the limits, in that order.
    pub fn parts(self) -> (&'a Tables, &'a Position, Scoring, &'a SearchLimits) {
        (self.tables, self.position, self.scoring, self.limits)
    }
}
