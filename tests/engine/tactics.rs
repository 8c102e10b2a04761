//! Move tables agree with the tactics one and two moves ahead, whatever the budget: checked over
//! random positions with threats on 7 × 7, 10 × 10, 15 × 15 and 20 × 20 under every rule, and on
//! Connect Four, against a win test written here from the rules' definitions.
//!
//! - a listed move that wins at once is a proven win in 1;
//! - a listed move after which the opponent wins at once is a proven loss in 2;
//! - a move the engine calls a win in 3 wins after every reply (and a loss in 4 has a reply that
//!   does so for the opponent), checked here by brute force on the smaller boards;
//! - the ranked best moves hold no move that was not searched.

use crate::door::analyze;
use minimax_move::engine::{
    Geometry, MoveValue, Outcome, Player, Position, Rule, Scoring, SearchLimits,
};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};

use crate::oracle::{Shape, Win};

/// The board the oracle plays on.
#[derive(Clone)]
pub(crate) struct Board {
    rows: usize,
    cols: usize,
    k: usize,
    rule: Rule,
    gravity: bool,
    cells: Vec<Option<Player>>,
}

impl Board {
    /// Whether `p` putting a stone on the empty `cell` makes a line that wins by the rule's
    /// definition, by the rule checker of tests/common: `k` or more in a row; under standard
    /// (both) and renju (black, X) exactly `k`; under caro not exactly `k` with an opponent stone
    /// just beyond each end (the edge does not block).
    pub(crate) fn wins(&self, cell: usize, p: Player) -> bool {
        let shape = Shape::free(self.rows, self.cols, self.k);
        let mark = (Some(p), Some(p.opponent()));
        shape.wins(&self.cells, cell, mark, Win::of(self.rule, p))
    }

    fn playable(&self, cell: usize) -> bool {
        self.cells[cell].is_none()
            && (!self.gravity
                || cell + self.cols >= self.cells.len()
                || self.cells[cell + self.cols].is_some())
    }

    /// Whether `p`, to move, wins at once somewhere (a five is never forbidden).
    pub(crate) fn can_win(&self, p: Player) -> bool {
        (0..self.cells.len()).any(|c| self.playable(c) && self.wins(c, p))
    }

    pub(crate) fn with(&self, cell: usize, p: Player) -> Self {
        let mut next = self.clone();
        next.cells[cell] = Some(p);
        next
    }
}

pub(crate) fn board_of(position: &Position) -> Board {
    let g = position.geometry();
    Board {
        rows: g.rows(),
        cols: g.cols(),
        k: g.k(),
        rule: g.rule(),
        gravity: g.is_gravity(),
        cells: position.cells().to_vec(),
    }
}

/// Whether the side to move of `position` wins after every legal reply of the opponent to
/// `first`, found by brute force with the engine's legality (renju's forbidden points) and the
/// oracle's win test.
fn wins_in_three(position: &Position, first: usize) -> bool {
    let mover = position.to_move();
    let board = board_of(position);
    if board.wins(first, mover) {
        return false;
    }
    let Some(next) = position.try_play(first).expect("legal").next else {
        return false;
    };
    let after = board.with(first, mover);
    if after.can_win(mover.opponent()) {
        return false;
    }
    let replies = next.legal_moves();
    !replies.is_empty()
        && replies
            .iter()
            .all(|&reply| after.with(reply, mover.opponent()).can_win(mover))
}

/// Random positions with threats: a random game on `geometry` where each move extends one of the
/// mover's own lines half of the time, stopped before it ends, at `stones` stones or fewer.
fn random_position(geometry: Geometry, stones: usize, rng: &mut ChaCha8Rng) -> Option<Position> {
    let mut position = Position::new(geometry, vec![None; geometry.cells()], None).ok()?;
    for _ in 0..stones {
        let moves = position.legal_moves();
        let own: Vec<usize> = moves
            .iter()
            .copied()
            .filter(|&m| {
                let (r, c) = (
                    (m / geometry.cols()) as isize,
                    (m % geometry.cols()) as isize,
                );
                (-1..=1).any(|dr| {
                    (-1..=1).any(|dc| {
                        let (rr, cc) = (r + dr, c + dc);
                        rr >= 0
                            && cc >= 0
                            && (rr as usize) < geometry.rows()
                            && (cc as usize) < geometry.cols()
                            && position.cells()[rr as usize * geometry.cols() + cc as usize]
                                == Some(position.to_move())
                    })
                })
            })
            .collect();
        let pool = if !own.is_empty() && rng.next_u32().is_multiple_of(2) {
            &own
        } else {
            &moves
        };
        let centre = geometry.cells() / 2;
        let pick = if position.empty_count() == geometry.cells() {
            centre
        } else {
            pool[rng.next_u32() as usize % pool.len()]
        };
        let played = position.try_play(pick).ok()?;
        position = played.next?;
    }
    Some(position)
}

fn check(position: &Position, brute_force: bool) -> Result<(), String> {
    let limits = SearchLimits {
        max_work: Some(20_000),
        all_moves: true,
        ..SearchLimits::default()
    };
    let analysis = analyze(position, Scoring::Depth, &limits);
    let mover = position.to_move();
    let board = board_of(position);
    let context = || format!("{} {:?} {position}", position.geometry().rule(), mover);
    for entry in &analysis.moves {
        let (outcome, plies) = (entry.value.outcome(), entry.value.plies());
        if board.wins(entry.index, mover) {
            if (outcome, plies) != (Some(Outcome::Win), Some(1)) {
                return Err(format!(
                    "{}: {} wins at once, but {:?}",
                    context(),
                    entry.index,
                    entry.value
                ));
            }
            continue;
        }
        let after = board.with(entry.index, mover);
        if after.can_win(mover.opponent()) {
            if (outcome, plies) != (Some(Outcome::Loss), Some(2)) {
                return Err(format!(
                    "{}: {} lets the opponent win at once, but {:?}",
                    context(),
                    entry.index,
                    entry.value
                ));
            }
            continue;
        }
        if brute_force
            && (outcome, plies) == (Some(Outcome::Win), Some(3))
            && !wins_in_three(position, entry.index)
        {
            return Err(format!("{}: {} called a win in 3", context(), entry.index));
        }
        if brute_force && (outcome, plies) == (Some(Outcome::Loss), Some(4)) {
            let next = position
                .try_play(entry.index)
                .expect("legal")
                .next
                .expect("in play");
            if !next.legal_moves().iter().any(|&r| wins_in_three(&next, r)) {
                return Err(format!("{}: {} called a loss in 4", context(), entry.index));
            }
        }
    }
    let ranked = analysis.ranked(position.geometry());
    // The first entry is the best move, shown whatever it is; the ranking proper follows it.
    if let Some(m) = ranked.iter().skip(1).find(|m| !m.searched) {
        return Err(format!(
            "{}: {} ranked but not searched",
            context(),
            m.index
        ));
    }
    if !matches!(
        analysis.best_move().value,
        MoveValue::Proven { .. } | MoveValue::Estimate(_)
    ) {
        unreachable!();
    }
    Ok(())
}

fn sweep(rows: u64, cols: u64, rules: &[Rule], games: usize, stones: &[usize], brute_force: bool) {
    let mut rng = ChaCha8Rng::seed_from_u64(rows * 100 + cols);
    for &rule in rules {
        let geometry = Geometry::new(rows, cols, 5)
            .unwrap()
            .with_rule(rule)
            .unwrap();
        let mut checked = 0;
        for game in 0..games {
            let count = stones[game % stones.len()];
            if let Some(position) = random_position(geometry, count, &mut rng) {
                check(&position, brute_force).unwrap_or_else(|e| panic!("{e}"));
                checked += 1;
            }
        }
        assert!(checked > games / 2, "{rule}: only {checked} positions");
    }
}

#[test]
fn seven_by_seven_move_tables_agree_with_the_tactics_under_every_rule() {
    sweep(7, 7, &Rule::ALL, 24, &[6, 9, 12, 15], true);
}

#[test]
fn ten_by_ten_move_tables_agree_with_the_tactics_under_every_rule() {
    sweep(10, 10, &Rule::ALL, 16, &[10, 14, 18, 24], true);
}

#[test]
fn fifteen_by_fifteen_move_tables_agree_with_the_tactics_under_every_rule() {
    sweep(15, 15, &Rule::ALL, 12, &[12, 18, 26, 34], false);
}

#[test]
fn twenty_by_twenty_move_tables_agree_with_the_tactics_under_every_rule() {
    sweep(20, 20, &Rule::ALL, 6, &[16, 30], false);
}

#[test]
fn connect_four_move_tables_agree_with_the_tactics() {
    let geometry = Geometry::new(6, 7, 4).unwrap().with_gravity(true).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for game in 0..20 {
        if let Some(position) = random_position(geometry, 8 + game % 12, &mut rng) {
            check(&position, true).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

/// O's four on a1–d1 against the edge, X to move on 15 × 15: only e1 does not lose at once, and
/// every other move is a proven loss in 2 under every rule; with O's open four on b1–e1 every
/// move loses.
#[test]
fn a_four_makes_every_move_but_its_block_a_proven_loss() {
    for rule in Rule::ALL {
        let geometry = Geometry::new(15, 15, 5).unwrap().with_rule(rule).unwrap();
        for (fours, blocks) in [(0..4, vec![14 * 15 + 4]), (1..5, vec![])] {
            let mut cells = vec![None; 225];
            for c in fours {
                cells[14 * 15 + c] = Some(Player::O);
            }
            for cell in [112, 98, 126, 80] {
                cells[cell] = Some(Player::X);
            }
            let position = Position::new(geometry, cells, Some(Player::X)).unwrap();
            check(&position, false).unwrap();
            let analysis = analyze(
                &position,
                Scoring::Depth,
                &SearchLimits {
                    max_work: Some(1_000),
                    all_moves: true,
                    ..SearchLimits::default()
                },
            );
            for m in &analysis.moves {
                let lost = m.value.outcome() == Some(Outcome::Loss);
                assert_eq!(
                    lost,
                    !blocks.contains(&m.index),
                    "{rule} {}: {:?}",
                    m.index,
                    m.value
                );
            }
        }
    }
}
