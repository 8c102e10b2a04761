//! The small-board search's tuned constants in one place, each with its note (as c4's
//! `settings.h` and Rapfi's `parameter.h`): where threat search and proof-number search run,
//! their work budgets, and the table's depth floor. A change of one is measured with
//! `cargo run --release --bin prove` and the benches (docs/performance.md) before it lands.

// Threat search at the root (`mod.rs`, `root_threats.rs`).

/// Threat search runs on big boards with `k` at least this: the boards the full search cannot
/// prove (smaller boards keep their exact, shortest-win proofs untouched).
pub(super) const THREAT_MIN_K: usize = 4;
/// Most fours in a VCF looked for.
pub(super) const VCF_MAX_FOURS: u32 = 16;
/// Nodes allowed for the root's own VCF.
pub(super) const VCF_ROOT_BUDGET: u64 = 200_000;
/// Nodes allowed when checking whether a root move leaves the opponent a VCF.
pub(super) const VCF_DEFENCE_BUDGET: u64 = 2_000;

// Alpha-beta below the root (`negamax.rs`).

/// Nodes this close to the horizon skip the table: they are cheaper to search again than a
/// likely cache miss.
pub(super) const TABLE_MIN_DEPTH: i32 = 3;
/// Pairing strategies against a side are looked for only when it has at most this many windows
/// still open: beyond that they are rare and the search for them costs.
pub(super) const PAIRING_MAX_LIVE: u32 = 24;
/// Search steps allowed when looking for a pairing strategy.
pub(super) const PAIRING_BUDGET: u32 = 64;

// Proof-number search (`proof_number.rs`).

/// In proof-number search, pairing strategies are looked for against an attacker with at most
/// this many open windows.
pub(super) const PROOF_PAIRING_MAX_LIVE: u32 = 36;
/// In proof-number search, the search steps allowed when looking for a pairing strategy.
pub(super) const PROOF_PAIRING_BUDGET: u32 = 128;

// When the search turns to proving (`proof.rs`).

/// Boards with at most this many empty cells are proven outright after [`SHALLOW_DEPTH`].
pub(super) const PROOF_JUMP_EMPTIES: i32 = 40;
/// Iterations run before jumping to the full-depth proof on small boards (a fallback answer if
/// the deadline cuts the proof).
pub(super) const SHALLOW_DEPTH: i32 = 4;
/// Proof-number search ([`super::proof_number`]) proves draws only on boards with `k` at least
/// this (on four-in-a-row boards alpha-beta is as fast or faster).
pub(super) const DRAW_PROOF_MIN_K: usize = 5;
/// Proof-number search proves draws only on boards of at most this many cells: up to 7 × 7, whose draw it proves in about a
/// second. On bigger boards it would spend the whole budget on a question it cannot settle,
/// where the deeper heuristic iterations give a better move.
pub(super) const DRAW_PROOF_MAX_CELLS: usize = 49;

// The static evaluation (`eval.rs`).

/// A small bonus for having the move, in evaluation units.
pub(super) const TEMPO: i64 = 2;
