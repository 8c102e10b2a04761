//! A cancelled search returns promptly, on every kind of board that searches: the small-board
//! solver and the big-board engine. Each search below would run for its whole minute-long
//! deadline; cancelled after 100 ms it must come back within a few seconds (a generous bound for a
//! loaded machine: the budget looks at the flag every 1,024 nodes).

use std::time::{Duration, Instant};

use minimax_move::engine::{Cancel, Geometry, Position, SearchLimits, SuggestOptions, suggest};

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
