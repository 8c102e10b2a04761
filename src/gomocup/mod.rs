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
//! # Limits
//!
//! - **Lines** hold at most [`MAX_LINE_BYTES`] (64 KiB) before their newline, far above any legal
//!   command (the longest, `INFO folder`, carries a path; a `BOARD` block sends one short line a
//!   stone). A longer line is read through to its newline without being kept and answered with
//!   an `ERROR` naming the limit; inside `BOARD` it spoils the block, which `DONE` then refuses
//!   with that `ERROR`. Either way the brain reads on.
//! - **Time**: a move thinks at most [`MAX_THINK_TIME`] (30 s, the protocol's default
//!   `timeout_turn`), whatever `timeout_turn`, `timeout_match` and `time_left` allow; within that,
//!   [`Timing::think_time`] says how the three are combined.
//! - **`END`** is obeyed as soon as it is read, between commands or inside a `BOARD` block: the
//!   brain answers nothing more, reads nothing more and [`run`] returns, whether or not the
//!   manager closes its input. The brain reads nothing while it thinks (the protocol's
//!   one-thread model), so an `END` sent during a search is read once the move is out, at most
//!   [`MAX_THINK_TIME`] later.
//!
//! # Layout
//!
//! [`Command`] (and [`BoardLine`] inside `BOARD`) is a line parsed, with a [`CommandError`] for a
//! line that is not one; [`Brain`] holds the game and answers commands, calling
//! [`engine::suggest`](crate::engine::suggest) for its moves; [`Timing`] turns the manager's clock
//! into search limits; [`run`] is the loop that reads lines and writes answers.
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

mod brain;
mod clock;
mod command;
mod game;
mod io;

pub use brain::Brain;
pub use clock::{MAX_THINK_TIME, Timing};
pub use command::{BoardLine, Command, CommandError, Info, Stone};
pub use io::{MAX_LINE_BYTES, run};

use crate::engine::WORK_PER_MS_TIMES_CELLS;

/// Stones in a row that win: freestyle gomoku, five or more (a longer row contains a five).
pub const WIN_LENGTH: usize = 5;

/// How the brain turns time into search work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BrainOptions {
    /// Search work per millisecond times cells, as the server's `SEARCH_WORK_RATE`: the search
    /// stops on this budget or on the move's deadline, whichever comes first.
    pub work_rate: u64,
}

impl Default for BrainOptions {
    fn default() -> Self {
        Self {
            work_rate: WORK_PER_MS_TIMES_CELLS,
        }
    }
}
