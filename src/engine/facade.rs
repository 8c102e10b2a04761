//! [`Engine`]: the one door into the engine. It owns the tables every search borrows (sized once
//! for the searches it is built to run at once), builds what would otherwise be built on a first
//! search's clock ([`Engine::warm_up`]), and holds the limits policy (how deep a request may ask
//! to search, how much work a time limit buys, which families get a work budget, what is answered
//! inline). Every front door (HTTP, MCP over HTTP and stdio, the Gomocup brain, the tools) holds
//! one and calls it; nothing else in the engine keeps state between calls.

use std::time::Instant;

use crate::engine::analysis::{Analysis, Scoring};
use crate::engine::cancel::Cancel;
use crate::engine::core::job::Job;
use crate::engine::core::pool::{Renew, Tables};
use crate::engine::game::Game;
use crate::engine::game::{Geometry, PlayError, Played, Position};
use crate::engine::gravity;
use crate::engine::limits::{SearchLimits, WORK_PER_MS_TIMES_CELLS};
use crate::engine::progress::Progress;
use crate::engine::review::Review;
use crate::engine::suggest::{SuggestOptions, Suggestion};
use crate::engine::trace::{Trace, TraceError, TraceInput, TraceOptions};

/// What an engine is built for: the searches it runs at once, and the bounds of its limits
/// policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineSettings {
    /// Searches running at once: the tables are budgeted for this many (one slot each).
    pub searches: usize,
    /// Deepest search a request may ask for, in plies.
    pub max_depth: u32,
    /// Search work granted per millisecond of time limit, times the board's cells (see
    /// [`SearchLimits::work_at_rate`]).
    pub work_rate: u64,
}

impl Default for EngineSettings {
    /// One search at a time, as deep as any board has cells, at the reference machine's rate.
    fn default() -> Self {
        Self {
            searches: 1,
            max_depth: 400,
            work_rate: WORK_PER_MS_TIMES_CELLS,
        }
    }
}

/// The engine: every analysis, suggestion, review and trace goes through one, and its tables
/// are its own. Cloning shares them.
///
/// ```
/// use minimax_move::engine::{Engine, Geometry, Outcome, Position, SuggestOptions};
///
/// let engine = Engine::default();
/// let cells = Position::parse_compact("XXOOX.O..").unwrap();
/// let position = Position::new(Geometry::TIC_TAC_TOE, cells, None).unwrap();
/// let suggestion = engine.suggest(&position, &SuggestOptions::default());
/// assert_eq!(suggestion.chosen.index, 7);
/// assert_eq!(suggestion.chosen.value.outcome(), Some(Outcome::Win));
/// ```
#[derive(Clone, Debug)]
pub struct Engine {
    tables: Tables,
    settings: EngineSettings,
}

impl Default for Engine {
    /// An engine for one search at a time, with the default limits policy.
    fn default() -> Self {
        Self::new(EngineSettings::default())
    }
}

/// The most memory one search holds in tables at once: the gravity solver's transposition
/// table, the small-board solver's and its proof-number table together, or a trace's table.
#[must_use]
pub fn slot_bytes() -> usize {
    let gravity = <gravity::Table as Renew>::BYTES;
    let solver = <crate::engine::core::table::Slots as Renew>::BYTES
        + <crate::engine::solver::ProofTable as Renew>::BYTES;
    let trace = <crate::engine::trace::TraceTable as Renew>::BYTES;
    gravity.max(solver).max(trace)
}

impl Engine {
    /// An engine for `settings.searches` searches at once: its tables keep at most that many
    /// search slots' worth of memory ([`slot_bytes`] each).
    #[must_use]
    pub fn new(settings: EngineSettings) -> Self {
        let searches = settings.searches.max(1);
        Self {
            tables: Tables::with_budget(searches.saturating_mul(slot_bytes())),
            settings: EngineSettings {
                searches,
                ..settings
            },
        }
    }

    /// What the engine was built for.
    #[must_use]
    pub const fn settings(&self) -> &EngineSettings {
        &self.settings
    }

    /// The bytes its tables may keep: [`slot_bytes`] times the searches it runs at once.
    #[must_use]
    pub const fn table_budget(&self) -> usize {
        self.tables.budget()
    }

    /// The bytes of the tables made now, lent to searches or idle: at most
    /// [`Engine::table_budget`] while no more searches run than the engine was built for.
    #[must_use]
    pub fn table_bytes(&self) -> usize {
        self.tables.made()
    }

    /// Builds, if not built yet, everything the engine would otherwise build inside the first
    /// search that needs it, on that search's clock: the solved 3 × 3 table, the gomoku pattern
    /// tables of every `k` and every rule, the move-ordering lookup of the gomoku weights, the
    /// winning lines of the usual gomoku boards (15 × 15 and 20 × 20), and one transposition
    /// table, kept for the first search to borrow. Each front door calls it before it answers:
    /// the server before `/readyz` says ready, the Gomocup brain before it reads its first
    /// command. It takes a fraction of a second in a release build (docs/performance.md,
    /// "Start-up and the first move"); later calls return at once.
    ///
    /// ```
    /// let engine = minimax_move::engine::Engine::default();
    /// engine.warm_up();
    /// assert!(engine.warmed_up());
    /// ```
    pub fn warm_up(&self) {
        super::tic_tac_toe::warm_up();
        drop(self.tables.borrow::<crate::engine::core::table::Slots>());
    }

    /// Whether every table that [`Engine::warm_up`] builds once for the life of the process (the
    /// ones every engine of the process shares) is built, so that no search has one to build on
    /// its clock.
    #[must_use]
    pub fn warmed_up(&self) -> bool {
        super::tic_tac_toe::warmed_up()
    }

    /// Whether `position` is answered by a lookup (3 × 3 tic-tac-toe, well under a microsecond)
    /// rather than a search: a front door answers it inline, without a search slot.
    #[must_use]
    pub fn answers_inline(&self, position: &Position) -> bool {
        position.geometry().is_tic_tac_toe()
    }

    /// Whether every position of `game` is answered by a lookup (see
    /// [`Engine::answers_inline`]).
    #[must_use]
    pub fn reviews_inline(&self, game: &Game) -> bool {
        game.is_solved()
    }

    /// The one rule for a search's limits, on every front door: the depth asked for capped by
    /// the engine's, the deadline, the cancel handle, and the work budget of `millis` at the
    /// engine's rate. The work budget usually stops the search before the clock on an unloaded
    /// machine, so the same request gets the same answer; the deadline is the hard stop under
    /// load. The gravity solver gets no work budget: it proves values, whatever the order it
    /// searches in, so a budget could only cut proofs short, and it runs to the deadline.
    ///
    /// ```
    /// use std::time::Instant;
    /// use minimax_move::engine::{Cancel, Engine, Geometry};
    /// let engine = Engine::default();
    /// let gomoku = Geometry::new(15, 15, 5).unwrap();
    /// let limits = engine.limits(gomoku, Some(9), 1_000, Instant::now(), Cancel::default());
    /// assert_eq!((limits.max_depth, limits.max_work), (Some(9), Some(1_066_666)));
    /// let limits = engine.limits(Geometry::CONNECT_FOUR, None, 1_000, Instant::now(), Cancel::default());
    /// assert_eq!(limits.max_work, None);
    /// ```
    #[must_use]
    pub fn limits(
        &self,
        geometry: Geometry,
        max_depth: Option<u32>,
        millis: u64,
        deadline: Instant,
        cancel: Cancel,
    ) -> SearchLimits {
        let settings = &self.settings;
        SearchLimits {
            max_depth: Some(
                max_depth
                    .unwrap_or(settings.max_depth)
                    .min(settings.max_depth),
            ),
            deadline: Some(deadline),
            max_work: (!geometry.is_gravity())
                .then(|| SearchLimits::work_at_rate(geometry, millis, settings.work_rate)),
            all_moves: false,
            multi_pv: 0,
            cancel,
            progress: Progress::default(),
        }
    }

    /// Analyses a position: the gravity solver on gravity boards, the solved table on 3 × 3, the
    /// big-board engine on boards of 100 cells or more with `k` from 4 to 6, otherwise the
    /// small-board solver, both searches within `limits`.
    ///
    /// ```
    /// use minimax_move::engine::{Engine, Geometry, Position, Scoring, SearchLimits};
    /// let cells = Position::parse_compact("O.XX.X.OO").unwrap();
    /// let position = Position::new(Geometry::TIC_TAC_TOE, cells, None).unwrap();
    /// let analysis = Engine::default().analyze(&position, Scoring::Depth, &SearchLimits::default());
    /// assert_eq!(analysis.best, 4);
    /// assert_eq!(analysis.best_move().value.score(), 9.0);
    /// ```
    #[must_use]
    pub fn analyze(
        &self,
        position: &Position,
        scoring: Scoring,
        limits: &SearchLimits,
    ) -> Analysis {
        super::suggest::analyze(Job {
            tables: &self.tables,
            position,
            scoring,
            limits,
        })
    }

    /// Suggests a move: analyses `position`, chooses the move at the requested difficulty, and
    /// describes the line of play, the game after the move and why.
    ///
    /// ```
    /// use minimax_move::engine::{Engine, Geometry, Outcome, Position, SuggestOptions};
    /// let cells = Position::parse_compact("O.XX.X.OO").unwrap();
    /// let position = Position::new(Geometry::TIC_TAC_TOE, cells, None).unwrap();
    /// let suggestion = Engine::default().suggest(&position, &SuggestOptions::default());
    /// assert_eq!(suggestion.chosen.index, 4);
    /// assert_eq!(suggestion.chosen.value.outcome(), Some(Outcome::Win));
    /// assert_eq!(suggestion.pv, vec![4]);
    /// assert_eq!(suggestion.explanation, "X takes 4 and wins at once, completing the middle row.");
    /// ```
    #[must_use]
    pub fn suggest(&self, position: &Position, options: &SuggestOptions) -> Suggestion {
        super::suggest::suggest(&self.tables, position, options)
    }

    /// Reviews a game: every move labelled against the best one, within `limits` for the whole
    /// game (see [`Review`]).
    ///
    /// ```
    /// use minimax_move::engine::{Engine, Game, Geometry, Label, Player, SearchLimits};
    /// let game = Game::new(Geometry::TIC_TAC_TOE, Player::X, &[4, 1, 0, 8, 2, 6, 3, 5]).unwrap();
    /// let review = Engine::default().review(&game, &SearchLimits::default());
    /// assert_eq!(review.moves[1].label, Label::Blunder);
    /// assert_eq!(review.turning_point, Some(2));
    /// ```
    #[must_use]
    pub fn review(&self, game: &Game, limits: &SearchLimits) -> Review {
        super::review::review(&self.tables, game, limits)
    }

    /// Traces `input` under `options`: the search tree as a teacher draws it (see [`Trace`]).
    ///
    /// # Errors
    /// [`TraceError::TooLarge`] when the traced algorithm visits more than its work limit,
    /// [`TraceError::Stopped`] when cancelled or past the deadline.
    pub fn trace(&self, input: &TraceInput, options: &TraceOptions) -> Result<Trace, TraceError> {
        super::trace::trace_in(&self.tables, input, options)
    }

    /// The value of a gravity `position` for its side to move, within `limits`: cheaper than
    /// analysing every move (see [`Solution`](gravity::Solution)).
    ///
    /// # Panics
    /// If `position` is not a gravity position.
    #[must_use]
    pub fn solve_gravity(&self, position: &Position, limits: &SearchLimits) -> gravity::Solution {
        gravity::solve(&self.tables, position, limits)
    }

    /// Pons' score of every column of a gravity `position`, from its analysis (see
    /// [`Engine::analyze`]), left to right, `None` for a full column: the public Connect Four
    /// solver's view of the engine's values. `None` in all when a playable column's value is not
    /// proven (the search was cut short), so that an unfinished column is never mistaken for a
    /// full one.
    #[must_use]
    pub fn column_scores(
        &self,
        position: &Position,
        analysis: &Analysis,
    ) -> Option<Vec<Option<i32>>> {
        gravity::column_scores(position, analysis)
    }

    /// Plays `cell` on `position`: the board and the game after it.
    ///
    /// # Errors
    /// A [`PlayError`] naming why the move is not legal.
    pub fn play(&self, position: &Position, cell: usize) -> Result<Played, PlayError> {
        position.try_play(cell)
    }
}
