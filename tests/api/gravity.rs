//! Gravity games (`"gravity": true`) through the production router: floating marks refused,
//! `index` and `column` in every answer, exact 7 × 6 answers that agree with the solver, a small
//! board against the plain minimax of tests/common, `/v1/play` by column and the MCP tools.

use std::collections::HashMap;

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::door::analyze;
use crate::helpers::{TestApp, pointers};
use crate::oracle::{Memo, Shape, move_scores, opponent, value};
use minimax_move::engine::{Game, Geometry, Outcome, Player, Scoring, SearchLimits};

/// The compact board (top row first) after X, O, X... drop marks in `columns` (from 0).
fn board_after(rows: usize, cols: usize, columns: &[usize]) -> String {
    let mut cells = vec!['.'; rows * cols];
    for (i, &c) in columns.iter().enumerate() {
        let r = (0..rows)
            .rev()
            .find(|&r| cells[r * cols + c] == '.')
            .expect("the column has room");
        cells[r * cols + c] = if i % 2 == 0 { 'X' } else { 'O' };
    }
    cells.into_iter().collect()
}

#[tokio::test]
async fn rejects_a_mark_that_floats_naming_its_cell_on_every_route() {
    let app = TestApp::new();
    // X in the bottom-left corner is fine; O at cell 30 (row 4, column 2) has an empty cell
    // below it.
    let mut board: Vec<char> = ".".repeat(42).chars().collect();
    board[35] = 'X';
    board[30] = 'O';
    let board: String = board.into_iter().collect();
    let options = json!({"board": board, "rows": 6, "cols": 7, "k": 4, "gravity": true});
    for uri in ["/v1/move", "/v1/status", "/v1/play"] {
        let mut body = options.clone();
        if uri == "/v1/play" {
            body["column"] = json!(3);
        }
        let problem = app.post_json(uri, &body).await.problem(
            StatusCode::UNPROCESSABLE_ENTITY,
            "impossible_position",
            uri,
        );
        assert_eq!(pointers(&problem), ["/board/30"], "{uri}: {problem}");
        assert!(
            problem["detail"].as_str().unwrap().contains("cell 30"),
            "{uri}: {problem}"
        );
    }
    // The same board without gravity is an ordinary position.
    let mut plain = options.clone();
    plain["gravity"] = json!(false);
    app.post_json("/v1/status", &plain)
        .await
        .ok_json("no gravity");
}

#[tokio::test]
async fn the_empty_connect_four_board_answers_the_centre_with_index_and_column_everywhere() {
    let app = TestApp::new();
    let body = json!({"board": ".".repeat(42), "rows": 6, "cols": 7, "k": 4, "gravity": true,
        "moves": true});
    let answer = app.post_move(&body).await.ok_json("empty board");
    assert_eq!(
        (&answer["index"], &answer["column"]),
        (&json!(38), &json!(3)),
        "{answer}"
    );
    assert_eq!(answer["outcome"], "win", "{answer}");
    assert_eq!(answer["plies"], 41, "{answer}");
    assert_eq!(
        answer["score"],
        43 - 41,
        "depth scoring: W - plies, {answer}"
    );
    assert_eq!(answer["exact"], true, "{answer}");
    assert_eq!(
        answer["explanation"], "X drops in column 4 and wins by the 41st move.",
        "{answer}"
    );
    let moves = answer["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 7, "{answer}");
    for (c, entry) in moves.iter().enumerate() {
        assert_eq!(entry["column"], c, "{entry}");
        assert_eq!(entry["index"], 35 + c, "the bottom row: {entry}");
        assert_eq!(entry["exact"], true, "{entry}");
    }
    // The GET twin takes the same option.
    let uri = format!(
        "/v1/move?board={}&rows=6&cols=7&k=4&gravity=true",
        ".".repeat(42)
    );
    let got = app.get(&uri).await.ok_json(&uri);
    assert_eq!(
        (&got["index"], &got["column"]),
        (&json!(38), &json!(3)),
        "{got}"
    );
    // Classic scoring: +10 / -10 / 0, the same outcomes.
    let mut classic = body.clone();
    classic["scoring"] = json!("classic");
    let answer = app.post_move(&classic).await.ok_json("classic");
    assert_eq!(
        (answer["index"].as_u64(), answer["score"].as_i64()),
        (Some(38), Some(10))
    );
}

#[tokio::test]
async fn exact_answers_on_7_by_6_match_the_solver_and_the_compatibility_route() {
    let app = TestApp::new();
    let games: [&[usize]; 4] = [
        &[0, 1, 0, 1, 1, 0, 2, 3, 2, 3, 3, 2],
        &[3, 2, 3, 2, 4, 4, 1, 5, 0],
        &[1, 3, 5, 0, 0, 6, 4, 0, 2, 4, 0, 4, 1, 0, 0, 4, 4, 1, 2, 1],
        &[0, 6, 4, 0, 1, 5, 5, 4, 0, 4, 4, 3, 0, 1, 0, 4, 6, 1, 2, 3],
    ];
    for columns in games {
        let game = Game::from_columns(Geometry::CONNECT_FOUR, Player::X, columns).unwrap();
        let position = game.position().unwrap();
        let solved = analyze(position, Scoring::Depth, &SearchLimits::default());
        let board = board_after(6, 7, columns);
        let body = json!({"board": board, "rows": 6, "cols": 7, "k": 4, "gravity": true,
            "moves": true, "time_limit_ms": 10000});
        let answer = app.post_move(&body).await.ok_json(&board);
        let pos: String = columns
            .iter()
            .map(|c| char::from(b'1' + *c as u8))
            .collect();
        let uri = format!("/v1/connect4/solve?pos={pos}");
        let pons = app.get(&uri).await.ok_json(&uri);
        let stones = columns.len() as i64;
        for entry in answer["moves"].as_array().unwrap() {
            let c = entry["column"].as_u64().unwrap() as usize;
            let cell = Geometry::CONNECT_FOUR
                .landing_cell(position.cells(), c)
                .unwrap();
            let expected = solved.get(cell).unwrap().value;
            assert_eq!(entry["exact"], true, "{board}: {entry}");
            assert_eq!(
                entry["outcome"],
                expected.outcome().unwrap().as_str(),
                "{board}: {entry}"
            );
            assert_eq!(
                entry["plies"].as_u64(),
                expected.plies().map(u64::from),
                "{board}: {entry}"
            );
            // The public API's score: 1 + (cells - m) / 2 for a win with the m-th stone.
            let plies = entry["plies"].as_i64().unwrap();
            let score = match expected.outcome().unwrap() {
                Outcome::Win => 1 + (42 - (stones + plies)) / 2,
                Outcome::Loss => -(1 + (42 - (stones + plies)) / 2),
                Outcome::Draw => 0,
            };
            assert_eq!(pons["score"][c], score, "{board}: column {c}, {pons}");
        }
        assert_eq!(
            answer["column"],
            Geometry::CONNECT_FOUR.column_of(solved.best),
            "{board}"
        );
    }
}

#[tokio::test]
async fn a_small_gravity_board_matches_a_plain_minimax_move_by_move() {
    let app = TestApp::new();
    let (rows, cols, k) = (4, 4, 3);
    let shape = Shape::gravity(rows, cols, k);
    let mut memo = Memo::new();
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut checked = 0;
    for game in 0..40 {
        // A random game prefix of 0 to 7 stones that is still in play.
        let mut cells = vec![b'.'; rows * cols];
        let mut mover = b'X';
        let plies = game % 8;
        let mut over = false;
        for _ in 0..plies {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let open: Vec<usize> = (0..cols).filter(|&c| cells[c] == b'.').collect();
            let c = open[(seed >> 33) as usize % open.len()];
            let r = (0..rows)
                .rev()
                .find(|&r| cells[r * cols + c] == b'.')
                .unwrap();
            cells[r * cols + c] = mover;
            if shape.line_through(&cells, r * cols + c) {
                over = true;
                break;
            }
            mover = opponent(mover);
        }
        if over {
            continue;
        }
        let board = String::from_utf8(cells.clone()).unwrap();
        let body = json!({"board": board, "rows": rows, "cols": cols, "k": k,
            "gravity": true, "moves": true, "player": (mover as char).to_string()});
        let answer = app.post_move(&body).await.ok_json(&board);
        let scores: HashMap<usize, i32> = move_scores(shape, &mut cells, mover, &mut memo)
            .into_iter()
            .collect();
        for entry in answer["moves"].as_array().unwrap() {
            let i = entry["index"].as_u64().unwrap() as usize;
            assert_eq!(entry["column"], i % cols, "{board}: {entry}");
            assert_eq!(entry["score"], scores[&i], "{board}: {entry}");
            assert_eq!(entry["exact"], true, "{board}: {entry}");
        }
        let best = value(shape, &mut cells, mover, &mut memo);
        assert_eq!(answer["score"], best, "{board}: {answer}");
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} positions checked");
}

#[tokio::test]
async fn play_takes_a_column_and_answers_the_landing_cell() {
    let app = TestApp::new();
    let board = board_after(6, 7, &[3]);
    let body = json!({"board": board, "rows": 6, "cols": 7, "k": 4, "gravity": true,
        "column": 3});
    let answer = app.post_json("/v1/play", &body).await.ok_json("by column");
    assert_eq!(
        (&answer["index"], &answer["column"]),
        (&json!(31), &json!(3))
    );
    assert_eq!(answer["to_move"], "X", "{answer}");
    assert_eq!(
        answer["legal_moves"],
        json!([24, 35, 36, 37, 39, 40, 41]),
        "{answer}"
    );
    // The same move by index; a floating index, a disagreeing pair and a full column are refused.
    let mut by_index = body.clone();
    by_index.as_object_mut().unwrap().remove("column");
    by_index["index"] = json!(31);
    assert_eq!(
        app.post_json("/v1/play", &by_index)
            .await
            .ok_json("by index"),
        answer
    );
    for (change, pointer) in [
        (json!({"index": 24}), "/index"),
        (json!({"index": 30, "column": 3}), "/column"),
        (json!({"column": 7}), "/column"),
    ] {
        let mut bad = body.clone();
        bad.as_object_mut().unwrap().remove("column");
        for (key, value) in change.as_object().unwrap() {
            bad[key] = value.clone();
        }
        let problem = app.post_json("/v1/play", &bad).await.problem(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_move",
            &bad.to_string(),
        );
        assert_eq!(pointers(&problem), [pointer], "{problem}");
    }
    let full = board_after(6, 7, &[3, 3, 3, 3, 3, 3]);
    let body = json!({"board": full, "rows": 6, "cols": 7, "k": 4, "gravity": true, "column": 3});
    app.post_json("/v1/play", &body).await.problem(
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_move",
        "full column",
    );
}

#[tokio::test]
async fn a_board_too_large_to_prove_in_time_gets_an_honest_estimate() {
    let app = TestApp::new();
    let body = json!({"board": ".".repeat(100), "rows": 10, "cols": 10, "k": 4,
        "gravity": true, "moves": true, "time_limit_ms": 200});
    let answer = app.post_move(&body).await.ok_json("10 x 10");
    assert!(
        answer["column"].as_u64().is_some_and(|c| c < 10),
        "{answer}"
    );
    if answer["exact"] == false {
        let score = answer["score"].as_f64().unwrap();
        assert!(score.abs() < 1.0, "{answer}");
        assert_eq!(answer["outcome"], "unknown", "{answer}");
    }
    let too_big = json!({"board": ".".repeat(15 * 15), "rows": 15, "cols": 15, "k": 5,
        "gravity": true});
    app.post_move(&too_big).await.problem(
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_geometry",
        "15 x 15",
    );
}

#[tokio::test]
async fn the_mcp_tools_speak_gravity() {
    let app = TestApp::new();
    let call = |name: &'static str, arguments: Value| {
        let app = app.clone();
        async move { app.mcp_call(name, arguments).await }
    };
    let options = json!({"board": ".".repeat(42), "rows": 6, "cols": 7, "k": 4, "gravity": true});
    let suggested = call("suggest_move", options.clone()).await;
    let answer = &suggested["structuredContent"];
    assert_eq!(
        (&answer["index"], &answer["column"]),
        (&json!(38), &json!(3)),
        "{suggested}"
    );
    assert!(
        suggested["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("X drops in column 4 and wins by the 41st move."),
        "{suggested}"
    );
    let mut play = options.clone();
    play["column"] = json!(3);
    let applied = call("apply_move", play).await;
    assert_eq!(applied["structuredContent"]["index"], 38, "{applied}");
    let mut floating = options.clone();
    floating["board"] = json!(format!("X{}", ".".repeat(41)));
    let refused = call("game_status", floating).await;
    assert_eq!(refused["isError"], true, "{refused}");
    assert!(
        refused["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("impossible_position"),
        "{refused}"
    );
}

#[tokio::test]
async fn every_gravity_geometry_answers_a_legal_move_in_bounded_time() {
    let app = TestApp::new();
    let mut geometries: Vec<(usize, usize, usize)> = Vec::new();
    for rows in 1..=4 {
        for cols in 1..=4 {
            for k in 1..=rows.max(cols) {
                geometries.push((rows, cols, k));
            }
        }
    }
    geometries.extend([
        (10, 10, 4),
        (11, 10, 5),
        (10, 11, 4),
        (15, 7, 4),
        (7, 15, 15),
        (1, 15, 4),
        (15, 1, 3),
    ]);
    for (rows, cols, k) in geometries {
        let body = json!({"board": ".".repeat(rows * cols), "rows": rows, "cols": cols, "k": k,
            "gravity": true, "moves": true, "time_limit_ms": 100});
        let context = format!("{rows} x {cols}, k = {k}");
        let answer = app.post_move(&body).await.ok_json(&context);
        let index = answer["index"].as_u64().unwrap() as usize;
        assert_eq!(
            index / cols,
            rows - 1,
            "{context}: the bottom row, {answer}"
        );
        assert_eq!(answer["column"], index % cols, "{context}: {answer}");
        assert_eq!(
            answer["moves"].as_array().unwrap().len(),
            cols,
            "{context}: {answer}"
        );
    }
}

/// The cells where marks dropped in `columns` (from 0), one after another, land.
fn landing_cells(rows: usize, cols: usize, columns: &[usize]) -> Vec<usize> {
    let mut heights = vec![0; cols];
    columns
        .iter()
        .map(|&c| {
            heights[c] += 1;
            (rows - heights[c]) * cols + c
        })
        .collect()
}

#[tokio::test]
async fn gravity_boards_with_a_side_over_16_are_answered_and_reviewed() {
    let app = TestApp::new();
    // k = 5 takes sides up to 20; with gravity these are 20 × 5, 5 × 20 and a single row.
    for (rows, cols, k) in [(5, 20, 5), (20, 5, 5), (1, 17, 5), (6, 17, 5), (17, 7, 5)] {
        let context = format!("{rows} x {cols}, k = {k}");
        let columns = [cols / 2, cols / 2 - 1, cols / 2 + 1];
        let board = board_after(rows, cols, &columns);
        let request = json!({
            "board": board, "rows": rows, "cols": cols, "k": k, "gravity": true,
            "time_limit_ms": 200,
        });
        let answer = app
            .post_json("/v1/move", &request)
            .await
            .ok_json(&format!("POST /v1/move, {context}"));
        let column = answer["column"].as_u64().expect("a column") as usize;
        assert!(column < cols, "{context}: {answer}");
        let landing = landing_cells(rows, cols, &[&columns[..], &[column]].concat());
        assert_eq!(answer["index"], landing[3], "{context}: {answer}");

        let game = json!({
            "moves": landing_cells(rows, cols, &columns), "rows": rows, "cols": cols, "k": k,
            "gravity": true, "time_limit_ms": 300,
        });
        let review = app
            .post_json("/v1/review", &game)
            .await
            .ok_json(&format!("POST /v1/review, {context}"));
        assert_eq!(
            review["moves"].as_array().map(Vec::len),
            Some(3),
            "{context}: {review}"
        );
    }
}
