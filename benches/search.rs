//! Criterion benchmarks for the alpha-beta search: proving small m,n,k games from the empty
//! board, and the pattern search on mid-games from real games at a fixed work budget (the same
//! nodes every run, so the time is the search's speed): 15 x 15 freestyle, and the first
//! mid-game under the other rules and moved to the centre of 20 x 20; the three mid-games under
//! renju.
//!
//! ```text
//! cargo bench --bench search
//! ```

use criterion::{Criterion, criterion_main};
use minimax_move::engine::{
    Analysis, Engine, Geometry, Player, Position, Rule, Scoring, SearchLimits,
};

/// The engine every benchmark here searches with (its tables made once, as a server's are).
fn analyze(position: &Position, scoring: Scoring, limits: &SearchLimits) -> Analysis {
    static ENGINE: std::sync::LazyLock<Engine> = std::sync::LazyLock::new(Engine::default);
    ENGINE.analyze(position, scoring, limits)
}

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

/// The position after `moves` on a `side` x `side` board under `rule`, moved `shift` cells right
/// and down (to put 15 x 15 games in the centre of 20 x 20).
fn gomoku_on(moves: &str, side: usize, rule: Rule, shift: usize) -> Position {
    let geometry = Geometry::new(side as u64, side as u64, 5)
        .and_then(|g| g.with_rule(rule))
        .expect("valid geometry");
    let mut cells = vec![None; geometry.cells()];
    for (i, m) in moves.split_whitespace().enumerate() {
        let b = m.as_bytes();
        let (col, row) = (usize::from(b[0] - b'a'), usize::from(b[1] - b'a'));
        cells[(row + shift) * side + col + shift] =
            Some(if i % 2 == 0 { Player::X } else { Player::O });
    }
    Position::new(geometry, cells, None).expect("legal position")
}

fn gomoku(moves: &str) -> Position {
    gomoku_on(moves, 15, Rule::Freestyle, 0)
}

/// The work 450 ms grants on a `side` x `side` board (what a Gomocup turn of 0.5 s thinks).
fn turn(side: u64) -> SearchLimits {
    SearchLimits {
        max_work: Some(SearchLimits::work_at_rate(
            Geometry::new(side, side, 5).expect("valid geometry"),
            450,
            minimax_move::engine::WORK_PER_MS_TIMES_CELLS,
        )),
        ..SearchLimits::default()
    }
}

fn midgame(c: &mut Criterion) {
    let mut group = c.benchmark_group("gomoku_15x15_midgame");
    group.sample_size(10);
    let limits = turn(15);
    for (i, moves) in MIDGAMES.iter().enumerate() {
        let position = gomoku(moves);
        group.bench_function(format!("position_{i}"), |b| {
            b.iter(|| analyze(&position, Scoring::Depth, &limits));
        });
    }
    group.finish();
}

fn rules(c: &mut Criterion) {
    let mut group = c.benchmark_group("gomoku_rules_midgame_0");
    group.sample_size(10);
    for (side, shift) in [(15, 0), (20, 3)] {
        let limits = turn(side as u64);
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
            let position = gomoku_on(MIDGAMES[0], side, rule, shift);
            group.bench_function(format!("{side}x{side}_{rule}"), |b| {
                b.iter(|| analyze(&position, Scoring::Depth, &limits));
            });
        }
    }
    group.finish();
}

/// The three mid-games under renju at the work of a 450 ms turn: black's forbidden points are
/// tested inside the search, on its board.
fn renju(c: &mut Criterion) {
    let mut group = c.benchmark_group("renju_15x15");
    group.sample_size(10);
    let limits = turn(15);
    for (i, moves) in MIDGAMES.iter().enumerate() {
        let position = gomoku_on(moves, 15, Rule::Renju, 0);
        group.bench_function(format!("midgame_{i}"), |b| {
            b.iter(|| analyze(&position, Scoring::Depth, &limits));
        });
    }
    group.finish();
}

/// The generated group function is private here so that it needs no rustdoc.
mod group {
    use super::{midgame, prove, renju, rules};
    criterion::criterion_group!(benches, prove, midgame, rules, renju);
}
criterion_main!(group::benches);
