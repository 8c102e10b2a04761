//! Tests of the parent module.

use super::*;
use crate::engine::core::hash::SplitMix;

/// A 15 × 15 board from rows of text (`X` black, `O` white, anything else empty), the rows
/// given placed from the top.
fn board(rows: &[&str]) -> Vec<Option<Player>> {
    let mut cells = vec![None; 225];
    for (r, row) in rows.iter().enumerate() {
        for (c, mark) in row.chars().enumerate() {
            cells[r * 15 + c] = match mark {
                'X' => Some(Player::X),
                'O' => Some(Player::O),
                _ => None,
            };
        }
    }
    cells
}

fn foul_at(rows: &[&str], row: usize, col: usize) -> Option<Foul> {
    foul(15, 15, &board(rows), Player::X, row * 15 + col)
}

#[test]
fn a_simple_double_three_is_forbidden() {
    // The move at (3, 3) makes .XXX. across and down.
    let rows = [
        "...............",
        "...X...........",
        "...X...........",
        ".XX............",
    ];
    assert_eq!(foul_at(&rows, 3, 3), Some(Foul::DoubleThree));
}

#[test]
fn a_three_blocked_by_white_is_no_three() {
    let rows = [
        "...O...........",
        "...X...........",
        "...X...........",
        ".XX............",
    ];
    // Down: O X X [X] . : one more stone makes a four, but not a straight one.
    assert_eq!(foul_at(&rows, 3, 3), None);
}

#[test]
fn overline_is_forbidden_and_exactly_five_wins() {
    let six = ["", "", "", "", "", "", "", "XXX.XX........."];
    assert_eq!(foul_at(&six, 7, 3), Some(Foul::Overline));
    let five = ["", "", "", "", "", "", "", ".XX.XX........."];
    assert_eq!(foul_at(&five, 7, 3), None);
}

#[test]
fn a_double_four_on_one_line_is_forbidden() {
    // X.XXX.X with the middle stone just placed: both gaps make a five.
    let rows = ["", "", "", "", "", "", "", "..X..XX.X......"];
    assert_eq!(foul_at(&rows, 7, 4), Some(Foul::DoubleFour));
    // XX.XX.XX with the fourth stone just placed.
    let rows = ["", "", "", "", "", "", "", "..XX.X..XX....."];
    assert_eq!(foul_at(&rows, 7, 6), Some(Foul::DoubleFour));
}

#[test]
fn a_straight_four_is_one_four() {
    let rows = ["", "", "", "", "", "", "", "...XX.X........"];
    assert_eq!(foul_at(&rows, 7, 5), None);
}

#[test]
fn a_five_is_allowed_even_with_a_double_four_beside_it() {
    // Down X X X . [X] and diagonally X X X [X]: two fours through (4, 5).
    let fours = [
        ".....X.........",
        "..X..X.........",
        "...X.X.........",
        "....X..........",
    ];
    assert_eq!(foul_at(&fours, 4, 5), Some(Foul::DoubleFour));
    // Across, the same move also completes X X X X [X]: a five, which always wins.
    let with_five = [fours[0], fours[1], fours[2], fours[3], ".XXXX.........."];
    assert_eq!(foul_at(&with_five, 4, 5), None);
}

#[test]
fn a_four_and_a_three_is_allowed() {
    // Across O X X X [X] . : a four; down . X X [X] . : a three.
    let rows = [
        "...............",
        "....X..........",
        "....X..........",
        "OXXX...........",
    ];
    assert_eq!(foul_at(&rows, 3, 4), None);
}

/// Row 7 gives (7, 6) a three whose only straight-four point is (7, 7) (white blocks the
/// other side); the diagonal gives it a plain three.
const RECURSIVE: [&str; 8] = [
    "",
    "",
    "",
    "",
    ".......X..X....",
    "....X..X.X.....",
    ".....X.XX......",
    "..O.XX.........",
];

#[test]
fn a_three_whose_only_straight_four_point_is_forbidden_is_no_three() {
    // (7, 7) would make fours across, down and on the anti-diagonal at once: forbidden, so
    // the row is no three, and (7, 6) makes one three only.
    assert_eq!(foul_at(&RECURSIVE, 7, 7), Some(Foul::DoubleFour));
    let mut after = board(&RECURSIVE);
    after[7 * 15 + 6] = Some(Player::X);
    assert_eq!(
        foul(15, 15, &after, Player::X, 7 * 15 + 7),
        Some(Foul::DoubleFour)
    );
    assert_eq!(foul_at(&RECURSIVE, 7, 6), None);
    // Without the stones that make (7, 7) forbidden, the row is a three: a double-three.
    let plain = [
        "",
        "",
        "",
        "",
        "",
        "....X..........",
        ".....X.........",
        "..O.XX.........",
    ];
    assert_eq!(foul_at(&plain, 7, 6), Some(Foul::DoubleThree));
}

#[test]
fn a_three_whose_straight_four_point_completes_a_five_is_no_three() {
    // (7, 7) makes an open three down (rows 5 to 7) and, across, O . X X [X] . . whose only
    // straight-four point (7, 8) also completes the four (8, 8) to (11, 8) into a five.
    let rows = [
        "",
        "",
        "",
        "",
        "",
        ".......X.......",
        ".......X.......",
        "...O.XX........",
        "........X......",
        "........X......",
        "........X......",
        "........X......",
        "........O......",
    ];
    assert_eq!(foul_at(&rows, 7, 7), None);
    // Without that four the row is a three again: a double-three.
    let mut without = rows;
    without[8..12].fill("");
    assert_eq!(foul_at(&without, 7, 7), Some(Foul::DoubleThree));
}

#[test]
fn two_fours_or_two_threes_are_reported_before_an_overline() {
    // (7, 3) makes six across, and fours down (O above) and on the diagonal.
    let fours = ["", "", "", "...O", "X..X", ".X.X", "..XX", "XXX.XX"];
    assert_eq!(foul_at(&fours, 7, 3), Some(Foul::DoubleFour));
    // Six across, and open threes down and on the diagonal.
    let threes = ["", "", "", "", "", ".X.X", "..XX", "XXX.XX"];
    assert_eq!(foul_at(&threes, 7, 3), Some(Foul::DoubleThree));
}

/// A random board of `rows` × `cols` with `stones` stones, most of them black and all within
/// a 7 × 7 square, so that black's fouls are common.
pub(crate) fn crowded_board(
    rows: usize,
    cols: usize,
    stones: usize,
    seed: &mut SplitMix,
) -> Vec<Option<Player>> {
    let mut cells = vec![None; rows * cols];
    let mut next = |n: usize| (seed.next_key() % n as u64) as usize;
    let (top, left) = (
        next(rows.saturating_sub(6).max(1)),
        next(cols.saturating_sub(6).max(1)),
    );
    for _ in 0..stones {
        let index = (top + next(7)).min(rows - 1) * cols + (left + next(7)).min(cols - 1);
        cells[index] = Some(if next(3) == 0 { Player::O } else { Player::X });
    }
    cells
}

#[test]
fn the_in_place_test_gives_the_copying_tests_answer_on_random_boards() {
    let mut seed = SplitMix::new(11);
    let mut fouls = [0; 3];
    for (rows, cols) in [(15, 15), (9, 9), (6, 11), (20, 20)] {
        for round in 0..400 {
            let cells = crowded_board(rows, cols, 8 + round % 30, &mut seed);
            for index in 0..rows * cols {
                let expected = oracle::foul(rows, cols, &cells, Player::X, index);
                assert_eq!(
                    foul(rows, cols, &cells, Player::X, index),
                    expected,
                    "{rows}x{cols} round {round}, cell {index}: {cells:?}"
                );
                if let Some(why) = expected {
                    fouls[why as usize] += 1;
                }
            }
            let white = oracle::foul(rows, cols, &cells, Player::O, 0);
            assert_eq!(foul(rows, cols, &cells, Player::O, 0), white);
        }
    }
    assert!(
        fouls.iter().all(|&n| n > 100),
        "fouls of each kind: {fouls:?}"
    );
}

#[test]
fn forbidden_points_list_every_foul_on_the_board() {
    let rows = [
        "...............",
        "...X...........",
        "...X...........",
        ".XX............",
    ];
    let points = forbidden_points(15, 15, &board(&rows), Player::X);
    assert!(
        points.contains(&(3 * 15 + 3, Foul::DoubleThree)),
        "{points:?}"
    );
    assert!(points.iter().all(|&(i, _)| board(&rows)[i].is_none()));
}
