//! Renju's forbidden points against a checker written here from the RIF rules text, on
//! hand-built shapes and on random positions.
//!
//! The checker reads each line through the move as text, `B` black, `W` white, `.` empty and `#`
//! off the board, and applies the definitions word for word: a five is exactly five black stones
//! in a row; a four is a window of five cells with four black stones and one empty cell whose
//! filling gives exactly five (two windows with the same four stones, the two ends of a straight
//! four, are one four); a three is a line where one more stone, itself allowed, gives a straight
//! four (`.BBBB.` whose two ends both give exactly five). It knows nothing of the engine's code.
//!
//! Then against the Gomocup tournament referee: `data/renju-referee.txt` holds the forbidden
//! points that Piskvork's checker (`source/renju.cpp`) gives on 300 random positions, written by
//! `scripts/renju-referee-diff.sh`, which also runs the same test on as many fresh positions as
//! asked, through the file that `RENJU_REFEREE_CASES` names.

use std::fmt::Write as _;

use minimax_move::engine::Player;
use minimax_move::engine::renju::{Foul, forbidden_points};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const SIZE: usize = 15;
const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
/// How far the line text reaches either side of the move.
const REACH: isize = 6;

type Board = Vec<Option<Player>>;

/// The line through `cell` along `direction`, from `-REACH` to `REACH` steps.
fn line(board: &Board, cell: usize, (dr, dc): (isize, isize)) -> Vec<char> {
    let (row, col) = ((cell / SIZE) as isize, (cell % SIZE) as isize);
    (-REACH..=REACH)
        .map(|s| {
            let (r, c) = (row + dr * s, col + dc * s);
            if !(0..SIZE as isize).contains(&r) || !(0..SIZE as isize).contains(&c) {
                return '#';
            }
            match board[r as usize * SIZE + c as usize] {
                Some(Player::X) => 'B',
                Some(Player::O) => 'W',
                None => '.',
            }
        })
        .collect()
}

/// The longest row of black through the middle of a line.
fn black_run(text: &[char]) -> usize {
    let middle = REACH as usize;
    let back = text[..middle]
        .iter()
        .rev()
        .take_while(|&&c| c == 'B')
        .count();
    let forward = text[middle + 1..].iter().take_while(|&&c| c == 'B').count();
    back + forward + 1
}

/// The fours in one line through its middle stone.
fn fours(text: &[char]) -> usize {
    let middle = REACH as usize;
    let mut stone_sets: Vec<Vec<usize>> = Vec::new();
    for start in middle - 4..=middle {
        let window = &text[start..start + 5];
        let blacks = window.iter().filter(|&&c| c == 'B').count();
        let empties = window.iter().filter(|&&c| c == '.').count();
        let exact = text[start - 1] != 'B' && text[start + 5] != 'B';
        if blacks == 4 && empties == 1 && exact {
            let stones: Vec<usize> = (start..start + 5).filter(|&i| text[i] == 'B').collect();
            if !stone_sets.contains(&stones) {
                stone_sets.push(stones);
            }
        }
    }
    stone_sets.len()
}

/// Whether the black stone on `cell` has a three along `direction`.
fn has_three(board: &mut Board, cell: usize, direction: (isize, isize)) -> bool {
    let middle = REACH as usize;
    let (dr, dc) = direction;
    for step in -4..=4isize {
        let (r, c) = (
            (cell / SIZE) as isize + dr * step,
            (cell % SIZE) as isize + dc * step,
        );
        if step == 0 || !(0..SIZE as isize).contains(&r) || !(0..SIZE as isize).contains(&c) {
            continue;
        }
        let other = r as usize * SIZE + c as usize;
        if board[other].is_some() {
            continue;
        }
        board[other] = Some(Player::X);
        let text = line(board, cell, direction);
        let other_at = (middle as isize + step) as usize;
        // A straight four: `.BBBB.` holding both stones, each end giving exactly five.
        let straight = (1..text.len() - 6).any(|s| {
            let window: String = text[s..s + 6].iter().collect();
            window == ".BBBB."
                && (s + 1..s + 5).contains(&middle)
                && (s + 1..s + 5).contains(&other_at)
                && text[s - 1] != 'B'
                && text[s + 6] != 'B'
        });
        let three =
            straight && !makes_five(board, other) && forbidden_placed(board, other).is_none();
        board[other] = None;
        if three {
            return true;
        }
    }
    false
}

/// Whether the black stone on `cell` is part of exactly five in a row.
fn makes_five(board: &Board, cell: usize) -> bool {
    DIRECTIONS
        .iter()
        .any(|&d| black_run(&line(board, cell, d)) == 5)
}

/// Why the black stone just placed on `cell` is forbidden, if it is.
fn forbidden_placed(board: &mut Board, cell: usize) -> Option<Foul> {
    if makes_five(board, cell) {
        return None;
    }
    let texts: Vec<Vec<char>> = DIRECTIONS.iter().map(|&d| line(board, cell, d)).collect();
    if texts.iter().map(|t| fours(t)).sum::<usize>() >= 2 {
        return Some(Foul::DoubleFour);
    }
    let threes = DIRECTIONS
        .iter()
        .filter(|&&d| has_three(board, cell, d))
        .count();
    if threes >= 2 {
        return Some(Foul::DoubleThree);
    }
    texts
        .iter()
        .any(|t| black_run(t) > 5)
        .then_some(Foul::Overline)
}

fn checker(board: &Board) -> Vec<(usize, Foul)> {
    let mut board = board.clone();
    (0..board.len())
        .filter_map(|cell| {
            if board[cell].is_some() {
                return None;
            }
            board[cell] = Some(Player::X);
            let why = forbidden_placed(&mut board, cell);
            board[cell] = None;
            why.map(|why| (cell, why))
        })
        .collect()
}

/// A random middle game: stones thrown near the centre, black's more often in rows so that
/// threes and fours are common.
fn random_board(rng: &mut ChaCha8Rng) -> Board {
    let mut board = vec![None; SIZE * SIZE];
    let stones = rng.random_range(8..60);
    for n in 0..stones {
        let (r, c) = (rng.random_range(3..12), rng.random_range(3..12));
        let player = if n % 2 == 0 || rng.random_bool(0.2) {
            Player::X
        } else {
            Player::O
        };
        board[r * SIZE + c] = Some(player);
    }
    board
}

#[test]
fn forbidden_points_match_the_rules_text_on_random_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(45);
    let mut counts = [0usize; 3];
    for round in 0..600 {
        let board = random_board(&mut rng);
        let engine = forbidden_points(SIZE, SIZE, &board, Player::X);
        assert_eq!(engine, checker(&board), "position {round}: {board:?}");
        for (_, why) in engine {
            counts[why as usize] += 1;
        }
    }
    // The sample reaches every kind of foul.
    assert!(
        counts.iter().all(|&n| n > 20),
        "overline, 4-4, 3-3: {counts:?}"
    );
}

/// The referee's answers on 300 positions, as `scripts/renju-referee-diff.sh` writes them.
const REFEREE_CASES: &str = include_str!("data/renju-referee.txt");

/// One position and the cells the referee forbids black there, with why.
struct RefereeCase {
    board: Board,
    forbidden: Vec<(usize, Foul)>,
}

/// The index of a coordinate such as `h8` (column letter from the left, row from 1 at the
/// bottom).
fn cell_of(coordinate: &str) -> usize {
    let col = usize::from(coordinate.as_bytes()[0] - b'a');
    let row: usize = coordinate[1..].parse().expect("a row number");
    (SIZE - row) * SIZE + col
}

fn coordinate_of(cell: usize) -> String {
    let letter = char::from(b'a' + (cell % SIZE) as u8);
    format!("{letter}{}", SIZE - cell / SIZE)
}

/// A line of the cases file: the rows joined by `/`, then `coordinate:reason` for each
/// forbidden cell, or `-`.
fn parse_case(line: &str) -> RefereeCase {
    let mut words = line.split_whitespace();
    let rows = words.next().expect("a board");
    let board: Board = rows
        .split('/')
        .flat_map(str::chars)
        .map(|mark| match mark {
            'X' => Some(Player::X),
            'O' => Some(Player::O),
            _ => None,
        })
        .collect();
    assert_eq!(board.len(), SIZE * SIZE, "a 15 × 15 board: {line}");
    let forbidden = words
        .filter(|&word| word != "-")
        .map(|word| {
            let (coordinate, reason) = word.split_once(':').expect("coordinate:reason");
            let foul = match reason {
                "overline" => Foul::Overline,
                "double_four" => Foul::DoubleFour,
                "double_three" => Foul::DoubleThree,
                other => panic!("unknown reason {other}"),
            };
            (cell_of(coordinate), foul)
        })
        .collect();
    RefereeCase { board, forbidden }
}

/// The board with its coordinates, `*` on `cell`.
fn drawn(board: &Board, cell: usize) -> String {
    let mut text = String::from("    a b c d e f g h i j k l m n o\n");
    for row in 0..SIZE {
        let _ = write!(text, "{:>3}", SIZE - row);
        for col in 0..SIZE {
            let mark = match board[row * SIZE + col] {
                _ if row * SIZE + col == cell => '*',
                Some(Player::X) => 'X',
                Some(Player::O) => 'O',
                None => '.',
            };
            let _ = write!(text, " {mark}");
        }
        text.push('\n');
    }
    text
}

#[test]
fn forbidden_points_match_the_gomocup_referee() {
    let fresh = std::env::var("RENJU_REFEREE_CASES").ok();
    let text = fresh.as_ref().map_or_else(
        || REFEREE_CASES.to_owned(),
        |path| std::fs::read_to_string(path).expect("the referee's cases"),
    );
    let cases: Vec<RefereeCase> = text
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(parse_case)
        .collect();
    let (mut cells, mut mismatches, mut report) = (0, 0, String::new());
    let mut counts = [0usize; 3];
    for (number, case) in cases.iter().enumerate() {
        cells += case.board.iter().filter(|cell| cell.is_none()).count();
        let ours = forbidden_points(SIZE, SIZE, &case.board, Player::X);
        for cell in 0..SIZE * SIZE {
            let find = |list: &[(usize, Foul)]| list.iter().find(|p| p.0 == cell).map(|p| p.1);
            let (referee, engine) = (find(&case.forbidden), find(&ours));
            if let Some(foul) = referee {
                counts[foul as usize] += 1;
            }
            if referee != engine {
                mismatches += 1;
                if mismatches > 100 {
                    continue;
                }
                let _ = writeln!(
                    report,
                    "position {}, black at {}: referee {referee:?}, engine {engine:?}\n{}",
                    number + 1,
                    coordinate_of(cell),
                    drawn(&case.board, cell)
                );
            }
        }
    }
    if fresh.is_some() {
        println!(
            "positions {}, cells checked {cells}, mismatches {mismatches}",
            cases.len()
        );
    }
    assert!(
        mismatches == 0,
        "{mismatches} cells differ (the first 100 shown):\n{report}"
    );
    assert!(
        fresh.is_some() || counts.iter().all(|&n| n > 20),
        "the committed cases reach every kind of foul (overline, 4-4, 3-3): {counts:?}"
    );
}
