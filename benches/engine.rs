//! Engine benchmarks: a 3 × 3 answer with its full move table from the solved table, and, for
//! reference, a plain unpruned minimax over the same positions.
//!
//! Run with `cargo bench --bench engine`.

use std::hint::black_box;

use criterion::{Criterion, criterion_main};
use minimax_move::engine::{Analysis, Engine, Geometry, Position, Scoring, SearchLimits};

/// The engine every benchmark here searches with (its tables made once, as a server's are).
fn analyze(position: &Position, scoring: Scoring, limits: &SearchLimits) -> Analysis {
    static ENGINE: std::sync::LazyLock<Engine> = std::sync::LazyLock::new(Engine::default);
    ENGINE.analyze(position, scoring, limits)
}

const SEED_BOARD: &str = "O.XX.X.OO";
const EMPTY_BOARD: &str = ".........";

fn position(board: &str) -> Position {
    let cells = Position::parse_compact(board).expect("a compact board");
    Position::new(Geometry::TIC_TAC_TOE, cells, None).expect("a legal position")
}

/// A plain minimax for reference: no pruning, no table, scores `10 - depth` for a win.
mod plain {
    pub type Board = [u8; 9];

    const LINES: [[usize; 3]; 8] = [
        [0, 1, 2],
        [3, 4, 5],
        [6, 7, 8],
        [0, 3, 6],
        [1, 4, 7],
        [2, 5, 8],
        [0, 4, 8],
        [2, 4, 6],
    ];

    fn has_line(board: &Board, mark: u8) -> bool {
        LINES
            .iter()
            .any(|line| line.iter().all(|&i| board[i] == mark))
    }

    pub fn parse(board: &str) -> Board {
        let mut cells = [0; 9];
        for (cell, c) in cells.iter_mut().zip(board.bytes()) {
            *cell = match c {
                b'X' => 1,
                b'O' => 2,
                _ => 0,
            };
        }
        cells
    }

    fn minimax(board: &mut Board, mover: u8, root: u8, depth: i32) -> i32 {
        if has_line(board, root) {
            return 10 - depth;
        }
        if has_line(board, 3 - root) {
            return depth - 10;
        }
        if board.iter().all(|&c| c != 0) {
            return 0;
        }
        let mut best = if mover == root { i32::MIN } else { i32::MAX };
        for i in 0..9 {
            if board[i] == 0 {
                board[i] = mover;
                let score = minimax(board, 3 - mover, root, depth + 1);
                board[i] = 0;
                best = if mover == root {
                    best.max(score)
                } else {
                    best.min(score)
                };
            }
        }
        best
    }

    /// Every legal move with its score, and the best (lowest index among equals).
    pub fn analyze(board: &Board, mover: u8) -> (usize, Vec<(usize, i32)>) {
        let mut work = *board;
        let moves: Vec<(usize, i32)> = (0..9)
            .filter(|&i| board[i] == 0)
            .map(|i| {
                work[i] = mover;
                let score = minimax(&mut work, 3 - mover, mover, 1);
                work[i] = 0;
                (i, score)
            })
            .collect();
        let mut best = 0;
        for (k, m) in moves.iter().enumerate() {
            if m.1 > moves[best].1 {
                best = k;
            }
        }
        (moves[best].0, moves)
    }
}

fn table_lookup(c: &mut Criterion) {
    let limits = SearchLimits::default();
    for (name, board) in [("seed board", SEED_BOARD), ("empty board", EMPTY_BOARD)] {
        let position = position(board);
        c.bench_function(&format!("3x3 table, {name}, full move table"), |b| {
            b.iter(|| analyze(black_box(&position), black_box(Scoring::Depth), &limits));
        });
    }
    c.bench_function("3x3 parse + validate + table, seed board", |b| {
        b.iter(|| {
            let position = position(black_box(SEED_BOARD));
            analyze(&position, Scoring::Depth, &limits)
        });
    });
}

fn plain_minimax(c: &mut Criterion) {
    for (name, board) in [("seed board", SEED_BOARD), ("empty board", EMPTY_BOARD)] {
        let board = plain::parse(board);
        c.bench_function(&format!("plain minimax, {name}, full move table"), |b| {
            b.iter(|| plain::analyze(black_box(&board), 1));
        });
    }
}

/// The generated group function is private here so that it needs no rustdoc.
mod group {
    use super::{plain_minimax, table_lookup};
    criterion::criterion_group!(benches, table_lookup, plain_minimax);
}
criterion_main!(group::benches);
