//! Arbitrary bytes into the board parsers, and every valid 3 × 3 result into the engine.
//!
//! - the bytes, as lossy UTF-8, into `Position::parse_compact` (and `Position::new` when the
//!   string has nine cells);
//! - the bytes into `api::wire::parse_body`, the edge every request body goes through;
//! - every legal 3 × 3 position either path yields into `engine::analyze`, whose answer must be a
//!   legal move scoring the table's best, with a table covering exactly the empty cells.
//!
//! A panic anywhere is a finding.

#![no_main]

use libfuzzer_sys::fuzz_target;
use minimax_move::api::wire::parse_body;
use minimax_move::engine::{Geometry, Position, Scoring, SearchLimits, analyze};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match Position::parse_compact(&text) {
        Ok(cells) => {
            assert_eq!(cells.len(), text.chars().count(), "one cell a character");
            if cells.len() == 9 {
                for scoring in [Scoring::Depth, Scoring::Classic] {
                    if let Ok(position) = Position::new(Geometry::TIC_TAC_TOE, cells.clone(), None)
                    {
                        check(&position, scoring);
                    }
                }
            }
        }
        Err(errors) => assert!(!errors.is_empty(), "an error names a character"),
    }

    if let Ok(request) = parse_body(data) {
        if request.position.geometry().is_tic_tac_toe() {
            check(&request.position, request.scoring);
        }
    }
});

fn check(position: &Position, scoring: Scoring) {
    let analysis = analyze(position, scoring, &SearchLimits::default());
    let best = analysis.best_move();
    assert!(
        position.cells()[best.index].is_none(),
        "the best move is on an empty cell"
    );
    let table: Vec<usize> = analysis.moves.iter().map(|m| m.index).collect();
    let empty: Vec<usize> = position.empty_cells().collect();
    assert_eq!(
        table, empty,
        "the move table covers exactly the empty cells"
    );
    let top = analysis
        .moves
        .iter()
        .map(|m| m.value.score())
        .fold(f64::NEG_INFINITY, f64::max);
    assert!(
        best.value.score() == top,
        "the best move scores the table's best"
    );
    assert!(analysis.is_exact(), "3 x 3 answers are exact");
}
