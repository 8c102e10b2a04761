//! Tests of the parent module.

use super::*;
use crate::engine::core::deadline::Deadline;
use crate::engine::core::pool::Tables;
use crate::engine::core::table::Replacement;
use crate::engine::game::{Geometry, Player};
use crate::engine::gomoku::eval::WEIGHTS;

fn tables() -> Tables {
    Tables::with_budget(usize::MAX)
}

/// A quiet 15 × 15 midgame (the first criterion midgame: h11 i11 k8 h9 k9 i10 k10 k11), black
/// to move.
fn midgame() -> Goban {
    let mut cells = vec![None; 225];
    let moves = [
        (7, 10),
        (8, 10),
        (10, 7),
        (7, 8),
        (10, 8),
        (8, 9),
        (10, 9),
        (10, 10),
    ];
    for (i, (col, row)) in moves.into_iter().enumerate() {
        cells[row * 15 + col] = Some(if i % 2 == 0 { Player::X } else { Player::O });
    }
    Goban::new(Geometry::new(15, 15, 5).unwrap(), &cells, &WEIGHTS)
}

#[test]
fn the_null_move_keeps_its_positions_apart_in_the_table() {
    let mut table = Table::acquire(
        &tables(),
        Replacement::UnlessDeeper,
        Geometry::new(15, 15, 5).unwrap(),
    );
    let mut searcher = Searcher::new(
        midgame(),
        Budget::new(None, Deadline::default()),
        &WEIGHTS,
        &mut table,
    );
    let key = searcher.board.hash();
    let eval = searcher.evaluate(Player::X);
    // Too shallow, or the evaluation below beta: no null move.
    assert_eq!(searcher.null_move(2, 1, eval, eval, Player::X), None);
    assert_eq!(searcher.null_move(6, 1, eval + 1, eval, Player::X), None);
    assert!(searcher.table.probe(key).is_none());
    // The same stones with white to move, searched 10 - 1 - 4 = 5 plies deep (too deep for
    // reverse futility to return before storing): stored under the null move's key only, so
    // a real position with these stones (black to move) never reads white's result.
    searcher.null_move(10, 1, eval, eval, Player::X);
    assert!(!searcher.after_null);
    assert!(searcher.table.probe(key).is_none());
    assert!(searcher.table.probe(key ^ NULL_MOVE_KEY).is_some());
    // Inside the null move's subtree no second null move is tried.
    searcher.after_null = true;
    assert_eq!(searcher.null_move(6, 1, eval, eval, Player::X), None);
}

#[test]
fn a_counter_to_the_opponents_vcf_is_found() {
    // O threatens a VCF; X's only defence is a counter off its line (see the position).
    // Searched a few plies with the line as its hints, X must not lose by force: without
    // the counters it did, and the search one ply up called O's move a win.
    let board = super::super::moves::tests::counter_position();
    let mut table = Table::acquire(
        &tables(),
        Replacement::UnlessDeeper,
        Geometry::new(15, 15, 5).unwrap(),
    );
    let mut searcher = Searcher::new(
        board,
        Budget::new(None, Deadline::default()),
        &WEIGHTS,
        &mut table,
    );
    let score = searcher.negamax(4, 1, -INFINITY, INFINITY, Player::X);
    assert!(score > -MATE_BOUND, "{score}");
}

#[test]
fn pruning_spares_fours_and_the_blocks_of_fours_only() {
    // Black (X) h8 i8 j8: g8 or k8 makes black an open four, and white must take one of them.
    let mut cells = vec![None; 225];
    for at in [7 * 15 + 7, 7 * 15 + 8, 7 * 15 + 9] {
        cells[at] = Some(Player::X);
    }
    for at in [0, 14, 210] {
        cells[at] = Some(Player::O);
    }
    let board = Goban::new(Geometry::new(15, 15, 5).unwrap(), &cells, &WEIGHTS);
    // h4 is far from every stone.
    let (g8, k8, far) = (
        board.layout().padded(7 * 15 + 6),
        board.layout().padded(7 * 15 + 10),
        board.layout().padded(3 * 15 + 7),
    );
    for side in Player::BOTH {
        // Making the four (black) or taking its cell (white) is never quiet.
        assert!(!moves::is_quiet(&board, g8, side));
        assert!(!moves::is_quiet(&board, k8, side));
        assert!(moves::is_quiet(&board, far, side));
    }
}
