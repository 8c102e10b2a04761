use std::time::Instant;

use super::{Geometry, Position};

/// How scores are counted. Scores are always from the mover's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// A win in `p` plies scores `W - p`, a loss `p - W`, a draw 0, with `W = cells + 1` (10 on
    /// 3 × 3). Prefers the fastest win and the slowest loss.
    #[default]
    Depth,
    /// +10 for a win, -10 for a loss, 0 for a draw, however long it takes (the freeCodeCamp
    /// article's convention).
    Classic,
}

/// What best play from a position leads to, for the side that moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// A forced win.
    Win,
    /// A loss against best play.
    Loss,
    /// A draw with best play from both sides.
    Draw,
    /// Not proven: the search was cut by a depth or time limit.
    Unknown,
}

impl Outcome {
    /// The outcome as a lower-case word (`"win"`, `"loss"`, `"draw"`, `"unknown"`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Win => "win",
            Self::Loss => "loss",
            Self::Draw => "draw",
            Self::Unknown => "unknown",
        }
    }
}

/// The value of a move as the engine knows it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Evaluation {
    /// Proven by search or by the solved table, as a depth score: `W - p` for a win in `p` plies,
    /// `p - W` for a loss, 0 for a draw.
    Exact(i32),
    /// A static estimate in the open interval (-1, 1): it never equals a proven win or loss.
    Heuristic(f64),
}

/// A score as reported: an integer when proven, a fraction in (-1, 1) when it is an estimate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Score {
    /// A proven score under the requested scoring.
    Exact(i32),
    /// A heuristic estimate, strictly between -1 and 1.
    Heuristic(f64),
}

impl Score {
    /// The score as a number, for comparing moves.
    #[must_use]
    pub fn value(self) -> f64 {
        match self {
            Self::Exact(s) => f64::from(s),
            Self::Heuristic(h) => h,
        }
    }
}

/// One legal move and what it leads to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveScore {
    /// The cell to play, row-major from 0.
    pub index: usize,
    /// The score under the requested scoring, from the mover's point of view.
    pub score: Score,
    /// What best play after this move gives the mover.
    pub outcome: Outcome,
    /// Moves from the current position to the end of the game with best play, this move
    /// included (for a draw: until the board is full); `None` when not proven.
    pub plies: Option<u32>,
    /// Whether the score is proven rather than estimated.
    pub exact: bool,
}

impl MoveScore {
    /// Turns an engine evaluation of the move at `index` into a reported score.
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
        match evaluation {
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
                Self {
                    index,
                    score: Score::Exact(score),
                    outcome,
                    plies: Some(plies as u32),
                    exact: true,
                }
            }
            Evaluation::Heuristic(h) => Self {
                index,
                score: Score::Heuristic(h.clamp(-0.999, 0.999)),
                outcome: Outcome::Unknown,
                plies: None,
                exact: false,
            },
        }
    }
}

/// The engine's answer for a position: every legal move scored, and the best of them.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// Every legal move, by ascending index. When the search was cut short some may be estimates.
    pub moves: Vec<MoveScore>,
    /// Position in `moves` of the best move: the highest score, the lowest index among equals.
    pub best: usize,
    /// Whether the best move's score is proven.
    pub exact: bool,
    /// Nodes searched (0 for a table lookup).
    pub nodes: u64,
    /// The deepest completed iteration of the search, if a search ran.
    pub depth: Option<u32>,
    /// The expected line of best play starting with the best move, as far as the engine knows it;
    /// empty when the engine did not record one (see [`principal_variation`](super::principal_variation)).
    pub pv: Vec<usize>,
}

impl Analysis {
    /// Builds an analysis from scored moves (ascending index), picking the best: the highest score,
    /// ties to the lowest index.
    ///
    /// # Panics
    /// If `moves` is empty; a [`Position`] always has a legal move.
    #[must_use]
    pub fn from_moves(moves: Vec<MoveScore>, nodes: u64, depth: Option<u32>) -> Self {
        let best = best_of(&moves);
        let exact = moves[best].exact;
        Self {
            moves,
            best,
            exact,
            nodes,
            depth,
            pv: Vec::new(),
        }
    }

    /// The best move.
    #[must_use]
    pub fn best_move(&self) -> &MoveScore {
        &self.moves[self.best]
    }
}

/// Position in `moves` of the highest score, the lowest index among equals.
///
/// # Panics
/// If `moves` is empty.
#[must_use]
pub fn best_of(moves: &[MoveScore]) -> usize {
    let mut best = 0;
    for (i, m) in moves.iter().enumerate().skip(1) {
        if m.score.value() > moves[best].score.value() {
            best = i;
        }
    }
    best
}

/// Bounds on a search. The 3 × 3 table ignores them: it is always exact.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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
}

/// Units of search work per millisecond, times the number of cells, that
/// [`SearchLimits::work_for`] grants. A node costs about as many operations as the board has
/// cells, so the budget is scaled down on big boards. Calibrated on the reference 2-core machine
/// (see BENCHMARKS-search.md) so that a search spends its budget in about half its time limit:
/// the slowest rates measured there were 470 units/ms on a 15 × 15 midgame (this grants 213) and
/// 2,244 on a 7 × 7 midgame (this grants 980).
pub const WORK_PER_MS_TIMES_CELLS: u64 = 48_000;

impl SearchLimits {
    /// The work budget matching a time limit of `millis` on `geometry`'s board: about half of the
    /// time on the reference machine, so that the budget, not the clock, stops the search and the
    /// answer does not depend on the machine's load.
    ///
    /// ```
    /// use minimax_move::engine::{Geometry, SearchLimits};
    /// let gomoku = Geometry::new(15, 15, 5).unwrap();
    /// let four = Geometry::new(5, 5, 4).unwrap();
    /// assert_eq!(SearchLimits::work_for(gomoku, 1_000), 213_333);
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

/// Analyses a position: the solved table on 3 × 3, otherwise the alpha-beta search within `limits`.
///
/// ```
/// use minimax_move::engine::{analyze, Geometry, Position, Score, Scoring, SearchLimits};
/// let cells = Position::parse_compact("O.XX.X.OO").unwrap();
/// let position = Position::new(Geometry::TIC_TAC_TOE, cells, None).unwrap();
/// let analysis = analyze(&position, Scoring::Depth, &SearchLimits::default());
/// assert_eq!(analysis.best_move().index, 4);
/// assert_eq!(analysis.best_move().score, Score::Exact(9));
/// ```
#[must_use]
pub fn analyze(position: &Position, scoring: Scoring, limits: &SearchLimits) -> Analysis {
    if position.geometry().is_tic_tac_toe() {
        super::solved::analyze(position, scoring)
    } else {
        super::search::analyze(position, scoring, limits)
    }
}
