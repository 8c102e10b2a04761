//! The big-board tree search: principal-variation search (alpha-beta with null windows after the
//! first move), the transposition table, killer and history ordering, late-move reductions for
//! quiet moves, extensions for forced blocks (and for every second reply to an open three), a
//! four-three or double three against no four counted as a win, and at the horizon the static
//! evaluation, or a VCF check when the evaluation does not already fail high.

use super::board::{Board, Threat};
use super::budget::Budget;
use super::eval::Weights;
use super::moves::{self, Hints, Pressure};
use super::table::{Bound, Entry, Table};
use super::threats::Vcf;

/// Win scores (`WIN - p` for a win `p` plies from the root) as the small-board solver counts them.
pub use super::super::score::{INFINITY, MATE_BOUND, WIN};
use super::super::score::{from_table, to_table};

/// Static evaluations stay within this in absolute value.
pub const EVAL_MAX: i32 = 30_000;
/// Deepest ply the search reaches (forced blocks extend lines beyond the nominal depth).
pub const MAX_PLY: usize = 96;
/// Most attacker fours in a VCF.
pub const VCF_MAX_FOURS: u32 = 12;
/// Nodes allowed for the VCF at a leaf and for the opponent's VCF at an inner node.
const VCF_LEAF_BUDGET: u64 = 64;
const VCF_DEFENCE_BUDGET: u64 = 256;
/// Inner nodes at least this deep look for the opponent's VCF before choosing quiet moves.
const DEFENCE_MIN_DEPTH: i32 = 2;
/// Quiet moves kept at an inner node. With the window evaluation, 16 scored 75 % against AIWine
/// in 40 games where 10 scored about 60 %, 20 and 24 about 52 % (BENCHMARKS-search.md).
const MAX_QUIET_MOVES: usize = 16;
/// Moves searched at full depth before late-move reductions start.
const FULL_DEPTH_MOVES: usize = 3;

/// The search's state for one analysis.
pub struct Searcher<'a> {
    /// The board, moved along the searched line.
    pub board: Board,
    /// Work counter and stop rule.
    pub budget: Budget<'a>,
    weights: &'static Weights,
    table: &'a Table,
    vcf: Vcf,
    killers: Vec<[u16; 2]>,
    history: Vec<[u32; 2]>,
    pv: Vec<Vec<u16>>,
    buffers: Vec<Vec<(i32, usize)>>,
    /// Open-three replies counted towards an extension, by ply.
    credit: Vec<u8>,
}

impl<'a> Searcher<'a> {
    /// A searcher over `board` with `table`, which the search's other threads may share.
    pub fn new(
        board: Board,
        budget: Budget<'a>,
        weights: &'static Weights,
        table: &'a Table,
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
        }
    }

    /// The principal variation found by the last search from `ply` (padded cells).
    pub fn pv(&self, ply: usize) -> &[u16] {
        &self.pv[ply]
    }

    /// The static evaluation for `side` to move.
    pub fn evaluate(&self, side: usize) -> i32 {
        self.board.evaluate(side, EVAL_MAX)
    }

    /// A VCF for `side` within `budget` nodes: its length in plies.
    pub fn vcf_plies(&mut self, side: usize, budget: u64) -> Option<usize> {
        self.vcf_line(side, budget).map(|line| line.len())
    }

    /// A VCF line for `side` within `budget` nodes (padded cells), counting its nodes as work.
    pub fn vcf_line(&mut self, side: usize, budget: u64) -> Option<Vec<usize>> {
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
    pub fn negamax(&mut self, depth: i32, ply: usize, alpha: i32, beta: i32, side: usize) -> i32 {
        self.pv[ply].clear();
        if self.budget.spend(1) {
            return 0;
        }
        let other = 1 - side;
        let plies = ply as i32;
        if self.board.has_five(side) {
            return WIN - plies - 1;
        }
        let threats = self.board.count(other, Threat::Five);
        if threats >= 2 {
            return -(WIN - plies - 2);
        }
        if threats == 0 && self.board.count(side, Threat::OpenFour) > 0 {
            return WIN - plies - 3;
        }
        if threats == 0
            && (self.board.count(side, Threat::FourThree) > 0
                || self.board.count(side, Threat::DoubleThree) > 0)
            && !self.board.has_four_move(other)
        {
            // A four-three, or two open threes, against no four: the opponent can stop only
            // one threat, and the other becomes an open four.
            return WIN - plies - 5;
        }
        if self.board.empties() == 0 {
            return 0;
        }
        if ply >= MAX_PLY - 4 {
            return self.evaluate(side);
        }
        // Mate-distance pruning: nothing here can beat a win found nearer the root.
        let mut alpha = alpha.max(-(WIN - plies));
        let beta = beta.min(WIN - plies - 1);
        if alpha >= beta {
            return alpha;
        }
        let key = self.board.hash();
        let mut table_move = None;
        if let Some(entry) = self.table.probe(key) {
            table_move = (entry.best != u16::MAX).then_some(entry.best as usize);
            let score = from_table(entry.score, plies);
            if i32::from(entry.depth) >= depth {
                let cut = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                    Bound::None => false,
                };
                if cut {
                    return score;
                }
            }
        }
        if depth <= 0 && threats == 0 {
            let eval = self.evaluate(side);
            if eval >= beta {
                // A VCF would only raise a score that already fails high.
                return eval;
            }
            if let Some(n) = self.vcf_plies(side, VCF_LEAF_BUDGET) {
                return WIN - plies - n as i32;
            }
            return eval;
        }
        let pressure = moves::pressure(&self.board, side);
        let defence = if pressure == Pressure::None && depth >= DEFENCE_MIN_DEPTH {
            self.vcf_line(other, VCF_DEFENCE_BUDGET)
        } else {
            None
        };
        let mut list = std::mem::take(&mut self.buffers[ply]);
        let hints = Hints {
            defence: defence.as_deref(),
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
                    .filter(|&a| self.board.is_empty(a))
                    .take(1)
                    .map(|a| (0, a)),
            );
        }
        // Blocks of a four do not use up depth, so four sequences are seen to their end. (Replies
        // to open threes did not either, at first: both sides' threes then chain for free and the
        // search reached depth 4 instead of 9 in the same time.)
        let forced = matches!(pressure, Pressure::Four(_));
        // Replies to an open three with no four to counter it: every second one along a line
        // uses no depth (all of them did not: both sides' threes then chained for free).
        let mut credit = self.credit[ply];
        let mut extend = 0;
        if pressure == Pressure::OpenThree && !self.board.has_four_move(side) {
            credit += 1;
            if credit == 2 {
                credit = 0;
                extend = 1;
            }
        }
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = u16::MAX;
        for (i, &(_, at)) in list.iter().enumerate() {
            let quiet = moves::is_quiet(&self.board, at, side);
            let next = if forced { depth } else { depth - 1 + extend };
            self.credit[ply + 1] = credit;
            self.board.play(at, side);
            let score = if i == 0 {
                -self.negamax(next, ply + 1, -beta, -alpha, other)
            } else {
                let reduction = if quiet && depth >= 3 && i >= FULL_DEPTH_MOVES {
                    1 + i32::from(i >= 8)
                } else {
                    0
                };
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
            if self.budget.stopped() {
                self.buffers[ply] = list;
                return 0;
            }
            if score > best {
                best = score;
                best_move = at as u16;
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(at as u16);
                    head[ply].extend_from_slice(&tail[0]);
                    if score >= beta {
                        if quiet {
                            let killers = &mut self.killers[ply];
                            if killers[0] != at as u16 {
                                killers[1] = killers[0];
                                killers[0] = at as u16;
                            }
                            self.history[at][side] += (depth * depth) as u32;
                        }
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = list;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.store(
            key,
            Entry {
                key,
                score: to_table(best, plies),
                best: best_move,
                depth: depth.clamp(-1, 127) as i8,
                bound,
            },
        );
        best
    }
}
