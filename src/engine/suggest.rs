//! The one entry point: [`suggest`] analyses a position, chooses the move to play and says what
//! it leads to. Every front door calls it: HTTP and the page, MCP, the review (for each
//! position of the game) and the Gomocup brain.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};

use crate::engine::analysis::{Analysis, MoveScore, MoveValue, Scoring, best_of};
use crate::engine::choose::{Difficulty, TieBreak, choose};
use crate::engine::core::job::Job;
use crate::engine::core::pool::Tables;
use crate::engine::explain::explanation;
use crate::engine::game::{Played, Player, Position};
use crate::engine::limits::SearchLimits;

/// Everything [`Engine::suggest`](crate::engine::Engine::suggest) needs besides the position. All of it is plain data: the randomness
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
#[must_use]
pub(crate) fn analyze(job: Job<'_>) -> Analysis {
    let Job {
        position, scoring, ..
    } = job;
    if position.geometry().is_tic_tac_toe() {
        return super::tic_tac_toe::look_up(position, scoring);
    }
    let mut analysis = if position.geometry().is_gravity() {
        super::gravity::analyze(job)
    } else if super::gomoku::applies(position) {
        super::gomoku::search(job)
    } else {
        super::solver::search(job)
    };
    super::tactics::settle(position, &mut analysis, scoring);
    legal_only(position, &mut analysis);
    analysis
}

/// The one guard against a move the rules forbid: under renju, a cell forbidden to black is no
/// move, whatever an analyser put in its table. The analysers leave such cells out already;
/// this keeps every front door (HTTP, MCP, review, Gomocup) from ever playing one should an
/// analyser not. When a move is dropped the best is picked again from what is left (and the
/// expected line, which started with the old best, is dropped with it).
fn legal_only(position: &Position, analysis: &mut Analysis) {
    if !position.geometry().rule().forbids(position.to_move()) {
        return;
    }
    let before = analysis.moves.len();
    analysis.moves.retain(|m| position.foul(m.index).is_none());
    if analysis.moves.len() == before {
        return;
    }
    if analysis.moves.is_empty() {
        // Unreachable: a position in play has a legal move and every analyser lists them all.
        analysis.moves = position
            .legal_moves()
            .into_iter()
            .map(|index| MoveScore {
                index,
                value: MoveValue::Estimate(0.0),
                searched: false,
            })
            .collect();
    }
    if analysis.get(analysis.best).is_none() {
        analysis.best = analysis.moves[best_of(&analysis.moves)].index;
        analysis.pv.clear();
    }
    analysis
        .preference
        .retain(|&cell| position.foul(cell).is_none());
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
        super::tic_tac_toe::principal_variation(position, first)
    } else {
        vec![first]
    }
}

/// Suggests a move: analyses `position`, chooses the move at the requested difficulty, and
/// describes the line of play, the game after the move and why.
///
#[must_use]
pub(crate) fn suggest(
    tables: &Tables,
    position: &Position,
    options: &SuggestOptions,
) -> Suggestion {
    let analysis = analyze(Job {
        tables,
        position,
        scoring: options.scoring,
        limits: &options.limits,
    });
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::game::{Geometry, Rule};

    /// Black (X, to move) on 15 × 15 under renju with two twos crossing at the centre (cell
    /// 112): playing there makes two open threes, a forbidden double-three.
    fn double_three() -> Position {
        let geometry = Geometry::new(15, 15, 5)
            .and_then(|g| g.with_rule(Rule::Renju))
            .expect("renju 15 x 15");
        let mut cells = vec![None; 225];
        for (r, c) in [(7, 5), (7, 6), (5, 7), (6, 7)] {
            cells[r * 15 + c] = Some(Player::X);
        }
        for (r, c) in [(0, 0), (14, 0), (0, 14), (14, 14)] {
            cells[r * 15 + c] = Some(Player::O);
        }
        Position::new(geometry, cells, None).expect("in play")
    }

    #[test]
    fn a_forbidden_move_in_a_table_is_dropped_and_the_best_legal_move_takes_its_place() {
        let position = double_three();
        assert!(position.foul(112).is_some(), "the centre is a double-three");
        // A table that rates the forbidden centre best, and two legal cells next.
        let value = |index: usize| match index {
            112 => 0.9,
            67 | 113 => 0.5,
            _ => 0.1,
        };
        let moves = position
            .empty_cells()
            .map(|index| MoveScore {
                index,
                value: MoveValue::Estimate(value(index)),
                searched: true,
            })
            .collect();
        let mut analysis = Analysis::from_moves(moves, 1, Some(1));
        analysis.pv = vec![112, 113];
        assert_eq!(analysis.best, 112);
        legal_only(&position, &mut analysis);
        assert_eq!(analysis.best, 67, "the lower of the two next best");
        assert!(analysis.get(112).is_none());
        assert!(analysis.pv.is_empty());
        assert_eq!(analysis.moves.len(), position.legal_moves().len());
    }

    #[test]
    fn suggest_never_plays_a_forbidden_move() {
        let position = double_three();
        let suggestion = suggest(
            &Tables::with_budget(usize::MAX),
            &position,
            &SuggestOptions {
                limits: SearchLimits {
                    max_work: Some(20_000),
                    ..SearchLimits::default()
                },
                ..SuggestOptions::default()
            },
        );
        assert!(position.foul(suggestion.chosen.index).is_none());
        assert!(
            suggestion
                .analysis
                .moves
                .iter()
                .all(|m| position.foul(m.index).is_none())
        );
    }
}
