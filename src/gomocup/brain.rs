//! The brain: the game as the manager described it, and the engine's moves on it.

use std::time::Instant;

use thiserror::Error;

use super::BrainOptions;
use super::board::{BoardError, BrainBoard};
use super::clock::Timing;
use super::command::{BoardLine, Command, CommandError, Info, Stone};
use crate::engine::renju::Foul;
use crate::engine::{Cancel, Engine, MoveValue, Outcome, Position, Rule, SuggestOptions};

/// Why a command is refused; its text follows `ERROR` on the answer.
#[derive(Debug, Error)]
enum Refusal {
    #[error(transparent)]
    Command(#[from] CommandError),
    #[error(transparent)]
    BrainBoard(#[from] BoardError),
}

/// The lines that answer a command, or why it is refused.
type Reply = Result<Vec<String>, Refusal>;

/// Stones as a `BOARD` block lists them: column, row, whose.
type Stones = Vec<(usize, usize, Stone)>;

/// The protocol's state machine: one [`Brain::handle`] call a line.
///
/// ```
/// use minimax_move::gomocup::{Brain, BrainOptions};
/// let mut brain = Brain::new(BrainOptions::default());
/// assert_eq!(brain.handle("START 15"), vec!["OK"]);
/// assert!(brain.handle("INFO rule 4").is_empty(), "renju");
/// assert!(brain.handle("INFO rule 9")[0].starts_with("ERROR rule 9 is not supported"));
/// assert_eq!(brain.handle("YXSHOWFORBID"), vec!["FORBID ."]);
/// assert!(brain.handle("END").is_empty());
/// assert!(brain.is_finished());
/// ```
#[derive(Debug)]
pub struct Brain {
    /// The engine it thinks with: one search at a time.
    engine: Engine,
    options: BrainOptions,
    game: Option<BrainBoard>,
    /// Stones read so far while inside `BOARD` ... `DONE`, or the first error among them.
    board_block: Option<Result<Stones, CommandError>>,
    timing: Timing,
    /// Memory limit the manager gave, in bytes (0: none). Recorded only: a search uses a fixed
    /// 16 MiB table, well inside the 350 MB Gomocup gives.
    max_memory: u64,
    /// The rule from `INFO rule` (freestyle until one is received).
    rule: Rule,
    /// Raised when `END` arrives while the brain thinks: the search stops at once.
    stop: Cancel,
    finished: bool,
}

impl Brain {
    /// A brain waiting for `START`, with an engine of its own.
    #[must_use]
    pub fn new(options: BrainOptions) -> Self {
        Self::with_engine(Engine::default(), options)
    }

    /// A brain waiting for `START` that thinks with `engine`.
    #[must_use]
    pub fn with_engine(engine: Engine, options: BrainOptions) -> Self {
        Self {
            engine,
            options,
            game: None,
            board_block: None,
            timing: Timing::default(),
            max_memory: 0,
            rule: Rule::Freestyle,
            stop: Cancel::new(),
            finished: false,
        }
    }

    /// The handle that stops the brain's searches from another thread: once
    /// [`cancel`](Cancel::cancel) is called, the search under way and any later one stop at once,
    /// their moves are not answered and the brain is finished, as after `END`. The loop in
    /// [`run`](super::run) raises it as soon as its reader sees `END`, so an `END` sent while the
    /// brain thinks is obeyed within milliseconds. Commands that need no search are answered
    /// as before.
    #[must_use]
    pub fn stop_handle(&self) -> Cancel {
        self.stop.clone()
    }

    /// Whether `END` was received: the brain takes no more commands.
    #[must_use]
    pub const fn is_finished(&self) -> bool {
        self.finished
    }

    /// The time settings received so far.
    #[must_use]
    pub const fn timing(&self) -> Timing {
        self.timing
    }

    /// The memory limit the manager gave, in bytes (0: none).
    #[must_use]
    pub const fn max_memory(&self) -> u64 {
        self.max_memory
    }

    /// The rule the brain plays, from the last accepted `INFO rule`.
    #[must_use]
    pub const fn rule(&self) -> Rule {
        self.rule
    }

    /// Answers one line from the manager with the lines to send back: none for `INFO`, inside
    /// `BOARD`, after `END` (which ends the brain wherever it comes) and for blank lines.
    pub fn handle(&mut self, line: &str) -> Vec<String> {
        if self.finished {
            return Vec::new();
        }
        let reply = if self.board_block.is_some() {
            self.board_line(line)
        } else {
            Command::parse(line)
                .map_err(Refusal::from)
                .and_then(|command| command.map_or(Ok(Vec::new()), |c| self.execute(c)))
        };
        reply.unwrap_or_else(|why| vec![format!("ERROR {why}")])
    }

    /// Answers a line that could not be read as one (too long, say): an `ERROR`, or inside
    /// `BOARD` a spoilt block that `DONE` refuses with this error.
    pub(crate) fn refuse_line(&mut self, why: CommandError) -> Vec<String> {
        if self.board_block.is_some() {
            self.spoil_board_block(why);
            Vec::new()
        } else {
            vec![format!("ERROR {why}")]
        }
    }

    fn execute(&mut self, command: Command) -> Reply {
        match command {
            Command::Start { size } => self.new_game(size, size),
            Command::RectStart { width, height } => self.new_game(width, height),
            Command::Restart => {
                let game = self.game_mut()?;
                *game = game.emptied();
                Ok(vec!["OK".to_owned()])
            }
            Command::Info(info) => self.info(info).map(|()| Vec::new()),
            Command::Begin => {
                let game = self.game_mut()?.clone();
                self.play(game)
            }
            Command::Turn { x, y } => {
                let mut game = self.game_mut()?.clone();
                game.place(x, y, Stone::Opponent)?;
                self.play(game)
            }
            Command::BrainBoard => {
                self.game_mut()?;
                self.board_block = Some(Ok(Vec::new()));
                Ok(Vec::new())
            }
            Command::Takeback { x, y } => {
                self.game_mut()?.take_back(x, y)?;
                Ok(vec!["OK".to_owned()])
            }
            Command::About => Ok(vec![format!(
                "name=\"minimax-move\", version=\"{}\", author=\"minimax-move maintainers\", country=\"-\"",
                env!("CARGO_PKG_VERSION")
            )]),
            Command::ShowForbid => {
                let rule = self.rule;
                let game = self.game_mut()?;
                Ok(vec![forbid_line(game, game.forbidden(rule))])
            }
            Command::End => {
                self.finish();
                Ok(Vec::new())
            }
            Command::Unknown(name) => Ok(vec![format!("UNKNOWN command {name}")]),
        }
    }

    fn finish(&mut self) {
        self.finished = true;
        self.board_block = None;
    }

    fn new_game(&mut self, width: usize, height: usize) -> Reply {
        self.game = None;
        self.game = Some(BrainBoard::new(width, height)?);
        Ok(vec!["OK".to_owned()])
    }

    fn info(&mut self, info: Info) -> Result<(), Refusal> {
        match info {
            Info::TimeoutTurn(ms) => self.timing.turn_ms = ms,
            Info::TimeoutMatch(ms) => self.timing.match_ms = ms,
            Info::TimeLeft(ms) => self.timing.left_ms = Some(ms),
            Info::MaxMemory(bytes) => self.max_memory = bytes,
            // The manager's thread allowance (c-gomoku-cli's `threads=`): the engine searches on
            // one thread, which every allowance permits.
            Info::ThreadNum(_) => {}
            Info::Rule(rule) => self.rule = rule,
            Info::Other(_) => {}
        }
        Ok(())
    }

    fn game_mut(&mut self) -> Result<&mut BrainBoard, BoardError> {
        self.game.as_mut().ok_or(BoardError::NoGame)
    }

    /// One line between `BOARD` and `DONE`: a stone is kept, a bad line or a stone more than
    /// the board has cells spoils the block (the first error is the one `DONE` answers with, and
    /// nothing more is kept), `END` ends the brain at once.
    fn board_line(&mut self, line: &str) -> Reply {
        match BoardLine::parse(line) {
            Ok(None) => {}
            Ok(Some(BoardLine::Stone { x, y, stone })) => {
                // A block holds at most a stone a cell: past that nothing more is kept, however
                // many lines come before `DONE`.
                let limit = self.game.as_ref().map_or(0, BrainBoard::cell_count);
                match &mut self.board_block {
                    Some(Ok(stones)) if stones.len() < limit => stones.push((x, y, stone)),
                    Some(Ok(_)) => self.spoil_board_block(CommandError::TooManyStones { limit }),
                    _ => {}
                }
            }
            Ok(Some(BoardLine::Done)) => {
                let stones = self.board_block.take().unwrap_or_else(|| Ok(Vec::new()));
                let game = self.board_from(stones?)?;
                return self.play(game);
            }
            Ok(Some(BoardLine::End)) => self.finish(),
            Err(why) => self.spoil_board_block(why),
        }
        Ok(Vec::new())
    }

    fn spoil_board_block(&mut self, why: CommandError) {
        if let Some(block @ Ok(_)) = &mut self.board_block {
            *block = Err(why);
        }
    }

    /// A board of the current game's size holding `stones`.
    fn board_from(&mut self, stones: Stones) -> Result<BrainBoard, BoardError> {
        let mut board = self.game_mut()?.emptied();
        for (x, y, stone) in stones {
            board.place(x, y, stone)?;
        }
        Ok(board)
    }

    /// Thinks on `game` (the current game with the manager's changes), plays the move on it, makes
    /// it the current game and answers with the message and the move. On an error the current game
    /// stays as it was.
    fn play(&mut self, mut game: BrainBoard) -> Reply {
        let position = game.position(self.rule)?;
        let thought = think(
            &self.engine,
            &position,
            &self.timing,
            self.options,
            &self.stop,
        );
        if self.stop.is_cancelled() {
            // Told to end while it thought: the manager no longer waits for this move.
            self.finish();
            return Ok(Vec::new());
        }
        let (x, y) = game.play_own(thought.index);
        self.game = Some(game);
        Ok(vec![thought.message, format!("{x},{y}")])
    }
}

/// A move the engine chose and the `MESSAGE` that goes with it.
struct Thought {
    index: usize,
    message: String,
}

/// Yixin's answer to `YXSHOWFORBID`, as Rapfi writes it: `FORBID `, each forbidden cell as its
/// column and row in two digits each (`0708` for 7,8), in board order, then a full stop.
fn forbid_line(game: &BrainBoard, forbidden: Vec<(usize, Foul)>) -> String {
    let mut line = "FORBID ".to_owned();
    for (index, _) in forbidden {
        let (x, y) = game.coordinates(index);
        line.push_str(&format!("{x:02}{y:02}"));
    }
    line.push('.');
    line
}

/// The one call into the engine: [`Engine::suggest`] at full strength for `position`, within the
/// limits the clock gives or until `stop` is raised. It never plays a move forbidden to black.
fn think(
    engine: &Engine,
    position: &Position,
    timing: &Timing,
    options: BrainOptions,
    stop: &Cancel,
) -> Thought {
    let started = Instant::now();
    let mut limits = timing.limits(
        position.geometry(),
        position.empty_count(),
        started,
        options,
    );
    limits.cancel = stop.clone();
    let suggestion = engine.suggest(
        position,
        &SuggestOptions {
            limits,
            ..SuggestOptions::default()
        },
    );
    let (chosen, analysis) = (suggestion.chosen, &suggestion.analysis);
    Thought {
        index: chosen.index,
        message: format!(
            "MESSAGE depth {} score {} nodes {} time {} ms",
            analysis.depth.unwrap_or(0),
            score(chosen.value),
            analysis.nodes,
            started.elapsed().as_millis()
        ),
    }
}

/// A move's value as the `MESSAGE` says it: `win in 3`, `loss in 4`, `draw`, or an estimate.
fn score(value: MoveValue) -> String {
    match value {
        MoveValue::Proven {
            outcome: Outcome::Win,
            plies,
            ..
        } => format!("win in {plies}"),
        MoveValue::Proven {
            outcome: Outcome::Loss,
            plies,
            ..
        } => format!("loss in {plies}"),
        MoveValue::Proven {
            outcome: Outcome::Draw,
            ..
        } => "draw".to_owned(),
        MoveValue::Estimate(estimate) => format!("{estimate:+.3}"),
    }
}

#[cfg(test)]
mod tests;
