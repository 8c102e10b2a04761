//! The gravity solver's tuned constants in one place, each with its note (as c4's
//! `settings.h`): where enhanced transposition cutoffs run, and how many threads analyse the
//! moves. A change of one is measured with the Connect Four benches and
//! `scripts/ops/connect4-latency.sh` (docs/connect4.md) before it lands.

// The search (`search.rs`).

/// Enhanced transposition cutoffs are tried at nodes with more empty cells than this.
pub(super) const ETC_BEFORE_END: i32 = 10;

// The analysis of every move (`root.rs`).

/// The threads that narrow the moves of one analysis when it has no work budget, sharing its
/// table: a search slot of the service stays one slot, and on an idle machine its moves are
/// searched two at a time. With a work budget the analysis keeps to one thread, so that the
/// budget stops it at the same node every time.
pub(super) const ANALYSIS_THREADS: usize = 2;
