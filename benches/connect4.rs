//! The gravity solver on 7 × 6 Connect Four: criterion timings of the book answer and of
//! solves by depth band, and a side-by-side table against the `connect-four-ai` crate.
//!
//! ```text
//! cargo bench --bench connect4                      # criterion
//! cargo bench --bench connect4 -- --compare [FILE]  # one pass per band, both solvers, a table;
//!                                                   # FILE gets the positions (columns from 1)
//! cargo bench --bench connect4 -- --compare --from FILE...  # the same on the positions in each
//!                                                   # FILE (a line: the columns played, from 1)
//! cargo bench --bench connect4 -- --sizes [SUM] [SECONDS]  # the empty board of every size with
//!                                                   # 4 <= width, height and width + height <= SUM
//!                                                   # (13), solved within SECONDS (10) or not
//! cargo bench --bench connect4 -- --sets COLSxROWS [N] FILE...  # the first N (all) positions
//!                                                   # of c4's test-set FILEs (a line: the
//!                                                   # columns from 0, then Pons' score) on that
//!                                                   # board: the score checked, the time
//! cargo bench --bench connect4 -- --latency [N] [SECONDS] [--one-thread]
//!                                                   # every column of N random positions at each
//!                                                   # number of stones (0 to 41), each analysis
//!                                                   # within SECONDS (10): percentiles by band;
//!                                                   # --one-thread: an analysis on one thread
//! ```
//!
//! The positions are random games cut at a band's number of stones, the same on every run
//! (a fixed seed), never finished and never with a win in one for the side to move.

use std::hint::black_box;
use std::time::Instant;

use criterion::Criterion;
use minimax_move::engine::{Analysis, Engine, Solution};

use minimax_move::engine::{Game, Geometry, Player, Position, Scoring, SearchLimits};

/// The engine every benchmark here searches with (its tables made once, as a server's are).
fn engine() -> &'static Engine {
    static ENGINE: std::sync::LazyLock<Engine> = std::sync::LazyLock::new(Engine::default);
    &ENGINE
}

fn analyze(position: &Position, scoring: Scoring, limits: &SearchLimits) -> Analysis {
    engine().analyze(position, scoring, limits)
}

fn solve(position: &Position, limits: &SearchLimits) -> Solution {
    engine().solve_gravity(position, limits)
}

/// The 7 × 6 position after `columns` (from 0), `None` when they are not a game in play.
fn connect_four(columns: &[usize]) -> Option<Position> {
    Game::from_columns(Geometry::CONNECT_FOUR, Player::X, columns)
        .ok()?
        .position()
        .cloned()
}

/// (name, fewest stones, most stones, positions) of `--compare`; the criterion timings take the
/// first three.
const BANDS: [(&str, usize, usize, usize); 4] = [
    ("endgame", 26, 36, 40),
    ("midgame", 16, 25, 40),
    ("opening", 10, 15, 12),
    // One stone past the opening book.
    ("book_edge", 9, 9, 12),
];

/// A random number generator (xorshift): `next(n)` is below `n`.
fn generator(seed: u64) -> impl FnMut(usize) -> usize {
    let mut state = seed;
    move |n: usize| {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

/// The columns of `stones` random moves from the empty board (perhaps not a game in play).
fn random_columns(next: &mut impl FnMut(usize) -> usize, stones: usize) -> Vec<usize> {
    let mut columns = Vec::new();
    let mut heights = [0; 7];
    for _ in 0..stones {
        let free: Vec<usize> = (0..7).filter(|&c| heights[c] < 6).collect();
        let c = free[next(free.len())];
        heights[c] += 1;
        columns.push(c);
    }
    columns
}

/// Random games: `count` positions with `fewest..=most` stones, in play, no win in one.
fn positions(seed: u64, fewest: usize, most: usize, count: usize) -> Vec<Vec<usize>> {
    let mut next = generator(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let stones = fewest + next(most - fewest + 1);
        let columns = random_columns(&mut next, stones);
        let Some(position) = connect_four(&columns) else {
            continue;
        };
        let quiet = position.legal_moves().iter().all(|&cell| {
            let mut longer = columns.clone();
            longer.push(Geometry::CONNECT_FOUR.column_of(cell));
            connect_four(&longer).is_some()
        });
        if quiet {
            out.push(columns);
        }
    }
    out
}

fn moves_string(columns: &[usize]) -> String {
    columns
        .iter()
        .map(|&c| char::from(b'1' + c as u8))
        .collect()
}

fn criterion_benches() {
    let mut c = Criterion::default().configure_from_args().sample_size(10);
    let empty = connect_four(&[]).expect("the empty board");
    c.bench_function("connect4/empty board, every column (book)", |b| {
        b.iter(|| analyze(black_box(&empty), Scoring::Depth, &SearchLimits::default()));
    });
    // The bands of the table, but for the one past the book (seconds a position).
    for (seed, &(name, fewest, most, count)) in BANDS.iter().enumerate().take(3) {
        let games: Vec<Position> = positions(seed as u64 + 1, fewest, most, count.min(10))
            .iter()
            .map(|columns| connect_four(columns).expect("in play"))
            .collect();
        c.bench_function(
            &format!("connect4/{name}, {} positions", games.len()),
            |b| {
                b.iter(|| {
                    for position in &games {
                        black_box(solve(position, &SearchLimits::default()));
                    }
                });
            },
        );
    }
    c.final_summary();
}

fn compare(file: Option<&String>, sets: &[(String, Vec<Vec<usize>>)]) {
    let mut listing = String::new();
    println!(
        "{:<14} {:>5} {:>12} {:>12} {:>14} {:>14} {:>14}",
        "band", "n", "ours mean", "ours max", "c-f-ai mean", "c-f-ai max", "ours nodes"
    );
    let mut reference = connect_four_ai::Solver::empty();
    for (name, games) in sets {
        let (mut ours, mut theirs, mut nodes) = (Vec::new(), Vec::new(), 0);
        for columns in games {
            let moves = moves_string(columns);
            listing.push_str(&format!("{moves} {name}\n"));
            let position = connect_four(columns).expect("in play");
            let started = Instant::now();
            let solved = solve(&position, &SearchLimits::default());
            ours.push(started.elapsed().as_secs_f64());
            nodes += solved.nodes;
            let value = solved.value;
            let other = connect_four_ai::Position::from_moves(&moves).expect("legal");
            reference.reset();
            let started = Instant::now();
            let score = reference.solve(&other);
            theirs.push(started.elapsed().as_secs_f64());
            assert_eq!(
                value.pons_score(42, columns.len()),
                Some(i32::from(score)),
                "{moves}"
            );
        }
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        let max = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
        println!(
            "{name:<14} {:>5} {:>10.4} s {:>10.3} s {:>12.4} s {:>12.3} s {nodes:>14}",
            games.len(),
            mean(&ours),
            max(&ours),
            mean(&theirs),
            max(&theirs)
        );
    }
    if let Some(file) = file {
        std::fs::write(file, listing).expect("the positions file can be written");
    }
}

/// The positions of a file: a line's first word is the columns played, from 1.
fn read_positions(path: &str) -> Vec<Vec<usize>> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(|moves| moves.bytes().map(|b| usize::from(b - b'1')).collect())
        .collect()
}

/// The empty board of every size with both sides at least 4 and `width + height <= most`,
/// solved within `seconds` (the server's largest time limit by default): proven or not, the
/// time and the nodes.
fn sizes(most: usize, seconds: f64) {
    println!(
        "{:<8} {:>8} {:>10} {:>9} {:>14}",
        "w x h", "outcome", "last move", "seconds", "nodes"
    );
    for sum in 8..=most {
        for width in 4..=sum - 4 {
            let height = sum - width;
            let geometry = Geometry::new(height as u64, width as u64, 4)
                .and_then(|g| g.with_gravity(true))
                .expect("a gravity board");
            let empty = Position::new(geometry, vec![None; width * height], None).expect("empty");
            let limits = SearchLimits {
                deadline: Some(Instant::now() + std::time::Duration::from_secs_f64(seconds)),
                ..SearchLimits::default()
            };
            let started = Instant::now();
            let solved = solve(&empty, &limits);
            let elapsed = started.elapsed().as_secs_f64();
            let (outcome, last) = match (solved.value.outcome(), solved.value.plies()) {
                (Some(outcome), Some(plies)) => (format!("{outcome:?}"), plies.to_string()),
                _ => ("not proven".to_owned(), "-".to_owned()),
            };
            println!(
                "{:<8} {outcome:>8} {last:>10} {elapsed:>9.2} {:>14}",
                format!("{width} x {height}"),
                solved.nodes
            );
        }
    }
}

/// Every column of `count` random positions in play at each number of stones from 0 to 41
/// (random games, a fixed seed), each analysed within `seconds` as `POST /v1/move` and
/// `GET /v1/connect4/solve` do: the time by band of stones (median, 99th percentile, worst) and
/// how many analyses were not exact in time.
fn latency(count: usize, seconds: f64, one_thread: bool) {
    const BANDS: [(usize, usize); 8] = [
        (0, 3),
        (4, 4),
        (5, 6),
        (7, 8),
        (9, 10),
        (11, 12),
        (13, 20),
        (21, 41),
    ];
    println!(
        "{:<12} {:>5} {:>10} {:>10} {:>10} {:>10}",
        "stones", "n", "median", "p99", "max", "not exact"
    );
    let mut next = generator(0x00c0_ffee);
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); 42];
    let mut inexact = [0usize; 42];
    for stones in 0..42 {
        let mut done = 0;
        while done < count {
            let Some(position) = connect_four(&random_columns(&mut next, stones)) else {
                continue;
            };
            let limits = SearchLimits {
                deadline: Some(Instant::now() + std::time::Duration::from_secs_f64(seconds)),
                // A budget no search reaches: it only keeps the analysis on one thread.
                max_work: one_thread.then_some(u64::MAX),
                ..SearchLimits::default()
            };
            let started = Instant::now();
            let analysis = analyze(&position, Scoring::Depth, &limits);
            times[stones].push(started.elapsed().as_secs_f64());
            inexact[stones] +=
                usize::from(analysis.moves.iter().any(|m| m.value.outcome().is_none()));
            done += 1;
        }
    }
    for (fewest, most) in BANDS {
        let mut band: Vec<f64> = times[fewest..=most].concat();
        band.sort_by(f64::total_cmp);
        let at = |q: f64| band[((band.len() - 1) as f64 * q).round() as usize];
        println!(
            "{:<12} {:>5} {:>8.3} s {:>8.3} s {:>8.3} s {:>10}",
            format!("{fewest} to {most}"),
            band.len(),
            at(0.5),
            at(0.99),
            band[band.len() - 1],
            inexact[fewest..=most].iter().sum::<usize>()
        );
    }
}

/// The first `count` positions of each of c4's test-set `files` on a `cols` × `rows` board: a
/// line is the columns played from 0 (one character each, `0` to `9`) and Pons' score. Each is
/// solved on one thread and its score checked; the mean and worst time of each file, as the
/// table of `--compare` has them.
fn sets(cols: usize, rows: usize, count: usize, files: &[String]) {
    let geometry = Geometry::new(rows as u64, cols as u64, 4)
        .and_then(|g| g.with_gravity(true))
        .expect("a gravity board");
    println!(
        "{:<14} {:>5} {:>12} {:>12} {:>14}",
        "set", "n", "ours mean", "ours max", "ours nodes"
    );
    for path in files {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let (mut times, mut nodes) = (Vec::new(), 0);
        for line in text.lines().take(count) {
            let mut words = line.split_whitespace();
            let (Some(moves), Some(score)) = (words.next(), words.next()) else {
                continue;
            };
            let columns: Vec<usize> = moves.bytes().map(|b| usize::from(b - b'0')).collect();
            let score: i32 = score.parse().expect("a score");
            let game = Game::from_columns(geometry, Player::X, &columns).expect("a legal game");
            let position = game.position().expect("in play");
            let started = Instant::now();
            let solved = solve(position, &SearchLimits::default());
            times.push(started.elapsed().as_secs_f64());
            nodes += solved.nodes;
            let ours = solved.value.pons_score(rows * cols, columns.len());
            assert_eq!(ours, Some(score), "{moves} on {cols} x {rows}");
        }
        let name = std::path::Path::new(path)
            .file_stem()
            .map_or_else(|| path.clone(), |s| s.to_string_lossy().into_owned());
        println!(
            "{name:<14} {:>5} {:>10.4} s {:>10.3} s {nodes:>14}",
            times.len(),
            times.iter().sum::<f64>() / times.len().max(1) as f64,
            times.iter().copied().fold(0.0, f64::max),
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--sets") {
        let (cols, rows) = args
            .get(i + 1)
            .and_then(|size| size.split_once('x'))
            .and_then(|(c, r)| Some((c.parse().ok()?, r.parse().ok()?)))
            .expect("--sets COLSxROWS [N] FILE...");
        let count = args.get(i + 2).and_then(|n| n.parse().ok());
        // cargo adds `--bench` after the arguments given.
        let files: Vec<String> = args[i + 2 + usize::from(count.is_some())..]
            .iter()
            .filter(|a| !a.starts_with("--"))
            .cloned()
            .collect();
        sets(cols, rows, count.unwrap_or(usize::MAX), &files);
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--latency") {
        let number = |j: usize, default: f64| {
            args.get(i + j)
                .and_then(|a| a.parse::<f64>().ok())
                .unwrap_or(default)
        };
        let one_thread = args.iter().any(|a| a == "--one-thread");
        latency(number(1, 20.0) as usize, number(2, 10.0), one_thread);
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--sizes") {
        let number = |j: usize, default: f64| {
            args.get(i + j)
                .and_then(|a| a.parse::<f64>().ok())
                .unwrap_or(default)
        };
        sizes(number(1, 13.0) as usize, number(2, 10.0));
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--compare") {
        let sets: Vec<(String, Vec<Vec<usize>>)> = match args.iter().position(|a| a == "--from") {
            Some(from) => args[from + 1..]
                .iter()
                .take_while(|a| !a.starts_with('-'))
                .map(|path| {
                    let name = std::path::Path::new(path)
                        .file_stem()
                        .map_or_else(|| path.clone(), |s| s.to_string_lossy().into_owned());
                    (name, read_positions(path))
                })
                .collect(),
            None => BANDS
                .iter()
                .enumerate()
                .map(|(seed, &(name, fewest, most, count))| {
                    (
                        name.to_owned(),
                        positions(seed as u64 + 1, fewest, most, count),
                    )
                })
                .collect(),
        };
        compare(args.get(i + 1).filter(|a| !a.starts_with('-')), &sets);
    } else {
        criterion_benches();
    }
}
