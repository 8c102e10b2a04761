//! Golden answers: the engine's full answer for a fixed set of positions, recorded from a release
//! and compared byte for byte, so that moving code cannot change an answer unnoticed.
//!
//! The set: every legal 3 × 3 position in play under both scorings; random positions on m,n,k
//! boards from 3 × 4 to 10 × 10, searched under a work budget with every move scored; and random
//! 15 × 15 gomoku midgames and the VCF positions of `data/gomoku-vcf.txt`, searched under the work
//! budget of 300 ms. Every search runs on one thread with no deadline, so the answer depends on
//! the engine alone, never on the clock.
//!
//! A line is the request (geometry, scoring, board) and the answer: chosen move, best move, depth,
//! nodes, principal variation, the explanation and every scored move. A deliberate change of
//! answer regenerates the file (`GOLDEN_UPDATE=1 cargo test --test engine golden`) and names the
//! change in its commit.

use crate::door::suggest;
use std::fmt::Write as _;

use minimax_move::engine::{
    Geometry, MoveValue, Player, Position, Scoring, SearchLimits, SuggestOptions,
};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};

const GOLDEN_PATH: &str = "tests/engine/data/golden.txt";
const VCF_POSITIONS: &str = include_str!("data/gomoku-vcf.txt");

/// The small m,n,k boards sampled: (rows, cols, k, positions, work budget).
const SMALL_BOARDS: [(u64, u64, u64, usize, u64); 12] = [
    (3, 4, 3, 12, 200_000),
    (4, 4, 3, 12, 200_000),
    (4, 4, 4, 12, 200_000),
    (4, 5, 4, 10, 200_000),
    (5, 5, 4, 10, 300_000),
    (5, 5, 5, 8, 300_000),
    (6, 6, 4, 8, 300_000),
    (6, 7, 5, 6, 300_000),
    (7, 7, 5, 6, 300_000),
    (8, 8, 5, 6, 300_000),
    (9, 9, 6, 4, 300_000),
    (10, 10, 5, 6, 300_000),
];
const GOMOKU_RANDOM_POSITIONS: usize = 16;
const GOMOKU_BUDGET_MS: u64 = 300;

fn mark(cell: Option<Player>) -> char {
    match cell {
        Some(Player::X) => 'X',
        Some(Player::O) => 'O',
        None => '.',
    }
}

fn value(value: MoveValue) -> String {
    match value {
        MoveValue::Proven {
            outcome,
            plies,
            score,
        } => format!("{}/{plies}/{score}", outcome.as_str()),
        MoveValue::Estimate(estimate) => format!("~{estimate:?}"),
    }
}

fn answer_line(position: &Position, scoring: Scoring, limits: SearchLimits) -> String {
    let geometry = position.geometry();
    let options = SuggestOptions {
        scoring,
        limits,
        ..SuggestOptions::default()
    };
    let suggestion = suggest(position, &options);
    let analysis = &suggestion.analysis;
    let board: String = position.cells().iter().map(|&c| mark(c)).collect();
    let scoring = match scoring {
        Scoring::Depth => "depth",
        Scoring::Classic => "classic",
    };
    let mut line = format!(
        "{}x{}k{} {scoring} {board} -> chosen {} {} best {} depth {:?} nodes {} pv {:?} | {} |",
        geometry.rows(),
        geometry.cols(),
        geometry.k(),
        suggestion.chosen.index,
        value(suggestion.chosen.value),
        analysis.best,
        analysis.depth,
        analysis.nodes,
        suggestion.pv,
        suggestion.explanation,
    );
    for scored in &analysis.moves {
        write!(line, " {}:{}", scored.index, value(scored.value)).expect("writing to a string");
    }
    line
}

fn budget(work: u64, all_moves: bool) -> SearchLimits {
    SearchLimits {
        max_depth: None,
        deadline: None,
        max_work: Some(work),
        all_moves,
        ..SearchLimits::default()
    }
}

/// Every position in play on 3 × 3, in a fixed order (breadth first from the empty board, each
/// position once).
fn every_tic_tac_toe_position() -> Vec<Position> {
    let geometry = Geometry::TIC_TAC_TOE;
    let mut seen = std::collections::HashSet::new();
    let mut frontier = vec![vec![None; 9]];
    let mut positions = Vec::new();
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for cells in frontier {
            let position = Position::new(geometry, cells.clone(), None).expect("a legal position");
            for cell in position.empty_cells().collect::<Vec<_>>() {
                let played = position.try_play(cell).expect("an empty cell");
                if played.result.is_none()
                    && played.cells.iter().any(Option::is_none)
                    && seen.insert(played.cells.clone())
                {
                    next.push(played.cells);
                }
            }
            positions.push(position);
        }
        frontier = next;
    }
    positions
}

/// A random position in play after `plies` random moves from the empty board, or `None` if the
/// game ended on the way.
fn random_position(geometry: Geometry, plies: usize, rng: &mut ChaCha8Rng) -> Option<Position> {
    let mut position = Position::new(geometry, vec![None; geometry.cells()], None).ok()?;
    for _ in 0..plies {
        let empty: Vec<usize> = position.empty_cells().collect();
        let cell = empty[(rng.next_u64() % empty.len() as u64) as usize];
        let played = position.try_play(cell).ok()?;
        if played.result.is_some() || played.cells.iter().all(Option::is_some) {
            return None;
        }
        position = Position::new(geometry, played.cells, None).ok()?;
    }
    Some(position)
}

/// A random gomoku midgame: stones dropped near the centre, so that the position looks like play.
fn random_gomoku_midgame(rng: &mut ChaCha8Rng) -> Option<Position> {
    let geometry = Geometry::new(15, 15, 5).expect("15 x 15");
    let mut position = Position::new(geometry, vec![None; 225], None).ok()?;
    let stones = 8 + (rng.next_u64() % 20) as usize;
    for _ in 0..stones {
        let row = 4 + (rng.next_u64() % 7) as usize;
        let col = 4 + (rng.next_u64() % 7) as usize;
        let cell = row * 15 + col;
        if position.cells()[cell].is_some() {
            continue;
        }
        let played = position.try_play(cell).ok()?;
        if played.result.is_some() {
            return None;
        }
        position = Position::new(geometry, played.cells, None).ok()?;
    }
    Some(position)
}

fn golden_lines() -> Vec<String> {
    let mut lines = Vec::new();
    let unbounded = SearchLimits::default();
    for position in every_tic_tac_toe_position() {
        for scoring in [Scoring::Depth, Scoring::Classic] {
            lines.push(answer_line(&position, scoring, unbounded.clone()));
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    for (rows, cols, k, count, work) in SMALL_BOARDS {
        let geometry = Geometry::new(rows, cols, k).expect("a valid geometry");
        let mut found = 0;
        while found < count {
            let plies = (rng.next_u64() % (geometry.cells() as u64 / 2)) as usize;
            if let Some(position) = random_position(geometry, plies, &mut rng) {
                lines.push(answer_line(&position, Scoring::Depth, budget(work, true)));
                found += 1;
            }
        }
    }
    let gomoku = Geometry::new(15, 15, 5).expect("15 x 15");
    let work = SearchLimits::work_for(gomoku, GOMOKU_BUDGET_MS);
    let mut found = 0;
    while found < GOMOKU_RANDOM_POSITIONS {
        if let Some(position) = random_gomoku_midgame(&mut rng) {
            lines.push(answer_line(&position, Scoring::Depth, budget(work, false)));
            found += 1;
        }
    }
    for record in VCF_POSITIONS.lines().step_by(4) {
        let board = record.split_whitespace().next().expect("a board");
        let cells = Position::parse_compact(board).expect("a compact board");
        let position = Position::new(gomoku, cells, None).expect("a legal position");
        lines.push(answer_line(&position, Scoring::Depth, budget(work, false)));
    }
    lines
}

#[test]
fn every_golden_answer_is_unchanged() {
    let actual = golden_lines().join("\n") + "\n";
    if std::env::var_os("GOLDEN_UPDATE").is_some() {
        std::fs::write(GOLDEN_PATH, &actual).expect("writing the golden file");
        return;
    }
    let expected = std::fs::read_to_string(GOLDEN_PATH).expect("the golden file");
    let mismatches: Vec<(usize, &str, &str)> = expected
        .lines()
        .zip(actual.lines())
        .enumerate()
        .filter(|(_, (want, got))| want != got)
        .map(|(number, (want, got))| (number + 1, want, got))
        .collect();
    assert!(
        mismatches.is_empty(),
        "{} golden answers changed; the first, on line {}:\nwant {}\ngot  {}",
        mismatches.len(),
        mismatches[0].0,
        mismatches[0].1,
        mismatches[0].2,
    );
    assert_eq!(
        expected.lines().count(),
        actual.lines().count(),
        "the number of golden answers changed"
    );
}
