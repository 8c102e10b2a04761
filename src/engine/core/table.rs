//! The transposition table both searches use: 2^20 slots of 16 bytes (16 MiB), borrowed from a
//! small pool for one search and given back when dropped, so memory grows with the searches
//! running at once and never with their number over time. A table is emptied in O(1) when it is
//! borrowed, by moving to a new generation.
//!
//! The two searches keep their own replacement rules ([`Replacement`]): the solver's two-way
//! buckets keep the deeper result in the first slot and the newest in the second; the big-board
//! engine keeps one result a slot and replaces it unless a deeper bound is there.

use std::sync::Mutex;

/// Log2 of the number of slots: 2^20 slots of 16 bytes, 16 MiB.
pub const TABLE_BITS: u32 = 20;

/// Tables kept for reuse when no search holds them; more are freed when returned.
const MAX_IDLE_TABLES: usize = 4;

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

/// A transposition table borrowed from the pool; it goes back when dropped.
pub struct Table {
    slots: Vec<Slot>,
    generation: u8,
    replacement: Replacement,
}

static IDLE: Mutex<Vec<Vec<Slot>>> = Mutex::new(Vec::new());
/// The generation of the tables in the pool's last use, so a reused table starts a new one.
static GENERATIONS: Mutex<Vec<u8>> = Mutex::new(Vec::new());

impl Table {
    /// An empty table with the given replacement rule, from the pool when one is idle.
    pub fn acquire(replacement: Replacement) -> Self {
        let idle = IDLE.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let last = GENERATIONS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop()
            .unwrap_or(0);
        let mut table = Self {
            slots: idle.unwrap_or_else(|| vec![Slot::default(); 1 << TABLE_BITS]),
            generation: last,
            replacement,
        };
        table.start_search();
        table
    }

    /// Forgets every entry, by moving to a new generation (clearing the slots when the
    /// generations wrap).
    fn start_search(&mut self) {
        self.generation = (self.generation + 1) % (1 << GENERATION_BITS);
        if self.generation == 0 {
            self.slots.fill(Slot::default());
            self.generation = 1;
        }
    }

    fn first_slot(&self, key: u64) -> usize {
        match self.replacement {
            Replacement::DeeperAndNewest => (key as usize) & (self.slots.len() - 1) & !1,
            Replacement::UnlessDeeper => (key >> (64 - TABLE_BITS)) as usize,
        }
    }

    fn ways(&self) -> usize {
        match self.replacement {
            Replacement::DeeperAndNewest => 2,
            Replacement::UnlessDeeper => 1,
        }
    }

    fn holds(&self, slot: Slot, key: u64) -> bool {
        slot.key == key && generation_of(slot.data) == self.generation
    }

    /// The entry for `key`, if stored in this search.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let first = self.first_slot(key);
        self.slots[first..first + self.ways()]
            .iter()
            .find(|&&slot| self.holds(slot, key))
            .map(|slot| Entry::unpack(slot.data))
    }

    /// Stores a result for `key`, by the table's [`Replacement`] rule.
    pub fn store(&mut self, key: u64, entry: Entry) {
        let first = self.first_slot(key);
        let data = entry.pack(self.generation);
        match self.replacement {
            Replacement::DeeperAndNewest => {
                let old = self.slots[first];
                let old_live = generation_of(old.data) == self.generation;
                let old_depth = i32::from((old.data >> 48) as u8) - 1;
                let depth = entry.depth.clamp(-1, 254);
                let index = if old.key == key || !old_live || depth >= old_depth {
                    first
                } else {
                    first + 1
                };
                if index == first && old.key != key && old_live {
                    self.slots[first + 1] = old;
                }
                self.slots[index] = Slot { key, data };
            }
            Replacement::UnlessDeeper => {
                if entry.bound != Bound::Exact
                    && self.probe(key).is_some_and(|old| old.depth > entry.depth)
                {
                    return;
                }
                self.slots[first] = Slot { key, data };
            }
        }
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        let mut idle = IDLE.lock().unwrap_or_else(|e| e.into_inner());
        if idle.len() < MAX_IDLE_TABLES {
            idle.push(std::mem::take(&mut self.slots));
            GENERATIONS
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(self.generation);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        for replacement in [Replacement::DeeperAndNewest, Replacement::UnlessDeeper] {
            let mut table = Table::acquire(replacement);
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
        let mut table = Table::acquire(Replacement::UnlessDeeper);
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
        let mut table = Table::acquire(Replacement::DeeperAndNewest);
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
        let key = 42;
        for _ in 0..(2 << GENERATION_BITS) {
            let mut table = Table::acquire(Replacement::DeeperAndNewest);
            assert_eq!(table.probe(key), None);
            table.store(key, entry(1, 1, Bound::Exact));
        }
    }
}
