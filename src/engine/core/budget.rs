//! When a search stops, for both searches: a work budget (nodes, and work that the node count does
//! not show) that makes answers reproducible, and the deadline (or the caller's cancel) as the
//! hard stop. Both are looked at every [`CHECK_INTERVAL`] nodes, at the same nodes on every run.

use crate::engine::core::deadline::Deadline;

/// Nodes between two looks at the clock and the budget.
const CHECK_INTERVAL: u64 = 1024;

/// A held search still stops at this many times its work budget.
const HELD_WORK_FACTOR: u64 = 8;

/// Counts the search's work and says when to stop.
pub struct Budget {
    nodes: u64,
    /// Work besides nodes (the solver's pairing-search steps).
    extra_work: u64,
    max_work: Option<u64>,
    deadline: Deadline,
    stopped: bool,
    /// The deadline has passed, or the work is [`HELD_WORK_FACTOR`] times the budget: a stop
    /// even while held.
    hard_stop: bool,
    held: bool,
}

impl Budget {
    /// A budget of `max_work` nodes and a `deadline`, either optional.
    pub fn new(max_work: Option<u64>, deadline: Deadline) -> Self {
        Self {
            nodes: 0,
            extra_work: 0,
            max_work,
            deadline,
            stopped: false,
            hard_stop: false,
            held: false,
        }
    }

    /// This budget with `nodes` already counted (without a look at the budget or the clock).
    pub fn counted(mut self, nodes: u64) -> Self {
        self.nodes = nodes;
        self
    }

    /// Counts `work` units of work that are not nodes.
    pub fn count_extra_work(&mut self, work: u64) {
        self.extra_work += work;
    }

    /// Whether the work budget is spent or the deadline has passed, looked at now.
    pub fn spent(&self) -> bool {
        self.max_work
            .is_some_and(|w| self.nodes + self.extra_work >= w)
            || self.deadline.passed()
    }

    /// While held, the work budget counts but does not stop the search, so the first iteration
    /// completes on a reproducible budget. The deadline still stops it: a first iteration that
    /// runs long (chains of forced replies in a crowded position) must not hang the caller
    /// ([`crate::engine::core::deepening`]).
    pub fn hold(&mut self, held: bool) {
        self.held = held;
    }

    /// Counts `n` nodes; returns whether the search must stop. The budget is looked at only every
    /// [`CHECK_INTERVAL`] nodes, at the same nodes every time, so a search stopped by its budget
    /// stops at the same place on every run.
    pub fn spend(&mut self, n: u64) -> bool {
        let first = self.nodes == 0;
        let before = self.nodes / CHECK_INTERVAL;
        self.nodes += n;
        // Also on the first count: a search whose deadline has already passed does not start.
        if !self.hard_stop && (first || self.nodes / CHECK_INTERVAL != before) {
            // Even a held search stops at the deadline, and at many times its work budget (a
            // search without a deadline must end too).
            self.hard_stop = self.deadline.passed()
                || self
                    .max_work
                    .is_some_and(|w| self.nodes >= w.saturating_mul(HELD_WORK_FACTOR));
            self.stopped |= self.hard_stop
                || self
                    .max_work
                    .is_some_and(|w| self.nodes + self.extra_work >= w);
        }
        self.stopped()
    }

    /// Whether the search must stop: at the deadline (or [`HELD_WORK_FACTOR`] times the work
    /// budget) always, on the work budget unless held.
    pub fn stopped(&self) -> bool {
        self.hard_stop || (self.stopped && !self.held)
    }

    /// Nodes counted so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn a_held_budget_ignores_its_work_limit_but_not_the_deadline() {
        let mut budget = Budget::new(Some(2 * CHECK_INTERVAL), Deadline::default());
        budget.hold(true);
        assert!(!budget.spend(4 * CHECK_INTERVAL));
        budget.hold(false);
        assert!(budget.stopped());

        let past = Instant::now().checked_sub(Duration::from_millis(1));
        let mut budget = Budget::new(None, Deadline::at(past));
        budget.hold(true);
        assert!(
            budget.spend(1),
            "a held search stops at a past deadline from its first node"
        );
    }

    #[test]
    fn a_held_budget_stops_at_many_times_its_work() {
        let mut budget = Budget::new(Some(CHECK_INTERVAL), Deadline::default());
        budget.hold(true);
        assert!(!budget.spend(HELD_WORK_FACTOR * CHECK_INTERVAL - 1));
        assert!(budget.spend(1));
    }
}
