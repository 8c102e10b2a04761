//! The Connect Four book and solver against an independent oracle: the opening books of the
//! MIT-licensed `bitbully-databases` package (Markus Thill), as
//! `scripts/ci/lib/bitbully_samples.py` writes them out (`scripts/ci/bitbully-check.sh` runs
//! both). The file is named by `BITBULLY_SAMPLES`; without it these tests say so and pass,
//! since the package is a Python one that only the suite's venv holds.
//!
//! A line of the file is `<book> <board> <value>`: the board as 42 characters row by row from
//! the top (`X` moved first, `O`, `.`), with `X` to move; the value from `X`'s side (`win`,
//! `draw`, `loss`, or for `12dist` the book's number, whose distance `100 - |value|` is the
//! plies to the end of the game with best play, the last stone included: this solver's
//! `plies`).

use std::collections::HashMap;

use crate::door::solve;
use minimax_move::engine::{Geometry, MoveValue, Outcome, Player, Position, SearchLimits};

/// 8-stone positions solved in the suite (about half a second each); the `--ignored` tier
/// solves the next ones.
const EIGHT_STONES_IN_THE_SUITE: usize = 24;
const EIGHT_STONES_IGNORED: usize = 400;

struct Sample {
    book: String,
    board: String,
    value: String,
}

/// The samples, or `None` (and a message) when `BITBULLY_SAMPLES` is not set.
fn samples() -> Option<Vec<Sample>> {
    let Ok(path) = std::env::var("BITBULLY_SAMPLES") else {
        eprintln!(
            "BITBULLY_SAMPLES is not set: skipped (bash scripts/ci/bitbully-check.sh runs this)"
        );
        return None;
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let samples: Vec<Sample> = text
        .lines()
        .map(|line| {
            let words: Vec<&str> = line.split(' ').collect();
            assert_eq!(words.len(), 3, "{path}: {line:?}");
            Sample {
                book: words[0].to_owned(),
                board: words[1].to_owned(),
                value: words[2].to_owned(),
            }
        })
        .collect();
    Some(samples)
}

fn position(board: &str) -> Position {
    let cells = board
        .bytes()
        .map(|b| match b {
            b'X' => Some(Player::X),
            b'O' => Some(Player::O),
            b'.' => None,
            _ => panic!("{board}: {b}"),
        })
        .collect();
    Position::new(Geometry::CONNECT_FOUR, cells, None).unwrap_or_else(|e| panic!("{board}: {e}"))
}

fn outcome(word: &str) -> Outcome {
    match word {
        "win" => Outcome::Win,
        "draw" => Outcome::Draw,
        "loss" => Outcome::Loss,
        _ => panic!("unknown outcome {word}"),
    }
}

/// The outcome and plies the book's value says (plies only for `12dist`).
fn expected(sample: &Sample) -> (Outcome, Option<u32>) {
    if sample.book != "12dist" {
        return (outcome(&sample.value), None);
    }
    let value: i32 = sample.value.parse().expect("a number");
    match value.signum() {
        1 => (Outcome::Win, Some((100 - value) as u32)),
        -1 => (Outcome::Loss, Some((100 + value) as u32)),
        _ => (Outcome::Draw, Some(42 - 12)),
    }
}

/// Solves every sample of the books named, checking outcome (and plies where given); how many.
fn check_solver(samples: &[&Sample]) -> usize {
    for sample in samples {
        let (outcome, plies) = expected(sample);
        let value = solve(&position(&sample.board), &SearchLimits::default()).value;
        assert!(
            matches!(value, MoveValue::Proven { .. }),
            "{}",
            sample.board
        );
        assert_eq!(
            value.outcome(),
            Some(outcome),
            "{} {}: {value:?}",
            sample.book,
            sample.board
        );
        if let Some(plies) = plies {
            assert_eq!(
                value.plies(),
                Some(plies),
                "{} {}",
                sample.book,
                sample.board
            );
        }
    }
    samples.len()
}

fn of_book<'a>(samples: &'a [Sample], books: &[&str]) -> Vec<&'a Sample> {
    samples
        .iter()
        .filter(|s| books.contains(&s.book.as_str()))
        .collect()
}

/// The first `per_value` samples of each (book, value) of `books`: the file lists each value's
/// samples in a random order, so these are a random sample too.
fn first_of_each_value<'a>(
    samples: &'a [Sample],
    books: &[&str],
    per_value: usize,
) -> Vec<&'a Sample> {
    let mut taken: HashMap<(&str, &str), usize> = HashMap::new();
    of_book(samples, books)
        .into_iter()
        .filter(|s| {
            let count = taken.entry((&s.book, &s.value)).or_default();
            *count += 1;
            *count <= per_value
        })
        .collect()
}

/// 12-stone positions in the suite: 12-stone positions take about 0.1 s of CPU each (balanced
/// openings), so the suite solves 500 by outcome (200 losses, 200 draws, 100 wins) and 600 by
/// distance (20 for each of the 30 values); the `--ignored` tier solves every one sampled.
const TWELVE_STONES_BY_OUTCOME: usize = 200;
const TWELVE_STONES_BY_DISTANCE: usize = 20;

#[test]
fn twelve_stone_positions_match_bitbully_databases_by_outcome_and_distance() {
    let Some(samples) = samples() else { return };
    let by_outcome = check_solver(&first_of_each_value(
        &samples,
        &["12ply"],
        TWELVE_STONES_BY_OUTCOME,
    ));
    let absent = check_solver(&first_of_each_value(
        &samples,
        &["12ply-absent"],
        TWELVE_STONES_BY_OUTCOME / 2,
    ));
    let by_distance = check_solver(&first_of_each_value(
        &samples,
        &["12dist"],
        TWELVE_STONES_BY_DISTANCE,
    ));
    assert_eq!((by_outcome, absent, by_distance), (400, 100, 600));
    eprintln!(
        "12 stones: {} by outcome, {by_distance} by distance",
        by_outcome + absent
    );
}

/// Every 12-stone position sampled: minutes.
/// `bash scripts/ci/bitbully-check.sh --ignored`.
#[test]
#[ignore = "minutes: run with --ignored"]
fn every_sampled_twelve_stone_position_matches_bitbully_databases() {
    let Some(samples) = samples() else { return };
    let checked = check_solver(&of_book(&samples, &["12ply", "12ply-absent", "12dist"]));
    assert!(checked >= 3_000, "{checked}");
}

#[test]
fn eight_stone_positions_match_bitbully_databases() {
    let Some(samples) = samples() else { return };
    let absent = check_solver(&of_book(&samples, &["8ply-absent"]));
    let listed = check_solver(&of_book(&samples, &["8ply"])[..EIGHT_STONES_IN_THE_SUITE]);
    eprintln!("8 stones: {listed} in the book, {absent} absent from it (wins)");
}

/// More of the 8-stone book through the solver: minutes.
/// `BITBULLY_SAMPLES=... cargo test --test engine bitbully -- --ignored`.
#[test]
#[ignore = "minutes: run with --ignored"]
fn more_eight_stone_positions_match_bitbully_databases() {
    let Some(samples) = samples() else { return };
    let listed = of_book(&samples, &["8ply"]);
    let more = EIGHT_STONES_IN_THE_SUITE..EIGHT_STONES_IN_THE_SUITE + EIGHT_STONES_IGNORED;
    check_solver(&listed[more]);
}

// ---------------------------------------------------------------------------------------------
// The opening book against the 8-stone book backed up by minimax.

/// Cells row-major from the top, 0 empty, 1 X, 2 O, as the samples write them.
type Cells = [u8; 42];

fn line_through(cells: &Cells, cell: usize) -> bool {
    let player = cells[cell];
    let (r, c) = ((cell / 7) as i32, (cell % 7) as i32);
    let at = |r: i32, c: i32| {
        (0..6).contains(&r) && (0..7).contains(&c) && cells[(r * 7 + c) as usize] == player
    };
    [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|&(dr, dc)| {
        let count = |sign: i32| {
            (1..4)
                .take_while(|&i| at(r + sign * dr * i, c + sign * dc * i))
                .count()
        };
        1 + count(1) + count(-1) >= 4
    })
}

fn mirrored(cells: &Cells) -> Cells {
    let mut out = [0; 42];
    for (i, &v) in cells.iter().enumerate() {
        out[i / 7 * 7 + 6 - i % 7] = v;
    }
    out
}

/// The outcome for the side to move of the position `cells` with `stones` stones, by negamax
/// down to 8 stones, where `eight` gives X's outcome (absent: a win for X, the book's rule).
fn backed_up(
    cells: &mut Cells,
    stones: usize,
    eight: &HashMap<Cells, Outcome>,
    memo: &mut HashMap<Cells, Outcome>,
) -> Outcome {
    if stones == 8 {
        return eight.get(cells).copied().unwrap_or(Outcome::Win);
    }
    if let Some(&known) = memo.get(cells) {
        return known;
    }
    let mover = 1 + (stones % 2) as u8;
    let mut best = Outcome::Loss;
    for column in 0..7 {
        let Some(cell) = (0..6)
            .rev()
            .map(|r| r * 7 + column)
            .find(|&i| cells[i] == 0)
        else {
            continue;
        };
        cells[cell] = mover;
        let ours = if line_through(cells, cell) {
            Outcome::Win
        } else {
            match backed_up(cells, stones + 1, eight, memo) {
                Outcome::Win => Outcome::Loss,
                Outcome::Loss => Outcome::Win,
                Outcome::Draw => Outcome::Draw,
            }
        };
        cells[cell] = 0;
        best = match (best, ours) {
            (Outcome::Win, _) | (_, Outcome::Win) => Outcome::Win,
            (Outcome::Draw, _) | (_, Outcome::Draw) => Outcome::Draw,
            _ => Outcome::Loss,
        };
    }
    memo.insert(*cells, best);
    best
}

#[test]
fn the_opening_book_matches_the_8_stone_bitbully_book_backed_up() {
    let Some(samples) = samples() else { return };
    let mut eight: HashMap<Cells, Outcome> = HashMap::new();
    for sample in of_book(&samples, &["8ply"]) {
        let cells: Cells = sample
            .board
            .bytes()
            .map(|b| match b {
                b'X' => 1,
                b'O' => 2,
                _ => 0,
            })
            .collect::<Vec<u8>>()
            .try_into()
            .expect("42 cells");
        let outcome = outcome(&sample.value);
        eight.insert(mirrored(&cells), outcome);
        eight.insert(cells, outcome);
    }
    assert!(eight.len() > 34_515, "{}", eight.len());
    // Every position the engine's book holds (up to its depth in stones), walked from the empty
    // board: the engine answers it from its book, with no node searched, and the backed-up
    // outcome agrees.
    let depth = crate::gravity::book_depth();
    assert!(
        depth <= 8,
        "the 8-stone book backs up to as many stones or fewer"
    );
    let mut memo = HashMap::new();
    let mut level = vec![[0u8; 42]];
    let (mut checked, mut finished) = (0, 0);
    for stones in 0..=depth {
        let (mut next, mut won) = (Vec::new(), Vec::new());
        for mut cells in level {
            let expected = backed_up(&mut cells, stones, &eight, &mut memo);
            let board: String = cells.iter().map(|&v| ['.', 'X', 'O'][v as usize]).collect();
            let solved = solve(&position(&board), &SearchLimits::default());
            assert_eq!(solved.nodes, 0, "{board}: from the book");
            assert_eq!(solved.value.outcome(), Some(expected), "{board}");
            checked += 1;
            let mover = 1 + (stones % 2) as u8;
            for column in 0..7 {
                // A column can be full.
                let Some(cell) = (0..6)
                    .rev()
                    .map(|r| r * 7 + column)
                    .find(|&i| cells[i] == 0)
                else {
                    continue;
                };
                let mut child = cells;
                child[cell] = mover;
                if line_through(&child, cell) {
                    won.push(child);
                } else {
                    next.push(child);
                }
            }
        }
        next.sort_unstable();
        next.dedup();
        level = next;
        if stones < depth {
            won.sort_unstable();
            won.dedup();
            finished += won.len();
        }
    }
    // The counts of distinct positions after each number of moves (OEIS A212693), games just
    // won among them (the first at 7 stones): those have no score to look up.
    let distinct = [1, 7, 49, 238, 1_120, 4_263, 16_422, 54_859, 184_275];
    assert_eq!(checked + finished, distinct[..=depth].iter().sum::<usize>());
}
