//! What bounds a search: its depth, deadline, work budget and cancel handle, how many moves need
//! values of their own, and who hears of its progress.

use std::time::Instant;

use crate::engine::cancel::Cancel;
use crate::engine::game::Geometry;
use crate::engine::progress::Progress;

/// Bounds on a search. The 3 × 3 table ignores them: it is always exact.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Deepest iteration of iterative deepening, in plies.
    pub max_depth: Option<u32>,
    /// When to stop and answer with the best move found so far.
    pub deadline: Option<Instant>,
    /// A work budget: stop after this many units of search work (nodes plus pairing-search
    /// steps) and answer with the best move found so far. Unlike a deadline it does not depend
    /// on the machine or its load, so the same position and budget give the same answer.
    pub max_work: Option<u64>,
    /// Whether every move needs its own score (a move table, or classic scoring); when false the
    /// search may prove only the best move.
    pub all_moves: bool,
    /// How many of the best moves need values of their own, best first (multi-PV): the search
    /// gives the first this many an open window, so their values are what the search found for
    /// each, not bounds against the best. 0 and 1 ask for the best move only; `all_moves` asks
    /// for every move.
    pub multi_pv: usize,
    /// Stops the search early when raised (see [`Cancel`]); the default is never raised.
    pub cancel: Cancel,
    /// Called after each completed iteration of iterative deepening (see [`Progress`]); the
    /// default calls nothing.
    pub progress: Progress,
}

/// Units of search work per millisecond, times the number of cells, that
/// [`SearchLimits::work_for`] grants. A node costs about as many operations as the board has
/// cells, so the budget is scaled down on big boards. Calibrated to the *median* 15 × 15 game
/// position on the reference 2-core machine (docs/performance.md):
/// this grants about 1,067 units/ms on 15 × 15, and since the big-board engine charges 9/10 of
/// a unit a node (`nodes_for_work` in `gomoku/root.rs`), the median 15 × 15 midgame search
/// at 0.5 s a move spends about two thirds of its time limit (a median 332 ms of 450 in matches;
/// docs/performance.md). Positions slower than that,
/// smaller boards, and loaded machines reach the deadline first; their answers then depend on the
/// clock (docs/engine.md says what still reproduces).
pub const WORK_PER_MS_TIMES_CELLS: u64 = 240_000;

impl SearchLimits {
    /// Whether a search that proves values cheaply (the small-board solver) should give every
    /// move its own value: for a move table, or for more than one best move (multi-PV).
    #[must_use]
    pub const fn every_move(&self) -> bool {
        self.all_moves || self.multi_pv > 1
    }

    /// The work budget matching a time limit of `millis` on `geometry`'s board: about two thirds
    /// of the time for the median 15 × 15 midgame on the reference machine, so that the budget,
    /// not the clock, usually stops the search and the answer does not depend on the machine's
    /// load.
    ///
    /// ```
    /// use minimax_move::engine::{Geometry, SearchLimits};
    /// let gomoku = Geometry::new(15, 15, 5).unwrap();
    /// let four = Geometry::new(5, 5, 4).unwrap();
    /// assert_eq!(SearchLimits::work_for(gomoku, 1_000), 1_066_666);
    /// assert!(SearchLimits::work_for(four, 1_000) > SearchLimits::work_for(gomoku, 1_000));
    /// ```
    #[must_use]
    pub fn work_for(geometry: Geometry, millis: u64) -> u64 {
        Self::work_at_rate(geometry, millis, WORK_PER_MS_TIMES_CELLS)
    }

    /// As [`work_for`](Self::work_for), at `rate` units per millisecond times cells instead of
    /// [`WORK_PER_MS_TIMES_CELLS`]: for a machine calibrated with `prove --calibrate`.
    ///
    /// ```
    /// use minimax_move::engine::{Geometry, SearchLimits};
    /// let gomoku = Geometry::new(15, 15, 5).unwrap();
    /// assert_eq!(SearchLimits::work_at_rate(gomoku, 1_000, 22_500), 100_000);
    /// ```
    #[must_use]
    pub fn work_at_rate(geometry: Geometry, millis: u64, rate: u64) -> u64 {
        millis.saturating_mul(rate) / geometry.cells().max(1) as u64
    }
}
