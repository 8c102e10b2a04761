//! The work a search may do: a work budget (nodes plus pairing-search steps) and a deadline,
//! and the counters they are checked against.

use super::super::SearchLimits;
use crate::engine::core::deadline::Deadline;

/// Nodes between two looks at the budget and the clock.
const CHECK_INTERVAL: u64 = 1024;

/// The search's work counters and limits.
pub struct Budget {
    nodes: u64,
    /// Pairing-search steps: work that the node count does not show.
    pairing_steps: u64,
    deadline: Deadline,
    /// The work budget (nodes plus pairing steps), if any.
    max_work: Option<u64>,
    /// Whether nodes check the budget (not in the first iteration, which always completes).
    armed: bool,
    aborted: bool,
}

impl Budget {
    /// The budget of `limits`, with `nodes` already spent.
    pub fn new(limits: &SearchLimits, nodes: u64) -> Self {
        Self {
            nodes,
            pairing_steps: 0,
            deadline: Deadline::of(limits),
            max_work: limits.max_work,
            armed: false,
            aborted: false,
        }
    }

    /// Nodes counted so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Makes the nodes counted from now on check the budget (or not).
    pub fn arm(&mut self, armed: bool) {
        self.armed = armed;
    }

    /// Whether the work budget is spent or the deadline has passed. The work is counted at
    /// deterministic points (every [`CHECK_INTERVAL`] nodes), so a search stopped by its work
    /// budget stops at the same node every time.
    pub fn spent(&self) -> bool {
        self.max_work
            .is_some_and(|w| self.nodes + self.pairing_steps >= w)
            || self.deadline.passed()
    }

    /// Counts a node and says whether the search must stop: the budget ran out now or before.
    pub fn enter_node(&mut self) -> bool {
        self.nodes += 1;
        if self.armed && self.nodes.is_multiple_of(CHECK_INTERVAL) && self.spent() {
            self.aborted = true;
        }
        self.aborted
    }

    /// Counts `steps` pairing-search steps.
    pub fn count_pairing_steps(&mut self, steps: u32) {
        self.pairing_steps += u64::from(steps);
    }

    /// Whether the search was stopped for want of budget.
    pub fn aborted(&self) -> bool {
        self.aborted
    }
}
