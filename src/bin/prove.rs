//! Bench binary: proves small m,n,k games from the empty board and times a move on 15 × 15.
//!
//! ```text
//! cargo run --release --no-default-features --bin prove [-- [--runs N] [--proofs-only] [--game R,C,K]...]
//! ```
//!
//! Each proof is run `N` times (default 3) and the fastest run is reported; `--proofs-only`
//! skips the 15 × 15 moves (for profiling the proofs alone); `--game R,C,K` (repeatable) proves
//! those games instead of (4,4,4), (5,4,4) and (5,5,4).

use std::time::{Duration, Instant};

use minimax_move::engine::{Geometry, Position, Scoring, SearchLimits, analyze};

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
    let mut games: Vec<(u64, u64, u64)> = args
        .iter()
        .zip(args.iter().skip(1))
        .filter(|(flag, _)| *flag == "--game")
        .map(|(_, game)| {
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
            best.outcome.as_str(),
            best.exact,
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
        midgame[cell] = minimax_move::engine::Player::from_char(mark);
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
            all_moves: false,
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
