//! The one entry point: [`suggest`] analyses a position, chooses the move to play and says what
//! it leads to. The HTTP and MCP front doors and the page call it; the Gomocup mode calls
//! [`analyze`] and chooses from its move table itself.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};

use crate::engine::analysis::{Analysis, MoveScore, Scoring};
use crate::engine::choose::{Difficulty, TieBreak, choose};
use crate::engine::explain::explanation;
use crate::engine::game::{Played, Player, Position};
use crate::engine::limits::SearchLimits;

/// Everything [`suggest`] needs besides the position. All of it is plain data: the randomness
/// comes from [`seed`](Self::seed), so the same options give the same suggestion.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SuggestOptions {
    /// How scores are counted.
    pub scoring: Scoring,
    /// Bounds on the search (ignored on 3 × 3, which is always exact).
    pub limits: SearchLimits,
    /// How strong the chosen move is.
    pub difficulty: Difficulty,
    /// How to choose among equally good moves.
    pub tie_break: TieBreak,
    /// Seed of the random choices that `difficulty` below perfect or a random tie-break make.
    /// Callers that want varying answers pass a fresh random seed.
    pub seed: u64,
}

impl SuggestOptions {
    /// Whether the choice involves chance, so that the seed matters.
    #[must_use]
    pub fn uses_chance(&self) -> bool {
        self.difficulty != Difficulty::Perfect || self.tie_break == TieBreak::Random
    }
}

/// The engine's full answer for a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Suggestion {
    /// Every legal move scored, and the best of them.
    pub analysis: Analysis,
    /// The move to play (the best one at `Difficulty::Perfect`).
    pub chosen: MoveScore,
    /// The side that plays it.
    pub player: Player,
    /// The expected line of play starting with the chosen move: on 3 × 3 to the end of the game,
    /// on larger boards as far as the search recorded it; never empty.
    pub pv: Vec<usize>,
    /// The board and the game after the chosen move.
    pub after: Played,
    /// One plain-English sentence about the chosen move (see [`explanation`]), made from
    /// `chosen`, the best move and `after.result`.
    pub explanation: String,
    /// The seed the choice used, when chance was involved.
    pub seed: Option<u64>,
}

impl Suggestion {
    /// The best move of the analysis (the chosen one at `Difficulty::Perfect`).
    #[must_use]
    pub fn best(&self) -> &MoveScore {
        self.analysis.best_move()
    }
}

/// Analyses a position: the gravity solver on gravity boards, the solved table on 3 × 3, the big-board engine on boards of 100 cells or
/// more with `k` from 4 to 6, otherwise the small-board solver, both searches within `limits`.
///
/// ```
/// use minimax_move::engine::{analyze, Geometry, Position, Scoring, SearchLimits};
/// let cells = Position::parse_compact("O.XX.X.OO").unwrap();
/// let position = Position::new(Geometry::TIC_TAC_TOE, cells, None).unwrap();
/// let analysis = analyze(&position, Scoring::Depth, &SearchLimits::default());
/// assert_eq!(analysis.best, 4);
/// assert_eq!(analysis.best_move().value.score(), 9.0);
/// ```
#[must_use]
pub fn analyze(position: &Position, scoring: Scoring, limits: &SearchLimits) -> Analysis {
    if position.geometry().is_tic_tac_toe() {
        return super::solved::analyze(position, scoring);
    }
    let mut analysis = if position.geometry().is_gravity() {
        super::gravity::analyze(position, scoring, limits)
    } else if super::gomoku::applies(position) {
        super::gomoku::analyze(position, scoring, limits)
    } else {
        super::solver::analyze(position, scoring, limits)
    };
    super::tactics::settle(position, &mut analysis, scoring);
    analysis
}

/// The expected line of best play starting with `first` (which must be legal): `first`, then each
/// side's best reply (lowest index among equals) until the game ends.
///
/// On 3 × 3 every step is a table lookup and the line runs to the end of the game. Larger boards
/// would need a search per step, so there the line is `first` alone.
///
/// # Panics
/// If `first` is not an empty cell of `position`.
#[must_use]
pub fn principal_variation(position: &Position, first: usize) -> Vec<usize> {
    assert!(
        position.cells().get(first) == Some(&None),
        "the first move must be an empty cell"
    );
    if position.geometry().is_tic_tac_toe() {
        super::solved::principal_variation(position, first)
    } else {
        vec![first]
    }
}

/// Suggests a move: analyses `position`, chooses the move at the requested difficulty, and
/// describes the line of play, the game after the move and why.
///
/// ```
/// use minimax_move::engine::{suggest, Geometry, Outcome, Position, SuggestOptions};
/// let cells = Position::parse_compact("O.XX.X.OO").unwrap();
/// let position = Position::new(Geometry::TIC_TAC_TOE, cells, None).unwrap();
/// let suggestion = suggest(&position, &SuggestOptions::default());
/// assert_eq!(suggestion.chosen.index, 4);
/// assert_eq!(suggestion.chosen.value.outcome(), Some(Outcome::Win));
/// assert_eq!(suggestion.pv, vec![4]);
/// assert_eq!(suggestion.explanation, "X takes 4 and wins at once, completing the middle row.");
/// ```
#[must_use]
pub fn suggest(position: &Position, options: &SuggestOptions) -> Suggestion {
    let analysis = analyze(position, options.scoring, &options.limits);
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
    let mut random = || rng.next_u64();
    let cell = choose(
        position,
        &analysis,
        options.difficulty,
        options.tie_break,
        &mut random,
    );
    let chosen = *analysis.get(cell).expect("the chosen move is legal");
    let after = position
        .try_play(cell)
        .expect("the engine only suggests legal moves");
    let pv = if cell == analysis.best && analysis.pv.len() > 1 {
        analysis.pv.clone()
    } else {
        principal_variation(position, cell)
    };
    let explanation = explanation(
        position,
        &chosen,
        analysis.best_move(),
        after.result.as_ref(),
        &pv,
    );
    Suggestion {
        chosen,
        player: position.to_move(),
        pv,
        after,
        explanation,
        seed: options.uses_chance().then_some(options.seed),
        analysis,
    }
}
