//! `POST /v1/review`: every label of a large sample of random 3 × 3 games against a plain
//! minimax written here, illegal games, and a review on a board that needs a search.

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use serde_json::{Value, json};

use crate::helpers::{TestApp, has_line};

/// The depth score (10 - plies for a win, plies - 10 for a loss, 0 for a draw) of playing `cell`
/// for `mark`, by plain minimax over every continuation: no table, no pruning.
fn move_score(board: &mut [u8; 9], cell: usize, mark: u8) -> i32 {
    board[cell] = mark;
    let score = if has_line(board, mark) {
        9
    } else if board.iter().all(|&c| c != b'.') {
        0
    } else {
        let other = if mark == b'X' { b'O' } else { b'X' };
        let empty: Vec<usize> = (0..9).filter(|&c| board[c] == b'.').collect();
        let reply = empty
            .into_iter()
            .map(|c| move_score(board, c, other))
            .max()
            .unwrap();
        // The opponent's best reply, one ply further from this move.
        match reply.signum() {
            1 => -(reply - 1),
            -1 => -(reply + 1),
            _ => 0,
        }
    };
    board[cell] = b'.';
    score
}

/// A small deterministic generator, so that a failing game can be replayed.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// A random game: random legal moves until the game ends or, now and then, earlier.
fn random_game(rng: &mut Lcg) -> (u8, Vec<usize>) {
    let first = if rng.below(2) == 0 { b'X' } else { b'O' };
    let mut board = [b'.'; 9];
    let mut mark = first;
    let mut moves = Vec::new();
    let stop_after = if rng.below(4) == 0 {
        rng.below(9) + 1
    } else {
        9
    };
    while moves.len() < stop_after {
        let empty: Vec<usize> = (0..9).filter(|&c| board[c] == b'.').collect();
        let cell = empty[rng.below(empty.len())];
        board[cell] = mark;
        moves.push(cell);
        if has_line(&board, mark) || empty.len() == 1 {
            break;
        }
        mark = if mark == b'X' { b'O' } else { b'X' };
    }
    (first, moves)
}

/// What the oracle expects of one move: the best cells, the best score, the played score and
/// the label.
fn expected_move(
    board: &mut [u8; 9],
    cell: usize,
    mark: u8,
) -> (Vec<usize>, i32, i32, &'static str) {
    let empty: Vec<usize> = (0..9).filter(|&c| board[c] == b'.').collect();
    let scores: Vec<(usize, i32)> = empty
        .into_iter()
        .map(|c| (c, move_score(board, c, mark)))
        .collect();
    let best = scores.iter().map(|&(_, s)| s).max().unwrap();
    let played = scores.iter().find(|&&(c, _)| c == cell).unwrap().1;
    // A loss in 2 plies (score 2 - 10) lets the opponent win at once: a blunder when the best
    // move does not.
    let label = if played.signum() < best.signum() || (played == -8 && best > -8) {
        "blunder"
    } else if played == best {
        "best"
    } else {
        "good"
    };
    let cells = scores
        .iter()
        .filter(|&&(_, s)| s == best)
        .map(|&(c, _)| c)
        .collect();
    (cells, best, played, label)
}

#[tokio::test]
async fn labels_of_random_games_agree_with_a_plain_minimax() {
    let app = TestApp::new();
    let mut rng = Lcg(44);
    for game in 0..500 {
        let (first, moves) = random_game(&mut rng);
        let first_name = if first == b'X' { "X" } else { "O" };
        let body = json!({"moves": moves, "first": first_name});
        let review = app
            .post_json("/v1/review", &body)
            .await
            .ok_json("POST /v1/review");
        let reviewed = review["moves"].as_array().unwrap();
        assert_eq!(reviewed.len(), moves.len(), "game {game}: {body}");
        let mut board = [b'.'; 9];
        let mut mark = first;
        // The first blunder of each side, X's then O's.
        let mut first_blunder = [None, None];
        for (i, &cell) in moves.iter().enumerate() {
            let (best, best_score, played, label) = expected_move(&mut board, cell, mark);
            let m = &reviewed[i];
            let context = format!("game {game} {body}, move {}: {m}", i + 1);
            assert_eq!(m["label"], label, "{context}");
            assert_eq!(
                m["player"],
                if mark == b'X' { "X" } else { "O" },
                "{context}"
            );
            assert_eq!(m["best"], json!(best), "{context}");
            assert_eq!(m["best_score"], best_score, "{context}");
            assert_eq!(m["score"], played, "{context}");
            assert_eq!(m["cost"], f64::from(best_score - played), "{context}");
            assert_eq!(m["exact"], true, "{context}");
            let side = usize::from(mark == b'O');
            if label == "blunder" && first_blunder[side].is_none() {
                first_blunder[side] = Some(i + 1);
            }
            board[cell] = mark;
            mark = if mark == b'X' { b'O' } else { b'X' };
        }
        // In a decided game the turning point is the loser's first blunder; else the first.
        let loser = [b'O', b'X'].iter().position(|&w| has_line(&board, w));
        let expected = match loser {
            Some(side) => first_blunder[side],
            None => first_blunder.iter().flatten().min().copied(),
        };
        if let Some(number) = expected {
            assert_eq!(review["turning_point"], number, "game {game}: {body}");
        }
        for summary in review["summary"].as_array().unwrap() {
            let player = summary["player"].as_str().unwrap();
            let mine: Vec<&Value> = reviewed.iter().filter(|m| m["player"] == player).collect();
            assert_eq!(summary["moves"], mine.len(), "game {game}");
            for label in ["best", "good", "inaccuracy", "mistake", "blunder"] {
                let count = mine.iter().filter(|m| m["label"] == label).count();
                assert_eq!(summary[label], count, "game {game}, {player} {label}");
            }
        }
        assert!(
            review["sentence"]
                .as_str()
                .is_some_and(|s| s.ends_with('.'))
        );
    }
}

#[tokio::test]
async fn a_review_names_the_turning_point_and_tallies_each_player() {
    let app = TestApp::new();
    let review = app
        .post_json("/v1/review", &json!({"moves": [4, 1, 0, 8, 2, 6, 3, 5]}))
        .await
        .ok_json("review");
    assert_eq!(review["turning_point"], 2, "{review}");
    assert_eq!(review["moves"][1]["best_outcome"], "draw", "{review}");
    assert_eq!(review["moves"][1]["outcome"], "loss", "{review}");
    assert_eq!(review["moves"][1]["value_for_x"], 1.0, "{review}");
    assert_eq!(review["status"]["state"], "in_play");
    assert_eq!(review["to_move"], "X");
    assert_eq!(review["summary"][0]["player"], "X");
    assert_eq!(review["summary"][1]["blunder"], 2, "{review}");
    assert_eq!(review["summary"][1]["accuracy"], 50.0, "{review}");
    let sentence = review["sentence"].as_str().unwrap();
    assert!(
        sentence.contains("move 2") && sentence.contains("draw into a loss"),
        "{sentence}"
    );
    let empty = app
        .post_json("/v1/review", &json!({"moves": []}))
        .await
        .ok_json("empty");
    assert_eq!(empty["summary"][0]["accuracy"], Value::Null, "{empty}");
    assert_eq!(empty["turning_point"], Value::Null, "{empty}");
}

#[tokio::test]
async fn illegal_games_are_422_naming_the_move_and_its_cell() {
    let app = TestApp::new();
    let cases = [
        (
            json!({"moves": [4, 0, 4]}),
            "invalid_move",
            "/moves/2",
            "move 3: cell 4 is already taken",
        ),
        (
            json!({"moves": [9]}),
            "invalid_move",
            "/moves/0",
            "move 1: cell 9 is off the board",
        ),
        (
            json!({"moves": [0, 3, 1, 4, 2, 5]}),
            "invalid_move",
            "/moves/5",
            "move 6 (cell 5)",
        ),
        (
            json!({"moves": [0, 1, 2, 3, 4, 5, 6, 7, 8, 0]}),
            "invalid_request",
            "/moves",
            "at most 9 moves",
        ),
        (json!({"moves": [0, -1]}), "invalid_request", "/moves/1", ""),
        (
            json!({"moves": [0], "scoring": "depth"}),
            "unknown_field",
            "",
            "unknown field",
        ),
        (
            json!({"moves": [0], "first": "Z"}),
            "invalid_request",
            "/first",
            "",
        ),
        (json!({"first": "X"}), "invalid_request", "", "moves"),
        (json!({"moves": [0], "rows": 0}), "invalid_geometry", "", ""),
        (
            json!({"moves": [0], "time_limit_ms": 0}),
            "invalid_request",
            "/time_limit_ms",
            "",
        ),
    ];
    for (body, code, pointer, detail) in cases {
        let response = app.post_json("/v1/review", &body).await;
        let problem = response.problem(StatusCode::UNPROCESSABLE_ENTITY, code, &body.to_string());
        if !pointer.is_empty() {
            assert_eq!(
                problem["errors"][0]["pointer"], pointer,
                "{body}: {problem}"
            );
        }
        assert!(
            problem["detail"].as_str().unwrap().contains(detail),
            "{body}: {problem}"
        );
    }
    let after_the_end = app
        .post_json("/v1/review", &json!({"moves": [0, 3, 1, 4, 2, 5]}))
        .await;
    let problem = after_the_end.json();
    assert!(
        problem["detail"].as_str().unwrap().contains("X had won"),
        "{problem}"
    );
    let malformed = app
        .send(
            Request::post("/v1/review")
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from("{\"moves\": ["))
                .unwrap(),
        )
        .await;
    malformed.problem(StatusCode::BAD_REQUEST, "malformed_json", "truncated body");
}

#[tokio::test]
async fn a_big_board_game_is_reviewed_within_its_one_budget() {
    let app = TestApp::new();
    let body =
        json!({"moves": [12, 6, 7, 13, 17, 2], "rows": 5, "cols": 5, "k": 4, "time_limit_ms": 400});
    let review = app
        .post_json("/v1/review", &body)
        .await
        .ok_json("5 × 5 review");
    let moves = review["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 6, "{review}");
    for m in moves {
        let cost = m["cost"].as_f64().unwrap();
        assert!(cost >= 0.0, "{m}");
        assert!(m["best"].as_array().is_some_and(|b| !b.is_empty()), "{m}");
    }
    assert_eq!(review["to_move"], "X", "{review}");
}

#[tokio::test]
async fn a_gravity_game_is_reviewed_with_its_landing_cells() {
    let app = TestApp::new();
    let game = json!({"moves": [12, 15, 13], "rows": 4, "cols": 4, "k": 3, "gravity": true});
    let review = app
        .post_json("/v1/review", &game)
        .await
        .ok_json("gravity review");
    let moves = review["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3, "{review}");
    // The best moves of the third position include the move POST /v1/move suggests there.
    let third = json!({"board": "............X..O", "rows": 4, "cols": 4, "k": 3, "gravity": true});
    let suggested = app.post_move(&third).await.ok_json("gravity move");
    assert!(
        moves[2]["best"]
            .as_array()
            .unwrap()
            .contains(&suggested["index"]),
        "{review} {suggested}"
    );
    // A mark that would float is no move of a gravity game.
    let floating = json!({"moves": [12, 4], "rows": 4, "cols": 4, "k": 3, "gravity": true});
    let problem = app.post_json("/v1/review", &floating).await.problem(
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_move",
        "floating",
    );
    assert_eq!(problem["errors"][0]["pointer"], "/moves/1", "{problem}");
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("lowest empty cell"),
        "{problem}"
    );
}
