use super::*;
use crate::engine::game::Geometry;

fn empty(rows: u64, cols: u64, k: u64) -> Position {
    let geometry = Geometry::new(rows, cols, k).unwrap();
    Position::new(geometry, vec![None; (rows * cols) as usize], None).unwrap()
}

#[test]
fn the_alternatives_stop_when_cancelled_though_each_search_is_small() {
    let game = PositionGame::new(empty(20, 20, 5), Scoring::Depth);
    let options = TraceOptions {
        max_depth: Some(2),
        cancel: Cancel::new(),
        ..TraceOptions::default()
    };
    options.cancel.cancel();
    assert_eq!(
        alternatives(&game, &options),
        Err(TraceError::Stopped),
        "400 searches of 400 nodes each, each shorter than 4,096 nodes"
    );
    let past = TraceOptions {
        max_depth: Some(2),
        deadline: Some(Instant::now()),
        ..TraceOptions::default()
    };
    assert_eq!(alternatives(&game, &past), Err(TraceError::Stopped));
}
