//! The Gomocup (piskvork) protocol, so that any gomoku GUI or match manager can play the engine:
//! `minimax-move pbrain` runs [`run`] on stdin and stdout.
//!
//! The protocol is line based: the manager sends a command, the brain answers with one line (or
//! none, for `INFO`). Coordinates are `x,y` with `x` the column and `y` the row, from the top-left
//! corner. The brain plays freestyle gomoku: five or more in a row wins (`INFO rule 0`); any other
//! rule is refused with `ERROR`. Boards are `START n` squares or `RECTSTART width,height`
//! rectangles up to 15 on a side (the engine's limit), at least 5 on the longer side.
//!
//! Every move is preceded by a `MESSAGE` line with the search depth and score, which managers
//! record and GUIs show. Anything wrong (an unknown size, a stone on a taken cell, a position that
//! cannot arise or is already won) gets an `ERROR` line, never a panic.
//!
//! ```
//! use minimax_move::gomocup::{run, BrainOptions};
//!
//! let input = "START 15\nINFO timeout_turn 200\nTURN 7,7\nEND\n";
//! let mut output = Vec::new();
//! run(input.as_bytes(), &mut output, BrainOptions::default()).unwrap();
//! let output = String::from_utf8(output).unwrap();
//! let lines: Vec<&str> = output.lines().collect();
//! assert_eq!(lines[0], "OK");
//! assert!(lines[1].starts_with("MESSAGE depth"));
//! let (x, y) = lines[2].split_once(',').unwrap();
//! assert_ne!((x, y), ("7", "7"), "the brain never plays on a taken cell");
//! ```

use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

use crate::engine::{
    Geometry, Outcome, Player, Position, PositionError, Scoring, SearchLimits, SuggestOptions,
    Value, WORK_PER_MS_TIMES_CELLS, suggest,
};

/// Stones in a row that win: freestyle gomoku, five or more (a longer row contains a five).
pub const WIN_LENGTH: usize = 5;

/// How the brain turns time into search work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BrainOptions {
    /// Search work per millisecond times cells, as the server's `SEARCH_WORK_RATE`: the search
    /// stops on this budget or on the move's deadline, whichever comes first.
    pub work_rate: u64,
    /// Threads a search may use while cores are idle, as the server's `SEARCH_THREADS`; the
    /// manager's `INFO thread_num` sets it too.
    pub threads: usize,
}

impl Default for BrainOptions {
    fn default() -> Self {
        Self {
            work_rate: WORK_PER_MS_TIMES_CELLS,
            threads: 1,
        }
    }
}

/// Speaks the protocol: reads commands from `input` until `END` or the end of input, and writes
/// the answers to `output`, flushing after each command.
///
/// # Errors
/// Only I/O errors of `input` or `output`; protocol mistakes are answered with `ERROR` lines.
pub fn run<R: BufRead, W: Write>(
    mut input: R,
    mut output: W,
    options: BrainOptions,
) -> io::Result<()> {
    let mut brain = Brain::new(options);
    let mut buffer = Vec::new();
    while !brain.is_finished() {
        buffer.clear();
        if input.read_until(b'\n', &mut buffer)? == 0 {
            break;
        }
        let line = String::from_utf8_lossy(&buffer);
        let replies = brain.handle(&line);
        if !replies.is_empty() {
            for reply in &replies {
                writeln!(output, "{reply}")?;
            }
            output.flush()?;
        }
    }
    Ok(())
}

/// Whose stone is on a cell, as the manager says it: the brain's own or the opponent's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stone {
    Own,
    Opponent,
}

/// Stones as `BOARD` lists them: column, row, whose.
type Stones = Vec<(usize, usize, Stone)>;

/// The game being played: the board's shape and its stones, row-major.
#[derive(Clone, Debug)]
struct Game {
    width: usize,
    height: usize,
    cells: Vec<Option<Stone>>,
}

impl Game {
    fn new(width: usize, height: usize) -> Result<Self, String> {
        let longest = width.max(height);
        let side = usize::from(Geometry::MAX_SIDE);
        if width == 0 || height == 0 || longest < WIN_LENGTH || longest > side {
            return Err(format!(
                "unsupported board {width} x {height}: sides from 1 to {side}, the longer at least {WIN_LENGTH}"
            ));
        }
        Ok(Self {
            width,
            height,
            cells: vec![None; width * height],
        })
    }

    /// The cell index of `x,y` (column, row), if it is on the board.
    fn index(&self, x: usize, y: usize) -> Result<usize, String> {
        if x < self.width && y < self.height {
            Ok(y * self.width + x)
        } else {
            Err(format!(
                "{x},{y} is off the {} x {} board",
                self.width, self.height
            ))
        }
    }

    fn place(&mut self, x: usize, y: usize, stone: Stone) -> Result<usize, String> {
        let index = self.index(x, y)?;
        if self.cells[index].is_some() {
            return Err(format!("{x},{y} is already taken"));
        }
        self.cells[index] = Some(stone);
        Ok(index)
    }

    fn coordinates(&self, index: usize) -> (usize, usize) {
        (index % self.width, index / self.width)
    }

    /// The engine's position with the brain to move: the brain is X when the counts are equal and
    /// O when the opponent has one stone more; any other count is an impossible position.
    fn position(&self) -> Result<Position, String> {
        let count = |stone| self.cells.iter().filter(|&&c| c == Some(stone)).count();
        let (own, opponent) = (count(Stone::Own), count(Stone::Opponent));
        let me = if own == opponent {
            Player::X
        } else if opponent == own + 1 {
            Player::O
        } else {
            return Err(format!(
                "it cannot be my move with {own} stones of mine and {opponent} of the opponent"
            ));
        };
        let geometry = Geometry::new(self.height as u64, self.width as u64, WIN_LENGTH as u64)
            .map_err(|e| e.to_string())?;
        let cells = self
            .cells
            .iter()
            .map(|cell| {
                cell.map(|stone| match stone {
                    Stone::Own => me,
                    Stone::Opponent => me.opponent(),
                })
            })
            .collect();
        Position::new(geometry, cells, Some(me)).map_err(|error| match error {
            PositionError::GameOver(result) => match result.winner {
                Some(winner) if winner == me => "the game is over: I have five in a row".to_owned(),
                Some(_) => "the game is over: the opponent has five in a row".to_owned(),
                None => "the game is over: the board is full".to_owned(),
            },
            other => other.to_string(),
        })
    }
}

/// The time settings the manager sends with `INFO`, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Longest a move may take; 0 asks for moves as fast as possible.
    pub turn_ms: u64,
    /// The whole game's time for the brain; 0 means no limit.
    pub match_ms: u64,
    /// What is left of `match_ms`, if the manager said.
    pub left_ms: Option<u64>,
}

impl Default for Timing {
    /// The protocol's defaults: 30 s a move, no match limit.
    fn default() -> Self {
        Self {
            turn_ms: 30_000,
            match_ms: 0,
            left_ms: None,
        }
    }
}

impl Timing {
    /// How long to think about a move with `empty` cells left on the board: at most the turn
    /// time and at most an even share of the match time left over the moves still expected,
    /// minus a safety margin (a tenth, at least 20 ms) for reading, writing and the process
    /// being scheduled late. Never less than 1 ms: the search always completes depth 1.
    ///
    /// ```
    /// use std::time::Duration;
    /// use minimax_move::gomocup::Timing;
    /// let per_move = Timing { turn_ms: 500, match_ms: 0, left_ms: None };
    /// assert_eq!(per_move.think_time(200), Duration::from_millis(450));
    /// let match_clock = Timing { turn_ms: 5_000, match_ms: 60_000, left_ms: Some(30_000) };
    /// assert_eq!(match_clock.think_time(200), Duration::from_millis(900));
    /// ```
    #[must_use]
    pub fn think_time(&self, empty: usize) -> Duration {
        let mut limit = self.turn_ms;
        if self.match_ms > 0 {
            let left = self.left_ms.unwrap_or(self.match_ms);
            let moves_expected = (empty as u64 / 2).clamp(5, 30);
            limit = limit.min(left / moves_expected);
        }
        let margin = (limit / 10).max(20);
        Duration::from_millis(limit.saturating_sub(margin).max(1))
    }
}

/// A move the engine chose and the `MESSAGE` that goes with it.
struct Thought {
    index: usize,
    message: String,
}

/// The one call into the engine ([`suggest`] at perfect play): the best move for `position` within `think_time`, with a work
/// budget at the brain's work rate as the HTTP API grants (see [`SearchLimits::work_at_rate`]).
fn think(position: &Position, think_time: Duration, options: BrainOptions) -> Thought {
    let started = Instant::now();
    let millis = u64::try_from(think_time.as_millis()).unwrap_or(u64::MAX);
    let limits = SearchLimits {
        max_depth: None,
        deadline: Some(started + think_time),
        max_work: Some(SearchLimits::work_at_rate(
            position.geometry(),
            millis,
            options.work_rate,
        )),
        all_moves: false,
        threads: options.threads,
        ..SearchLimits::default()
    };
    let suggestion = suggest(
        position,
        &SuggestOptions {
            scoring: Scoring::Depth,
            limits,
            ..SuggestOptions::default()
        },
    );
    let chosen = suggestion.chosen;
    let score = match chosen.value {
        Value::Proven {
            outcome: Outcome::Win,
            plies,
            ..
        } => format!("win in {plies}"),
        Value::Proven {
            outcome: Outcome::Loss,
            plies,
            ..
        } => format!("loss in {plies}"),
        Value::Proven {
            outcome: Outcome::Draw,
            ..
        } => "draw".to_owned(),
        Value::Estimate(h) => format!("{h:+.3}"),
    };
    Thought {
        index: chosen.index,
        message: format!(
            "MESSAGE depth {} score {score} nodes {} time {} ms",
            suggestion.analysis.depth.unwrap_or(0),
            suggestion.analysis.nodes,
            started.elapsed().as_millis()
        ),
    }
}

/// The protocol's state machine: one [`Brain::handle`] call a line.
///
/// ```
/// use minimax_move::gomocup::{Brain, BrainOptions};
/// let mut brain = Brain::new(BrainOptions::default());
/// assert_eq!(brain.handle("START 15"), vec!["OK"]);
/// assert_eq!(brain.handle("INFO rule 4")[0], "ERROR rule 4 is not supported: this brain plays freestyle only (rule 0, five or more in a row wins)");
/// ```
#[derive(Debug)]
pub struct Brain {
    options: BrainOptions,
    game: Option<Game>,
    /// Stones read so far while inside `BOARD` ... `DONE`, or the first error among them.
    board_lines: Option<Result<Stones, String>>,
    timing: Timing,
    /// Memory limit the manager gave, in bytes (0: none). Recorded only: a search uses a fixed
    /// 16 MiB table, well inside the 350 MB Gomocup gives.
    max_memory: u64,
    /// A rule other than freestyle, once the manager asked for one: moves are refused.
    refused_rule: Option<u64>,
    finished: bool,
}

impl Brain {
    /// A brain waiting for `START`.
    #[must_use]
    pub fn new(options: BrainOptions) -> Self {
        Self {
            options,
            game: None,
            board_lines: None,
            timing: Timing::default(),
            max_memory: 0,
            refused_rule: None,
            finished: false,
        }
    }

    /// Whether `END` was received.
    #[must_use]
    pub const fn is_finished(&self) -> bool {
        self.finished
    }

    /// The time settings received so far.
    #[must_use]
    pub const fn timing(&self) -> Timing {
        self.timing
    }

    /// Answers one line from the manager with the lines to send back (none for `INFO` and inside
    /// `BOARD`).
    pub fn handle(&mut self, line: &str) -> Vec<String> {
        let line = line.trim();
        if self.board_lines.is_some() {
            return self.board_line(line);
        }
        let (command, arguments) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(c, a)| (c, a.trim()));
        let reply = match command.to_ascii_uppercase().as_str() {
            "" => return Vec::new(),
            "START" => self.start(arguments),
            "RECTSTART" => self.rectstart(arguments),
            "RESTART" => self.restart(),
            "INFO" => {
                return self
                    .info(arguments)
                    .err()
                    .map(|why| format!("ERROR {why}"))
                    .into_iter()
                    .collect();
            }
            "BEGIN" => self.begin(),
            "TURN" => self.turn(arguments),
            "BOARD" => {
                return match self.game_mut() {
                    Ok(_) => {
                        self.board_lines = Some(Ok(Vec::new()));
                        Vec::new()
                    }
                    Err(why) => vec![format!("ERROR {why}")],
                };
            }
            "TAKEBACK" => self.takeback(arguments),
            "ABOUT" => Ok(vec![format!(
                "name=\"minimax-move\", version=\"{}\", author=\"minimax-move maintainers\", country=\"-\"",
                env!("CARGO_PKG_VERSION")
            )]),
            "END" => {
                self.finished = true;
                Ok(Vec::new())
            }
            _ => Ok(vec![format!("UNKNOWN command {command}")]),
        };
        reply.unwrap_or_else(|why| vec![format!("ERROR {why}")])
    }

    fn start(&mut self, arguments: &str) -> Result<Vec<String>, String> {
        let size = number(arguments, "START size")?;
        self.new_game(size, size)
    }

    fn rectstart(&mut self, arguments: &str) -> Result<Vec<String>, String> {
        let (width, height) = pair(arguments, "RECTSTART")?;
        self.new_game(width, height)
    }

    fn new_game(&mut self, width: usize, height: usize) -> Result<Vec<String>, String> {
        self.game = None;
        self.game = Some(Game::new(width, height)?);
        Ok(vec!["OK".to_owned()])
    }

    fn restart(&mut self) -> Result<Vec<String>, String> {
        let game = self.game_mut()?;
        game.cells.fill(None);
        Ok(vec!["OK".to_owned()])
    }

    fn info(&mut self, arguments: &str) -> Result<(), String> {
        let (key, value) = arguments
            .split_once(char::is_whitespace)
            .map_or((arguments, ""), |(k, v)| (k, v.trim()));
        let value = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("INFO {key} needs a whole number, got {value:?}"))
        };
        match key.to_ascii_lowercase().as_str() {
            "timeout_turn" => self.timing.turn_ms = value()?,
            "timeout_match" => self.timing.match_ms = value()?,
            "time_left" => self.timing.left_ms = Some(value()?),
            "max_memory" => self.max_memory = value()?,
            // The manager's thread allowance (c-gomoku-cli's `threads=`); 0 counts as 1.
            "thread_num" => {
                self.options.threads = usize::try_from(value()?).unwrap_or(usize::MAX).max(1);
            }
            "rule" => {
                let rule = value()?;
                self.refused_rule = (rule != 0).then_some(rule);
                if let Some(why) = self.rule_refusal() {
                    return Err(why);
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn rule_refusal(&self) -> Option<String> {
        self.refused_rule.map(|rule| {
            format!(
                "rule {rule} is not supported: this brain plays freestyle only (rule 0, five or more in a row wins)"
            )
        })
    }

    fn game_mut(&mut self) -> Result<&mut Game, String> {
        self.game
            .as_mut()
            .ok_or_else(|| "no game: send START or RECTSTART first".to_owned())
    }

    fn begin(&mut self) -> Result<Vec<String>, String> {
        let game = self.game_mut()?.clone();
        self.play(game)
    }

    fn turn(&mut self, arguments: &str) -> Result<Vec<String>, String> {
        let (x, y) = pair(arguments, "TURN")?;
        let mut game = self.game_mut()?.clone();
        game.place(x, y, Stone::Opponent)?;
        self.play(game)
    }

    fn takeback(&mut self, arguments: &str) -> Result<Vec<String>, String> {
        let (x, y) = pair(arguments, "TAKEBACK")?;
        let game = self.game_mut()?;
        let index = game.index(x, y)?;
        if game.cells[index].take().is_none() {
            return Err(format!("{x},{y} is empty: nothing to take back"));
        }
        Ok(vec!["OK".to_owned()])
    }

    /// One line between `BOARD` and `DONE`.
    fn board_line(&mut self, line: &str) -> Vec<String> {
        if line.eq_ignore_ascii_case("DONE") {
            let stones = self.board_lines.take().unwrap_or_else(|| Ok(Vec::new()));
            return self
                .board_from(stones)
                .and_then(|game| self.play(game))
                .unwrap_or_else(|why| vec![format!("ERROR {why}")]);
        }
        if line.is_empty() {
            return Vec::new();
        }
        if let Some(Ok(stones)) = &mut self.board_lines {
            match board_stone(line) {
                Ok(stone) => stones.push(stone),
                Err(why) => self.board_lines = Some(Err(why)),
            }
        }
        Vec::new()
    }

    /// A board of the current game's size holding `stones`.
    fn board_from(&mut self, stones: Result<Stones, String>) -> Result<Game, String> {
        let stones = stones?;
        let game = self.game_mut()?;
        let mut board = Game::new(game.width, game.height)?;
        for (x, y, stone) in stones {
            board.place(x, y, stone)?;
        }
        Ok(board)
    }

    /// Thinks on `game` (the current game with the manager's changes), plays the move on it, makes
    /// it the current game and answers with the message and the move. On an error the current game
    /// stays as it was.
    fn play(&mut self, mut game: Game) -> Result<Vec<String>, String> {
        if let Some(why) = self.rule_refusal() {
            return Err(why);
        }
        let position = game.position()?;
        let thought = think(
            &position,
            self.timing.think_time(position.empty_count()),
            self.options,
        );
        game.cells[thought.index] = Some(Stone::Own);
        let (x, y) = game.coordinates(thought.index);
        self.game = Some(game);
        Ok(vec![thought.message, format!("{x},{y}")])
    }
}

/// One `x,y,field` line of `BOARD`: field 1 is the brain's stone, 2 the opponent's.
fn board_stone(line: &str) -> Result<(usize, usize, Stone), String> {
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    let [x, y, field] = fields[..] else {
        return Err(format!("BOARD line {line:?} is not x,y,field"));
    };
    let stone = match field {
        "1" => Stone::Own,
        "2" => Stone::Opponent,
        "3" => {
            return Err(
                "continuous games (field 3) are not supported: freestyle ends at the first five"
                    .to_owned(),
            );
        }
        _ => return Err(format!("BOARD line {line:?}: the field must be 1 or 2")),
    };
    Ok((number(x, "BOARD x")?, number(y, "BOARD y")?, stone))
}

fn number(text: &str, what: &str) -> Result<usize, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("{what} must be a whole number, got {text:?}"))
}

/// `x,y` (or `width,height`).
fn pair(text: &str, what: &str) -> Result<(usize, usize), String> {
    let (x, y) = text
        .split_once(',')
        .ok_or_else(|| format!("{what} needs two numbers as x,y, got {text:?}"))?;
    Ok((number(x, what)?, number(y, what)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A brain with a game of `size` started and 100 ms a move.
    fn started(size: usize) -> Brain {
        let mut brain = Brain::new(BrainOptions::default());
        assert_eq!(brain.handle(&format!("START {size}")), vec!["OK"]);
        assert!(brain.handle("INFO timeout_turn 100").is_empty());
        brain
    }

    /// Sends `BOARD`, the stones and `DONE`, and returns the answer to `DONE`.
    fn board(brain: &mut Brain, stones: &[(usize, usize, u8)]) -> Vec<String> {
        assert!(
            brain.handle("BOARD").is_empty(),
            "BOARD itself gets no answer"
        );
        for (x, y, field) in stones {
            assert!(brain.handle(&format!("{x},{y},{field}")).is_empty());
        }
        brain.handle("DONE")
    }

    /// The move of an answer (a `MESSAGE` line, then `x,y`).
    fn played(answer: &[String]) -> (usize, usize) {
        assert_eq!(answer.len(), 2, "a message and a move: {answer:?}");
        assert!(answer[0].starts_with("MESSAGE depth "), "{answer:?}");
        assert!(answer[0].contains(" score "), "{answer:?}");
        pair(&answer[1], "move").expect("the move is x,y")
    }

    fn is_error(answer: &[String]) -> bool {
        answer.len() == 1 && answer[0].starts_with("ERROR ")
    }

    fn stone_at(brain: &Brain, x: usize, y: usize) -> Option<Stone> {
        let game = brain.game.as_ref().expect("a game is on");
        game.cells[game.index(x, y).expect("on the board")]
    }

    #[test]
    fn start_accepts_boards_the_engine_plays_and_refuses_the_others() {
        let mut brain = Brain::new(BrainOptions::default());
        for (command, ok) in [
            ("START 15", true),
            ("start 5", true),
            ("RECTSTART 10,7", true),
            ("RECTSTART 5,1", true),
            ("START 20", false),
            ("START 4", false),
            ("START 0", false),
            ("RECTSTART 4,3", false),
            ("RECTSTART 16,15", false),
            ("START fifteen", false),
            ("RECTSTART 10", false),
            ("START", false),
        ] {
            let answer = brain.handle(command);
            if ok {
                assert_eq!(answer, vec!["OK"], "{command}");
            } else {
                assert!(is_error(&answer), "{command} answered {answer:?}");
            }
        }
    }

    #[test]
    fn moves_before_start_are_errors() {
        let mut brain = Brain::new(BrainOptions::default());
        for command in ["BEGIN", "TURN 7,7", "BOARD", "TAKEBACK 7,7", "RESTART"] {
            let answer = brain.handle(command);
            assert!(is_error(&answer), "{command} answered {answer:?}");
            assert!(answer[0].contains("START"), "{command}: {answer:?}");
        }
        let mut brain = Brain::new(BrainOptions::default());
        assert!(is_error(&brain.handle("START 30")));
        assert!(
            is_error(&brain.handle("BEGIN")),
            "a refused START leaves no game"
        );
    }

    #[test]
    fn begin_plays_a_move_and_keeps_it_on_the_board() {
        let mut brain = started(15);
        let (x, y) = played(&brain.handle("BEGIN"));
        assert!(x < 15 && y < 15);
        assert_eq!(stone_at(&brain, x, y), Some(Stone::Own));
        let stones = brain.game.as_ref().unwrap().cells.iter().flatten().count();
        assert_eq!(stones, 1);
    }

    #[test]
    fn turn_records_the_opponent_stone_and_answers_on_an_empty_cell() {
        let mut brain = started(15);
        let (x, y) = played(&brain.handle("TURN 7,7"));
        assert_ne!((x, y), (7, 7));
        assert_eq!(stone_at(&brain, 7, 7), Some(Stone::Opponent));
        assert_eq!(stone_at(&brain, x, y), Some(Stone::Own));
        let answer = brain.handle(&format!("TURN {x},{y}"));
        assert!(
            is_error(&answer),
            "a stone on the brain's own cell: {answer:?}"
        );
        assert!(answer[0].contains("already taken"), "{answer:?}");
    }

    #[test]
    fn coordinates_are_column_then_row_on_rectangular_boards() {
        let mut brain = Brain::new(BrainOptions::default());
        assert_eq!(brain.handle("RECTSTART 10,6"), vec!["OK"]);
        brain.handle("INFO timeout_turn 100");
        let (x, y) = played(&brain.handle("TURN 9,5"));
        assert!(x < 10 && y < 6, "{x},{y} is on the 10 x 6 board");
        let game = brain.game.as_ref().unwrap();
        assert_eq!(
            game.cells[5 * 10 + 9],
            Some(Stone::Opponent),
            "9,5 is the last cell"
        );
        assert!(
            is_error(&brain.handle("TURN 5,9")),
            "row 9 is off a 6-row board"
        );
    }

    #[test]
    fn board_with_four_of_its_own_completes_the_five() {
        let mut brain = started(15);
        let mut stones: Vec<(usize, usize, u8)> = (3..7).map(|x| (x, 7, 1)).collect();
        stones.extend((3..7).map(|x| (x, 9, 2)));
        let answer = board(&mut brain, &stones);
        let (x, y) = played(&answer);
        assert!(
            [(2, 7), (7, 7)].contains(&(x, y)),
            "plays the five, not {x},{y}"
        );
        assert!(answer[0].contains("score win in 1"), "{answer:?}");
    }

    #[test]
    fn board_against_a_four_blocks_it() {
        let mut brain = started(15);
        let stones = [
            (0, 0, 2),
            (1, 0, 2),
            (2, 0, 2),
            (3, 0, 2),
            (9, 9, 1),
            (12, 4, 1),
            (4, 12, 1),
        ];
        let answer = board(&mut brain, &stones);
        assert_eq!(played(&answer), (4, 0), "{answer:?}");
    }

    #[test]
    fn six_in_a_row_wins_like_five() {
        let mut brain = started(15);
        let mut stones: Vec<(usize, usize, u8)> = (2..8).map(|x| (x, 4, 2)).collect();
        stones.extend([(0, 10, 1), (3, 12, 1), (6, 14, 1), (10, 10, 1), (14, 0, 1)]);
        let answer = board(&mut brain, &stones);
        assert!(is_error(&answer), "{answer:?}");
        assert!(answer[0].contains("opponent has five"), "{answer:?}");
    }

    #[test]
    fn turn_completing_the_opponent_five_is_game_over() {
        let mut brain = started(15);
        // An open four: the brain can block one end only.
        let mut stones: Vec<(usize, usize, u8)> = (5..9).map(|x| (x, 7, 2)).collect();
        stones.extend([(0, 14, 1), (14, 14, 1), (14, 0, 1)]);
        let (x, y) = played(&board(&mut brain, &stones));
        let other_end = if (x, y) == (4, 7) { (9, 7) } else { (4, 7) };
        let answer = brain.handle(&format!("TURN {},{}", other_end.0, other_end.1));
        assert!(is_error(&answer), "{answer:?}");
        assert!(answer[0].contains("opponent has five"), "{answer:?}");
        assert_eq!(
            stone_at(&brain, other_end.0, other_end.1),
            None,
            "a move answered with ERROR is not kept"
        );
    }

    #[test]
    fn takeback_removes_stones_and_refuses_empty_cells() {
        let mut brain = started(15);
        let (x, y) = played(&brain.handle("TURN 7,7"));
        assert_eq!(brain.handle(&format!("TAKEBACK {x},{y}")), vec!["OK"]);
        assert_eq!(brain.handle("TAKEBACK 7,7"), vec!["OK"]);
        assert!(
            brain
                .game
                .as_ref()
                .unwrap()
                .cells
                .iter()
                .all(Option::is_none)
        );
        for command in ["TAKEBACK 7,7", "TAKEBACK 15,15", "TAKEBACK x"] {
            assert!(is_error(&brain.handle(command)), "{command}");
        }
        let (x, y) = played(&brain.handle("BEGIN"));
        assert_eq!(stone_at(&brain, x, y), Some(Stone::Own));
    }

    #[test]
    fn restart_clears_the_board_and_keeps_its_size() {
        let mut brain = Brain::new(BrainOptions::default());
        brain.handle("RECTSTART 9,7");
        brain.handle("INFO timeout_turn 50");
        played(&brain.handle("TURN 4,3"));
        assert_eq!(brain.handle("RESTART"), vec!["OK"]);
        let game = brain.game.as_ref().unwrap();
        assert_eq!((game.width, game.height), (9, 7));
        assert!(game.cells.iter().all(Option::is_none));
    }

    #[test]
    fn info_sets_the_clock_and_the_threads_and_ignores_unknown_keys() {
        let mut brain = Brain::new(BrainOptions::default());
        for command in [
            "INFO timeout_turn 5000",
            "INFO timeout_match 180000",
            "INFO time_left 90000",
            "INFO max_memory 367001600",
            "INFO game_type 1",
            "INFO folder /tmp/brain",
            "INFO evaluate 7,7",
            "INFO thread_num 2",
        ] {
            assert!(brain.handle(command).is_empty(), "{command} gets no answer");
        }
        assert_eq!(
            brain.timing(),
            Timing {
                turn_ms: 5000,
                match_ms: 180_000,
                left_ms: Some(90_000)
            }
        );
        assert_eq!(brain.max_memory, 367_001_600);
        assert_eq!(brain.options.threads, 2);
        for command in ["INFO timeout_turn soon", "INFO time_left -5", "INFO rule"] {
            assert!(is_error(&brain.handle(command)), "{command}");
        }
        assert_eq!(brain.timing().turn_ms, 5000, "a bad value changes nothing");
        assert!(brain.handle("INFO thread_num 0").is_empty());
        assert_eq!(brain.options.threads, 1, "no threads means one");
    }

    #[test]
    fn rules_other_than_freestyle_are_refused_until_freestyle_is_asked_for() {
        let mut brain = started(15);
        assert!(brain.handle("INFO rule 0").is_empty());
        for rule in [1, 2, 4, 8] {
            let answer = brain.handle(&format!("INFO rule {rule}"));
            assert!(is_error(&answer), "rule {rule}: {answer:?}");
            assert!(answer[0].contains("freestyle"), "{answer:?}");
            assert!(
                is_error(&brain.handle("BEGIN")),
                "no move under rule {rule}"
            );
        }
        assert!(brain.handle("INFO rule 0").is_empty());
        played(&brain.handle("BEGIN"));
    }

    #[test]
    fn bad_board_blocks_are_errors_and_leave_the_board_unchanged() {
        let mut brain = started(15);
        let (x, y) = played(&brain.handle("TURN 7,7"));
        for (stones, why) in [
            (vec!["1,2"], "not x,y,field"),
            (vec!["1,2,5"], "field must be 1 or 2"),
            (vec!["1,2,3"], "continuous"),
            (vec!["a,2,1"], "whole number"),
            (vec!["15,2,1"], "off the"),
            (vec!["1,2,1", "1,2,2"], "already taken"),
            (vec!["1,2,1", "3,4,1", "5,6,2"], "cannot be my move"),
            (vec!["1,2,2", "3,4,2", "5,6,2"], "cannot be my move"),
        ] {
            assert!(brain.handle("BOARD").is_empty());
            for stone in &stones {
                assert!(brain.handle(stone).is_empty(), "{stone}");
            }
            let answer = brain.handle("DONE");
            assert!(is_error(&answer), "{stones:?}: {answer:?}");
            assert!(answer[0].contains(why), "{stones:?}: {answer:?}");
            assert_eq!(stone_at(&brain, 7, 7), Some(Stone::Opponent), "{stones:?}");
            assert_eq!(stone_at(&brain, x, y), Some(Stone::Own), "{stones:?}");
        }
    }

    #[test]
    fn malformed_and_unknown_commands_get_error_or_unknown() {
        let mut brain = started(15);
        for command in ["TURN 7", "TURN a,b", "TURN 7,15", "TURN -1,3", "TURN"] {
            assert!(is_error(&brain.handle(command)), "{command}");
        }
        assert!(
            brain
                .game
                .as_ref()
                .unwrap()
                .cells
                .iter()
                .all(Option::is_none)
        );
        assert_eq!(
            brain.handle("SWAP2BOARD"),
            vec!["UNKNOWN command SWAP2BOARD"]
        );
        assert!(brain.handle("").is_empty());
        assert!(brain.handle("   ").is_empty());
    }

    #[test]
    fn about_names_the_brain() {
        let answer = Brain::new(BrainOptions::default()).handle("ABOUT");
        assert_eq!(answer.len(), 1);
        assert!(
            answer[0].starts_with("name=\"minimax-move\", version=\""),
            "{answer:?}"
        );
        assert!(answer[0].contains("author=") && answer[0].contains("country="));
    }

    #[test]
    fn run_stops_at_end_and_copes_with_crlf_and_bad_bytes() {
        let input = b"START 15\r\nINFO timeout_turn 50\r\n\xff\xfe\r\nABOUT\r\nEND\r\nSTART 15\r\n";
        let mut output = Vec::new();
        run(&input[..], &mut output, BrainOptions::default()).unwrap();
        let output = String::from_utf8(output).unwrap();
        let lines: Vec<&str> = output.lines().collect();
        assert_eq!(lines.len(), 3, "{output}");
        assert_eq!(lines[0], "OK");
        assert!(lines[1].starts_with("UNKNOWN"), "{output}");
        assert!(lines[2].starts_with("name="), "nothing after END: {output}");
    }

    #[test]
    fn think_time_obeys_the_turn_and_the_match_clock() {
        let fast = Timing {
            turn_ms: 0,
            match_ms: 0,
            left_ms: None,
        };
        assert_eq!(fast.think_time(225), Duration::from_millis(1));
        let unlimited_match = Timing {
            turn_ms: 2_000,
            match_ms: 0,
            left_ms: Some(10),
        };
        assert_eq!(
            unlimited_match.think_time(225),
            Duration::from_millis(1_800)
        );
        let short_of_time = Timing {
            turn_ms: 2_000,
            match_ms: 100_000,
            left_ms: Some(1_000),
        };
        assert_eq!(short_of_time.think_time(225), Duration::from_millis(13));
        let endgame = Timing {
            turn_ms: 10_000,
            match_ms: 100_000,
            left_ms: Some(10_000),
        };
        assert_eq!(endgame.think_time(4), Duration::from_millis(1_800));
        let left_unsaid = Timing {
            turn_ms: 10_000,
            match_ms: 60_000,
            left_ms: None,
        };
        assert_eq!(left_unsaid.think_time(225), Duration::from_millis(1_800));
    }
}
