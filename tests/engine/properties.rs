//! Property tests of the edge and the engine's invariants.
//!
//! The parser never panics, whatever arrives: arbitrary bytes into `parse_body` (the entry point
//! every request body goes through), arbitrary JSON, and requests that look almost right; the byte
//! and the value paths agree on which requests are valid. On random legal 3 × 3 positions, reached by random play from either side,
//! the engine's choice is legal, scores the table's best with ties to the lowest index, and the
//! move table covers exactly the empty cells.

use crate::door::analyze;
use minimax_move::api::wire::{ValidRequest, parse_body, parse_request};
use minimax_move::engine::{
    Geometry, MoveValue, Player, Position, Scoring, SearchLimits, game_result,
};
use proptest::prelude::*;
use serde_json::{Value, json};

/// Any JSON value, nested a few levels deep.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        ".{0,12}".prop_map(Value::from),
        "[XOxo._ -]{0,30}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 64, 10, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..12).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,10}", inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// One cell as a client might write it, right or wrong.
fn any_cell(index: usize) -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => Just(json!("X")),
        4 => Just(json!("O")),
        1 => Just(json!("x")),
        1 => Just(json!("o")),
        3 => Just(json!(index)),
        1 => Just(Value::Null),
        1 => prop::sample::select(vec!["", " ", "-", "_", ".", "Z", "XO", "0"]).prop_map(Value::from),
        1 => any::<i64>().prop_map(Value::from),
        1 => Just(json!(4.0)),
        1 => Just(json!(true)),
        1 => Just(json!([])),
    ]
}

/// A request object that is close to valid: the right keys, values from around the edges.
fn near_valid_request() -> impl Strategy<Value = Value> {
    let board = (1_usize..20).prop_flat_map(|n| {
        prop_oneof![
            (0..n)
                .map(any_cell)
                .collect::<Vec<_>>()
                .prop_map(Value::Array),
            prop::string::string_regex(&format!("[XOxo._ -]{{{n}}}"))
                .expect("a valid regex")
                .prop_map(Value::from),
        ]
    });
    (
        board,
        prop::option::of(prop::sample::select(vec![
            json!("X"),
            json!("o"),
            json!("Y"),
            json!(1),
        ])),
        prop::option::of(prop::sample::select(vec![
            json!("depth"),
            json!("classic"),
            json!("Depth"),
        ])),
        prop::option::of(any::<bool>()),
        prop::option::of(0_u64..6),
        prop::option::of(0_u64..6),
        prop::option::of(0_u64..7),
        prop::option::of(prop::sample::select(vec![
            json!(1),
            json!(0),
            json!(-5),
            json!(1.5),
        ])),
        prop::option::of(prop::sample::select(vec!["scorng", "difficulty", "seed"])),
    )
        .prop_map(
            |(board, player, scoring, moves, rows, cols, k, time_limit, extra)| {
                let mut request = serde_json::Map::new();
                request.insert("board".into(), board);
                let optional = [
                    ("player", player),
                    ("scoring", scoring),
                    ("moves", moves.map(Value::from)),
                    ("rows", rows.map(Value::from)),
                    ("cols", cols.map(Value::from)),
                    ("k", k.map(Value::from)),
                    ("time_limit_ms", time_limit),
                ];
                for (key, value) in optional {
                    if let Some(value) = value {
                        request.insert(key.into(), value);
                    }
                }
                if let Some(key) = extra {
                    let value = match key {
                        "difficulty" => json!("hard"),
                        "seed" => json!(7),
                        _ => json!("classic"),
                    };
                    request.insert(key.into(), value);
                }
                Value::Object(request)
            },
        )
}

/// Parses, and if the request is valid, checks the position it became and analyses it briefly.
fn parse_and_analyse(body: Value) {
    let bytes = serde_json::to_vec(&body).expect("a JSON value serializes");
    let from_bytes = parse_body(&bytes);
    let Ok(request) = parse_request(body) else {
        assert!(
            from_bytes.is_err(),
            "parse_body agrees that the request is invalid"
        );
        return;
    };
    assert!(
        from_bytes.is_ok(),
        "parse_body agrees that the request is valid"
    );
    check_and_analyse(&request);
}

/// Checks the position a valid request became and analyses it briefly.
fn check_and_analyse(request: &ValidRequest) {
    let position = &request.position;
    assert_eq!(
        position.cells().len(),
        position.geometry().cells(),
        "a valid position fills its geometry"
    );
    assert!(
        game_result(position.geometry(), position.cells()).is_none(),
        "a valid position is still in play"
    );
    if position.geometry().cells() <= 16 {
        let limits = SearchLimits {
            max_depth: Some(4),
            deadline: None,
            max_work: Some(20_000),
            all_moves: request.moves,
            ..SearchLimits::default()
        };
        let analysis = analyze(position, request.scoring, &limits);
        assert!(
            position.cells()[analysis.best_move().index].is_none(),
            "the best move is on an empty cell"
        );
    }
}

/// A legal 3 × 3 position in play: `first` starts, then the players alternate over `order` until
/// `plies` moves are made or the game would end.
fn random_play(first: Player, order: &[usize], plies: usize) -> Position {
    let mut cells = vec![None; 9];
    let mut to_move = first;
    for &index in order.iter().take(plies) {
        let mut next = cells.clone();
        next[index] = Some(to_move);
        if game_result(Geometry::TIC_TAC_TOE, &next).is_some() || next.iter().all(Option::is_some) {
            break;
        }
        cells = next;
        to_move = to_move.opponent();
    }
    Position::new(Geometry::TIC_TAC_TOE, cells, Some(to_move))
        .expect("random play from the empty board reaches only legal positions in play")
}

fn legal_position() -> impl Strategy<Value = Position> {
    (
        prop::sample::select(vec![Player::X, Player::O]),
        Just((0..9).collect::<Vec<usize>>()).prop_shuffle(),
        0_usize..9,
    )
        .prop_map(|(first, order, plies)| random_play(first, &order, plies))
}

fn as_wire_array(position: &Position) -> Value {
    Value::Array(
        position
            .cells()
            .iter()
            .enumerate()
            .map(|(i, c)| c.map_or_else(|| json!(i), |p| json!(p.as_str())))
            .collect(),
    )
}

fn as_compact(position: &Position) -> String {
    position
        .cells()
        .iter()
        .map(|c| c.map_or('.', Player::as_char))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn parse_compact_never_panics_on_any_bytes(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let text = String::from_utf8_lossy(&bytes);
        match Position::parse_compact(&text) {
            Ok(cells) => prop_assert_eq!(cells.len(), text.chars().count()),
            Err(errors) => prop_assert!(!errors.is_empty(), "an error names at least one character"),
        }
    }

    #[test]
    fn parse_body_never_panics_on_any_bytes(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        if let Ok(request) = parse_body(&bytes) {
            check_and_analyse(&request);
        }
    }

    #[test]
    fn parse_request_never_panics_on_any_json(body in any_json()) {
        parse_and_analyse(body);
    }

    #[test]
    fn parse_request_never_panics_on_near_valid_requests(body in near_valid_request()) {
        parse_and_analyse(body);
    }

    #[test]
    fn the_chosen_move_is_legal_and_scores_the_tables_best(
        position in legal_position(),
        classic in any::<bool>(),
    ) {
        let scoring = if classic { Scoring::Classic } else { Scoring::Depth };
        let analysis = analyze(&position, scoring, &SearchLimits::default());
        let best = analysis.best_move();

        prop_assert!(position.cells()[best.index].is_none(), "the chosen move {} is on an empty cell", best.index);
        prop_assert!(position.try_play(best.index).is_ok(), "the chosen move {} can be played", best.index);

        let table: Vec<usize> = analysis.moves.iter().map(|m| m.index).collect();
        let empty: Vec<usize> = position.empty_cells().collect();
        prop_assert_eq!(&table, &empty, "the move table covers exactly the empty cells, ascending");

        let top = analysis
            .moves
            .iter()
            .map(|m| m.value.score())
            .fold(f64::NEG_INFINITY, f64::max);
        prop_assert_eq!(best.value.score(), top, "the chosen move scores the table's best");
        let first_top = analysis.moves.iter().find(|m| m.value.score() == top).map(|m| m.index);
        prop_assert_eq!(Some(best.index), first_top, "ties go to the lowest index");

        for m in &analysis.moves {
            let MoveValue::Proven { plies, .. } = m.value else {
                return Err(TestCaseError::fail(format!("move {} is not proven", m.index)));
            };
            prop_assert!(plies >= 1 && plies as usize <= empty.len(), "move {} plies {} within the empty cells", m.index, plies);
        }
    }

    #[test]
    fn both_wire_forms_parse_back_to_the_same_position(position in legal_position()) {
        let player = position.to_move().as_str();
        for board in [as_wire_array(&position), Value::from(as_compact(&position))] {
            let request = parse_request(json!({"board": board, "player": player}))
                .map_err(|e| TestCaseError::fail(format!("{board}: {e:?}")))?;
            prop_assert_eq!(request.position.cells(), position.cells(), "cells of {}", board);
            prop_assert_eq!(request.position.to_move(), position.to_move(), "side to move of {}", board);
        }
    }
}
