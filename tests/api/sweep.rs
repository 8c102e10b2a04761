//! Every geometry the contract allows: each `rows`, `cols` and `k` from 1 to 20 (the schema's
//! bounds), with and without gravity, under each rule, is either answered or refused with a 422,
//! on `POST /v1/move` and on `POST /v1/review`. Never a 500: validation and the engines agree on
//! what is supported.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{TestApp, TestResponse};

const RULES: [&str; 4] = ["freestyle", "standard", "renju", "caro"];

/// The cell where the first mark lands: the centre, or on a gravity board the bottom of the
/// middle column.
fn first_cell(rows: usize, cols: usize, gravity: bool) -> usize {
    let row = if gravity { rows - 1 } else { rows / 2 };
    row * cols + cols / 2
}

/// Asserts an answer or a 422 problem, and says which it was.
#[track_caller]
fn answered(response: &TestResponse, context: &str) -> bool {
    match response.status {
        StatusCode::OK => true,
        StatusCode::UNPROCESSABLE_ENTITY => {
            let problem = response.json();
            assert!(
                ["invalid_geometry", "invalid_request"]
                    .contains(&problem["code"].as_str().unwrap_or("")),
                "{context}: a 422 for the geometry, got {problem}"
            );
            false
        }
        status => panic!("{context}: {status}, {}", response.text()),
    }
}

#[tokio::test]
#[ignore = "slow tier: cargo test --test api -- --ignored slow_"]
async fn slow_every_geometry_the_schema_allows_is_answered_or_refused_with_a_422() {
    let app = TestApp::new();
    let (mut moves, mut reviews, mut refused) = (0, 0, 0);
    for rows in 1..=20_usize {
        for cols in 1..=20_usize {
            for k in 1..=20_usize {
                for gravity in [false, true] {
                    for rule in RULES {
                        let context =
                            format!("{rows} x {cols}, k = {k}, gravity {gravity}, {rule}");
                        let geometry = json!({"rows": rows, "cols": cols, "k": k,
                            "gravity": gravity, "rule": rule, "time_limit_ms": 1});
                        let mut request = geometry.clone();
                        request["board"] = Value::from(".".repeat(rows * cols));
                        let response = app.post_json("/v1/move", &request).await;
                        if !answered(&response, &format!("POST /v1/move, {context}")) {
                            refused += 1;
                            continue;
                        }
                        moves += 1;
                        let index = response.json()["index"].as_u64().unwrap() as usize;
                        assert!(index < rows * cols, "{context}: {}", response.text());

                        let mut game = geometry;
                        game["moves"] = json!([first_cell(rows, cols, gravity)]);
                        let review = app.post_json("/v1/review", &game).await;
                        assert!(
                            answered(&review, &format!("POST /v1/review, {context}")),
                            "{context}: a geometry that POST /v1/move answers is reviewed: {}",
                            review.text()
                        );
                        reviews += 1;
                    }
                }
            }
        }
    }
    assert_eq!(moves + refused, 20 * 20 * 20 * 2 * RULES.len());
    assert_eq!(reviews, moves);
    assert!(moves > 5_000, "{moves} geometries answered");
}
