//! The manager's lines, parsed: a [`Command`] at the top level, a [`BoardLine`] inside `BOARD`.

use std::num::IntErrorKind;

use thiserror::Error;

use crate::engine::Rule;

/// Whose stone is on a cell, as the manager says it: the brain's own or the opponent's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stone {
    /// The brain's stone (field 1 of a `BOARD` line).
    Own,
    /// The opponent's stone (field 2 of a `BOARD` line).
    Opponent,
}

/// One command from the manager. Names are matched in any case.
///
/// ```
/// use minimax_move::gomocup::{Command, CommandError, Info};
///
/// assert_eq!(Command::parse("TURN 7,8"), Ok(Some(Command::Turn { x: 7, y: 8 })));
/// assert_eq!(
///     Command::parse("info timeout_turn 5000"),
///     Ok(Some(Command::Info(Info::TimeoutTurn(5000))))
/// );
/// assert_eq!(Command::parse("  "), Ok(None));
/// assert!(matches!(Command::parse("TURN 7"), Err(CommandError::NotAPair { .. })));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START size`: a new game on a square board.
    Start {
        /// Squares on a side.
        size: usize,
    },
    /// `RECTSTART width,height`: a new game on a rectangular board.
    RectStart {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// `RESTART`: the same board, emptied.
    Restart,
    /// `INFO key value`: a setting; answered only when refused.
    Info(Info),
    /// `BEGIN`: the brain plays first, on the current board.
    Begin,
    /// `TURN x,y`: the opponent played there; the brain answers with its move.
    Turn {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
    },
    /// `BOARD`: [`BoardLine`]s follow, up to `DONE`.
    BrainBoard,
    /// `TAKEBACK x,y`: the stone there is removed.
    Takeback {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
    },
    /// `ABOUT`: the brain's name and version.
    About,
    /// `YXSHOWFORBID` (Yixin's and Rapfi's extension): the cells black may not play, if black is
    /// to move under renju.
    ShowForbid,
    /// `END`: the brain stops at once, answering nothing.
    End,
    /// Any other command, answered with `UNKNOWN`.
    Unknown(String),
}

/// An `INFO` setting. Times are in milliseconds, the memory in bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    /// `timeout_turn`: the longest a move may take; 0 asks for moves as fast as possible.
    TimeoutTurn(u64),
    /// `timeout_match`: the whole game's time for the brain; 0 means no limit.
    TimeoutMatch(u64),
    /// `time_left`: what is left of `timeout_match`.
    TimeLeft(u64),
    /// `max_memory`: the memory the brain may use; 0 means no limit.
    MaxMemory(u64),
    /// `thread_num`: the threads the brain may use.
    ThreadNum(u64),
    /// `rule`: the protocol's bitmask, read as a rule (see [`Info::rule`]).
    Rule(Rule),
    /// A key the brain has no use for (`game_type`, `folder`, `evaluate`...): ignored.
    Other(String),
}

/// One line between `BOARD` and `DONE`.
///
/// ```
/// use minimax_move::gomocup::{BoardLine, Stone};
///
/// assert_eq!(
///     BoardLine::parse("7,8,2"),
///     Ok(Some(BoardLine::Stone { x: 7, y: 8, stone: Stone::Opponent }))
/// );
/// assert_eq!(BoardLine::parse("END"), Ok(Some(BoardLine::End)));
/// assert!(BoardLine::parse("7,8,3").is_err(), "continuous games are not played");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardLine {
    /// `x,y,field`: a stone, field 1 the brain's and 2 the opponent's.
    Stone {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
        /// Whose stone.
        stone: Stone,
    },
    /// `DONE`: the board is complete; the brain answers with its move.
    Done,
    /// `END`: obeyed here too, at once.
    End,
}

/// A line that is not a command the brain can take; its text is the `ERROR` line's.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CommandError {
    /// A number that is not a whole number.
    #[error("{what} must be a whole number, got {text:?}")]
    NotANumber {
        /// What the number is.
        what: &'static str,
        /// The text found.
        text: String,
    },
    /// Something that is not two numbers separated by a comma.
    #[error("{what} needs two numbers as x,y, got {text:?}")]
    NotAPair {
        /// What the pair is.
        what: &'static str,
        /// The text found.
        text: String,
    },
    /// An `INFO` setting the brain uses, without a whole number.
    #[error("INFO {key} needs a whole number, got {value:?}")]
    InfoNotANumber {
        /// The setting.
        key: String,
        /// The value found.
        value: String,
    },
    /// A `BOARD` line that is not three comma-separated fields.
    #[error("BOARD line {line:?} is not x,y,field")]
    NotAStone {
        /// The line.
        line: String,
    },
    /// A `BOARD` line whose field is neither 1 nor 2 (nor 3).
    #[error("BOARD line {line:?}: the field must be 1 or 2")]
    UnknownField {
        /// The line.
        line: String,
    },
    /// Field 3 of `BOARD`, a stone of continuous games (renju-style renewals), which a single
    /// game does not have.
    #[error("continuous games (field 3) are not supported: a game ends at its first win")]
    ContinuousGame,
    /// An `INFO rule` bitmask the engine does not play.
    #[error(
        "rule {rule} is not supported: INFO rule takes 0 (freestyle), 1 (exactly five), 4 (renju) or 8 (caro), each with or without 2 (continuous game)"
    )]
    UnsupportedRule {
        /// The bitmask received.
        rule: u64,
    },
    /// A `BOARD` block with more stones than its board has cells: the lines past that are
    /// read up to `DONE` and not kept.
    #[error("BOARD lists more than {limit} stones, the cells of the board: the block is refused")]
    TooManyStones {
        /// The cells of the board.
        limit: usize,
    },
    /// A line longer than the brain reads (see [`MAX_LINE_BYTES`](super::MAX_LINE_BYTES)).
    #[error("a line longer than {limit} bytes was ignored: no command is that long")]
    LineTooLong {
        /// The limit, in bytes before the newline.
        limit: usize,
    },
}

impl Command {
    /// The command on `line`, or `None` for a blank line.
    ///
    /// # Errors
    /// A known command with arguments it cannot take: a [`CommandError`] saying why.
    pub fn parse(line: &str) -> Result<Option<Self>, CommandError> {
        let line = line.trim();
        let (name, arguments) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(name, arguments)| (name, arguments.trim()));
        let command = match name.to_ascii_uppercase().as_str() {
            "" => return Ok(None),
            "START" => Self::Start {
                size: whole_number(arguments, "START size")?,
            },
            "RECTSTART" => {
                let (width, height) = pair(arguments, "RECTSTART")?;
                Self::RectStart { width, height }
            }
            "RESTART" => Self::Restart,
            "INFO" => Self::Info(Info::parse(arguments)?),
            "BEGIN" => Self::Begin,
            "TURN" => {
                let (x, y) = pair(arguments, "TURN")?;
                Self::Turn { x, y }
            }
            "BOARD" => Self::BrainBoard,
            "TAKEBACK" => {
                let (x, y) = pair(arguments, "TAKEBACK")?;
                Self::Takeback { x, y }
            }
            "ABOUT" => Self::About,
            "YXSHOWFORBID" => Self::ShowForbid,
            "END" => Self::End,
            _ => Self::Unknown(name.to_owned()),
        };
        Ok(Some(command))
    }
}

impl Info {
    /// The rule an `INFO rule` bitmask asks for, as Piskvork sends it: 1 exactly five
    /// ([`Rule::Standard`]), 2 continuous game (accepted: it changes nothing within one game),
    /// 4 renju, 8 caro (five or more, except exactly five blocked at both ends: Piskvork's caro
    /// with overlines); 0 is freestyle.
    ///
    /// ```
    /// use minimax_move::engine::Rule;
    /// use minimax_move::gomocup::Info;
    ///
    /// assert_eq!(Info::rule(0), Ok(Rule::Freestyle));
    /// assert_eq!(Info::rule(6), Ok(Rule::Renju), "renju in a continuous game");
    /// assert!(Info::rule(9).is_err(), "caro with exactly five is not played");
    /// ```
    ///
    /// # Errors
    /// [`CommandError::UnsupportedRule`] for a bitmask with an unknown bit or with more than one
    /// of 1, 4 and 8 (5 and 12, or 9, Piskvork's exact-five caro).
    pub const fn rule(bitmask: u64) -> Result<Rule, CommandError> {
        const CONTINUOUS: u64 = 2;
        match bitmask & !CONTINUOUS {
            0 => Ok(Rule::Freestyle),
            1 => Ok(Rule::Standard),
            4 => Ok(Rule::Renju),
            8 => Ok(Rule::Caro),
            _ => Err(CommandError::UnsupportedRule { rule: bitmask }),
        }
    }

    /// The setting in `INFO`'s arguments, `key value`.
    fn parse(arguments: &str) -> Result<Self, CommandError> {
        let (key, value) = arguments
            .split_once(char::is_whitespace)
            .map_or((arguments, ""), |(key, value)| (key, value.trim()));
        let number = || {
            saturating_number(value).ok_or_else(|| CommandError::InfoNotANumber {
                key: key.to_owned(),
                value: value.to_owned(),
            })
        };
        Ok(match key.to_ascii_lowercase().as_str() {
            "timeout_turn" => Self::TimeoutTurn(number()?),
            "timeout_match" => Self::TimeoutMatch(number()?),
            "time_left" => Self::TimeLeft(number()?),
            "max_memory" => Self::MaxMemory(number()?),
            "thread_num" => Self::ThreadNum(number()?),
            "rule" => Self::Rule(Self::rule(number()?)?),
            _ => Self::Other(key.to_owned()),
        })
    }
}

impl BoardLine {
    /// The `BOARD` line on `line`, or `None` for a blank line.
    ///
    /// # Errors
    /// Anything but `x,y,field` with field 1 or 2, `DONE` or `END`: a [`CommandError`] saying why.
    pub fn parse(line: &str) -> Result<Option<Self>, CommandError> {
        let line = line.trim();
        if line.is_empty() {
            return Ok(None);
        }
        if line.eq_ignore_ascii_case("DONE") {
            return Ok(Some(Self::Done));
        }
        if line.eq_ignore_ascii_case("END") {
            return Ok(Some(Self::End));
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let [x, y, field] = fields[..] else {
            return Err(CommandError::NotAStone {
                line: line.to_owned(),
            });
        };
        let stone = match field {
            "1" => Stone::Own,
            "2" => Stone::Opponent,
            "3" => return Err(CommandError::ContinuousGame),
            _ => {
                return Err(CommandError::UnknownField {
                    line: line.to_owned(),
                });
            }
        };
        Ok(Some(Self::Stone {
            x: whole_number(x, "BOARD x")?,
            y: whole_number(y, "BOARD y")?,
            stone,
        }))
    }
}

/// A whole number too big for the machine counts as the biggest there is: to a clock or a
/// board, both mean "more than enough" (and a board refuses it).
fn saturating_number(text: &str) -> Option<u64> {
    match text.trim().parse::<u64>() {
        Ok(number) => Some(number),
        Err(error) if *error.kind() == IntErrorKind::PosOverflow => Some(u64::MAX),
        Err(_) => None,
    }
}

fn whole_number(text: &str, what: &'static str) -> Result<usize, CommandError> {
    saturating_number(text)
        .map(|number| usize::try_from(number).unwrap_or(usize::MAX))
        .ok_or_else(|| CommandError::NotANumber {
            what,
            text: text.to_owned(),
        })
}

/// `x,y` (or `width,height`).
fn pair(text: &str, what: &'static str) -> Result<(usize, usize), CommandError> {
    let (x, y) = text.split_once(',').ok_or_else(|| CommandError::NotAPair {
        what,
        text: text.to_owned(),
    })?;
    Ok((whole_number(x, what)?, whole_number(y, what)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_parsed_in_any_case_with_their_arguments() {
        for (line, command) in [
            ("START 15", Command::Start { size: 15 }),
            ("start 5", Command::Start { size: 5 }),
            (
                "RECTSTART 10,7",
                Command::RectStart {
                    width: 10,
                    height: 7,
                },
            ),
            ("  RESTART \r", Command::Restart),
            ("BEGIN", Command::Begin),
            ("TURN 7, 8", Command::Turn { x: 7, y: 8 }),
            ("BOARD", Command::BrainBoard),
            ("TAKEBACK 0,14", Command::Takeback { x: 0, y: 14 }),
            ("about", Command::About),
            ("End", Command::End),
            ("INFO rule 0", Command::Info(Info::Rule(Rule::Freestyle))),
            ("INFO rule 6", Command::Info(Info::Rule(Rule::Renju))),
            ("yxshowforbid", Command::ShowForbid),
            ("INFO THREAD_NUM 4", Command::Info(Info::ThreadNum(4))),
            (
                "INFO folder /tmp/brain dir",
                Command::Info(Info::Other("folder".to_owned())),
            ),
            ("SWAP2BOARD", Command::Unknown("SWAP2BOARD".to_owned())),
        ] {
            assert_eq!(Command::parse(line), Ok(Some(command)), "{line:?}");
        }
    }

    #[test]
    fn numbers_too_big_for_the_machine_saturate_and_others_are_errors() {
        assert_eq!(
            Command::parse("INFO timeout_turn 99999999999999999999999"),
            Ok(Some(Command::Info(Info::TimeoutTurn(u64::MAX))))
        );
        for (line, error) in [
            ("START", "START size must be a whole number, got \"\""),
            ("TURN -1,3", "TURN must be a whole number, got \"-1\""),
            ("TURN 7", "TURN needs two numbers as x,y, got \"7\""),
            ("INFO rule", "INFO rule needs a whole number, got \"\""),
            (
                "INFO time_left -5",
                "INFO time_left needs a whole number, got \"-5\"",
            ),
        ] {
            let refused = Command::parse(line).expect_err(line);
            assert_eq!(refused.to_string(), error, "{line:?}");
        }
    }

    #[test]
    fn board_lines_are_stones_done_or_end() {
        assert_eq!(BoardLine::parse(" \r"), Ok(None));
        assert_eq!(BoardLine::parse("done"), Ok(Some(BoardLine::Done)));
        assert_eq!(BoardLine::parse("end\r"), Ok(Some(BoardLine::End)));
        assert_eq!(
            BoardLine::parse("3, 4, 1"),
            Ok(Some(BoardLine::Stone {
                x: 3,
                y: 4,
                stone: Stone::Own
            }))
        );
        for (line, error) in [
            ("1,2", CommandError::NotAStone { line: "1,2".into() }),
            (
                "1,2,5",
                CommandError::UnknownField {
                    line: "1,2,5".into(),
                },
            ),
            ("1,2,3", CommandError::ContinuousGame),
            (
                "a,2,1",
                CommandError::NotANumber {
                    what: "BOARD x",
                    text: "a".into(),
                },
            ),
            (
                "TURN 7,7",
                CommandError::NotAStone {
                    line: "TURN 7,7".into(),
                },
            ),
        ] {
            assert_eq!(BoardLine::parse(line), Err(error), "{line:?}");
        }
    }
}
