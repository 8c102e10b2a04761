//! What the engine knows about a position: every legal move with its [`MoveValue`], and the best one.
//!
//! These are plain data types shared by the solved table, the search and [`Engine::suggest`](super::Engine::suggest);
//! they depend on neither, so the engine has no import cycle.

use crate::engine::game::{Geometry, Position};

/// How scores are counted. Scores are always from the mover's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Scoring {
    /// A win in `p` plies scores `W - p`, a loss `p - W`, a draw 0, with `W = cells + 1` (10 on
    /// 3 × 3). Prefers the fastest win and the slowest loss.
    #[default]
    Depth,
    /// +10 for a win, -10 for a loss, 0 for a draw, however long it takes (the freeCodeCamp
    /// article's convention).
    Classic,
}

/// What best play from a position leads to, for the side that moves, once it is proven.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Outcome {
    /// A forced win.
    Win,
    /// A loss against best play.
    Loss,
    /// A draw with best play from both sides.
    Draw,
}

impl Outcome {
    /// The outcome as a lower-case word (`"win"`, `"loss"`, `"draw"`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Win => "win",
            Self::Loss => "loss",
            Self::Draw => "draw",
        }
    }
}

/// The value of a move as the solved table or the search computes it, before it is reported
/// under a [`Scoring`]: the input of [`MoveScore::new`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Evaluation {
    /// Proven, as a depth score: `W - p` for a win in `p` plies, `p - W` for a loss, 0 for a draw.
    Exact(i32),
    /// A static estimate in the open interval (-1, 1): it never equals a proven win or loss.
    Heuristic(f64),
}

/// The value of a move as reported: either proven, with its outcome, length and score, or an
/// estimate. "Exact", "the outcome is known" and "the plies are known" are one fact, this enum's
/// variant, so they cannot disagree.
///
/// ```
/// use minimax_move::engine::{Outcome, MoveValue};
/// let win = MoveValue::Proven { outcome: Outcome::Win, plies: 1, score: 9 };
/// assert_eq!((win.score(), win.outcome(), win.plies(), win.is_exact()), (9.0, Some(Outcome::Win), Some(1), true));
/// let guess = MoveValue::Estimate(0.25);
/// assert_eq!((guess.outcome(), guess.plies(), guess.is_exact()), (None, None, false));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MoveValue {
    /// Proven by the solved table or by search.
    Proven {
        /// What best play gives the mover.
        outcome: Outcome,
        /// Moves from the current position to the end of the game with best play, this move
        /// included (for a draw: until the board is full).
        plies: u32,
        /// The score under the requested [`Scoring`].
        score: i32,
    },
    /// A heuristic estimate, strictly between -1 and 1: the search was cut by a limit.
    Estimate(f64),
}

impl MoveValue {
    /// The score as a number, for comparing moves.
    #[must_use]
    pub fn score(self) -> f64 {
        match self {
            Self::Proven { score, .. } => f64::from(score),
            Self::Estimate(h) => h,
        }
    }

    /// The proven outcome, `None` for an estimate.
    #[must_use]
    pub const fn outcome(self) -> Option<Outcome> {
        match self {
            Self::Proven { outcome, .. } => Some(outcome),
            Self::Estimate(_) => None,
        }
    }

    /// The proven number of plies to the end, `None` for an estimate.
    #[must_use]
    pub const fn plies(self) -> Option<u32> {
        match self {
            Self::Proven { plies, .. } => Some(plies),
            Self::Estimate(_) => None,
        }
    }

    /// Whether the value is proven rather than estimated.
    #[must_use]
    pub const fn is_exact(self) -> bool {
        matches!(self, Self::Proven { .. })
    }

    /// The value in Pascal Pons' convention, the one of the public Connect Four solver, for a
    /// value found from a position with `stones` stones on a board of `cells`: a win with the
    /// stone numbered `m` in the game (counting from the empty board) scores
    /// `1 + (cells - m) / 2` (22 minus the winner's stones on 7 × 6), a loss the negative, a
    /// draw 0; `None` for an estimate.
    ///
    /// ```
    /// use minimax_move::engine::{Outcome, MoveValue};
    /// // The centre of the empty 7 × 6 board wins with the 41st stone.
    /// let centre = MoveValue::Proven { outcome: Outcome::Win, plies: 41, score: 2 };
    /// assert_eq!(centre.pons_score(42, 0), Some(1));
    /// ```
    #[must_use]
    pub const fn pons_score(self, cells: usize, stones: usize) -> Option<i32> {
        match self {
            Self::Proven { outcome, plies, .. } => {
                let score = 1 + (cells as i32 - (stones as i32 + plies as i32)) / 2;
                Some(match outcome {
                    Outcome::Win => score,
                    Outcome::Loss => -score,
                    Outcome::Draw => 0,
                })
            }
            Self::Estimate(_) => None,
        }
    }
}

/// Written as the bare score: an integer when proven, a fraction in (-1, 1) when estimated.
#[cfg(feature = "serde")]
impl serde::Serialize for MoveValue {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self {
            Self::Proven { score, .. } => serializer.serialize_i32(score),
            Self::Estimate(h) => serializer.serialize_f64(h),
        }
    }
}

/// One legal move and what it leads to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveScore {
    /// The cell to play, row-major from 0.
    pub index: usize,
    /// What the move is worth, from the mover's point of view.
    pub value: MoveValue,
    /// Whether the value comes from a search of this move (or a proof). When false the move was
    /// not searched, and its value is the static evaluation of the position after it, kept
    /// below every searched move: the big-board engine searches only the candidate moves.
    pub searched: bool,
}

/// Written as `{"index", "score", "outcome", "plies", "exact", "searched"}`, with `"unknown"` and
/// `null` for an estimate's outcome and plies.
#[cfg(feature = "serde")]
impl serde::Serialize for MoveScore {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut entry = serializer.serialize_struct("MoveScore", 6)?;
        entry.serialize_field("index", &self.index)?;
        entry.serialize_field("score", &self.value)?;
        entry.serialize_field("outcome", &OutcomeOrUnknown(self.value.outcome()))?;
        entry.serialize_field("plies", &self.value.plies())?;
        entry.serialize_field("exact", &self.value.is_exact())?;
        entry.serialize_field("searched", &self.searched)?;
        entry.end()
    }
}

/// An outcome on the wire: the proven one, or `"unknown"` for an estimate.
#[cfg(feature = "serde")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutcomeOrUnknown(pub Option<Outcome>);

#[cfg(feature = "serde")]
impl serde::Serialize for OutcomeOrUnknown {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.map_or("unknown", Outcome::as_str))
    }
}

impl MoveScore {
    /// Turns an engine evaluation of the move at `index` into a reported value.
    ///
    /// `empty` is the number of empty cells before the move (a draw's plies).
    #[must_use]
    pub fn new(
        index: usize,
        evaluation: Evaluation,
        scoring: Scoring,
        geometry: Geometry,
        empty: usize,
    ) -> Self {
        let w = geometry.max_score();
        let value = match evaluation {
            Evaluation::Exact(s) => {
                let (outcome, plies) = match s.signum() {
                    1 => (Outcome::Win, w - s),
                    -1 => (Outcome::Loss, w + s),
                    _ => (Outcome::Draw, empty as i32),
                };
                let score = match scoring {
                    Scoring::Depth => s,
                    Scoring::Classic => 10 * s.signum(),
                };
                MoveValue::Proven {
                    outcome,
                    plies: plies as u32,
                    score,
                }
            }
            Evaluation::Heuristic(h) => MoveValue::Estimate(h.clamp(-0.999, 0.999)),
        };
        Self {
            index,
            value,
            searched: true,
        }
    }

    /// This move marked as not searched (see [`searched`](Self::searched)).
    #[must_use]
    pub const fn unsearched(self) -> Self {
        Self {
            searched: false,
            ..self
        }
    }
}

/// The engine's answer for a position: every legal move scored, and the best of them.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// Every legal move, by ascending index. When the search was cut short some may be estimates.
    pub moves: Vec<MoveScore>,
    /// The cell of the best move: the highest score, the lowest index among equals.
    pub best: usize,
    /// Nodes searched (0 for a table lookup).
    pub nodes: u64,
    /// The deepest completed iteration of the search, if a search ran.
    pub depth: Option<u32>,
    /// The expected line of best play starting with the best move, as far as the engine knows it;
    /// empty when the engine did not record one ([`Engine::suggest`](super::Engine::suggest) always fills its own).
    pub pv: Vec<usize>,
    /// The engine's order of preference among moves it cannot tell apart by value, most
    /// preferred first: it breaks ties in [`ranked`](Self::ranked). The big-board engine fills it
    /// with its move ordering (the patterns a stone makes there for both sides); when empty the
    /// cell nearest the centre goes first.
    pub preference: Vec<usize>,
}

impl Analysis {
    /// Builds an analysis from scored moves (ascending index), picking the best: the highest score,
    /// ties to the lowest index.
    ///
    /// # Panics
    /// If `moves` is empty; a [`Position`](super::Position) always has a legal move.
    #[must_use]
    pub fn from_moves(moves: Vec<MoveScore>, nodes: u64, depth: Option<u32>) -> Self {
        let best = moves[best_of(&moves)].index;
        Self {
            moves,
            best,
            nodes,
            depth,
            pv: Vec::new(),
            preference: Vec::new(),
        }
    }

    /// The analysis of a win by continuous fours along `pv` (the move to play, the forced
    /// replies, ..., the completing move, as row-major cells): that move is a proven win in
    /// `pv.len()` plies (the forcing line's length; a quiet move could in principle win
    /// sooner), every other move keeps its score in `moves` (ascending index, one-ply
    /// estimates), where the winning move takes its place in order if `moves` leaves it out.
    pub(crate) fn forced_win(
        mut moves: Vec<MoveScore>,
        pv: Vec<usize>,
        nodes: u64,
        position: &Position,
        scoring: Scoring,
    ) -> Self {
        let geometry = position.geometry();
        let plies = pv.len() as i32;
        let win = MoveScore::new(
            pv[0],
            Evaluation::Exact(geometry.max_score() - plies),
            scoring,
            geometry,
            position.empty_count(),
        );
        let at = moves.partition_point(|m| m.index < pv[0]);
        if moves.get(at).is_some_and(|m| m.index == pv[0]) {
            moves[at] = win;
        } else {
            moves.insert(at, win);
        }
        let mut analysis = Self::from_moves(moves, nodes, Some(plies as u32));
        analysis.pv = pv;
        analysis
    }

    /// The searched moves, best first: the best move, then the others by value, equal values
    /// in the engine's order of [`preference`](Self::preference) (or nearest the centre first,
    /// then the lowest index). Moves that were not searched are left out: their values are
    /// static guesses, not comparable with searched ones.
    ///
    /// ```
    /// use minimax_move::engine::{Engine, Geometry, Position, Scoring, SearchLimits};
    /// let position = Position::new(Geometry::TIC_TAC_TOE, vec![None; 9], None).unwrap();
    /// let analysis = Engine::default().analyze(&position, Scoring::Depth, &SearchLimits::default());
    /// let ranked: Vec<usize> = analysis.ranked(position.geometry()).iter().map(|m| m.index).collect();
    /// // Every move draws: the best (the lowest index), then the centre, the edges, the corners.
    /// assert_eq!(ranked, vec![0, 4, 1, 3, 5, 7, 2, 6, 8]);
    /// ```
    #[must_use]
    pub fn ranked(&self, geometry: Geometry) -> Vec<MoveScore> {
        let rank_of = |cell: usize| {
            self.preference
                .iter()
                .position(|&c| c == cell)
                .unwrap_or(usize::MAX)
        };
        let mut ranked: Vec<(usize, usize, MoveScore)> = self
            .moves
            .iter()
            .filter(|m| m.searched && m.index != self.best)
            .map(|m| (rank_of(m.index), distance_to_centre(geometry, m.index), *m))
            .collect();
        ranked.sort_by(|a, b| {
            b.2.value
                .score()
                .total_cmp(&a.2.value.score())
                .then(a.0.cmp(&b.0))
                .then(a.1.cmp(&b.1))
                .then(a.2.index.cmp(&b.2.index))
        });
        std::iter::once(*self.best_move())
            .chain(ranked.into_iter().map(|(_, _, m)| m))
            .collect()
    }

    /// The best move.
    #[must_use]
    pub fn best_move(&self) -> &MoveScore {
        self.get(self.best)
            .expect("the best move is one of the moves")
    }

    /// The move at `cell`, if it is legal.
    #[must_use]
    pub fn get(&self, cell: usize) -> Option<&MoveScore> {
        self.moves
            .binary_search_by_key(&cell, |m| m.index)
            .ok()
            .map(|i| &self.moves[i])
    }

    /// Whether the best move's value is proven.
    #[must_use]
    pub fn is_exact(&self) -> bool {
        self.best_move().value.is_exact()
    }
}

/// Four times the squared distance of `cell` from the centre of `geometry`'s board.
fn distance_to_centre(geometry: Geometry, cell: usize) -> usize {
    let (rows, cols) = (geometry.rows() as isize, geometry.cols() as isize);
    let (r, c) = (cell as isize / cols, cell as isize % cols);
    let (dr, dc) = (2 * r - (rows - 1), 2 * c - (cols - 1));
    (dr * dr + dc * dc) as usize
}

/// Position in `moves` of the highest score, the lowest index among equals.
///
/// # Panics
/// If `moves` is empty.
#[must_use]
pub fn best_of(moves: &[MoveScore]) -> usize {
    let mut best = 0;
    for (i, m) in moves.iter().enumerate().skip(1) {
        if m.value.score() > moves[best].value.score() {
            best = i;
        }
    }
    best
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_written_with_its_value_as_five_fields() {
        let cases = [
            (
                4,
                Evaluation::Exact(9),
                Scoring::Depth,
                r#"{"index":4,"score":9,"outcome":"win","plies":1,"exact":true,"searched":true}"#,
            ),
            (
                1,
                Evaluation::Exact(-8),
                Scoring::Classic,
                r#"{"index":1,"score":-10,"outcome":"loss","plies":2,"exact":true,"searched":true}"#,
            ),
            (
                7,
                Evaluation::Heuristic(2.0),
                Scoring::Depth,
                r#"{"index":7,"score":0.999,"outcome":"unknown","plies":null,"exact":false,"searched":true}"#,
            ),
        ];
        for (index, evaluation, scoring, written) in cases {
            let score = MoveScore::new(index, evaluation, scoring, Geometry::TIC_TAC_TOE, 3);
            assert_eq!(serde_json::to_string(&score).unwrap(), written);
        }
    }
}
