//! Criterion benchmarks for the alpha-beta search: proving small m,n,k games from the empty
//! board, and the 15 x 15 pattern search on mid-games from real games at a fixed work budget
//! (the same nodes every run, so the time is the search's speed).
//!
//! ```text
//! cargo bench --bench search
//! ```

use criterion::{Criterion, criterion_main};
use minimax_move::engine::{Geometry, Player, Position, Scoring, SearchLimits, analyze};

fn empty(rows: u64, cols: u64, k: u64) -> Position {
    let geometry = Geometry::new(rows, cols, k).expect("valid geometry");
    Position::new(geometry, vec![None; geometry.cells()], None).expect("legal position")
}

fn prove(c: &mut Criterion) {
    let mut group = c.benchmark_group("prove_from_empty");
    group.sample_size(10);
    for (rows, cols, k) in [(4, 4, 4), (5, 4, 4), (5, 5, 4)] {
        let position = empty(rows, cols, k);
        group.bench_function(format!("{rows}x{cols}_k{k}"), |b| {
            b.iter(|| analyze(&position, Scoring::Depth, &SearchLimits::default()));
        });
    }
    group.finish();
}

/// 15 x 15 positions after the moves (column letter, row letter, as in SGF), black first. They
/// come from games against AIWine (`scripts/strength/match.sh`).
const MIDGAMES: [&str; 3] = [
    "hk ik kh hi ki ij kj kk",
    "hk ik kh hi ki ij kj kk ih",
    "hk ik kh hi ij ji",
];

fn gomoku(moves: &str) -> Position {
    let geometry = Geometry::new(15, 15, 5).expect("valid geometry");
    let mut cells = vec![None; geometry.cells()];
    for (i, m) in moves.split_whitespace().enumerate() {
        let b = m.as_bytes();
        let (col, row) = (usize::from(b[0] - b'a'), usize::from(b[1] - b'a'));
        cells[row * 15 + col] = Some(if i % 2 == 0 { Player::X } else { Player::O });
    }
    Position::new(geometry, cells, None).expect("legal position")
}

fn midgame(c: &mut Criterion) {
    let mut group = c.benchmark_group("gomoku_15x15_midgame");
    group.sample_size(10);
    // The work 450 ms grants on a 15 x 15 board (what a Gomocup turn of 0.5 s thinks).
    let limits = SearchLimits {
        max_work: Some(SearchLimits::work_at_rate(
            Geometry::new(15, 15, 5).expect("valid geometry"),
            450,
            minimax_move::engine::WORK_PER_MS_TIMES_CELLS,
        )),
        ..SearchLimits::default()
    };
    for (i, moves) in MIDGAMES.iter().enumerate() {
        let position = gomoku(moves);
        group.bench_function(format!("position_{i}"), |b| {
            b.iter(|| analyze(&position, Scoring::Depth, &limits));
        });
    }
    group.finish();
}

/// The generated group function is private here so that it needs no rustdoc.
mod group {
    use super::{midgame, prove};
    criterion::criterion_group!(benches, prove, midgame);
}
criterion_main!(group::benches);
