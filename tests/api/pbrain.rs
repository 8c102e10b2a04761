//! The real binary as a Gomocup match manager runs it: `minimax-move pbrain`, spoken to over pipes.
//!
//! Each exchange reads lines until the answer it waits for (a move, `OK`, `ERROR`), so nothing
//! here depends on timing; only a brain that should exit with its input still open is given a
//! generous while to do so before the test calls it stuck.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

const BINARY: &str = env!("CARGO_BIN_EXE_minimax-move");

/// The brain process, killed when dropped so that a failing test leaves nothing behind.
struct Brain {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Brain {
    fn start() -> Self {
        let mut child = Command::new(BINARY)
            .arg("pbrain")
            .env_clear()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        Self {
            child,
            stdin,
            stdout,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the brain reads its input");
        self.stdin.flush().expect("the brain reads its input");
    }

    fn read_line(&mut self) -> String {
        let mut line = String::new();
        let read = self
            .stdout
            .read_line(&mut line)
            .expect("the brain writes text");
        assert!(read > 0, "the brain closed its output");
        line.trim_end().to_owned()
    }

    /// Reads past `MESSAGE` lines to the move, and returns the messages and the move.
    fn read_move(&mut self) -> (Vec<String>, (usize, usize)) {
        let mut messages = Vec::new();
        loop {
            let line = self.read_line();
            if line.starts_with("MESSAGE") {
                messages.push(line);
                continue;
            }
            let (x, y) = line
                .split_once(',')
                .unwrap_or_else(|| panic!("a move x,y, got {line:?}"));
            let parse = |n: &str| {
                n.parse()
                    .unwrap_or_else(|_| panic!("a move x,y, got {line:?}"))
            };
            return (messages, (parse(x), parse(y)));
        }
    }

    /// Waits for the brain to exit on its own, its input still open (the pipe is not closed
    /// until the test ends), and returns what it wrote after the last line read. Gives up after
    /// `patience`: a brain still running then has ignored the command that should end it.
    fn exits_with_input_open(&mut self, patience: Duration) -> String {
        let given_up = Instant::now() + patience;
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("the brain can be waited for") {
                break status;
            }
            assert!(
                Instant::now() < given_up,
                "the brain still runs {patience:?} later, its input open"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        assert!(status.success(), "exit status {status}");
        let mut rest = String::new();
        self.stdout
            .read_to_string(&mut rest)
            .expect("the brain writes text");
        rest
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Output that notes, at each write, whether the engine's tables are built.
struct NotingWarmth {
    written: Vec<u8>,
    warm_at_each_write: Vec<bool>,
}

impl Write for NotingWarmth {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.warm_at_each_write
            .push(minimax_move::engine::Engine::default().warmed_up());
        self.written.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn the_engine_tables_are_built_before_the_first_start_is_answered() {
    if crate::operations::rerun_alone(
        "pbrain::the_engine_tables_are_built_before_the_first_start_is_answered",
    ) {
        return;
    }
    assert!(
        !minimax_move::engine::Engine::default().warmed_up(),
        "a new process has built nothing yet"
    );
    let mut output = NotingWarmth {
        written: Vec::new(),
        warm_at_each_write: Vec::new(),
    };
    // The brain's own loop, as `minimax-move pbrain` runs it on stdin and stdout.
    minimax_move::gomocup::run(
        "START 15\nINFO rule 1\n".as_bytes(),
        &mut output,
        minimax_move::gomocup::BrainOptions::default(),
    )
    .expect("no I/O error");
    assert_eq!(String::from_utf8_lossy(&output.written), "OK\n");
    assert!(
        output.warm_at_each_write.iter().all(|&warm| warm) && !output.warm_at_each_write.is_empty(),
        "{:?}",
        output.warm_at_each_write
    );
}

#[test]
fn plays_a_game_over_the_gomocup_protocol_and_ends_on_end() {
    let mut brain = Brain::start();
    brain.send("START 15");
    assert_eq!(brain.read_line(), "OK");
    for info in [
        "INFO timeout_turn 300",
        "INFO timeout_match 0",
        "INFO max_memory 367001600",
        "INFO rule 0",
    ] {
        brain.send(info);
    }
    brain.send("ABOUT");
    assert!(brain.read_line().starts_with("name=\"minimax-move\""));

    brain.send("BEGIN");
    let (messages, first) = brain.read_move();
    assert_eq!(messages.len(), 1, "one MESSAGE before each move");
    assert!(
        messages[0].contains("depth") && messages[0].contains("score"),
        "{messages:?}"
    );
    assert!(first.0 < 15 && first.1 < 15);

    // The opponent plays next to the brain's stone; the brain answers on another empty cell.
    let theirs = if first.0 < 14 {
        (first.0 + 1, first.1)
    } else {
        (first.0 - 1, first.1)
    };
    brain.send(&format!("TURN {},{}", theirs.0, theirs.1));
    let (_, second) = brain.read_move();
    assert!(
        second != first && second != theirs,
        "{second:?} is an empty cell"
    );

    // A manager's BOARD: the brain (1) has four in a row and must complete it.
    brain.send("BOARD");
    for stone in [
        "3,3,1", "4,3,1", "5,3,1", "6,3,1", "3,5,2", "4,5,2", "5,5,2", "6,5,2",
    ] {
        brain.send(stone);
    }
    brain.send("DONE");
    let (messages, five) = brain.read_move();
    assert!(
        [(2, 3), (7, 3)].contains(&five),
        "completes the five, not {five:?}"
    );
    assert!(messages[0].contains("win in 1"), "{messages:?}");

    brain.send("INFO rule 9");
    assert!(brain.read_line().starts_with("ERROR rule 9"));
    brain.send("END");
    let status = brain.child.wait().expect("the brain exits");
    assert!(status.success(), "exit status {status}");
}

/// Black's shapes on 15 × 15 with one forbidden point each under renju (a double-three at 3,3, a
/// double-four at 11,3, an overline at 5,11), as a `BOARD` block with the brain black (field 1)
/// and white's fifteen stones on the two bottom rows: black is to move.
fn board_with_a_foul_of_each_kind() -> Vec<String> {
    let black = [
        (1, 3),
        (2, 3),
        (3, 1),
        (3, 2),
        (8, 3),
        (9, 3),
        (10, 3),
        (11, 0),
        (11, 1),
        (11, 2),
        (2, 11),
        (3, 11),
        (4, 11),
        (6, 11),
        (7, 11),
    ];
    let white = (0..15).map(|x| (x, 13 + (x + 1) % 2));
    let black = black.into_iter().map(|(x, y)| format!("{x},{y},1"));
    black
        .chain(white.map(|(x, y)| format!("{x},{y},2")))
        .collect()
}

#[test]
fn info_rule_takes_the_protocol_bitmask_and_yxshowforbid_answers_as_rapfi() {
    let mut brain = Brain::start();
    brain.send("START 15");
    assert_eq!(brain.read_line(), "OK");
    brain.send("INFO timeout_turn 200");
    // An accepted rule gets no answer: the next line is the answer to YXSHOWFORBID.
    for rule in [0, 1, 2, 3, 6, 8, 10, 4] {
        brain.send(&format!("INFO rule {rule}"));
        brain.send("YXSHOWFORBID");
        assert_eq!(
            brain.read_line(),
            "FORBID .",
            "rule {rule} on an empty board"
        );
    }

    brain.send("BOARD");
    for stone in board_with_a_foul_of_each_kind() {
        brain.send(&stone);
    }
    brain.send("DONE");
    let (_, (x, y)) = brain.read_move();
    assert!(
        ![(3, 3), (11, 3), (5, 11)].contains(&(x, y)),
        "black plays no forbidden point: {x},{y}"
    );
    brain.send(&format!("TAKEBACK {x},{y}"));
    assert_eq!(brain.read_line(), "OK");
    brain.send("YXSHOWFORBID");
    assert_eq!(brain.read_line(), "FORBID 030311030511.");

    for rule in [5, 9, 12, 16] {
        brain.send(&format!("INFO rule {rule}"));
        let answer = brain.read_line();
        assert!(
            answer.starts_with(&format!("ERROR rule {rule} is not supported")),
            "{answer}"
        );
        brain.send("yxshowforbid");
        assert_eq!(
            brain.read_line(),
            "FORBID 030311030511.",
            "rule {rule} refused: still renju"
        );
    }
    brain.send("INFO rule 0");
    brain.send("YXSHOWFORBID");
    assert_eq!(brain.read_line(), "FORBID .", "freestyle forbids nothing");
    brain.send("END");
    assert_eq!(brain.exits_with_input_open(Duration::from_secs(20)), "");
}

#[test]
fn plays_on_twenty_by_twenty_boards() {
    for start in ["START 20", "RECTSTART 20,20"] {
        let mut brain = Brain::start();
        brain.send(start);
        assert_eq!(brain.read_line(), "OK", "{start}");
        brain.send("INFO timeout_turn 300");
        brain.send("TURN 19,0");
        let (_, (x, y)) = brain.read_move();
        assert!(x < 20 && y < 20 && (x, y) != (19, 0), "{start}: {x},{y}");

        // The opponent (2) has four against the bottom corner; the brain blocks the five.
        brain.send("BOARD");
        for stone in [
            "19,16,2", "19,17,2", "19,18,2", "19,19,2", "0,0,1", "10,10,1", "0,19,1",
        ] {
            brain.send(stone);
        }
        brain.send("DONE");
        let (_, block) = brain.read_move();
        assert_eq!(block, (19, 15), "{start}");
        brain.send("START 21");
        assert!(brain.read_line().starts_with("ERROR "), "{start}");
        brain.send("END");
        assert_eq!(brain.exits_with_input_open(Duration::from_secs(20)), "");
    }
}

#[test]
fn end_inside_a_board_block_ends_the_brain_at_once_while_its_input_stays_open() {
    let mut brain = Brain::start();
    brain.send("START 15");
    assert_eq!(brain.read_line(), "OK");
    brain.send("BOARD");
    brain.send("7,7,2");
    brain.send("END");
    let after = brain.exits_with_input_open(Duration::from_secs(20));
    assert_eq!(after, "", "nothing is written after END");
}

#[test]
fn end_between_commands_ends_the_brain_while_its_input_stays_open() {
    let mut brain = Brain::start();
    brain.send("START 15");
    assert_eq!(brain.read_line(), "OK");
    brain.send("END");
    assert_eq!(brain.exits_with_input_open(Duration::from_secs(20)), "");
}

#[test]
fn end_during_a_long_search_stops_it_and_the_brain_exits_without_a_move() {
    let mut brain = Brain::start();
    brain.send("START 15");
    assert_eq!(brain.read_line(), "OK");
    // Thirty seconds a move, the most the brain takes: without END the search would run for
    // about that long.
    brain.send("INFO timeout_match 0");
    brain.send("INFO timeout_turn 30000");
    brain.send("TURN 7,7");
    std::thread::sleep(Duration::from_millis(300));
    brain.send("END");
    let after = brain.exits_with_input_open(Duration::from_secs(10));
    assert_eq!(after, "", "the interrupted move is not answered");
}

#[test]
fn a_line_over_the_cap_gets_an_error_naming_the_cap_and_the_brain_plays_on() {
    let mut brain = Brain::start();
    // A megabyte on one line, far over the 64 KiB cap; then ordinary commands.
    brain.send(&"x".repeat(1 << 20));
    let answer = brain.read_line();
    assert!(answer.starts_with("ERROR "), "{:.80}", answer);
    assert!(
        answer.contains("65536 bytes"),
        "names the cap: {answer:.200}"
    );
    assert!(answer.len() < 200, "does not echo the line: {answer:.200}");

    // The same inside a BOARD block: the block is refused at DONE, and the game goes on.
    brain.send("START 15");
    assert_eq!(brain.read_line(), "OK");
    brain.send("INFO timeout_turn 100");
    brain.send("BOARD");
    brain.send(&format!("7,7,2{}", " ".repeat(1 << 17)));
    brain.send("DONE");
    let answer = brain.read_line();
    assert!(answer.starts_with("ERROR "), "{answer:.200}");
    assert!(
        answer.contains("65536 bytes"),
        "names the cap: {answer:.200}"
    );
    brain.send("TURN 7,7");
    let (_, reply) = brain.read_move();
    assert_ne!(reply, (7, 7));
    brain.send("END");
    assert_eq!(brain.exits_with_input_open(Duration::from_secs(20)), "");
}
