//! Threat-space search on the pattern board: victory by continuous fours (VCF).
//!
//! The attacker plays only moves that make a four (the defender must block its one completing
//! cell, or lose at once) until it completes a line or makes two completing cells at once. When
//! the defender's block makes a four of its own, the attacker's next move must block it and make a
//! four at the same time. Every defender reply in such a line is forced, so a VCF found is a proven
//! win, and its length in plies is exact for that line (a quiet move might win sooner).

use crate::engine::core::deadline::Deadline;

use super::board::Goban;
use super::params::{VCF_MAX_FOURS_IN_VCT, VCT_REACH, VCT_VCF_BUDGET};
use super::threat::Threat;
use crate::engine::game::Player;

/// Entries of the table of attacker positions already shown to have no VCF.
const FAILED_SLOTS: usize = 1 << 16;

/// Mixed into the board's hash for each attacker.
const SIDE_KEYS: [u64; 2] = [0x2545_F491_4F6C_DD1D, 0x9E6C_63D0_676A_9A99];

/// What a threat search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Found {
    /// A win.
    Win,
    /// No win, searched to the end.
    None,
    /// No win found, but the budget cut the search.
    Unknown,
}

/// A VCF search with a node budget, reusable across calls.
pub struct Vcf {
    nodes: u64,
    budget: u64,
    /// Positions (with the attacker) shown to have no VCF, and within how many fours.
    failed: Vec<u64>,
    failed_depth: Vec<u8>,
    /// Candidate buffers per depth, to avoid allocating.
    buffers: Vec<Vec<(i32, usize)>>,
}

/// The defender's forced replies in a line [`Vcf::find`] returned: every second cell from the
/// second (the line alternates attacker, defender, ..., and ends on the attacker's five).
pub fn forced_replies(line: &[usize]) -> impl Iterator<Item = usize> + '_ {
    line.iter().skip(1).step_by(2).copied()
}

impl Vcf {
    /// A search that gives up after `budget` nodes per call.
    pub fn new(budget: u64) -> Self {
        Self {
            nodes: 0,
            budget,
            failed: vec![0; FAILED_SLOTS],
            failed_depth: vec![0; FAILED_SLOTS],
            buffers: Vec::new(),
        }
    }

    /// Nodes searched over every call so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Sets the nodes allowed per call.
    pub fn set_budget(&mut self, budget: u64) {
        self.budget = budget;
    }

    /// A win for `side`, to move on `board`, by continuous fours of at most `max_fours` attacker
    /// moves: the line (padded cells: attacker, defender, ..., the completing move), or `None`
    /// if none was found within the budget. The board is left as it was.
    pub fn find(&mut self, board: &mut Goban, side: Player, max_fours: u32) -> Option<Vec<usize>> {
        let mut line = Vec::new();
        match self.search(board, side, max_fours, &mut line) {
            Found::Win => {
                line.reverse();
                Some(line)
            }
            Found::None | Found::Unknown => None,
        }
    }

    /// Whether `side` has no VCF of at most `max_fours` attacker moves, shown by a search that
    /// ran to its end within the budget (`false` when it found one or ran out).
    pub fn has_none(&mut self, board: &mut Goban, side: Player, max_fours: u32) -> bool {
        self.search(board, side, max_fours, &mut Vec::new()) == Found::None
    }

    fn search(
        &mut self,
        board: &mut Goban,
        side: Player,
        max_fours: u32,
        line: &mut Vec<usize>,
    ) -> Found {
        let start = self.nodes;
        self.attack(board, side, max_fours, start, line)
    }

    /// Whether `side` wins by continuous fours; pushes the winning line in reverse order.
    fn attack(
        &mut self,
        board: &mut Goban,
        side: Player,
        fours_left: u32,
        start: u64,
        line: &mut Vec<usize>,
    ) -> Found {
        self.nodes += 1;
        if let Some(five) = board.five_cell(side) {
            line.push(five);
            return Found::Win;
        }
        let other = side.opponent();
        if self.nodes - start > self.budget {
            return Found::Unknown;
        }
        if fours_left == 0 {
            // None within the fours allowed (what `has_none` promises, and what the table of
            // failures records with its depth).
            return Found::None;
        }
        // The attacker is part of the key: a position can fail for one side and not the other.
        let key = board.hash() ^ SIDE_KEYS[side.index()];
        let slot = (key as usize) & (FAILED_SLOTS - 1);
        if self.failed[slot] == key && u32::from(self.failed_depth[slot]) >= fours_left {
            return Found::None;
        }
        let depth = fours_left as usize;
        if self.buffers.len() <= depth {
            self.buffers.resize_with(depth + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.buffers[depth]);
        fours(board, side, &mut moves);
        let mut result = Found::None;
        for &(_, at) in &moves {
            board.play(at, side);
            let reply = board.five_cell(side).expect("a four has a completing cell");
            if let Some((defence, five)) = unstoppable(board, side, reply) {
                // Pushed in reverse: the attacker's four, the defender's move, the five.
                line.extend([five, defence, at]);
                board.undo(at, side);
                result = Found::Win;
                break;
            }
            board.play(reply, other);
            let found = self.attack(board, side, fours_left - 1, start, line);
            board.undo(reply, other);
            board.undo(at, side);
            match found {
                Found::Win => {
                    line.push(reply);
                    line.push(at);
                    result = Found::Win;
                    break;
                }
                Found::Unknown => result = Found::Unknown,
                Found::None => {}
            }
        }
        self.buffers[depth] = moves;
        if result == Found::None {
            self.failed[slot] = key;
            self.failed_depth[slot] = fours_left as u8;
        }
        result
    }
}

/// Victory by continuous threats (VCT): the attacker plays fours and open threes (after the first,
/// only near its last threat or double ones, see [`VCT_REACH`]); against a four the defender
/// blocks, against an open three it may play any cell that stops it (every cell where
/// the attacker would then make a four or better) or a four of its own. A VCF for the defender
/// after a three refutes it. Searched to a fixed number of attacker moves within a node budget.
pub struct Vct {
    vcf: Vcf,
    nodes: u64,
    budget: u64,
    start: u64,
    /// Attacker positions (with the attacker and its last threat) shown to have no VCT, and
    /// within how many threats: each deeper round of [`Vct::find`] skips what the last one
    /// refuted, and lines that meet again are searched once.
    failed: Vec<(u64, u32)>,
    /// When every search stops, whatever its budget (checked every [`DEADLINE_EVERY`] nodes).
    deadline: Deadline,
    expired: bool,
    /// The node count at which to look at the clock next.
    next_clock: u64,
}

/// Nodes (VCF checks included) between two looks at the clock.
const DEADLINE_EVERY: u64 = 1_024;

impl Vct {
    /// A search that gives up after `budget` nodes per call.
    pub fn new(budget: u64) -> Self {
        Self {
            vcf: Vcf::new(VCT_VCF_BUDGET),
            nodes: 0,
            budget,
            start: 0,
            failed: vec![(0, 0); FAILED_SLOTS],
            deadline: Deadline::default(),
            expired: false,
            next_clock: 0,
        }
    }

    /// Sets the nodes allowed per call.
    pub fn set_budget(&mut self, budget: u64) {
        self.budget = budget;
    }

    /// Sets the time after which every search gives up (as when its budget runs out).
    pub fn set_deadline(&mut self, deadline: Deadline) {
        self.deadline = deadline;
        self.expired = false;
        self.next_clock = self.nodes();
    }

    /// Nodes searched over every call so far (VCF checks included).
    pub fn nodes(&self) -> u64 {
        self.nodes + self.vcf.nodes()
    }

    /// The first move of a win by continuous threats for `side` to move, with at most
    /// `max_threats` attacker moves, if one is found within the budget.
    pub fn find(&mut self, board: &mut Goban, side: Player, max_threats: u32) -> Option<usize> {
        self.start = self.nodes();
        for depth in 2..=max_threats {
            if let Some(first) = self.attack(board, side, depth, None) {
                return Some(first);
            }
            if self.out_of_budget() {
                break;
            }
        }
        None
    }

    fn out_of_budget(&self) -> bool {
        self.expired || self.nodes() - self.start > self.budget
    }

    /// The attacker's winning move, if it has one within `depth` threats.
    fn attack(
        &mut self,
        board: &mut Goban,
        side: Player,
        depth: u32,
        last: Option<usize>,
    ) -> Option<usize> {
        self.nodes += 1;
        if self.nodes() >= self.next_clock {
            self.next_clock = self.nodes() + DEADLINE_EVERY;
            self.expired |= self.deadline.passed();
        }
        let other = side.opponent();
        if let Some(five) = board.five_cell(side) {
            return Some(five);
        }
        let key = board.hash()
            ^ SIDE_KEYS[side.index()]
            ^ last.map_or(0, |l| (l as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let slot = (key as usize) & (FAILED_SLOTS - 1);
        if self.failed[slot].0 == key && self.failed[slot].1 >= depth {
            return None;
        }
        if let Some(line) = self.vcf.find(board, side, VCF_MAX_FOURS_IN_VCT) {
            return Some(line[0]);
        }
        if depth == 0 || self.out_of_budget() || board.has_five(other) {
            // Against a four the VCF above was the only way on.
            return None;
        }
        let mut moves: Vec<(i32, usize)> = board
            .cells_where(side, Threat::OpenThree)
            .filter(|&at| !board.is_forbidden(at, side))
            .filter(|&at| {
                last.is_none_or(|last| {
                    board.threat(at, side) >= Threat::DoubleThree
                        || board.layout().on_star(last, at, VCT_REACH)
                })
            })
            .map(|at| (-board.value(at, side), at))
            .collect();
        moves.sort_unstable();
        for (_, at) in moves {
            board.play(at, side);
            let wins = self.defender_loses(board, side, depth, at);
            board.undo(at, side);
            if wins {
                return Some(at);
            }
            if self.out_of_budget() {
                return None;
            }
        }
        // Searched to the end (a search cut by the budget proves nothing).
        self.failed[slot] = (key, depth);
        None
    }

    /// With the defender (the opponent of `side`) to move after an attacker's threat: whether
    /// every defence loses. Against a four the defender must block; against an open three it may
    /// play any cell that stops it or a four of its own (after which the attacker blocks and the
    /// defender moves again); a VCF of its own (or a search for one cut short) refutes.
    fn defender_loses(&mut self, board: &mut Goban, side: Player, depth: u32, last: usize) -> bool {
        self.nodes += 1;
        let other = side.opponent();
        if board.has_five(other) || self.out_of_budget() {
            return false;
        }
        match board.count(side, Threat::Five) {
            0 => {}
            1 => {
                let block = board.five_cell(side).expect("counted");
                if board.is_forbidden(block, other) {
                    return true;
                }
                board.play(block, other);
                let wins = self.attack(board, side, depth - 1, Some(last)).is_some();
                board.undo(block, other);
                return wins;
            }
            _ => return true,
        }
        if !board.has_open_three(side) || !self.vcf.has_none(board, other, VCF_MAX_FOURS_IN_VCT) {
            return false;
        }
        let mut defences: Vec<usize> = board
            .fours(side)
            .chain(board.fours(other))
            .filter(|&at| !board.is_forbidden(at, other))
            .collect();
        defences.sort_unstable();
        defences.dedup();
        for at in defences {
            board.play(at, other);
            let wins = match board.count(other, Threat::Five) {
                0 => self.attack(board, side, depth - 1, Some(last)).is_some(),
                1 if !board.has_five(side) => {
                    // The defender made a four: the attacker blocks, the defender moves again.
                    let block = board.five_cell(other).expect("counted");
                    board.play(block, side);
                    let w = self.defender_loses(board, side, depth, last);
                    board.undo(block, side);
                    w
                }
                _ => board.has_five(side),
            };
            board.undo(at, other);
            if !wins {
                return false;
            }
        }
        true
    }
}

/// Fills `moves` with the attacker's fours, best first: against the defender's one completing
/// cell only a block that is also a four, and under renju none that black may not play.
fn fours(board: &Goban, side: Player, moves: &mut Vec<(i32, usize)>) {
    moves.clear();
    let other = side.opponent();
    if board.has_five(other) {
        if board.count(other, Threat::Five) == 1 {
            let block = board.five_cell(other).expect("counted");
            if board.threat(block, side).is_four() && !board.is_forbidden(block, side) {
                moves.push((0, block));
            }
        }
    } else {
        moves.extend(
            board
                .fours(side)
                .filter(|&at| !board.is_forbidden(at, side))
                .map(|at| (-(board.value(at, side)), at)),
        );
        moves.sort_unstable();
    }
}

/// After the attacker's four, whose completing cell is `reply`: when the defender cannot stop
/// it (two completing cells, or under renju one that black may not take) and has no five of its
/// own, the rest of the line: the defender's move and the attacker's five.
fn unstoppable(board: &Goban, side: Player, reply: usize) -> Option<(usize, usize)> {
    let other = side.opponent();
    if board.has_five(other) {
        return None;
    }
    if board.count(side, Threat::Five) >= 2 {
        // The defender blocks one completing cell; another wins.
        let second = board
            .fives(side)
            .find(|&c| c != reply)
            .expect("two completing cells");
        return Some((reply, second));
    }
    // Renju: black may not block; it plays elsewhere and the attacker completes.
    board
        .is_forbidden(reply, other)
        .then(|| (any_other_move(board, other, reply).unwrap_or(reply), reply))
}

/// A cell other than `not` that `side` may play (for a line where it has no move that holds).
fn any_other_move(board: &Goban, side: Player, not: usize) -> Option<usize> {
    board
        .playable()
        .iter()
        .map(|&a| a as usize)
        .find(|&a| a != not && board.is_empty(a) && !board.is_forbidden(a, side))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::engine::game::{Geometry, Player};
    use crate::engine::gomoku::eval::WEIGHTS;
    use std::time::Instant;

    /// The 15 x 15 board after `moves` (column letter, row letter, as in SGF; black first).
    pub(crate) fn board_after(moves: &str) -> (Goban, Player) {
        let geometry = Geometry::new(15, 15, 5).unwrap();
        let cells = cells_after(moves);
        let stones = cells.iter().flatten().count();
        (
            Goban::new(geometry, &cells, &WEIGHTS),
            Player::X.after(stones as i32),
        )
    }

    /// The 15 × 15 cells after `moves` (SGF letters, column first, black first).
    pub(crate) fn cells_after(moves: &str) -> Vec<Option<Player>> {
        let mut cells: Vec<Option<Player>> = vec![None; 225];
        for (i, m) in moves.split_whitespace().enumerate() {
            let b = m.as_bytes();
            let (col, row) = (usize::from(b[0] - b'a'), usize::from(b[1] - b'a'));
            cells[row * 15 + col] = Some(if i % 2 == 0 { Player::X } else { Player::O });
        }
        cells
    }

    /// A game against AIWine (held-out openings) where black's 15th stone, k10, left white a
    /// win by threats (white then won). Rapfi, asked at 2 s, plays i6 there instead.
    const LEFT_A_VCT: &str = "ei hh jj ij jk jh ih ki ji hg hf gg ig ge kj";

    #[test]
    fn a_vct_is_found_and_its_first_move_is_a_threat() {
        let (mut board, side) = board_after(LEFT_A_VCT);
        let mut vct = Vct::new(1_000_000);
        let first = vct
            .find(&mut board, side, 12)
            .expect("white wins by threats");
        assert!(board.threat(first, side) >= Threat::OpenThree);
        // A second search from the same start finds it again (the table of failures keeps
        // only searches that ran to their end).
        assert_eq!(vct.find(&mut board, side, 12), Some(first));
    }

    #[test]
    fn a_past_deadline_stops_the_vct_at_once() {
        let (mut board, side) = board_after(LEFT_A_VCT);
        let mut vct = Vct::new(1_000_000);
        vct.set_deadline(Deadline::at(Some(Instant::now())));
        assert_eq!(vct.find(&mut board, side, 12), None);
        assert!(vct.nodes() < 5_000, "{} nodes", vct.nodes());
        vct.set_deadline(Deadline::default());
        assert!(vct.find(&mut board, side, 12).is_some());
    }

    #[test]
    fn vcf_lines_found_on_random_boards_are_real_wins() {
        let geometry = Geometry::new(15, 15, 5).unwrap();
        let mut seed = 11u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize
        };
        let mut found = 0;
        for _ in 0..400 {
            let mut cells: Vec<Option<Player>> = vec![None; 225];
            let stones = 10 + next() % 50;
            for i in 0..stones {
                // Clustered near the centre, like real games.
                let cell = (4 + next() % 7) * 15 + 4 + next() % 7;
                cells[cell] = Some(if i % 2 == 0 { Player::X } else { Player::O });
            }
            if crate::engine::game_result(geometry, &cells).is_some() {
                continue;
            }
            let mut board = Goban::new(geometry, &cells, &WEIGHTS);
            for side in Player::BOTH {
                if board.has_five(side.opponent()) && board.count(side.opponent(), Threat::Five) > 1
                {
                    continue;
                }
                let mut vcf = Vcf::new(10_000);
                if let Some(line) = vcf.find(&mut board, side, 12) {
                    found += 1;
                    let mut check = cells.clone();
                    for (i, &at) in line.iter().enumerate() {
                        let cell = board.layout().unpadded(at);
                        assert!(check[cell].is_none(), "line plays on an empty cell");
                        let mover = if (i % 2 == 0) == (side == Player::X) {
                            Player::X
                        } else {
                            Player::O
                        };
                        check[cell] = Some(mover);
                        let over = crate::engine::game_result(geometry, &check);
                        assert_eq!(
                            over.is_some(),
                            i == line.len() - 1,
                            "the line ends with the win"
                        );
                    }
                }
            }
        }
        assert!(found > 10, "found {found}");
    }
}
