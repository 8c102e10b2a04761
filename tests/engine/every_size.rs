//! Every board the engine accepts (rows and columns from 1 to 15, every `k` up to the longer side)
//! answers a legal move, on the empty board and on a random position; and every board of the
//! big-board engine (100 cells or more, `k` from 4 to 6) opens in the centre. (On boards the
//! solver proves, the lowest-index rule picks among equal moves, as the contract says; elsewhere
//! on small boards the searched best move is played.)

use crate::door::suggest;
use std::time::{Duration, Instant};

use minimax_move::engine::{Geometry, Position, SearchLimits, SuggestOptions};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};

fn quick(geometry: Geometry) -> SuggestOptions {
    SuggestOptions {
        limits: SearchLimits {
            max_work: Some(SearchLimits::work_for(geometry, 2)),
            deadline: Some(Instant::now() + Duration::from_secs(5)),
            ..SearchLimits::default()
        },
        ..SuggestOptions::default()
    }
}

/// Twice the rows-plus-columns distance from `cell` to the centre of the board.
fn distance_to_centre(geometry: Geometry, cell: usize) -> usize {
    let (row, col) = (cell / geometry.cols(), cell % geometry.cols());
    (2 * row).abs_diff(geometry.rows() - 1) + (2 * col).abs_diff(geometry.cols() - 1)
}

fn every_geometry() -> impl Iterator<Item = Geometry> {
    (1..=15).flat_map(|rows| {
        (1..=15).flat_map(move |cols| {
            (1..=rows.max(cols)).map(move |k| Geometry::new(rows, cols, k).expect("in range"))
        })
    })
}

#[test]
fn every_size_answers_a_legal_move_and_big_boards_open_in_the_centre() {
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let mut off_centre = Vec::new();
    for geometry in every_geometry() {
        let empty = Position::new(geometry, vec![None; geometry.cells()], None).expect("empty");
        let suggestion = suggest(&empty, &quick(geometry));
        let first = suggestion.chosen.index;
        assert!(
            first < geometry.cells(),
            "{geometry:?}: {first} is off the board"
        );
        let nearest = (0..geometry.cells())
            .map(|cell| distance_to_centre(geometry, cell))
            .min()
            .expect("a cell");
        let big_board = geometry.cells() >= 100 && (4..=6).contains(&geometry.k());
        if big_board && distance_to_centre(geometry, first) != nearest {
            off_centre.push((geometry, first));
        }
        // A random position a few moves in, when the game is still going.
        let mut position = empty;
        for _ in 0..(rng.next_u64() % (geometry.cells() as u64 / 2 + 1)) {
            let empty_cells: Vec<usize> = position.empty_cells().collect();
            let cell = empty_cells[(rng.next_u64() % empty_cells.len() as u64) as usize];
            let played = position.try_play(cell).expect("an empty cell");
            if played.result.is_some() || played.cells.iter().all(Option::is_some) {
                break;
            }
            position = Position::new(geometry, played.cells, None).expect("legal");
        }
        let answer = suggest(&position, &quick(geometry)).chosen.index;
        assert!(
            position.cells()[answer].is_none(),
            "{geometry:?}: {answer} is taken"
        );
    }
    assert!(
        off_centre.is_empty(),
        "first moves off the centre: {off_centre:?}"
    );
}
