//! Iterative deepening, for both depth-limited searches: iterations at growing depth until one
//! says the answer cannot change, the last depth is done, or the budget is spent. The searches
//! bring their iterations ([`Deepening`]); the loop and its first-iteration policy live here
//! once.
//!
//! The first iteration is the answer of last resort, so the work budget does not stop it (it is
//! *held*, [`Budget::hold`]); the deadline, the caller's cancel or many times the work budget
//! still do, so a crowded first iteration never hangs its caller. A search stopped there answers
//! from the moves' one-ply evaluations instead ([`Deepening::iterate`] at depth 1).

use super::budget::Budget;

/// How an iteration ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// Every root move has its value at this depth; `done` when no deeper iteration can change
    /// the answer (a proven result).
    Complete { done: bool },
    /// The whole game tree is proven: every depth up to the last is as good as done.
    Solved,
    /// The budget stopped the iteration before every move had its value at this depth.
    Stopped,
}

/// A search that deepens: its budget and one iteration at a given depth.
pub trait Deepening {
    /// The budget its iterations spend.
    fn budget(&mut self) -> &mut Budget;

    /// Searches every root move at `depth`, keeping what it learns. At depth 1 a stopped
    /// iteration must still leave an answer: the moves' one-ply evaluations.
    fn iterate(&mut self, depth: i32) -> Pass;

    /// The depth to search after `depth` (the next one, unless the search jumps ahead).
    fn next_depth(&self, depth: i32) -> i32 {
        depth + 1
    }
}

/// Runs `search`'s iterations from depth 1 to `last`: the last depth completed, 0 when even
/// the first was stopped.
pub fn deepen(search: &mut impl Deepening, last: i32) -> i32 {
    let mut completed = 0;
    let mut depth = 1;
    while depth <= last {
        if depth > 1 && search.budget().spent() {
            break;
        }
        search.budget().hold(depth == 1);
        match search.iterate(depth) {
            Pass::Complete { done } => {
                completed = depth;
                if done {
                    break;
                }
            }
            Pass::Solved => {
                completed = last;
                break;
            }
            Pass::Stopped => break,
        }
        depth = search.next_depth(depth);
    }
    search.budget().hold(false);
    completed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::core::deadline::Deadline;

    /// Iterations that each spend `cost` nodes and finish at `done_at`.
    struct Counted {
        budget: Budget,
        cost: u64,
        done_at: i32,
        depths: Vec<i32>,
    }

    impl Deepening for Counted {
        fn budget(&mut self) -> &mut Budget {
            &mut self.budget
        }

        fn iterate(&mut self, depth: i32) -> Pass {
            self.depths.push(depth);
            if self.budget.spend(self.cost) {
                return Pass::Stopped;
            }
            Pass::Complete {
                done: depth == self.done_at,
            }
        }
    }

    fn counted(max_work: u64, cost: u64, done_at: i32) -> Counted {
        Counted {
            budget: Budget::new(Some(max_work), Deadline::default()),
            cost,
            done_at,
            depths: Vec::new(),
        }
    }

    #[test]
    fn deepening_stops_when_an_iteration_is_done_or_the_last_depth_is() {
        let mut search = counted(1 << 30, 10, 3);
        assert_eq!(deepen(&mut search, 10), 3);
        assert_eq!(search.depths, [1, 2, 3]);
        let mut search = counted(1 << 30, 10, 99);
        assert_eq!(deepen(&mut search, 4), 4);
    }

    #[test]
    fn the_work_budget_does_not_stop_the_first_iteration_but_stops_the_next() {
        // The first iteration costs three budgets: held, it completes; the second does not start.
        let mut search = counted(2_048, 6_144, 99);
        assert_eq!(deepen(&mut search, 10), 1);
        assert_eq!(search.depths, [1]);
    }

    #[test]
    fn a_past_deadline_stops_even_the_first_iteration() {
        let past = std::time::Instant::now().checked_sub(std::time::Duration::from_millis(1));
        let mut search = counted(1 << 30, 1, 99);
        search.budget = Budget::new(None, Deadline::at(past));
        assert_eq!(deepen(&mut search, 10), 0);
    }
}
