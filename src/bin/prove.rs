//! Bench binary: proves small m,n,k games from the empty board and times a move on 15 × 15.
//!
//! ```text
//! cargo run --release --bin prove [-- [--runs N] [--proofs-only] [--game R,C,K]... [--rule RULE]...]
//! cargo run --release --bin prove -- --calibrate
//! ```
//!
//! Each proof is run `N` times (default 3) and the fastest run is reported; `--proofs-only`
//! skips the 15 × 15 moves (for profiling the proofs alone); `--game R,C,K` (repeatable) proves
//! those games instead of (4,4,4), (5,4,4) and (5,5,4), and `--rule` (repeatable, `k = 5` only)
//! proves each of them under each gomoku rule given instead of freestyle. The command line is read with clap, a
//! dependency of the `server` feature, so the binary needs that feature (on by default); what it
//! measures, the engine, is the same with or without it.
//!
//! `--calibrate` checks [`SearchLimits::work_for`]: it searches random midgames of several
//! sizes with the work budget of a 500 ms time limit and no deadline, and prints how much of the
//! 500 ms each search took. Well under 100 % everywhere means the budget, not the clock, stops
//! the service's searches, so their answers do not depend on the load.

use std::time::{Duration, Instant};

use clap::Parser;
use minimax_move::engine::{Engine, Geometry, Player, Position, Rule, Scoring, SearchLimits};

/// Proves small m,n,k games from the empty board and times a move on 15 × 15.
#[derive(Debug, Parser)]
#[command(name = "prove")]
struct Args {
    /// Runs of each proof; the fastest is reported (0 counts as 1).
    #[arg(long, value_name = "N", default_value_t = 3)]
    runs: usize,
    /// Prove only: skip the 15 × 15 moves (for profiling the proofs alone).
    #[arg(long)]
    proofs_only: bool,
    /// A game to prove instead of (4,4,4), (5,4,4) and (5,5,4): rows, columns, k. Repeatable.
    #[arg(long = "game", value_name = "R,C,K", value_parser = parse_game)]
    games: Vec<Geometry>,
    /// A gomoku rule to prove the games under instead of freestyle (`k = 5`). Repeatable.
    #[arg(long = "rule", value_name = "RULE", value_parser = parse_rule)]
    rules: Vec<Rule>,
    /// Check the work budget of a 500 ms limit against the clock on random midgames, and nothing
    /// else.
    #[arg(long)]
    calibrate: bool,
}

/// A gomoku rule by its API name.
fn parse_rule(text: &str) -> Result<Rule, String> {
    Rule::ALL
        .into_iter()
        .find(|rule| rule.as_str() == text)
        .ok_or_else(|| format!("{text:?} is not freestyle, standard, renju or caro"))
}

/// `R,C,K`, a game the engine plays.
fn parse_game(text: &str) -> Result<Geometry, String> {
    let parts = text
        .split(',')
        .map(|n| n.trim().parse::<u64>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| format!("{text:?} is not R,C,K (three whole numbers)"))?;
    let [rows, cols, k] = parts[..] else {
        return Err(format!("{text:?} is not R,C,K (three whole numbers)"));
    };
    Geometry::new(rows, cols, k).map_err(|error| error.to_string())
}

fn main() {
    let args = Args::parse();
    // The engine the tool measures: one search at a time, its tables made once.
    let engine = Engine::default();
    if args.calibrate {
        calibrate(&engine);
        return;
    }
    let games = if args.games.is_empty() {
        [(4, 4, 4), (5, 4, 4), (5, 5, 4)]
            .map(|(rows, cols, k)| Geometry::new(rows, cols, k).expect("valid geometry"))
            .to_vec()
    } else {
        args.games
    };
    let games = if args.rules.is_empty() {
        games
    } else {
        games
            .iter()
            .flat_map(|&game| args.rules.iter().map(move |&rule| game.with_rule(rule)))
            .collect::<Result<Vec<_>, _>>()
            .unwrap_or_else(|error| panic!("--rule: {error}"))
    };
    prove(&engine, &games, args.runs.max(1));
    if !args.proofs_only {
        time_big_board_moves(&engine);
    }
}

fn empty(geometry: Geometry) -> Position {
    Position::new(geometry, vec![None; geometry.cells()], None).expect("legal position")
}

fn name(geometry: Geometry) -> String {
    let rule = match geometry.rule() {
        Rule::Freestyle => String::new(),
        rule => format!(" {rule}"),
    };
    format!(
        "({},{},{}){rule}",
        geometry.rows(),
        geometry.cols(),
        geometry.k()
    )
}

/// Proves each game from the empty board, the fastest of `runs` runs.
fn prove(engine: &Engine, games: &[Geometry], runs: usize) {
    println!(
        "{:<18} {:>8} {:>6} {:>12} {:>12} {:>10}",
        "game", "outcome", "exact", "nodes", "nodes/s", "seconds"
    );
    for &geometry in games {
        let position = empty(geometry);
        // Best of `runs`: the first run also pays for faulting in the transposition table's
        // pages, which a running service does once per pooled table.
        let (analysis, seconds) = (0..runs)
            .map(|_| {
                let start = Instant::now();
                let analysis = engine.analyze(&position, Scoring::Depth, &SearchLimits::default());
                (analysis, start.elapsed().as_secs_f64())
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .expect("at least one run");
        let best = analysis.best_move();
        println!(
            "{:<18} {:>8} {:>6} {:>12} {:>12.0} {:>10.6}",
            name(geometry),
            best.value.outcome().map_or("unknown", |o| o.as_str()),
            best.value.is_exact(),
            analysis.nodes,
            analysis.nodes as f64 / seconds,
            seconds
        );
    }
}

/// Times a 500 ms move on the empty 15 × 15 board and on a quiet opening.
fn time_big_board_moves(engine: &Engine) {
    let geometry = Geometry::new(15, 15, 5).expect("valid geometry");
    let mut midgame = vec![None; geometry.cells()];
    // A quiet opening: a few stones each around the centre, no threats.
    for (cell, mark) in [
        (112, 'X'),
        (113, 'O'),
        (97, 'X'),
        (128, 'O'),
        (126, 'X'),
        (98, 'O'),
    ] {
        midgame[cell] = Player::from_char(mark);
    }
    for (name, cells) in [
        ("15x15 empty", vec![None; geometry.cells()]),
        ("15x15 midgame", midgame),
    ] {
        let position = Position::new(geometry, cells, None).expect("legal position");
        let start = Instant::now();
        let limits = SearchLimits {
            max_depth: None,
            deadline: Some(start + Duration::from_millis(500)),
            max_work: None,
            all_moves: false,
            ..SearchLimits::default()
        };
        let analysis = engine.analyze(&position, Scoring::Depth, &limits);
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "{name:<14} move {:>3}  depth {:>2}  nodes {:>9}  nodes/s {:>10.0}  seconds {:.4}",
            analysis.best_move().index,
            analysis.depth.unwrap_or(0),
            analysis.nodes,
            analysis.nodes as f64 / seconds,
            seconds
        );
    }
}

/// Times searches bounded by the work budget of a 500 ms limit (see the module documentation).
fn calibrate(engine: &Engine) {
    const MILLIS: u64 = 500;
    let mut positions = RandomPositions::new();
    println!(
        "{:<10} {:>6} {:>9} {:>10} {:>9} {:>8}",
        "game", "stones", "all", "work", "ms", "of limit"
    );
    let mut worst: f64 = 0.0;
    for (rows, cols, k, stones) in [
        (15, 15, 5, 0),
        (15, 15, 5, 6),
        (15, 15, 5, 20),
        (10, 10, 5, 10),
        (8, 8, 5, 8),
        (7, 7, 5, 6),
        (7, 7, 5, 12),
        (6, 6, 5, 4),
        (6, 6, 4, 4),
        (5, 5, 4, 4),
    ] {
        let geometry = Geometry::new(rows, cols, k).expect("valid geometry");
        for _ in 0..3 {
            let position = positions.next(geometry, stones);
            for all_moves in [false, true] {
                let work = SearchLimits::work_for(geometry, MILLIS);
                let limits = SearchLimits {
                    max_work: Some(work),
                    all_moves,
                    ..SearchLimits::default()
                };
                let start = Instant::now();
                let _ = engine.analyze(&position, Scoring::Depth, &limits);
                let ms = start.elapsed().as_secs_f64() * 1000.0;
                let share = ms / MILLIS as f64;
                worst = worst.max(share);
                println!(
                    "{:<10} {:>6} {:>9} {:>10} {:>9.1} {:>7.0}%",
                    name(geometry),
                    stones,
                    all_moves,
                    work,
                    ms,
                    share * 100.0
                );
            }
        }
    }
    println!("worst: {:.0}% of the time limit", worst * 100.0);
}

/// Random positions from a fixed xorshift sequence: the same positions on every run.
struct RandomPositions {
    state: u64,
}

impl RandomPositions {
    const fn new() -> Self {
        Self {
            state: 0x9E37_79B9_7F4A_7C15,
        }
    }

    fn next_number(&mut self) -> u64 {
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        self.state
    }

    /// A position on `geometry` with `stones` stones, X and O in turn on random empty cells,
    /// where the game is not over yet.
    fn next(&mut self, geometry: Geometry, stones: usize) -> Position {
        loop {
            let mut cells = vec![None; geometry.cells()];
            for stone in 0..stones {
                loop {
                    let cell = (self.next_number() % geometry.cells() as u64) as usize;
                    if cells[cell].is_none() {
                        cells[cell] = Some(if stone % 2 == 0 { Player::X } else { Player::O });
                        break;
                    }
                }
            }
            // Random stones may already have finished the game: draw again.
            if let Ok(position) = Position::new(geometry, cells, None) {
                return position;
            }
        }
    }
}
