//! The gravity solver (Connect Four and its cousins) against independent oracles: the plain
//! memoised minimax of tests/common, on every position of small boards and on random positions
//! of larger ones; the published values of Connect Four by board size; and, on 7 × 6, the
//! MIT-licensed `connect-four-ai` crate (a separate implementation of Pons' solver).

use crate::door::{analyze, column_scores, solve, suggest};
use minimax_move::engine::{Book, BookBuilder, build_book, pons_score};
use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::oracle::{EMPTY, Memo, Shape, move_scores, value};
use minimax_move::engine::{
    Analysis, Cancel, Game, GameErrorKind, Geometry, MoveValue, Outcome, Player, Position,
    PositionError, Scoring, SearchLimits, SuggestOptions,
};

fn unlimited() -> SearchLimits {
    SearchLimits::default()
}

/// A gravity board of `rows` × `cols` with `k` in a row.
fn gravity(rows: usize, cols: usize, k: usize) -> Geometry {
    Geometry::new(rows as u64, cols as u64, k as u64)
        .and_then(|g| g.with_gravity(true))
        .expect("a gravity geometry")
}

/// The 7 × 6 position after X, then O... drop stones in `columns` (from 0).
fn connect_four(columns: &[usize]) -> Position {
    Game::from_columns(Geometry::CONNECT_FOUR, Player::X, columns)
        .expect("a legal sequence")
        .position()
        .expect("in play")
        .clone()
}

/// The 7 × 6 book built into the engine, as shipped; the tests of the book follow its depth.
fn shipped_book() -> Book {
    Book::from_bytes(include_bytes!("../../src/engine/gravity/connect4.book")).expect("reads")
}

/// The most stones a position of the shipped 7 × 6 book has.
pub fn book_depth() -> usize {
    usize::try_from(shipped_book().depth).expect("a depth")
}

/// Every move of `position` analysed with every value proven, under depth scoring.
fn analyse(position: &Position, limits: &SearchLimits) -> Analysis {
    analyze(position, Scoring::Depth, limits)
}

/// Pons' score of `position`'s own value, `None` when not proven.
fn pons_of(position: &Position) -> Option<i32> {
    let stones = position.geometry().cells() - position.empty_count();
    solve(position, &unlimited())
        .value
        .pons_score(position.geometry().cells(), stones)
}

/// A small deterministic generator (xorshift64*), so that every run tests the same positions.
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

// ---------------------------------------------------------------------------------------------
// The oracle: the plain minimax of tests/common, over the cells of a board dropped into.

/// A board for the oracle: cells row-major from the top, as the engine takes them.
#[derive(Clone)]
struct Plain {
    rows: usize,
    cols: usize,
    k: usize,
    cells: Vec<Option<Player>>,
    to_move: Player,
    stones: usize,
}

impl Plain {
    fn new(rows: usize, cols: usize, k: usize) -> Self {
        Self {
            rows,
            cols,
            k,
            cells: vec![None; rows * cols],
            to_move: Player::X,
            stones: 0,
        }
    }

    fn landing(&self, column: usize) -> Option<usize> {
        (0..self.rows)
            .rev()
            .map(|r| r * self.cols + column)
            .find(|&i| self.cells[i].is_none())
    }

    /// Drops a stone; whether it completes a line.
    fn drop(&mut self, column: usize) -> bool {
        let cell = self.landing(column).expect("a free column");
        self.cells[cell] = Some(self.to_move);
        self.stones += 1;
        let won = self.line_through(cell);
        self.to_move = self.to_move.opponent();
        won
    }

    fn undo(&mut self, column: usize) {
        let cell = (0..self.rows)
            .map(|r| r * self.cols + column)
            .find(|&i| self.cells[i].is_some())
            .expect("a stone to take back");
        self.cells[cell] = None;
        self.stones -= 1;
        self.to_move = self.to_move.opponent();
    }

    fn shape(&self) -> Shape {
        Shape::gravity(self.rows, self.cols, self.k)
    }

    fn line_through(&self, cell: usize) -> bool {
        self.shape().line_through(&self.code(), cell)
    }

    /// The side to move's mark on the oracle's boards.
    const fn mark(&self) -> u8 {
        match self.to_move {
            Player::X => b'X',
            Player::O => b'O',
        }
    }

    /// The cells as the oracle reads them, one byte a cell.
    fn code(&self) -> Vec<u8> {
        self.cells
            .iter()
            .map(|c| match c {
                None => EMPTY,
                Some(Player::X) => b'X',
                Some(Player::O) => b'O',
            })
            .collect()
    }

    fn position(&self) -> Position {
        Position::new(
            gravity(self.rows, self.cols, self.k),
            self.cells.clone(),
            Some(self.to_move),
        )
        .expect("a position in play")
    }
}

/// The depth score of every legal column (`W - plies` for a win, `plies - W` for a loss, 0 for
/// a draw, `W = cells + 1`), by the plain minimax of tests/common.
fn oracle_columns(board: &Plain, memo: &mut Memo) -> Vec<(usize, i32)> {
    move_scores(board.shape(), &mut board.code(), board.mark(), memo)
        .into_iter()
        .map(|(cell, score)| (cell % board.cols, score))
        .collect()
}

/// The depth score of the best column, by the same oracle.
fn oracle_value(board: &Plain, memo: &mut Memo) -> i32 {
    value(board.shape(), &mut board.code(), board.mark(), memo)
}

/// The depth score of a value found under depth scoring.
fn depth_score(value: MoveValue) -> i32 {
    match value {
        MoveValue::Proven { score, .. } => score,
        MoveValue::Estimate(h) => panic!("an unlimited search proves every column, got {h}"),
    }
}

/// Every position a game reaches on the board (games over left out), each once.
fn every_position(rows: usize, cols: usize, k: usize) -> Vec<Plain> {
    fn walk(board: &mut Plain, seen: &mut HashMap<Vec<u8>, ()>, out: &mut Vec<Plain>) {
        if seen.insert(board.code(), ()).is_some() {
            return;
        }
        out.push(board.clone());
        for c in 0..board.cols {
            if board.landing(c).is_none() {
                continue;
            }
            let won = board.drop(c);
            if !won && board.stones < board.rows * board.cols {
                walk(board, seen, out);
            }
            board.undo(c);
        }
    }
    let mut out = Vec::new();
    walk(
        &mut Plain::new(rows, cols, k),
        &mut HashMap::new(),
        &mut out,
    );
    out
}

/// Checks every column of `board`'s analysis against the oracle, and the position's value.
fn check_against_oracle(board: &mut Plain, memo: &mut Memo) {
    let cells = board.rows * board.cols;
    let expected = oracle_columns(board, memo);
    let position = board.position();
    let analysis = analyse(&position, &unlimited());
    let mut got: Vec<(usize, i32)> = analysis
        .moves
        .iter()
        .map(|m| (m.index % board.cols, depth_score(m.value)))
        .collect();
    got.sort_unstable();
    assert_eq!(got, expected, "columns of {:?}", board.code());
    let best = expected.iter().map(|&(_, s)| s).max().unwrap();
    assert_eq!(
        depth_score(analysis.best_move().value),
        best,
        "best column of {:?}",
        board.code()
    );
    // The cheaper root solve agrees, and the Pons score matches the length.
    let root = solve(&position, &unlimited()).value;
    assert_eq!(depth_score(root), best, "root of {:?}", board.code());
    if let MoveValue::Proven { outcome, plies, .. } = root {
        let expected_pons = match outcome {
            Outcome::Draw => 0,
            Outcome::Win => pons_score(cells, board.stones, plies as usize),
            Outcome::Loss => -pons_score(cells, board.stones, plies as usize),
        };
        assert_eq!(
            root.pons_score(cells, board.stones),
            Some(expected_pons),
            "Pons score of {:?}",
            board.code()
        );
    }
}

#[test]
#[ignore = "slow tier: cargo test --test engine -- --ignored slow_"]
fn slow_every_4x4_position_matches_a_plain_minimax_on_every_column() {
    let positions = every_position(4, 4, 4);
    assert!(positions.len() > 10_000, "{} positions", positions.len());
    let mut memo = HashMap::new();
    for mut board in positions {
        check_against_oracle(&mut board, &mut memo);
    }
}

#[test]
#[ignore = "slow tier: cargo test --test engine -- --ignored slow_"]
fn slow_every_5x4_position_matches_a_plain_minimax() {
    // Five rows and four columns: every position's value by the root solve, and every column
    // of every thirteenth position.
    let (rows, cols) = (5, 4);
    let positions = every_position(rows, cols, 4);
    assert!(positions.len() > 100_000, "{} positions", positions.len());
    let mut memo = HashMap::new();
    for (i, mut board) in positions.into_iter().enumerate() {
        if i % 13 == 0 {
            check_against_oracle(&mut board, &mut memo);
        } else {
            let expected = oracle_value(&board, &mut memo);
            let got = depth_score(solve(&board.position(), &unlimited()).value);
            assert_eq!(got, expected, "{rows} x {cols}: {:?}", board.code());
        }
    }
}

#[test]
#[ignore = "slow tier: cargo test --test engine -- --ignored slow_"]
fn slow_random_5x5_and_6x5_positions_match_a_plain_minimax() {
    // (rows, cols, stones played at random first, positions): late enough for the oracle.
    let mut random = Random(0x5eed_0005);
    for (rows, cols, stones, count) in [(5, 5, 11, 200), (5, 6, 16, 150), (6, 5, 16, 150)] {
        let mut memo = HashMap::new();
        let mut tested = 0;
        while tested < count {
            let mut board = Plain::new(rows, cols, 4);
            let mut over = false;
            for _ in 0..stones {
                let free: Vec<usize> = (0..cols).filter(|&c| board.landing(c).is_some()).collect();
                if board.drop(free[random.below(free.len())]) {
                    over = true;
                    break;
                }
            }
            if !over {
                check_against_oracle(&mut board, &mut memo);
                tested += 1;
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Published values by board size.

/// Connect Four (k = 4) from the empty board, for every board with width + height ≤ 12: who
/// wins and on which move, as John Tromp published them ("John's Connect Four Playground",
/// tromp.github.io/c4/c4.html, the table for width + height ≤ 15) and as Christophe
/// Steininger's solver repeats them (ChristopheSteininger/c4, readme.md, "Results": the outcome
/// and last-move tables). A draw ends on the last cell.
const PUBLISHED: [(usize, usize, Option<Outcome>, u32); 12] = [
    // (width, height, outcome for the first player, the game's last move)
    (4, 4, Some(Outcome::Draw), 16),
    (5, 4, Some(Outcome::Draw), 20),
    (4, 5, Some(Outcome::Draw), 20),
    (6, 4, Some(Outcome::Loss), 24),
    (4, 6, Some(Outcome::Draw), 24),
    (5, 5, Some(Outcome::Draw), 25),
    (7, 4, Some(Outcome::Draw), 28),
    (4, 7, Some(Outcome::Draw), 28),
    (6, 5, Some(Outcome::Draw), 30),
    (5, 6, Some(Outcome::Draw), 30),
    (8, 4, Some(Outcome::Loss), 32),
    (4, 8, Some(Outcome::Draw), 32),
];

fn check_published(width: usize, height: usize, outcome: Option<Outcome>, last: u32) {
    let empty = Position::new(gravity(height, width, 4), vec![None; width * height], None)
        .expect("an empty board");
    let value = solve(&empty, &unlimited()).value;
    assert_eq!(value.outcome(), outcome, "{width} wide, {height} high");
    assert_eq!(value.plies(), Some(last), "{width} wide, {height} high");
}

#[test]
fn boards_up_to_24_cells_have_their_published_values() {
    for &(width, height, outcome, last) in PUBLISHED.iter().filter(|p| p.0 * p.1 <= 24) {
        check_published(width, height, outcome, last);
    }
}

#[test]
fn boards_of_25_to_32_cells_have_their_published_values() {
    for &(width, height, outcome, last) in PUBLISHED.iter().filter(|p| p.0 * p.1 > 24) {
        check_published(width, height, outcome, last);
    }
}

/// The rest of width + height ≤ 12: 7 × 5, 5 × 7 and 6 × 6 (width × height) take minutes.
/// `cargo test --release --test engine gravity -- --ignored`.
#[test]
#[ignore = "minutes: run with --ignored"]
fn boards_of_35_and_36_cells_have_their_published_values() {
    for (width, height, outcome, last) in [
        (7, 5, Some(Outcome::Draw), 35),
        (5, 7, Some(Outcome::Draw), 35),
        (6, 6, Some(Outcome::Loss), 36),
    ] {
        check_published(width, height, outcome, last);
    }
}

/// Width + height = 13 and 14 (width × height), from the same table; 7 × 6 comes from the book,
/// the others take minutes to hours each on the reference machine.
/// `cargo test --release --test engine gravity -- --ignored`.
const PUBLISHED_13_AND_14: [(usize, usize, Option<Outcome>, u32); 13] = [
    (9, 4, Some(Outcome::Loss), 36),
    (4, 9, Some(Outcome::Draw), 36),
    (8, 5, Some(Outcome::Win), 39),
    (5, 8, Some(Outcome::Draw), 40),
    (7, 6, Some(Outcome::Win), 41),
    (6, 7, Some(Outcome::Win), 41),
    (10, 4, Some(Outcome::Loss), 40),
    (4, 10, Some(Outcome::Draw), 40),
    (9, 5, Some(Outcome::Win), 41),
    (5, 9, Some(Outcome::Draw), 45),
    (8, 6, Some(Outcome::Loss), 48),
    (6, 8, Some(Outcome::Loss), 48),
    (7, 7, Some(Outcome::Draw), 49),
];

#[test]
#[ignore = "hours: run with --ignored"]
fn boards_with_width_and_height_summing_to_13_have_their_published_values() {
    for &(width, height, outcome, last) in PUBLISHED_13_AND_14.iter().filter(|p| p.0 + p.1 == 13) {
        check_published(width, height, outcome, last);
    }
}

#[test]
#[ignore = "hours: run with --ignored"]
fn boards_with_width_and_height_summing_to_14_have_their_published_values() {
    for &(width, height, outcome, last) in PUBLISHED_13_AND_14.iter().filter(|p| p.0 + p.1 == 14) {
        check_published(width, height, outcome, last);
    }
}

// ---------------------------------------------------------------------------------------------
// 7 × 6 against connect-four-ai.

fn moves_string(columns: &[usize]) -> String {
    columns
        .iter()
        .map(|&c| char::from(b'1' + c as u8))
        .collect()
}

/// `connect-four-ai`'s Pons score of the 7 × 6 position after `columns` (its solver assumes
/// the side to move cannot win at once, so that case is scored here).
fn reference_score(theirs: &mut connect_four_ai::Solver, columns: &[usize]) -> i32 {
    let reference =
        connect_four_ai::Position::from_moves(&moves_string(columns)).expect("a legal sequence");
    theirs.reset();
    if reference.can_win_next() {
        (43 - columns.len() as i32) / 2
    } else {
        i32::from(theirs.solve(&reference))
    }
}

/// Random 7 × 6 games cut at `stones` stones (never finished, the side to move never winning
/// at once, which `connect-four-ai`'s solver assumes away).
fn random_connect_four(random: &mut Random, stones: usize) -> Vec<usize> {
    loop {
        let mut board = Plain::new(6, 7, 4);
        let mut columns = Vec::new();
        let mut over = false;
        for _ in 0..stones {
            let free: Vec<usize> = (0..7).filter(|&c| board.landing(c).is_some()).collect();
            let c = free[random.below(free.len())];
            columns.push(c);
            if board.drop(c) {
                over = true;
                break;
            }
        }
        if !over && board.stones < 42 {
            return columns;
        }
    }
}

#[test]
fn random_7x6_positions_at_every_depth_match_connect_four_ai() {
    // From 12 stones on, where both solvers answer random positions in well under a second
    // (the opening is checked through the book below); three positions a depth.
    let mut random = Random(0xc4_c4c4);
    let mut theirs = connect_four_ai::Solver::empty();
    for stones in 12..=40 {
        for _ in 0..3 {
            let columns = random_connect_four(&mut random, stones);
            let ours = pons_of(&connect_four(&columns));
            let expected = reference_score(&mut theirs, &columns);
            assert_eq!(ours, Some(expected), "{}", moves_string(&columns));
        }
    }
}

/// The opening past the book: either solver may take minutes on a balanced position.
/// `cargo test --release --test engine gravity -- --ignored`.
#[test]
#[ignore = "minutes: run with --ignored"]
fn random_7x6_openings_match_connect_four_ai() {
    let mut random = Random(0x0be_c4c4);
    let mut theirs = connect_four_ai::Solver::empty();
    for stones in 2..12 {
        let columns = random_connect_four(&mut random, stones);
        let ours = pons_of(&connect_four(&columns));
        let expected = reference_score(&mut theirs, &columns);
        assert_eq!(ours, Some(expected), "{}", moves_string(&columns));
    }
}

#[test]
fn every_7x6_position_short_of_the_books_depth_is_analysed_from_the_book() {
    // Every position in play with fewer stones than the book's depth: it and all its children
    // come from the book, so the analysis searches no node and every column is exact.
    let mut level: HashMap<Position, Vec<usize>> = HashMap::from([(connect_four(&[]), Vec::new())]);
    let mut analysed = 0usize;
    for stones in 0..book_depth() {
        let mut next = HashMap::new();
        for (position, columns) in &level {
            let analysis = analyse(position, &unlimited());
            assert_eq!(analysis.nodes, 0, "{}", moves_string(columns));
            assert!(analysis.is_exact(), "{}", moves_string(columns));
            analysed += 1;
            if stones + 1 == book_depth() {
                continue;
            }
            for c in 0..7 {
                let longer = [columns.as_slice(), &[c]].concat();
                // A full column, or a game just won: nothing to analyse.
                let Ok(game) = Game::from_columns(Geometry::CONNECT_FOUR, Player::X, &longer)
                else {
                    continue;
                };
                if let Some(child) = game.position() {
                    next.entry(child.clone()).or_insert(longer);
                }
            }
        }
        level = next;
    }
    // Distinct positions in play by stones (OEIS A212693, less the 728 games won with the
    // seventh stone), summed below the depth.
    let in_play = [1, 7, 49, 238, 1_120, 4_263, 16_422, 54_131];
    assert_eq!(analysed, in_play[..book_depth()].iter().sum::<usize>());
}

/// The book's deepest level against an independent solver: random positions of as many stones
/// as its depth, which the book answers without a search (each may take `connect-four-ai`
/// seconds). `cargo test --release --test engine gravity -- --ignored`.
#[test]
#[ignore = "minutes: run with --ignored"]
fn the_book_matches_connect_four_ai_on_random_positions_of_its_deepest_level() {
    let mut random = Random(0xb00c_c4c4);
    let mut theirs = connect_four_ai::Solver::empty();
    let depth = book_depth();
    for _ in 0..12 {
        let columns = random_connect_four(&mut random, depth);
        let position = connect_four(&columns);
        let solved = solve(&position, &unlimited());
        let expected = reference_score(&mut theirs, &columns);
        assert_eq!(solved.nodes, 0, "{}", moves_string(&columns));
        assert_eq!(
            solved.value.pons_score(42, depth),
            Some(expected),
            "{}",
            moves_string(&columns)
        );
    }
}

/// Every column of the 7 × 6 game after `columns`, proven, against `connect-four-ai`'s scores.
fn assert_columns_match_connect_four_ai(theirs: &mut connect_four_ai::Solver, columns: &[usize]) {
    let position = connect_four(columns);
    let ours =
        column_scores(&position, &analyse(&position, &unlimited())).expect("every column proven");
    let reference =
        connect_four_ai::Position::from_moves(&moves_string(columns)).expect("a legal sequence");
    theirs.reset();
    let expected: Vec<Option<i32>> = theirs
        .get_all_move_scores(&reference)
        .iter()
        .map(|s| s.map(i32::from))
        .collect();
    assert_eq!(ours, expected, "{}", moves_string(columns));
}

#[test]
fn every_column_of_random_7x6_midgames_matches_connect_four_ai() {
    let mut random = Random(0x7e57_0006);
    let mut theirs = connect_four_ai::Solver::empty();
    for stones in [16, 20, 24, 28, 32, 36] {
        let columns = random_connect_four(&mut random, stones);
        assert_columns_match_connect_four_ai(&mut theirs, &columns);
    }
}

/// Positions on the book's deepest level: the book gives the position's own score, which caps
/// every column's before its search; every column against an independent solver.
/// `cargo test --release --test engine gravity -- --ignored`.
#[test]
#[ignore = "minutes: run with --ignored"]
fn every_column_of_random_positions_on_the_books_deepest_level_matches_connect_four_ai() {
    let mut random = Random(0xb00c_0006);
    let mut theirs = connect_four_ai::Solver::empty();
    for _ in 0..3 {
        let columns = random_connect_four(&mut random, book_depth());
        assert_columns_match_connect_four_ai(&mut theirs, &columns);
    }
}

#[test]
fn the_empty_7x6_board_comes_from_the_book_with_its_published_scores() {
    // Pons' scores of the seven first moves (connect4.gamesolver.org answers these for the
    // empty position): only the centre wins, on the 41st stone.
    let empty = connect_four(&[]);
    let analysis = analyse(&empty, &unlimited());
    assert_eq!(
        column_scores(&empty, &analysis),
        Some([-2, -1, 0, 1, 0, -1, -2].map(Some).to_vec())
    );
    assert_eq!(analysis.nodes, 0, "answered by the book, no search");
    assert_eq!(Geometry::CONNECT_FOUR.column_of(analysis.best), 3);
    let centre = analysis.best_move().value;
    assert_eq!(
        (centre.outcome(), centre.plies()),
        (Some(Outcome::Win), Some(41))
    );
    assert_eq!(solve(&empty, &unlimited()).nodes, 0);
}

// ---------------------------------------------------------------------------------------------
// Positions, limits and honesty.

#[test]
fn rejects_impossible_and_finished_positions() {
    let x = Some(Player::X);
    let o = Some(Player::O);
    let floating = {
        let mut cells = vec![None; 16];
        cells[0] = x; // top-left, with nothing under it
        cells[12] = o;
        cells
    };
    let four = gravity(4, 4, 4);
    assert_eq!(
        Position::new(four, floating, None),
        Err(PositionError::Floating { index: 0 })
    );
    let counts = {
        let mut cells = vec![None; 16];
        cells[12] = x;
        cells[13] = x;
        cells
    };
    assert_eq!(
        Position::new(four, counts, None),
        Err(PositionError::UnbalancedCounts { x: 2, o: 0 })
    );
    assert!(matches!(
        Position::new(four, vec![None; 16], Some(Player::O)),
        Ok(p) if p.to_move() == Player::O
    ));
    let replay = |columns: &[usize]| Game::from_columns(Geometry::CONNECT_FOUR, Player::X, columns);
    let error = replay(&[3, 3, 3, 3, 3, 3, 3]).unwrap_err();
    assert_eq!(
        (error.number, error.column, error.kind),
        (7, Some(3), GameErrorKind::FullColumn)
    );
    let error = replay(&[0, 1, 0, 1, 0, 1, 0, 1]).unwrap_err();
    assert_eq!(error.number, 8);
    assert!(matches!(error.kind, GameErrorKind::AfterGameEnd(_)));
    let over = replay(&[0, 1, 0, 1, 0, 1, 0]).expect("a finished game");
    assert!(over.position().is_none());
    assert_eq!(over.result().map(|r| r.winner), Some(x));
    let error = replay(&[7]).unwrap_err();
    assert_eq!(
        (error.number, error.column, error.kind),
        (1, Some(7), GameErrorKind::NoSuchColumn { cols: 7 })
    );
    for (rows, cols) in [(0, 7), (11, 11), (21, 2), (6, 0)] {
        assert!(
            Geometry::new(rows, cols, 4)
                .and_then(|g| g.with_gravity(true))
                .is_err(),
            "{rows} x {cols}"
        );
    }
}

#[test]
fn a_10x10_board_is_taken_and_answered_honestly_within_its_budget() {
    let empty = Position::new(gravity(10, 10, 4), vec![None; 100], None).expect("10 x 10 fits");
    let limits = SearchLimits {
        max_work: Some(200_000),
        ..SearchLimits::default()
    };
    let analysis = analyse(&empty, &limits);
    assert_eq!(analysis.moves.len(), 10);
    for m in &analysis.moves {
        if let MoveValue::Estimate(h) = m.value {
            assert!(h > -1.0 && h < 1.0, "{h}");
        }
    }
    // The same budget, the same answer.
    assert_eq!(analyse(&empty, &limits), analysis);
}

#[test]
fn a_book_position_cut_short_still_answers_with_its_proven_best_move() {
    // A position of the book's deepest level: its own score is a lookup, its columns are
    // searches one stone deeper (if the book grows, the prefix grows with it).
    let game = [5, 5, 6, 0, 6, 1, 2, 3, 3, 4, 2, 2];
    let position = connect_four(&game[..book_depth()]);
    let known = pons_of(&position).expect("a score in the book");
    let mut cut_short = Vec::new();
    for budget in [
        300_000, 1_000_000, 2_000_000, 3_000_000, 5_000_000, 10_000_000,
    ] {
        let limits = SearchLimits {
            max_work: Some(budget),
            ..SearchLimits::default()
        };
        let analysis = analyse(&position, &limits);
        let best = analysis.best_move().value;
        if best.is_exact() {
            assert_eq!(
                best.pons_score(42, book_depth()),
                Some(known),
                "{budget} nodes"
            );
            if analysis.moves.iter().any(|m| m.value.outcome().is_none()) {
                cut_short.push(budget);
            }
        }
    }
    assert!(
        !cut_short.is_empty(),
        "a budget that proves the best move before every column's outcome"
    );
}

#[test]
fn a_cancelled_search_returns_estimates_at_once() {
    let cancel = Cancel::new();
    cancel.cancel();
    let limits = SearchLimits {
        cancel,
        ..SearchLimits::default()
    };
    // Ten stones in: past the book (and its children too), a search of a second or so.
    let columns = [3, 3, 2, 4, 3, 2, 4, 0, 6, 1];
    assert!(columns.len() > book_depth() + 1);
    let analysis = analyse(&connect_four(&columns), &limits);
    assert!(!analysis.is_exact());
    assert!(analysis.moves.iter().all(|m| match m.value {
        MoveValue::Estimate(h) => h > -1.0 && h < 1.0,
        MoveValue::Proven { .. } => true,
    }));
}

#[test]
fn immediate_wins_and_forced_losses_are_exact_without_search() {
    // X to move can complete four in column 0 (three X stacked there).
    let analysis = analyse(
        &connect_four(&[0, 1, 0, 1, 0, 6]),
        &SearchLimits {
            max_work: Some(1),
            ..SearchLimits::default()
        },
    );
    let win = analysis.best_move().value;
    assert_eq!((win.outcome(), win.plies()), (Some(Outcome::Win), Some(1)));
    assert_eq!(Geometry::CONNECT_FOUR.column_of(analysis.best), 0);
    // X to move has three in a row on the bottom row, open at both ends: two columns win at
    // once, proven without a node searched (the others win later).
    let analysis = analyse(
        &connect_four(&[2, 2, 3, 3, 4, 0]),
        &SearchLimits {
            max_work: Some(1),
            ..SearchLimits::default()
        },
    );
    let winning: Vec<usize> = analysis
        .moves
        .iter()
        .filter(|m| (m.value.outcome(), m.value.plies()) == (Some(Outcome::Win), Some(1)))
        .map(|m| Geometry::CONNECT_FOUR.column_of(m.index))
        .collect();
    assert_eq!(
        winning,
        [1, 5],
        "X completes 1-2-3-4 or 2-3-4-5 on the bottom row"
    );
}

#[test]
fn a_book_is_the_same_byte_for_byte_on_one_thread_or_two() {
    // Every position of 4 rows by 5 columns up to 4 stones: small enough to build in a moment.
    let progress = |_: usize, _: usize| {};
    let one = build_book(gravity(4, 5, 4), 4, 1, &progress).expect("fits");
    let two = build_book(gravity(4, 5, 4), 4, 2, &progress).expect("fits");
    assert_eq!(one.to_bytes(), two.to_bytes());
    assert!(one.len() > 50, "{} positions", one.len());
    let read = Book::from_bytes(&one.to_bytes()).expect("reads");
    assert_eq!(read, one);
}

#[test]
fn the_shipped_book_is_what_the_generator_makes_of_its_deepest_level() {
    // The shipped book's scores of its deepest positions, backed up by the generator: the same
    // bytes, so its frontier, its shallower levels and its format are the generator's.
    let shipped_bytes = include_bytes!("../../src/engine/gravity/connect4.book");
    let shipped = shipped_book();
    let depth = book_depth();
    let builder = BookBuilder::new(Geometry::CONNECT_FOUR, depth).expect("7 x 6 takes a book");
    let scores: HashMap<u64, i8> = builder
        .frontier()
        .into_iter()
        .map(|key| {
            let score = shipped
                .get(u128::from(key), shipped.depth)
                .expect("every frontier position");
            (key, i8::try_from(score).expect("a byte"))
        })
        .collect();
    // `connect4-book plan --depth N` lists as many.
    let frontier = [(6, 8_231), (7, 27_109), (8, 91_295)];
    assert_eq!(
        Some(&(depth, scores.len())),
        frontier.iter().find(|f| f.0 == depth)
    );
    let rebuilt = builder.finish(&scores).expect("complete");
    assert_eq!(rebuilt.to_bytes(), shipped_bytes);
}

/// Runs the `connect4-book` tool on 4 rows × 5 columns at `depth` with `args`; its output.
fn book_tool(depth: usize, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_connect4-book"))
        .args(args)
        .args(["--rows", "4", "--cols", "5", "--depth", &depth.to_string()])
        .output()
        .expect("the book tool runs")
}

fn book_tool_ok(depth: usize, args: &[&str]) {
    let output = book_tool(depth, args);
    assert!(
        output.status.success(),
        "connect4-book {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn the_book_tool_gives_the_same_bytes_whatever_the_shards_threads_and_resumes() {
    let dir = std::env::temp_dir().join(format!("c4-book-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let depth = 6;
    let expected = build_book(gravity(4, 5, 4), depth, 1, &|_, _| {})
        .expect("fits")
        .to_bytes();

    // One machine, one thread, in one go.
    book_tool_ok(
        depth,
        &["build", "--threads", "1", "--out", &path("whole.book")],
    );
    assert_eq!(std::fs::read(path("whole.book")).unwrap(), expected);
    assert!(
        !std::path::Path::new(&path("whole.book.solved")).exists(),
        "the checkpoint is removed once the book is written"
    );

    // Three shards on two threads each; shard 1 stopped twice and resumed, its checkpoint
    // once cut in the middle of a line, as a kill during a write leaves it.
    let shard = |i: usize| path(&format!("shard-{i}.txt"));
    for i in [0, 2] {
        book_tool_ok(
            depth,
            &[
                "solve",
                "--shard",
                &format!("{i}/3"),
                "--threads",
                "2",
                "--checkpoint",
                &shard(i),
            ],
        );
    }
    book_tool_ok(
        depth,
        &[
            "solve",
            "--shard",
            "1/3",
            "--threads",
            "2",
            "--limit",
            "5",
            "--checkpoint",
            &shard(1),
        ],
    );
    let partial = std::fs::read_to_string(shard(1)).unwrap();
    assert_eq!(
        partial.lines().count(),
        1 + 5,
        "the header and five positions"
    );
    std::fs::write(shard(1), format!("{partial}1a")).unwrap();
    // Merging before the shards are complete fails, and names what is missing.
    let output = book_tool(
        depth,
        &[
            "merge",
            "--out",
            &path("early.book"),
            &shard(0),
            &shard(1),
            &shard(2),
        ],
    );
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("has no score"));
    book_tool_ok(
        depth,
        &[
            "solve",
            "--shard",
            "1/3",
            "--threads",
            "1",
            "--limit",
            "3",
            "--checkpoint",
            &shard(1),
        ],
    );
    book_tool_ok(
        depth,
        &[
            "solve",
            "--shard",
            "1/3",
            "--threads",
            "2",
            "--checkpoint",
            &shard(1),
        ],
    );
    // A shard of another run (the wrong shard) is refused when resuming.
    let output = book_tool(
        depth,
        &["solve", "--shard", "2/3", "--checkpoint", &shard(1)],
    );
    assert!(!output.status.success());

    book_tool_ok(
        depth,
        &[
            "merge",
            "--out",
            &path("merged.book"),
            &shard(2),
            &shard(1),
            &shard(0),
        ],
    );
    assert_eq!(std::fs::read(path("merged.book")).unwrap(), expected);
    // A checkpoint of another depth is refused.
    let output = book_tool(
        depth - 1,
        &["merge", "--out", &path("other.book"), &shard(0)],
    );
    assert!(!output.status.success());
    std::fs::remove_dir_all(&dir).ok();
}

/// Every geometry the engine accepts with gravity: rows and columns from 1 to 20 (15 unless
/// k = 5), every `k` up to the longer side, `(rows + 1) × cols` at most 128.
fn every_gravity_geometry() -> Vec<Geometry> {
    let side = u64::from(Geometry::MAX_SIDE);
    (1..=side)
        .flat_map(|rows| {
            (1..=side).flat_map(move |cols| {
                (1..=side).filter_map(move |k| {
                    Geometry::new(rows, cols, k)
                        .and_then(|g| g.with_gravity(true))
                        .ok()
                })
            })
        })
        .collect()
}

/// A legal move from a search capped at a few thousand nodes (and a deadline, should the cap
/// ever be ignored).
fn assert_answers_a_legal_move(position: &Position, context: &str) {
    let options = SuggestOptions {
        limits: SearchLimits {
            max_work: Some(2_000),
            deadline: Some(Instant::now() + Duration::from_secs(10)),
            ..SearchLimits::default()
        },
        ..SuggestOptions::default()
    };
    let suggestion = suggest(position, &options);
    let index = suggestion.chosen.index;
    assert!(
        position.legal_moves().contains(&index),
        "{context}: {index} is not a legal move"
    );
}

#[test]
fn every_gravity_geometry_validation_accepts_is_searched_to_a_legal_move() {
    let geometries = every_gravity_geometry();
    // Boards of 17 to 20 on a side exist only for k = 5 (47 of them).
    let long_sides = geometries
        .iter()
        .filter(|g| g.rows().max(g.cols()) > 16)
        .count();
    assert_eq!(long_sides, 47, "gravity geometries with a side over 16");
    let mut random = Random(0x9e37_79b9_7f4a_7c15);
    for geometry in geometries {
        let (rows, cols, k) = (geometry.rows(), geometry.cols(), geometry.k());
        let empty = Position::new(geometry, vec![None; geometry.cells()], None).expect("empty");
        assert_answers_a_legal_move(&empty, &format!("{rows} x {cols}, k = {k}, empty"));
        // A few random moves in, while the game goes on.
        let mut position = empty;
        for _ in 0..=random.below(6) {
            let moves = position.legal_moves();
            let played = position
                .try_play(moves[random.below(moves.len())])
                .expect("a legal move");
            if played.result.is_some() {
                break;
            }
            position = Position::new(geometry, played.cells, None).expect("in play");
        }
        let stones = position.cells().iter().flatten().count();
        assert_answers_a_legal_move(
            &position,
            &format!("{rows} x {cols}, k = {k}, {stones} stones"),
        );
    }
}

/// A position `empty` cells from the end of a random game on the board, `None` when the game
/// ends sooner.
fn random_late_position(random: &mut Random, board: &mut Plain, empty: usize) -> Option<()> {
    let cells = board.rows * board.cols;
    while board.stones + empty < cells {
        let free: Vec<usize> = (0..board.cols)
            .filter(|&c| board.landing(c).is_some())
            .collect();
        let start = random.below(free.len());
        let quiet = (0..free.len())
            .map(|i| free[(start + i) % free.len()])
            .find(|&c| {
                let won = board.drop(c);
                if won {
                    board.undo(c);
                }
                !won
            });
        quiet?;
    }
    Some(())
}

#[test]
#[ignore = "slow tier: cargo test --test engine -- --ignored slow_"]
fn slow_boards_with_a_side_of_17_to_20_match_a_plain_minimax_near_the_end() {
    let mut random = Random(0x2545_f491_4f6c_dd1d);
    // Long sides exist for k = 5 only (the geometries the engine takes).
    let sizes = [
        (5, 20, 5),
        (20, 5, 5),
        (1, 17, 5),
        (17, 1, 5),
        (17, 7, 5),
        (6, 17, 5),
        (5, 19, 5),
        (20, 6, 5),
    ];
    for (rows, cols, k) in sizes {
        check_random_late_positions(&mut random, (rows, cols, k), 3, 10);
    }
}

/// `count` random positions `empty` cells from the end on a `rows` × `cols` board with `k` in
/// a row, each checked against the oracle.
fn check_random_late_positions(
    random: &mut Random,
    (rows, cols, k): (usize, usize, usize),
    count: usize,
    empty: usize,
) {
    let mut checked = 0;
    while checked < count {
        let mut board = Plain::new(rows, cols, k);
        if random_late_position(random, &mut board, empty).is_some() {
            check_against_oracle(&mut board, &mut HashMap::new());
            checked += 1;
        }
    }
}

#[test]
fn random_9x5_and_10x6_positions_match_a_plain_minimax_near_the_end() {
    // The other boards of c4's test sets: 9 × 5 fits the solver's 64-bit board, 10 × 6
    // (70 bits) takes its 128-bit one.
    let mut random = Random(0x0009_0005_000a_0006);
    for (rows, cols) in [(5, 9), (6, 10)] {
        check_random_late_positions(&mut random, (rows, cols, 4), 4, 12);
    }
}
