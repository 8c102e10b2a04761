//! Game review: a whole game replayed move by move, each move compared with the best one in the
//! position it was played from, and labelled.
//!
//! A move's *cost* is how much value its player gave up: the best move's value minus the played
//! move's. On proven values (3 × 3, and whatever the search proves) the labels are exact:
//!
//! - `best`: the move keeps the best value under depth scoring (same outcome, same length);
//! - `good`: the same outcome as the best move, but a slower win or a faster loss (or, for a draw,
//!   a different length);
//! - `blunder`: the proven outcome got worse for the mover (a win thrown to a draw or a loss, a
//!   draw to a loss), or the move lets the opponent win at once where the best move does not
//!   (even when the best move loses later: it leaves the opponent something to find).
//!
//! Whatever the values, a move that lets the opponent win at once where another does not is a
//! `blunder` (every move table proves such moves lost, see [`analyze`](crate::engine::analyze)).
//!
//! When either value is an estimate (a search cut by its budget), both are put on one scale, a
//! proven win 1, a draw 0, a loss -1 and an estimate its value in (-1, 1), and the cost on that
//! scale picks the label: 0 (or less) `best`, below [`GOOD_COST`] `good`, below
//! [`INACCURACY_COST`] `inaccuracy`, below [`MISTAKE_COST`] `mistake`, otherwise `blunder`.

use std::time::Instant;

use crate::engine::analysis::{Analysis, MoveValue, Outcome};
use crate::engine::core::pool::Tables;
use crate::engine::game::{Game, GameResult, Player, Position};
use crate::engine::limits::SearchLimits;
use crate::engine::progress::Progress;
use crate::engine::suggest::{SuggestOptions, principal_variation, suggest};

/// On the estimate scale, a cost below this is `good`.
pub const GOOD_COST: f64 = 0.05;
/// On the estimate scale, a cost below this (and at least [`GOOD_COST`]) is an `inaccuracy`.
pub const INACCURACY_COST: f64 = 0.15;
/// On the estimate scale, a cost below this (and at least [`INACCURACY_COST`]) is a `mistake`;
/// anything more is a `blunder`.
pub const MISTAKE_COST: f64 = 0.35;
/// The share of the budget, in tenths, that the first pass over every position gets; the rest
/// re-searches the positions whose labels hang on estimates.
const FIRST_PASS_TENTHS: u32 = 7;
/// Most positions searched again.
const MAX_RESEARCHES: usize = 8;
/// A change of the chart's value (from X's view) larger than this from one move to the next is
/// a swing worth a second look.
const SWING: f64 = 0.5;
/// Estimates beyond this are wins or losses the search found but did not prove.
const FOUND: f64 = 0.9;

/// How good a move was, from `best` down to `blunder` (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Label {
    /// The best value.
    Best,
    /// The same proven outcome as the best move, or a cost below [`GOOD_COST`].
    Good,
    /// A cost from [`GOOD_COST`] to [`INACCURACY_COST`].
    Inaccuracy,
    /// A cost from [`INACCURACY_COST`] to [`MISTAKE_COST`].
    Mistake,
    /// A worse proven outcome, or a cost of [`MISTAKE_COST`] or more.
    Blunder,
}

impl Label {
    /// Every label, best first.
    pub const ALL: [Self; 5] = [
        Self::Best,
        Self::Good,
        Self::Inaccuracy,
        Self::Mistake,
        Self::Blunder,
    ];

    /// The label as a lower-case word.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Best => "best",
            Self::Good => "good",
            Self::Inaccuracy => "inaccuracy",
            Self::Mistake => "mistake",
            Self::Blunder => "blunder",
        }
    }

    /// The label as a sentence names a move: "a good move", "an inaccuracy".
    #[must_use]
    pub const fn phrase(self) -> &'static str {
        match self {
            Self::Best => "the best move",
            Self::Good => "a good move",
            Self::Inaccuracy => "an inaccuracy",
            Self::Mistake => "a mistake",
            Self::Blunder => "a blunder",
        }
    }

    /// The label of a move worth `played` where the best move is worth `best` (depth scoring).
    ///
    /// ```
    /// use minimax_move::engine::{Label, Outcome, MoveValue};
    /// let win = |plies, score| MoveValue::Proven { outcome: Outcome::Win, plies, score };
    /// let draw = MoveValue::Proven { outcome: Outcome::Draw, plies: 4, score: 0 };
    /// assert_eq!(Label::of(win(1, 9), win(1, 9)), Label::Best);
    /// assert_eq!(Label::of(win(1, 9), win(3, 7)), Label::Good);
    /// assert_eq!(Label::of(win(1, 9), draw), Label::Blunder);
    /// assert_eq!(Label::of(MoveValue::Estimate(0.3), MoveValue::Estimate(0.2)), Label::Inaccuracy);
    /// ```
    #[must_use]
    pub fn of(best: MoveValue, played: MoveValue) -> Self {
        // A move that lets the opponent win at once (a proven loss in 2) when the best move does
        // not is a blunder, even where the best move loses later; so is a proven loss where the
        // best move is not known to lose, whatever the estimate says.
        let loses_at_once =
            |v: MoveValue| v.outcome() == Some(Outcome::Loss) && v.plies() <= Some(2);
        let best_holds = match best {
            MoveValue::Estimate(h) => h > -FOUND,
            MoveValue::Proven { outcome, .. } => outcome != Outcome::Loss,
        };
        let lost = played.outcome() == Some(Outcome::Loss);
        if (loses_at_once(played) && !loses_at_once(best)) || (lost && best_holds) {
            return Self::Blunder;
        }
        if let (Some(best_outcome), Some(played_outcome)) = (best.outcome(), played.outcome()) {
            return if rank(played_outcome) < rank(best_outcome) {
                Self::Blunder
            } else if played.score() >= best.score() {
                Self::Best
            } else {
                Self::Good
            };
        }
        let cost = on_estimate_scale(best) - on_estimate_scale(played);
        if cost <= 0.0 {
            Self::Best
        } else if cost < GOOD_COST {
            Self::Good
        } else if cost < INACCURACY_COST {
            Self::Inaccuracy
        } else if cost < MISTAKE_COST {
            Self::Mistake
        } else {
            Self::Blunder
        }
    }
}

/// Orders outcomes for the mover: loss < draw < win.
const fn rank(outcome: Outcome) -> u8 {
    match outcome {
        Outcome::Loss => 0,
        Outcome::Draw => 1,
        Outcome::Win => 2,
    }
}

/// A value on the one scale estimates and proofs share: a proven win 1, a draw 0, a loss -1, an
/// estimate its own value.
#[must_use]
fn on_estimate_scale(value: MoveValue) -> f64 {
    match value.outcome() {
        Some(outcome) => f64::from(rank(outcome)) - 1.0,
        None => value.score(),
    }
}

/// One move of a reviewed game.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewedMove {
    /// The move's number, from 1.
    pub number: usize,
    /// The side that played it.
    pub player: Player,
    /// The cell played.
    pub cell: usize,
    /// Every move of the best value in that position, ascending.
    pub best: Vec<usize>,
    /// The best value, from the mover's view, under depth scoring.
    pub best_value: MoveValue,
    /// The played move's value, from the mover's view, under depth scoring.
    pub value: MoveValue,
    /// What the move gave up: `best_value - value` in depth-score points when both are proven,
    /// else on the estimate scale (see the module docs). Never negative.
    pub cost: f64,
    /// How good the move was.
    pub label: Label,
    /// The position's value after the move from X's view on the estimate scale: 1 a proven win
    /// for X, -1 for O, 0 a draw, an estimate in between.
    pub value_for_x: f64,
    /// The best reply's expected line from the position before the move, starting with the best
    /// move (on 3 × 3 to the end of the game).
    pub best_line: Vec<usize>,
    /// The move the review's first pass chose in that position (its best move at the review's
    /// budget): played, it is never labelled worse than `good` unless its value is proven.
    pub first_choice: usize,
}

/// The per-player tally of a review.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSummary {
    /// The player.
    pub player: Player,
    /// How many moves the player made.
    pub moves: usize,
    /// How many got each label, in the order of [`Label::ALL`].
    pub counts: [usize; 5],
    /// The share of the player's moves labelled `best` or `good`, in percent, to one decimal;
    /// `None` when the player made no move.
    pub accuracy: Option<f64>,
}

/// A reviewed game.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// Every move, in play order.
    pub moves: Vec<ReviewedMove>,
    /// The summaries of X and of O, in that order.
    pub summary: [PlayerSummary; 2],
    /// The number of the move where the game turned: the first `blunder`, else the move of the
    /// largest positive cost, else `None`.
    pub turning_point: Option<usize>,
    /// Whether every value in the review is proven.
    pub exact: bool,
    /// Nodes searched over the whole game (0 when every position was a table lookup).
    pub nodes: u64,
    /// One plain-English sentence about the game.
    pub sentence: String,
}

/// Reviews `game` within `limits`, one budget for the whole game, in two passes. The first
/// gives every position that needs a search an equal share of seven tenths of the work budget
/// and of the time to the deadline (of what is left, divided by the positions still to search).
/// The second searches again, with the rest, the positions whose labels hang on estimates: the
/// moves labelled `mistake` or `blunder`, and the moves after which the chart swings by more
/// than half its height, the costliest first, at most eight; their labels come from the deeper
/// search. A move the first pass chose itself is never labelled worse than `good` unless its
/// value is proven. 3 × 3 games are table lookups.
///
#[must_use]
pub(crate) fn review(tables: &Tables, game: &Game, limits: &SearchLimits) -> Review {
    let mut moves = Vec::with_capacity(game.moves().len());
    let mut nodes = 0;
    let count = game.positions().len();
    let first_pass = scaled(limits, FIRST_PASS_TENTHS);
    for (i, (position, &cell)) in game.positions().iter().zip(game.moves()).enumerate() {
        let share = share_of(&first_pass, nodes, count - i);
        let analysis = analysed(tables, position, share);
        nodes += analysis.nodes;
        moves.push(reviewed(i + 1, position, cell, &analysis));
        if limits.cancel.is_cancelled() {
            break;
        }
    }
    nodes += research(tables, game, limits, &mut moves, nodes);
    for m in &mut moves {
        if m.cell == m.first_choice && !m.value.is_exact() {
            m.label = m.label.min(Label::Good);
        }
    }
    let summary = [Player::X, Player::O].map(|player| summarize(player, &moves));
    let turning_point = turning_point(&moves, game.result());
    let exact = moves
        .iter()
        .all(|m| m.value.is_exact() && m.best_value.is_exact());
    let sentence = sentence(game, &moves, turning_point);
    Review {
        moves,
        summary,
        turning_point,
        exact,
        nodes,
        sentence,
    }
}

/// The second pass of [`review`]: the positions whose labels hang on estimates searched again
/// with what is left of `limits` after `spent`. Returns the nodes it searched.
fn research(
    tables: &Tables,
    game: &Game,
    limits: &SearchLimits,
    moves: &mut [ReviewedMove],
    spent: u64,
) -> u64 {
    if limits.cancel.is_cancelled() {
        return 0;
    }
    let mut wanted: Vec<usize> = (0..moves.len())
        .filter(|&i| {
            let m = &moves[i];
            let proven = m.value.is_exact() && m.best_value.is_exact();
            let swing = i > 0 && (m.value_for_x - moves[i - 1].value_for_x).abs() > SWING;
            !proven && (m.label >= Label::Mistake || swing)
        })
        .collect();
    wanted.sort_by(|&a, &b| moves[b].cost.total_cmp(&moves[a].cost).then(a.cmp(&b)));
    wanted.truncate(MAX_RESEARCHES);
    let mut nodes = 0;
    for (j, &i) in wanted.iter().enumerate() {
        let share = share_of(limits, spent + nodes, wanted.len() - j);
        let position = &game.positions()[i];
        let analysis = analysed(tables, position, share);
        nodes += analysis.nodes;
        let first_choice = moves[i].first_choice;
        moves[i] = ReviewedMove {
            first_choice,
            ..reviewed(i + 1, position, game.moves()[i], &analysis)
        };
        if limits.cancel.is_cancelled() {
            break;
        }
    }
    nodes
}

/// `limits` with `tenths` tenths of its work budget and of the time left to its deadline.
fn scaled(limits: &SearchLimits, tenths: u32) -> SearchLimits {
    let now = Instant::now();
    SearchLimits {
        max_work: limits.max_work.map(|work| work / 10 * u64::from(tenths)),
        deadline: limits
            .deadline
            .map(|deadline| now + deadline.saturating_duration_since(now) * tenths / 10),
        ..limits.clone()
    }
}

/// The move table of `position`, from the engine's one entry point at full strength (so a
/// review sees what a player asking for a move would be told).
fn analysed(tables: &Tables, position: &Position, limits: SearchLimits) -> Analysis {
    suggest(
        tables,
        position,
        &SuggestOptions {
            limits,
            ..SuggestOptions::default()
        },
    )
    .analysis
}

/// The limits of one of `remaining` positions: every move scored, and an equal share of the work
/// left after `spent` and of the time left to the deadline.
fn share_of(limits: &SearchLimits, spent: u64, remaining: usize) -> SearchLimits {
    let remaining = remaining.max(1) as u64;
    let now = Instant::now();
    SearchLimits {
        all_moves: true,
        multi_pv: 0,
        max_work: limits
            .max_work
            .map(|work| (work.saturating_sub(spent) / remaining).max(1)),
        deadline: limits.deadline.map(|deadline| {
            let left = deadline.saturating_duration_since(now);
            now + left / u32::try_from(remaining).unwrap_or(u32::MAX)
        }),
        max_depth: limits.max_depth,
        cancel: limits.cancel.clone(),
        progress: Progress::default(),
    }
}

/// The review of the move `number`, `cell`, played from `position` that `analysis` analysed.
fn reviewed(number: usize, position: &Position, cell: usize, analysis: &Analysis) -> ReviewedMove {
    let best_value = analysis.best_move().value;
    let value = analysis
        .get(cell)
        .expect("a move of a valid game is legal")
        .value;
    let best: Vec<usize> = analysis
        .moves
        .iter()
        .filter(|m| m.value.score() >= best_value.score())
        .map(|m| m.index)
        .collect();
    let cost = if best_value.is_exact() && value.is_exact() {
        best_value.score() - value.score()
    } else {
        on_estimate_scale(best_value) - on_estimate_scale(value)
    };
    let player = position.to_move();
    let for_mover = on_estimate_scale(value);
    let best_line = if analysis.best == analysis.pv.first().copied().unwrap_or(usize::MAX) {
        analysis.pv.clone()
    } else {
        principal_variation(position, analysis.best)
    };
    ReviewedMove {
        number,
        player,
        cell,
        best,
        best_value,
        value,
        cost: cost.max(0.0),
        label: Label::of(best_value, value),
        // Adding 0.0 turns a draw's -0.0 into 0.0.
        value_for_x: if player == Player::X {
            for_mover
        } else {
            -for_mover + 0.0
        },
        best_line,
        first_choice: analysis.best,
    }
}

fn summarize(player: Player, moves: &[ReviewedMove]) -> PlayerSummary {
    let mut counts = [0; 5];
    let mine: Vec<&ReviewedMove> = moves.iter().filter(|m| m.player == player).collect();
    for m in &mine {
        counts[m.label as usize] += 1;
    }
    let accuracy = (!mine.is_empty()).then(|| {
        let kept = (counts[Label::Best as usize] + counts[Label::Good as usize]) as f64;
        (1000.0 * kept / mine.len() as f64).round() / 10.0
    });
    PlayerSummary {
        player,
        moves: mine.len(),
        counts,
        accuracy,
    }
}

/// The move where the game turned: the first `blunder`, else the move of the largest positive
/// cost; in a decided game, a move of the side that lost.
fn turning_point(moves: &[ReviewedMove], result: Option<&GameResult>) -> Option<usize> {
    let loser = result.and_then(|r| r.winner).map(Player::opponent);
    let candidates = || moves.iter().filter(|m| loser.is_none_or(|p| m.player == p));
    if let Some(blunder) = candidates().find(|m| m.label == Label::Blunder) {
        return Some(blunder.number);
    }
    let mut worst: Option<&ReviewedMove> = None;
    for m in candidates().filter(|m| m.label != Label::Best && m.cost > 0.0) {
        if worst.is_none_or(|w| m.cost > w.cost) {
            worst = Some(m);
        }
    }
    worst.map(|m| m.number)
}

/// One sentence: how the game ended (or who is to move), then its turning point, its cells named
/// by [`super::cell_name`].
fn sentence(game: &Game, moves: &[ReviewedMove], turning_point: Option<usize>) -> String {
    let ending = match (game.result(), moves.last()) {
        (_, None) => return "No move was played yet.".to_owned(),
        (
            Some(GameResult {
                winner: Some(w), ..
            }),
            Some(_),
        ) => format!("{w} won"),
        (Some(_), Some(_)) => "The game was drawn".to_owned(),
        (None, Some(last)) => format!(
            "The game is in play with {} to move",
            last.player.opponent()
        ),
    };
    let Some(m) = turning_point.map(|n| &moves[n - 1]) else {
        return format!("{ending}, and no move gave anything away.");
    };
    // Cells as the game names them: "h8" on gomoku boards, "column 4" (from 1) on gravity ones.
    let name = |cell| game.geometry().cell_name(cell);
    let played = if game.geometry().is_gravity() {
        format!("in {}", name(m.cell))
    } else {
        name(m.cell)
    };
    let (cell, best) = (played, name(m.best.first().copied().unwrap_or(m.cell)));
    match (m.best_value.outcome(), m.value.outcome()) {
        (Some(before), Some(after)) if before != after => format!(
            "{ending}; the turning point was move {}, where {} played {} and turned a {} into a {} ({} was best).",
            m.number,
            m.player,
            cell,
            before.as_str(),
            after.as_str(),
            best
        ),
        _ => format!(
            "{ending}; the turning point was move {}, where {} played {}, {} ({} was best).",
            m.number,
            m.player,
            cell,
            m.label.phrase(),
            best
        ),
    }
}
