//! The recursive search: negamax with alpha-beta (fail-soft) and the m,n,k shortcuts.
//!
//! - an immediate win ends the node; two opponent threats on different cells lose at once; a
//!   single opponent threat forces the block (searched without using up depth);
//! - a move making two threats on different cells (when the opponent has none) wins in three
//!   plies;
//! - when neither side can complete any window any more the position is a proven draw, and when
//!   one side cannot, the score is bounded by a draw;
//! - a pairing strategy ([`super::pairing`]) proves that a side cannot win: looked for when that
//!   would settle the node;
//! - dead cells (no open window through them) lead to positions of equal value: one of them is
//!   searched;
//! - at the depth limit, the static evaluation ([`super::eval`]).

use std::ops::ControlFlow;

use super::estimates::Estimates;
use super::eval::evaluate;
use super::grid::Grid;
use super::pairing::Pairing;
use super::params::{PAIRING_BUDGET, PAIRING_MAX_LIVE, TABLE_MIN_DEPTH};
use super::patterns::Patterns;
use crate::engine::core::budget::Budget;
use crate::engine::core::score::{INFINITY, WIN};
use crate::engine::core::table::{Bound, Entry, Table};
use crate::engine::game::Player;
use crate::engine::game::{Geometry, Rule};

/// The recursive search over one board, with its table, budget and move-ordering state.
pub struct Negamax<'t> {
    pub board: Grid,
    pub table: &'t mut Table,
    root_side: Player,
    pub budget: Budget,
    pub estimates: Estimates,
    pairing: Pairing,
    pub patterns: Patterns,
    /// History heuristic: per cell and side, a bonus for moves that caused cutoffs.
    history: Vec<[i64; 2]>,
    /// A move list per ply, reused to avoid allocating in the search.
    buffers: Vec<Vec<(i64, u16)>>,
}

impl<'t> Negamax<'t> {
    /// A search of `board` (of `geometry`) with `root_side` to move at the root.
    pub fn new(
        geometry: Geometry,
        board: Grid,
        table: &'t mut Table,
        root_side: Player,
        budget: Budget,
    ) -> Self {
        let cells = board.cell_count();
        Self {
            board,
            table,
            root_side,
            budget,
            estimates: Estimates::default(),
            pairing: Pairing::new(geometry),
            patterns: Patterns::new(cells),
            history: vec![[0; 2]; cells],
            buffers: vec![Vec::new(); cells + 2],
        }
    }

    /// The side to move at the root.
    pub fn root_side(&self) -> Player {
        self.root_side
    }

    fn side_at(&self, ply: i32) -> Player {
        self.root_side.after(ply)
    }

    /// Whether `side` provably cannot win: the opponent can pair off every window `side` can
    /// still complete (looked for only when few are open).
    fn cannot_win(&mut self, side: Player) -> bool {
        if self.board.live(side) > PAIRING_MAX_LIVE {
            return false;
        }
        let (found, steps) = self
            .pairing
            .defender_pairs_off(&self.board, side, PAIRING_BUDGET);
        self.budget.count_extra_work(u64::from(steps));
        found
    }

    /// The value of playing `cell` for `side` at the node `ply` plies deep.
    pub fn child_value(
        &mut self,
        cell: usize,
        side: Player,
        depth: i32,
        ply: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.board.play(cell, side);
        let value = -self.search(depth, ply + 1, -beta, -alpha);
        self.board.undo(cell, side);
        value
    }

    /// What the threats and the open windows alone say about a node: its value
    /// (`Break`), or the forced block, if any, to search (`Continue`).
    fn shortcuts(
        &mut self,
        side: Player,
        ply: i32,
        alpha: i32,
        beta: i32,
    ) -> ControlFlow<i32, Option<usize>> {
        let other = side.opponent();
        if self.board.has_win(side) {
            return ControlFlow::Break(WIN - (ply + 1));
        }
        if self.board.empties() == 0 || self.board.all_dead() {
            return ControlFlow::Break(0);
        }
        let mut forced = None;
        // Under caro a stone just beyond a four's far end blocks its five at both ends, so a
        // threat may be stopped off its cell and one stone may stop two: no shortcut, every move
        // is searched, and the opponent may win at the next ply.
        let caro_threat = self.board.rule() == Rule::Caro && self.board.threats(other) > 0;
        if self.board.threats(other) > 0
            && !caro_threat
            && let (Some(first), more) = self.board.threat_cells(other)
        {
            if more || !self.board.may_play(first, side) {
                // Every move loses at once, unless there is none (black under renju): a draw.
                let lost = self.board.has_move(side);
                return ControlFlow::Break(if lost { -(WIN - (ply + 2)) } else { 0 });
            }
            forced = Some(first);
        } else if self.board.threats(other) == 0
            && self.board.rule() == Rule::Freestyle
            && self.board.twos(side) >= 2
            && self
                .patterns
                .double_threat_cell(&self.board, side)
                .is_some()
        {
            // Under the other rules a four may not win (an overline, a blocked five), may be
            // forbidden, and a block may take both wins away (caro): no shortcut there.
            return ControlFlow::Break(WIN - (ply + 3));
        }
        // No immediate win, so our next chance ends the game at ply + 3; the opponent has no
        // threat left standing after our move, so its first chance is ply + 4.
        let best_possible = if self.board.live(side) == 0 {
            0
        } else {
            WIN - (ply + 3)
        };
        let worst_possible = if self.board.live(other) == 0 {
            0
        } else if caro_threat {
            -(WIN - (ply + 2))
        } else {
            -(WIN - (ply + 4))
        };
        if best_possible <= alpha {
            return ControlFlow::Break(best_possible);
        }
        if worst_possible >= beta {
            return ControlFlow::Break(worst_possible);
        }
        ControlFlow::Continue(forced)
    }

    /// The bound a pairing strategy proves at this node, when it alone settles it: "this side
    /// cannot win" (alpha ≥ 0), "the opponent cannot win" (beta ≤ 0) or both.
    fn pairing_bound(&mut self, side: Player, alpha: i32, beta: i32) -> Option<Bound> {
        if alpha >= 0 {
            self.cannot_win(side).then_some(Bound::Upper)
        } else if beta <= 0 {
            self.cannot_win(side.opponent()).then_some(Bound::Lower)
        } else {
            (self.cannot_win(side) && self.cannot_win(side.opponent())).then_some(Bound::Exact)
        }
    }

    /// The moves after `first` at the node, best first: every empty cell but `first`, dead
    /// cells counted once (they lead to positions of equal value).
    fn ordered_moves(&mut self, side: Player, first: Option<usize>, moves: &mut Vec<(i64, u16)>) {
        let mut dead_seen = first.is_some_and(|c| self.board.is_dead(c));
        for cell in 0..self.board.cell_count() {
            if !self.board.is_empty(cell) || Some(cell) == first || !self.board.may_play(cell, side)
            {
                continue;
            }
            if self.board.is_dead(cell) {
                if dead_seen {
                    continue;
                }
                dead_seen = true;
            }
            let priority = i64::from(self.board.move_priority(cell, side)) * 1024
                + self.history[cell][side.index()].min(1023);
            moves.push((priority, cell as u16));
        }
        moves.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    }

    /// Negamax with alpha-beta (fail-soft) from the node `ply` plies below the root, `depth`
    /// plies before the horizon. Scores are relative to the root: a win ending at ply `p` is
    /// `WIN - p` for the side that makes it.
    pub fn search(&mut self, depth: i32, ply: i32, alpha: i32, beta: i32) -> i32 {
        if self.budget.spend(1) {
            return 0;
        }
        let side = self.side_at(ply);
        let forced = match self.shortcuts(side, ply, alpha, beta) {
            ControlFlow::Break(value) => return value,
            ControlFlow::Continue(forced) => forced,
        };
        if depth <= 0 && forced.is_none() {
            self.estimates.count();
            return evaluate(&self.board, side);
        }

        let (key, symmetry) = self.board.canonical_key();
        let use_table = depth >= TABLE_MIN_DEPTH;
        let hash_move = if use_table {
            match self.probe(key, symmetry, depth, ply, alpha, beta) {
                Ok(score) => return score,
                Err(hash_move) => hash_move,
            }
        } else {
            None
        };

        if let Some(bound) = self.pairing_bound(side, alpha, beta) {
            if use_table {
                self.table.store(
                    key,
                    Entry {
                        score: 0,
                        bound,
                        depth,
                        proven: true,
                        best: hash_move.map(|m| self.board.canonical_cell(symmetry, m) as u16),
                    },
                );
            }
            return 0;
        }

        let estimates_before = self.estimates.mark();
        let child_depth = if forced.is_some() { depth } else { depth - 1 };
        // The table's move first, before the others are generated: it often cuts at once.
        let Some((best, best_move)) =
            self.search_moves(side, forced, hash_move, child_depth, ply, alpha, beta)
        else {
            return 0;
        };
        if let Some(cell) = best_move.filter(|_| best >= beta) {
            let bonus = i64::from(depth.max(1));
            self.history[cell][side.index()] += bonus * bonus;
        }
        if !use_table {
            return best;
        }
        self.table.store(
            key,
            Entry {
                proven: self.estimates.none_since(estimates_before),
                best: best_move.map(|m| self.board.canonical_cell(symmetry, m) as u16),
                ..Entry::searched(best, ply, (alpha, beta), depth)
            },
        );
        best
    }

    /// The table's entry at a node: `Ok` with its score when it settles the node within
    /// `(alpha, beta)` at `depth`, otherwise `Err` with its move (in this orientation) to try
    /// first.
    fn probe(
        &mut self,
        key: u64,
        symmetry: usize,
        depth: i32,
        ply: i32,
        alpha: i32,
        beta: i32,
    ) -> Result<i32, Option<usize>> {
        let Some(entry) = self.table.probe(key) else {
            return Err(None);
        };
        let hash_move = entry
            .best
            .map(usize::from)
            .map(|m| self.board.actual_cell(symmetry, m))
            .filter(|&m| self.board.is_empty(m) && self.board.may_play(m, self.side_at(ply)));
        if let Some(score) = entry.cutoff(depth, ply, alpha, beta) {
            if !entry.proven {
                self.estimates.count();
            }
            return Ok(score);
        }
        Err(hash_move)
    }

    /// Searches a node's moves, `first` (the forced move, or the table's) before the others
    /// (none after a forced move): the best value and move, or `None` when the budget ran out.
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        side: Player,
        forced: Option<usize>,
        hash_move: Option<usize>,
        child_depth: i32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
    ) -> Option<(i32, Option<usize>)> {
        let mut best = -INFINITY;
        let mut best_move = None;
        let first = forced.or(hash_move);
        if let Some(cell) = first {
            let value = self.child_value(cell, side, child_depth, ply, alpha, beta);
            if self.budget.stopped() {
                return None;
            }
            best = value;
            best_move = Some(cell);
            alpha = alpha.max(value);
        }
        let mut moves = std::mem::take(&mut self.buffers[ply as usize]);
        moves.clear();
        if forced.is_none() && best < beta {
            self.ordered_moves(side, first, &mut moves);
        }
        for &(_, cell) in &moves {
            let cell = cell as usize;
            let value = self.child_value(cell, side, child_depth, ply, alpha, beta);
            if self.budget.stopped() {
                break;
            }
            if value > best {
                best = value;
                best_move = Some(cell);
                alpha = alpha.max(value);
                if value >= beta {
                    break;
                }
            }
        }
        self.buffers[ply as usize] = moves;
        if best_move.is_none() {
            // No move at all: black under renju with every cell forbidden, a draw.
            best = 0;
        }
        (!self.budget.stopped()).then_some((best, best_move))
    }
}
