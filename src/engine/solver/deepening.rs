//! Iterative deepening: the position to analyse, its root moves, and the iterations at growing
//! depth until the root is proven, the depth limit is reached or the budget runs out; the answer
//! is the last completed iteration (or the one-ply values, when the deadline stops the first).

use super::board::ThreatGrid;
use super::eval;
use super::grid::Grid;
use super::negamax::Negamax;
use super::params::{PROOF_JUMP_EMPTIES, SHALLOW_DEPTH};
use super::proof::{draw_proof_applies, draw_results};
use super::proof_number::prove_draw;
use super::pv::principal_variation;
use super::root::{RootMove, RootPass, RootResult, RootSearch};
use crate::engine::analysis::{Analysis, MoveScore, Scoring};
use crate::engine::core::budget::Budget;
use crate::engine::core::deadline::Deadline;
use crate::engine::core::deepening::{self, Deepening, Pass};
use crate::engine::core::score::INFINITY;
use crate::engine::core::table::Table;
use crate::engine::game::Player;
use crate::engine::game::{Geometry, Position};
use crate::engine::limits::SearchLimits;
use crate::engine::progress::Iteration;

/// The position being analysed and its table, before the search proper (the threat search at
/// the root works on it; `nodes` the nodes it spent).
pub struct Solver<'t> {
    pub board: ThreatGrid,
    pub table: &'t mut Table,
    pub root_side: Player,
    pub nodes: u64,
}

impl<'t> Solver<'t> {
    /// The analysis of `position`, with `table` for its transpositions.
    pub fn new(position: &Position, table: &'t mut Table) -> Self {
        Self {
            board: ThreatGrid::from(Grid::new(position.geometry(), position.cells())),
            table,
            root_side: position.to_move(),
            nodes: 0,
        }
    }

    /// Static evaluation for `side` to move.
    pub fn evaluate(&self, side: Player) -> i32 {
        eval::evaluate(&self.board, side)
    }

    /// The legal moves at the root, ascending, with twins under symmetry pointing to the first
    /// (black's forbidden cells under renju are no moves).
    pub fn root_moves(&mut self) -> Vec<RootMove> {
        let side = self.root_side;
        let grid = &mut self.board.grid;
        let mut moves: Vec<RootMove> = Vec::new();
        let mut seen: Vec<(u64, usize)> = Vec::new();
        for cell in 0..grid.cell_count() {
            if !grid.is_empty(cell) || !grid.may_play(cell, side) {
                continue;
            }
            let priority = grid.move_priority(cell, side);
            grid.play(cell, side);
            let (key, _) = grid.canonical_key();
            grid.undo(cell, side);
            let position = moves.len();
            let representative = match seen.iter().find(|(k, _)| *k == key) {
                Some(&(_, first)) => first,
                None => {
                    seen.push((key, position));
                    position
                }
            };
            moves.push(RootMove {
                cell,
                representative,
                priority,
                refuted: false,
            });
        }
        moves
    }

    /// Searches `root` (this position's root moves) deeper and deeper within `limits`.
    pub fn deepen(
        self,
        position: &Position,
        scoring: Scoring,
        limits: &SearchLimits,
        root: &[RootMove],
    ) -> Analysis {
        let geometry = position.geometry();
        let budget = Budget::new(limits.max_work, Deadline::of(limits)).counted(self.nodes);
        let mut search = Negamax::new(
            geometry,
            self.board.grid,
            self.table,
            self.root_side,
            budget,
        );
        let (results, completed) = iterate(&mut search, geometry, limits, root);
        let empty_before = position.empty_count();
        let moves: Vec<MoveScore> = root
            .iter()
            .map(|m| {
                let result = results[m.representative];
                MoveScore::new(
                    m.cell,
                    result.evaluation(geometry.max_score()),
                    scoring,
                    geometry,
                    empty_before,
                )
            })
            .collect();
        let mut analysis =
            Analysis::from_moves(moves, search.budget.nodes(), Some(completed.max(1) as u32));
        let best = root
            .iter()
            .find(|m| m.cell == analysis.best)
            .expect("the best move is a root move");
        analysis.pv = principal_variation(
            &mut search,
            best.cell,
            results[best.representative],
            completed,
        );
        analysis
    }
}

/// The iterations at growing depth over `root`, run by the one driver ([`deepening::deepen`]):
/// the results of the last one completed (or the proven part of a stopped one, over the one-ply
/// values when the first was stopped) and its depth.
fn iterate(
    search: &mut Negamax<'_>,
    geometry: Geometry,
    limits: &SearchLimits,
    root: &[RootMove],
) -> (Vec<RootResult>, i32) {
    let empties = search.board.empties() as i32;
    let last_depth = limits
        .max_depth
        .map_or(empties, |d| d.clamp(1, empties as u32) as i32);
    let mut iterations = Iterations {
        // Small boards jump from a shallow iteration straight to the full-depth proof: the
        // heuristic iterations in between cost more than they save there.
        jump_to_proof: empties <= PROOF_JUMP_EMPTIES && last_depth == empties,
        // Where proof-number search proves draws faster than alpha-beta, it runs after the
        // shallow iterations (the fallback answer).
        draw_proof: draw_proof_applies(geometry, last_depth == empties),
        root: RootSearch {
            search,
            moves: root,
        },
        geometry,
        limits,
        results: Vec::new(),
        empties,
        last_depth,
    };
    let completed = deepening::deepen(&mut iterations, last_depth);
    (iterations.results, completed)
}

/// The solver's iterations: the root search, the results of the last iteration, and the
/// depth policy (a jump to the full-depth proof on small boards, a draw proof after the shallow
/// iterations where it applies).
struct Iterations<'s, 't> {
    root: RootSearch<'s, 't>,
    geometry: Geometry,
    limits: &'s SearchLimits,
    results: Vec<RootResult>,
    empties: i32,
    last_depth: i32,
    jump_to_proof: bool,
    draw_proof: bool,
}

impl Deepening for Iterations<'_, '_> {
    fn budget(&mut self) -> &mut Budget {
        &mut self.root.search.budget
    }

    fn next_depth(&self, depth: i32) -> i32 {
        if self.jump_to_proof && depth + 1 > SHALLOW_DEPTH {
            self.last_depth.max(depth + 1)
        } else {
            depth + 1
        }
    }

    fn iterate(&mut self, depth: i32) -> Pass {
        let root = self.root.moves;
        if self.draw_proof && depth > SHALLOW_DEPTH {
            self.draw_proof = false;
            let every_move = self.limits.every_move();
            if let Some(draw) = prove_draw(self.root.search, self.geometry, root, every_move) {
                self.results = draw_results(root, &draw);
                return Pass::Solved;
            }
            if self.root.search.budget.stopped() {
                return Pass::Stopped;
            }
        }
        let full_depth = depth == self.empties;
        let pass = if self.limits.every_move() {
            self.root
                .iterate_all_moves(&self.results, depth, full_depth)
        } else if full_depth {
            self.root.prove_best_move(&self.results, depth)
        } else {
            self.root
                .iterate_best_move(&self.results, depth, -INFINITY, INFINITY)
        };
        match pass {
            RootPass::Complete { results, done } => {
                self.results = results;
                report_progress(
                    self.limits,
                    self.root.search,
                    self.geometry,
                    root,
                    &self.results,
                    depth,
                );
                Pass::Complete { done }
            }
            RootPass::Aborted { proven } => {
                if self.results.is_empty() {
                    // The deadline stopped the first iteration: the one-ply values answer.
                    self.results = self.root.one_ply();
                }
                for (result, found) in self.results.iter_mut().zip(proven) {
                    if let Some(found) = found {
                        *result = found;
                    }
                }
                Pass::Stopped
            }
            RootPass::FailHigh | RootPass::FailLow => {
                unreachable!("a full window cannot fail")
            }
        }
    }
}

/// Tells `limits.progress`, if set, what the iteration at `depth` found: its best move (the
/// highest value, exact before bounds, then the lowest cell) and that move's value.
fn report_progress(
    limits: &SearchLimits,
    search: &Negamax<'_>,
    geometry: Geometry,
    root: &[RootMove],
    results: &[RootResult],
    depth: i32,
) {
    limits.progress.report(|| {
        let best = root
            .iter()
            .max_by_key(|m| {
                let result = results[m.representative];
                (
                    result.value,
                    result.is_proven_exact(),
                    std::cmp::Reverse(m.cell),
                )
            })
            .expect("a position in play has a root move");
        Iteration {
            depth: depth as u32,
            nodes: search.budget.nodes(),
            best: best.cell,
            evaluation: results[best.representative].evaluation(geometry.max_score()),
            pv: vec![best.cell],
        }
    });
}
