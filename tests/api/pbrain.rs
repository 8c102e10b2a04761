//! The real binary as a Gomocup match manager runs it: `minimax-move pbrain`, spoken to over pipes.
//!
//! Each exchange reads lines until the answer it waits for (a move, `OK`, `ERROR`), so nothing
//! here depends on timing.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

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
}

impl Drop for Brain {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
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

    brain.send("INFO rule 4");
    assert!(brain.read_line().starts_with("ERROR rule 4"));
    brain.send("END");
    let status = brain.child.wait().expect("the brain exits");
    assert!(status.success(), "exit status {status}");
}
