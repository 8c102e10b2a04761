//! Alpha-beta search for every board other than 3 × 3.
//!
//! Negamax with alpha-beta and iterative deepening, a transposition table keyed by the
//! symmetry-reduced Zobrist key (8 symmetries on a square board, 4 on a rectangle), and the
//! m,n,k-specific shortcuts that make small boards solvable in milliseconds:
//!
//! - an immediate win ends the node; two opponent threats on different cells lose at once; a single
//!   opponent threat forces the block (searched without using up depth);
//! - a move making two threats on different cells (when the opponent has none) wins in three plies;
//! - when neither side can complete any window any more the position is a proven draw, and when one
//!   side cannot, the score is bounded by a draw;
//! - more generally, a side cannot win when its opponent has a *pairing strategy*: disjoint pairs
//!   of empty cells, one pair inside every window the side can still complete (the opponent
//!   answers a stone in a pair with the other cell). Looked for with a small step budget when it
//!   would settle the node; it proves the 4 × 4, 5 × 4 and 5 × 5 (k = 4) draws in a few
//!   thousand nodes;
//! - at the depth limit a static evaluation counts the windows each side can still complete,
//!   weighted steeply by the stones already in them, plus a small bonus for stones near the
//!   centre.
//!
//! **Honesty.** Every node counts the static evaluations it depends on. A result with none behind it
//! is proven (the table marks such entries valid at any depth); a win or loss found within the
//! iteration's depth is proven as well. Only proven values are reported as [`Evaluation::Exact`];
//! everything else is a [`Evaluation::Heuristic`] strictly inside (-1, 1).
//!
//! **Memory.** The table has a fixed size ([`table::TABLE_BITS`]: 2^20 entries of 16 bytes, 16 MiB)
//! and is borrowed from a small pool for the duration of one search, so memory grows with the
//! number of searches running at once and never with their number over time.

mod board;
mod gomoku;
mod root_threats;
mod table;
mod threats;

use std::time::Instant;

use board::{Board, Side, side_of};
use table::{Bound, Entry, PooledTable, Table};
use threats::Vcf;

use super::{Analysis, Evaluation, MoveScore, Position, Scoring, SearchLimits};

/// Score of a win that ends the game `p` plies after the root: `WIN - p`.
const WIN: i32 = 1_000_000;
/// Scores beyond this in absolute value are wins or losses.
const MATE_BOUND: i32 = WIN - 1_000;
/// Static evaluations stay within this in absolute value.
const HEURISTIC_MAX: i32 = 8_000;
/// Divisor before `tanh` when reporting a static estimate.
const HEURISTIC_SCALE: f64 = 2_000.0;
const INFINITY: i32 = WIN + 1;
/// Nodes between two looks at the clock.
const DEADLINE_CHECK_INTERVAL: u64 = 1024;
/// A small bonus for having the move, in evaluation units.
const TEMPO: i64 = 2;
/// Nodes this close to the horizon skip the table: they are cheaper to search again than a
/// likely cache miss.
const TABLE_MIN_DEPTH: i32 = 3;
/// Pairing strategies against a side are looked for only when it has at most this many windows
/// still open: beyond that they are rare and the search for them costs.
const PAIRING_MAX_LIVE: u32 = 24;
/// Search steps allowed when looking for a pairing strategy.
const PAIRING_BUDGET: u32 = 64;
/// Boards with at most this many empty cells are proven outright after [`SHALLOW_DEPTH`].
const PROOF_JUMP_EMPTIES: i32 = 40;
/// Iterations run before jumping to the full-depth proof on small boards (a fallback answer if
/// the deadline cuts the proof).
const SHALLOW_DEPTH: i32 = 4;
/// Threat search runs on boards with at least this many cells and `k` at least
/// [`THREAT_MIN_K`]: the boards the full search cannot prove (smaller boards keep their exact,
/// shortest-win proofs untouched).
const THREAT_MIN_CELLS: usize = 100;
const THREAT_MIN_K: usize = 4;
/// Most fours in a VCF looked for, and the nodes allowed for the root's own VCF.
const VCF_MAX_FOURS: u32 = 16;
const VCF_ROOT_BUDGET: u64 = 200_000;
/// Nodes allowed when checking whether a root move leaves the opponent a VCF.
const VCF_DEFENCE_BUDGET: u64 = 2_000;

/// Searches a position that is not 3 × 3 tic-tac-toe.
pub fn analyze(position: &Position, scoring: Scoring, limits: &SearchLimits) -> Analysis {
    if gomoku::applies(position) {
        return gomoku::analyze(position, scoring, limits);
    }
    let geometry = position.geometry();
    let mut table = PooledTable::acquire();
    let board = Board::new(geometry, position.cells());
    let cells = board.cell_count();
    let mut searcher = Searcher {
        board,
        table: &mut table,
        root_side: side_of(position.to_move()),
        nodes: 0,
        estimates: 0,
        deadline: limits.deadline,
        max_work: limits.max_work,
        check_deadline: false,
        aborted: false,
        history: vec![[0; 2]; cells],
        buffers: vec![Vec::new(); cells + 2],
    };
    let mut root = searcher.root_moves();
    if cells >= THREAT_MIN_CELLS && geometry.k() >= THREAT_MIN_K {
        let mut vcf = Vcf::new(VCF_ROOT_BUDGET);
        let won = vcf.find(&mut searcher.board, searcher.root_side, VCF_MAX_FOURS);
        if let Some(line) = won {
            searcher.nodes += vcf.nodes();
            return searcher.forced_win(position, scoring, &root, line);
        }
        searcher.mark_refuted(&mut root, &mut vcf);
        searcher.nodes += vcf.nodes();
    }
    let empties = searcher.board.empties as i32;
    let last_depth = limits
        .max_depth
        .map_or(empties, |d| d.clamp(1, empties as u32) as i32);
    // Small boards jump from a shallow iteration straight to the full-depth proof: the heuristic
    // iterations in between cost more than they save there.
    let jump_to_proof = empties <= PROOF_JUMP_EMPTIES && last_depth == empties;
    let mut results: Vec<RootResult> = Vec::new();
    let mut completed = 0;
    let mut depth = 1;
    while depth <= last_depth {
        if jump_to_proof && depth > SHALLOW_DEPTH {
            depth = last_depth;
        }
        searcher.check_deadline = depth > 1;
        if depth > 1 && searcher.out_of_budget() {
            break;
        }
        let full_depth = depth == empties;
        let iteration = if limits.all_moves {
            searcher.iterate_all_moves(&root, &results, depth, full_depth)
        } else if full_depth {
            searcher.prove_best_move(&root, &results, depth)
        } else {
            searcher.iterate_best_move(&root, &results, depth, -INFINITY, INFINITY)
        };
        match iteration {
            Iteration::Complete { results: r, done } => {
                results = r;
                completed = depth;
                if done {
                    break;
                }
            }
            Iteration::Aborted { proven } => {
                for (result, found) in results.iter_mut().zip(proven) {
                    if let Some(found) = found {
                        *result = found;
                    }
                }
                break;
            }
            Iteration::FailHigh | Iteration::FailLow => {
                unreachable!("a full window cannot fail")
            }
        }
        depth += 1;
    }

    let empty_before = position.empty_count();
    let moves = root
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
    let mut analysis = Analysis::from_moves(moves, searcher.nodes, Some(completed as u32));
    let best = root
        .iter()
        .find(|m| m.cell == analysis.best)
        .expect("the best move is a root move");
    analysis.pv = searcher.principal_variation(best.cell, results[best.representative], completed);
    analysis
}

/// A legal move at the root.
struct RootMove {
    cell: usize,
    /// Position in the root list of the first move leading to the same position up to symmetry
    /// (the move itself when it is the first); only representatives are searched.
    representative: usize,
    /// Static ordering priority.
    priority: i32,
    /// Whether the move leaves the opponent a win by continuous fours: such moves are not
    /// searched while another move is left, and score below every searched move.
    refuted: bool,
}

/// What the search knows about one root move.
#[derive(Clone, Copy, Debug)]
struct RootResult {
    value: i32,
    /// `Exact` or `Upper` (a move that failed low against a better one).
    bound: Bound,
    /// Whether the value (or bound) holds whatever lies beyond the horizon.
    proven: bool,
}

impl RootResult {
    /// A move that leaves the opponent a VCF: below every estimate, not proven (the opponent's
    /// fastest win was not searched for).
    const REFUTED: Self = Self {
        value: -HEURISTIC_MAX - 1,
        bound: Bound::Upper,
        proven: false,
    };

    fn evaluation(self, max_score: i32) -> Evaluation {
        if self.proven && self.bound == Bound::Exact {
            Evaluation::Exact(depth_score(self.value, max_score))
        } else {
            Evaluation::Heuristic(estimate(self.value))
        }
    }
}

enum Iteration {
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

/// Turns an internal proven score into the API's depth score: `W - p` for a win in `p` plies,
/// `p - W` for a loss, 0 for a draw, with `W = max_score`.
fn depth_score(value: i32, max_score: i32) -> i32 {
    if value > MATE_BOUND {
        max_score - plies_of(value)
    } else if value < -MATE_BOUND {
        plies_of(value) - max_score
    } else {
        debug_assert_eq!(value, 0, "a proven non-decisive value is a draw");
        0
    }
}

/// A static estimate or bound mapped strictly inside (-1, 1), keeping the order of the internal
/// scores (a win bound maps above every estimate, a loss bound below).
fn estimate(value: i32) -> f64 {
    let clamped = value.clamp(-(HEURISTIC_MAX + 1), HEURISTIC_MAX + 1);
    0.998 * (f64::from(clamped) / HEURISTIC_SCALE).tanh()
}

/// Plies from the root to the end of the game for a decisive score.
fn plies_of(value: i32) -> i32 {
    WIN - value.abs()
}

/// A score relative to the root, as stored relative to the node at `ply`.
fn to_table(score: i32, ply: i32) -> i32 {
    if score > MATE_BOUND {
        score + ply
    } else if score < -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

/// A stored node-relative score, back relative to the root.
fn from_table(score: i32, ply: i32) -> i32 {
    if score > MATE_BOUND {
        score - ply
    } else if score < -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

struct Searcher<'t> {
    board: Board,
    table: &'t mut Table,
    root_side: Side,
    nodes: u64,
    /// Static evaluations (and unproven table entries) used so far: a result whose search did
    /// not move this counter is proven.
    estimates: u64,
    deadline: Option<Instant>,
    /// The work budget (nodes plus pairing steps), if any.
    max_work: Option<u64>,
    check_deadline: bool,
    aborted: bool,
    history: Vec<[i64; 2]>,
    /// A move list per ply, reused to avoid allocating in the search.
    buffers: Vec<Vec<(i64, u16)>>,
}

impl Searcher<'_> {
    fn side_at(&self, ply: i32) -> Side {
        self.root_side ^ (ply as usize & 1)
    }

    /// Whether the work budget is spent or the deadline has passed. The work is counted at
    /// deterministic points (every [`DEADLINE_CHECK_INTERVAL`] nodes), so a search stopped by
    /// its work budget stops at the same node every time.
    fn out_of_budget(&self) -> bool {
        self.max_work
            .is_some_and(|w| self.nodes + self.board.pairing_steps >= w)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The legal moves at the root, ascending, with twins under symmetry pointing to the first.
    fn root_moves(&mut self) -> Vec<RootMove> {
        let side = self.root_side;
        let mut moves: Vec<RootMove> = Vec::new();
        let mut seen: Vec<(u64, usize)> = Vec::new();
        for cell in 0..self.board.cell_count() {
            if !self.board.is_empty(cell) {
                continue;
            }
            let priority = self.board.move_priority(cell, side);
            self.board.play(cell, side);
            let (key, _) = self.board.canonical_key();
            self.board.undo(cell, side);
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

    /// The value of root move `cell` searched to `depth` plies (the move included) with the
    /// window `(alpha, beta)`, and whether it is proven.
    fn root_value(&mut self, cell: usize, depth: i32, alpha: i32, beta: i32) -> (i32, bool) {
        let side = self.root_side;
        if self.board.wins_at(cell, side) {
            return (WIN - 1, true);
        }
        let before = self.estimates;
        self.board.play(cell, side);
        let value = -self.search(depth - 1, 1, -beta, -alpha);
        self.board.undo(cell, side);
        let proven =
            self.estimates == before || (value.abs() > MATE_BOUND && plies_of(value) <= depth);
        (value, proven)
    }

    /// Every representative root move searched with a full window, so each gets its own value.
    fn iterate_all_moves(
        &mut self,
        root: &[RootMove],
        previous: &[RootResult],
        depth: i32,
        full_depth: bool,
    ) -> Iteration {
        let mut results: Vec<Option<RootResult>> = root.iter().map(|_| None).collect();
        for (i, m) in root.iter().enumerate() {
            if m.representative != i {
                continue;
            }
            if m.refuted {
                results[i] = Some(RootResult::REFUTED);
                continue;
            }
            if let Some(p) = previous
                .get(i)
                .filter(|p| p.proven && p.bound == Bound::Exact)
            {
                results[i] = Some(*p);
                continue;
            }
            let (value, proven) = if full_depth {
                self.exact_root_value(m.cell, depth)
            } else {
                self.root_value(m.cell, depth, -INFINITY, INFINITY)
            };
            if self.aborted {
                return Iteration::Aborted {
                    proven: results
                        .into_iter()
                        .map(|r| r.filter(|r| r.proven))
                        .collect(),
                };
            }
            results[i] = Some(RootResult {
                value,
                bound: Bound::Exact,
                proven,
            });
        }
        let results: Vec<RootResult> = fill_twins(root, results);
        let done = results.iter().all(|r| r.proven);
        Iteration::Complete { results, done }
    }

    /// Alpha-beta over the root moves: the best move gets its exact value, the others a bound.
    fn iterate_best_move(
        &mut self,
        root: &[RootMove],
        previous: &[RootResult],
        depth: i32,
        low: i32,
        high: i32,
    ) -> Iteration {
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
        let estimates_before = self.estimates;
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
            if self.aborted {
                return Iteration::Aborted {
                    proven: root.iter().map(|_| None).collect(),
                };
            }
            if value >= high {
                return Iteration::FailHigh;
            }
            if value > window {
                results[i] = Some(RootResult {
                    value,
                    bound: Bound::Exact,
                    proven,
                });
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
            return Iteration::FailLow;
        };
        let best_value = alpha;
        let all_proven = self.estimates == estimates_before;
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
                if self.aborted {
                    return self.lost_fallback(root, results, best);
                }
                results[i] = Some(RootResult {
                    value,
                    bound: Bound::Exact,
                    proven,
                });
                done &= proven;
            }
        }
        Iteration::Complete {
            results: fill_twins(root, results),
            done,
        }
    }

    /// The full-depth iteration in best-move mode: first only win, draw or loss (the narrow
    /// window `(-1, 1)`, which is all a draw needs), then the exact distance of a win or a loss.
    fn prove_best_move(
        &mut self,
        root: &[RootMove],
        previous: &[RootResult],
        depth: i32,
    ) -> Iteration {
        match self.iterate_best_move(root, previous, depth, -1, 1) {
            Iteration::FailHigh => self.iterate_best_move(root, previous, depth, 0, INFINITY),
            Iteration::FailLow => {
                self.iterate_best_move(root, previous, depth, -INFINITY, INFINITY)
            }
            other => other,
        }
    }

    /// The exact value of root move `cell`, searched to `depth`: a draw test first, then a
    /// search for the exact length of a win or a loss.
    fn exact_root_value(&mut self, cell: usize, depth: i32) -> (i32, bool) {
        let (value, proven) = self.root_value(cell, depth, -1, 1);
        if self.aborted || value.abs() < 1 {
            (value, proven)
        } else if value >= 1 {
            self.root_value(cell, depth, 0, INFINITY)
        } else {
            self.root_value(cell, depth, -INFINITY, 0)
        }
    }

    /// When time runs out while giving every move of a lost position its value: report what is
    /// not proven as unknown, below the best move.
    fn lost_fallback(
        &self,
        root: &[RootMove],
        results: Vec<Option<RootResult>>,
        best: usize,
    ) -> Iteration {
        let results = results
            .into_iter()
            .enumerate()
            .map(|(i, r)| {
                r.map(|r| {
                    if r.bound == Bound::Exact && r.proven {
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
        Iteration::Complete {
            results: fill_twins(root, results),
            done: true,
        }
    }

    /// The expected line of best play from the root, starting with `first` (the best move, whose
    /// result is `result`), read from what the search left behind: the table's moves (mapped back
    /// from the canonical orientation) and the search's own shortcuts (an immediate win, a forced
    /// block, a double threat), the same choices in the same order as [`Self::search`]. No move is
    /// searched. The line stops when the game ends, when nothing is known about the position, or
    /// after the plies the result covers (the win or loss distance, the board for a draw, the
    /// completed depth for an estimate). A proven result's line must end as the result says (the
    /// right side winning at the right ply, or no line for a draw); when it does not, some table
    /// move along it is not best play and only `first` is kept.
    fn principal_variation(
        &mut self,
        first: usize,
        result: RootResult,
        completed: i32,
    ) -> Vec<usize> {
        let exact = result.proven && result.bound == Bound::Exact;
        let decisive = exact && result.value.abs() > MATE_BOUND;
        let cap = if decisive {
            plies_of(result.value)
        } else if exact {
            self.board.empties as i32
        } else {
            completed.max(1)
        }
        .clamp(1, self.board.empties.max(1) as i32) as usize;
        let mut line: Vec<usize> = Vec::new();
        let mut side = self.root_side;
        let mut next = Some(first);
        // Who completed a line, if the game ended that way.
        let mut winner = None;
        while let Some(cell) = next.take() {
            if cell >= self.board.cell_count() || !self.board.is_empty(cell) {
                break;
            }
            let wins = self.board.wins_at(cell, side);
            self.board.play(cell, side);
            line.push(cell);
            if wins {
                winner = Some(side);
                break;
            }
            side = 1 - side;
            if line.len() >= cap || self.board.empties == 0 || self.board.live == [0, 0] {
                break;
            }
            next = self.known_move(side);
        }
        // Restore the root position.
        let mut mover = self.root_side ^ ((line.len() + 1) & 1);
        for &cell in line.iter().rev() {
            self.board.undo(cell, mover);
            mover = 1 - mover;
        }
        if exact {
            let expected = if decisive {
                let winner = if result.value > 0 {
                    self.root_side
                } else {
                    1 - self.root_side
                };
                Some((winner, plies_of(result.value) as usize))
            } else {
                None
            };
            let consistent = match (expected, winner) {
                (Some((w, p)), Some(found)) => w == found && line.len() == p,
                // Stopped early for want of knowledge: fine; reaching the cap is not.
                (Some((_, p)), None) => line.len() < p,
                (None, found) => found.is_none(),
            };
            if !consistent {
                line.truncate(1);
            }
        }
        line
    }

    /// The move the search would play for `side` in the current position, as far as it is known
    /// without searching: an immediate win, the block of a single threat, a double threat, or
    /// the table's move.
    fn known_move(&mut self, side: Side) -> Option<usize> {
        let other = 1 - side;
        if self.board.threats[side] > 0 {
            return self.board.threat_cells(side).0;
        }
        if self.board.threats[other] > 0 {
            // With two threats against it every move loses at once: blocking one is as good as
            // any.
            return self.board.threat_cells(other).0;
        }
        if self.board.twos[side] >= 2
            && let Some(cell) = self.board.double_threat_cell(side)
        {
            return Some(cell);
        }
        let (key, symmetry) = self.board.canonical_key();
        let cell = self
            .table
            .probe(key)?
            .best
            .filter(|&m| m < self.board.cell_count())
            .map(|m| self.board.actual_cell(symmetry, m))?;
        (cell < self.board.cell_count() && self.board.is_empty(cell)).then_some(cell)
    }

    /// Static evaluation for `side` to move, within `±HEURISTIC_MAX`.
    fn evaluate(&self, side: Side) -> i32 {
        let raw = self.board.weight[side] - self.board.weight[1 - side] + self.board.centre[side]
            - self.board.centre[1 - side]
            + TEMPO;
        raw.clamp(-i64::from(HEURISTIC_MAX), i64::from(HEURISTIC_MAX)) as i32
    }

    /// Whether `side` provably cannot win: the opponent can pair off every window `side` can
    /// still complete (looked for only when few are open).
    fn cannot_win(&mut self, side: Side) -> bool {
        self.board.live[side] <= PAIRING_MAX_LIVE
            && self.board.defender_pairs_off(side, PAIRING_BUDGET)
    }

    /// The value of playing `cell` for `side` at the node `ply` plies deep.
    fn child_value(
        &mut self,
        cell: usize,
        side: Side,
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

    /// Negamax with alpha-beta (fail-soft) from the node `ply` plies below the root, `depth`
    /// plies before the horizon. Scores are relative to the root: a win ending at ply `p` is
    /// `WIN - p` for the side that makes it.
    fn search(&mut self, depth: i32, ply: i32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.check_deadline
            && self.nodes.is_multiple_of(DEADLINE_CHECK_INTERVAL)
            && self.out_of_budget()
        {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let side = self.side_at(ply);
        let other = 1 - side;
        if self.board.threats[side] > 0 {
            return WIN - (ply + 1);
        }
        if self.board.empties == 0 || self.board.live == [0, 0] {
            return 0;
        }
        let mut forced = None;
        if self.board.threats[other] > 0 {
            let (first, more) = self.board.threat_cells(other);
            if more {
                return -(WIN - (ply + 2));
            }
            forced = first;
        } else if self.board.twos[side] >= 2 && self.board.double_threat_cell(side).is_some() {
            return WIN - (ply + 3);
        }
        // No immediate win, so our next chance ends the game at ply + 3; the opponent has no
        // threat left standing after our move, so its first chance is ply + 4.
        let best_possible = if self.board.live[side] == 0 {
            0
        } else {
            WIN - (ply + 3)
        };
        let worst_possible = if self.board.live[other] == 0 {
            0
        } else {
            -(WIN - (ply + 4))
        };
        if best_possible <= alpha {
            return best_possible;
        }
        if worst_possible >= beta {
            return worst_possible;
        }
        if depth <= 0 && forced.is_none() {
            self.estimates += 1;
            return self.evaluate(side);
        }

        let (key, symmetry) = self.board.canonical_key();
        let mut hash_move = None;
        let use_table = depth >= TABLE_MIN_DEPTH;
        if let Some(entry) = self.table.probe(key).filter(|_| use_table) {
            hash_move = entry
                .best
                .map(|m| self.board.actual_cell(symmetry, m))
                .filter(|&m| self.board.is_empty(m));
            if entry.proven || entry.depth >= depth {
                let score = from_table(entry.score, ply);
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if usable {
                    if !entry.proven {
                        self.estimates += 1;
                    }
                    return score;
                }
            }
        }

        // A pairing strategy for the defender proves that a side cannot win: worth a try when
        // that alone settles the node (or both sides' together do).
        {
            let bound = if alpha >= 0 {
                self.cannot_win(side).then_some(Bound::Upper)
            } else if beta <= 0 {
                self.cannot_win(other).then_some(Bound::Lower)
            } else {
                (self.cannot_win(side) && self.cannot_win(other)).then_some(Bound::Exact)
            };
            if let Some(bound) = bound {
                if use_table {
                    self.table.store(
                        key,
                        Entry {
                            score: 0,
                            bound,
                            depth,
                            proven: true,
                            best: hash_move.map(|m| self.board.canonical_cell(symmetry, m)),
                        },
                    );
                }
                return 0;
            }
        }

        let estimates_before = self.estimates;
        let alpha_start = alpha;
        let child_depth = if forced.is_some() { depth } else { depth - 1 };
        let mut best = -INFINITY;
        let mut best_move = None;
        // The table's move first, before the others are generated: it often cuts at once.
        let first = forced.or(hash_move);
        if let Some(cell) = first {
            let value = self.child_value(cell, side, child_depth, ply, alpha, beta);
            if self.aborted {
                return 0;
            }
            best = value;
            best_move = Some(cell);
            alpha = alpha.max(value);
        }
        let mut moves = std::mem::take(&mut self.buffers[ply as usize]);
        moves.clear();
        if forced.is_none() && best < beta {
            // Dead cells lead to positions of equal value: one of them is enough.
            let mut dead_seen = first.is_some_and(|c| self.board.is_dead(c));
            for cell in 0..self.board.cell_count() {
                if !self.board.is_empty(cell) || Some(cell) == first {
                    continue;
                }
                if self.board.is_dead(cell) {
                    if dead_seen {
                        continue;
                    }
                    dead_seen = true;
                }
                let priority = i64::from(self.board.move_priority(cell, side)) * 1024
                    + self.history[cell][side].min(1023);
                moves.push((priority, cell as u16));
            }
            moves.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        }
        for &(_, cell) in &moves {
            let cell = cell as usize;
            let value = self.child_value(cell, side, child_depth, ply, alpha, beta);
            if self.aborted {
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
        if let Some(cell) = best_move.filter(|_| best >= beta) {
            let bonus = i64::from(depth.max(1));
            self.history[cell][side] += bonus * bonus;
        }
        self.buffers[ply as usize] = moves;
        if self.aborted {
            return 0;
        }
        let bound = if best <= alpha_start {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if !use_table {
            return best;
        }
        self.table.store(
            key,
            Entry {
                score: to_table(best, ply),
                bound,
                depth,
                proven: self.estimates == estimates_before,
                best: best_move.map(|m| self.board.canonical_cell(symmetry, m)),
            },
        );
        best
    }
}

/// Copies each representative's result to its twins.
fn fill_twins(root: &[RootMove], results: Vec<Option<RootResult>>) -> Vec<RootResult> {
    root.iter()
        .map(|m| results[m.representative].expect("every representative is searched"))
        .collect()
}
