//! `POST /v1/move` answers: the golden vectors, every 3 × 3 position with a consistent move table,
//! board, status and line of play, and the difficulty, tie-break and seed options.

use std::collections::BTreeSet;

use minimax_move::api::{AppState, Settings};
use minimax_move::engine::{Geometry, Player, Position, WORK_PER_MS_TIMES_CELLS, immediate_wins};
use serde_json::{Value, json};

use crate::helpers::{TestApp, has_line, positions_in_play};

fn table(answer: &Value) -> Vec<(i64, i64)> {
    answer["moves"]
        .as_array()
        .expect("a move table")
        .iter()
        .map(|m| (m["index"].as_i64().unwrap(), m["score"].as_i64().unwrap()))
        .collect()
}

#[tokio::test]
async fn seed_board_answers_the_golden_vectors_in_both_scorings() {
    let app = TestApp::new();
    let classic = app
        .post_move(&json!({"board": ["O", 1, "X", "X", 4, "X", 6, "O", "O"], "scoring": "classic", "moves": true}))
        .await
        .ok_json("classic");
    assert_eq!(
        (&classic["index"], &classic["score"]),
        (&json!(4), &json!(10))
    );
    assert_eq!(table(&classic), vec![(1, -10), (4, 10), (6, -10)]);

    let depth = app
        .post_move(&json!({"board": ["O", 1, "X", "X", 4, "X", 6, "O", "O"], "scoring": "depth", "moves": true}))
        .await
        .ok_json("depth");
    assert_eq!(
        depth,
        json!({
            "index": 4, "score": 9, "player": "X", "outcome": "win", "plies": 1, "exact": true,
            "moves": [
                {"index": 1, "score": -8, "outcome": "loss", "plies": 2, "exact": true, "searched": true},
                {"index": 4, "score": 9, "outcome": "win", "plies": 1, "exact": true, "searched": true},
                {"index": 6, "score": -8, "outcome": "loss", "plies": 2, "exact": true, "searched": true}
            ],
            "board": ["O", 1, "X", "X", "X", "X", 6, "O", "O"],
            "status": {"state": "win", "winner": "X", "line": [3, 4, 5]},
            "pv": [4],
            "explanation": "X takes 4 and wins at once, completing the middle row."
        })
    );
}

#[tokio::test]
async fn depth_is_the_default_scoring() {
    let app = TestApp::new();
    let default = app
        .post_move(&json!({"board": "O.XX.X.OO", "moves": true}))
        .await
        .ok_json("default");
    assert_eq!(default["score"], 9);
    assert_eq!(table(&default), vec![(1, -8), (4, 9), (6, -8)]);
}

/// Regression: under classic scoring a slower win scores the same 10 as an immediate one, and
/// perfect play must answer the lowest-index best move, not the first immediate win.
#[tokio::test]
async fn depth_scoring_takes_the_fastest_win_and_classic_a_slower_one() {
    let app = TestApp::new();
    let board = json!(["X", "X", "O", "O", "X", 5, "O", 7, 8]);
    let depth = app
        .post_move(&json!({"board": board, "moves": true}))
        .await
        .ok_json("depth");
    assert_eq!(depth["index"], 7, "7 and 8 win at once: {depth}");
    assert_eq!(table(&depth), vec![(5, 7), (7, 9), (8, 9)]);
    let classic = app
        .post_move(&json!({"board": board, "scoring": "classic", "moves": true}))
        .await
        .ok_json("classic");
    assert_eq!(
        classic["index"], 5,
        "classic keeps the first win: {classic}"
    );
    assert_eq!(classic["plies"], 3, "a slower win");
    assert_eq!(table(&classic), vec![(5, 10), (7, 10), (8, 10)]);
}

#[tokio::test]
async fn depth_scoring_blocks_and_loses_late_when_o_started() {
    let app = TestApp::new();
    let board = json!([0, 1, 2, 3, 4, "O", 6, "X", "O"]);
    let depth = app
        .post_move(&json!({"board": board, "moves": true}))
        .await
        .ok_json("depth");
    assert_eq!((&depth["index"], &depth["score"]), (&json!(2), &json!(-6)));
    assert_eq!(depth["player"], "X");
    assert_eq!(depth["outcome"], "loss");
    assert!(
        depth["explanation"]
            .as_str()
            .unwrap()
            .starts_with("X blocks at 2"),
        "{depth}"
    );
    let classic = app
        .post_move(&json!({"board": board, "scoring": "classic", "moves": true}))
        .await
        .ok_json("classic");
    assert_eq!(classic["index"], 0, "classic gives up with 0");
    assert!(table(&classic).iter().all(|&(_, s)| s == -10), "{classic}");
}

#[tokio::test]
async fn empty_board_draws_everywhere_and_plays_0() {
    let app = TestApp::new();
    for scoring in ["depth", "classic"] {
        let answer = app
            .post_move(&json!({"board": ".........", "scoring": scoring, "moves": true}))
            .await
            .ok_json(scoring);
        assert_eq!(answer["index"], 0, "{scoring}");
        assert_eq!(answer["outcome"], "draw", "{scoring}");
        assert_eq!(answer["plies"], 9, "{scoring}");
        assert_eq!(
            table(&answer),
            (0..9).map(|i| (i, 0)).collect::<Vec<_>>(),
            "{scoring}"
        );
        assert_eq!(
            answer["pv"].as_array().unwrap().len(),
            9,
            "a draw fills the board"
        );
        assert_eq!(answer["status"]["state"], "in_play");
    }
}

/// Checks one answer against the rules of the game and against itself: the move table covers
/// exactly the empty cells, the answer is the table's best move with the lowest index, and the
/// board, status and line of play after it agree with the rules. (Whether the scores are right is
/// the engine's oracle tests' business, in `tests/engine/oracle_3x3.rs`.)
fn check_answer(board: &str, mover: char, answer: &Value) {
    let context = format!("{board} with {mover} to move");
    let moves = answer["moves"].as_array().expect("a move table");
    let indices: Vec<u64> = moves.iter().map(|m| m["index"].as_u64().unwrap()).collect();
    let empty: Vec<u64> = (0..9)
        .filter(|&i| board.as_bytes()[i as usize] == b'.')
        .collect();
    assert_eq!(
        indices, empty,
        "{context}: the table covers the empty cells"
    );
    let top = moves
        .iter()
        .map(|m| m["score"].as_i64().expect("3 x 3 scores are integers"))
        .max()
        .unwrap();
    let best = moves
        .iter()
        .find(|m| m["score"] == top)
        .expect("a move scores the top");
    assert_eq!(
        answer["index"], best["index"],
        "{context}: the lowest-index best move"
    );
    for field in ["score", "outcome", "plies", "exact"] {
        assert_eq!(
            answer[field], best[field],
            "{context}: {field} as in the table"
        );
    }
    assert_eq!(answer["player"], mover.to_string(), "{context}: player");
    assert_eq!(answer["exact"], true, "{context}: exact");
    let outcome = answer["outcome"].as_str().unwrap();
    let plies = answer["plies"].as_u64().expect("proven plies");

    // The board after the move is the board with the mover's mark on `index`.
    let index = answer["index"].as_u64().unwrap() as usize;
    let mut after: Vec<u8> = board.bytes().collect();
    assert_eq!(after[index], b'.', "{context}: the move is legal");
    after[index] = mover as u8;
    assert_eq!(
        answer["board"],
        String::from_utf8(after.clone()).unwrap(),
        "{context}: board after the move"
    );

    // The status describes that board.
    let status = &answer["status"];
    if has_line(&after, mover as u8) {
        assert_eq!(status["state"], "win", "{context}: status");
        assert_eq!(status["winner"], mover.to_string(), "{context}: winner");
        let line = status["line"].as_array().unwrap();
        assert!(
            line.contains(&json!(index)),
            "{context}: the line runs through the move"
        );
        assert!(
            line.iter()
                .all(|c| after[c.as_u64().unwrap() as usize] == mover as u8),
            "{context}: the line is the mover's"
        );
        assert!(
            answer["explanation"]
                .as_str()
                .unwrap()
                .contains("wins at once"),
            "{context}: explanation"
        );
    } else if !after.contains(&b'.') {
        assert_eq!(
            *status,
            json!({"state": "draw", "winner": null, "line": []}),
            "{context}"
        );
    } else {
        assert_eq!(
            *status,
            json!({"state": "in_play", "winner": null, "line": []}),
            "{context}"
        );
    }

    // The line of play starts with the move, alternates legal moves and ends the game exactly
    // when `plies` says, the way `outcome` says.
    let pv: Vec<usize> = answer["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap() as usize)
        .collect();
    assert_eq!(
        pv.first(),
        Some(&index),
        "{context}: pv starts with the move"
    );
    assert_eq!(pv.len() as u64, plies, "{context}: pv length is plies");
    let opponent = if mover == 'X' { b'O' } else { b'X' };
    let mut cells: Vec<u8> = board.bytes().collect();
    for (ply, &cell) in pv.iter().enumerate() {
        assert!(
            !has_line(&cells, b'X') && !has_line(&cells, b'O'),
            "{context}: pv goes on after the game ended"
        );
        assert_eq!(cells[cell], b'.', "{context}: pv plays an empty cell");
        cells[cell] = if ply % 2 == 0 { mover as u8 } else { opponent };
    }
    let ended = match outcome {
        "win" => has_line(&cells, mover as u8),
        "loss" => has_line(&cells, opponent),
        _ => !cells.contains(&b'.') && !has_line(&cells, b'X') && !has_line(&cells, b'O'),
    };
    assert!(ended, "{context}: pv {pv:?} ends in a {outcome}");

    // The explanation speaks of this move by this side.
    let explanation = answer["explanation"].as_str().unwrap();
    assert!(
        explanation.starts_with(&format!("{mover} ")) && explanation.contains(&index.to_string()),
        "{context}: explanation {explanation:?}"
    );
}

/// Asks for every position in play under `scoring` and checks each answer against the rules.
async fn check_every_position(scoring: &str) {
    let app = TestApp::new();
    let positions = positions_in_play();
    for (board, mover) in positions {
        let request =
            json!({"board": board, "player": mover.to_string(), "scoring": scoring, "moves": true});
        let answer = app
            .post_move(&request)
            .await
            .ok_json(&format!("{board} {mover} {scoring}"));
        check_answer(&board, mover, &answer);
    }
}

#[tokio::test]
async fn every_position_in_play_gets_a_consistent_answer_in_depth_scoring() {
    check_every_position("depth").await;
}

/// Regression: under classic scoring a slower win scores the same 10 as an immediate one, and
/// perfect play must answer the lowest-index best move, not the first immediate win.
#[tokio::test]
async fn every_position_in_play_gets_a_consistent_answer_in_classic_scoring() {
    check_every_position("classic").await;
}

// ---------------------------------------------------------------------------------------------
// Difficulty, tie-break and seed.
// ---------------------------------------------------------------------------------------------

const DIFFICULTIES: [&str; 4] = ["perfect", "hard", "medium", "easy"];

fn cells(board: &str) -> Vec<Option<Player>> {
    Position::parse_compact(board).unwrap()
}

#[tokio::test]
async fn every_difficulty_takes_an_immediate_win() {
    let app = TestApp::new();
    // Boards where the side to move can win at once, some where the opponent threatens too.
    let boards = [
        "XX.OO....",
        "X.XO.O...",
        "O.OX.X..X",
        "XO.XO....",
        "XXOOX.O..",
    ];
    for board in boards {
        let position = Position::new(Geometry::TIC_TAC_TOE, cells(board), None).unwrap();
        let wins = immediate_wins(Geometry::TIC_TAC_TOE, position.cells(), position.to_move());
        assert!(!wins.is_empty(), "{board} has an immediate win");
        for difficulty in DIFFICULTIES {
            for seed in 0..40u64 {
                let answer = app
                    .post_move(&json!({"board": board, "difficulty": difficulty, "seed": seed}))
                    .await
                    .ok_json(board);
                let index = answer["index"].as_u64().unwrap() as usize;
                assert!(
                    wins.contains(&index),
                    "{board} at {difficulty} with seed {seed} played {index}, not a win in {wins:?}"
                );
                assert_eq!(
                    answer["status"]["state"], "win",
                    "{board} {difficulty} {seed}"
                );
            }
        }
    }
}

#[tokio::test]
async fn hard_always_blocks_a_single_immediate_threat() {
    let app = TestApp::new();
    // The side to move cannot win at once and the opponent threatens exactly one cell.
    let boards = [
        "XX..O....",
        "X.X.O....",
        "OX..X....",
        "X.O.X...O",
        "OO..X...X",
    ];
    for board in boards {
        let position = Position::new(Geometry::TIC_TAC_TOE, cells(board), None).unwrap();
        let me = position.to_move();
        assert!(
            immediate_wins(Geometry::TIC_TAC_TOE, position.cells(), me).is_empty(),
            "{board}: no win to take"
        );
        let threats = immediate_wins(Geometry::TIC_TAC_TOE, position.cells(), me.opponent());
        assert_eq!(threats.len(), 1, "{board}: one threat");
        for seed in 0..100u64 {
            let answer = app
                .post_move(&json!({"board": board, "difficulty": "hard", "seed": seed}))
                .await
                .ok_json(board);
            assert_eq!(
                answer["index"], threats[0],
                "{board} with seed {seed} blocks"
            );
        }
    }
}

#[tokio::test]
async fn lower_difficulties_sometimes_play_a_weaker_move() {
    let app = TestApp::new();
    // O to move after X took a corner: only the centre draws, every other reply loses.
    let board = "X........";
    let mut seen = BTreeSet::new();
    let mut weaker = 0;
    for seed in 0..200u64 {
        let answer = app
            .post_move(&json!({"board": board, "difficulty": "easy", "seed": seed, "moves": true}))
            .await
            .ok_json("easy");
        seen.insert(answer["index"].as_u64().unwrap());
        let best = answer["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["score"].as_i64().unwrap())
            .max()
            .unwrap();
        if answer["score"].as_i64().unwrap() < best {
            weaker += 1;
        }
        assert_eq!(answer["seed"], seed, "the seed comes back");
    }
    assert!(seen.len() > 2, "easy varies its moves: {seen:?}");
    assert!(weaker > 0, "easy sometimes plays a weaker move");
}

#[tokio::test]
async fn same_seed_gives_the_same_answer() {
    let app = TestApp::new();
    for difficulty in ["hard", "medium", "easy"] {
        for seed in [0u64, 1, 42, i64::MAX as u64] {
            let request = json!({"board": ".........", "difficulty": difficulty, "tie_break": "random", "seed": seed, "moves": true});
            let first = app.post_move(&request).await.ok_json(difficulty);
            let second = app.post_move(&request).await.ok_json(difficulty);
            assert_eq!(first, second, "{difficulty} with seed {seed}");
            assert_eq!(first["seed"], seed, "{difficulty}: the seed comes back");
        }
    }
}

/// Searches on larger boards stop on a work budget, not the clock, so they reproduce too: with a
/// seed, and in plain perfect play, while other searches load the machine (on one thread a
/// search, the default).
#[tokio::test]
async fn searches_on_larger_boards_give_the_same_answer_every_time() {
    // A fiftieth of the default work rate (a tenth of the old worst-case calibration), as an
    // operator would set on a slow machine: the budget then runs out far ahead of the clock even
    // while the other tests load the machine.
    let settings = Settings {
        search_work_rate: WORK_PER_MS_TIMES_CELLS / 50,
        ..Settings::default()
    };
    let app = TestApp::with_state(AppState::ready(settings));
    let mut gomoku = vec!["."; 225];
    for (cell, mark) in [(112, "X"), (113, "O"), (97, "X"), (128, "O")] {
        gomoku[cell] = mark;
    }
    let requests = [
        json!({"board": gomoku.concat(), "rows": 15, "cols": 15, "k": 5, "time_limit_ms": 300, "moves": true}),
        json!({"board": "..X...X.....O.....O.X.............O.........O.X..", "rows": 7, "cols": 7, "k": 5,
               "time_limit_ms": 200, "difficulty": "easy", "tie_break": "random", "seed": 439_577_111_463_u64}),
        json!({"board": "X........X.........OO....", "rows": 5, "cols": 5, "k": 4, "time_limit_ms": 50,
               "difficulty": "medium", "seed": 841_500_839_602_u64}),
    ];
    let load =
        json!({"board": ".".repeat(225), "rows": 15, "cols": 15, "k": 5, "time_limit_ms": 300});
    for request in &requests {
        let first = app.post_move(request).await.ok_json("first");
        // Load the machine with another search meanwhile: the answer must not change.
        let (again, _) = tokio::join!(app.post_move(request), app.post_move(&load));
        assert_eq!(again.ok_json("again"), first, "{request}");
    }
}

#[tokio::test]
async fn an_answer_that_used_chance_reports_a_seed_that_reproduces_it() {
    let app = TestApp::new();
    let request = json!({"board": ".........", "difficulty": "easy", "tie_break": "random"});
    let first = app.post_move(&request).await.ok_json("no seed");
    let seed = first["seed"].as_u64().expect("a seed is reported");
    let mut again = request.clone();
    again["seed"] = json!(seed);
    let second = app.post_move(&again).await.ok_json("with the seed");
    assert_eq!(first, second);
}

#[tokio::test]
async fn a_deterministic_answer_reports_no_seed() {
    let answer = TestApp::new()
        .post_move(&json!({"board": ".........", "seed": 7}))
        .await
        .ok_json("perfect, first");
    assert!(answer.get("seed").is_none(), "{answer}");
    assert_eq!(answer["index"], 0);
}

/// Regression: under classic scoring a slower win scores the same 10 as an immediate one, and
/// perfect play must answer the lowest-index best move, not the first immediate win.
#[tokio::test]
async fn random_tie_break_picks_only_among_equal_best_moves() {
    let app = TestApp::new();
    let cases: [(&str, &str, &[u64]); 4] = [
        ("XXOOX.O..", "depth", &[7, 8]),
        ("XXOOX.O..", "classic", &[5, 7, 8]),
        (".........", "depth", &[0, 1, 2, 3, 4, 5, 6, 7, 8]),
        ("O.XX.X.OO", "depth", &[4]),
    ];
    for (board, scoring, best) in cases {
        let mut seen = BTreeSet::new();
        for seed in 0..100u64 {
            let answer = app
                .post_move(&json!({"board": board, "scoring": scoring, "tie_break": "random", "seed": seed}))
                .await
                .ok_json(board);
            let index = answer["index"].as_u64().unwrap();
            assert!(
                best.contains(&index),
                "{board} {scoring} seed {seed}: {index} is not among the best {best:?}"
            );
            seen.insert(index);
        }
        assert_eq!(
            seen.into_iter().collect::<Vec<_>>(),
            best,
            "{board} {scoring}: every best move comes up over 100 seeds"
        );
    }
}

#[tokio::test]
async fn a_move_passed_over_at_low_difficulty_says_so() {
    let app = TestApp::new();
    let board = "X........";
    for seed in 0..200u64 {
        let answer = app
            .post_move(&json!({"board": board, "difficulty": "easy", "seed": seed, "moves": true}))
            .await
            .ok_json("easy");
        let best = answer["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["score"].as_i64().unwrap())
            .max()
            .unwrap();
        let explanation = answer["explanation"].as_str().unwrap();
        assert_eq!(
            answer["score"].as_i64().unwrap() < best,
            explanation.contains("passing over the stronger"),
            "seed {seed}: {explanation}"
        );
    }
}
