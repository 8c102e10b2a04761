//! The gomoku rules on small boards (k = 5, fewer than 100 cells), which the small-board solver
//! proves: every move's value of a full analysis against a plain memoised minimax written here
//! from the rules' definitions, and the empty 3 × 5 and 5 × 5 boards proven draws within the
//! work budget of the service's default time limit (5 × 5 under renju within a hundredth of it).
//!
//! The oracle decides wins from each rule's text (the maximal run through the last stone and
//! what lies beyond its ends); for black's forbidden moves under renju it asks
//! [`renju::foul`], the reference checker that `tests/engine/renju.rs` holds against the
//! Gomocup referee.

use crate::door::analyze;
use std::collections::HashMap;

use minimax_move::engine::{
    Geometry, MoveValue, Outcome, Player, Position, Rule, Scoring, SearchLimits, renju,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::oracle::{Shape, Win};

fn geometry(rows: usize, cols: usize, rule: Rule) -> Geometry {
    Geometry::new(rows as u64, cols as u64, 5)
        .unwrap()
        .with_rule(rule)
        .unwrap()
}

/// Whether the stone `player` just put on `cell` wins under `rule`, by the rule checker of
/// tests/common: freestyle five or more, standard exactly five, renju exactly five for black (X)
/// and five or more for white, caro five or more except exactly five blocked at both ends.
fn wins(
    rows: usize,
    cols: usize,
    cells: &[Option<Player>],
    cell: usize,
    player: Player,
    rule: Rule,
) -> bool {
    let mark = (Some(player), Some(player.opponent()));
    Shape::free(rows, cols, 5).wins(cells, cell, mark, Win::of(rule, player))
}

/// A game value from the mover's view: the outcome and, for a win or a loss, its plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Known {
    outcome: Outcome,
    plies: u32,
}

impl Known {
    /// How the mover ranks it: wins first (faster better), then draws, then losses (slower better).
    fn rank(self) -> i64 {
        match self.outcome {
            Outcome::Win => 1_000 - i64::from(self.plies),
            Outcome::Draw => 0,
            Outcome::Loss => -1_000 + i64::from(self.plies),
        }
    }
}

/// Plain minimax with a memo of whole positions: no pruning, no shortcuts.
struct Oracle {
    rows: usize,
    cols: usize,
    rule: Rule,
    memo: HashMap<(Vec<Option<Player>>, Player), Option<Known>>,
}

impl Oracle {
    /// The cells `player` may play: every empty cell, but black's forbidden ones under renju.
    fn legal(&self, cells: &[Option<Player>], player: Player) -> Vec<usize> {
        (0..cells.len())
            .filter(|&i| cells[i].is_none())
            .filter(|&i| {
                self.rule != Rule::Renju
                    || player == Player::O
                    || renju::foul(self.rows, self.cols, cells, Player::X, i).is_none()
            })
            .collect()
    }

    /// The value of playing `cell` for `player`.
    fn move_value(
        &mut self,
        cells: &mut Vec<Option<Player>>,
        cell: usize,
        player: Player,
    ) -> Known {
        cells[cell] = Some(player);
        let value = if wins(self.rows, self.cols, cells, cell, player, self.rule) {
            Known {
                outcome: Outcome::Win,
                plies: 1,
            }
        } else {
            match self.best(cells, player.opponent()) {
                // The board is full, or the opponent has no move it may play: a draw.
                None => Known {
                    outcome: Outcome::Draw,
                    plies: 1,
                },
                Some(reply) => Known {
                    outcome: match reply.outcome {
                        Outcome::Win => Outcome::Loss,
                        Outcome::Loss => Outcome::Win,
                        Outcome::Draw => Outcome::Draw,
                    },
                    plies: reply.plies + 1,
                },
            }
        };
        cells[cell] = None;
        value
    }

    /// The best value for `player` to move, `None` when it has no move.
    fn best(&mut self, cells: &mut Vec<Option<Player>>, player: Player) -> Option<Known> {
        let key = (cells.clone(), player);
        if let Some(&known) = self.memo.get(&key) {
            return known;
        }
        let best = self
            .legal(cells, player)
            .into_iter()
            .map(|cell| self.move_value(cells, cell, player))
            .max_by_key(|v| v.rank());
        self.memo.insert(key, best);
        best
    }
}

/// Every legal move's value from the full analysis, checked against the oracle; returns how
/// many moves were checked.
fn check_every_move(position: &Position, rule: Rule) -> usize {
    let g = position.geometry();
    let mut oracle = Oracle {
        rows: g.rows(),
        cols: g.cols(),
        rule,
        memo: HashMap::new(),
    };
    let limits = SearchLimits {
        all_moves: true,
        ..SearchLimits::default()
    };
    let analysis = analyze(position, Scoring::Depth, &limits);
    let mut cells = position.cells().to_vec();
    let player = position.to_move();
    let legal = oracle.legal(&cells, player);
    let listed: Vec<usize> = analysis.moves.iter().map(|m| m.index).collect();
    assert_eq!(listed, legal, "{rule} {position}: the moves listed");
    for m in &analysis.moves {
        let expected = oracle.move_value(&mut cells, m.index, player);
        let MoveValue::Proven { outcome, plies, .. } = m.value else {
            panic!(
                "{rule} {position}: move {} is not proven: {:?}",
                m.index, m.value
            );
        };
        assert_eq!(
            outcome, expected.outcome,
            "{rule} {position}: move {}",
            m.index
        );
        if outcome != Outcome::Draw {
            assert_eq!(plies, expected.plies, "{rule} {position}: move {}", m.index);
        }
    }
    analysis.moves.len()
}

/// A random position in play under `rule` with `stones` stones (X first, alternating), or
/// `None` when the draw finished the game or broke a rule.
fn random_position(
    rows: usize,
    cols: usize,
    rule: Rule,
    stones: usize,
    rng: &mut ChaCha8Rng,
) -> Option<Position> {
    let g = geometry(rows, cols, rule);
    let mut position = Position::new(g, vec![None; rows * cols], None).ok()?;
    for _ in 0..stones {
        let moves = position.legal_moves();
        let cell = moves[rng.random_range(0..moves.len())];
        position = position.try_play(cell).ok()?.next?;
    }
    Some(position)
}

#[test]
#[ignore = "slow tier: cargo test --test engine -- --ignored slow_"]
fn slow_every_move_on_small_boards_matches_a_plain_minimax_under_each_rule() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    // (rows, cols, stones, positions): about a dozen empty cells each, so the oracle stays fast.
    let boards = [(3, 5, 3, 3), (4, 5, 8, 4), (5, 5, 13, 4), (5, 6, 18, 3)];
    for rule in Rule::ALL {
        let mut checked = 0;
        for (rows, cols, stones, count) in boards {
            let mut found = 0;
            while found < count {
                if let Some(position) = random_position(rows, cols, rule, stones, &mut rng) {
                    checked += check_every_move(&position, rule);
                    found += 1;
                }
            }
        }
        assert!(checked > 100, "{rule}: only {checked} moves checked");
    }
}

/// Whether some empty cell gives one side five or more in a row: a five threat, where the
/// rules disagree (an exact five, an overline, a blocked five, a forbidden point).
fn has_five_threat(position: &Position) -> bool {
    let g = position.geometry();
    let mut cells = position.cells().to_vec();
    let empty: Vec<usize> = position.empty_cells().collect();
    empty.into_iter().any(|i| {
        [Player::X, Player::O].into_iter().any(|player| {
            cells[i] = Some(player);
            let threat = wins(g.rows(), g.cols(), &cells, i, player, Rule::Freestyle);
            cells[i] = None;
            threat
        })
    })
}

#[test]
fn positions_with_a_five_threat_are_valued_by_each_rule() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let boards = [(4, 5, 9, 4), (5, 5, 13, 6), (5, 6, 18, 6)];
    for rule in Rule::ALL {
        let mut checked = 0;
        for (rows, cols, stones, count) in boards {
            let mut found = 0;
            while found < count {
                if let Some(position) = random_position(rows, cols, rule, stones, &mut rng)
                    && has_five_threat(&position)
                {
                    checked += check_every_move(&position, rule);
                    found += 1;
                }
            }
        }
        assert!(checked > 100, "{rule}: only {checked} moves checked");
    }
}

#[test]
fn empty_small_boards_are_proven_draws_under_every_rule_within_the_default_budget() {
    for (rows, cols) in [(3, 5), (5, 5)] {
        for rule in Rule::ALL {
            let g = geometry(rows, cols, rule);
            let position = Position::new(g, vec![None; rows * cols], None).unwrap();
            // The work budget the service grants for its default time limit of 3 s.
            let limits = SearchLimits {
                max_work: Some(SearchLimits::work_for(g, 3_000)),
                ..SearchLimits::default()
            };
            let analysis = analyze(&position, Scoring::Depth, &limits);
            let best = analysis.best_move().value;
            assert!(best.is_exact(), "{rows}×{cols} {rule}: {best:?}");
            assert_eq!(best.outcome(), Some(Outcome::Draw), "{rows}×{cols} {rule}");
        }
    }
}

#[test]
fn the_empty_five_by_five_under_renju_is_proven_within_a_hundredth_of_the_default_budget() {
    let g = geometry(5, 5, Rule::Renju);
    let position = Position::new(g, vec![None; 25], None).unwrap();
    // A hundredth of the work budget of the service's default time limit of 3 s, no clock:
    // black's pairing strategies settle white's attacks as they settle black's.
    let limits = SearchLimits {
        max_work: Some(SearchLimits::work_for(g, 3_000) / 100),
        ..SearchLimits::default()
    };
    let analysis = analyze(&position, Scoring::Depth, &limits);
    let best = analysis.best_move().value;
    assert!(best.is_exact(), "{best:?} after {} nodes", analysis.nodes);
    assert_eq!(best.outcome(), Some(Outcome::Draw));
}
