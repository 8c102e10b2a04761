//! Gomoku rules (`"rule"`: `freestyle`, `standard`, `renju`, `caro`) through the production
//! router: the rule accepted on every front door and refused off a gomoku board, the rule's wins,
//! renju's forbidden cells in `/v1/status` and refused by `/v1/play`, 20 × 20 boards, and the
//! `coordinate` beside every index on boards of 100 cells or more.

use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use serde_json::{Value, json};

use crate::helpers::{TestApp, pointers};

const UNPROCESSABLE: StatusCode = StatusCode::UNPROCESSABLE_ENTITY;

/// The row-major index of a cell in board notation (`h8`) on a `size` × `size` board: the column
/// as a letter from `a` (left), the row as a number from 1 (the bottom row).
fn at(size: usize, coordinate: &str) -> usize {
    let column = usize::from(coordinate.as_bytes()[0] - b'a');
    let row: usize = coordinate[1..].parse().unwrap();
    (size - row) * size + column
}

/// A compact `size` × `size` board with X and O on the cells named.
fn board(size: usize, x: &[&str], o: &[&str]) -> String {
    let mut cells = vec!['.'; size * size];
    for (stones, mark) in [(x, 'X'), (o, 'O')] {
        for &coordinate in stones {
            let index = at(size, coordinate);
            assert_eq!(cells[index], '.', "{coordinate} is placed once");
            cells[index] = mark;
        }
    }
    cells.into_iter().collect()
}

/// A 15 × 15 gomoku request under `rule` for the board.
fn gomoku(board: &str, rule: &str) -> Value {
    json!({"board": board, "rows": 15, "cols": 15, "k": 5, "rule": rule})
}

/// Calls an MCP tool at `/mcp` and returns the call's `result`.
async fn call(app: &TestApp, name: &str, arguments: Value) -> Value {
    app.mcp_call(name, arguments).await
}

/// A renju position, X (black) to move, with one forbidden cell of each kind: h12 a
/// double-three, d5 an overline, l10 a double-four. Fifteen stones each, O's far from X's.
fn renju_position() -> (String, [(&'static str, &'static str); 3]) {
    let x = [
        // The double-three at d12: d14, d13 above it and b12, c12 beside it.
        "d14", "d13", "b12", "c12", // The overline at d5: a5 b5 c5 . e5 f5.
        "a5", "b5", "c5", "e5", "f5", // The double-four at l10: m10 n10 o10 and l9 l8 l7.
        "m10", "n10", "o10", "l9", "l8", "l7",
    ];
    let o = [
        "a3", "c3", "e3", "g3", "i3", "k3", "m3", "o3", "a1", "c1", "e1", "g1", "i1", "k1", "m1",
    ];
    (
        board(15, &x, &o),
        [
            ("d12", "double_three"),
            ("d5", "overline"),
            ("l10", "double_four"),
        ],
    )
}

#[tokio::test]
async fn every_front_door_takes_a_rule_and_refuses_one_off_a_gomoku_board() {
    let app = TestApp::new();
    let empty = ".".repeat(225);
    for rule in ["freestyle", "standard", "renju", "caro"] {
        let body = gomoku(&empty, rule);
        app.post_json("/v1/status", &body).await.ok_json(rule);
        let mut play = body.clone();
        play["index"] = json!(112);
        app.post_json("/v1/play", &play).await.ok_json(rule);
        let review = json!({"moves": [112, 113], "rows": 15, "cols": 15, "k": 5, "rule": rule,
            "time_limit_ms": 50});
        app.post_json("/v1/review", &review).await.ok_json(rule);
    }
    let three = json!({"board": ".........", "rule": "standard"});
    let mut play = three.clone();
    play["index"] = json!(4);
    let connect = json!({"board": ".".repeat(42), "rows": 6, "cols": 7, "k": 5,
        "gravity": true, "rule": "caro"});
    let cases = [
        ("/v1/move", three.clone(), "k = 3"),
        ("/v1/status", three.clone(), "k = 3"),
        ("/v1/play", play, "k = 3"),
        (
            "/v1/review",
            json!({"moves": [4], "rule": "renju"}),
            "k = 3",
        ),
        ("/v1/move", connect.clone(), "gravity"),
        ("/v1/status", connect, "gravity"),
    ];
    for (uri, body, why) in cases {
        let context = format!("{uri} {why}");
        let problem =
            app.post_json(uri, &body)
                .await
                .problem(UNPROCESSABLE, "invalid_geometry", &context);
        assert_eq!(pointers(&problem), ["/rule"], "{context}: {problem}");
        assert!(
            problem["detail"].as_str().unwrap().contains("k = 5"),
            "{context}: {problem}"
        );
    }
    let get = app.get("/v1/move?board=.........&rule=renju").await;
    let problem = get.problem(UNPROCESSABLE, "invalid_geometry", "GET");
    assert_eq!(pointers(&problem), ["/rule"], "GET: {problem}");
    let unknown = app.post_json("/v1/status", &gomoku(&empty, "gomoku")).await;
    let problem = unknown.problem(UNPROCESSABLE, "invalid_request", "an unknown rule");
    assert_eq!(pointers(&problem), ["/rule"], "{problem}");
    let get = app.get("/v1/move?board=.........&rule=exact").await;
    let problem = get.problem(UNPROCESSABLE, "invalid_request", "GET unknown rule");
    assert_eq!(pointers(&problem), ["/rule"], "GET: {problem}");
    // Null is the default, freestyle, as strict function calling sends it.
    let null = json!({"board": "O.XX.X.OO", "rule": null});
    assert_eq!(app.post_move(&null).await.ok_json("null")["index"], 4);
}

#[tokio::test]
async fn under_standard_an_overline_is_no_win_and_exactly_five_is() {
    let app = TestApp::new();
    let o = ["a1", "c1", "e1", "g1", "i1"];
    let six = board(15, &["c8", "d8", "e8", "f8", "g8", "h8"], &o);
    let free = app
        .post_json("/v1/status", &gomoku(&six, "freestyle"))
        .await
        .ok_json("freestyle six");
    assert_eq!(free["status"]["winner"], "X", "{free}");
    let standard = app
        .post_json("/v1/status", &gomoku(&six, "standard"))
        .await
        .ok_json("standard six");
    assert_eq!(standard["status"]["state"], "in_play", "{standard}");
    assert_eq!(standard["to_move"], "O", "{standard}");

    // X completes six by filling the gap at f8: no win under standard, a win under freestyle.
    let gap = board(15, &["c8", "d8", "e8", "g8", "h8"], &o);
    let mut play = gomoku(&gap, "standard");
    play["index"] = json!(at(15, "f8"));
    let played = app
        .post_json("/v1/play", &play)
        .await
        .ok_json("standard play six");
    assert_eq!(played["status"]["state"], "in_play", "{played}");
    assert_eq!(played["to_move"], "O", "{played}");
    play["rule"] = json!("freestyle");
    let played = app
        .post_json("/v1/play", &play)
        .await
        .ok_json("freestyle play six");
    assert_eq!(played["status"]["winner"], "X", "{played}");

    // Exactly five wins under standard.
    let four = board(15, &["d8", "e8", "f8", "g8"], &o[..4]);
    let mut play = gomoku(&four, "standard");
    play["index"] = json!(at(15, "h8"));
    let played = app
        .post_json("/v1/play", &play)
        .await
        .ok_json("standard five");
    assert_eq!(played["status"]["winner"], "X", "{played}");
    let line: Vec<usize> = ["d8", "e8", "f8", "g8", "h8"]
        .iter()
        .map(|c| at(15, c))
        .collect();
    assert_eq!(played["status"]["line"], json!(line), "{played}");
}

#[tokio::test]
async fn renju_status_lists_blacks_forbidden_cells_and_play_refuses_them() {
    let app = TestApp::new();
    let (position, fouls) = renju_position();
    let status = app
        .post_json("/v1/status", &gomoku(&position, "renju"))
        .await
        .ok_json("renju status");
    assert_eq!(status["to_move"], "X", "{status}");
    let forbidden: Vec<u64> = status["forbidden"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i.as_u64().unwrap())
        .collect();
    assert!(forbidden.is_sorted(), "ascending: {forbidden:?}");
    let detail = status["forbidden_detail"].as_array().unwrap();
    assert_eq!(detail.len(), forbidden.len(), "{status}");
    for (coordinate, reason) in fouls {
        let index = at(15, coordinate);
        assert!(
            forbidden.contains(&(index as u64)),
            "{coordinate} in {status}"
        );
        let entry = detail.iter().find(|d| d["index"] == index).unwrap();
        assert_eq!(
            (&entry["coordinate"], &entry["reason"]),
            (&json!(coordinate), &json!(reason)),
            "{coordinate}: {entry}"
        );
        assert!(
            !status["legal_moves"]
                .as_array()
                .unwrap()
                .contains(&json!(index)),
            "{coordinate} is not a legal move"
        );
        let mut play = gomoku(&position, "renju");
        play["index"] = json!(index);
        let problem = app.post_json("/v1/play", &play).await.problem(
            UNPROCESSABLE,
            "forbidden_move",
            coordinate,
        );
        assert_eq!(problem["reason"], reason, "{coordinate}: {problem}");
        assert_eq!(pointers(&problem), ["/index"], "{coordinate}: {problem}");
        assert!(
            problem["detail"]
                .as_str()
                .unwrap()
                .contains(&reason.replace('_', "-")),
            "{coordinate}: {problem}"
        );
    }
    let empty = position.chars().filter(|&c| c == '.').count();
    let legal = status["legal_moves"].as_array().unwrap().len();
    assert_eq!(legal + forbidden.len(), empty, "{status}");
    // The same board under freestyle has no forbidden cell, and any rule but renju neither.
    for rule in ["freestyle", "standard", "caro"] {
        let other = app
            .post_json("/v1/status", &gomoku(&position, rule))
            .await
            .ok_json(rule);
        assert_eq!(other["forbidden"], json!([]), "{rule}");
        assert_eq!(other["forbidden_detail"], json!([]), "{rule}");
        assert_eq!(
            other["legal_moves"].as_array().unwrap().len(),
            empty,
            "{rule}"
        );
    }
}

#[tokio::test]
async fn renju_white_wins_with_an_overline_and_black_does_not() {
    let app = TestApp::new();
    // O (white) fills the gap at h8 and makes six: a win for white.
    let x = ["a15", "c15", "e15", "g15", "i15", "k15"];
    let gap = board(15, &x, &["d8", "e8", "f8", "g8", "i8"]);
    let mut play = gomoku(&gap, "renju");
    play["index"] = json!(at(15, "h8"));
    let played = app.post_json("/v1/play", &play).await.ok_json("white six");
    assert_eq!(played["status"]["winner"], "O", "{played}");
    assert_eq!(
        played["status"]["line"].as_array().unwrap().len(),
        6,
        "{played}"
    );
    // A black overline already on the board is no win: the game goes on, X to move.
    let o = ["a1", "c1", "e1", "g1", "i1", "k1"];
    let six = board(15, &["c8", "d8", "e8", "f8", "g8", "h8"], &o);
    let status = app
        .post_json("/v1/status", &gomoku(&six, "renju"))
        .await
        .ok_json("black six");
    assert_eq!(status["status"]["state"], "in_play", "{status}");
    assert_eq!(status["to_move"], "X", "{status}");
    // Black moves first: O with more stones is impossible.
    let problem = app
        .post_json("/v1/status", &gomoku(&board(15, &[], &["h8"]), "renju"))
        .await
        .problem(UNPROCESSABLE, "impossible_position", "O first");
    assert!(
        problem["detail"].as_str().unwrap().contains("moves first"),
        "{problem}"
    );
    // A review cannot start with O under renju, and names black's forbidden move.
    let review = json!({"moves": [112], "first": "O", "rows": 15, "cols": 15, "k": 5,
        "rule": "renju"});
    let problem = app.post_json("/v1/review", &review).await.problem(
        UNPROCESSABLE,
        "invalid_request",
        "O first in a review",
    );
    assert_eq!(pointers(&problem), ["/first"], "{problem}");
    let (x, o) = (
        ["d14", "d13", "b12", "c12"].map(|c| at(15, c)),
        ["a1", "c1", "e1", "g1"].map(|c| at(15, c)),
    );
    let mut moves: Vec<usize> = x.iter().zip(o).flat_map(|(&a, b)| [a, b]).collect();
    moves.push(at(15, "d12"));
    let review = json!({"moves": moves, "rows": 15, "cols": 15, "k": 5, "rule": "renju",
        "time_limit_ms": 50});
    let problem = app.post_json("/v1/review", &review).await.problem(
        UNPROCESSABLE,
        "forbidden_move",
        "a forbidden move in a review",
    );
    assert_eq!(problem["reason"], "double_three", "{problem}");
    assert_eq!(pointers(&problem), ["/moves/8"], "{problem}");
}

#[tokio::test]
async fn caro_five_blocked_at_both_ends_is_no_win_and_against_the_edge_it_is() {
    let app = TestApp::new();
    let five = ["d8", "e8", "f8", "g8", "h8"];
    let blocked = board(15, &five, &["c8", "i8", "a1", "c1"]);
    let caro = app
        .post_json("/v1/status", &gomoku(&blocked, "caro"))
        .await
        .ok_json("caro blocked");
    assert_eq!(caro["status"]["state"], "in_play", "{caro}");
    let free = app
        .post_json("/v1/status", &gomoku(&blocked, "freestyle"))
        .await
        .ok_json("freestyle blocked");
    assert_eq!(free["status"]["winner"], "X", "{free}");
    // Blocked at one end only, it wins.
    let once = board(15, &five, &["c8", "a1", "c1", "e1"]);
    let won = app
        .post_json("/v1/status", &gomoku(&once, "caro"))
        .await
        .ok_json("caro one end");
    assert_eq!(won["status"]["winner"], "X", "{won}");
    // The edge does not block: a five from a8 to e8, with O at f8, wins.
    let edge = board(15, &["a8", "b8", "c8", "d8"], &["f8", "a1", "c1", "e1"]);
    let mut play = gomoku(&edge, "caro");
    play["index"] = json!(at(15, "e8"));
    let played = app.post_json("/v1/play", &play).await.ok_json("caro edge");
    assert_eq!(played["status"]["winner"], "X", "{played}");
    // Making the blocked five by play is no win either.
    let gap = board(15, &["d8", "e8", "g8", "h8"], &["c8", "i8", "a1", "c1"]);
    let mut play = gomoku(&gap, "caro");
    play["index"] = json!(at(15, "f8"));
    let played = app
        .post_json("/v1/play", &play)
        .await
        .ok_json("caro blocked play");
    assert_eq!(played["status"]["state"], "in_play", "{played}");
}

#[tokio::test]
async fn the_move_route_answers_on_twenty_by_twenty() {
    let app = TestApp::new();
    let position = board(20, &["j10"], &[]);
    let body = json!({"board": position, "rows": 20, "cols": 20, "k": 5, "time_limit_ms": 50});
    let answer = app.post_move(&body).await.ok_json("20 x 20");
    let index = answer["index"].as_u64().unwrap() as usize;
    assert!(
        index < 400 && position.as_bytes()[index] == b'.',
        "{answer}"
    );
    assert_eq!(
        answer["coordinate"],
        json!(coordinate(20, index)),
        "{answer}"
    );
    let mut renju = body.clone();
    renju["board"] = json!(board(20, &["j10"], &["k11"]));
    renju["rule"] = json!("renju");
    app.post_move(&renju).await.ok_json("20 x 20 renju");
}

#[tokio::test]
async fn twenty_by_twenty_is_for_five_in_a_row_only() {
    let app = TestApp::new();
    let body = json!({"board": board(20, &["j10"], &[]), "rows": 20, "cols": 20, "k": 5});
    let status = app
        .post_json("/v1/status", &body)
        .await
        .ok_json("20 x 20 status");
    assert_eq!(status["legal_moves"].as_array().unwrap().len(), 399);
    let mut play = body.clone();
    play["index"] = json!(at(20, "t1"));
    let played = app
        .post_json("/v1/play", &play)
        .await
        .ok_json("20 x 20 play");
    assert_eq!(
        (played["index"].as_u64(), &played["coordinate"]),
        (Some(399), &json!("t1"))
    );
    for (rows, cols, k, pointer) in [
        (20, 20, 4, "/rows"),
        (15, 20, 6, "/cols"),
        (21, 21, 5, "/rows"),
    ] {
        let body = json!({"board": ".".repeat(rows * cols), "rows": rows, "cols": cols, "k": k});
        let context = format!("{rows} x {cols}, k = {k}");
        let problem =
            app.post_move(&body)
                .await
                .problem(UNPROCESSABLE, "invalid_geometry", &context);
        assert_eq!(pointers(&problem), [pointer], "{context}: {problem}");
    }
}

#[tokio::test]
async fn answers_name_cells_by_coordinate_on_gomoku_boards_only() {
    let app = TestApp::new();
    let position = board(15, &["h8"], &[]);
    let body = json!({"board": position, "rows": 15, "cols": 15, "k": 5, "moves": true,
        "time_limit_ms": 50});
    let answer = app.post_move(&body).await.ok_json("15 x 15 move");
    let index = answer["index"].as_u64().unwrap() as usize;
    assert_eq!(
        answer["coordinate"],
        json!(coordinate(15, index)),
        "{answer}"
    );
    for entry in answer["moves"].as_array().unwrap() {
        let index = entry["index"].as_u64().unwrap() as usize;
        assert_eq!(entry["coordinate"], json!(coordinate(15, index)), "{entry}");
    }
    let mut play = body.clone();
    play.as_object_mut()
        .unwrap()
        .retain(|k, _| k != "moves" && k != "time_limit_ms");
    play["index"] = json!(at(15, "i9"));
    let played = app
        .post_json("/v1/play", &play)
        .await
        .ok_json("15 x 15 play");
    assert_eq!(played["coordinate"], "i9", "{played}");
    let review = json!({"moves": [at(15, "h8"), at(15, "a1")], "rows": 15, "cols": 15, "k": 5,
        "time_limit_ms": 50});
    let reviewed = app
        .post_json("/v1/review", &review)
        .await
        .ok_json("15 x 15 review");
    let entries = reviewed["moves"].as_array().unwrap();
    assert_eq!(
        (&entries[0]["coordinate"], &entries[1]["coordinate"]),
        (&json!("h8"), &json!("a1")),
        "{reviewed}"
    );

    // 3 × 3 answers carry no coordinate at all (absent, not null).
    let small = app
        .post_move(&json!({"board": "O.XX.X.OO", "moves": true}))
        .await
        .ok_json("3 x 3");
    assert!(small.get("coordinate").is_none(), "{small}");
    assert!(small["moves"][0].get("coordinate").is_none(), "{small}");
    let played = app
        .post_json("/v1/play", &json!({"board": "O.XX.X.OO", "index": 4}))
        .await
        .ok_json("3 x 3 play");
    assert!(played.get("coordinate").is_none(), "{played}");
    let reviewed = app
        .post_json("/v1/review", &json!({"moves": [4, 0]}))
        .await
        .ok_json("3 x 3 review");
    assert!(
        reviewed["moves"][0].get("coordinate").is_none(),
        "{reviewed}"
    );
}

/// A cell's coordinate computed here, independently of the service.
fn coordinate(size: usize, index: usize) -> String {
    let letter = char::from(b'a' + (index % size) as u8);
    format!("{letter}{}", size - index / size)
}

#[tokio::test]
async fn the_explanation_names_the_blocking_cell_by_its_coordinate() {
    let app = TestApp::new();
    // X has four from d8 to g8, blocked at c8; O must take h8.
    let position = board(15, &["d8", "e8", "f8", "g8"], &["c8", "a1", "c1"]);
    let body = json!({"board": position, "rows": 15, "cols": 15, "k": 5, "time_limit_ms": 100});
    let answer = app.post_move(&body).await.ok_json("block");
    assert_eq!(answer["coordinate"], "h8", "{answer}");
    let explanation = answer["explanation"].as_str().unwrap();
    assert!(explanation.starts_with("O blocks at h8"), "{explanation}");
    assert!(
        !explanation.contains(&at(15, "h8").to_string()),
        "{explanation}"
    );
    // X completing five is named in board notation too, line and all.
    let win = board(15, &["d8", "e8", "f8", "g8"], &["c8", "a1", "c1", "e1"]);
    let body = json!({"board": win, "rows": 15, "cols": 15, "k": 5, "time_limit_ms": 100});
    let answer = app.post_move(&body).await.ok_json("win");
    assert_eq!(
        answer["explanation"], "X takes h8 and wins at once, completing row 8 (d8-e8-f8-g8-h8).",
        "{answer}"
    );
}

#[tokio::test]
async fn a_renju_move_answer_never_suggests_a_forbidden_cell() {
    let app = TestApp::new();
    let (position, _) = renju_position();
    let status = app
        .post_json("/v1/status", &gomoku(&position, "renju"))
        .await
        .ok_json("status");
    let forbidden = status["forbidden"].as_array().unwrap().clone();
    let mut body = gomoku(&position, "renju");
    body["moves"] = json!(true);
    body["time_limit_ms"] = json!(200);
    let answer = app.post_move(&body).await.ok_json("renju move");
    assert!(
        !forbidden.contains(&answer["index"]),
        "{} is forbidden to black: {answer}",
        answer["index"]
    );
    for entry in answer["moves"].as_array().unwrap() {
        assert!(
            !forbidden.contains(&entry["index"]),
            "the table offers {entry}"
        );
    }
    assert!(answer["coordinate"].is_string(), "{answer}");
}

#[tokio::test]
async fn the_event_stream_takes_the_rule_and_names_cells() {
    let app = TestApp::new();
    let stream = |body: Value| {
        Request::builder()
            .method(Method::POST)
            .uri("/v1/move")
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT, "text/event-stream")
            .body(Body::from(body.to_string()))
            .unwrap()
    };
    let refused = app
        .send(stream(json!({"board": ".........", "rule": "caro"})))
        .await;
    let problem = refused.problem(UNPROCESSABLE, "invalid_geometry", "stream");
    assert_eq!(pointers(&problem), ["/rule"], "{problem}");
    let body = gomoku(&board(15, &["h8"], &["h9"]), "standard");
    let mut body = body;
    body["time_limit_ms"] = json!(100);
    let text = app.send(stream(body)).await.text();
    let events: Vec<(&str, Value)> = text
        .split("\n\n")
        .filter(|block| !block.trim().is_empty())
        .map(|block| {
            let field = |name: &str| {
                block
                    .lines()
                    .find_map(|line| line.strip_prefix(name))
                    .unwrap_or_default()
                    .trim()
            };
            let data = serde_json::from_str(field("data:")).unwrap_or(Value::Null);
            (field("event:"), data)
        })
        .collect();
    let (last, progress) = events.split_last().expect("events");
    assert_eq!(last.0, "result", "{text}");
    assert!(last.1["coordinate"].is_string(), "{text}");
    for (name, data) in progress {
        assert_eq!(*name, "progress", "{text}");
        assert!(data["coordinate"].is_string(), "{data}");
    }
}

#[tokio::test]
async fn the_mcp_tools_take_the_rule_list_forbidden_cells_and_refuse_them() {
    let app = TestApp::new();
    let (position, fouls) = renju_position();
    let status = call(&app, "game_status", gomoku(&position, "renju")).await;
    assert_ne!(status["isError"], true, "{status}");
    let structured = &status["structuredContent"];
    let (coordinate, reason) = fouls[0];
    assert!(
        structured["forbidden"]
            .as_array()
            .unwrap()
            .contains(&json!(at(15, coordinate))),
        "{status}"
    );
    let text = status["content"][0]["text"].as_str().unwrap();
    let reason_in_words = reason.replace('_', " ");
    assert!(
        text.contains(&format!("{coordinate} ({reason_in_words})")),
        "{text}"
    );
    let mut play = gomoku(&position, "renju");
    play["index"] = json!(at(15, coordinate));
    let refused = call(&app, "apply_move", play).await;
    assert_eq!(refused["isError"], true, "{refused}");
    let text = refused["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("forbidden_move: "), "{text}");
    assert!(text.contains("double-three"), "{text}");
    let off_board = call(
        &app,
        "suggest_move",
        json!({"board": "O.XX.X.OO", "rule": "renju"}),
    )
    .await;
    assert_eq!(off_board["isError"], true, "{off_board}");
    let text = off_board["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("invalid_geometry: "), "{text}");
    // tools.json offers the rule, nullable, with its four values.
    let tools = app.get("/v1/tools.json").await.ok_json("tools.json");
    for tool in tools.as_array().unwrap() {
        let name = tool["function"]["name"].as_str().unwrap();
        let rule = &tool["function"]["parameters"]["properties"]["rule"];
        let branches = rule["anyOf"].as_array().cloned().unwrap_or_default();
        let values: Vec<&Value> = std::iter::once(rule)
            .chain(&branches)
            .filter_map(|schema| schema["enum"].as_array())
            .flatten()
            .collect();
        for value in ["freestyle", "standard", "renju", "caro"] {
            assert!(values.contains(&&json!(value)), "{name}: {rule}");
        }
        let nullable = values.contains(&&Value::Null)
            || branches.iter().any(|b| b["type"] == "null")
            || rule["type"]
                .as_array()
                .is_some_and(|t| t.contains(&json!("null")));
        assert!(nullable, "{name}: {rule}");
    }
}
