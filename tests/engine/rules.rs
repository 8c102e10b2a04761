//! The gomoku rules (freestyle, standard, renju, caro) and 20 × 20 boards: win detection against
//! a checker written here from the rules' text, and the search under each rule: it never suggests
//! a forbidden move for black, plays through black's forbidden points as white, and counts no
//! overline (standard) or doubly blocked five (caro) as a win.

use crate::door::suggest;
use minimax_move::engine::{
    Geometry, Outcome, Player, Position, Rule, SearchLimits, SuggestOptions, game_result,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const SIDE: usize = 15;

fn geometry(side: usize, rule: Rule) -> Geometry {
    Geometry::new(side as u64, side as u64, 5)
        .unwrap()
        .with_rule(rule)
        .unwrap()
}

fn budget(work: u64) -> SuggestOptions {
    SuggestOptions {
        limits: SearchLimits {
            max_work: Some(work),
            ..SearchLimits::default()
        },
        ..SuggestOptions::default()
    }
}

/// A board of `side` × `side` with X and O on the given (row, column) cells.
fn board(side: usize, x: &[(usize, usize)], o: &[(usize, usize)]) -> Vec<Option<Player>> {
    let mut cells = vec![None; side * side];
    for &(r, c) in x {
        cells[r * side + c] = Some(Player::X);
    }
    for &(r, c) in o {
        cells[r * side + c] = Some(Player::O);
    }
    cells
}

/// The winner under `rule`, read from the rules' text: for each maximal run of one side's stones
/// along a line, its length and what lies beyond its two ends.
fn plain_winner(side: usize, cells: &[Option<Player>], rule: Rule) -> Option<Player> {
    let at = |r: isize, c: isize| -> Option<Option<Player>> {
        (r >= 0 && c >= 0 && (r as usize) < side && (c as usize) < side)
            .then(|| cells[r as usize * side + c as usize])
    };
    let mut winners = Vec::new();
    for r in 0..side as isize {
        for c in 0..side as isize {
            let Some(Some(player)) = at(r, c) else {
                continue;
            };
            for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                // Only from the first stone of a run.
                if at(r - dr, c - dc) == Some(Some(player)) {
                    continue;
                }
                let mut length = 0;
                while at(r + dr * length, c + dc * length) == Some(Some(player)) {
                    length += 1;
                }
                let opponent = Some(Some(player.opponent()));
                let blocked_both = at(r - dr, c - dc) == opponent
                    && at(r + dr * length, c + dc * length) == opponent;
                let wins = match rule {
                    Rule::Freestyle => length >= 5,
                    Rule::Standard => length == 5,
                    Rule::Renju if player == Player::X => length == 5,
                    Rule::Renju => length >= 5,
                    Rule::Caro => length > 5 || length == 5 && !blocked_both,
                };
                if wins {
                    winners.push(player);
                }
            }
        }
    }
    winners.first().copied()
}

#[test]
fn win_detection_follows_each_rule_on_random_boards() {
    let mut rng = ChaCha8Rng::seed_from_u64(45);
    let mut decided = [0; 4];
    for _ in 0..3_000 {
        // Long runs are common in a small dense region.
        let mut cells = vec![None; SIDE * SIDE];
        for _ in 0..rng.random_range(10..60) {
            let (r, c) = (rng.random_range(3..11), rng.random_range(3..11));
            cells[r * SIDE + c] = Some(if rng.random_bool(0.7) {
                Player::X
            } else {
                Player::O
            });
        }
        for (i, rule) in Rule::ALL.into_iter().enumerate() {
            let expected = plain_winner(SIDE, &cells, rule);
            let result = game_result(geometry(SIDE, rule), &cells);
            let found = result.and_then(|r| r.winner);
            // `game_result` names one winner when both have lines; compare when one side does.
            let both = [Player::X, Player::O].iter().all(|&p| {
                let only: Vec<_> = cells.iter().map(|&c| c.filter(|&q| q == p)).collect();
                plain_winner(SIDE, &only, rule).is_some()
            });
            if !both {
                assert_eq!(found, expected, "{rule}: {cells:?}");
                decided[i] += usize::from(expected.is_some());
            }
        }
    }
    // The sample holds wins under every rule, and rules that differ decide differently.
    assert!(decided.iter().all(|&n| n > 100), "{decided:?}");
    assert!(
        decided[1] < decided[0] && decided[3] < decided[0],
        "{decided:?}"
    );
}

#[test]
fn an_overline_ends_no_standard_game_and_a_black_one_no_renju_game() {
    let six: Vec<(usize, usize)> = (2..8).map(|c| (7, c)).collect();
    let o: Vec<(usize, usize)> = (2..7).map(|c| (0, c * 2)).collect();
    let cells = board(SIDE, &six, &o);
    assert!(game_result(geometry(SIDE, Rule::Freestyle), &cells).is_some());
    assert!(game_result(geometry(SIDE, Rule::Caro), &cells).is_some());
    assert!(game_result(geometry(SIDE, Rule::Standard), &cells).is_none());
    assert!(game_result(geometry(SIDE, Rule::Renju), &cells).is_none());
    // White's overline wins under renju.
    let cells = board(SIDE, &o, &six);
    let result = game_result(geometry(SIDE, Rule::Renju), &cells).expect("white won");
    assert_eq!(result.winner, Some(Player::O));
}

/// The cell index of (row, column) on a 15 × 15 board.
fn cell(r: usize, c: usize) -> usize {
    r * SIDE + c
}

#[test]
fn standard_counts_no_win_in_an_overline() {
    // X: O x x x x . x on row 7: the gap makes six, and is X's only way to five.
    let x = [(7, 2), (7, 3), (7, 4), (7, 5), (7, 7)];
    let o = [(7, 1), (0, 4), (14, 14), (14, 9), (2, 12)];
    let cells = board(SIDE, &x, &o);
    for (rule, wins) in [(Rule::Freestyle, true), (Rule::Standard, false)] {
        let position = Position::new(geometry(SIDE, rule), cells.clone(), None).unwrap();
        let analysis = suggest(&position, &budget(50_000)).analysis;
        let gap = analysis
            .moves
            .iter()
            .find(|m| m.index == cell(7, 6))
            .expect("the gap is a move");
        let won = gap.value.outcome() == Some(Outcome::Win) && gap.value.plies() == Some(1);
        assert_eq!(won, wins, "{rule}: {:?}", gap.value);
    }
}

#[test]
fn caro_counts_no_win_in_a_five_blocked_at_both_ends() {
    // O x x x x . O on row 7: the gap makes five between two O stones.
    let x = [(7, 2), (7, 3), (7, 4), (7, 5), (12, 12)];
    let o = [(7, 1), (7, 7), (0, 0), (0, 14), (14, 0)];
    let cells = board(SIDE, &x, &o);
    for (rule, wins) in [(Rule::Freestyle, true), (Rule::Caro, false)] {
        let position = Position::new(geometry(SIDE, rule), cells.clone(), None).unwrap();
        let analysis = suggest(&position, &budget(50_000)).analysis;
        let gap = analysis
            .moves
            .iter()
            .find(|m| m.index == cell(7, 6))
            .unwrap();
        let won = gap.value.outcome() == Some(Outcome::Win) && gap.value.plies() == Some(1);
        assert_eq!(won, wins, "{rule}: {:?}", gap.value);
    }
}

#[test]
fn white_wins_through_a_point_forbidden_to_black() {
    // Black's (7, 7) is a double three (row 7 and column 7); white's four from (3, 3) to (6, 6)
    // can only be completed there, since black holds (2, 2) (and (8, 8), so that white's four
    // the other way, from (4, 4) to (7, 7), is no open four).
    let x = [(7, 5), (7, 6), (5, 7), (6, 7), (2, 2), (8, 8)];
    let o = [(4, 4), (5, 5), (6, 6), (13, 1), (13, 3)];
    let cells = board(SIDE, &x, &o);
    let renju = Position::new(geometry(SIDE, Rule::Renju), cells.clone(), None).unwrap();
    assert_eq!(renju.to_move(), Player::O);
    let suggestion = suggest(&renju, &budget(50_000));
    assert_eq!(suggestion.chosen.index, cell(3, 3));
    assert!(suggestion.chosen.value.is_exact());
    assert_eq!(suggestion.chosen.value.outcome(), Some(Outcome::Win));
    assert_eq!(suggestion.chosen.value.plies(), Some(3));
    // Black, to move after it, has no block: its only move that stops the five is forbidden.
    let after = renju.try_play(cell(3, 3)).unwrap().next.unwrap();
    assert!(after.foul(cell(7, 7)).is_some());
    assert!(!after.legal_moves().contains(&cell(7, 7)));
    // Under freestyle black blocks there, and the four is no win.
    let free = Position::new(geometry(SIDE, Rule::Freestyle), cells, None).unwrap();
    let suggestion = suggest(&free, &budget(50_000));
    assert!(!(suggestion.chosen.index == cell(3, 3) && suggestion.chosen.value.plies() == Some(3)));
}

/// Random renju positions with black to move, dense around the centre.
fn renju_positions(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut positions = Vec::new();
    while positions.len() < count {
        let stones = rng.random_range(4..14);
        let mut cells = vec![None; SIDE * SIDE];
        let mut placed = 0;
        while placed < 2 * stones {
            let (r, c) = (rng.random_range(4..11), rng.random_range(4..11));
            if cells[cell(r, c)].is_none() {
                cells[cell(r, c)] = Some(if placed % 2 == 0 {
                    Player::X
                } else {
                    Player::O
                });
                placed += 1;
            }
        }
        if let Ok(position) = Position::new(geometry(SIDE, Rule::Renju), cells, None)
            && !position.forbidden().is_empty()
        {
            positions.push(position);
        }
    }
    positions
}

#[test]
fn the_search_never_suggests_a_forbidden_move_to_black() {
    for (i, position) in renju_positions(24, 7).iter().enumerate() {
        assert_eq!(position.to_move(), Player::X);
        let forbidden: Vec<usize> = position.forbidden().iter().map(|&(c, _)| c).collect();
        let suggestion = suggest(position, &budget(20_000));
        assert!(
            !forbidden.contains(&suggestion.chosen.index),
            "position {i}: {} is forbidden",
            suggestion.chosen.index
        );
        for m in &suggestion.analysis.moves {
            assert!(
                !forbidden.contains(&m.index),
                "position {i}: {} in the table",
                m.index
            );
        }
        assert_eq!(
            suggestion.analysis.moves.len(),
            position.empty_count() - forbidden.len(),
            "position {i}"
        );
    }
}

#[test]
fn twenty_by_twenty_boards_are_searched_under_every_rule() {
    let x = [(9, 9), (9, 10), (10, 10)];
    let o = [(8, 8), (10, 9)];
    for rule in Rule::ALL {
        let cells = board(20, &x, &o);
        let position = Position::new(geometry(20, rule), cells, None).unwrap();
        assert_eq!(position.to_move(), Player::O);
        let suggestion = suggest(&position, &budget(30_000));
        assert!(
            position.cells()[suggestion.chosen.index].is_none(),
            "{rule}"
        );
        assert_eq!(suggestion.analysis.moves.len(), 400 - 5, "{rule}");
    }
    // A four in the corner of 20 × 20: the block is found.
    let x = [(19, 16), (19, 17), (19, 18), (19, 19), (0, 0)];
    let o = [(10, 10), (10, 11), (10, 12), (11, 11)];
    let position = Position::new(geometry(20, Rule::Freestyle), board(20, &x, &o), None).unwrap();
    let suggestion = suggest(&position, &budget(30_000));
    assert_eq!(suggestion.chosen.index, 19 * 20 + 15);
}

#[test]
fn every_board_size_answers_a_legal_move_under_every_rule() {
    let mut rng = ChaCha8Rng::seed_from_u64(20);
    for rows in 1..=20u64 {
        for cols in 1..=20u64 {
            let Ok(shape) = Geometry::new(rows, cols, 5) else {
                continue;
            };
            for rule in Rule::ALL {
                let geometry = shape.with_rule(rule).unwrap();
                // A few stones at random, X first: positions a client might send.
                let mut cells = vec![None; geometry.cells()];
                let stones = rng.random_range(0..=geometry.cells() / 3);
                for i in 0..stones {
                    let at = rng.random_range(0..geometry.cells());
                    if cells[at].is_none() {
                        cells[at] = Some(if i % 2 == 0 { Player::X } else { Player::O });
                    }
                }
                let Ok(position) = Position::new(geometry, cells, None) else {
                    continue;
                };
                let suggestion = suggest(&position, &budget(300));
                let index = suggestion.chosen.index;
                assert!(
                    position.legal_moves().contains(&index),
                    "{rows} x {cols} {rule}: {index} is no legal move in {position}"
                );
            }
        }
    }
}

#[test]
fn black_without_an_allowed_move_under_renju_is_a_draw() {
    // Row 1: both empty cells would give black six in a row. The other rows hold no five.
    let board = format!("XXXX.X.XXXX{}", "OOOOXOOOXXX".repeat(3));
    let cells = Position::parse_compact(&board).unwrap();
    let geometry = |rule| Geometry::new(4, 11, 5).unwrap().with_rule(rule).unwrap();
    let result = Position::new(geometry(Rule::Renju), cells.clone(), None).unwrap_err();
    assert_eq!(
        result,
        minimax_move::engine::PositionError::GameOver(minimax_move::engine::GameResult {
            winner: None,
            line: Vec::new()
        })
    );
    // Under freestyle either cell wins for X.
    let position = Position::new(geometry(Rule::Freestyle), cells, None).unwrap();
    assert_eq!(position.legal_moves(), vec![4, 6]);
    // And a move that leaves black so ends the game: white puts back one of its stones.
    let mut cells = Position::parse_compact(&board).unwrap();
    cells[33] = None;
    let before = Position::new(geometry(Rule::Renju), cells, None).unwrap();
    assert_eq!(before.to_move(), Player::O);
    let played = before.try_play(33).unwrap();
    assert_eq!(played.result.map(|r| r.winner), Some(None));
    assert!(played.next.is_none());
}
