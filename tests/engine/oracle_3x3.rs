//! The 3 × 3 engine against an independent oracle: a plain, unpruned minimax written here, sharing
//! no code with the crate's solved table or search.
//!
//! Every legal position in play is checked, in games where X starts and where O starts, in both
//! scorings, move tables included; the known perft counts are reproduced; the engine is shown never
//! to lose against any opponent; and the validation rules are exercised case by case.

use crate::door::analyze;
use std::collections::{HashMap, HashSet};

use crate::tic_tac_toe::has_line;

use minimax_move::engine::{
    Analysis, GameResult, Geometry, MoveScore, MoveValue, Outcome, Player, Position, PositionError,
    Scoring, SearchLimits,
};

// ---------------------------------------------------------------------------------------------
// The oracle: a board of 9 bytes (0 empty, 1 X, 2 O) and a plain minimax over it.
// ---------------------------------------------------------------------------------------------

type Board = [u8; 9];

const EMPTY: u8 = 0;
const X: u8 = 1;
const O: u8 = 2;

const fn other(mark: u8) -> u8 {
    if mark == X { O } else { X }
}

fn is_full(board: &Board) -> bool {
    board.iter().all(|&c| c != EMPTY)
}

fn is_terminal(board: &Board) -> bool {
    has_line(board, X) || has_line(board, O) || is_full(board)
}

fn empties(board: &Board) -> impl Iterator<Item = usize> + '_ {
    (0..9).filter(|&i| board[i] == EMPTY)
}

/// Plain minimax in the Ruby article's style: scores from `root`'s point of view, a win `depth`
/// plies from the root worth `10 - depth`, a loss `depth - 10`, a draw 0.
fn depth_minimax(board: &mut Board, mover: u8, root: u8, depth: i32) -> i32 {
    if has_line(board, root) {
        return 10 - depth;
    }
    if has_line(board, other(root)) {
        return depth - 10;
    }
    if is_full(board) {
        return 0;
    }
    let mut best = if mover == root { i32::MIN } else { i32::MAX };
    for i in 0..9 {
        if board[i] != EMPTY {
            continue;
        }
        board[i] = mover;
        let score = depth_minimax(board, other(mover), root, depth + 1);
        board[i] = EMPTY;
        best = if mover == root {
            best.max(score)
        } else {
            best.min(score)
        };
    }
    best
}

/// Plain minimax in the freeCodeCamp article's style: +10 for a win of `root`, -10 for a loss, 0
/// for a draw, however far away.
fn classic_minimax(board: &mut Board, mover: u8, root: u8) -> i32 {
    if has_line(board, root) {
        return 10;
    }
    if has_line(board, other(root)) {
        return -10;
    }
    if is_full(board) {
        return 0;
    }
    let mut best = if mover == root { i32::MIN } else { i32::MAX };
    for i in 0..9 {
        if board[i] != EMPTY {
            continue;
        }
        board[i] = mover;
        let score = classic_minimax(board, other(mover), root);
        board[i] = EMPTY;
        best = if mover == root {
            best.max(score)
        } else {
            best.min(score)
        };
    }
    best
}

/// What the oracle says about one move: its score under both scorings, its outcome and plies.
#[derive(Clone, Copy, Debug)]
struct OracleMove {
    index: usize,
    depth: i32,
    classic: i32,
    outcome: Outcome,
    plies: u32,
}

/// Every legal move of `board` for `mover`, scored by the oracle, by ascending index.
fn oracle_moves(board: &Board, mover: u8) -> Vec<OracleMove> {
    let empty = empties(board).count() as u32;
    empties(board)
        .map(|index| {
            let mut after = *board;
            after[index] = mover;
            let depth = depth_minimax(&mut after, other(mover), mover, 1);
            let classic = classic_minimax(&mut after, other(mover), mover);
            let (outcome, plies) = match depth.signum() {
                1 => (Outcome::Win, (10 - depth) as u32),
                -1 => (Outcome::Loss, (10 + depth) as u32),
                _ => (Outcome::Draw, empty),
            };
            OracleMove {
                index,
                depth,
                classic,
                outcome,
                plies,
            }
        })
        .collect()
}

/// The move table the engine should return under `scoring`.
fn expected_table(moves: &[OracleMove], scoring: Scoring) -> Vec<MoveScore> {
    moves
        .iter()
        .map(|m| MoveScore {
            index: m.index,
            value: MoveValue::Proven {
                score: match scoring {
                    Scoring::Depth => m.depth,
                    Scoring::Classic => m.classic,
                },
                outcome: m.outcome,
                plies: m.plies,
            },
            searched: true,
        })
        .collect()
}

/// The highest score, the lowest index among equals.
fn expected_best(table: &[MoveScore]) -> MoveScore {
    let mut best = table[0];
    for m in &table[1..] {
        if m.value.score() > best.value.score() {
            best = *m;
        }
    }
    best
}

// ---------------------------------------------------------------------------------------------
// Enumeration: the game tree from the empty board, with X or O starting.
// ---------------------------------------------------------------------------------------------

#[derive(Default)]
struct Census {
    nodes: u64,
    games: u64,
    /// Every distinct board met, with whether it is finished.
    boards: HashMap<Board, bool>,
    /// Every distinct (board, side to move) in play.
    in_play: HashSet<(Board, u8)>,
    /// Games won by X, by O, drawn.
    x_wins: u64,
    o_wins: u64,
    draws: u64,
}

fn walk(board: &mut Board, mover: u8, census: &mut Census) {
    census.nodes += 1;
    let terminal = is_terminal(board);
    census.boards.insert(*board, terminal);
    if terminal {
        census.games += 1;
        if has_line(board, X) {
            census.x_wins += 1;
        } else if has_line(board, O) {
            census.o_wins += 1;
        } else {
            census.draws += 1;
        }
        return;
    }
    census.in_play.insert((*board, mover));
    for i in 0..9 {
        if board[i] == EMPTY {
            board[i] = mover;
            walk(board, other(mover), census);
            board[i] = EMPTY;
        }
    }
}

fn census(first: u8) -> Census {
    let mut census = Census::default();
    walk(&mut [EMPTY; 9], first, &mut census);
    census
}

fn player(mark: u8) -> Player {
    if mark == X { Player::X } else { Player::O }
}

fn cells(board: &Board) -> Vec<Option<Player>> {
    board
        .iter()
        .map(|&c| (c != EMPTY).then(|| player(c)))
        .collect()
}

fn compact(board: &Board) -> String {
    board
        .iter()
        .map(|&c| match c {
            X => 'X',
            O => 'O',
            _ => '.',
        })
        .collect()
}

fn board_from_code(mut code: usize) -> Board {
    let mut board = [EMPTY; 9];
    for cell in &mut board {
        *cell = (code % 3) as u8;
        code /= 3;
    }
    board
}

fn position(board: &Board, mover: u8) -> Position {
    Position::new(Geometry::TIC_TAC_TOE, cells(board), Some(player(mover)))
        .unwrap_or_else(|e| panic!("{} with {} to move is legal: {e}", compact(board), mover))
}

fn engine(board: &str, scoring: Scoring) -> Analysis {
    let cells = Position::parse_compact(board).expect("a compact board");
    let position = Position::new(Geometry::TIC_TAC_TOE, cells, None).expect("a legal board");
    analyze(&position, scoring, &SearchLimits::default())
}

/// Every (board, side to move) in play, in games where X starts and games where O starts.
fn every_position_in_play() -> Vec<(Board, u8)> {
    let mut all: HashSet<(Board, u8)> = census(X).in_play;
    all.extend(census(O).in_play);
    let mut all: Vec<(Board, u8)> = all.into_iter().collect();
    all.sort_unstable();
    all
}

// ---------------------------------------------------------------------------------------------
// Counts.
// ---------------------------------------------------------------------------------------------

#[test]
fn game_tree_has_the_known_perft_counts() {
    let census = census(X);
    assert_eq!(
        census.nodes, 549_946,
        "nodes of the game tree, root included"
    );
    assert_eq!(census.games, 255_168, "complete games");
    assert_eq!(census.x_wins, 131_184, "games X wins");
    assert_eq!(census.o_wins, 77_904, "games O wins");
    assert_eq!(census.draws, 46_080, "drawn games");
    assert_eq!(census.boards.len(), 5_478, "distinct legal positions");
    let in_play = census.boards.values().filter(|&&t| !t).count();
    assert_eq!(in_play, 4_520, "distinct positions still in play");
    assert_eq!(census.in_play.len(), 4_520, "each has one side to move");
}

#[test]
fn games_where_o_starts_mirror_games_where_x_starts() {
    let (x_first, o_first) = (census(X), census(O));
    assert_eq!(o_first.nodes, x_first.nodes);
    assert_eq!(o_first.games, x_first.games);
    assert_eq!(o_first.boards.len(), x_first.boards.len());
    assert_eq!(o_first.o_wins, x_first.x_wins);
    let swapped: HashSet<(Board, u8)> = x_first
        .in_play
        .iter()
        .map(|(b, m)| {
            (
                b.map(|c| if c == EMPTY { EMPTY } else { other(c) }),
                other(*m),
            )
        })
        .collect();
    assert_eq!(swapped, o_first.in_play);
    // Boards with equal counts are in play for both sides.
    assert_eq!(every_position_in_play().len(), 2 * 4_520);
}

#[test]
fn validating_all_3_to_the_9_boards_accepts_exactly_the_reachable_positions() {
    let (x_first, o_first) = (census(X), census(O));
    let mut reachable: HashMap<Board, bool> = x_first.boards.clone();
    reachable.extend(o_first.boards.iter().map(|(b, t)| (*b, *t)));
    let (mut accepted, mut accepted_x_first, mut finished, mut impossible) = (0, 0, 0, 0);
    for code in 0..19_683 {
        let board = board_from_code(code);
        let shown = compact(&board);
        let result = Position::new(Geometry::TIC_TAC_TOE, cells(&board), None);
        match reachable.get(&board) {
            Some(false) => {
                let position = result.unwrap_or_else(|e| panic!("{shown} is in play: {e}"));
                let x = board.iter().filter(|&&c| c == X).count();
                let o = board.iter().filter(|&&c| c == O).count();
                let inferred = if x > o { Player::O } else { Player::X };
                assert_eq!(
                    position.to_move(),
                    inferred,
                    "side to move inferred for {shown}"
                );
                accepted += 1;
                if x_first.boards.get(&board) == Some(&false) {
                    accepted_x_first += 1;
                }
            }
            Some(true) => {
                assert!(
                    matches!(result, Err(PositionError::GameOver(_))),
                    "{shown} is a finished game, got {result:?}"
                );
                finished += 1;
            }
            None => {
                assert!(
                    matches!(
                        result,
                        Err(PositionError::UnbalancedCounts { .. }
                            | PositionError::BothHaveLines
                            | PositionError::WinnerDidNotMoveLast { .. }
                            | PositionError::DisjointLines { .. })
                    ),
                    "{shown} cannot arise in a game, got {result:?}"
                );
                impossible += 1;
            }
        }
    }
    assert_eq!(
        accepted_x_first, 4_520,
        "positions in play in games where X starts"
    );
    assert_eq!(accepted + finished + impossible, 19_683);
    // Every accepted board is in play for X or O, and equal-count boards for both.
    let both: HashSet<(Board, u8)> = every_position_in_play().into_iter().collect();
    let boards: HashSet<Board> = both.iter().map(|(b, _)| *b).collect();
    assert_eq!(accepted, boards.len());
}

#[test]
fn a_named_side_to_move_is_accepted_exactly_when_it_can_be_on_move() {
    let in_play: HashSet<(Board, u8)> = every_position_in_play().into_iter().collect();
    let boards: HashSet<Board> = in_play.iter().map(|(b, _)| *b).collect();
    for board in boards {
        for mover in [X, O] {
            let result = Position::new(Geometry::TIC_TAC_TOE, cells(&board), Some(player(mover)));
            if in_play.contains(&(board, mover)) {
                assert_eq!(
                    result.map(|p| p.to_move()),
                    Ok(player(mover)),
                    "{} with {mover} to move",
                    compact(&board)
                );
            } else {
                assert!(
                    matches!(result, Err(PositionError::WrongPlayer { .. })),
                    "{} with {mover} to move is the wrong player, got {result:?}",
                    compact(&board)
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The engine against the oracle.
// ---------------------------------------------------------------------------------------------

#[test]
fn oracles_agree_that_classic_scores_are_the_sign_of_depth_scores() {
    for (board, mover) in every_position_in_play() {
        for m in oracle_moves(&board, mover) {
            assert_eq!(
                m.classic,
                10 * m.depth.signum(),
                "{} move {}",
                compact(&board),
                m.index
            );
        }
    }
}

fn check_every_position(scoring: Scoring) {
    let positions = every_position_in_play();
    assert_eq!(positions.len(), 9_040);
    for (board, mover) in positions {
        let position = position(&board, mover);
        let analysis = analyze(&position, scoring, &SearchLimits::default());
        let table = expected_table(&oracle_moves(&board, mover), scoring);
        let shown = format!(
            "{} with {} to move, {scoring:?}",
            compact(&board),
            player(mover)
        );
        assert_eq!(analysis.moves, table, "move table of {shown}");
        let best = expected_best(&table);
        assert_eq!(*analysis.best_move(), best, "best move of {shown}");
        assert!(analysis.is_exact(), "3x3 answers are exact: {shown}");
        assert_eq!(analysis.nodes, 0, "3x3 answers are lookups: {shown}");
    }
}

#[test]
fn depth_scoring_matches_plain_minimax_on_every_position_in_play() {
    check_every_position(Scoring::Depth);
}

#[test]
fn classic_scoring_matches_plain_minimax_on_every_position_in_play() {
    check_every_position(Scoring::Classic);
}

#[test]
fn inferred_side_to_move_gives_the_same_analysis_as_naming_it() {
    for (board, mover) in census(X).in_play {
        let inferred = Position::new(Geometry::TIC_TAC_TOE, cells(&board), None).unwrap();
        assert_eq!(inferred.to_move(), player(mover), "{}", compact(&board));
        assert_eq!(
            analyze(&inferred, Scoring::Depth, &SearchLimits::default()),
            analyze(
                &position(&board, mover),
                Scoring::Depth,
                &SearchLimits::default()
            ),
            "{}",
            compact(&board)
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Never loses.
// ---------------------------------------------------------------------------------------------

#[derive(Default, Debug)]
struct Record {
    wins: u64,
    draws: u64,
    losses: Vec<String>,
}

/// Plays the engine's best move for `engine_side` and every possible reply for the other side,
/// to the end of every game.
fn play_out(
    board: &mut Board,
    mover: u8,
    engine_side: u8,
    scoring: Scoring,
    history: &mut Vec<usize>,
    record: &mut Record,
) {
    if has_line(board, engine_side) {
        record.wins += 1;
        return;
    }
    if has_line(board, other(engine_side)) {
        record.losses.push(format!("{history:?}"));
        return;
    }
    if is_full(board) {
        record.draws += 1;
        return;
    }
    let replies: Vec<usize> = if mover == engine_side {
        let analysis = analyze(&position(board, mover), scoring, &SearchLimits::default());
        vec![analysis.best_move().index]
    } else {
        empties(board).collect()
    };
    for i in replies {
        assert_eq!(board[i], EMPTY, "the engine suggests an empty cell");
        board[i] = mover;
        history.push(i);
        play_out(board, other(mover), engine_side, scoring, history, record);
        history.pop();
        board[i] = EMPTY;
    }
}

#[test]
fn best_move_never_loses_against_any_opponent_as_either_side_whoever_starts() {
    for scoring in [Scoring::Depth, Scoring::Classic] {
        for first in [X, O] {
            for engine_side in [X, O] {
                let mut record = Record::default();
                play_out(
                    &mut [EMPTY; 9],
                    first,
                    engine_side,
                    scoring,
                    &mut Vec::new(),
                    &mut record,
                );
                let who = format!(
                    "engine as {} when {} starts, {scoring:?}",
                    player(engine_side),
                    player(first)
                );
                assert!(record.losses.is_empty(), "{who} lost: {:?}", record.losses);
                assert!(record.wins > 0, "{who} wins some games against weak play");
                assert!(record.draws > 0, "{who} draws against best play");
            }
        }
    }
}

#[test]
fn best_move_never_loses_from_any_position_it_cannot_lose() {
    // Wherever the oracle says the side to move can avoid losing, the engine's move avoids it
    // against every continuation.
    for (board, mover) in every_position_in_play() {
        let value = oracle_moves(&board, mover)
            .iter()
            .map(|m| m.depth)
            .max()
            .unwrap();
        if value < 0 {
            continue;
        }
        let mut record = Record::default();
        play_out(
            &mut board.clone(),
            mover,
            mover,
            Scoring::Depth,
            &mut Vec::new(),
            &mut record,
        );
        assert!(
            record.losses.is_empty(),
            "{} with {} to move lost after {:?}",
            compact(&board),
            player(mover),
            record.losses
        );
        if value > 0 {
            assert_eq!(record.draws, 0, "{} is a forced win", compact(&board));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Golden vectors from DESIGN.md.
// ---------------------------------------------------------------------------------------------

fn table_of(analysis: &Analysis) -> Vec<(usize, i32)> {
    analysis
        .moves
        .iter()
        .map(|m| match m.value {
            MoveValue::Proven { score, .. } => (m.index, score),
            MoveValue::Estimate(h) => panic!("3x3 scores are exact, got {h}"),
        })
        .collect()
}

#[test]
fn seed_board_with_classic_scoring_plays_4_for_10() {
    let analysis = engine("O.XX.X.OO", Scoring::Classic);
    assert_eq!(analysis.best_move().index, 4);
    assert_eq!(analysis.best_move().value.score(), 10.0);
    assert_eq!(table_of(&analysis), vec![(1, -10), (4, 10), (6, -10)]);
}

#[test]
fn seed_board_with_depth_scoring_plays_4_for_9() {
    let analysis = engine("O.XX.X.OO", Scoring::Depth);
    let best = analysis.best_move();
    assert_eq!(
        (best.index, best.value),
        (
            4,
            MoveValue::Proven {
                outcome: Outcome::Win,
                plies: 1,
                score: 9
            }
        )
    );
    assert_eq!(table_of(&analysis), vec![(1, -8), (4, 9), (6, -8)]);
    assert!(
        analysis
            .moves
            .iter()
            .filter(|m| m.index != 4)
            .all(|m| m.value.outcome() == Some(Outcome::Loss) && m.value.plies() == Some(2))
    );
}

#[test]
fn depth_scoring_takes_the_immediate_win_where_classic_takes_a_slower_one() {
    let depth = engine("XXOOX.O..", Scoring::Depth);
    assert_eq!(depth.best_move().index, 7, "7 and 8 win at once");
    assert_eq!(depth.best_move().value.score(), 9.0);
    let classic = engine("XXOOX.O..", Scoring::Classic);
    assert_eq!(classic.best_move().index, 5, "5 wins too, more slowly");
    assert_eq!(classic.best_move().value.score(), 10.0);
    assert_eq!(classic.best_move().value.plies(), Some(3));
}

#[test]
fn depth_scoring_blocks_and_loses_as_late_as_possible_when_o_started() {
    let depth = engine(".....O.XO", Scoring::Depth);
    assert_eq!(depth.best_move().index, 2);
    assert_eq!(depth.best_move().value.score(), -6.0);
    assert_eq!(depth.best_move().value.outcome(), Some(Outcome::Loss));
    let classic = engine(".....O.XO", Scoring::Classic);
    assert!(
        classic.moves.iter().all(|m| m.value.score() == -10.0),
        "classic scores every move -10"
    );
    assert_eq!(classic.best_move().index, 0, "classic gives up with 0");
}

#[test]
fn empty_board_draws_everywhere_and_plays_0() {
    for scoring in [Scoring::Depth, Scoring::Classic] {
        let analysis = engine(".........", scoring);
        assert_eq!(analysis.moves.len(), 9);
        for m in &analysis.moves {
            assert_eq!(
                m.value,
                MoveValue::Proven {
                    outcome: Outcome::Draw,
                    plies: 9,
                    score: 0
                },
                "{scoring:?} move {}",
                m.index
            );
        }
        assert_eq!(analysis.best_move().index, 0, "{scoring:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Validation rules.
// ---------------------------------------------------------------------------------------------

fn validate(board: &str, player: Option<Player>) -> Result<Position, PositionError> {
    Position::new(
        Geometry::TIC_TAC_TOE,
        Position::parse_compact(board).expect("a compact board"),
        player,
    )
}

#[test]
fn rejects_boards_that_cannot_arise_in_a_game() {
    let cases: [(&str, PositionError, &str); 6] = [
        (
            "XX.......",
            PositionError::UnbalancedCounts { x: 2, o: 0 },
            "X has two more marks",
        ),
        (
            "OOO.X....",
            PositionError::UnbalancedCounts { x: 1, o: 3 },
            "O has two more marks, even with a line",
        ),
        (
            "XXXOOO...",
            PositionError::BothHaveLines,
            "both players have a line",
        ),
        (
            "OOOXX.XX.",
            PositionError::WinnerDidNotMoveLast {
                winner: Player::O,
                loser: Player::X,
            },
            "O has a line with fewer marks than X",
        ),
        (
            "XXX.OO.OO",
            PositionError::WinnerDidNotMoveLast {
                winner: Player::X,
                loser: Player::O,
            },
            "X has a line with fewer marks than O",
        ),
        (
            "XXXXXXOOO",
            PositionError::UnbalancedCounts { x: 6, o: 3 },
            "two parallel X lines need more X marks than counts allow on 3x3",
        ),
    ];
    for (board, expected, why) in cases {
        let result = validate(board, None);
        assert_eq!(result, Err(expected.clone()), "{board}: {why}");
    }
}

#[test]
fn rejects_a_board_whose_winner_has_two_disjoint_lines() {
    // On 3 x 3 two disjoint lines need six marks against at least five, more than nine cells; a
    // 4 x 4 board with k = 3 has room for them.
    let geometry = Geometry::new(4, 4, 3).unwrap();
    let cells = Position::parse_compact("XXX.O..OO.OOXXX.").unwrap();
    assert_eq!(
        Position::new(geometry, cells, None),
        Err(PositionError::DisjointLines { winner: Player::X })
    );
}

#[test]
fn accepts_a_double_line_through_one_cell_as_a_finished_game() {
    // X's last move at 0 completes the top row and the left column at once.
    assert_eq!(
        validate("XXXXOOXOO", None),
        Err(PositionError::GameOver(GameResult {
            winner: Some(Player::X),
            line: vec![0, 1, 2, 3, 6],
        }))
    );
    // The two diagonals through the centre.
    assert_eq!(
        validate("XOXOXOXOX", None),
        Err(PositionError::GameOver(GameResult {
            winner: Some(Player::X),
            line: vec![0, 2, 4, 6, 8],
        }))
    );
}

#[test]
fn reports_a_finished_game_with_its_winner_and_line() {
    let cases = [
        ("XXXOO....", Some(Player::X), vec![0, 1, 2], "X's top row"),
        (
            "XX.OOOX..",
            Some(Player::O),
            vec![3, 4, 5],
            "O's middle row",
        ),
        (
            "OX.OX.O.X",
            Some(Player::O),
            vec![0, 3, 6],
            "O's left column, O started",
        ),
        (
            "X.OXO.OX.",
            Some(Player::O),
            vec![2, 4, 6],
            "O's anti-diagonal",
        ),
        (
            "XOXXOOOXX",
            None,
            vec![],
            "a full board without a line is a draw",
        ),
    ];
    for (board, winner, line, why) in cases {
        let error = validate(board, None).expect_err(why);
        assert_eq!(
            error,
            PositionError::GameOver(GameResult { winner, line }),
            "{board}: {why}"
        );
    }
}

#[test]
fn rejects_a_side_to_move_that_contradicts_the_counts() {
    let cases = [
        (
            "X........",
            Player::X,
            Player::O,
            1,
            0,
            "X moved last, so O moves",
        ),
        (
            "O........",
            Player::O,
            Player::X,
            0,
            1,
            "O moved last, so X moves",
        ),
    ];
    for (board, given, expected, x, o, why) in cases {
        let error = validate(board, Some(given)).expect_err(why);
        assert_eq!(
            error,
            PositionError::WrongPlayer {
                given,
                expected,
                x,
                o
            },
            "{why}"
        );
    }
}

#[test]
fn equal_counts_allow_either_side_to_move_and_infer_x() {
    assert_eq!(validate("XO.......", None).unwrap().to_move(), Player::X);
    assert_eq!(
        validate("XO.......", Some(Player::X)).unwrap().to_move(),
        Player::X
    );
    assert_eq!(
        validate("XO.......", Some(Player::O)).unwrap().to_move(),
        Player::O
    );
    assert_eq!(
        validate(".........", Some(Player::O)).unwrap().to_move(),
        Player::O
    );
}

#[test]
fn rejects_a_board_of_the_wrong_length() {
    for (board, actual) in [("........", 8), ("..........", 10), ("", 0)] {
        assert_eq!(
            validate(board, None),
            Err(PositionError::WrongLength {
                expected: 9,
                actual
            }),
            "{actual} cells"
        );
    }
}

#[test]
fn compact_form_accepts_every_empty_marker_and_either_case() {
    let expected = Position::parse_compact("O.XX.X.OO").unwrap();
    for board in ["o-xX_x oO", "O.XX.X.OO", "o_xx-x.oo", "O XX X OO"] {
        assert_eq!(
            Position::parse_compact(board).unwrap(),
            expected,
            "{board:?}"
        );
    }
}

#[test]
fn compact_form_names_every_bad_character_with_its_position() {
    let errors = Position::parse_compact("O1XX4X6OO").unwrap_err();
    let found: Vec<(usize, char)> = errors.iter().map(|e| (e.position, e.found)).collect();
    assert_eq!(
        found,
        vec![(1, '1'), (4, '4'), (6, '6')],
        "digits are not cells"
    );
    let errors = Position::parse_compact("O.XX*X.OO").unwrap_err();
    assert_eq!((errors[0].position, errors[0].found), (4, '*'));
}
