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
        alternatives(&game, &options, &Tables::with_budget(0)),
        Err(TraceError::Stopped),
        "400 searches of 400 nodes each, each shorter than 4,096 nodes"
    );
    let past = TraceOptions {
        max_depth: Some(2),
        deadline: Some(Instant::now()),
        ..TraceOptions::default()
    };
    assert_eq!(
        alternatives(&game, &past, &Tables::with_budget(0)),
        Err(TraceError::Stopped)
    );
}

#[test]
fn the_table_of_a_trace_never_holds_more_than_its_cap() {
    // The empty 8 × 15 board with k = 15: no game ends within the work limit, and nearly every
    // inner node is a new position.
    let game = PositionGame::new(empty(8, 15, 15), Scoring::Depth);
    let options = TraceOptions {
        algorithm: Algorithm::AlphaBetaTable,
        max_work: 400_000,
        ..TraceOptions::default()
    };
    let tables = Tables::with_budget(crate::engine::facade::slot_bytes());
    let mut search = Search::new(&game, &options, Algorithm::AlphaBetaTable, &tables);
    let result = search.run();
    // Entries are never removed, so the size at the end is the largest it reached.
    let peak = search.table_len();
    assert!(
        matches!(result, Err(TraceError::TooLarge { .. })),
        "the search passes its work limit"
    );
    assert_eq!(
        peak, TRACE_TABLE_POSITIONS,
        "filled to its cap and no further"
    );
    drop(search);
    assert_eq!(
        tables.made(),
        <TraceTable as crate::engine::core::pool::Renew>::BYTES,
        "one table made, inside the budget"
    );
    assert!(tables.made() <= tables.budget());
    let traced = trace_in(&tables, &TraceInput::Position(empty(8, 15, 15)), &options);
    assert!(matches!(traced, Err(TraceError::TooLarge { .. })));
    assert!(
        tables.made() <= tables.budget(),
        "a whole trace stays in the budget"
    );
}
