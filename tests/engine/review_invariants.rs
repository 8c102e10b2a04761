//! Reviews agree with the game: over games played by the engine against itself (with a random
//! move now and then, so that there are mistakes to find) on 3 × 3, Connect Four, 10 × 10 and
//! 15 × 15 under every rule, every review holds:
//!
//! - a move the review's own first search chose is never worse than `good` (unless proven);
//! - a move that lets the opponent win at once is a `blunder`, unless every move did;
//! - in a decided game the turning point is a move of the side that lost;
//! - an estimate is never drawn as a proven result on the chart (strictly inside (-1, 1)).

use crate::door::{review, suggest};
use std::time::{Duration, Instant};

use minimax_move::engine::{
    Game, Geometry, Label, Player, Position, Rule, SearchLimits, SuggestOptions,
};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};

use super::tactics::board_of;

/// A game from the empty board: the engine's move within `limits`, or a random legal move one
/// time in `random_one_in`.
fn engine_game(
    geometry: Geometry,
    limits: &SearchLimits,
    random_one_in: u32,
    rng: &mut ChaCha8Rng,
) -> Vec<usize> {
    let mut position = Position::new(geometry, vec![None; geometry.cells()], None).unwrap();
    let mut moves = Vec::new();
    loop {
        let legal = position.legal_moves();
        let cell = if moves.len() > 1 && rng.next_u32().is_multiple_of(random_one_in) {
            legal[rng.next_u32() as usize % legal.len()]
        } else {
            let options = SuggestOptions {
                limits: fresh(limits),
                ..SuggestOptions::default()
            };
            suggest(&position, &options).chosen.index
        };
        moves.push(cell);
        match position.try_play(cell).unwrap().next {
            Some(next) => position = next,
            None => return moves,
        }
    }
}

/// `limits` with its deadline, if any, moved to the same distance from now.
fn fresh(limits: &SearchLimits) -> SearchLimits {
    SearchLimits {
        deadline: limits
            .deadline
            .map(|_| Instant::now() + Duration::from_millis(60)),
        ..limits.clone()
    }
}

fn check(geometry: Geometry, moves: &[usize], limits: &SearchLimits) -> Result<(), String> {
    let game = Game::new(geometry, Player::X, moves).unwrap();
    let reviewed = review(&game, &fresh(limits));
    let context = || format!("{geometry:?} {moves:?}");
    let mut position = Position::new(geometry, vec![None; geometry.cells()], None).unwrap();
    for m in &reviewed.moves {
        if m.cell == m.first_choice && !m.value.is_exact() && m.label > Label::Good {
            return Err(format!(
                "{}: move {} was the first choice, but {:?}",
                context(),
                m.number,
                m.label
            ));
        }
        let board = board_of(&position);
        let mover = position.to_move();
        let lets_win = |cell: usize| {
            !board.wins(cell, mover) && board.with(cell, mover).can_win(mover.opponent())
        };
        if lets_win(m.cell)
            && !position.legal_moves().into_iter().all(lets_win)
            && m.label != Label::Blunder
        {
            return Err(format!(
                "{}: move {} lets the opponent win at once, but {:?}",
                context(),
                m.number,
                m.label
            ));
        }
        if !m.value.is_exact() && m.value_for_x.abs() >= 1.0 {
            return Err(format!(
                "{}: move {} is estimated but charted at {}",
                context(),
                m.number,
                m.value_for_x
            ));
        }
        match position.try_play(m.cell).unwrap().next {
            Some(next) => position = next,
            None => break,
        }
    }
    if let (Some(winner), Some(turn)) =
        (game.result().and_then(|r| r.winner), reviewed.turning_point)
        && reviewed.moves[turn - 1].player == winner
    {
        return Err(format!(
            "{}: {winner} won, but the turning point is its move {turn}",
            context()
        ));
    }
    Ok(())
}

fn sweep(geometry: Geometry, games: usize, limits: SearchLimits, random_one_in: u32) {
    let mut rng = ChaCha8Rng::seed_from_u64(geometry.cells() as u64);
    for _ in 0..games {
        let moves = engine_game(geometry, &limits, random_one_in, &mut rng);
        check(geometry, &moves, &limits).unwrap_or_else(|e| panic!("{e}"));
    }
}

fn work(max_work: u64) -> SearchLimits {
    SearchLimits {
        max_work: Some(max_work),
        ..SearchLimits::default()
    }
}

#[test]
fn reviews_of_tic_tac_toe_games_hold_the_invariants() {
    sweep(Geometry::TIC_TAC_TOE, 40, SearchLimits::default(), 3);
}

#[test]
fn reviews_of_connect_four_games_hold_the_invariants() {
    let geometry = Geometry::new(6, 7, 4).unwrap().with_gravity(true).unwrap();
    let limits = SearchLimits {
        deadline: Some(Instant::now()),
        ..SearchLimits::default()
    };
    sweep(geometry, 3, limits, 4);
}

#[test]
fn reviews_of_ten_by_ten_games_hold_the_invariants_under_every_rule() {
    for rule in Rule::ALL {
        let geometry = Geometry::new(10, 10, 5).unwrap().with_rule(rule).unwrap();
        sweep(geometry, 2, work(15_000), 5);
    }
}

#[test]
fn reviews_of_fifteen_by_fifteen_games_hold_the_invariants_under_every_rule() {
    for rule in Rule::ALL {
        let geometry = Geometry::new(15, 15, 5).unwrap().with_rule(rule).unwrap();
        sweep(geometry, 2, work(15_000), 5);
    }
}
