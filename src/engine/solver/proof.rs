//! Proofs: which results are proven, and the full-depth iteration that proves the root.
//!
//! Every node counts the static evaluations it depends on ([`super::estimates::Estimates`]). A result with none
//! behind it is proven (the table marks such entries valid at any depth); a win or loss found
//! within the iteration's depth is proven as well. Small boards jump from a few shallow
//! iterations straight to the full-depth proof, which first decides win, draw or loss and only
//! then the exact length of a win or a loss.

use super::params::{DRAW_PROOF_MAX_CELLS, DRAW_PROOF_MIN_K};
use super::proof_number::Draw;
use super::root::{RootMove, RootPass, RootResult, RootSearch};
use crate::engine::core::score::{HEURISTIC_MAX, INFINITY};
use crate::engine::core::table::Bound;
use crate::engine::game::Geometry;

/// Whether the search tries to prove a draw with proof-number search after the shallow
/// iterations: for a full-depth search, on boards with `k` at least [`DRAW_PROOF_MIN_K`] and
/// at most [`DRAW_PROOF_MAX_CELLS`] cells.
pub fn draw_proof_applies(geometry: Geometry, full_depth: bool) -> bool {
    full_depth && geometry.k() >= DRAW_PROOF_MIN_K && geometry.cells() <= DRAW_PROOF_MAX_CELLS
}

/// The root results of a proven draw: every move an exact draw, or only the first move in
/// index order to keep it (and its twins); then the moves before it are losses and the moves
/// after it at most a draw, both proven bounds and reported as estimates, like the moves that
/// fail low in [`RootSearch::iterate_best_move`].
pub fn draw_results(root: &[RootMove], draw: &Draw) -> Vec<RootResult> {
    let &Draw::FirstFrom(holding) = draw else {
        return root.iter().map(|_| RootResult::exact(0, true)).collect();
    };
    let best = root
        .iter()
        .find(|m| m.cell == holding)
        .expect("a root move")
        .representative;
    root.iter()
        .map(|m| {
            if m.representative == best {
                RootResult::exact(0, true)
            } else if m.representative > best {
                RootResult {
                    value: 0,
                    bound: Bound::Upper,
                    proven: true,
                }
            } else {
                RootResult {
                    value: -1,
                    bound: Bound::Upper,
                    proven: true,
                }
            }
        })
        .collect()
}

impl RootSearch<'_, '_> {
    /// The full-depth iteration in best-move mode: first only win, draw or loss (the narrow
    /// window `(-1, 1)`, which is all a draw needs), then the exact distance of a win or a loss.
    pub fn prove_best_move(&mut self, previous: &[RootResult], depth: i32) -> RootPass {
        match self.iterate_best_move(previous, depth, -1, 1) {
            RootPass::FailHigh => self.iterate_best_move(previous, depth, 0, INFINITY),
            RootPass::FailLow => self.iterate_best_move(previous, depth, -INFINITY, INFINITY),
            other => other,
        }
    }

    /// The exact value of root move `cell`, searched to `depth`: a draw test first, then a
    /// search for the exact length of a win or a loss.
    pub fn exact_root_value(&mut self, cell: usize, depth: i32) -> (i32, bool) {
        let (value, proven) = self.root_value(cell, depth, -1, 1);
        if self.search.budget.stopped() || value.abs() < 1 {
            (value, proven)
        } else if value >= 1 {
            self.root_value(cell, depth, 0, INFINITY)
        } else {
            self.root_value(cell, depth, -INFINITY, 0)
        }
    }

    /// When time runs out while giving every move of a lost position its value: report what is
    /// not proven as unknown, below the best move.
    pub fn lost_fallback(&self, results: Vec<Option<RootResult>>, best: usize) -> RootPass {
        let results = results
            .into_iter()
            .enumerate()
            .map(|(i, r)| {
                r.map(|r| {
                    if r.is_proven_exact() {
                        r
                    } else {
                        RootResult {
                            value: if i == best {
                                -HEURISTIC_MAX
                            } else {
                                -HEURISTIC_MAX - 1
                            },
                            bound: Bound::Exact,
                            proven: false,
                        }
                    }
                })
            })
            .collect();
        RootPass::Complete {
            results: self.fill_twins(results),
            done: true,
        }
    }
}
