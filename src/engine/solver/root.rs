//! The root: its moves (twins under symmetry searched once), what the search knows about each,
//! and one iteration over them at a given depth.

use super::eval;
use super::negamax::Negamax;
use crate::engine::analysis::Evaluation;
use crate::engine::core::score::{
    HEURISTIC_MAX, INFINITY, MATE_BOUND, WIN, depth_score, estimate, plies_of,
};
use crate::engine::core::table::Bound;

/// A legal move at the root.
pub struct RootMove {
    pub cell: usize,
    /// Position in the root list of the first move leading to the same position up to symmetry
    /// (the move itself when it is the first); only representatives are searched.
    pub representative: usize,
    /// Static ordering priority.
    pub priority: i32,
    /// Whether the move leaves the opponent a win by continuous fours: such moves are not
    /// searched while another move is left, and score below every searched move.
    pub refuted: bool,
}

/// What the search knows about one root move.
#[derive(Clone, Copy, Debug)]
pub struct RootResult {
    pub value: i32,
    /// `Exact` or `Upper` (a move that failed low against a better one).
    pub bound: Bound,
    /// Whether the value (or bound) holds whatever lies beyond the horizon.
    pub proven: bool,
}

impl RootResult {
    /// A move that leaves the opponent a VCF: below every estimate, not proven (the opponent's
    /// fastest win was not searched for).
    const REFUTED: Self = Self {
        value: -HEURISTIC_MAX - 1,
        bound: Bound::Upper,
        proven: false,
    };

    /// An exact value, proven or not.
    pub fn exact(value: i32, proven: bool) -> Self {
        Self {
            value,
            bound: Bound::Exact,
            proven,
        }
    }

    /// Whether the result is the move's proven, exact value.
    pub fn is_proven_exact(self) -> bool {
        self.proven && self.bound == Bound::Exact
    }

    /// The result as the API reports it.
    pub fn evaluation(self, max_score: i32) -> Evaluation {
        if self.is_proven_exact() {
            Evaluation::Exact(depth_score(self.value, max_score))
        } else {
            Evaluation::Heuristic(estimate(self.value, eval::SCALE))
        }
    }
}

/// The outcome of one iteration over the root moves.
pub enum RootPass {
    /// Every move has a result at this depth; `done` when deeper iterations cannot change them.
    Complete {
        results: Vec<RootResult>,
        done: bool,
    },
    /// Time ran out; proven results found in the partial iteration, per root move.
    Aborted { proven: Vec<Option<RootResult>> },
    /// A move scored at least the root window's upper end.
    FailHigh,
    /// Every move scored at most the root window's lower end.
    FailLow,
}

/// The root moves and the search that gives them values.
pub struct RootSearch<'s, 't> {
    pub search: &'s mut Negamax<'t>,
    pub moves: &'s [RootMove],
}

impl RootSearch<'_, '_> {
    /// The value of root move `cell` searched to `depth` plies (the move included) with the
    /// window `(alpha, beta)`, and whether it is proven.
    pub fn root_value(&mut self, cell: usize, depth: i32, alpha: i32, beta: i32) -> (i32, bool) {
        let side = self.search.root_side();
        if self.search.board.wins_at(cell, side) {
            return (WIN - 1, true);
        }
        let before = self.search.estimates.mark();
        let value = self
            .search
            .child_value(cell, side, depth - 1, 0, alpha, beta);
        let proven = self.search.estimates.none_since(before)
            || (value.abs() > MATE_BOUND && plies_of(value) <= depth);
        (value, proven)
    }

    /// Each root move's one-ply value, without the budget: a win at once proven, else the static
    /// evaluation after it (the answer when the deadline stops the first iteration).
    pub fn one_ply(&mut self) -> Vec<RootResult> {
        let side = self.search.root_side();
        let board = &mut self.search.board;
        self.moves
            .iter()
            .map(|m| {
                if m.refuted {
                    RootResult::REFUTED
                } else if board.wins_at(m.cell, side) {
                    RootResult::exact(WIN - 1, true)
                } else {
                    board.play(m.cell, side);
                    let value = -eval::evaluate(board, side.opponent());
                    board.undo(m.cell, side);
                    RootResult::exact(value, false)
                }
            })
            .collect()
    }

    /// Every representative root move searched with a full window, so each gets its own value.
    pub fn iterate_all_moves(
        &mut self,
        previous: &[RootResult],
        depth: i32,
        full_depth: bool,
    ) -> RootPass {
        let root = self.moves;
        let mut results: Vec<Option<RootResult>> = root.iter().map(|_| None).collect();
        for (i, m) in root.iter().enumerate() {
            if m.representative != i {
                continue;
            }
            if m.refuted {
                results[i] = Some(RootResult::REFUTED);
                continue;
            }
            if let Some(p) = previous.get(i).filter(|p| p.is_proven_exact()) {
                results[i] = Some(*p);
                continue;
            }
            let (value, proven) = if full_depth {
                self.exact_root_value(m.cell, depth)
            } else {
                self.root_value(m.cell, depth, -INFINITY, INFINITY)
            };
            if self.search.budget.stopped() {
                return RootPass::Aborted {
                    proven: results
                        .into_iter()
                        .map(|r| r.filter(|r| r.proven))
                        .collect(),
                };
            }
            results[i] = Some(RootResult::exact(value, proven));
        }
        let results: Vec<RootResult> = self.fill_twins(results);
        let done = results.iter().all(|r| r.proven);
        RootPass::Complete { results, done }
    }

    /// Alpha-beta over the root moves: the best move gets its exact value, the others a bound.
    pub fn iterate_best_move(
        &mut self,
        previous: &[RootResult],
        depth: i32,
        low: i32,
        high: i32,
    ) -> RootPass {
        let root = self.moves;
        let mut results: Vec<Option<RootResult>> = root
            .iter()
            .map(|m| m.refuted.then_some(RootResult::REFUTED))
            .collect();
        let mut order: Vec<usize> = (0..root.len())
            .filter(|&i| root[i].representative == i && !root[i].refuted)
            .collect();
        if previous.is_empty() {
            order.sort_by_key(|&i| (std::cmp::Reverse(root[i].priority), i));
        } else {
            order.sort_by_key(|&i| (std::cmp::Reverse(previous[i].value), i));
        }
        let estimates_before = self.search.estimates.mark();
        let mut best: Option<usize> = None;
        let mut alpha = low;
        for &i in &order {
            // A move before the best in index order takes over on a tie, so it must be searched
            // with a window that can show a tie.
            let window = match best {
                None => low,
                Some(b) if i < b => alpha - 1,
                Some(_) => alpha,
            };
            let (value, proven) = self.root_value(root[i].cell, depth, window, high);
            if self.search.budget.stopped() {
                return RootPass::Aborted {
                    proven: root.iter().map(|_| None).collect(),
                };
            }
            if value >= high {
                return RootPass::FailHigh;
            }
            if value > window {
                results[i] = Some(RootResult::exact(value, proven));
                best = Some(i);
                alpha = value;
            } else {
                results[i] = Some(RootResult {
                    value,
                    bound: Bound::Upper,
                    proven,
                });
            }
        }
        let Some(best) = best else {
            return RootPass::FailLow;
        };
        let best_value = alpha;
        let all_proven = self.search.estimates.none_since(estimates_before);
        let decisive = best_value.abs() > MATE_BOUND && plies_of(best_value) <= depth;
        let mut done = all_proven || decisive;
        if done && best_value < -MATE_BOUND {
            // Every move loses; a bound cannot be shown below an exact loss, so give each its
            // exact (proven) value.
            for &i in &order {
                let result = results[i].expect("searched");
                if i == best || result.bound == Bound::Exact {
                    continue;
                }
                let (value, proven) = self.exact_root_value(root[i].cell, depth);
                if self.search.budget.stopped() {
                    return self.lost_fallback(results, best);
                }
                results[i] = Some(RootResult::exact(value, proven));
                done &= proven;
            }
        }
        RootPass::Complete {
            results: self.fill_twins(results),
            done,
        }
    }

    /// Copies each representative's result to its twins.
    pub fn fill_twins(&self, results: Vec<Option<RootResult>>) -> Vec<RootResult> {
        self.moves
            .iter()
            .map(|m| results[m.representative].expect("every representative is searched"))
            .collect()
    }
}
