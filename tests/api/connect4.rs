//! `GET /v1/connect4/solve?pos=`, the drop-in for the public Connect Four solver API: its
//! answer's shape and scores, and a 422 problem for every kind of bad `pos`.

use axum::http::StatusCode;
use serde_json::json;

use crate::helpers::{TestApp, pointers};

#[tokio::test]
async fn the_empty_board_scores_every_column_as_the_public_solver_does() {
    let app = TestApp::new();
    for uri in ["/v1/connect4/solve?pos=", "/v1/connect4/solve"] {
        let answer = app.get(uri).await.ok_json(uri);
        assert_eq!(
            answer,
            json!({"pos": "", "score": [-2, -1, 0, 1, 0, -1, -2]}),
            "{uri}"
        );
    }
}

#[tokio::test]
async fn a_full_column_scores_100_and_an_immediate_win_its_pons_score() {
    // Columns 4 and 3 filled without a line, then X stacks three in column 1 while O plays
    // columns 2 and 6: X to move wins at once in column 1 with the 19th stone of the game,
    // which scores 1 + (42 - 19) / 2 = 12.
    let pos = "444444333333121216";
    let uri = format!("/v1/connect4/solve?pos={pos}");
    let answer = TestApp::new().get(&uri).await.ok_json(&uri);
    assert_eq!(answer["pos"], pos);
    let scores = answer["score"].as_array().expect("an array");
    assert_eq!(scores.len(), 7, "{answer}");
    assert_eq!(scores[2], 100, "column 3 is full: {answer}");
    assert_eq!(scores[3], 100, "column 4 is full: {answer}");
    assert_eq!(scores[0], 12, "{answer}");
    for (i, s) in scores.iter().enumerate() {
        let s = s.as_i64().expect("an integer");
        assert!(
            s == 100 || (-21..=12).contains(&s),
            "column {}: {s} in {answer}",
            i + 1
        );
    }
}

#[tokio::test]
async fn rejects_a_character_that_is_not_a_column() {
    let app = TestApp::new();
    for (pos, position) in [("0", 1), ("448", 3), ("44a", 3), ("4%204", 2)] {
        let uri = format!("/v1/connect4/solve?pos={pos}");
        let problem =
            app.get(&uri)
                .await
                .problem(StatusCode::UNPROCESSABLE_ENTITY, "invalid_request", &uri);
        assert_eq!(pointers(&problem), ["/pos"], "{uri}");
        let detail = problem["detail"].as_str().unwrap();
        assert!(
            detail.contains(&format!("character {position}")),
            "{uri}: {detail}"
        );
    }
}

#[tokio::test]
async fn rejects_a_move_in_a_full_column() {
    let problem = TestApp::new()
        .get("/v1/connect4/solve?pos=4444444")
        .await
        .problem(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_move",
            "full column",
        );
    assert_eq!(pointers(&problem), ["/pos"]);
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("move 7 (column 4): the column is full"),
        "{problem}"
    );
}

#[tokio::test]
async fn rejects_a_finished_game_with_its_winner_and_line() {
    let app = TestApp::new();
    // X plays column 1 four times while O plays column 2: X wins with the 7th move.
    let problem = app.get("/v1/connect4/solve?pos=1212121").await.problem(
        StatusCode::UNPROCESSABLE_ENTITY,
        "game_over",
        "won",
    );
    assert_eq!(problem["winner"], "X", "{problem}");
    // Column 1's four lowest cells, row-major from the top row.
    assert_eq!(problem["line"], json!([14, 21, 28, 35]), "{problem}");
    // And a move after the end: an invalid move, as in a review.
    let problem = app.get("/v1/connect4/solve?pos=12121213").await.problem(
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_move",
        "after the end",
    );
    assert_eq!(pointers(&problem), ["/pos"]);
    let detail = problem["detail"].as_str().unwrap();
    assert!(
        detail.contains("move 8 (column 3)") && detail.contains("X had won"),
        "{problem}"
    );
}

#[tokio::test]
async fn rejects_an_unknown_parameter() {
    TestApp::new()
        .get("/v1/connect4/solve?ps=44")
        .await
        .problem(StatusCode::UNPROCESSABLE_ENTITY, "unknown_field", "typo");
}

#[tokio::test]
async fn the_route_is_in_the_openapi_document() {
    let doc = minimax_move::api::openapi();
    let json = serde_json::to_value(&doc).unwrap();
    assert!(
        json["paths"]["/v1/connect4/solve"]["get"].is_object(),
        "the route is documented"
    );
}

#[tokio::test]
async fn a_column_not_proven_in_time_is_a_timeout_never_a_full_column() {
    use minimax_move::api::{AppState, Settings};
    // So short a limit that balanced openings cannot be finished: each answer is either every
    // column proven, 100 only where the column is full, or a 503 `timeout`.
    let app = TestApp::with_state(AppState::ready(Settings {
        max_time_limit_ms: 20,
        ..Settings::default()
    }));
    let mut timeouts = 0;
    for pos in ["4453", "44444", "123456712", "4444441", "3344553", "12121"] {
        let uri = format!("/v1/connect4/solve?pos={pos}");
        let response = app.get(&uri).await;
        if response.status == StatusCode::SERVICE_UNAVAILABLE {
            assert_eq!(response.json()["code"], "timeout", "{uri}");
            timeouts += 1;
            continue;
        }
        let answer = response.ok_json(&uri);
        let mut heights = [0; 7];
        for c in pos.bytes() {
            heights[usize::from(c - b'1')] += 1;
        }
        for (column, score) in answer["score"].as_array().unwrap().iter().enumerate() {
            assert_eq!(
                score == 100,
                heights[column] == 6,
                "{uri}: column {}",
                column + 1
            );
        }
    }
    assert!(
        timeouts > 0,
        "past the book, 9 stones cannot be solved in 20 ms"
    );
}
