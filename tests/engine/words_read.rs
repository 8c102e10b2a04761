//! The sentences the engine says, read by an independent reader (`tests/common/words.rs`): each
//! family in its own terms (no "four" or "five" unless five in a row wins, columns on gravity
//! boards, coordinates on gomoku boards), numbers rounded for people.

use crate::door::{review, suggest};
use minimax_move::engine::{Game, Geometry, Player, Position, Rule, SearchLimits, SuggestOptions};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};

use crate::words::{Naming, problems};

fn budget(work: u64) -> SearchLimits {
    SearchLimits {
        max_depth: None,
        deadline: None,
        max_work: Some(work),
        all_moves: true,
        ..SearchLimits::default()
    }
}

fn explain(position: &Position, work: u64) -> String {
    let options = SuggestOptions {
        limits: budget(work),
        ..SuggestOptions::default()
    };
    suggest(position, &options).explanation
}

fn position(geometry: Geometry, board: &str) -> Position {
    let cells = board
        .chars()
        .map(|c| match c {
            'X' => Some(Player::X),
            'O' => Some(Player::O),
            _ => None,
        })
        .collect();
    Position::new(geometry, cells, None).expect("a legal position")
}

/// A random game of legal moves from the empty board, stopping at `plies` or at its end.
fn random_moves(geometry: Geometry, plies: usize, rng: &mut ChaCha8Rng) -> Vec<usize> {
    let mut position = Position::new(geometry, vec![None; geometry.cells()], None).unwrap();
    let mut moves = Vec::new();
    while moves.len() < plies {
        let playable = geometry.playable_cells(position.cells());
        let playable: Vec<usize> = playable
            .into_iter()
            .filter(|&c| position.try_play(c).is_ok())
            .collect();
        let cell = playable[(rng.next_u64() % playable.len() as u64) as usize];
        let played = position.try_play(cell).unwrap();
        moves.push(cell);
        match played.next {
            Some(next) => position = next,
            None => break,
        }
    }
    moves
}

/// The families: (name, geometry, naming, positions, work budget a position).
fn families() -> Vec<(&'static str, Geometry, Naming, usize, u64)> {
    let mnk = |r, c, k| Geometry::new(r, c, k).unwrap();
    vec![
        ("3 x 3", Geometry::TIC_TAC_TOE, Naming::Index, 40, 1),
        ("4 x 4, k = 3", mnk(4, 4, 3), Naming::Index, 16, 20_000),
        ("5 x 5, k = 4", mnk(5, 5, 4), Naming::Index, 12, 20_000),
        (
            "Connect Four",
            mnk(6, 7, 4).with_gravity(true).unwrap(),
            Naming::Column,
            12,
            20_000,
        ),
        (
            "15 x 15 renju",
            mnk(15, 15, 5).with_rule(Rule::Renju).unwrap(),
            Naming::Coordinate,
            4,
            20_000,
        ),
        (
            "7 x 7 standard",
            mnk(7, 7, 5).with_rule(Rule::Standard).unwrap(),
            Naming::Coordinate,
            6,
            20_000,
        ),
    ]
}

#[test]
fn a_tic_tac_toe_forced_win_is_told_in_threats_and_three_in_a_row() {
    let sentence = explain(&position(Geometry::TIC_TAC_TOE, "OXX......"), 1);
    assert_eq!(
        sentence,
        "O wins by force: a threat at 3, then a double threat at 4, and three in a row at 8."
    );
}

#[test]
fn explanations_and_review_sentences_speak_each_games_own_terms() {
    let mut rng = ChaCha8Rng::seed_from_u64(20);
    for (name, geometry, naming, count, work) in families() {
        for _ in 0..count {
            let plies = (rng.next_u64() % (geometry.cells().min(30) as u64)) as usize;
            let moves = random_moves(geometry, plies, &mut rng);
            let game = Game::new(geometry, Player::X, &moves).unwrap();
            let mut cells = vec![None; geometry.cells()];
            let mut mover = Player::X;
            for &cell in &moves {
                cells[cell] = Some(mover);
                mover = mover.opponent();
            }
            if game.result().is_none() {
                let position = Position::new(geometry, cells, Some(mover)).unwrap();
                let sentence = explain(&position, work);
                let found = problems(&sentence, geometry.k(), naming);
                assert!(found.is_empty(), "{name}: {sentence:?}: {found:?}");
            }
            let limits = budget(work * moves.len().max(1) as u64);
            let sentence = review(&game, &limits).sentence;
            let found = problems(&sentence, geometry.k(), naming);
            assert!(found.is_empty(), "{name} review: {sentence:?}: {found:?}");
        }
    }
}

#[test]
fn connect_four_sentences_name_columns_from_one() {
    let connect_four = Geometry::new(6, 7, 4).unwrap().with_gravity(true).unwrap();
    // X has three on the bottom row in columns 1 to 3; dropping in column 4 wins.
    let board = format!("{}OOO....XXX....", ".".repeat(28));
    let sentence = explain(&position(connect_four, &board), 100_000);
    assert_eq!(
        sentence,
        "X drops in column 4 and wins at once, completing a row across columns 1-4."
    );
    // O lets X complete the bottom row: the review names the columns played, from 1.
    let game = Game::new(connect_four, Player::X, &[35, 28, 36, 29, 37, 41, 38]).unwrap();
    let sentence = review(&game, &budget(200_000)).sentence;
    assert!(
        sentence.starts_with("X won; the turning point was move "),
        "{sentence}"
    );
    assert!(sentence.contains(" played in column "), "{sentence}");
    let found = problems(&sentence, 4, Naming::Column);
    assert!(found.is_empty(), "{sentence}: {found:?}");
}

#[test]
fn an_unproven_answer_says_so_plainly_with_two_decimals() {
    let geometry = Geometry::new(7, 7, 5).unwrap();
    let sentence = explain(&position(geometry, &".".repeat(49)), 2_000);
    assert!(
        sentence.contains("not proven, the search rates the position"),
        "{sentence}"
    );
    let (_, value) = sentence.rsplit_once('(').unwrap();
    let value = value.trim_end_matches(").");
    let (_, decimals) = value.split_once('.').unwrap();
    assert!(decimals.len() == 2 || value.ends_with("99"), "{sentence}");
    assert!(value.parse::<f64>().unwrap().abs() < 1.0, "{sentence}");
}
