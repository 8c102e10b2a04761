//! When the big-board search stops: a work budget (nodes, VCF nodes included) that makes answers
//! reproducible, and the deadline as the hard stop.

use std::time::Instant;

/// Nodes between two looks at the clock and the budget.
const CHECK_INTERVAL: u64 = 1024;

/// Counts the search's work and says when to stop.
pub struct Budget {
    nodes: u64,
    max_work: Option<u64>,
    deadline: Option<Instant>,
    stopped: bool,
    held: bool,
}

impl Budget {
    /// A budget of `max_work` nodes and a `deadline`, either optional.
    pub fn new(max_work: Option<u64>, deadline: Option<Instant>) -> Self {
        Self {
            nodes: 0,
            max_work,
            deadline,
            stopped: false,
            held: false,
        }
    }

    /// While held, the budget counts but never stops the search: the first iteration always
    /// completes, so there is always an answer.
    pub fn hold(&mut self, held: bool) {
        self.held = held;
    }

    /// Counts `n` nodes; returns whether the search must stop. The budget is looked at only every
    /// [`CHECK_INTERVAL`] nodes, at the same nodes every time, so a search stopped by its budget
    /// stops at the same place on every run.
    pub fn spend(&mut self, n: u64) -> bool {
        let before = self.nodes / CHECK_INTERVAL;
        self.nodes += n;
        if !self.stopped && self.nodes / CHECK_INTERVAL != before {
            self.stopped = self.max_work.is_some_and(|w| self.nodes >= w)
                || self.deadline.is_some_and(|d| Instant::now() >= d);
        }
        self.stopped()
    }

    /// Whether the search must stop (never while held).
    pub fn stopped(&self) -> bool {
        self.stopped && !self.held
    }

    /// Nodes counted so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}
