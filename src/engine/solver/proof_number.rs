//! Proof-number search (df-pn) for the draw question: can the attacker force a line?
//!
//! Depth-first proof-number search (Nagai) over the AND/OR tree of "`attacker` completes a line
//! whatever the defender does". A node is settled without search when a side has a line to
//! complete (an immediate win, two winning cells for the side not to move), when the side to
//! move makes two threats at once, when no window is left for the attacker, or when the
//! defender has a pairing strategy against it ([`super::pairing`]), looked for at every node.
//! Against a single threat only the block is searched, and dead cells (no open window through
//! them) count as one move. Proof and disproof numbers are kept in a table of their own (16 MiB, borrowed from a pool
//! as the transposition tables are) keyed by
//! the symmetry-reduced key.

use super::negamax::Negamax;
use super::pairing::Pairing;
use super::params::{PROOF_PAIRING_BUDGET, PROOF_PAIRING_MAX_LIVE};
use super::root::RootMove;
use crate::engine::core::pool::{Pooled, Renew, Tables};
use crate::engine::game::Player;
use crate::engine::game::{Geometry, Rule};

/// An infinite proof or disproof number.
const INFINITE: u32 = u32::MAX / 4;
/// Entries of the proof-number table (a power of two): 16 bytes each, 16 MiB.
const TABLE_ENTRIES: usize = 1 << 20;
/// Proof and disproof numbers never exceed [`INFINITE`]: the two bits above it in each carry
/// the table's generation.
const NUMBER_BITS: u32 = 30;
const NUMBER_MASK: u32 = (1 << NUMBER_BITS) - 1;
const _: () = assert!(INFINITE == NUMBER_MASK);
/// Generations a table goes through before it is cleared.
const GENERATIONS: u32 = 1 << 4;

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    proof: u32,
    disproof: u32,
}

/// The proof-number table's slots and the generation of the search using them, borrowed from
/// the engine's [`Tables`] and emptied in O(1) for each search (as the transposition tables are). `Default`
/// holds no slots.
#[derive(Default)]
pub struct ProofTable {
    slots: Vec<Slot>,
    generation: u32,
}

impl Renew for ProofTable {
    const BYTES: usize = TABLE_ENTRIES * size_of::<Slot>();

    fn fresh() -> Self {
        Self {
            slots: vec![Slot::default(); TABLE_ENTRIES],
            generation: 0,
        }
    }

    fn renew(&mut self) {
        self.generation = (self.generation + 1) % GENERATIONS;
        if self.generation == 0 {
            self.slots.fill(Slot::default());
            self.generation = 1;
        }
    }
}

/// A move from a node and what is known about the position it leads to.
#[derive(Clone, Copy)]
struct Child {
    cell: u16,
    key: u64,
    proof: u32,
    disproof: u32,
}

/// What a position says before any move is searched.
enum Settled {
    /// The attacker wins (`true`) or cannot win (`false`).
    Value(bool),
    /// Only this move needs searching: the block of the opponent's single winning cell.
    Forced(usize),
    /// Every move needs searching.
    Open,
}

/// A proof-number search over the board of a [`Negamax`] search (its budget, node count and
/// pattern scratch are shared).
pub struct ProofSearch<'s, 't> {
    search: &'s mut Negamax<'t>,
    attacker: Player,
    pairing: Pairing,
    table: Pooled<ProofTable>,
    /// The children of the node at each ply.
    children: Vec<Vec<Child>>,
}

impl<'s, 't> ProofSearch<'s, 't> {
    /// A proof search on `search`'s board (of `geometry`), with a proof-number table from
    /// `tables`.
    pub fn new(search: &'s mut Negamax<'t>, tables: &Tables, geometry: Geometry) -> Self {
        let cells = geometry.cells();
        Self {
            search,
            attacker: Player::X,
            pairing: Pairing::new(geometry),
            table: tables.borrow(),
            children: vec![Vec::new(); cells + 2],
        }
    }

    /// Whether `attacker` can force a completed line from the current position with `to_move`
    /// to move: `Some(true)` proven, `Some(false)` disproven, `None` when the budget ran out.
    pub fn attacker_wins(&mut self, to_move: Player, attacker: Player) -> Option<bool> {
        self.attacker = attacker;
        let (proof, disproof) = self.mid(to_move, 0, INFINITE, INFINITE);
        if self.search.budget.stopped() {
            None
        } else if proof == 0 {
            Some(true)
        } else {
            debug_assert_eq!(disproof, 0);
            Some(false)
        }
    }

    /// The table's key for the position with key `key`: the two questions (either side as
    /// the attacker) share the table.
    fn table_key(&self, key: u64) -> u64 {
        match self.attacker {
            Player::X => key,
            Player::O => !key,
        }
    }

    fn lookup(&self, key: u64) -> Option<(u32, u32)> {
        let key = self.table_key(key);
        let slot = self.table.slots[(key as usize) & (TABLE_ENTRIES - 1)];
        let generation = (slot.proof >> NUMBER_BITS) << 2 | slot.disproof >> NUMBER_BITS;
        (slot.key == key && generation == self.table.generation)
            .then_some((slot.proof & NUMBER_MASK, slot.disproof & NUMBER_MASK))
    }

    fn store(&mut self, key: u64, proof: u32, disproof: u32) {
        let key = self.table_key(key);
        debug_assert!(proof <= INFINITE && disproof <= INFINITE);
        let generation = self.table.generation;
        self.table.slots[(key as usize) & (TABLE_ENTRIES - 1)] = Slot {
            key,
            proof: proof | (generation >> 2) << NUMBER_BITS,
            disproof: disproof | (generation & 3) << NUMBER_BITS,
        };
    }

    /// What the position with `side` to move says by itself.
    fn settle(&mut self, side: Player, look_for_pairing: bool) -> Settled {
        let board = &self.search.board;
        let other = side.opponent();
        let attacker = self.attacker;
        if board.has_win(side) {
            return Settled::Value(side == attacker);
        }
        if board.empties() == 0 || board.live(attacker) == 0 {
            return Settled::Value(false);
        }
        // Under caro a threat may be stopped off its cell (see `negamax`): the moves decide.
        if board.threats(other) > 0
            && board.rule() != Rule::Caro
            && let (Some(first), more) = board.threat_cells(other)
        {
            if more || !board.may_play(first, side) {
                // Every move loses at once, unless there is none (black under renju): a draw.
                return Settled::Value(other == attacker && board.has_move(side));
            }
            return Settled::Forced(first);
        }
        if board.threats(other) == 0
            && board.rule() == Rule::Freestyle
            && board.twos(side) >= 2
            && self
                .search
                .patterns
                .double_threat_cell(&self.search.board, side)
                .is_some()
        {
            return Settled::Value(side == attacker);
        }
        if look_for_pairing
            && side == attacker
            && self.search.board.live(attacker) <= PROOF_PAIRING_MAX_LIVE
        {
            let (found, steps) =
                self.pairing
                    .defender_pairs_off(&self.search.board, attacker, PROOF_PAIRING_BUDGET);
            self.search.budget.count_extra_work(u64::from(steps));
            if found {
                return Settled::Value(false);
            }
        }
        Settled::Open
    }

    /// The moves at a node, best first for `side`, with their keys and stored numbers.
    fn expand(&mut self, side: Player, forced: Option<usize>, children: &mut Vec<Child>) {
        children.clear();
        let board = &mut self.search.board;
        let mut candidates: Vec<(i32, usize)> = Vec::new();
        match forced {
            Some(cell) => candidates.push((0, cell)),
            None => {
                let mut dead_seen = false;
                for cell in 0..board.cell_count() {
                    if !board.is_empty(cell) || !board.may_play(cell, side) {
                        continue;
                    }
                    if board.is_dead(cell) {
                        if dead_seen {
                            continue;
                        }
                        dead_seen = true;
                    }
                    candidates.push((board.move_priority(cell, side), cell));
                }
                candidates
                    .sort_unstable_by_key(|&(priority, cell)| (std::cmp::Reverse(priority), cell));
            }
        }
        for (_, cell) in candidates {
            children.push(Child {
                cell: cell as u16,
                key: board.canonical_key_after(cell, side),
                proof: 1,
                disproof: 1,
            });
        }
        // A separate pass, so that the table's cache misses overlap.
        for child in children.iter_mut() {
            if let Some(known) = self.lookup(child.key) {
                (child.proof, child.disproof) = known;
            }
        }
    }

    /// Stores and returns the numbers of a position settled without search: the attacker wins
    /// (`won`) or cannot.
    fn settled(&mut self, key: u64, won: bool) -> (u32, u32) {
        let numbers = if won { (0, INFINITE) } else { (INFINITE, 0) };
        self.store(key, numbers.0, numbers.1);
        numbers
    }

    /// Searches the current position (`side` to move, `ply` plies below the search's root)
    /// until its proof number reaches `max_proof` or its disproof number `max_disproof`, and
    /// returns both.
    fn mid(&mut self, side: Player, ply: usize, max_proof: u32, max_disproof: u32) -> (u32, u32) {
        if self.search.budget.spend(1) {
            return (1, 1);
        }
        let (key, _) = self.search.board.canonical_key();
        let known = self.lookup(key);
        if let Some((proof, disproof)) = known
            && (proof >= max_proof || disproof >= max_disproof)
        {
            return (proof, disproof);
        }
        // A stored node was settled before: no pairing was found then.
        let forced = match self.settle(side, known.is_none()) {
            Settled::Value(won) => return self.settled(key, won),
            Settled::Forced(cell) => Some(cell),
            Settled::Open => None,
        };
        let mut children = std::mem::take(&mut self.children[ply]);
        self.expand(side, forced, &mut children);
        if children.is_empty() {
            // Black under renju with every cell forbidden: the game is drawn.
            self.children[ply] = children;
            return self.settled(key, false);
        }
        let attacking = side == self.attacker;
        let (proof, disproof) = loop {
            let (proof, disproof, best, second) = combine(&children, attacking);
            if proof >= max_proof || disproof >= max_disproof || self.search.budget.stopped() {
                break (proof, disproof);
            }
            let c = children[best];
            let (child_max_proof, child_max_disproof) = if attacking {
                (
                    max_proof.min(second.saturating_add(1)),
                    max_disproof - disproof + c.disproof,
                )
            } else {
                (
                    max_proof - proof + c.proof,
                    max_disproof.min(second.saturating_add(1)),
                )
            };
            let cell = c.cell as usize;
            self.search.board.play(cell, side);
            let (p, d) = self.mid(
                side.opponent(),
                ply + 1,
                child_max_proof,
                child_max_disproof,
            );
            self.search.board.undo(cell, side);
            children[best].proof = p;
            children[best].disproof = d;
        };
        self.children[ply] = children;
        if !self.search.budget.stopped() {
            self.store(key, proof, disproof);
        }
        (proof, disproof)
    }
}

/// A node's proof and disproof numbers from its children's, with the child to search next (the
/// most proving at the attacker's nodes, the most disproving at the defender's) and the next best
/// child's number. At the attacker's nodes one child's proof is enough; at the defender's, one
/// child's disproof.
fn combine(children: &[Child], attacking: bool) -> (u32, u32, usize, u32) {
    let (mut proof, mut disproof) = if attacking {
        (INFINITE, 0)
    } else {
        (0, INFINITE)
    };
    let (mut best, mut best_value, mut second) = (0, INFINITE, INFINITE);
    for (i, c) in children.iter().enumerate() {
        let value = if attacking {
            proof = proof.min(c.proof);
            disproof = (disproof + c.disproof).min(INFINITE);
            c.proof
        } else {
            disproof = disproof.min(c.disproof);
            proof = (proof + c.proof).min(INFINITE);
            c.disproof
        };
        if value < best_value {
            second = best_value;
            best_value = value;
            best = i;
        } else if value < second {
            second = value;
        }
    }
    (proof, disproof, best, second)
}

/// A proven draw: which root moves keep it.
pub enum Draw {
    /// Every move.
    EveryMove,
    /// This move, the first in the root's order that does (the moves before it lose).
    FirstFrom(usize),
}

/// Proves the current position of `search` a draw if it is one: the side to move cannot win,
/// and its opponent cannot win after some move. `None` when either side wins or the budget
/// runs out first (or when every move is asked for and they do not all draw).
///
/// An extra stone never hurts its owner (the opponent's winning strategy would win against the
/// stone as well, treating it as its own move elsewhere), so when the opponent cannot win even
/// if it moved first here (a null move), it cannot win after any move: every move draws. On
/// the empty board that question is the first one with the colours swapped. Otherwise, unless
/// `every_move` is asked for, the root moves (representatives, in `root`'s order) are tried
/// one by one.
///
/// Under the other rules an extra stone can hurt its owner (it turns a five into an overline
/// under standard, or makes black's answer a forbidden one under renju), so there the root
/// moves are always tried one by one: all of them when `every_move` is asked for.
pub fn prove_draw(
    search: &mut Negamax<'_>,
    geometry: Geometry,
    root: &[RootMove],
    every_move: bool,
) -> Option<Draw> {
    let side = search.root_side();
    let opponent = side.opponent();
    let tables = search.table.tables().clone();
    let mut proof = ProofSearch::new(search, &tables, geometry);
    if proof.attacker_wins(side, side)? {
        return None;
    }
    if geometry.rule() != Rule::Freestyle {
        return draw_move_by_move(&mut proof, root, every_move);
    }
    let empty_board = proof.search.board.empties() as usize == proof.search.board.cell_count();
    if empty_board || !proof.attacker_wins(opponent, opponent)? {
        return Some(Draw::EveryMove);
    }
    if every_move {
        return None;
    }
    draw_move_by_move(&mut proof, root, false)
}

/// The root moves (representatives, in `root`'s order) after which the opponent cannot win,
/// the side to move being known not to win: the first of them, or with `every_move` all of
/// them (`None` unless every move draws).
fn draw_move_by_move(
    proof: &mut ProofSearch<'_, '_>,
    root: &[RootMove],
    every_move: bool,
) -> Option<Draw> {
    let side = proof.search.root_side();
    let opponent = side.opponent();
    for (i, m) in root.iter().enumerate() {
        if m.representative != i {
            continue;
        }
        proof.search.board.play(m.cell, side);
        let lost = proof.attacker_wins(opponent, opponent);
        proof.search.board.undo(m.cell, side);
        match (lost?, every_move) {
            (false, false) => return Some(Draw::FirstFrom(m.cell)),
            (true, true) => return None,
            _ => {}
        }
    }
    every_move.then_some(Draw::EveryMove)
}

#[cfg(test)]
mod tests {
    use super::super::pairing::tests::{SMALL_GAMES, attacker_forces_win, random_grid};
    use super::*;
    use crate::engine::core::budget::Budget;
    use crate::engine::core::deadline::Deadline;
    use crate::engine::core::table::{Replacement, Table};

    #[test]
    fn proof_numbers_agree_with_an_exhaustive_search() {
        let tables = Tables::with_budget(usize::MAX);
        let mut seed = 7_u64;
        let mut checked = [0; 2];
        for ((rows, cols, k), stones) in SMALL_GAMES.into_iter().zip([3, 2, 5, 6, 2, 11, 6]) {
            let geometry = Geometry::new(rows, cols, k).unwrap();
            for _ in 0..12 {
                let (mut grid, side) = random_grid(geometry, stones, &mut seed);
                let snapshot = grid.stones().to_vec();
                let expected: Vec<bool> = Player::BOTH
                    .iter()
                    .map(|&attacker| {
                        let mut memo = std::collections::HashMap::new();
                        attacker_forces_win(&mut grid, side, attacker, &mut memo)
                    })
                    .collect();
                let mut table = Table::acquire(&tables, Replacement::DeeperAndNewest, geometry);
                let budget = Budget::new(None, Deadline::default());
                let mut search = Negamax::new(geometry, grid, &mut table, side, budget);
                let mut proof = ProofSearch::new(&mut search, &tables, geometry);
                for (attacker, expected) in Player::BOTH.into_iter().zip(expected) {
                    assert_eq!(
                        proof.attacker_wins(side, attacker),
                        Some(expected),
                        "({rows},{cols},{k}) {snapshot:?}, {side:?} to move, {attacker:?} attacks",
                    );
                    checked[usize::from(expected)] += 1;
                }
            }
        }
        assert!(checked.iter().all(|&c| c > 20), "checked {checked:?}");
    }
}
