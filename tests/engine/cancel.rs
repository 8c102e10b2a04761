//! A cancelled search returns promptly, on every kind of board that searches: the small-board
//! solver and the big-board engine. Each search below would run for its whole minute-long
//! deadline; cancelled after 100 ms it must come back within a few seconds (a generous bound for a
//! loaded machine: the budget looks at the flag every 1,024 nodes).

use crate::door::suggest;
use std::time::{Duration, Instant};

use minimax_move::engine::{Cancel, Geometry, Player, Position, SearchLimits, SuggestOptions};

fn cancelled_after(geometry: Geometry, delay: Duration) -> Duration {
    let position =
        Position::new(geometry, vec![None; geometry.cells()], None).expect("the empty board");
    let cancel = Cancel::new();
    let options = SuggestOptions {
        limits: SearchLimits {
            deadline: Some(Instant::now() + Duration::from_secs(60)),
            all_moves: true,
            cancel: cancel.clone(),
            ..SearchLimits::default()
        },
        ..SuggestOptions::default()
    };
    let started = Instant::now();
    let search = std::thread::spawn(move || suggest(&position, &options));
    std::thread::sleep(delay);
    cancel.cancel();
    search.join().expect("the search does not panic");
    started.elapsed()
}

#[test]
fn a_cancelled_small_board_search_returns_at_once() {
    let took = cancelled_after(Geometry::new(9, 9, 6).unwrap(), Duration::from_millis(100));
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

#[test]
fn a_cancelled_big_board_search_returns_at_once() {
    let took = cancelled_after(
        Geometry::new(15, 15, 5).unwrap(),
        Duration::from_millis(100),
    );
    assert!(took < Duration::from_secs(5), "took {took:?}");
}

/// A search cancelled before it starts still answers, from the moves' one-ply values: one
/// policy for the first iteration in both depth-limited searches (the deadline stops it too).
#[test]
fn a_search_cancelled_before_it_starts_answers_from_one_ply() {
    // The side to move (X) wins at once on 4 in the 7 × 7 game; on 15 × 15 it has no threat.
    let mut small = vec![None; 49];
    for cell in [0, 1, 2, 3] {
        small[cell] = Some(Player::X);
    }
    for cell in [14, 15, 16, 17] {
        small[cell] = Some(Player::O);
    }
    let mut big = vec![None; 225];
    for (cell, player) in [
        (112, Player::X),
        (113, Player::O),
        (97, Player::X),
        (98, Player::O),
    ] {
        big[cell] = Some(player);
    }
    for (geometry, cells) in [
        (Geometry::new(7, 7, 5).unwrap(), small),
        (Geometry::new(15, 15, 5).unwrap(), big),
    ] {
        let position = Position::new(geometry, cells, None).expect("a position in play");
        let cancel = Cancel::new();
        cancel.cancel();
        let options = SuggestOptions {
            limits: SearchLimits {
                all_moves: true,
                cancel,
                ..SearchLimits::default()
            },
            ..SuggestOptions::default()
        };
        let suggestion = suggest(&position, &options);
        let empty = position.cells().iter().filter(|c| c.is_none()).count();
        assert_eq!(suggestion.analysis.moves.len(), empty, "{geometry:?}");
        assert!(position.cells()[suggestion.chosen.index].is_none());
        if geometry.cells() == 49 {
            assert_eq!(
                suggestion.chosen.index, 4,
                "the win at once is found in one ply"
            );
        }
    }
}
