//! The big-board tree search: principal-variation search (alpha-beta with null windows after the
//! first move), the transposition table, killer and history ordering, extensions for forced
//! blocks (and for every second reply to an open three), a four-three or double three against no
//! four counted as a win, and at the horizon the static evaluation, or a VCF check when the
//! evaluation does not already fail high.
//!
//! The search is selective, as strong gomoku engines are; all of it spares only *quiet* moves
//! (no four for the mover, no cell where the opponent would make one: [`moves::is_quiet`]):
//! - late-move reductions: a quiet move after the first [`FULL_DEPTH_MOVES`] is searched
//!   `ln(depth) ln(index) / 1.5` plies shallower, one more off the principal variation, and again
//!   at full depth if it beats alpha;
//! - at *calm* nodes off the principal variation (nothing to answer: no four, no open three, no
//!   VCF of the opponent's), with the static evaluation `e`: a cut when `e - 150 depth >= beta` at
//!   depth 4 or less (reverse futility); a null move (the side to move passes, the opponent
//!   searches `depth - 3 - depth / 4` plies) when `e >= beta` at depth 3 or more; quiet moves
//!   skipped when `e + 150 depth <= alpha` at depth 3 or less (futility), and beyond the first
//!   `2 + depth²` quiet ones at depth 4 or less (late-move pruning).
//!
//! Pruning never skips a move while every move searched so far loses by force, so a loss the
//! search proves is still a loss over every move it generates; a null move's forced win only
//! cuts as a bound. Where the generator capped the quiet moves (a calm node) and every move
//! searched loses, the mover's threes left out by the cap are searched too, at full depth
//! ([`moves::add_threes`]): a counter-attack ranked past the cap is a defence such a loss can
//! miss (the research notes (docs/strength.md), "Counter-attacks past the caps"). Gomoku has no zugzwang (a
//! stone more never hurts its owner), which is what makes the null move sound here. Measured
//! against AIWine in the research notes (docs/strength.md)
//! ("A selective search").

use super::board::Goban;
use super::eval::Weights;
use super::moves::{self, Hints, Pressure};
use super::params::{
    DEFENCE_MIN_DEPTH, FULL_DEPTH_MOVES, FUTILITY_DEPTH, LMR_DIVISOR, MAX_QUIET_MOVES,
    MOVE_COUNT_BASE, MOVE_COUNT_DEPTH, NULL_MOVE_DEPTH, PRUNE_MARGIN, REVERSE_FUTILITY_DEPTH,
    VCF_DEFENCE_BUDGET, VCF_LEAF_BUDGET, VCF_MAX_FOURS,
};
use super::threat::Threat;
use super::threats::Vcf;
use crate::engine::core::budget::Budget;
use crate::engine::core::table::{Entry, Table};
use crate::engine::game::Player;

/// Win scores (`WIN - p` for a win `p` plies from the root) as the small-board solver counts them.
pub use crate::engine::core::score::{INFINITY, MATE_BOUND, WIN};

/// Static evaluations stay within this in absolute value.
pub const EVAL_MAX: i32 = 30_000;
/// Deepest ply the search reaches (forced blocks extend lines beyond the nominal depth).
pub const MAX_PLY: usize = 96;
/// Xored into the table keys of the positions searched after a null move, where the side to move
/// no longer follows from the number of stones.
const NULL_MOVE_KEY: u64 = 0x9E37_79B9_7F4A_7C15;

/// The search's state for one analysis.
pub struct Searcher<'a> {
    /// The board, moved along the searched line.
    pub board: Goban,
    /// Work counter and stop rule.
    pub budget: Budget,
    weights: &'static Weights,
    table: &'a mut Table,
    vcf: Vcf,
    killers: Vec<[u16; 2]>,
    history: Vec<[u32; 2]>,
    pv: Vec<Vec<u16>>,
    buffers: Vec<Vec<(i32, usize)>>,
    /// Open-three replies counted towards an extension, by ply.
    credit: Vec<u8>,
    /// Whether the searched line passed a move (a null move): no second one then.
    after_null: bool,
}

/// What the move loop of one node needs to know about it.
struct Node {
    depth: i32,
    ply: usize,
    beta: i32,
    side: Player,
    pressure: Pressure,
    /// The static evaluation at a calm node off the principal variation (it may prune).
    calm_eval: Option<i32>,
    null_window: bool,
    /// Whether the generator capped the quiet moves, so the mover's threes may be added.
    capped: bool,
}

impl Node {
    /// Whether a quiet move, the `quiet_moves`-th, is pruned at a calm node: beyond the
    /// move count, or by futility against `alpha`.
    fn prunes(&self, quiet_moves: usize, alpha: i32) -> bool {
        let Some(eval) = self.calm_eval else {
            return false;
        };
        let depth = self.depth;
        (depth <= MOVE_COUNT_DEPTH && quiet_moves > MOVE_COUNT_BASE + (depth * depth) as usize)
            || (depth <= FUTILITY_DEPTH && eval + PRUNE_MARGIN * depth <= alpha)
    }

    /// The late-move reduction of the quiet move at `index` searched `next` plies deep.
    fn reduction(&self, index: usize, next: i32) -> i32 {
        if self.depth >= 2 && index >= FULL_DEPTH_MOVES {
            let r = f64::from(self.depth).ln() * (index as f64).ln() / LMR_DIVISOR;
            (r as i32 + i32::from(self.null_window)).clamp(1, (next - 1).max(1))
        } else {
            0
        }
    }
}

impl<'a> Searcher<'a> {
    /// A searcher over `board` with `table`, which the search's other threads may share.
    pub fn new(
        board: Goban,
        budget: Budget,
        weights: &'static Weights,
        table: &'a mut Table,
    ) -> Self {
        let cells = board
            .playable()
            .iter()
            .map(|&a| a as usize)
            .max()
            .unwrap_or(0)
            + 1;
        Self {
            board,
            budget,
            weights,
            table,
            vcf: Vcf::new(VCF_LEAF_BUDGET),
            killers: vec![[u16::MAX; 2]; MAX_PLY + 1],
            history: vec![[0; 2]; cells],
            pv: vec![Vec::new(); MAX_PLY + 1],
            buffers: vec![Vec::new(); MAX_PLY + 1],
            credit: vec![0; MAX_PLY + 1],
            after_null: false,
        }
    }

    /// The principal variation found by the last search from `ply` (padded cells).
    pub fn pv(&self, ply: usize) -> &[u16] {
        &self.pv[ply]
    }

    /// The static evaluation for `side` to move.
    pub fn evaluate(&self, side: Player) -> i32 {
        self.board.evaluate(side, EVAL_MAX)
    }

    /// A VCF for `side` within `budget` nodes: its length in plies.
    pub fn vcf_plies(&mut self, side: Player, budget: u64) -> Option<usize> {
        self.vcf_line(side, budget).map(|line| line.len())
    }

    /// A VCF line for `side` within `budget` nodes (padded cells), counting its nodes as work.
    pub fn vcf_line(&mut self, side: Player, budget: u64) -> Option<Vec<usize>> {
        if !self.board.has_four_move(side) && !self.board.has_five(side) {
            return None;
        }
        let before = self.vcf.nodes();
        self.vcf.set_budget(budget);
        let line = self.vcf.find(&mut self.board, side, VCF_MAX_FOURS);
        self.budget.spend(self.vcf.nodes() - before);
        line
    }

    /// Negamax value of the position for `side` to move, searched `depth` plies deep, `ply`
    /// plies from the root, within `(alpha, beta)`. Returns 0 once the budget has stopped the
    /// search (the caller discards it).
    pub fn negamax(&mut self, depth: i32, ply: usize, alpha: i32, beta: i32, side: Player) -> i32 {
        self.pv[ply].clear();
        if self.budget.spend(1) {
            return 0;
        }
        let plies = ply as i32;
        if let Some(score) = self.decided(ply, side) {
            return score;
        }
        // Mate-distance pruning: nothing here can beat a win found nearer the root.
        let alpha = alpha.max(-(WIN - plies));
        let beta = beta.min(WIN - plies - 1);
        if alpha >= beta {
            return alpha;
        }
        let key = if self.after_null {
            self.board.hash() ^ NULL_MOVE_KEY
        } else {
            self.board.hash()
        };
        let table_move = match self.probe(key, depth, plies, alpha, beta) {
            Ok(score) => return score,
            Err(table_move) => table_move,
        };
        if depth <= 0 && self.board.count(side.opponent(), Threat::Five) == 0 {
            return self.horizon(side, plies, beta);
        }
        let pressure = moves::pressure(&self.board, side);
        let defence = if pressure == Pressure::None && depth >= DEFENCE_MIN_DEPTH {
            self.vcf_line(side.opponent(), VCF_DEFENCE_BUDGET)
        } else {
            None
        };
        // A calm node off the principal variation: its static evaluation may prune.
        let null_window = beta - alpha == 1;
        let calm_eval = (pressure == Pressure::None && defence.is_none() && null_window)
            .then(|| self.evaluate(side));
        if let Some(eval) = calm_eval {
            if depth <= REVERSE_FUTILITY_DEPTH
                && eval - PRUNE_MARGIN * depth >= beta
                && eval < EVAL_MAX
            {
                return eval;
            }
            if let Some(score) = self.null_move(depth, ply, beta, eval, side) {
                return score;
            }
        }
        let mut list = self.candidates(ply, side, pressure, defence.as_deref(), table_move);
        let node = Node {
            depth,
            ply,
            beta,
            side,
            pressure,
            calm_eval,
            null_window,
            // Past the end of a capped list whose moves all lose: the mover's threes the cap
            // left out, at full depth (see the module docs).
            capped: pressure == Pressure::None && defence.is_none(),
        };
        let searched = self.search_moves(&node, alpha, &mut list);
        self.buffers[ply] = list;
        let Some((best, best_move)) = searched else {
            return 0;
        };
        self.table.store(
            key,
            Entry {
                best: (best_move != u16::MAX).then_some(best_move),
                ..Entry::searched(best, plies, (alpha, beta), depth.clamp(-1, 127))
            },
        );
        best
    }

    /// The value of a position decided without a search: a five to complete, two fives to stop,
    /// an open four, a four-three or double three against no four, a full board; and the static
    /// evaluation at the deepest ply.
    fn decided(&self, ply: usize, side: Player) -> Option<i32> {
        let other = side.opponent();
        let plies = ply as i32;
        if self.board.has_five(side) {
            return Some(WIN - plies - 1);
        }
        let threats = self.board.count(other, Threat::Five);
        if threats >= 2 {
            return Some(-(WIN - plies - 2));
        }
        if threats == 0 && self.board.can_make(side, Threat::OpenFour) {
            return Some(WIN - plies - 3);
        }
        if threats == 0
            && (self.board.can_make(side, Threat::FourThree)
                || self.board.can_make(side, Threat::DoubleThree))
            && !self.board.has_four_move(other)
        {
            // A four-three, or two open threes, against no four: the opponent can stop only
            // one threat, and the other becomes an open four.
            return Some(WIN - plies - 5);
        }
        if self.board.empties() == 0 {
            return Some(0);
        }
        (ply >= MAX_PLY - 4).then(|| self.evaluate(side))
    }

    /// The table's entry for `key`: `Ok` with its score when it settles the node within
    /// `(alpha, beta)` at `depth`, otherwise `Err` with its best move to try first.
    fn probe(
        &self,
        key: u64,
        depth: i32,
        plies: i32,
        alpha: i32,
        beta: i32,
    ) -> Result<i32, Option<usize>> {
        let Some(entry) = self.table.probe(key) else {
            return Err(None);
        };
        if let Some(score) = entry.cutoff(depth, plies, alpha, beta) {
            return Ok(score);
        }
        Err(entry.best.map(usize::from))
    }

    /// The value at the horizon with no five to stop: the static evaluation, or a VCF's win
    /// when the evaluation does not already fail high.
    fn horizon(&mut self, side: Player, plies: i32, beta: i32) -> i32 {
        let eval = self.evaluate(side);
        if eval >= beta {
            // A VCF would only raise a score that already fails high.
            return eval;
        }
        if let Some(n) = self.vcf_plies(side, VCF_LEAF_BUDGET) {
            return WIN - plies - n as i32;
        }
        eval
    }

    /// The moves a node tries, best first, in the node's reused buffer.
    fn candidates(
        &mut self,
        ply: usize,
        side: Player,
        pressure: Pressure,
        defence: Option<&[usize]>,
        table_move: Option<usize>,
    ) -> Vec<(i32, usize)> {
        let mut list = std::mem::take(&mut self.buffers[ply]);
        let hints = Hints {
            defence,
            limit: Some(MAX_QUIET_MOVES),
            table_move,
            killers: self.killers[ply],
            history: &self.history,
        };
        moves::generate(&self.board, side, pressure, self.weights, &hints, &mut list);
        if list.is_empty() {
            // Only far-away cells are left (or the opponent's line cannot be answered).
            list.extend(
                self.board
                    .playable()
                    .iter()
                    .map(|&a| a as usize)
                    .filter(|&a| self.board.is_empty(a) && !self.board.is_forbidden(a, side))
                    .take(1)
                    .map(|a| (0, a)),
            );
        }
        list
    }

    /// Searches the moves of `list` from `alpha`: the best score and move, or `None` when the
    /// budget stopped the search.
    fn search_moves(
        &mut self,
        node: &Node,
        mut alpha: i32,
        list: &mut Vec<(i32, usize)>,
    ) -> Option<(i32, u16)> {
        let (depth, ply, side) = (node.depth, node.ply, node.side);
        // Blocks of a four do not use up depth, so four sequences are seen to their end. (Replies
        // to open threes did not either, at first: both sides' threes then chain for free and the
        // search reached depth 4 instead of 9 in the same time.)
        let forced = matches!(node.pressure, Pressure::Four(_));
        let (credit, extend) = self.three_credit(node);
        let mut best = -INFINITY;
        let mut best_move = u16::MAX;
        let mut quiet_moves = 0;
        let mut widened = usize::MAX;
        let mut i = 0;
        loop {
            if i == list.len() {
                if widened != usize::MAX || !node.capped || best > -MATE_BOUND {
                    break;
                }
                widened = i;
                moves::add_threes(&self.board, side, list);
                if i == list.len() {
                    break;
                }
            }
            let (index, at) = (i, list[i].1);
            i += 1;
            let quiet = moves::is_quiet(&self.board, at, side);
            quiet_moves += usize::from(quiet);
            if quiet && index > 0 && best > -MATE_BOUND && node.prunes(quiet_moves, alpha) {
                continue;
            }
            let next = if forced { depth } else { depth - 1 + extend };
            self.credit[ply + 1] = credit;
            let reduction = if quiet && index < widened {
                node.reduction(index, next)
            } else {
                0
            };
            let score = self.search_move(node, at, index, next, reduction, alpha);
            if self.budget.stopped() {
                return None;
            }
            if score > best {
                best = score;
                best_move = at as u16;
                if score > alpha {
                    alpha = score;
                    self.extend_pv(ply, at);
                    if score >= node.beta {
                        if quiet {
                            self.reward(ply, at, side, depth);
                        }
                        break;
                    }
                }
            }
        }
        Some((best, best_move))
    }

    /// Replies to an open three with no four to counter it: every second one along a line uses
    /// no depth (all of them did not: both sides' threes then chained for free). The credit
    /// passed on to the children, and the extension this node's moves get.
    fn three_credit(&self, node: &Node) -> (u8, i32) {
        let mut credit = self.credit[node.ply];
        let mut extend = 0;
        if node.pressure == Pressure::OpenThree && !self.board.has_four_move(node.side) {
            credit += 1;
            if credit == 2 {
                credit = 0;
                extend = 1;
            }
        }
        (credit, extend)
    }

    /// One move of a node, searched `next` plies deep: the first with the full window, the
    /// others with a null window (`reduction` plies shallower first), re-searched as needed.
    fn search_move(
        &mut self,
        node: &Node,
        at: usize,
        index: usize,
        next: i32,
        reduction: i32,
        alpha: i32,
    ) -> i32 {
        let (ply, beta, side) = (node.ply, node.beta, node.side);
        let other = side.opponent();
        self.board.play(at, side);
        let score = if index == 0 {
            -self.negamax(next, ply + 1, -beta, -alpha, other)
        } else {
            let mut s = -self.negamax(next - reduction, ply + 1, -alpha - 1, -alpha, other);
            if s > alpha && reduction > 0 {
                s = -self.negamax(next, ply + 1, -alpha - 1, -alpha, other);
            }
            if s > alpha && s < beta {
                s = -self.negamax(next, ply + 1, -beta, -alpha, other);
            }
            s
        };
        self.board.undo(at, side);
        score
    }

    /// The principal variation at `ply`: `at`, then the child's.
    fn extend_pv(&mut self, ply: usize, at: usize) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(at as u16);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// A quiet move that cut: a killer at `ply`, and history credit for `side`.
    fn reward(&mut self, ply: usize, at: usize, side: Player, depth: i32) {
        let killers = &mut self.killers[ply];
        if killers[0] != at as u16 {
            killers[1] = killers[0];
            killers[0] = at as u16;
        }
        self.history[at][side.index()] += (depth * depth) as u32;
    }

    /// The null move at a calm node whose evaluation `eval` reaches `beta`: the side to move
    /// passes and the opponent searches a shallower tree. A fail high there is a cut (a forced
    /// win only as the bound `beta`). `None` when it does not apply or does not cut.
    fn null_move(
        &mut self,
        depth: i32,
        ply: usize,
        beta: i32,
        eval: i32,
        side: Player,
    ) -> Option<i32> {
        if depth < NULL_MOVE_DEPTH || eval < beta || self.after_null || beta.abs() >= MATE_BOUND {
            return None;
        }
        let reduction = 2 + depth / 4;
        self.after_null = true;
        let score = -self.negamax(
            depth - 1 - reduction,
            ply + 1,
            -beta,
            -beta + 1,
            side.opponent(),
        );
        self.after_null = false;
        if self.budget.stopped() {
            // The caller returns this 0 and the search above it discards it, as after any stop.
            return Some(0);
        }
        (score >= beta).then_some(if score > MATE_BOUND { beta } else { score })
    }
}

#[cfg(test)]
mod tests;
