//! Every error of DESIGN.md: its status, `application/problem+json`, its `code` and pointers.

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{SEED_BOARD, TestApp, pointers};

const UNPROCESSABLE: StatusCode = StatusCode::UNPROCESSABLE_ENTITY;

#[tokio::test]
async fn rejects_bad_cells_naming_each_one() {
    let app = TestApp::new();
    let cases: Vec<(Value, Vec<&str>, &str)> = vec![
        (
            json!(["O", 1, "X", "X", 7, "X", 6, "O", "O"]),
            vec!["/board/4"],
            "7 at index 4 is not its own index",
        ),
        (
            json!(["O", 1, "X", "X", 4.0, "X", 6, "O", "O"]),
            vec!["/board/4"],
            "4.0 is not an integer",
        ),
        (
            json!(["O", 1, "X", "X", 4.5, "X", 6, "O", "O"]),
            vec!["/board/4"],
            "4.5 is not an integer",
        ),
        (
            json!(["O", -1, "X", "X", 4, "X", 6, "O", "O"]),
            vec!["/board/1"],
            "a negative number",
        ),
        (
            json!([2, 1, 1, 1, 0, 1, 0, 2, 2]),
            vec![
                "/board/0", "/board/2", "/board/3", "/board/4", "/board/5", "/board/6", "/board/7",
                "/board/8",
            ],
            "a 0/1/2 numeric encoding is not silently guessed",
        ),
        (
            json!(["O", true, "X", "X", 4, "X", 6, "O", "O"]),
            vec!["/board/1"],
            "a boolean cell",
        ),
        (
            json!(["O", 1, "X", "X", 4, "X", {}, "O", "O"]),
            vec!["/board/6"],
            "an object cell",
        ),
        (
            json!(["O", 1, "X", "X", 4, "X", [6], "O", "O"]),
            vec!["/board/6"],
            "an array cell",
        ),
        (
            json!(["O", false, "X", "X", "Z", "X", {"a": 1}, "O", "O"]),
            vec!["/board/1", "/board/4", "/board/6"],
            "every bad cell is named at once",
        ),
        (
            json!(["O", 1, "X", "X", "XO", "X", 6, "O", "O"]),
            vec!["/board/4"],
            "a two-letter string",
        ),
        (
            json!(["O", 1, "X", "X", "0", "X", 6, "O", "O"]),
            vec!["/board/4"],
            "a digit string",
        ),
    ];
    for (board, expected, why) in cases {
        let problem = app.post_move(&json!({ "board": board })).await.problem(
            UNPROCESSABLE,
            "invalid_cell",
            why,
        );
        assert_eq!(pointers(&problem), expected, "{why}: pointers in {problem}");
    }
}

#[tokio::test]
async fn rejects_bad_characters_in_the_compact_form_naming_their_positions() {
    let app = TestApp::new();
    let cases = [
        ("O1XX4X6OO", vec!["1", "4", "6"], "digits"),
        ("O.XX*X.OO", vec!["4"], "an asterisk"),
        ("O.XX.X.O0", vec!["8"], "a zero for an O"),
    ];
    for (board, positions, why) in cases {
        let problem = app.post_move(&json!({ "board": board })).await.problem(
            UNPROCESSABLE,
            "invalid_cell",
            why,
        );
        let errors = problem["errors"].as_array().expect("errors");
        assert_eq!(
            errors.len(),
            positions.len(),
            "{why}: one error a character"
        );
        for (error, position) in errors.iter().zip(positions) {
            assert_eq!(error["pointer"], "/board", "{why}");
            let detail = error["detail"].as_str().unwrap();
            assert!(
                detail.contains(position),
                "{why}: {detail:?} names position {position}"
            );
        }
    }
}

#[tokio::test]
async fn rejects_boards_of_the_wrong_length_or_type() {
    let app = TestApp::new();
    let cases = [
        (
            json!({"board": ["O", 1, "X", "X", 4, "X", 6, "O"]}),
            "invalid_board",
            "8 cells",
        ),
        (
            json!({"board": ["O", 1, "X", "X", 4, "X", 6, "O", "O", 9]}),
            "invalid_board",
            "10 cells",
        ),
        (json!({"board": []}), "invalid_board", "no cells"),
        (
            json!({"board": "O.XX.X.O"}),
            "invalid_board",
            "a string of 8",
        ),
        (
            json!({"board": "O.XX.X.OO."}),
            "invalid_board",
            "a string of 10",
        ),
        (json!({"board": ""}), "invalid_board", "an empty string"),
        (json!({"board": 5}), "invalid_board", "a number"),
        (json!({"board": {"0": "X"}}), "invalid_board", "an object"),
        (json!({"board": null}), "invalid_board", "null"),
        (
            json!({"board": "O.XX.X.OO", "rows": 4}),
            "invalid_board",
            "9 cells for 4 x 3",
        ),
    ];
    for (body, code, why) in cases {
        let problem = app.post_move(&body).await.problem(UNPROCESSABLE, code, why);
        assert_eq!(pointers(&problem), vec!["/board"], "{why}: pointer");
    }
}

#[tokio::test]
async fn rejects_unsupported_geometries() {
    let app = TestApp::new();
    let cases = [
        (
            json!({"board": "O.XX.X.OO", "k": 4}),
            "k longer than the board",
        ),
        (json!({"board": "O.XX.X.OO", "rows": 0}), "zero rows"),
        (
            json!({"board": "O.XX.X.OO", "cols": 16}),
            "more than 15 columns",
        ),
    ];
    for (body, why) in cases {
        app.post_move(&body)
            .await
            .problem(UNPROCESSABLE, "invalid_geometry", why);
    }
}

#[tokio::test]
async fn rejects_impossible_positions() {
    let app = TestApp::new();
    let cases = [
        ("XX.......", "X has two marks more"),
        ("OO.......", "O has two marks more"),
        ("XXXOOO...", "both players have a line"),
        ("OOOXX.XX.", "O has a line but fewer marks"),
        ("XXX.OO.OO", "X has a line but fewer marks"),
        ("XXXXXXOOO", "two X lines"),
    ];
    for (board, why) in cases {
        app.post_move(&json!({ "board": board })).await.problem(
            UNPROCESSABLE,
            "impossible_position",
            why,
        );
    }
}

#[tokio::test]
async fn rejects_a_board_whose_winner_has_two_disjoint_lines() {
    TestApp::new()
        .post_move(&json!({"board": "XXX.O..OO.OOXXX.", "rows": 4, "cols": 4, "k": 3}))
        .await
        .problem(
            UNPROCESSABLE,
            "impossible_position",
            "X's two lines share no cell",
        );
}

#[tokio::test]
async fn reports_a_finished_game_with_its_winner_and_line() {
    let app = TestApp::new();
    let cases = [
        (
            json!("XXXOO...."),
            json!("X"),
            json!([0, 1, 2]),
            "X's top row",
        ),
        (
            json!(["X", "X", 2, "O", "O", "O", "X", 7, 8]),
            json!("O"),
            json!([3, 4, 5]),
            "O's middle row",
        ),
        (
            json!("XXXXOOXOO"),
            json!("X"),
            json!([0, 1, 2, 3, 6]),
            "a double line through 0",
        ),
        (json!("XOXXOOOXX"), Value::Null, json!([]), "a draw"),
    ];
    for (board, winner, line, why) in cases {
        let problem = app.post_move(&json!({ "board": board })).await.problem(
            UNPROCESSABLE,
            "game_over",
            why,
        );
        assert_eq!(
            problem.get("winner"),
            Some(&winner),
            "{why}: winner in {problem}"
        );
        assert_eq!(problem["line"], line, "{why}: line");
    }
}

#[tokio::test]
async fn rejects_a_side_to_move_that_contradicts_the_counts() {
    let app = TestApp::new();
    let cases = [
        (json!({"board": "X........", "player": "X"}), "X moved last"),
        (
            json!({"board": ["O", 1, 2, 3, 4, 5, 6, 7, 8], "player": "O"}),
            "O moved last",
        ),
        (
            json!({"board": "XO.X.....", "player": "X"}),
            "X has more marks",
        ),
    ];
    for (body, why) in cases {
        app.post_move(&body)
            .await
            .problem(UNPROCESSABLE, "wrong_player", why);
    }
}

#[tokio::test]
async fn rejects_an_unknown_field_naming_it() {
    let problem = TestApp::new()
        .post_move(&json!({"board": "O.XX.X.OO", "scorng": "classic"}))
        .await
        .problem(UNPROCESSABLE, "unknown_field", "a typo of scoring");
    let detail = problem["detail"].as_str().unwrap();
    assert!(
        detail.contains("scorng"),
        "the detail names the field: {detail}"
    );
    let error = &problem["errors"][0];
    assert!(
        error["pointer"] == "/scorng" || error["detail"].as_str().unwrap_or("").contains("scorng"),
        "the error names the field: {problem}"
    );
}

#[tokio::test]
async fn rejects_a_field_that_appears_twice() {
    let app = TestApp::new();
    let cases = [
        (r#"{"board": ".........", "board": "X........"}"#, "/board"),
        (
            r#"{"board": "O.XX.X.OO", "scoring": "depth", "scoring": "classic"}"#,
            "/scoring",
        ),
    ];
    for (body, pointer) in cases {
        let problem = app.post_raw(body, Some("application/json")).await.problem(
            UNPROCESSABLE,
            "invalid_request",
            body,
        );
        assert_eq!(pointers(&problem), vec![pointer.to_string()], "{body}");
        assert!(
            problem["detail"]
                .as_str()
                .unwrap()
                .contains("more than once"),
            "{problem}"
        );
    }
    // Malformed JSON after the repeated field is still a 400.
    app.post_raw(r#"{"board": "X", "board": "O", "#, Some("application/json"))
        .await
        .problem(
            StatusCode::BAD_REQUEST,
            "malformed_json",
            "truncated after a repeat",
        );
}

#[tokio::test]
async fn rejects_mistyped_missing_and_unknown_values_with_a_pointer() {
    let app = TestApp::new();
    let cases = [
        (
            json!({"board": "O.XX.X.OO", "moves": "yes"}),
            "/moves",
            "moves is not a boolean",
        ),
        (
            json!({"board": "O.XX.X.OO", "scoring": "fast"}),
            "/scoring",
            "an unknown scoring",
        ),
        (
            json!({"board": "O.XX.X.OO", "scoring": 1}),
            "/scoring",
            "a numeric scoring",
        ),
        (
            json!({"board": "O.XX.X.OO", "player": "Z"}),
            "/player",
            "an unknown player",
        ),
        (
            json!({"board": "O.XX.X.OO", "difficulty": "insane"}),
            "/difficulty",
            "an unknown difficulty",
        ),
        (
            json!({"board": "O.XX.X.OO", "tie_break": "last"}),
            "/tie_break",
            "an unknown tie-break",
        ),
        (
            json!({"board": "O.XX.X.OO", "seed": -1}),
            "/seed",
            "a negative seed",
        ),
        (
            json!({"board": "O.XX.X.OO", "rows": "3"}),
            "/rows",
            "rows as a string",
        ),
    ];
    for (body, pointer, why) in cases {
        let problem = app
            .post_move(&body)
            .await
            .problem(UNPROCESSABLE, "invalid_request", why);
        assert_eq!(
            pointers(&problem),
            vec![pointer],
            "{why}: pointer in {problem}"
        );
    }
    let problem = app.post_move(&json!({"moves": true})).await.problem(
        UNPROCESSABLE,
        "invalid_request",
        "board missing",
    );
    assert!(
        problem["detail"].as_str().unwrap().contains("board"),
        "the detail names the missing field: {problem}"
    );
}

#[tokio::test]
async fn rejects_a_body_that_is_neither_an_object_nor_a_board() {
    let app = TestApp::new();
    for (body, why) in [("42", "a number"), ("true", "a boolean"), ("null", "null")] {
        app.post_raw(body, Some("application/json")).await.problem(
            UNPROCESSABLE,
            "invalid_request",
            why,
        );
    }
}

#[tokio::test]
async fn rejects_malformed_json_with_400() {
    let app = TestApp::new();
    let cases = [
        (r#"{"board": ["#, "truncated"),
        (r#"{"board": "O.XX.X.OO",}"#, "a trailing comma"),
        (r"{board: 1}", "an unquoted key"),
        ("", "an empty body"),
        ("   ", "only whitespace"),
        (r#"{"board": "O.XX.X.OO"} {}"#, "two documents"),
    ];
    for (body, why) in cases {
        app.post_raw(body, Some("application/json")).await.problem(
            StatusCode::BAD_REQUEST,
            "malformed_json",
            why,
        );
    }
    app.post_raw(vec![0xff, 0xfe, b'{', b'}'], Some("application/json"))
        .await
        .problem(StatusCode::BAD_REQUEST, "malformed_json", "invalid UTF-8");
}

#[tokio::test]
async fn rejects_deeply_nested_json_with_400_instead_of_crashing() {
    let app = TestApp::new();
    let depth = 10_000;
    let arrays = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    app.post_raw(arrays.clone(), Some("application/json"))
        .await
        .problem(
            StatusCode::BAD_REQUEST,
            "malformed_json",
            "10,000 nested arrays",
        );
    app.post_raw(
        format!(r#"{{"board": {arrays}}}"#),
        Some("application/json"),
    )
    .await
    .problem(
        StatusCode::BAD_REQUEST,
        "malformed_json",
        "a board of 10,000 nested arrays",
    );
    let objects = format!("{}{}", r#"{"a":"#.repeat(depth), "}".repeat(depth));
    app.post_raw(objects, Some("application/json"))
        .await
        .problem(
            StatusCode::BAD_REQUEST,
            "malformed_json",
            "10,000 nested objects",
        );
}

#[tokio::test]
async fn rejects_a_missing_or_wrong_content_type_with_415() {
    let app = TestApp::new();
    let cases = [
        (None, "no content type"),
        (Some("text/plain"), "text/plain"),
        (Some("application/x-www-form-urlencoded"), "a form"),
        (Some("application/jsonx"), "a near miss"),
        (Some("multipart/form-data; boundary=x"), "multipart"),
    ];
    for (content_type, why) in cases {
        app.post_raw(SEED_BOARD, content_type).await.problem(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            why,
        );
    }
}

#[tokio::test]
async fn accepts_json_with_a_charset_or_in_any_case() {
    let app = TestApp::new();
    for content_type in [
        "application/json",
        "application/json; charset=utf-8",
        "application/json;charset=UTF-8",
        "Application/JSON",
    ] {
        let answer = app
            .post_raw(SEED_BOARD, Some(content_type))
            .await
            .ok_json(content_type);
        assert_eq!(answer["index"], 4, "{content_type}");
    }
}

#[tokio::test]
async fn rejects_a_body_over_64_kib_with_413() {
    let app = TestApp::new();
    let json = r#"{"board":"O.XX.X.OO"}"#;
    let limit = 64 * 1024;
    let at_limit = format!("{json}{}", " ".repeat(limit - json.len()));
    assert_eq!(at_limit.len(), limit);
    let answer = app
        .post_raw(at_limit.clone(), Some("application/json"))
        .await
        .ok_json("exactly 64 KiB");
    assert_eq!(answer["index"], 4);
    app.post_raw(format!("{at_limit} "), Some("application/json"))
        .await
        .problem(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            "64 KiB + 1",
        );
    app.post_raw(vec![b' '; 1 << 20], Some("application/json"))
        .await
        .problem(StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large", "1 MiB");
}

#[tokio::test]
async fn answers_unknown_routes_with_a_404_problem() {
    let app = TestApp::new();
    for uri in ["/nope", "/v1/moves", "/v2/move", "/v1/move/4"] {
        app.get(uri)
            .await
            .problem(StatusCode::NOT_FOUND, "not_found", uri);
    }
}

#[tokio::test]
async fn answers_a_wrong_method_with_a_405_problem() {
    let app = TestApp::new();
    let cases = [
        (Method::PUT, "/v1/move"),
        (Method::DELETE, "/v1/move"),
        (Method::PATCH, "/v1/move"),
        (Method::POST, "/healthz"),
        (Method::DELETE, "/readyz"),
    ];
    for (method, uri) in cases {
        let request = Request::builder()
            .method(method.clone())
            .uri(uri)
            .header("content-type", "application/json")
            .body(Body::from(SEED_BOARD))
            .unwrap();
        let response = app.send(request).await;
        response.problem(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            &format!("{method} {uri}"),
        );
    }
}

#[tokio::test]
async fn rejects_bad_query_strings_on_get() {
    let app = TestApp::new();
    // Parameters of the wrong shape are named, as in the body.
    let named = [
        (
            "/v1/move?board=O.XX.X.OO&scorng=classic",
            "unknown_field",
            "/scorng",
        ),
        (
            "/v1/move?board=O.XX.X.OO&scoring=fast",
            "invalid_request",
            "/scoring",
        ),
        (
            "/v1/move?board=O.XX.X.OO&moves=maybe",
            "invalid_request",
            "/moves",
        ),
        (
            "/v1/move?board=O.XX.X.OO&rows=-3",
            "invalid_request",
            "/rows",
        ),
    ];
    for (uri, code, pointer) in named {
        let problem = app.get(uri).await.problem(UNPROCESSABLE, code, uri);
        assert_eq!(pointers(&problem), vec![pointer.to_string()], "{uri}");
    }
    let cases = [
        ("/v1/move", "invalid_request", "no board"),
        (
            "/v1/move?board=O.XX.X.OO&scorng=classic",
            "unknown_field",
            "an unknown parameter",
        ),
        (
            "/v1/move?board=O.XX.X.OO&scoring=fast",
            "invalid_request",
            "an unknown scoring",
        ),
        (
            "/v1/move?board=O1XX4X6OO",
            "invalid_cell",
            "digits in the compact form",
        ),
        (
            "/v1/move?board=%5B1%2C",
            "invalid_board",
            "a broken JSON array",
        ),
        ("/v1/move?board=XXXOO....", "game_over", "a finished game"),
        (
            "/v1/move?board=XX.......",
            "impossible_position",
            "an impossible board",
        ),
    ];
    for (uri, code, why) in cases {
        app.get(uri).await.problem(UNPROCESSABLE, code, why);
    }
}

#[tokio::test]
async fn random_cell_arrays_never_cause_a_server_error() {
    use proptest::prelude::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    let cell = prop_oneof![
        Just(json!("X")),
        Just(json!("O")),
        Just(json!("x")),
        Just(Value::Null),
        Just(json!(".")),
        Just(json!("?")),
        (0u64..12).prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        any::<bool>().prop_map(Value::from),
    ];
    let boards = proptest::collection::vec(cell, 0..12);
    let app = TestApp::new();
    let mut runner = TestRunner::deterministic();
    let cases: Vec<Vec<Value>> = (0..300)
        .map(|_| boards.new_tree(&mut runner).unwrap().current())
        .collect();
    for board in cases {
        let response = app.post_move(&json!({ "board": board })).await;
        assert!(
            response.status == StatusCode::OK || response.status == UNPROCESSABLE,
            "{board:?} gave {} {}",
            response.status,
            response.text()
        );
    }
}

#[tokio::test]
async fn rejects_numbers_outside_their_documented_ranges_with_a_pointer() {
    let app = TestApp::new();
    let cases = [
        (
            json!({"board": "O.XX.X.OO", "max_depth": 0}),
            "/max_depth",
            "max_depth 0",
        ),
        (
            json!({"board": "O.XX.X.OO", "time_limit_ms": 0}),
            "/time_limit_ms",
            "time_limit_ms 0",
        ),
        (
            json!({"board": "O.XX.X.OO", "time_limit_ms": 2_147_483_648_u64}),
            "/time_limit_ms",
            "time_limit_ms past int32",
        ),
        (
            json!({"board": "O.XX.X.OO", "seed": 9_223_372_036_854_775_808_u64}),
            "/seed",
            "seed past int64",
        ),
    ];
    for (body, pointer, context) in cases {
        let problem = app
            .post_move(&body)
            .await
            .problem(UNPROCESSABLE, "invalid_request", context);
        assert_eq!(pointers(&problem), vec![pointer.to_owned()], "{context}");
    }
}

#[tokio::test]
async fn lists_the_first_20_bad_cells_and_counts_the_rest_so_the_answer_stays_small() {
    let app = TestApp::new();
    let long_query = format!("/v1/move?board={}", "Z".repeat(65_000));
    let array: Vec<Value> = (0..10_000).map(|_| json!("Z")).collect();
    let cases = [
        (
            app.get(&long_query).await,
            65_000,
            "a 65 KB compact board in the query",
        ),
        (
            app.post_move(&json!({ "board": array })).await,
            10_000,
            "10,000 bad cells in an array",
        ),
        (
            app.post_move(&json!({ "board": "Z".repeat(30_000) })).await,
            30_000,
            "a 30 KB compact board in the body",
        ),
    ];
    for (response, bad, why) in cases {
        assert!(
            response.body.len() < 8 * 1024,
            "{why}: the answer has {} bytes",
            response.body.len()
        );
        let problem = response.problem(UNPROCESSABLE, "invalid_cell", why);
        let errors = problem["errors"].as_array().expect("errors");
        assert_eq!(errors.len(), 20, "{why}: the first 20 are listed");
        assert_eq!(
            problem["errors_omitted"],
            bad - 20,
            "{why}: the rest counted"
        );
        assert!(
            problem["detail"]
                .as_str()
                .is_some_and(|d| d.starts_with(&format!("{bad} "))),
            "{why}: the detail counts them all: {problem}"
        );
    }
    // A handful of bad cells are all listed, with no count.
    let problem = app
        .post_move(&json!({"board": ["Z", 1, 2, 3, 4, 5, 6, 7, "Z"]}))
        .await
        .problem(UNPROCESSABLE, "invalid_cell", "two bad cells");
    assert_eq!(pointers(&problem), vec!["/board/0", "/board/8"]);
    assert!(problem.get("errors_omitted").is_none(), "{problem}");
}
