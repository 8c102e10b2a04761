//! The Gomocup (piskvork) protocol, so that any gomoku GUI or match manager can play the engine:
//! `minimax-move pbrain` runs [`run`] on stdin and stdout.
//!
//! The protocol is line based: the manager sends a command, the brain answers with one line (or
//! none, for `INFO`). Coordinates are `x,y` with `x` the column and `y` the row, from the top-left
//! corner. The brain plays gomoku under the rule of `INFO rule`, the protocol's bitmask (see
//! [`Info::rule`]): freestyle (0, the default), exactly five (1), renju (4) or caro (8), each
//! with or without 2 (continuous game); other values are refused with `ERROR` and the rule
//! stays. Under renju the brain never plays a move forbidden to black, and Yixin's
//! `YXSHOWFORBID` lists black's forbidden points as Rapfi does. Boards are `START n` squares or
//! `RECTSTART width,height` rectangles up to 20 on a side (the engine's limit for five in a row),
//! at least 5 on the longer side.
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
//! - **`END`** is obeyed as soon as it is read, between commands, inside a `BOARD` block or
//!   while the brain thinks: the brain answers nothing more, reads nothing more and [`run`]
//!   returns, whether or not the manager closes its input. Input is read on a thread of its own
//!   (at most 16 lines ahead of the brain), so an `END` sent during a search stops it within
//!   milliseconds and its move is not answered; so is a search that commands queued before
//!   that `END` would start. Commands that need no search are answered in order.
//!
//! # Layout
//!
//! [`Command`] (and [`BoardLine`] inside `BOARD`) is a line parsed, with a [`CommandError`] for a
//! line that is not one; [`Brain`] holds the game and answers commands, calling
//! [`Engine::suggest`](crate::engine::Engine::suggest) for its moves; [`Timing`] turns the manager's clock
//! into search limits; [`run`] is the loop that reads lines and writes answers.
//!
//! ```
//! use minimax_move::gomocup::{run, BrainOptions};
//!
//! // The end of input ends the brain after its answers; an `END` here would stop the search.
//! let input = "START 15\nINFO timeout_turn 200\nTURN 7,7\n";
//! let mut output = Vec::new();
//! run(input.as_bytes(), &mut output, BrainOptions::default()).unwrap();
//! let output = String::from_utf8(output).unwrap();
//! let lines: Vec<&str> = output.lines().collect();
//! assert_eq!(lines[0], "OK");
//! assert!(lines[1].starts_with("MESSAGE depth"));
//! let (x, y) = lines[2].split_once(',').unwrap();
//! assert_ne!((x, y), ("7", "7"), "the brain never plays on a taken cell");
//! ```

mod board;
mod brain;
mod clock;
mod command;
mod io;

pub use brain::Brain;
pub use clock::{MAX_THINK_TIME, Timing};
pub use command::{BoardLine, Command, CommandError, Info, Stone};
pub use io::{MAX_LINE_BYTES, run};

use crate::engine::WORK_PER_MS_TIMES_CELLS;

/// Stones in a row that win: five, under every rule (which says whether an overline counts).
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
