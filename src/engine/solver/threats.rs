//! Victory by continuous fours (VCF): the attacker plays only moves that threaten to complete a
//! line at once (a *four*, for any k: a window with `k - 1` of its stones and none of the
//! opponent's), so every reply of the defender is forced: block the one winning cell, or lose
//! at once. A four that makes two winning cells wins outright.
//!
//! The search is complete within its limits: at each attacker node every cell that makes a four
//! is tried (when the defender itself has a four, only the block, and only if it makes a four),
//! so a line found is a forced win whatever the defender does. Iterative deepening on the number
//! of fours finds the shortest such line first. Failed positions are remembered in a small
//! direct-mapped table keyed by position and fours left.

use super::board::ThreatGrid;
use crate::engine::game::Player;

/// Entries of the failure table (a power of two).
const FAILED_ENTRIES: usize = 1 << 14;

/// A VCF searcher with its own small table and node budget.
pub struct Vcf {
    /// `(key, fours left + 1)` of positions known to have no VCF with that many fours.
    failed: Vec<(u64, u32)>,
    /// Candidate cells per level, reused to avoid allocating in the search.
    buffers: Vec<Vec<u16>>,
    nodes: u64,
    /// Nodes allowed per call of [`Vcf::find`].
    budget: u64,
    /// The node count at which the current call stops.
    limit: u64,
}

impl Vcf {
    /// A searcher that stops each search after `budget` nodes.
    pub fn new(budget: u64) -> Self {
        Self {
            failed: vec![(0, 0); FAILED_ENTRIES],
            buffers: Vec::new(),
            nodes: 0,
            budget,
            limit: budget,
        }
    }

    /// Sets the nodes allowed to each later search.
    pub fn set_budget(&mut self, budget: u64) {
        self.budget = budget;
    }

    /// Nodes visited so far (over every call).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The shortest forcing line (at most `max_fours` fours) by which `attacker`, to move,
    /// wins: attacker move, forced reply, ..., the completing move. `None` when there is none
    /// within the limits or the budget ran out.
    pub fn find(
        &mut self,
        board: &mut ThreatGrid,
        attacker: Player,
        max_fours: u32,
    ) -> Option<Vec<usize>> {
        let mut line = Vec::new();
        self.limit = self.nodes + self.budget;
        for fours in 0..=max_fours {
            if self.nodes >= self.limit {
                return None;
            }
            if self.attack(board, attacker, fours, &mut line) {
                return Some(line);
            }
            line.clear();
        }
        None
    }

    fn attack(
        &mut self,
        board: &mut ThreatGrid,
        attacker: Player,
        fours: u32,
        line: &mut Vec<usize>,
    ) -> bool {
        self.nodes += 1;
        if self.nodes >= self.limit {
            return false;
        }
        let defender = attacker.opponent();
        if board.threats(attacker) > 0 {
            let (cell, _) = board.threat_cells(attacker);
            line.push(cell.expect("a threat has a winning cell"));
            return true;
        }
        if fours == 0 || board.twos(attacker) == 0 {
            return false;
        }
        let (key, _) = board.canonical_key();
        let slot = (key as usize) & (FAILED_ENTRIES - 1);
        if self.failed[slot] == (key, fours + 1) {
            return false;
        }
        let forced = if board.threats(defender) > 0 {
            match board.threat_cells(defender) {
                (_, true) => return false,
                (cell, false) => cell,
            }
        } else {
            None
        };
        let level = fours as usize;
        if self.buffers.len() <= level {
            self.buffers.resize_with(level + 1, Vec::new);
        }
        let mut candidates = std::mem::take(&mut self.buffers[level]);
        candidates.clear();
        match forced {
            Some(cell) => candidates.push(cell as u16),
            None => board.four_making_cells(attacker, &mut candidates),
        }
        let mut won = false;
        for &cell in &candidates {
            let cell = cell as usize;
            board.play(cell, attacker);
            let (block, two) = board.threat_cells(attacker);
            if let Some(block) = block {
                line.push(cell);
                if two {
                    // Two winning cells: the defender blocks one, the other completes the line.
                    let (other, _) = board.other_threat_cell(attacker, block);
                    line.push(block);
                    line.push(other);
                    won = true;
                } else {
                    line.push(block);
                    board.play(block, defender);
                    won = self.attack(board, attacker, fours - 1, line);
                    board.undo(block, defender);
                    if !won {
                        line.truncate(line.len() - 2);
                    }
                }
            }
            board.undo(cell, attacker);
            if won || self.nodes >= self.limit {
                break;
            }
        }
        self.buffers[level] = candidates;
        if !won && self.nodes < self.limit {
            self.failed[slot] = (key, fours + 1);
        }
        won
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::game::{Geometry, Player};

    fn board_of(rows: &[impl AsRef<str>], k: u64) -> ThreatGrid {
        let width = rows[0].as_ref().len() as u64;
        let geometry = Geometry::new(rows.len() as u64, width, k).unwrap();
        let cells: Vec<Option<Player>> = rows
            .iter()
            .flat_map(|r| r.as_ref().chars())
            .map(|c| match c {
                'X' => Some(Player::X),
                'O' => Some(Player::O),
                _ => None,
            })
            .collect();
        ThreatGrid::new(geometry, &cells)
    }

    /// Plays `line` and checks it is a forced win: after each attacker move but the last the
    /// defender has exactly one block, which is the next move; the last completes a line.
    fn assert_forced_win(board: &mut ThreatGrid, attacker: Player, line: &[usize]) {
        assert_eq!(
            line.len() % 2,
            1,
            "a win ends on an attacker move: {line:?}"
        );
        let mut side = attacker;
        for (i, &cell) in line.iter().enumerate() {
            if i == line.len() - 1 {
                assert!(board.wins_at(cell, attacker), "last move wins: {line:?}");
                return;
            }
            board.play(cell, side);
            if side == attacker {
                assert!(board.threats(attacker) > 0, "move {i} is a four: {line:?}");
            }
            side = side.opponent();
        }
    }

    #[test]
    fn finds_a_three_four_combination_on_a_gomoku_board() {
        // X has a closed three on row 7 and a broken pair on column 9: fours only.
        let mut rows = vec![".".repeat(15); 15];
        rows[6] = ".........X.....".into();
        rows[7] = "....OXXX.......".into();
        rows[8] = ".........X.....".into();
        let mut board = board_of(&rows, 5);
        let line = Vcf::new(100_000)
            .find(&mut board, Player::X, 10)
            .expect("a VCF");
        assert_forced_win(&mut board, Player::X, &line);
    }

    #[test]
    fn no_vcf_without_material() {
        let rows = [
            "..........",
            "....X.....",
            "..........",
            ".....O....",
            "..........",
        ];
        let mut board = board_of(&rows, 5);
        assert!(Vcf::new(10_000).find(&mut board, Player::X, 10).is_none());
    }

    #[test]
    fn finds_the_immediate_win_and_the_double_four() {
        let rows = ["XXXX.....", ".........", "........."];
        let mut board = board_of(&rows, 5);
        assert_eq!(Vcf::new(100).find(&mut board, Player::X, 4), Some(vec![4]));
        // k = 4: a move making three in a row with both ends open.
        let rows = [".X.X..", "......", "......", "......"];
        let mut board = board_of(&rows, 4);
        let line = Vcf::new(1_000)
            .find(&mut board, Player::X, 4)
            .expect("a VCF");
        assert_eq!(line.len(), 3, "one move makes two fours: {line:?}");
        assert_forced_win(&mut board, Player::X, &line);
    }
}
