//! Builds the 7 × 6 Connect Four opening book that the engine ships (`connect4.book` beside the
//! gravity solver), or a book of any gravity board of up to 64 bits: every position a game
//! reaches with at most `--depth` stones, mirror images once, with its exact score, solved by
//! the engine's own solver.
//!
//! ```text
//! # On one machine (resumable: run it again after a stop and it goes on):
//! connect4-book [build] [--depth N] [--threads T] [--out PATH]
//! # In pieces: each shard solves its share of the deepest level into its checkpoint file,
//! # then merge puts them together and backs up the shallower levels.
//! connect4-book solve --shard I/N --checkpoint FILE [--depth N] [--threads T] [--limit M]
//! connect4-book merge --out PATH [--depth N] FILE...
//! # The number of positions to solve at a depth:
//! connect4-book plan [--depth N]
//! ```
//!
//! Every command takes `--rows R --cols C --k K` (default 6, 7, 4: Connect Four). Defaults:
//! the depth of the shipped book, every core, and the shipped file
//! (`src/engine/gravity/connect4.book`).
//!
//! A checkpoint is a text file: a header line naming the board, the depth and the shard, then a
//! line per solved position (its key in hexadecimal and its score), appended and flushed as
//! each is solved. `solve` first reads its checkpoint and skips what it holds, so a run that
//! was stopped (killed, preempted, out of time, or `--limit`) goes on where it stopped; a last
//! line cut short by the stop is ignored. The book is the same byte for byte however the work
//! was split into shards, threads and runs: every score is exact and the entries are sorted.
//! `build` is `solve --shard 0/1` with the checkpoint `PATH.solved`, then `merge`, then the
//! checkpoint removed. Rebuild the engine afterwards to ship a new `connect4.book`.

use std::collections::HashMap;
use std::io::Write;
use std::sync::Mutex;
use std::time::Instant;

use minimax_move::engine::Geometry;
use minimax_move::engine::{Book, BookBuilder};

/// The depth of the book the engine ships, read from the book itself.
fn shipped_depth() -> usize {
    Book::from_bytes(include_bytes!("../engine/gravity/connect4.book"))
        .ok()
        .and_then(|book| usize::try_from(book.depth).ok())
        .expect("the shipped book is well formed")
}

/// The command line, parsed.
struct Args {
    command: String,
    rows: u64,
    cols: u64,
    k: u64,
    depth: usize,
    threads: usize,
    out: String,
    shard: (usize, usize),
    checkpoint: Option<String>,
    limit: Option<usize>,
    files: Vec<String>,
}

fn fail(message: &str) -> ! {
    eprintln!("connect4-book: {message}");
    std::process::exit(2)
}

fn number<T: std::str::FromStr>(name: &str, text: &str) -> T {
    text.parse()
        .unwrap_or_else(|_| fail(&format!("{name} takes a number, not {text:?}")))
}

fn parse_shard(text: &str) -> (usize, usize) {
    let (index, count) = text
        .split_once('/')
        .unwrap_or_else(|| fail("--shard takes INDEX/COUNT, e.g. 0/8"));
    let (index, count) = (number("--shard", index), number("--shard", count));
    if index >= count {
        fail(&format!(
            "shard {index}/{count}: the index counts from 0 to {count} - 1"
        ));
    }
    (index, count)
}

fn parse_args() -> Args {
    let mut words = std::env::args().skip(1).peekable();
    let command = match words.peek() {
        Some(word) if !word.starts_with('-') => words.next().expect("peeked"),
        _ => "build".to_owned(),
    };
    let mut args = Args {
        command,
        rows: 6,
        cols: 7,
        k: 4,
        depth: shipped_depth(),
        threads: std::thread::available_parallelism().map_or(2, usize::from),
        out: concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/engine/gravity/connect4.book"
        )
        .to_owned(),
        shard: (0, 1),
        checkpoint: None,
        limit: None,
        files: Vec::new(),
    };
    while let Some(word) = words.next() {
        if !word.starts_with("--") {
            args.files.push(word);
            continue;
        }
        let value = words
            .next()
            .unwrap_or_else(|| fail(&format!("{word} takes a value")));
        match word.as_str() {
            "--rows" => args.rows = number(&word, &value),
            "--cols" => args.cols = number(&word, &value),
            "--k" => args.k = number(&word, &value),
            "--depth" => args.depth = number(&word, &value),
            "--threads" => args.threads = number(&word, &value),
            "--limit" => args.limit = Some(number(&word, &value)),
            "--out" => args.out = value,
            "--checkpoint" => args.checkpoint = Some(value),
            "--shard" => args.shard = parse_shard(&value),
            _ => fail(&format!("unknown option {word}")),
        }
    }
    args
}

impl Args {
    fn builder(&self) -> BookBuilder {
        let geometry = Geometry::new(self.rows, self.cols, self.k)
            .and_then(|g| g.with_gravity(true))
            .unwrap_or_else(|e| fail(&format!("{e}")));
        BookBuilder::new(geometry, self.depth).unwrap_or_else(|e| fail(&format!("{e}")))
    }

    /// The header line of a checkpoint: the board and depth (which `merge` checks), then the
    /// shard (which `solve` checks when it resumes).
    fn header(&self) -> String {
        let (index, count) = self.shard;
        format!(
            "# connect4-book checkpoint: rows {} cols {} k {} depth {} shard {index}/{count}",
            self.rows, self.cols, self.k, self.depth
        )
    }

    /// The board and depth part of the header, which every shard of one book shares.
    fn board_header(&self) -> String {
        let header = self.header();
        header[..header.find(" shard ").expect("a shard")].to_owned()
    }
}

/// The scores a checkpoint holds (none when it does not exist), after checking its header
/// starts with `expected`.
fn read_checkpoint(path: &str, expected: &str) -> HashMap<u64, i8> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return HashMap::new(),
        Err(e) => fail(&format!("cannot read {path}: {e}")),
    };
    let mut lines = text.split_inclusive('\n');
    match lines.next() {
        Some(header) if header.trim_end().starts_with(expected) => {}
        Some(header) => fail(&format!(
            "{path} is for another build: {:?}, expected {expected:?}",
            header.trim_end()
        )),
        None => return HashMap::new(),
    }
    // A line without its newline was cut short when the run stopped: solved again.
    lines
        .filter(|line| line.ends_with('\n'))
        .map(|line| {
            let (key, score) = line
                .trim_end()
                .split_once(' ')
                .unwrap_or_else(|| fail(&format!("{path}: bad line {line:?}")));
            let key = u64::from_str_radix(key, 16)
                .unwrap_or_else(|_| fail(&format!("{path}: bad key {key:?}")));
            (key, number(path, score))
        })
        .collect()
}

/// The checkpoint opened for appending, a last line cut short by a stop removed.
fn open_checkpoint(path: &str) -> std::fs::File {
    fn cannot<T>(path: &str) -> impl Fn(std::io::Error) -> T + '_ {
        move |e| fail(&format!("cannot open {path}: {e}"))
    }
    let bytes = std::fs::read(path).unwrap_or_default();
    if !bytes.is_empty() && !bytes.ends_with(b"\n") {
        let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .unwrap_or_else(cannot(path));
        file.set_len(whole as u64).unwrap_or_else(cannot(path));
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap_or_else(cannot(path))
}

/// Solves the shard's positions that its checkpoint does not hold yet (at most `--limit`),
/// appending each to the checkpoint as it is found; whether the shard is then complete.
fn solve(args: &Args, builder: &BookBuilder, checkpoint: &str) -> bool {
    let (index, count) = args.shard;
    let done = read_checkpoint(checkpoint, &args.header());
    let shard = builder.shard(index, count);
    let mut todo: Vec<u64> = shard
        .iter()
        .copied()
        .filter(|key| !done.contains_key(key))
        .collect();
    todo.truncate(args.limit.unwrap_or(usize::MAX));
    let mut file = open_checkpoint(checkpoint);
    if file.metadata().map_or(0, |m| m.len()) == 0 {
        writeln!(file, "{}", args.header()).expect("the checkpoint can be written");
    }
    let started = Instant::now();
    let file = Mutex::new(file);
    // Positions solved in this run, and when progress was last shown (once a second).
    let solved = Mutex::new((0usize, started));
    builder.solve(&todo, args.threads, &|key, score| {
        let mut file = file.lock().expect("no thread panics holding the file");
        writeln!(file, "{key:x} {score}").expect("the checkpoint can be written");
        file.flush().expect("the checkpoint can be written");
        let mut solved = solved.lock().expect("no thread panics holding the count");
        solved.0 += 1;
        if solved.1.elapsed().as_secs() >= 1 {
            solved.1 = Instant::now();
            eprint!(
                "\rshard {index}/{count}: {} of {} solved, {:.0} s",
                done.len() + solved.0,
                shard.len(),
                started.elapsed().as_secs_f64()
            );
        }
    });
    let solved = solved.into_inner().expect("no thread panicked").0;
    let seconds = started.elapsed().as_secs_f64();
    eprintln!();
    println!(
        "shard {index}/{count}: {solved} positions solved in {seconds:.1} s on {} threads \
         ({:.2} s of wall time each), {} of {} done -> {checkpoint}",
        args.threads,
        seconds / solved.max(1) as f64,
        done.len() + solved,
        shard.len()
    );
    done.len() + solved == shard.len()
}

/// Puts the checkpoints together into the book at `--out`.
fn merge(args: &Args, builder: &BookBuilder, files: &[String]) {
    let mut scores: HashMap<u64, i8> = HashMap::new();
    for path in files {
        for (key, score) in read_checkpoint(path, &args.board_header()) {
            if let Some(old) = scores.insert(key, score)
                && old != score
            {
                fail(&format!(
                    "{path}: key {key:x} scored {score}, elsewhere {old}"
                ));
            }
        }
    }
    let book = builder.finish(&scores).unwrap_or_else(|e| {
        fail(&format!(
            "{e} ({} of {} frontier positions scored)",
            scores.len(),
            builder.frontier().len()
        ))
    });
    let bytes = book.to_bytes();
    std::fs::write(&args.out, &bytes)
        .unwrap_or_else(|e| fail(&format!("cannot write {}: {e}", args.out)));
    println!(
        "{} positions up to {} stones, {} bytes -> {}",
        book.len(),
        args.depth,
        bytes.len(),
        args.out
    );
}

fn main() {
    let args = parse_args();
    let builder = args.builder();
    match args.command.as_str() {
        "plan" => println!(
            "{} positions with {} stones to solve (mirror images once)",
            builder.frontier().len(),
            args.depth
        ),
        "solve" => {
            let checkpoint = args
                .checkpoint
                .as_deref()
                .unwrap_or_else(|| fail("solve needs --checkpoint FILE"));
            solve(&args, &builder, checkpoint);
        }
        "merge" => merge(&args, &builder, &args.files),
        "build" => {
            let checkpoint = format!("{}.solved", args.out);
            if solve(&args, &builder, &checkpoint) {
                merge(&args, &builder, std::slice::from_ref(&checkpoint));
                std::fs::remove_file(&checkpoint).ok();
            }
        }
        other => fail(&format!(
            "unknown command {other:?}: build, solve, merge or plan"
        )),
    }
}
