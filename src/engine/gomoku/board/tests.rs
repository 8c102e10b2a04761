//! Tests of the parent module.

use super::*;
use crate::engine::game::Player;
use crate::engine::game::renju::oracle;
use crate::engine::game::renju::tests::crowded_board;
use crate::engine::gomoku::eval::WEIGHTS;

/// Every cell's patterns, threats and values, the per-side counts, the window sums and the
/// bit sets of fives and fours.
type Snapshot = (
    Vec<([u16; 2], [Threat; 2], [i16; 2], u8)>,
    [[u16; 8]; 2],
    Sums,
    ThreatSets,
);

fn snapshot(board: &Goban) -> Snapshot {
    let cells = board
        .playable()
        .iter()
        .map(|&a| a as usize)
        .filter(|&a| board.is_empty(a))
        .map(|a| {
            let cell = &board.cells[a];
            (cell.patterns, cell.threat, cell.value, cell.near)
        })
        .collect();
    (cells, board.threat_counts, board.windows.sums(), board.sets)
}

/// The window sums counted plainly: every run of `k` cells on the grid, in each direction,
/// valued as the side to move's (`[0]`) and as its opponent's (`[1]`).
fn plain_window_scores(geometry: Geometry, cells: &[Option<Player>]) -> [[i32; 2]; 2] {
    let (rows, cols, k) = (
        geometry.rows() as isize,
        geometry.cols() as isize,
        geometry.k(),
    );
    let mut sums = [[0; 2]; 2];
    for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
        for r in 0..rows {
            for c in 0..cols {
                let run: Option<Vec<Option<Player>>> = (0..k as isize)
                    .map(|i| {
                        let (rr, cc) = (r + i * dr, c + i * dc);
                        ((0..rows).contains(&rr) && (0..cols).contains(&cc))
                            .then(|| cells[(rr * cols + cc) as usize])
                    })
                    .collect();
                let Some(run) = run else { continue };
                let count = |p: Player| run.iter().filter(|&&s| s == Some(p)).count();
                let values = [&WEIGHTS.window, &WEIGHTS.window_opp];
                for (values, sums) in values.iter().zip(&mut sums) {
                    match (count(Player::X), count(Player::O)) {
                        (x, 0) => sums[0] += values[x],
                        (0, o) => sums[1] += values[o],
                        _ => {}
                    }
                }
            }
        }
    }
    sums
}

#[test]
fn renjus_test_on_the_search_board_gives_the_copying_tests_answer() {
    let mut seed = SplitMix::new(5);
    let mut forbidden = 0;
    for side in [15, 9, 20] {
        let geometry = Geometry::new(side, side, 5)
            .and_then(|g| g.with_rule(Rule::Renju))
            .unwrap();
        let n = geometry.cells();
        let (rows, cols) = (geometry.rows(), geometry.cols());
        for round in 0..300 {
            let cells = crowded_board(rows, cols, 8 + round % 30, &mut seed);
            let board = Goban::new(geometry, &cells, &WEIGHTS);
            for index in (0..n).filter(|&i| cells[i].is_none()) {
                let at = board.layout().padded(index);
                let expected = oracle::foul(rows, cols, &cells, Player::X, index);
                assert_eq!(
                    renju::foul_on(&board, at),
                    expected,
                    "{side} {round} {index}"
                );
                // The patterns let through every foul to the full test.
                assert_eq!(board.is_forbidden(at, Player::X), expected.is_some());
                assert!(!board.is_forbidden(at, Player::O));
                forbidden += usize::from(expected.is_some());
            }
        }
    }
    assert!(forbidden > 1_000, "{forbidden} forbidden cells");
}

#[test]
fn incremental_updates_match_a_board_built_from_scratch() {
    let mut seed = SplitMix::new(7);
    for (rows, cols, k) in [(15, 15, 5), (10, 12, 4), (11, 11, 6), (15, 15, 4)] {
        let geometry = Geometry::new(rows, cols, k).unwrap();
        let n = geometry.cells();
        let mut cells: Vec<Option<Player>> = vec![None; n];
        let mut board = Goban::new(geometry, &cells, &WEIGHTS);
        let mut played = Vec::new();
        for turn in 0..n.min(120) {
            let empty: Vec<usize> = (0..n).filter(|&i| cells[i].is_none()).collect();
            let cell = empty[(seed.next_key() % empty.len() as u64) as usize];
            let player = if turn % 2 == 0 { Player::X } else { Player::O };
            cells[cell] = Some(player);
            board.play(board.layout().padded(cell), player);
            played.push((cell, player));
            assert_eq!(
                snapshot(&board),
                snapshot(&Goban::new(geometry, &cells, &WEIGHTS)),
                "{rows}x{cols} k={k} after {turn} moves"
            );
            assert_eq!(board.hash(), Goban::new(geometry, &cells, &WEIGHTS).hash());
            assert_eq!(
                board.windows.sums(),
                plain_window_scores(geometry, &cells),
                "{rows}x{cols} k={k} after {turn} moves: window sums"
            );
        }
        while let Some((cell, player)) = played.pop() {
            board.undo(board.layout().padded(cell), player);
            cells[cell] = None;
            assert_eq!(board.windows.sums(), plain_window_scores(geometry, &cells));
            assert_eq!(
                snapshot(&board),
                snapshot(&Goban::new(geometry, &cells, &WEIGHTS))
            );
        }
    }
}
