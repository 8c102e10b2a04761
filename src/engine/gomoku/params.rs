//! The big-board search's tuned constants in one place, each with its note (as c4's
//! `settings.h` and Rapfi's `parameter.h`): work budgets, pruning margins and depths, move
//! limits and ordering bonuses. Values marked "Tuned by match" were chosen by SPRT matches
//! (docs/strength.md); change one only with a match that says it gains.

// The search below the root (`negamax.rs`).

/// Most attacker fours in a VCF.
pub(super) const VCF_MAX_FOURS: u32 = 12;
/// Nodes allowed for the VCF at a leaf.
pub(super) const VCF_LEAF_BUDGET: u64 = 64;
/// Nodes allowed for the opponent's VCF at an inner node.
pub(super) const VCF_DEFENCE_BUDGET: u64 = 256;
/// Inner nodes at least this deep look for the opponent's VCF before choosing quiet moves.
pub(super) const DEFENCE_MIN_DEPTH: i32 = 2;
/// Quiet moves kept at an inner node (chosen by match: docs/strength.md, "Tuned by match").
pub(super) const MAX_QUIET_MOVES: usize = 16;
/// Moves searched at full depth before late-move reductions start.
pub(super) const FULL_DEPTH_MOVES: usize = 3;
/// Late-move reductions: `ln(depth) ln(index) / LMR_DIVISOR` plies (see the module docs).
pub(super) const LMR_DIVISOR: f64 = 1.5;
/// Evaluation margin a ply of depth for reverse futility and futility pruning.
pub(super) const PRUNE_MARGIN: i32 = 150;
/// Deepest nodes pruned by reverse futility (static evaluation above beta by the margin).
pub(super) const REVERSE_FUTILITY_DEPTH: i32 = 4;
/// Deepest nodes pruned by futility (quiet moves that cannot raise alpha by the margin).
pub(super) const FUTILITY_DEPTH: i32 = 3;
/// Deepest nodes pruned by move count (late-move pruning).
pub(super) const MOVE_COUNT_DEPTH: i32 = 4;
/// Quiet moves kept by late-move pruning: this many plus the depth squared.
pub(super) const MOVE_COUNT_BASE: usize = 2;
/// Shallowest node that tries a null move.
pub(super) const NULL_MOVE_DEPTH: i32 = 3;

// The root: its own threat searches and the check of each move (`root.rs`).

/// Nodes allowed for the root's own VCF, over all its rounds.
pub(super) const ROOT_VCF_BUDGET: u64 = 200_000;
/// The most fours of each round of the root's VCF, short wins first (real games have VCFs of 14
/// fours).
pub(super) const ROOT_VCF_FOURS: [u32; 3] = [6, 12, 30];
/// Most nodes for the root's VCT (attack).
pub(super) const VCT_BUDGET: u64 = 100_000;
/// The root VCT's share of the work budget (1 / this): a twelfth (calibrated with the root's
/// `nodes_for_work`; docs/strength.md, "Tuned by match").
pub(super) const VCT_SHARE: u64 = 12;
/// Most attacker threats in the root's VCT.
pub(super) const VCT_MAX_THREATS: u32 = 8;
/// Nodes for the check, before the search, of whether a root move leaves the opponent a VCT: at
/// least this many a move; more when the opponent's VCT on a pass took more, up to
/// [`VCT_MOVE_MAX`].
pub(super) const VCT_SAFETY_BUDGET: u64 = 1_500;
/// The most nodes for that check of one root move.
pub(super) const VCT_MOVE_MAX: u64 = 40_000;
/// Nodes for checking the best move again, more deeply, after each iteration.
pub(super) const VCT_BEST_BUDGET: u64 = 30_000;
/// Nodes for the opponent's VCT if the side to move passed (at most a quarter of the work
/// budget): without one, no move leaves one (a stone more never helps the opponent), and the
/// moves are not checked one by one (the size: docs/strength.md, "Tuned by match").
pub(super) const VCT_PASS_BUDGET: u64 = 40_000;
/// With a VCT on a pass, the moves are checked best first (by their cell values) until this
/// many hold, and then on while the checks together have taken fewer nodes than the pass check
/// was allowed; only the moves that hold are searched.
pub(super) const SAFE_MOVES_WANTED: usize = 5;

// Move ordering (`moves.rs`).

/// Bonus in ordering for the table's move: always first.
pub(super) const TABLE_MOVE_BONUS: i32 = 1 << 28;
/// Bonus in ordering for killer moves: after the table's move, before the rest.
pub(super) const KILLER_BONUS: i32 = 1 << 20;

// Threat sequences, VCF and VCT (`threats.rs`).

/// After its first threat, the attacker's next threat is a double one (two threes, a four and a
/// three, ...) anywhere, or a single one on a line through its last threat at most this far from
/// it. Threat sequences build on their own stones; without this rule every three on the board
/// is tried at every step and the search, wide, reaches few threats within its budget.
pub(super) const VCT_REACH: usize = 4;
/// Nodes the VCF checks inside a VCT may use each.
pub(super) const VCT_VCF_BUDGET: u64 = 400;
/// Most fours in the VCF checks of a VCT.
pub(super) const VCF_MAX_FOURS_IN_VCT: u32 = 10;
