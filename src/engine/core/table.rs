//! The transposition table the solver and the big-board engine use: 2^20 slots of 16 bytes
//! (16 MiB), borrowed from the engine's [`Tables`] for one search and given back when dropped, so
//! memory grows with the searches running at once and never with their number over time. A table is
//! emptied in O(1) when it is borrowed, by moving to a new generation, which the table keeps
//! with its slots (see [`super::pool`]).
//!
//! A table is borrowed for one board geometry, and every key is salted with it
//! ([`Table::acquire`]): no entry stored for one geometry (rows, cols, `k`, gravity and rule)
//! is ever read for another, even one left over from an earlier search.
//!
//! Both searches cut and store by one rule: a stored result settles a node when it is proven or
//! searched at least as deep, and its bound lets the window cut ([`Entry::cutoff`]); a result
//! is stored as the bound its window gives it ([`Entry::searched`]).
//!
//! The two searches keep their own replacement rules ([`Replacement`]): the solver's two-way
//! buckets keep the deeper result in the first slot and the newest in the second; the big-board
//! engine keeps one result a slot and replaces it unless a deeper bound is there.

use super::pool::{Pooled, Renew, Tables};
use super::score::{from_table, to_table};
use crate::engine::game::{Geometry, Rule};

/// Log2 of the number of slots: 2^20 slots of 16 bytes, 16 MiB.
pub const TABLE_BITS: u32 = 20;

/// Generations are stored in this many bits; the table is cleared when they wrap.
const GENERATION_BITS: u32 = 5;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value itself.
    Exact,
    /// The value is at least the score (the search failed high).
    Lower,
    /// The value is at most the score (the search failed low).
    Upper,
}

impl Bound {
    /// What `best`, a node's best score searched within `(alpha, beta)`, says about its value.
    pub fn of(best: i32, alpha: i32, beta: i32) -> Self {
        if best <= alpha {
            Self::Upper
        } else if best >= beta {
            Self::Lower
        } else {
            Self::Exact
        }
    }
}

/// How a table chooses the slot a new result replaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replacement {
    /// Buckets of two slots: the first keeps the deeper result, the second the newest.
    DeeperAndNewest,
    /// One slot a key: replaced unless it holds a deeper bound for the same position.
    UnlessDeeper,
}

/// A stored result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The score, relative to the node (win distances counted from the node).
    pub score: i32,
    /// What the score bounds.
    pub bound: Bound,
    /// Remaining depth the result was searched to (-1 to 254).
    pub depth: i32,
    /// Whether no static evaluation contributed to it (then it holds at any depth).
    pub proven: bool,
    /// The best or refuting move, as the search numbers cells.
    pub best: Option<u16>,
}

impl Entry {
    /// The result of a node `ply` plies from the root searched `depth` plies deep within
    /// `(alpha, beta)`: its best score `best` (relative to the root), stored relative to the
    /// node, with the bound the window gives it.
    pub fn searched(best: i32, ply: i32, (alpha, beta): (i32, i32), depth: i32) -> Self {
        Self {
            score: to_table(best, ply),
            bound: Bound::of(best, alpha, beta),
            depth,
            proven: false,
            best: None,
        }
    }

    /// The entry's score (relative to the root) when it settles a node `ply` plies from the root
    /// searched `depth` plies deep within `(alpha, beta)`: the entry is proven or at least as
    /// deep, and its bound is exact or lies outside the window on its side.
    pub fn cutoff(&self, depth: i32, ply: i32, alpha: i32, beta: i32) -> Option<i32> {
        if !self.proven && self.depth < depth {
            return None;
        }
        let score = from_table(self.score, ply);
        let cuts = match self.bound {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        };
        cuts.then_some(score)
    }
}

const NO_MOVE: u16 = u16::MAX;

/// A slot: the key, and the entry packed in one word with its generation.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    data: u64,
}

impl Entry {
    fn pack(self, generation: u8) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        let flags = bound | (u64::from(self.proven) << 2) | (u64::from(generation) << 3);
        let depth = (self.depth.clamp(-1, 254) + 1) as u64;
        u64::from(self.score as u32)
            | (u64::from(self.best.unwrap_or(NO_MOVE)) << 32)
            | (depth << 48)
            | (flags << 56)
    }

    fn unpack(data: u64) -> Self {
        let flags = data >> 56;
        Self {
            score: data as u32 as i32,
            best: Some((data >> 32) as u16).filter(|&m| m != NO_MOVE),
            depth: i32::from((data >> 48) as u8) - 1,
            bound: match flags & 3 {
                1 => Bound::Lower,
                2 => Bound::Upper,
                _ => Bound::Exact,
            },
            proven: flags & 4 != 0,
        }
    }
}

fn generation_of(data: u64) -> u8 {
    (data >> 59) as u8
}

/// A table's slots and the generation of the search using them: kept together, so that a
/// table always comes back from the pool with its own generation. `Default` holds no slots.
#[derive(Default)]
pub struct Slots {
    slots: Vec<Slot>,
    generation: u8,
}

impl Renew for Slots {
    const BYTES: usize = (1 << TABLE_BITS) * size_of::<Slot>();

    fn fresh() -> Self {
        Self {
            slots: vec![Slot::default(); 1 << TABLE_BITS],
            generation: 0,
        }
    }

    /// Forgets every entry, by moving to a new generation (clearing the slots when the
    /// generations wrap).
    fn renew(&mut self) {
        self.generation = (self.generation + 1) % (1 << GENERATION_BITS);
        if self.generation == 0 {
            self.slots.fill(Slot::default());
            self.generation = 1;
        }
    }
}

/// Bits of a geometry's salt: rows, cols and `k` (up to 20 each, 5 bits each), gravity and the
/// rule.
const SALT_BITS: u32 = 5 + 5 + 5 + 1 + 2;
const _: () = assert!(Geometry::MAX_SIDE < 32 && Rule::ALL.len() <= 4);
// The salt sits above the bits the solver's buckets are indexed by and below those the big-board
// engine's slots are.
const _: () = assert!(TABLE_BITS + SALT_BITS <= 64 - TABLE_BITS);

/// The salt of `geometry`'s keys: its rows, cols, `k`, gravity and rule, one number for each
/// geometry, in the bits above [`TABLE_BITS`] that neither [`Replacement`] indexes slots by.
/// Keys differ between geometries, while each geometry's keys land in the slots they would
/// unsalted (so the searches, and their answers, are what they were without it).
fn salt(geometry: Geometry) -> u64 {
    let code = geometry.rows() as u64
        | (geometry.cols() as u64) << 5
        | (geometry.k() as u64) << 10
        | u64::from(geometry.is_gravity()) << 15
        | (geometry.rule() as u64) << 16;
    code << TABLE_BITS
}

/// A transposition table borrowed from the engine's [`Tables`] for one search on one geometry;
/// it goes back when dropped.
pub struct Table {
    storage: Pooled<Slots>,
    replacement: Replacement,
    /// Mixed into every key: see [`salt`].
    salt: u64,
}

impl Table {
    /// An empty table for a search on `geometry`, with the given replacement rule, from
    /// `tables` (an idle one when there is one).
    pub fn acquire(tables: &Tables, replacement: Replacement, geometry: Geometry) -> Self {
        Self {
            storage: tables.borrow(),
            replacement,
            salt: salt(geometry),
        }
    }

    /// The tables this one was borrowed from.
    pub fn tables(&self) -> &Tables {
        self.storage.tables()
    }

    fn first_slot(&self, key: u64) -> usize {
        match self.replacement {
            Replacement::DeeperAndNewest => (key as usize) & (self.storage.slots.len() - 1) & !1,
            Replacement::UnlessDeeper => (key >> (64 - TABLE_BITS)) as usize,
        }
    }

    /// The generation of this search.
    #[cfg(test)]
    fn generation(&self) -> u8 {
        self.storage.generation
    }

    fn ways(&self) -> usize {
        match self.replacement {
            Replacement::DeeperAndNewest => 2,
            Replacement::UnlessDeeper => 1,
        }
    }

    fn holds(&self, slot: Slot, key: u64) -> bool {
        slot.key == key && generation_of(slot.data) == self.storage.generation
    }

    /// The entry for `key`, if stored in this search.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.probe_salted(key ^ self.salt)
    }

    /// The entry for `key` (salted), if stored in this search.
    fn probe_salted(&self, key: u64) -> Option<Entry> {
        let first = self.first_slot(key);
        self.storage.slots[first..first + self.ways()]
            .iter()
            .find(|&&slot| self.holds(slot, key))
            .map(|slot| Entry::unpack(slot.data))
    }

    /// Stores a result for `key`, by the table's [`Replacement`] rule.
    pub fn store(&mut self, key: u64, entry: Entry) {
        let key = key ^ self.salt;
        let first = self.first_slot(key);
        let generation = self.storage.generation;
        let data = entry.pack(generation);
        let slots = &mut self.storage.slots;
        match self.replacement {
            Replacement::DeeperAndNewest => {
                let old = slots[first];
                let old_live = generation_of(old.data) == generation;
                let old_depth = i32::from((old.data >> 48) as u8) - 1;
                let depth = entry.depth.clamp(-1, 254);
                let index = if old.key == key || !old_live || depth >= old_depth {
                    first
                } else {
                    first + 1
                };
                if index == first && old.key != key && old_live {
                    slots[first + 1] = old;
                }
                slots[index] = Slot { key, data };
            }
            Replacement::UnlessDeeper => {
                if entry.bound != Bound::Exact
                    && self
                        .probe_salted(key)
                        .is_some_and(|old| old.depth > entry.depth)
                {
                    return;
                }
                self.storage.slots[first] = Slot { key, data };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::core::pool::during_the_next_borrow;

    /// Tables for a test's searches.
    fn tables() -> Tables {
        Tables::with_budget(4 * Slots::BYTES)
    }

    fn geometry() -> Geometry {
        Geometry::new(7, 7, 4).unwrap()
    }

    fn entry(score: i32, depth: i32, bound: Bound) -> Entry {
        Entry {
            score,
            bound,
            depth,
            proven: false,
            best: Some(300),
        }
    }

    #[test]
    fn entries_come_back_as_stored_and_only_for_their_key() {
        let tables = tables();
        for replacement in [Replacement::DeeperAndNewest, Replacement::UnlessDeeper] {
            let mut table = Table::acquire(&tables, replacement, geometry());
            let key = 0xdead_beef_0123_4567;
            let stored = Entry {
                proven: true,
                best: None,
                ..entry(-29_950, -1, Bound::Upper)
            };
            table.store(key, stored);
            assert_eq!(table.probe(key), Some(stored));
            assert_eq!(table.probe(key ^ 1), None, "another key");
            let deep = entry(7, 254, Bound::Lower);
            table.store(key, deep);
            assert_eq!(table.probe(key), Some(deep), "depths up to 254 are kept");
        }
    }

    #[test]
    fn a_deeper_bound_is_not_replaced_by_a_shallower_one_but_an_exact_score_is() {
        let tables = tables();
        let mut table = Table::acquire(&tables, Replacement::UnlessDeeper, geometry());
        let key = 0x1234_5678_9abc_def0;
        let deeper = entry(5, 7, Bound::Lower);
        table.store(key, deeper);
        table.store(key, entry(3, 2, Bound::Upper));
        assert_eq!(table.probe(key), Some(deeper));
        let exact = entry(12, 2, Bound::Exact);
        table.store(key, exact);
        assert_eq!(table.probe(key), Some(exact));
    }

    #[test]
    fn a_bucket_keeps_the_deeper_result_first_and_the_newest_second() {
        let tables = tables();
        let mut table = Table::acquire(&tables, Replacement::DeeperAndNewest, geometry());
        let (a, b, c) = (0x10_u64, 0x11_u64, 0x1_0000_0010_u64);
        table.store(a, entry(1, 9, Bound::Exact));
        table.store(b, entry(2, 3, Bound::Exact));
        assert_eq!(table.probe(a).map(|e| e.score), Some(1));
        assert_eq!(table.probe(b).map(|e| e.score), Some(2));
        table.store(c, entry(3, 1, Bound::Exact));
        assert_eq!(table.probe(a).map(|e| e.score), Some(1), "the deeper stays");
        assert_eq!(table.probe(b), None, "the newest replaced the older second");
        assert_eq!(table.probe(c).map(|e| e.score), Some(3));
    }

    #[test]
    fn a_table_borrowed_again_is_empty() {
        let tables = tables();
        let key = 42;
        for _ in 0..(2 << GENERATION_BITS) {
            let mut table = Table::acquire(&tables, Replacement::DeeperAndNewest, geometry());
            assert_eq!(table.probe(key), None);
            table.store(key, entry(1, 1, Bound::Exact));
        }
    }

    #[test]
    fn a_table_given_back_in_the_middle_of_a_borrow_does_not_give_its_generation_away() {
        let tables = tables();
        // With the idle tables and their generations in two vectors under two locks, a table
        // given back (by another search's thread) between the two steps of a borrow gave its
        // generation to the table borrowed, and entries that table held from an earlier search
        // under that generation read as current.
        let mark = |search: u64| 2 * search + 1_000;
        let mut low = Table::acquire(&tables, Replacement::DeeperAndNewest, geometry());
        // Not the last generation: the one after it is the first, and the table is cleared.
        while low.generation() == (1 << GENERATION_BITS) - 1 {
            drop(low);
            low = Table::acquire(&tables, Replacement::DeeperAndNewest, geometry());
        }
        // Searches, each leaving an entry, until one has run under the generation after low's
        // (the same table each time, unless a test on another thread takes it in between).
        let mut searches = 0;
        loop {
            let mut table = Table::acquire(&tables, Replacement::DeeperAndNewest, geometry());
            for search in 0..searches {
                assert_eq!(table.probe(mark(search)), None, "search {search}");
            }
            table.store(mark(searches), entry(1, 1, Bound::Exact));
            searches += 1;
            if table.generation() == low.generation() + 1 || searches == 1_000 {
                break;
            }
        }
        during_the_next_borrow(move || drop(low));
        let table = Table::acquire(&tables, Replacement::DeeperAndNewest, geometry());
        for search in 0..searches {
            assert_eq!(table.probe(mark(search)), None, "search {search}");
        }
    }

    #[test]
    fn a_search_never_sees_an_earlier_ones_entries_while_other_searches_come_and_go() {
        let tables = tables();
        // Searches on several threads borrow and give back tables at once (what the test above
        // does by hand, left to the scheduler). Each checks it sees none of the keys the
        // searches store, then stores one of them.
        const THREADS: u64 = 4;
        const SEARCHES: u64 = 1_000;
        const KEYS: u64 = 64;
        let tables = &tables;
        std::thread::scope(|scope| {
            for thread in 0..THREADS {
                scope.spawn(move || {
                    for search in 0..SEARCHES {
                        let mut table =
                            Table::acquire(tables, Replacement::DeeperAndNewest, geometry());
                        for key in 0..KEYS {
                            assert_eq!(table.probe(2 * key), None, "search {search}, key {key}");
                        }
                        let key = 2 * ((thread * SEARCHES + search) % KEYS);
                        table.store(key, entry(1, 1, Bound::Exact));
                    }
                });
            }
        });
    }

    /// Every supported geometry: rows, cols and `k`, gravity where it fits, every rule at
    /// `k = 5` without gravity.
    fn every_geometry() -> Vec<Geometry> {
        let mut all = Vec::new();
        for rows in 1..=u64::from(Geometry::MAX_SIDE) {
            for cols in 1..=u64::from(Geometry::MAX_SIDE) {
                for k in 1..=rows.max(cols) {
                    let Ok(geometry) = Geometry::new(rows, cols, k) else {
                        continue;
                    };
                    all.push(geometry);
                    all.extend(geometry.with_gravity(true));
                    for rule in &Rule::ALL[1..] {
                        all.extend(geometry.with_rule(*rule));
                    }
                }
            }
        }
        all
    }

    #[test]
    fn the_same_key_under_two_geometries_is_two_keys_in_the_same_slots() {
        let tables = tables();
        let all = every_geometry();
        let salts: std::collections::HashSet<u64> = all.iter().map(|&g| salt(g)).collect();
        assert_eq!(salts.len(), all.len(), "one salt a geometry");
        assert_eq!(all.len(), 5_569, "every geometry");
        // The salt moves no key to another slot, under either replacement rule.
        let key = 0x0123_4567_89ab_cdef;
        for replacement in [Replacement::DeeperAndNewest, Replacement::UnlessDeeper] {
            let table = Table::acquire(&tables, replacement, geometry());
            for &geometry in &all {
                let salted = key ^ salt(geometry);
                assert_eq!(table.first_slot(salted), table.first_slot(key));
            }
        }
    }

    #[test]
    fn an_entry_stored_for_one_geometry_is_not_read_for_another_even_in_its_generation() {
        let tables = tables();
        let key = 0xfeed_f00d_dead_beef;
        let stored = entry(9, 3, Bound::Exact);
        let square = Geometry::new(4, 4, 3).unwrap();
        let others = [
            Geometry::new(4, 4, 4).unwrap(),
            Geometry::new(4, 5, 3).unwrap(),
            Geometry::new(4, 4, 3).unwrap().with_gravity(true).unwrap(),
            Geometry::new(15, 15, 5).unwrap(),
            Geometry::new(15, 15, 5)
                .unwrap()
                .with_rule(Rule::Renju)
                .unwrap(),
        ];
        for replacement in [Replacement::DeeperAndNewest, Replacement::UnlessDeeper] {
            let mut table = Table::acquire(&tables, replacement, square);
            table.store(key, stored);
            assert_eq!(table.probe(key), Some(stored));
            // The same slots under the same generation, read by a search on another geometry:
            // what a table handed on with a stale generation would show it.
            for other in others {
                table.salt = salt(other);
                assert_eq!(table.probe(key), None, "{other:?}");
            }
            table.salt = salt(square);
            assert_eq!(table.probe(key), Some(stored));
        }
    }
}
