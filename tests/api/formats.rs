//! Every board format of DESIGN.md gives the same answer, and the board comes back in its format.

use axum::body::Body;
use axum::http::{Request, header};
use serde_json::{Value, json};

use crate::helpers::{SEED_BOARD, TestApp};

/// Asserts the seed board's depth answer: X plays 4 for 9.
#[track_caller]
fn assert_seed_answer(answer: &Value, context: &str) {
    assert_eq!(answer["index"], 4, "{context}: index in {answer}");
    assert_eq!(answer["score"], 9, "{context}: score");
    assert_eq!(answer["player"], "X", "{context}: player");
    assert_eq!(answer["outcome"], "win", "{context}: outcome");
    assert_eq!(answer["plies"], 1, "{context}: plies");
    assert_eq!(answer["exact"], true, "{context}: exact");
}

#[tokio::test]
async fn accepts_every_array_form_of_the_seed_board() {
    let app = TestApp::new();
    let cases: Vec<(Value, Value, &str)> = vec![
        (
            json!(["O", 1, "X", "X", 4, "X", 6, "O", "O"]),
            json!(["O", 1, "X", "X", "X", "X", 6, "O", "O"]),
            "canonical: marks and index-empties",
        ),
        (
            json!(["o", 1, "x", "x", 4, "x", 6, "o", "o"]),
            json!(["O", 1, "X", "X", "X", "X", 6, "O", "O"]),
            "lower-case marks",
        ),
        (
            json!(["O", 1, "x", "X", 4, "x", 6, "o", "O"]),
            json!(["O", 1, "X", "X", "X", "X", 6, "O", "O"]),
            "mixed-case marks",
        ),
        (
            json!(["O", null, "X", "X", null, "X", null, "O", "O"]),
            json!(["O", null, "X", "X", "X", "X", null, "O", "O"]),
            "null empties",
        ),
        (
            json!(["O", "", "X", "X", "", "X", "", "O", "O"]),
            json!(["O", "", "X", "X", "X", "X", "", "O", "O"]),
            "empty-string empties",
        ),
        (
            json!(["O", " ", "X", "X", " ", "X", " ", "O", "O"]),
            json!(["O", " ", "X", "X", "X", "X", " ", "O", "O"]),
            "space empties",
        ),
        (
            json!(["O", "-", "X", "X", "-", "X", "-", "O", "O"]),
            json!(["O", "-", "X", "X", "X", "X", "-", "O", "O"]),
            "dash empties",
        ),
        (
            json!(["O", "_", "X", "X", "_", "X", "_", "O", "O"]),
            json!(["O", "_", "X", "X", "X", "X", "_", "O", "O"]),
            "underscore empties",
        ),
        (
            json!(["O", ".", "X", "X", ".", "X", ".", "O", "O"]),
            json!(["O", ".", "X", "X", "X", "X", ".", "O", "O"]),
            "dot empties",
        ),
        (
            json!(["O", 1, "X", "X", null, "X", "-", "O", "O"]),
            json!(["O", 1, "X", "X", "X", "X", 6, "O", "O"]),
            "index, null and dash empties mixed",
        ),
    ];
    for (board, after, why) in cases {
        let answer = app.post_move(&json!({ "board": board })).await.ok_json(why);
        assert_seed_answer(&answer, why);
        assert_eq!(answer["board"], after, "{why}: board after the move");
    }
}

#[tokio::test]
async fn accepts_every_compact_string_form_of_the_seed_board() {
    let app = TestApp::new();
    let cases = [
        ("O.XX.X.OO", "O.XXXX.OO", "dots"),
        ("O-XX-X-OO", "O-XXXX-OO", "dashes"),
        ("O_XX_X_OO", "O_XXXX_OO", "underscores"),
        ("O XX X OO", "O XXXX OO", "spaces"),
        ("o.xx.x.oo", "O.XXXX.OO", "lower case"),
        (
            "O.xX-x_Oo",
            "O.XXXX.OO",
            "mixed case and empties: the first empty marker is kept",
        ),
    ];
    for (board, after, why) in cases {
        let answer = app.post_move(&json!({ "board": board })).await.ok_json(why);
        assert_seed_answer(&answer, why);
        assert_eq!(answer["board"], after, "{why}: board after the move");
    }
}

#[tokio::test]
async fn accepts_the_bare_board_array_as_the_whole_body() {
    let answer = TestApp::new()
        .post_raw(SEED_BOARD, Some("application/json"))
        .await
        .ok_json("bare array");
    assert_seed_answer(&answer, "bare array");
    assert!(answer.get("moves").is_none(), "options take their defaults");
}

#[tokio::test]
async fn accepts_the_bare_compact_string_as_the_whole_body() {
    let answer = TestApp::new()
        .post_raw(r#""O.XX.X.OO""#, Some("application/json"))
        .await
        .ok_json("bare string");
    assert_seed_answer(&answer, "bare string");
    assert_eq!(answer["board"], "O.XXXX.OO");
}

#[tokio::test]
async fn answers_get_with_the_board_in_the_query_string() {
    let app = TestApp::new();
    let cases = [
        ("/v1/move?board=O.XX.X.OO", "compact"),
        (
            "/v1/move?board=O%20XX%20X%20OO",
            "compact with encoded spaces",
        ),
        (
            "/v1/move?board=O-XX-X-OO&scoring=depth",
            "dashes, explicit scoring",
        ),
        (
            "/v1/move?board=%5B%22O%22%2C1%2C%22X%22%2C%22X%22%2C4%2C%22X%22%2C6%2C%22O%22%2C%22O%22%5D",
            "a URL-encoded JSON array",
        ),
    ];
    for (uri, why) in cases {
        let answer = app.get(uri).await.ok_json(why);
        assert_seed_answer(&answer, why);
    }
}

#[tokio::test]
async fn get_takes_the_same_options_as_post() {
    let app = TestApp::new();
    let answer = app
        .get("/v1/move?board=O.XX.X.OO&scoring=classic&moves=true&player=X")
        .await
        .ok_json("classic with moves");
    assert_eq!(answer["score"], 10);
    assert_eq!(answer["moves"].as_array().map(Vec::len), Some(3));
    let post = app
        .post_move(
            &json!({"board": "O.XX.X.OO", "scoring": "classic", "moves": true, "player": "X"}),
        )
        .await
        .ok_json("the same as a POST");
    assert_eq!(answer, post, "GET and POST agree");
}

#[tokio::test]
async fn accepts_lower_case_player_names() {
    let answer = TestApp::new()
        .post_move(&json!({"board": "XO.......", "player": "o"}))
        .await
        .ok_json("player o");
    assert_eq!(answer["player"], "O");
}

#[tokio::test]
async fn null_means_the_default_for_every_optional_field() {
    // OpenAI's strict function calling sends every optional field, null when unset.
    let app = TestApp::new();
    let nulls = json!({
        "board": "O.XX.X.OO", "player": null, "scoring": null, "moves": null, "rows": null,
        "cols": null, "k": null, "max_depth": null, "time_limit_ms": null, "difficulty": null,
        "tie_break": null, "seed": null
    });
    let with_nulls = app
        .post_move(&nulls)
        .await
        .ok_json("POST /v1/move with nulls");
    let without = app
        .post_move(&json!({"board": "O.XX.X.OO"}))
        .await
        .ok_json("POST /v1/move without options");
    assert_eq!(with_nulls, without);

    for (uri, body) in [
        (
            "/v1/play",
            json!({"board": "O.XX.X.OO", "index": 4, "player": null, "rows": null, "cols": null, "k": null}),
        ),
        (
            "/v1/status",
            json!({"board": "O.XX.X.OO", "player": null, "rows": null, "cols": null, "k": null}),
        ),
    ] {
        let response = app
            .send(
                Request::post(uri)
                    .header(header::CONTENT_TYPE, "application/json")
                    .body(Body::from(body.to_string()))
                    .unwrap(),
            )
            .await;
        response.ok_json(uri);
    }
}
