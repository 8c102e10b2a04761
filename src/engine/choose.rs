//! Picking the move to play from an analysis: difficulty levels and tie-breaking.

use crate::engine::analysis::{Analysis, MoveScore};
use crate::engine::game::{Geometry, Player, Position, Rule, game_result};

/// How strong the suggested move is. Every level takes an immediate win when there is one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Difficulty {
    /// Always a best move.
    #[default]
    Perfect,
    /// A best move with probability 0.8, otherwise a random legal move; always takes an immediate
    /// win and always blocks an immediate loss.
    Hard,
    /// A best move with probability 0.5, otherwise a random legal move; always takes an immediate
    /// win.
    Medium,
    /// A best move with probability 0.2, otherwise a random legal move; always takes an immediate
    /// win.
    Easy,
}

impl Difficulty {
    /// Probability, in percent, of playing a best move before the hard rules apply.
    #[must_use]
    pub const fn best_move_percent(self) -> u64 {
        match self {
            Self::Perfect => 100,
            Self::Hard => 80,
            Self::Medium => 50,
            Self::Easy => 20,
        }
    }
}

/// How to choose among equally good moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum TieBreak {
    /// The lowest index: deterministic.
    #[default]
    First,
    /// Uniformly at random among the equals.
    Random,
}

/// The cells where `player` would complete a line with one move, ascending.
///
/// ```
/// use minimax_move::engine::{immediate_wins, Geometry, Player};
/// let cells = minimax_move::engine::Position::parse_compact("XX.OO....").unwrap();
/// assert_eq!(immediate_wins(Geometry::TIC_TAC_TOE, &cells, Player::X), vec![2]);
/// assert_eq!(immediate_wins(Geometry::TIC_TAC_TOE, &cells, Player::O), vec![5]);
/// ```
#[must_use]
pub fn immediate_wins(geometry: Geometry, cells: &[Option<Player>], player: Player) -> Vec<usize> {
    let mut wins: Vec<usize> = geometry
        .line_list()
        .iter()
        .filter_map(|line| {
            let mut empty = None;
            for &i in line {
                match cells[i] {
                    Some(p) if p == player => {}
                    Some(_) => return None,
                    None if empty.is_none() => empty = Some(i),
                    None => return None,
                }
            }
            empty
        })
        .collect();
    if geometry.is_gravity() {
        let playable = geometry.playable_cells(cells);
        wins.retain(|i| playable.contains(i));
    }
    if geometry.rule() != Rule::Freestyle {
        // A window of five may make an overline or a blocked five: ask the rule.
        let mut after = cells.to_vec();
        wins.retain(|&i| {
            after[i] = Some(player);
            let won = game_result(geometry, &after).is_some_and(|r| r.winner == Some(player));
            after[i] = None;
            won
        });
    }
    wins.sort_unstable();
    wins.dedup();
    wins
}

/// Chooses the move to play: the cell of the chosen move.
///
/// `random` returns uniformly random 64-bit numbers; it is called only when the difficulty or
/// tie-break asks for chance, so `Perfect` with `TieBreak::First` is deterministic whatever it is.
///
/// ```
/// use minimax_move::engine::*;
/// let cells = Position::parse_compact("O.XX.X.OO").unwrap();
/// let position = Position::new(Geometry::TIC_TAC_TOE, cells, None).unwrap();
/// let analysis = Engine::default().analyze(&position, Scoring::Depth, &SearchLimits::default());
/// let mut never = || unreachable!();
/// let chosen = choose(&position, &analysis, Difficulty::Perfect, TieBreak::First, &mut never);
/// assert_eq!(chosen, 4);
/// ```
pub fn choose(
    position: &Position,
    analysis: &Analysis,
    difficulty: Difficulty,
    tie_break: TieBreak,
    random: &mut dyn FnMut() -> u64,
) -> usize {
    let at = if difficulty == Difficulty::Perfect {
        perfect(analysis, tie_break, random)
    } else {
        weakened(position, &analysis.moves, difficulty, tie_break, random)
    };
    analysis.moves[at].index
}

/// The positions in `moves` of the best values among `among`.
fn best_among(moves: &[MoveScore], among: Vec<usize>) -> Vec<usize> {
    let top = among
        .iter()
        .map(|&p| moves[p].value.score())
        .fold(f64::NEG_INFINITY, f64::max);
    among
        .into_iter()
        .filter(|&p| moves[p].value.score() == top)
        .collect()
}

/// One of `pool`, at random unless there is only one.
fn pick(pool: &[usize], random: &mut dyn FnMut() -> u64) -> usize {
    match pool {
        [only] => *only,
        _ => pool[(random() % pool.len() as u64) as usize],
    }
}

/// The perfect choice, as a position in `analysis.moves`: the best moves by the requested
/// scoring. Under classic scoring a slower win scores the same as an immediate one, and the
/// lowest index among them is the contract's answer.
fn perfect(analysis: &Analysis, tie_break: TieBreak, random: &mut dyn FnMut() -> u64) -> usize {
    let moves = &analysis.moves;
    let pool = best_among(moves, (0..moves.len()).collect());
    // The analysis's best move is the first of its equals (the lowest index, unless the engine's
    // own choice was proven equal to moves before it).
    let best = moves.iter().position(|m| m.index == analysis.best);
    match tie_break {
        TieBreak::First => best.filter(|b| pool.contains(b)).unwrap_or(pool[0]),
        TieBreak::Random => pick(&pool, random),
    }
}

/// The choice at a weaker difficulty, as a position in `moves`: immediate wins first, then (on
/// hard) blocks, then the best move `best_move_percent` of the time and any other move the rest.
fn weakened(
    position: &Position,
    moves: &[MoveScore],
    difficulty: Difficulty,
    tie_break: TieBreak,
    random: &mut dyn FnMut() -> u64,
) -> usize {
    let position_of = |index: usize| moves.iter().position(|m| m.index == index);
    let wins = immediate_wins(position.geometry(), position.cells(), position.to_move());
    let forced: Vec<usize> = if !wins.is_empty() {
        wins.iter().filter_map(|&i| position_of(i)).collect()
    } else if difficulty == Difficulty::Hard {
        let threats = immediate_wins(
            position.geometry(),
            position.cells(),
            position.to_move().opponent(),
        );
        threats.iter().filter_map(|&i| position_of(i)).collect()
    } else {
        Vec::new()
    };
    let candidates = if forced.is_empty() {
        (0..moves.len()).collect()
    } else {
        forced
    };
    if random() % 100 < difficulty.best_move_percent() {
        let pool = best_among(moves, candidates);
        match tie_break {
            TieBreak::First => pool[0],
            TieBreak::Random => pick(&pool, random),
        }
    } else {
        pick(&candidates, random)
    }
}
