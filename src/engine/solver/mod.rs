//! The small-board solver: alpha-beta search for the m,n,k boards other than 3 × 3 that the
//! big-board engine does not play, and the proofs that make most of them exact.
//!
//! Negamax with alpha-beta and iterative deepening, a transposition table keyed by the
//! symmetry-reduced Zobrist key (8 symmetries on a square board, 4 on a rectangle), and the
//! m,n,k-specific shortcuts that make small boards solvable in milliseconds. One concept per
//! module:
//!
//! - [`deepening`]: the position to analyse, its root moves and the iterations at growing depth;
//! - [`root`]: one iteration over the root moves, and what is known about each;
//! - [`proof`]: which results are proven, and the full-depth proof of small boards;
//!   [`estimates`]: the count that tells them apart;
//! - [`proof_number`]: proof-number search for draws on boards with `k` ≥ 5 up to 7 × 7 (it
//!   proves (7,7,5) a draw in about a second);
//! - [`negamax`]: the recursive search and its shortcuts (immediate wins, forced blocks, double
//!   threats, dead cells, draws when no window is left open);
//! - [`pairing`]: pairing strategies, proofs that a side cannot win: they prove the 4 × 4,
//!   5 × 4 and 5 × 5 (k = 4) draws in a few thousand nodes;
//! - [`eval`]: the static evaluation at the horizon, [`weights`]: its window weights and the
//!   move-ordering bonuses; [`patterns`]: cells
//!   that make a four or a double threat;
//! - [`grid`]: the board with per-window counters kept up to date move by move, [`windows`]:
//!   its windows, [`symmetry`]: its symmetries and Zobrist keys; [`marks`]: scratch sets;
//! - [`rules`]: the gomoku rules other than freestyle (which full windows win, black's forbidden
//!   cells under renju); the freestyle-only shortcuts are switched off under them;
//! - [`pv`]: the principal variation;
//! - [`threats`] and [`root_threats`]: wins by continuous fours at the root of big boards
//!   (with [`board`], the grid and the four-making cells they walk).
//!
//! **Honesty.** Every node counts the static evaluations it depends on. A result with none behind it
//! is proven (the table marks such entries valid at any depth); a win or loss found within the
//! iteration's depth is proven as well. Only proven values are reported as [`Evaluation::Exact`];
//! everything else is a [`Evaluation::Heuristic`] strictly inside (-1, 1).
//!
//! **Memory.** The table has a fixed size (2^20 entries of 16 bytes, 16 MiB: [`crate::engine::core::table`])
//! and is borrowed from a small pool for the duration of one search, so memory grows with the
//! number of searches running at once and never with their number over time.

mod board;
mod deepening;
mod estimates;
mod eval;
mod grid;
mod marks;
mod negamax;
mod pairing;
mod params;
mod patterns;
mod proof;
mod proof_number;
mod pv;
mod root;
mod root_threats;
mod rules;
mod symmetry;
mod threats;
mod weights;
mod windows;

use crate::engine::core::score::HEURISTIC_MAX;
use crate::engine::core::table::{Replacement, Table};
use deepening::Solver;
pub(crate) use proof_number::ProofTable;
use root::{RootMove, RootResult};
use threats::Vcf;

#[cfg(doc)]
use crate::engine::analysis::Evaluation;
use crate::engine::analysis::{Analysis, MoveScore, Scoring};
use crate::engine::core::job::Job;
use crate::engine::game::{Position, Rule};
use params::{THREAT_MIN_K, VCF_MAX_FOURS, VCF_ROOT_BUDGET};

/// Searches a position that is neither 3 × 3 tic-tac-toe nor a big board.
pub fn search(job: Job<'_>) -> Analysis {
    let (tables, position, scoring, limits) = job.parts();
    let geometry = position.geometry();
    let mut table = Table::acquire(tables, Replacement::DeeperAndNewest, geometry);
    let mut searcher = Solver::new(position, &mut table);
    let mut root = searcher.root_moves();
    // The threat search knows freestyle's wins only (the other rules reach this solver on
    // boards below its size anyway).
    if geometry.is_big() && geometry.k() >= THREAT_MIN_K && geometry.rule() == Rule::Freestyle {
        let mut vcf = Vcf::new(VCF_ROOT_BUDGET);
        let won = vcf.find(&mut searcher.board, searcher.root_side, VCF_MAX_FOURS);
        if let Some(line) = won {
            searcher.nodes += vcf.nodes();
            return searcher.forced_win(position, scoring, &root, line);
        }
        searcher.mark_refuted(&mut root, &mut vcf);
        searcher.nodes += vcf.nodes();
    }
    searcher.deepen(position, scoring, limits, &root)
}
