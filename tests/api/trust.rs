//! Every number the API shows can be trusted: through the real router, move tables prove the
//! moves that lose at once, `top` ranks searched moves only, the last free cells of a dead board
//! are a proven draw, and a review calls a thrown win a blunder of the side that lost.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::helpers::TestApp;

const RULES: [&str; 4] = ["freestyle", "standard", "renju", "caro"];

/// A 15 × 15 board: O's four on a1–d1 (against the edge), X's stones on h8, i9, g7, f6.
fn four_on_the_edge() -> String {
    let mut cells = vec!['.'; 225];
    for c in 0..4 {
        cells[14 * 15 + c] = 'O';
    }
    for cell in [112, 98, 126, 80] {
        cells[cell] = 'X';
    }
    cells.into_iter().collect()
}

fn entry<'a>(table: &'a Value, coordinate: &str) -> &'a Value {
    table
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["coordinate"] == coordinate)
        .unwrap_or_else(|| panic!("{coordinate} in {table}"))
}

#[tokio::test]
async fn every_move_but_the_block_of_a_four_is_a_proven_loss_under_every_rule() {
    let app = TestApp::new();
    for rule in RULES {
        let body = json!({"board": four_on_the_edge(), "rows": 15, "cols": 15, "k": 5, "rule": rule,
            "moves": true, "top": 5, "time_limit_ms": 200});
        let answer = app.post_json("/v1/move", &body).await.ok_json(rule);
        assert_eq!(answer["coordinate"], "e1", "{rule}: {answer}");
        for m in answer["moves"].as_array().unwrap() {
            assert!(m["searched"].is_boolean(), "{rule}: {m}");
            if m["coordinate"] != "e1" {
                assert_eq!(
                    (&m["outcome"], &m["plies"], &m["exact"]),
                    (&json!("loss"), &json!(2), &json!(true)),
                    "{rule}: {m}"
                );
            }
        }
        for cell in ["g9", "i7", "h10"] {
            assert_eq!(entry(&answer["moves"], cell)["outcome"], "loss", "{rule}");
        }
        let top = answer["top"].as_array().unwrap();
        assert_eq!(top[0]["coordinate"], "e1", "{rule}: {top:?}");
        assert!(top.iter().all(|m| m["searched"] == true), "{rule}: {top:?}");
    }
}

#[tokio::test]
async fn top_ranks_only_searched_moves_and_not_in_board_order() {
    let app = TestApp::new();
    let empty = ".".repeat(225);
    let body = json!({"board": empty, "rows": 15, "cols": 15, "k": 5, "moves": true, "top": 5,
        "time_limit_ms": 300});
    let answer = app
        .post_json("/v1/move", &body)
        .await
        .ok_json("empty 15 x 15");
    let top = answer["top"].as_array().unwrap();
    assert_eq!(top.len(), 5, "{top:?}");
    assert_eq!(top[0]["index"], answer["index"]);
    for m in top {
        assert_eq!(m["searched"], true, "{m}");
        // Every ranked move is next to the centre, none in the corner of the board.
        let index = m["index"].as_u64().unwrap() as i64;
        let (r, c) = (index / 15, index % 15);
        assert!((r - 7).abs() <= 1 && (c - 7).abs() <= 1, "{m}");
    }
    let unsearched = answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["searched"] == false)
        .count();
    assert!(unsearched > 200, "{unsearched}");
}

#[tokio::test]
async fn top_outside_one_to_ten_is_a_422_naming_it() {
    let app = TestApp::new();
    for top in [0, 11] {
        let body = json!({"board": "XO.......", "top": top});
        let problem = app.post_json("/v1/move", &body).await.problem(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_request",
            "top",
        );
        assert!(
            problem["detail"].as_str().unwrap().contains("top"),
            "{problem}"
        );
    }
    let answer = app
        .get("/v1/move?board=XO.......&top=3")
        .await
        .ok_json("GET top");
    assert_eq!(answer["top"].as_array().unwrap().len(), 3);
}

/// A full 10 × 10 board with no three in a row anywhere, X and O in pairs; `empty` cells left.
fn dead_board(empty: &[usize]) -> String {
    (0..100)
        .map(|i| {
            let (r, c) = (i / 10, i % 10);
            if empty.contains(&i) {
                '.'
            } else if (c / 2 + r) % 2 == 0 {
                'X'
            } else {
                'O'
            }
        })
        .collect()
}

#[tokio::test]
async fn the_last_free_cells_of_a_board_where_no_line_is_possible_are_a_proven_draw() {
    let app = TestApp::new();
    // Cell 0 holds an X, cell 2 an O: two free cells, X to move.
    let body = json!({"board": dead_board(&[0, 2]), "rows": 10, "cols": 10, "k": 5, "moves": true});
    let answer = app.post_json("/v1/move", &body).await.ok_json("dead board");
    assert_eq!(
        (&answer["outcome"], &answer["exact"]),
        (&json!("draw"), &json!(true)),
        "{answer}"
    );
    for m in answer["moves"].as_array().unwrap() {
        assert_eq!(
            (&m["outcome"], &m["exact"]),
            (&json!("draw"), &json!(true)),
            "{m}"
        );
    }
}

#[tokio::test]
async fn letting_a_four_through_is_the_losers_blunder_and_the_turning_point() {
    let app = TestApp::new();
    // X builds h8 i8 j8 and then h7; O ignores it for a15 b15 c15 d15 (a four), X plays g9
    // instead of blocking at e15, and O makes five there.
    let (h8, i8, j8, h7, g9) = (112, 113, 114, 127, 96);
    let moves = [h8, 0, i8, 1, j8, 2, h7, 3, g9, 4];
    let body = json!({"moves": moves, "rows": 15, "cols": 15, "k": 5, "time_limit_ms": 2000});
    let review = app.post_json("/v1/review", &body).await.ok_json("review");
    let entries = review["moves"].as_array().unwrap();
    let ninth = &entries[8];
    assert_eq!(ninth["coordinate"], "g9");
    assert_eq!(ninth["label"], "blunder", "{ninth}");
    assert_eq!(
        (&ninth["outcome"], &ninth["score"]),
        (&json!("loss"), &json!(2 - 226)),
        "{ninth}"
    );
    // O won: the turning point is one of X's moves, whatever O's own slips were.
    let turning = review["turning_point"].as_u64().unwrap() as usize;
    assert_eq!(entries[turning - 1]["player"], "X", "{review}");
    for m in entries.iter().filter(|m| m["outcome"] == "unknown") {
        let value = m["value_for_x"].as_f64().unwrap();
        assert!(value.abs() < 1.0, "an estimate charted as a result: {m}");
    }
}
