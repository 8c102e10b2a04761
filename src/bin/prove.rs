//! Bench binary: proves small m,n,k games from the empty board and times a move on 15 × 15.
//!
//! ```text
//! cargo run --release --no-default-features --bin prove [-- [--runs N] [--proofs-only] [--game R,C,K]...]
//! cargo run --release --no-default-features --bin prove -- --calibrate
//! ```
//!
//! Each proof is run `N` times (default 3) and the fastest run is reported; `--proofs-only`
//! skips the 15 × 15 moves (for profiling the proofs alone); `--game R,C,K` (repeatable) proves
//! those games instead of (4,4,4), (5,4,4) and (5,5,4).
//!
//! `--calibrate` checks [`SearchLimits::work_for`]: it searches random midgames of several
//! sizes with the work budget of a 500 ms time limit and no deadline, and prints how much of the
//! 500 ms each search took. Well under 100 % everywhere means the budget, not the clock, stops
//! the service's searches, so their answers do not depend on the load.

use std::time::{Duration, Instant};

use minimax_move::engine::{Geometry, Player, Position, Scoring, SearchLimits, analyze};

fn empty(rows: u64, cols: u64, k: u64) -> Position {
    let geometry = Geometry::new(rows, cols, k).expect("valid geometry");
    Position::new(geometry, vec![None; geometry.cells()], None).expect("legal position")
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs: usize = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1))
        .map_or(3, |n| n.parse().expect("--runs takes a number"))
        .max(1);
    let proofs_only = args.iter().any(|a| a == "--proofs-only");
    if args.iter().any(|a| a == "--calibrate") {
        calibrate();
        return;
    }
    let mut games: Vec<(u64, u64, u64)> = args
        .windows(2)
        .filter(|pair| pair[0] == "--game")
        .map(|pair| {
            let game = &pair[1];
            let parts: Vec<u64> = game
                .split(',')
                .map(|n| n.trim().parse().expect("--game takes R,C,K"))
                .collect();
            match parts[..] {
                [rows, cols, k] => (rows, cols, k),
                _ => panic!("--game takes R,C,K"),
            }
        })
        .collect();
    if games.is_empty() {
        games = vec![(4, 4, 4), (5, 4, 4), (5, 5, 4)];
    }
    println!(
        "{:<10} {:>8} {:>6} {:>12} {:>12} {:>10}",
        "game", "outcome", "exact", "nodes", "nodes/s", "seconds"
    );
    for (rows, cols, k) in games {
        let position = empty(rows, cols, k);
        // Best of `runs`: the first run also pays for faulting in the transposition table's
        // pages, which a running service does once per pooled table.
        let (analysis, seconds) = (0..runs)
            .map(|_| {
                let start = Instant::now();
                let analysis = analyze(&position, Scoring::Depth, &SearchLimits::default());
                (analysis, start.elapsed().as_secs_f64())
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .expect("at least one run");
        let best = analysis.best_move();
        println!(
            "{:<10} {:>8} {:>6} {:>12} {:>12.0} {:>10.6}",
            format!("({rows},{cols},{k})"),
            best.value.outcome().map_or("unknown", |o| o.as_str()),
            best.value.is_exact(),
            analysis.nodes,
            analysis.nodes as f64 / seconds,
            seconds
        );
    }
    if proofs_only {
        return;
    }

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
        let analysis = analyze(&position, Scoring::Depth, &limits);
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
fn calibrate() {
    const MILLIS: u64 = 500;
    // A fixed xorshift sequence: the same positions on every run.
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
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
        let mut positions = 0;
        while positions < 3 {
            let mut cells = vec![None; geometry.cells()];
            for stone in 0..stones {
                loop {
                    let cell = (next() % geometry.cells() as u64) as usize;
                    if cells[cell].is_none() {
                        cells[cell] = Some(if stone % 2 == 0 { Player::X } else { Player::O });
                        break;
                    }
                }
            }
            // Random stones may already have finished the game: draw again.
            let Ok(position) = Position::new(geometry, cells, None) else {
                continue;
            };
            positions += 1;
            for all_moves in [false, true] {
                let work = SearchLimits::work_for(geometry, MILLIS);
                let limits = SearchLimits {
                    max_work: Some(work),
                    all_moves,
                    threads: 1,
                    ..SearchLimits::default()
                };
                let start = Instant::now();
                let _ = analyze(&position, Scoring::Depth, &limits);
                let ms = start.elapsed().as_secs_f64() * 1000.0;
                let share = ms / MILLIS as f64;
                worst = worst.max(share);
                println!(
                    "{:<10} {:>6} {:>9} {:>10} {:>9.1} {:>7.0}%",
                    format!("({rows},{cols},{k})"),
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
