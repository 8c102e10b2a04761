//! The loop: lines in, answers out.

use std::io::{self, BufRead, Read, Write};
use std::sync::mpsc;
use std::thread;

use super::BrainOptions;
use super::brain::Brain;
use super::command::{BoardLine, Command, CommandError};
use crate::engine::{Cancel, Engine};

/// The longest line the brain reads, in bytes before its newline: 64 KiB, far above any legal
/// command (a path in `INFO folder` is at most 4 KiB on common systems; every other line is a
/// few bytes). A longer line is skipped without being kept and answered with an `ERROR`.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// How many lines the reader may read ahead of the brain. Input beyond that waits in the pipe,
/// so a flood of lines during a search takes no memory.
const READ_AHEAD: usize = 16;

/// Speaks the protocol: reads commands from `input` until `END` or the end of input, and writes
/// the answers to `output`, flushing after each command. After `END` nothing more is read, so
/// the manager need not close `input` for this to return.
///
/// Before it reads anything it builds the engine's tables ([`Engine::warm_up`]), so that the
/// first move of a game is searched on a clock of its own and not spent building them.
///
/// `input` is read on a thread of its own, so that an `END` that arrives while the brain thinks
/// stops the search at once (see [`Brain::stop_handle`]) instead of waiting for the move.
///
/// # Errors
/// Only I/O errors of `input` or `output`; protocol mistakes are answered with `ERROR` lines.
pub fn run<R: BufRead + Send + 'static, W: Write>(
    input: R,
    mut output: W,
    options: BrainOptions,
) -> io::Result<()> {
    let engine = Engine::default();
    engine.warm_up();
    let mut brain = Brain::with_engine(engine, options);
    let lines = spawn_reader(input, brain.stop_handle());
    while !brain.is_finished() {
        let replies = match lines.recv() {
            Err(mpsc::RecvError) => break,
            Ok(Err(why)) => return Err(why),
            Ok(Ok(Line::Text(line))) => brain.handle(&line),
            Ok(Ok(Line::TooLong)) => brain.refuse_line(CommandError::LineTooLong {
                limit: MAX_LINE_BYTES,
            }),
        };
        if !replies.is_empty() {
            for reply in &replies {
                writeln!(output, "{reply}")?;
            }
            output.flush()?;
        }
    }
    Ok(())
}

/// A line as the reader passes it on.
enum Line {
    Text(String),
    /// A line over [`MAX_LINE_BYTES`], dropped unread.
    TooLong,
}

/// Reads `input` line by line on a thread of its own until `END`, the end of input or an error
/// (which is passed on last). `END` also raises `stop` the moment it is read.
fn spawn_reader<R: BufRead + Send + 'static>(
    mut input: R,
    stop: Cancel,
) -> mpsc::Receiver<io::Result<Line>> {
    let (sender, receiver) = mpsc::sync_channel(READ_AHEAD);
    let read = move || {
        let mut line = Vec::new();
        loop {
            let (read, is_end) = match read_line(&mut input, &mut line, MAX_LINE_BYTES) {
                Ok(LineRead::EndOfInput) => return,
                Ok(LineRead::TooLong) => (Ok(Line::TooLong), false),
                Ok(LineRead::Line) => {
                    let text = String::from_utf8_lossy(&line).into_owned();
                    let is_end = is_end(&text);
                    (Ok(Line::Text(text)), is_end)
                }
                Err(why) => (Err(why), true),
            };
            if is_end {
                stop.cancel();
            }
            if sender.send(read).is_err() || is_end {
                return;
            }
        }
    };
    match thread::Builder::new()
        .name("pbrain-input".to_owned())
        .spawn(read)
    {
        Ok(_) => {}
        Err(why) => {
            // No thread to read with: the brain gets the error and stops at once.
            let (sender, receiver) = mpsc::sync_channel(1);
            let _ = sender.send(Err(why));
            return receiver;
        }
    }
    receiver
}

/// Whether `line` is `END`, as a command or inside a `BOARD` block.
fn is_end(line: &str) -> bool {
    matches!(Command::parse(line), Ok(Some(Command::End)))
        || matches!(BoardLine::parse(line), Ok(Some(BoardLine::End)))
}

/// What [`read_line`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LineRead {
    /// A line, now in the buffer (with its newline, if it had one).
    Line,
    /// A line longer than the limit, read through to its newline and dropped.
    TooLong,
    /// Nothing: the input is closed.
    EndOfInput,
}

/// Reads the next line into `line` (cleared first), keeping at most `limit` bytes before the
/// newline: a longer line is read through to its newline (or the end of input) without being
/// kept, so `line` never holds more than `limit + 1` bytes.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>, limit: usize) -> io::Result<LineRead> {
    line.clear();
    let cap = u64::try_from(limit).map_or(u64::MAX, |limit| limit.saturating_add(1));
    if input.by_ref().take(cap).read_until(b'\n', line)? == 0 {
        return Ok(LineRead::EndOfInput);
    }
    if line.len() <= limit || line.ends_with(b"\n") {
        return Ok(LineRead::Line);
    }
    line.clear();
    input.skip_until(b'\n')?;
    Ok(LineRead::TooLong)
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    /// Input that fails once its script is read: a brain that reads past it returns the error.
    struct ScriptThenFail(Cursor<Vec<u8>>);

    impl Read for ScriptThenFail {
        fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
            match self.0.read(buffer)? {
                0 => Err(io::Error::other("read past the script")),
                read => Ok(read),
            }
        }
    }

    /// The brain's output for `script`, or the error of reading past its end.
    fn run_script(script: &[u8]) -> io::Result<String> {
        let input = io::BufReader::new(ScriptThenFail(Cursor::new(script.to_vec())));
        let mut output = Vec::new();
        run(input, &mut output, BrainOptions::default())?;
        Ok(String::from_utf8(output).expect("the brain writes text"))
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
    fn end_stops_reading_at_once_between_commands_and_inside_a_board_block() {
        for (script, expected) in [
            (&b"START 15\nEND\n"[..], "OK\n"),
            (b"START 15\nBOARD\n7,7,2\nEND\n", "OK\n"),
            (b"START 15\nBOARD\nend\r\n", "OK\n"),
            (b"START 15\nBOARD\n7,7,7\n  End  \n", "OK\n"),
        ] {
            let shown = String::from_utf8_lossy(script);
            let output =
                run_script(script).unwrap_or_else(|why| panic!("{shown:?} read past END: {why}"));
            assert_eq!(output, expected, "{shown:?}");
        }
    }

    #[test]
    fn end_read_while_the_brain_thinks_stops_the_search_and_its_move_is_not_answered() {
        // The reader sees END long before a 30 s search could end: the search stops at once.
        let started = std::time::Instant::now();
        let output = run_script(b"START 15\nINFO timeout_turn 30000\nABOUT\nTURN 7,7\nEND\n")
            .expect("reads to END");
        let lines: Vec<&str> = output.lines().collect();
        assert_eq!(lines.len(), 2, "{output}");
        assert_eq!(lines[0], "OK");
        assert!(lines[1].starts_with("name="), "{output}");
        assert!(started.elapsed() < std::time::Duration::from_secs(20));
    }

    #[test]
    fn an_overlong_line_is_refused_naming_the_cap_and_reading_goes_on() {
        let mut script = vec![b'x'; 4 << 20];
        script.extend_from_slice(b"\nABOUT\nSTART 15\nBOARD\n7,7,2");
        script.extend(std::iter::repeat_n(b' ', MAX_LINE_BYTES));
        script.extend_from_slice(b"\nDONE\nEND\n");
        let output = run_script(&script).expect("reads to END");
        let lines: Vec<&str> = output.lines().collect();
        assert_eq!(lines.len(), 4, "{output:.300}");
        let refusal = "ERROR a line longer than 65536 bytes was ignored: no command is that long";
        assert_eq!(lines[0], refusal, "outside BOARD, at once");
        assert!(lines[1].starts_with("name="), "{output:.300}");
        assert_eq!(lines[2], "OK");
        assert_eq!(lines[3], refusal, "inside BOARD, at DONE");
    }

    #[test]
    fn lines_up_to_the_cap_are_read_and_longer_ones_are_not_kept() {
        let limit = 16;
        let mut input = Cursor::new(b"0123456789abcdef\n0123456789abcdefg\nnext\nlast".to_vec());
        let mut line = Vec::new();
        let mut read = || read_line(&mut input, &mut line, limit).map(|read| (read, line.clone()));
        assert_eq!(
            read().unwrap(),
            (LineRead::Line, b"0123456789abcdef\n".to_vec())
        );
        assert_eq!(read().unwrap(), (LineRead::TooLong, Vec::new()));
        assert_eq!(read().unwrap(), (LineRead::Line, b"next\n".to_vec()));
        assert_eq!(read().unwrap(), (LineRead::Line, b"last".to_vec()));
        assert_eq!(read().unwrap(), (LineRead::EndOfInput, Vec::new()));

        // A line of 64 MiB, produced as it is read: the buffer stays near the cap.
        let endless = io::repeat(b'x').take(64 << 20).chain(&b"\nABOUT\n"[..]);
        let mut input = io::BufReader::new(endless);
        let mut line = Vec::new();
        assert_eq!(
            read_line(&mut input, &mut line, MAX_LINE_BYTES).unwrap(),
            LineRead::TooLong
        );
        assert!(line.capacity() <= 2 * MAX_LINE_BYTES, "{}", line.capacity());
        assert_eq!(
            read_line(&mut input, &mut line, MAX_LINE_BYTES).unwrap(),
            LineRead::Line
        );
        assert_eq!(line, b"ABOUT\n");
    }
}
