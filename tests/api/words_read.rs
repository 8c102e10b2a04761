//! Every text the service says, read through the real router by an independent reader
//! (`tests/common/words.rs`): REST sentences and the MCP tools' texts, in each game's own terms,
//! with columns counted from 1 the same way in every text.

use serde_json::{Value, json};

use crate::helpers::TestApp;
use crate::words::{Naming, problems};

/// The text of a tool call, with its structured answer.
async fn tool(app: &TestApp, name: &str, arguments: Value) -> (String, Value) {
    let result = app.mcp_call(name, arguments).await;
    assert_eq!(result["isError"], false, "{name}: {result}");
    let text = result["content"][0]["text"].as_str().unwrap().to_owned();
    (text, result["structuredContent"].clone())
}

/// A family: its name, shape fields, a board, a game's moves, k and how it names cells.
type Family = (&'static str, Value, String, Vec<usize>, usize, Naming);

fn families() -> Vec<Family> {
    let mut renju = ".".repeat(225).into_bytes();
    renju[112] = b'X';
    renju[98] = b'O';
    vec![
        (
            "3 x 3",
            json!({}),
            "OXX......".to_owned(),
            vec![4, 1, 0, 8, 2, 6, 3, 5],
            3,
            Naming::Index,
        ),
        (
            "4 x 4, k = 3",
            json!({"rows": 4, "cols": 4, "k": 3}),
            format!("X....O{}", ".".repeat(10)),
            vec![5, 0, 6, 1],
            3,
            Naming::Index,
        ),
        (
            "5 x 5, k = 4",
            json!({"rows": 5, "cols": 5, "k": 4}),
            format!("O{}X{}", ".".repeat(11), ".".repeat(12)),
            vec![12, 0, 13, 1],
            4,
            Naming::Index,
        ),
        (
            "Connect Four",
            json!({"rows": 6, "cols": 7, "k": 4, "gravity": true}),
            format!("{}X...", ".".repeat(38)),
            vec![38, 31, 37, 24, 36, 17, 35],
            4,
            Naming::Column,
        ),
        (
            "15 x 15 renju",
            json!({"rows": 15, "cols": 15, "k": 5, "rule": "renju"}),
            String::from_utf8(renju).unwrap(),
            vec![112, 98, 113, 99],
            5,
            Naming::Coordinate,
        ),
    ]
}

fn with(shape: &Value, fields: Value) -> Value {
    let mut body = shape.clone();
    for (key, value) in fields.as_object().unwrap() {
        body[key] = value.clone();
    }
    body
}

/// The sentences of a text: everything before the grid.
fn sentences(text: &str) -> &str {
    text.split("\nBoard").next().unwrap()
}

#[tokio::test]
async fn every_text_speaks_the_games_own_terms() {
    let app = TestApp::new();
    for (name, shape, board, moves, k, naming) in families() {
        let check = |what: &str, text: &str| {
            let found = problems(text, k, naming);
            assert!(found.is_empty(), "{name}, {what}: {text:?}: {found:?}");
        };
        let request = with(
            &shape,
            json!({"board": board, "moves": true, "time_limit_ms": 100}),
        );
        let (text, answer) = tool(&app, "suggest_move", request.clone()).await;
        check("suggest_move", sentences(&text));
        let rest = app.post_move(&request).await.ok_json(name);
        check("POST /v1/move", rest["explanation"].as_str().unwrap());
        let play = with(&shape, json!({"board": board, "index": answer["index"]}));
        let (text, _) = tool(&app, "apply_move", play).await;
        check("apply_move", sentences(&text));
        let (text, _) = tool(&app, "game_status", with(&shape, json!({"board": board}))).await;
        check("game_status", sentences(&text));
        let review = with(&shape, json!({"moves": moves, "time_limit_ms": 300}));
        let (text, _) = tool(&app, "review_game", review.clone()).await;
        check("review_game", &text);
        let rest = app.post_json("/v1/review", &review).await.ok_json(name);
        check("POST /v1/review", rest["sentence"].as_str().unwrap());
        let grid = text_grid(&app, &shape, &board).await;
        match naming {
            Naming::Column => assert!(grid.ends_with("\n1 2 3 4 5 6 7"), "{name}: {grid}"),
            Naming::Coordinate => {
                assert!(grid.starts_with("15 . ."), "{name}: {grid}");
                assert!(
                    grid.ends_with("   a b c d e f g h i j k l m n o"),
                    "{name}: {grid}"
                );
            }
            Naming::Index => assert!(grid.contains(" | "), "{name}: {grid}"),
        }
    }
}

/// The grid `game_status` draws of `board`.
async fn text_grid(app: &TestApp, shape: &Value, board: &str) -> String {
    let (text, _) = tool(app, "game_status", with(shape, json!({"board": board}))).await;
    text.split_once("\nBoard:\n").unwrap().1.to_owned()
}

#[tokio::test]
async fn connect_four_texts_count_columns_from_one_and_the_json_from_zero() {
    let app = TestApp::new();
    let shape = json!({"rows": 6, "cols": 7, "k": 4, "gravity": true});
    let board = format!("{}X...", ".".repeat(38));
    let (text, answer) = tool(&app, "suggest_move", with(&shape, json!({"board": board}))).await;
    let column = answer["column"].as_u64().unwrap();
    let index = answer["index"].as_u64().unwrap();
    assert_eq!(index % 7, column, "{answer}");
    let people = format!("column {}", column + 1);
    assert!(text.contains(&format!("O plays {people}:")), "{text}");
    assert!(
        answer["explanation"]
            .as_str()
            .unwrap()
            .contains(&format!("drops in {people}")),
        "{answer}"
    );
    let (text, played) = tool(
        &app,
        "apply_move",
        with(&shape, json!({"board": board, "index": index})),
    )
    .await;
    assert_eq!(played["column"], column, "{played}");
    assert!(
        text.starts_with(&format!("O played in {people}.")),
        "{text}"
    );

    // X fills the bottom row from column 4 leftwards while O stacks in column 4.
    let moves = [38, 31, 37, 24, 36, 17, 35];
    let review = with(&shape, json!({"moves": moves, "time_limit_ms": 300}));
    let (text, reviewed) = tool(&app, "review_game", review.clone()).await;
    let rest = app.post_json("/v1/review", &review).await.ok_json("review");
    for (entry, &cell) in rest["moves"].as_array().unwrap().iter().zip(&moves) {
        assert_eq!(entry["column"], cell % 7, "{entry}");
    }
    assert_eq!(reviewed["moves"], rest["moves"]);
    assert!(text.contains("\n7. X column 1: "), "{text}");
    assert!(
        rest["sentence"].as_str().unwrap().starts_with("X won"),
        "{rest}"
    );
    let status = &reviewed["status"];
    assert_eq!(status["line"], json!([35, 36, 37, 38]), "{status}");

    // Elsewhere review entries carry no column.
    let small = app
        .post_json("/v1/review", &json!({"moves": [4, 0]}))
        .await
        .ok_json("3 x 3");
    assert!(small["moves"][0].get("column").is_none(), "{small}");
}

#[tokio::test]
async fn the_tic_tac_toe_forced_win_reads_in_threats_on_every_front_door() {
    let app = TestApp::new();
    let expected =
        "O wins by force: a threat at 3, then a double threat at 4, and three in a row at 8.";
    let rest = app
        .post_move(&json!({"board": "OXX......"}))
        .await
        .ok_json("3 x 3");
    assert_eq!(rest["explanation"], expected, "{rest}");
    let (text, _) = tool(&app, "suggest_move", json!({"board": "OXX......"})).await;
    assert!(text.starts_with(expected), "{text}");
}

/// The numbers of `text` written with more decimals than people read: more than two, except the
/// three decimals of an estimate within 0.01 of ±1 (`0.998`, which two decimals would write as a
/// proof's `1.00`).
fn long_numbers(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(|c: char| c.is_ascii_digit()) {
        let tail = &rest[start..];
        let whole = tail
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(tail.len());
        let after = &tail[whole..];
        let decimals = after.strip_prefix('.').map_or(0, |d| {
            d.find(|c: char| !c.is_ascii_digit()).unwrap_or(d.len())
        });
        let end = if decimals > 0 {
            whole + 1 + decimals
        } else {
            whole
        };
        let number = &tail[..end];
        let near_one = decimals == 3 && number.starts_with("0.99");
        if decimals > 2 && !near_one {
            found.push(number.to_owned());
        }
        rest = &tail[end..];
    }
    found
}

/// A gomoku cell's coordinate, computed here: its column as a letter from `a`, its row as a
/// number from 1 at the bottom.
fn coordinate(index: u64, rows: u64, cols: u64) -> String {
    let letter = char::from(b'a' + u8::try_from(index % cols).unwrap());
    format!("{letter}{}", rows - index / cols)
}

#[test]
fn long_numbers_finds_raw_floats_only() {
    assert_eq!(
        long_numbers("score 0.00698588589756974, 12 plies"),
        ["0.00698588589756974"]
    );
    assert_eq!(long_numbers("-1.125 and 3.14159"), ["1.125", "3.14159"]);
    assert!(long_numbers("score 0.01, 0.998, -0.27, h8, 549,946 nodes. 7. X").is_empty());
}

#[tokio::test]
async fn mcp_texts_round_numbers_and_name_gomoku_cells_by_coordinate() {
    let app = TestApp::new();
    let gomoku = json!({"rows": 15, "cols": 15, "k": 5});
    let connect_four = json!({"rows": 6, "cols": 7, "k": 4, "gravity": true});
    let at = |index: &Value| coordinate(index.as_u64().unwrap(), 15, 15);
    // X on h8 and i8, O on i9: O to move, with open lines and estimated (fractional) scores.
    let mut cells = ".".repeat(225).into_bytes();
    (cells[112], cells[113], cells[98]) = (b'X', b'X', b'O');
    let board = String::from_utf8(cells).unwrap();
    let mut texts = Vec::new();

    let ask = with(
        &gomoku,
        json!({"board": board, "moves": true, "top": 3, "time_limit_ms": 150}),
    );
    let (text, answer) = tool(&app, "suggest_move", ask).await;
    assert!(
        text.contains(&format!("O plays {}:", at(&answer["index"]))),
        "{text}"
    );
    for entry in answer["moves"].as_array().unwrap() {
        assert!(
            text.contains(&format!("{}: ", at(&entry["index"]))),
            "{text}"
        );
    }
    let top = answer["top"].as_array().unwrap();
    assert!(!top.is_empty(), "{answer}");
    for entry in top {
        assert!(text.contains(&at(&entry["index"])), "top: {text}");
    }
    texts.push(("suggest_move 15 x 15", text));

    let play = with(&gomoku, json!({"board": board, "index": 97}));
    let (text, _) = tool(&app, "apply_move", play).await;
    assert!(text.starts_with("O played h9."), "{text}");
    texts.push(("apply_move 15 x 15", text));

    let (text, _) = tool(&app, "game_status", with(&gomoku, json!({"board": board}))).await;
    assert!(text.contains("legal moves a15, b15, "), "{text}");
    texts.push(("game_status 15 x 15", text));

    let game = [112_u64, 98, 113, 99, 114];
    let review = with(&gomoku, json!({"moves": game, "time_limit_ms": 300}));
    let (text, _) = tool(&app, "review_game", review).await;
    for (number, cell) in (1..).zip(game) {
        let player = if number % 2 == 1 { "X" } else { "O" };
        let line = format!("\n{number}. {player} {}: ", coordinate(cell, 15, 15));
        assert!(text.contains(&line), "{line:?} in {text}");
    }
    texts.push(("review_game 15 x 15", text));

    let review = with(
        &connect_four,
        json!({"moves": [38, 31, 37, 24, 36, 17, 35], "time_limit_ms": 300}),
    );
    texts.push((
        "review_game Connect Four",
        tool(&app, "review_game", review).await.0,
    ));
    let ask = with(
        &connect_four,
        json!({"board": format!("{}X...", ".".repeat(38)), "moves": true, "top": 3,
            "time_limit_ms": 150}),
    );
    texts.push((
        "suggest_move Connect Four",
        tool(&app, "suggest_move", ask).await.0,
    ));

    // A depth limit gives every alternative the static evaluation, a fraction strictly between
    // -1 and 1.
    let explain = with(
        &gomoku,
        json!({"board": board, "max_depth": 1, "algorithm": "alphabeta"}),
    );
    let (text, answer) = tool(&app, "trace_search", explain).await;
    assert!(
        text.starts_with(&format!("O plays {}", at(&answer["best"]))),
        "{text}"
    );
    texts.push(("trace_search 15 x 15", text));
    let explain = with(
        &connect_four,
        json!({"board": format!("{}X...", ".".repeat(38)), "max_depth": 2}),
    );
    texts.push((
        "trace_search Connect Four",
        tool(&app, "trace_search", explain).await.0,
    ));

    for (what, text) in &texts {
        assert!(long_numbers(text).is_empty(), "{what}: {text}");
        if what.ends_with("15 x 15") {
            // The sentences, without trace_search's node counts (numbers, not cells).
            let words = sentences(text)
                .split(" Plain minimax visits")
                .next()
                .unwrap();
            let found = problems(words, 5, Naming::Coordinate);
            assert!(found.is_empty(), "{what}: {text:?}: {found:?}");
        }
    }
}

#[tokio::test]
async fn review_costs_carry_their_unit_and_no_blunder_reads_as_costing_nothing() {
    let app = TestApp::new();
    for (name, shape, _, moves, _, _) in families() {
        let review = with(&shape, json!({"moves": moves, "time_limit_ms": 300}));
        let (text, answer) = tool(&app, "review_game", review).await;
        let lines: Vec<&str> = text.lines().skip(1).collect();
        let reviewed = answer["moves"].as_array().unwrap();
        assert_eq!(lines.len(), reviewed.len(), "{name}: {text}");
        for (line, entry) in lines.iter().zip(reviewed) {
            let unit = if entry["exact"] == true {
                "depth-score point"
            } else {
                "of a win"
            };
            assert!(line.contains(unit), "{name}: {line} ({entry})");
            assert!(
                !line.contains("cost 0.00") || entry["cost"] == 0.0,
                "{name}: a cost printed as 0.00: {line}"
            );
            if entry["label"] == "blunder" {
                assert!(
                    !line.contains("cost 0 ") && !line.contains("cost 0.00"),
                    "{name}: a blunder that reads as costing nothing: {line}"
                );
            }
        }
    }
    let (text, _) = tool(
        &app,
        "review_game",
        json!({"moves": [4, 1, 0, 8, 2, 6, 3, 5]}),
    )
    .await;
    let second = text.lines().nth(2).unwrap();
    assert!(
        second.starts_with("2. O 1: blunder")
            && second.contains("depth-score points: a draw given up for a loss"),
        "{second}"
    );
}
