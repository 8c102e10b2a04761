//! The root of the big-board search: a proven win by continuous fours answers at once; otherwise
//! iterative deepening over the candidate moves until the work budget or the deadline stops it,
//! and every legal move gets a value for the [`Analysis`].

use super::board::Goban;
use super::eval::WEIGHTS;
use super::negamax::{EVAL_MAX, INFINITY, MATE_BOUND, MAX_PLY, Searcher, WIN};
use super::params::{
    ROOT_VCF_BUDGET, ROOT_VCF_FOURS, SAFE_MOVES_WANTED, VCT_BEST_BUDGET, VCT_BUDGET,
    VCT_MAX_THREATS, VCT_MOVE_MAX, VCT_PASS_BUDGET, VCT_SAFETY_BUDGET, VCT_SHARE,
};
use super::threat::Threat;
use super::threats::{Vcf, Vct};
use crate::engine::analysis::{Analysis, Evaluation, MoveScore, Scoring};
use crate::engine::core::budget::Budget;
use crate::engine::core::deadline::Deadline;
use crate::engine::core::deepening::{self, Deepening, Pass};
use crate::engine::core::job::Job;
use crate::engine::core::score::{self, EvalScale};
use crate::engine::core::table::{Replacement, Table};
use crate::engine::game::Player;
use crate::engine::game::Position;
use crate::engine::limits::SearchLimits;
use crate::engine::progress::{Iteration, Progress};

/// The evaluation on the estimate scale: a window sum ahead by 300, about a live three and a two
/// more, reports 0.27 ("in its favour" in the explanation).
const SCALE: EvalScale = EvalScale {
    max: EVAL_MAX,
    divisor: 1_000.0,
};
/// A node of this search costs 9/10 of a unit of the service's work budget (which is calibrated for
/// the small-board solver), so that the median 15 × 15 midgame search stops on its budget,
/// reproducibly, before its time limit (the match that set it: docs/strength.md, "Tuned by
/// match").
fn nodes_for_work(work: u64) -> u64 {
    work.saturating_mul(10) / 9
}

/// Deepest iteration.
const MAX_DEPTH: i32 = 64;

/// One candidate at the root and what the last iterations said of it.
#[derive(Clone, Debug)]
struct RootMove {
    /// Padded cell.
    at: usize,
    /// Its value at the last depth it was searched to: exact for the best move (and the first
    /// [`SearchLimits::multi_pv`] in multi-PV mode), an upper bound for the others (they failed
    /// low against it), or exact for all in all-moves mode.
    score: i32,
    /// Whether an iteration searched it (the deadline can stop the first before every move).
    searched: bool,
}

/// How many root moves get an open window: all of them for a move table, else the multi-PV
/// count (at least the best move).
fn open_moves(limits: &SearchLimits) -> usize {
    if limits.all_moves {
        usize::MAX
    } else {
        limits.multi_pv.max(1)
    }
}

/// Analyses a big-board position (see the module docs of [`super`]).
pub fn search(job: Job<'_>) -> Analysis {
    let (tables, position, scoring, limits) = job.parts();
    let geometry = position.geometry();
    let mut board = Goban::new(geometry, position.cells(), &WEIGHTS);
    let side = position.to_move();
    // Short wins first: each round allows more fours, within one budget.
    let mut vcf = Vcf::new(ROOT_VCF_BUDGET);
    for fours in ROOT_VCF_FOURS {
        let left = ROOT_VCF_BUDGET.saturating_sub(vcf.nodes());
        vcf.set_budget(left);
        if let Some(line) = vcf.find(&mut board, side, fours) {
            return forced_win(position, scoring, board, line, vcf.nodes());
        }
    }
    let mut budget = Budget::new(limits.max_work.map(nodes_for_work), Deadline::of(limits));
    budget.spend(vcf.nodes());
    let vct_budget = limits
        .max_work
        .map_or(VCT_BUDGET, |w| (w / VCT_SHARE).min(VCT_BUDGET));
    let mut vct = Vct::new(vct_budget);
    vct.set_deadline(Deadline::of(limits));
    let won = vct.find(&mut board, side, VCT_MAX_THREATS);
    budget.spend(vct.nodes());
    let mut cells = root_moves(&board, side);
    add_candidates(&board, &mut cells, side, limits.multi_pv);
    if let Some(first) = won {
        return threat_win(position, scoring, board, first, budget.nodes());
    }
    let before = vct.nodes();
    let pass_budget = limits.max_work.map_or(VCT_PASS_BUDGET, |w| {
        (nodes_for_work(w) / 4).min(VCT_PASS_BUDGET)
    });
    let threatened = set_aside_losing(&mut board, &mut cells, side, &mut vct, pass_budget);
    budget.spend(vct.nodes() - before);
    let mut table = Table::acquire(tables, Replacement::UnlessDeeper, position.geometry());
    let mut searcher = Searcher::new(board, budget, &WEIGHTS, &mut table);
    let mut root: Vec<RootMove> = cells
        .iter()
        .map(|&at| RootMove {
            at,
            score: 0,
            searched: false,
        })
        .collect();
    let last_depth = limits
        .max_depth
        .map_or(MAX_DEPTH, |d| (d as i32).clamp(1, MAX_DEPTH));
    let mut iterations = Iterations {
        pv: vec![root[0].at as u16],
        searcher: &mut searcher,
        root: &mut root,
        side,
        open: open_moves(limits),
        threat_check: threatened.then_some(&mut vct),
        checks: Checks::default(),
        progress: &limits.progress,
    };
    let completed = deepening::deepen(&mut iterations, last_depth);
    let pv = iterations.pv;
    let nodes = searcher.budget.nodes();
    let moves = score_moves(&mut searcher.board, &root, side, scoring, position);
    let mut analysis = Analysis::from_moves(moves, nodes, Some(completed.max(1) as u32));
    analysis.pv = pv
        .iter()
        .map(|&a| searcher.board.layout().unpadded(a as usize))
        .collect();
    analysis.preference = preference(&searcher.board, &analysis, side);
    analysis
}

/// The searched moves in the order the search's move ordering prefers them, which breaks ties
/// between equal values in [`Analysis::ranked`]: the cell's value for both sides (the patterns
/// a stone there makes, its own and the ones it stops), then nearest the centre.
fn preference(board: &Goban, analysis: &Analysis, side: Player) -> Vec<usize> {
    let layout = board.layout();
    let mut cells: Vec<(std::cmp::Reverse<i32>, usize, usize)> = analysis
        .moves
        .iter()
        .filter(|m| m.searched)
        .map(|m| {
            let at = layout.padded(m.index);
            let value = board.value(at, side) + board.value(at, side.opponent());
            (
                std::cmp::Reverse(value),
                layout.distance_to_centre(at),
                m.index,
            )
        })
        .collect();
    cells.sort_unstable();
    cells.into_iter().map(|(_, _, cell)| cell).collect()
}

/// The big-board search's iterations, for the one driver ([`deepening::deepen`]): PVS over the
/// root moves, the principal variation of the last iteration, and with `threat_check` (the
/// root moves were checked for a VCT they leave the opponent) the best move checked again after
/// each iteration.
struct Iterations<'s, 'r> {
    searcher: &'s mut Searcher<'r>,
    root: &'s mut [RootMove],
    side: Player,
    open: usize,
    threat_check: Option<&'s mut Vct>,
    checks: Checks,
    progress: &'s Progress,
    pv: Vec<u16>,
}

impl Deepening for Iterations<'_, '_> {
    fn budget(&mut self) -> &mut Budget {
        &mut self.searcher.budget
    }

    fn iterate(&mut self, depth: i32) -> Pass {
        let Some((line, full)) = iterate(self.searcher, self.root, depth, self.side, self.open)
        else {
            if depth == 1 {
                // The deadline came before one move was searched: answer with the move the
                // one-ply evaluation likes best rather than an arbitrary one.
                order_by_one_ply(&mut self.searcher.board, self.root, self.side);
                self.pv = vec![self.root[0].at as u16];
            }
            return Pass::Stopped;
        };
        self.pv = line;
        if let Some(vct) = self.threat_check.as_deref_mut()
            && recheck_best(self.searcher, self.root, self.side, vct, &mut self.checks)
        {
            self.pv = vec![self.root[0].at as u16];
        }
        if !full {
            return Pass::Stopped;
        }
        self.progress.report(|| {
            let layout = self.searcher.board.layout();
            Iteration {
                depth: depth as u32,
                nodes: self.searcher.budget.nodes(),
                best: layout.unpadded(self.root[0].at),
                evaluation: Evaluation::Heuristic(estimate(self.root[0].score)),
                pv: self
                    .pv
                    .iter()
                    .map(|&a| layout.unpadded(a as usize))
                    .collect(),
            }
        });
        Pass::Complete {
            done: self.root[0].score.abs() > MATE_BOUND,
        }
    }
}

/// One iteration at `depth`: every root move searched, the best first (PVS: the first `open`
/// with an open window, the others with a null window at the `open`-th best value, re-searched
/// when they beat it). Returns the principal variation and whether the iteration finished, or
/// `None` when the budget stopped it before its first move was done. A move that beats the
/// first one before the stop is kept: it is better at this depth.
fn iterate(
    searcher: &mut Searcher,
    root: &mut [RootMove],
    depth: i32,
    side: Player,
    open: usize,
) -> Option<(Vec<u16>, bool)> {
    let other = side.opponent();
    let mut alpha = -INFINITY;
    let mut best: Option<(usize, Vec<u16>)> = None;
    let mut scores: Vec<Option<i32>> = vec![None; root.len()];
    // The best `open` scores so far, highest first: a move must beat the last to need a value.
    let mut leaders: Vec<i32> = Vec::new();
    for i in 0..root.len() {
        let at = root[i].at;
        let bar = if leaders.len() < open {
            -INFINITY
        } else {
            leaders[leaders.len() - 1]
        };
        searcher.board.play(at, side);
        let score = if i == 0 || open == usize::MAX {
            let high = if open == usize::MAX { INFINITY } else { -alpha };
            -searcher.negamax(depth - 1, 1, -INFINITY, high, other)
        } else if bar == -INFINITY {
            -searcher.negamax(depth - 1, 1, -INFINITY, INFINITY, other)
        } else {
            let s = -searcher.negamax(depth - 1, 1, -bar - 1, -bar, other);
            if s > bar && !searcher.budget.stopped() {
                -searcher.negamax(depth - 1, 1, -INFINITY, -bar, other)
            } else if open > 1 {
                // A bound no higher than the bar: below every leader's value.
                s.min(bar - 1)
            } else {
                s
            }
        };
        searcher.board.undo(at, side);
        if searcher.budget.stopped() {
            break;
        }
        scores[i] = Some(score);
        let rank = leaders.partition_point(|&s| s >= score);
        leaders.insert(rank, score);
        leaders.truncate(open.min(root.len()));
        if score > alpha {
            alpha = score;
            let mut line = vec![at as u16];
            line.extend_from_slice(searcher.pv(1));
            best = Some((i, line));
        }
    }
    let (best_index, line) = best?;
    let full = scores.iter().all(Option::is_some);
    // Searched moves take their new value (an upper bound below the best for those that failed
    // low), the rest keep their earlier one but stay below the best; the best goes first, then
    // the others by value.
    for (i, (m, s)) in root.iter_mut().zip(&scores).enumerate() {
        if let Some(s) = *s {
            m.score = s;
            m.searched = true;
        }
        if i != best_index {
            m.score = m.score.min(alpha - 1);
        }
    }
    root[..=best_index].rotate_right(1);
    root[1..].sort_by_key(|m| std::cmp::Reverse(m.score));
    Some((line, full))
}

/// Orders the root moves by the static evaluation after each, best first (the fallback when no
/// iteration searched a move before the deadline).
fn order_by_one_ply(board: &mut Goban, root: &mut [RootMove], side: Player) {
    for m in root.iter_mut() {
        m.score = one_ply(board, m.at, side);
    }
    root.sort_by_key(|m| std::cmp::Reverse(m.score));
}

/// The static evaluation, for `side`, of the position after it plays `at`.
fn one_ply(board: &mut Goban, at: usize, side: Player) -> i32 {
    board.play(at, side);
    let value = -board.evaluate(side.opponent(), EVAL_MAX);
    board.undo(at, side);
    value
}

/// Sets aside the root moves after which the opponent wins by continuous threats (a VCT found
/// within [`VCT_SAFETY_BUDGET`] nodes each, or more, see below), unless every move is refuted:
/// then every move stays and the search picks the longest resistance. Against a four only its
/// block stays. The moves are checked one by one only when the opponent threatens something:
/// it has an open three (a reply to it can be the one that leaves a VCT; every reply is
/// checked), or it would have a VCT if the side to move passed (searched within `pass_budget`
/// nodes). Then each move gets twice the nodes that VCT took (within [`VCT_MOVE_MAX`]), best
/// first by cell value, until [`SAFE_MOVES_WANTED`] hold and all the checks together have taken
/// `pass_budget` nodes; only those, and the mover's own threats (an open three or better) that
/// hold, are searched. Returns whether the moves were checked (and so whether the best move is
/// checked again after each iteration).
fn set_aside_losing(
    board: &mut Goban,
    cells: &mut Vec<usize>,
    side: Player,
    vct: &mut Vct,
    pass_budget: u64,
) -> bool {
    let other = side.opponent();
    if let Some(block) = board.five_cell(other) {
        // Only the block does not lose at once; the tree searches what follows it. (Under
        // renju black may be unable to block: then every move loses, and all stay.)
        if !board.has_five(side) && !board.is_forbidden(block, side) {
            *cells = vec![block];
        }
        return false;
    }
    let mut per_move = VCT_SAFETY_BUDGET;
    let mut wanted = usize::MAX;
    if !board.has_open_three(other) {
        vct.set_budget(pass_budget);
        let before = vct.nodes();
        if vct.find(board, other, VCT_MAX_THREATS).is_none() {
            return false;
        }
        // After a move that does not stop it, the VCT takes about as long to find again.
        let needed = vct.nodes() - before;
        per_move = per_move.max((2 * needed).min(VCT_MOVE_MAX));
        wanted = SAFE_MOVES_WANTED;
    }
    let mut order: Vec<(i32, usize)> = cells
        .iter()
        .map(|&at| (-(board.value(at, side) + board.value(at, other)), at))
        .collect();
    order.sort_unstable();
    // Past the moves wanted, quiet moves are still checked while the checks are cheap (when the
    // opponent's VCT is found fast, so are the moves that leave it), and the mover's own threats
    // (an open three or better) always: an attack that holds must not be dropped for a defence
    // with a higher cell value. Games against AIWine were thrown away so: a four that began a won
    // attack, and a quiet move that began one (24th by cell value, the ninth of ten that held),
    // were never searched (the research notes (docs/strength.md), "Quiet attacks under a VCT").
    let mut safe = Vec::new();
    let start = vct.nodes();
    for (_, at) in order {
        let cheap = vct.nodes() - start < pass_budget;
        if (safe.len() < wanted || cheap || board.threat(at, side) >= Threat::OpenThree)
            && !leaves_vct(board, at, side, vct, per_move)
        {
            safe.push(at);
        }
    }
    if !safe.is_empty() {
        *cells = safe;
    }
    true
}

/// Root moves already checked more deeply for a VCT they leave the opponent.
#[derive(Default)]
struct Checks {
    safe: Vec<usize>,
    refuted: Vec<usize>,
}

/// Checks the best root move again, more deeply ([`VCT_BEST_BUDGET`]), for a VCT it leaves the
/// opponent. A refuted move goes last (it stays: it may be the only one) and the next is
/// checked, until one holds or every other move is refuted. Returns whether the best move
/// changed.
fn recheck_best(
    searcher: &mut Searcher,
    root: &mut [RootMove],
    side: Player,
    vct: &mut Vct,
    checks: &mut Checks,
) -> bool {
    let mut changed = false;
    for _ in 0..root.len() {
        let at = root[0].at;
        if searcher.budget.stopped()
            || checks.safe.contains(&at)
            || root[0].score > MATE_BOUND
            || checks.refuted.len() >= root.len() - 1
        {
            break;
        }
        let lost = checks.refuted.contains(&at) || {
            let before = vct.nodes();
            let lost = leaves_vct(&mut searcher.board, at, side, vct, VCT_BEST_BUDGET);
            searcher.budget.spend(vct.nodes() - before);
            lost
        };
        if !lost {
            checks.safe.push(at);
            break;
        }
        if !checks.refuted.contains(&at) {
            checks.refuted.push(at);
        }
        root.rotate_left(1);
        let last = root.len() - 1;
        root[last].score = root[last].score.min(-MATE_BOUND - 1);
        changed = true;
    }
    changed
}

/// Whether the opponent wins by continuous threats (found within `budget` nodes) after `side`
/// plays `at`. A move that makes a four is not checked here: the opponent must block it first,
/// and the tree search sees what follows.
fn leaves_vct(board: &mut Goban, at: usize, side: Player, vct: &mut Vct, budget: u64) -> bool {
    board.play(at, side);
    vct.set_budget(budget);
    let refuted = board.five_cell(side).is_none()
        && vct.find(board, side.opponent(), VCT_MAX_THREATS).is_some();
    board.undo(at, side);
    refuted
}

/// The analysis when the side to move wins by continuous threats starting at `first`: that move
/// is the best, with an estimate above every evaluation (the threat search prunes the defences
/// to the standard ones, so the win is not reported as proven), every other move a one-ply
/// estimate.
fn threat_win(
    position: &Position,
    scoring: Scoring,
    board: Goban,
    first: usize,
    nodes: u64,
) -> Analysis {
    let side = position.to_move();
    let cell = board.layout().unpadded(first);
    let mut board = board;
    let root = [RootMove {
        at: first,
        score: WIN - MAX_PLY as i32,
        searched: true,
    }];
    let moves = score_moves(&mut board, &root, side, scoring, position);
    let mut analysis = Analysis::from_moves(moves, nodes, Some(1));
    analysis.pv = vec![cell];
    analysis
}

/// The cells searched at the root: every empty cell within two of a stone that `side` may play,
/// or the centre of an empty board.
fn root_moves(board: &Goban, side: Player) -> Vec<usize> {
    let moves: Vec<usize> = board
        .playable()
        .iter()
        .map(|&a| a as usize)
        .filter(|&a| board.is_candidate(a) && !board.is_forbidden(a, side))
        .collect();
    if moves.is_empty() {
        // An empty board: the cell nearest its centre (the lowest of equals, so on an even side
        // the upper left of the middle four).
        let layout = board.layout();
        let centre = board
            .playable()
            .iter()
            .map(|&a| a as usize)
            .filter(|&a| board.is_empty(a))
            .min_by_key(|&a| layout.distance_to_centre(a))
            .expect("a position in play has an empty cell");
        vec![centre]
    } else {
        moves
    }
}

/// Adds root candidates up to `wanted` when there are fewer (multi-PV asks for more moves than
/// the root has, as on a board with one stone): the empty cells nearest the centre that `side`
/// may play.
fn add_candidates(board: &Goban, cells: &mut Vec<usize>, side: Player, wanted: usize) {
    if cells.len() >= wanted {
        return;
    }
    let layout = board.layout();
    let mut more: Vec<usize> = board
        .playable()
        .iter()
        .map(|&a| a as usize)
        .filter(|&a| board.is_empty(a) && !cells.contains(&a) && !board.is_forbidden(a, side))
        .collect();
    more.sort_by_key(|&a| layout.distance_to_centre(a));
    cells.extend(more.into_iter().take(wanted - cells.len()));
}

/// Every legal move with its value: the searched ones their search value, the others a one-ply
/// static estimate kept below every searched move and marked as not searched.
fn score_moves(
    board: &mut Goban,
    root: &[RootMove],
    side: Player,
    scoring: Scoring,
    position: &Position,
) -> Vec<MoveScore> {
    let floor = root.iter().map(|m| m.score).min().unwrap_or(0);
    // Black's forbidden cells under renju are no moves: they are not in the table.
    position
        .legal_moves()
        .into_iter()
        .map(|cell| {
            let at = board.layout().padded(cell);
            let (value, searched) = match root.iter().find(|m| m.at == at) {
                Some(m) => (m.score, m.searched),
                None => (one_ply(board, at, side).min(floor - 1), false),
            };
            let entry = MoveScore::new(
                cell,
                Evaluation::Heuristic(estimate(value)),
                scoring,
                position.geometry(),
                position.empty_count(),
            );
            if searched { entry } else { entry.unsearched() }
        })
        .collect()
}

/// An internal score on the estimate scale: searched wins and losses are not proven here (see
/// the module docs), so they stay estimates beyond the band.
fn estimate(value: i32) -> f64 {
    score::estimate(value, SCALE)
}

/// The analysis when the side to move wins by continuous fours along `line` (padded cells): its
/// first move a proven win ([`Analysis::forced_win`]), every other move a one-ply estimate.
fn forced_win(
    position: &Position,
    scoring: Scoring,
    mut board: Goban,
    line: Vec<usize>,
    nodes: u64,
) -> Analysis {
    let side = position.to_move();
    let pv: Vec<usize> = line.iter().map(|&a| board.layout().unpadded(a)).collect();
    let moves = score_moves(&mut board, &[], side, scoring, position);
    Analysis::forced_win(moves, pv, nodes, position, scoring)
}

#[cfg(test)]
mod tests;
