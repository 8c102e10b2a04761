//! Pairing strategies: a side cannot win when its opponent can choose disjoint pairs of empty
//! cells with one pair inside every window the side can still complete (the opponent answers a
//! stone in a pair with its partner). Looked for with a small step budget; a pairing found is a
//! proof.

use super::grid::Grid;
use super::marks::Marks;
use crate::engine::game::Geometry;
use crate::engine::game::Player;

/// No partner in the pairing being built.
const NO_PARTNER: u16 = u16::MAX;

/// The pairing search and its scratch buffers.
pub struct Pairing {
    /// Each cell's partner in the pairing being built ([`NO_PARTNER`] when unpaired).
    partner: Vec<u16>,
    /// The empty cells of the windows to cover, window after window, and where each window
    /// starts.
    cells: Vec<u16>,
    starts: Vec<u32>,
    /// Steps left in the current search.
    budget: u32,
    /// The full line each window lies on, and the lines and cells met, for counting them.
    window_line: Vec<u16>,
    lines_seen: Marks,
    cells_seen: Marks,
}

impl Pairing {
    /// The search for boards of `geometry`.
    pub fn new(geometry: Geometry) -> Self {
        let (rows, cols, k) = (geometry.rows(), geometry.cols(), geometry.k());
        // The full line (board edge to board edge) each window lies on: two windows on different
        // lines share at most one cell.
        let mut line_ids = std::collections::HashMap::new();
        let window_line: Vec<u16> = geometry
            .line_list()
            .iter()
            .map(|window| {
                let key = if k == 1 {
                    (window[0], 0, 0)
                } else {
                    let (r0, c0) = ((window[0] / cols) as isize, (window[0] % cols) as isize);
                    let dr = (window[1] / cols) as isize - r0;
                    let dc = (window[1] % cols) as isize - c0;
                    let (mut r, mut c) = (r0, c0);
                    while (0..rows as isize).contains(&(r - dr))
                        && (0..cols as isize).contains(&(c - dc))
                    {
                        r -= dr;
                        c -= dc;
                    }
                    ((r * cols as isize + c) as usize, dr, dc)
                };
                let next = line_ids.len() as u16;
                *line_ids.entry(key).or_insert(next)
            })
            .collect();
        Self {
            partner: vec![NO_PARTNER; geometry.cells()],
            cells: Vec::new(),
            starts: Vec::new(),
            budget: 0,
            window_line,
            lines_seen: Marks::new(line_ids.len()),
            cells_seen: Marks::new(geometry.cells()),
        }
    }

    /// Whether the opponent of `attacker` has a pairing strategy on `grid`: disjoint pairs of
    /// empty cells such that every window `attacker` can still complete holds one of the pairs.
    /// Whoever is to move, the defender then answers every attacker stone in a pair with the
    /// other cell of that pair (and plays anywhere otherwise), so `attacker` can never complete
    /// a line: a proof that `attacker` cannot win. `false` means no pairing was found within
    /// `budget` search steps, which proves nothing. Also returns the steps taken.
    ///
    /// The pairing holds under every rule: no window of the attacker is ever filled, so it
    /// makes no line of any length, and it never has a threat for the defender to answer (its
    /// `k - 1` stones in a window would include a cell of the window's pair, whose partner the
    /// defender holds). A black defender under renju
    /// must also be allowed its answers: it pairs only cells each of which black can never be
    /// forbidden once white holds the other ([`Grid::never_foul`]). Its other moves need no
    /// care: with no move at all it draws.
    pub fn defender_pairs_off(
        &mut self,
        grid: &Grid,
        attacker: Player,
        budget: u32,
    ) -> (bool, u32) {
        if grid.live(attacker) == 0 {
            return (true, 0);
        }
        let defender = attacker.opponent();
        if grid.threats(attacker) > 0 {
            return (false, 0);
        }
        // Pairs on different lines are disjoint, and one pair covers windows of one line only:
        // at least one pair of its own per line with an open window is needed.
        self.lines_seen.clear();
        self.cells_seen.clear();
        let (mut lines, mut open_cells) = (0_u32, 0_u32);
        for w in 0..grid.window_count() {
            if grid.count(w, defender) != 0 {
                continue;
            }
            if self.lines_seen.insert(self.window_line[w] as usize) {
                lines += 1;
            }
            for &c in grid.window(w) {
                let c = c as usize;
                if grid.is_empty(c) && self.cells_seen.insert(c) {
                    open_cells += 1;
                }
            }
        }
        if 2 * lines > open_cells {
            return (false, 0);
        }
        // The empty cells of every window the attacker can still complete, window after window
        // (`k - stones` of them: the window holds no defender stone).
        let mut cells = std::mem::take(&mut self.cells);
        let mut starts = std::mem::take(&mut self.starts);
        cells.clear();
        starts.clear();
        for w in 0..grid.window_count() {
            if grid.count(w, defender) != 0 {
                continue;
            }
            starts.push(cells.len() as u32);
            cells.extend(
                grid.window(w)
                    .iter()
                    .filter(|&&c| grid.is_empty(c as usize)),
            );
        }
        starts.push(cells.len() as u32);
        self.budget = budget;
        let restricted = grid.forbids(defender).then_some(grid);
        let found = self.cover(&cells, &starts, restricted);
        for &c in &cells {
            self.partner[c as usize] = NO_PARTNER;
        }
        self.cells = cells;
        self.starts = starts;
        (found, budget - self.budget)
    }

    /// Extends the pairing being built so that it covers every window (`cells[starts[j]..
    /// starts[j + 1]]` are window `j`'s empty cells): the most constrained window first, failing
    /// as soon as one can no longer get a pair. With `restricted` (black defending under
    /// renju), a pair's cells must each be an answer black is never forbidden.
    fn cover(&mut self, cells: &[u16], starts: &[u32], restricted: Option<&Grid>) -> bool {
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        let mut choice: Option<(usize, usize)> = None;
        for j in 0..starts.len() - 1 {
            let window = &cells[starts[j] as usize..starts[j + 1] as usize];
            let mut free = 0;
            let mut covered = false;
            for &c in window {
                let p = self.partner[c as usize];
                if p == NO_PARTNER {
                    free += 1;
                } else if window.contains(&p) {
                    covered = true;
                    break;
                }
            }
            if covered {
                continue;
            }
            if free < 2 {
                return false;
            }
            if choice.is_none_or(|(_, f)| free < f) {
                choice = Some((j, free));
            }
        }
        let Some((j, _)) = choice else {
            return true;
        };
        let window = &cells[starts[j] as usize..starts[j + 1] as usize];
        for (a, &ca) in window.iter().enumerate() {
            if self.partner[ca as usize] != NO_PARTNER {
                continue;
            }
            for &cb in &window[a + 1..] {
                if self.partner[cb as usize] != NO_PARTNER
                    || restricted.is_some_and(|grid| {
                        let (a, b) = (ca as usize, cb as usize);
                        !grid.never_foul(a, b) || !grid.never_foul(b, a)
                    })
                {
                    continue;
                }
                self.partner[ca as usize] = cb;
                self.partner[cb as usize] = ca;
                if self.cover(cells, starts, restricted) {
                    return true;
                }
                self.partner[ca as usize] = NO_PARTNER;
                self.partner[cb as usize] = NO_PARTNER;
                if self.budget == 0 {
                    return false;
                }
            }
        }
        false
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::engine::core::hash::splitmix;
    use crate::engine::game::Rule;

    /// A board of `geometry` with up to `stones` random stones (X first, alternating, none
    /// completing a line), drawn with `seed`, and the side to move.
    pub(in super::super) fn random_grid(
        geometry: Geometry,
        stones: usize,
        seed: &mut u64,
    ) -> (Grid, Player) {
        let n = geometry.cells();
        let mut grid = Grid::new(geometry, &vec![None; n]);
        let mut side = Player::X;
        for _ in 0..stones {
            *seed = splitmix(*seed);
            let empty: Vec<usize> = (0..n)
                .filter(|&c| grid.is_empty(c) && grid.may_play(c, side))
                .collect();
            if empty.is_empty() {
                break;
            }
            let cell = empty[*seed as usize % empty.len()];
            if grid.wins_at(cell, side) {
                break;
            }
            grid.play(cell, side);
            side = side.opponent();
        }
        (grid, side)
    }

    /// Whether `attacker` can force a completed line from this position with `to_move` to move
    /// (plain AND-OR search with a memo, no shortcuts; black's forbidden cells under renju are
    /// no moves, and a side without a move draws).
    pub(in super::super) fn attacker_forces_win(
        grid: &mut Grid,
        to_move: Player,
        attacker: Player,
        memo: &mut std::collections::HashMap<(Vec<u8>, Player), bool>,
    ) -> bool {
        if grid.empties() == 0 {
            return false;
        }
        let key = (grid.stones().to_vec(), to_move);
        if let Some(&known) = memo.get(&key) {
            return known;
        }
        let empty: Vec<usize> = (0..grid.cell_count())
            .filter(|&c| grid.is_empty(c) && grid.may_play(c, to_move))
            .collect();
        let result = if empty.is_empty() {
            false
        } else if to_move == attacker {
            empty.iter().any(|&c| {
                grid.wins_at(c, attacker) || {
                    grid.play(c, attacker);
                    let w = attacker_forces_win(grid, attacker.opponent(), attacker, memo);
                    grid.undo(c, attacker);
                    w
                }
            })
        } else {
            // A defender's line ends the game without an attacker win.
            empty.iter().all(|&c| {
                !grid.wins_at(c, to_move) && {
                    grid.play(c, to_move);
                    let w = attacker_forces_win(grid, attacker, attacker, memo);
                    grid.undo(c, to_move);
                    w
                }
            })
        };
        memo.insert(key, result);
        result
    }

    /// Small boards (rows, columns, k) whose random positions the exhaustive search settles at
    /// once: the tests of the pairing strategy and of proof numbers run on them.
    pub(in crate::engine::solver) const SMALL_GAMES: [(u64, u64, u64); 7] = [
        (4, 4, 3),
        (4, 4, 4),
        (4, 4, 4),
        (5, 4, 4),
        (3, 5, 3),
        (5, 5, 4),
        (4, 5, 3),
    ];

    #[test]
    fn a_pairing_strategy_is_a_proof_that_the_attacker_cannot_win() {
        let mut seed = 1_u64;
        let mut found = 0;
        for ((rows, cols, k), stones) in SMALL_GAMES.into_iter().zip([4, 3, 5, 6, 4, 10, 8]) {
            let geometry = Geometry::new(rows, cols, k).unwrap();
            let mut pairing = Pairing::new(geometry);
            for _ in 0..60 {
                let (mut grid, _) = random_grid(geometry, stones, &mut seed);
                let snapshot = grid.stones().to_vec();
                for attacker in Player::BOTH {
                    if !pairing.defender_pairs_off(&grid, attacker, 10_000).0 {
                        continue;
                    }
                    assert!(pairing.partner.iter().all(|&p| p == NO_PARTNER));
                    found += 1;
                    let mut memo = std::collections::HashMap::new();
                    for to_move in Player::BOTH {
                        assert!(
                            !attacker_forces_win(&mut grid, to_move, attacker, &mut memo),
                            "({rows},{cols},{k}) {snapshot:?}: a pairing for {attacker:?}'s \
                             opponent, yet {attacker:?} wins with {to_move:?} to move",
                        );
                    }
                }
            }
        }
        assert!(found > 50, "only {found} pairings exercised");
    }

    #[test]
    #[ignore = "slow tier: cargo test --lib -- --ignored slow_"]
    fn slow_a_black_pairing_under_renju_is_a_proof_that_white_cannot_win() {
        let mut seed = 3_u64;
        let mut found = 0;
        for (rows, cols, stones) in [(5_u64, 5_u64, 11_usize), (5, 5, 13), (5, 6, 17), (6, 6, 23)] {
            let geometry = Geometry::new(rows, cols, 5)
                .unwrap()
                .with_rule(Rule::Renju)
                .unwrap();
            let mut pairing = Pairing::new(geometry);
            for _ in 0..80 {
                let (mut grid, _) = random_grid(geometry, stones, &mut seed);
                if !pairing.defender_pairs_off(&grid, Player::O, 10_000).0 {
                    continue;
                }
                found += 1;
                let snapshot = grid.stones().to_vec();
                let mut memo = std::collections::HashMap::new();
                for to_move in Player::BOTH {
                    assert!(
                        !attacker_forces_win(&mut grid, to_move, Player::O, &mut memo),
                        "({rows},{cols}) {snapshot:?}: a black pairing, yet white wins with \
                         {to_move:?} to move",
                    );
                }
            }
        }
        assert!(found > 30, "only {found} black pairings exercised");
    }
}
