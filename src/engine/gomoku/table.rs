//! The transposition table of the big-board search: one entry per slot, replaced when the new
//! result is at least as deep. The table is shared by the threads of one search (see
//! [`super::root`]): each slot is two atomic words, the key xor the data and the data, so a
//! slot torn by two threads writing at once reads as empty rather than as another position's
//! result (the lockless scheme of Hyatt and Mann). Tables come from a small pool, so a busy
//! service does not allocate (and page in) 16 MiB per request.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// Log2 of the number of entries: 2^20 entries of 16 bytes, 16 MiB.
pub const TABLE_BITS: u32 = 20;
/// Idle tables kept for reuse.
const POOL_MAX: usize = 4;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bound {
    /// Nothing stored.
    #[default]
    None,
    /// The value is exactly the score.
    Exact,
    /// The value is at least the score (the search failed high).
    Lower,
    /// The value is at most the score (the search failed low).
    Upper,
}

/// One stored result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// The position's hash.
    pub key: u64,
    /// The score, relative to the node (wins counted from it).
    pub score: i32,
    /// The best move found (a padded cell), or `u16::MAX`.
    pub best: u16,
    /// The depth searched.
    pub depth: i8,
    /// How `score` bounds the value.
    pub bound: Bound,
}

impl Entry {
    /// Everything but the key in one word.
    fn pack(&self) -> u64 {
        let bound = match self.bound {
            Bound::None => 0,
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        u64::from(self.score as u32)
            | (u64::from(self.best) << 32)
            | (u64::from(self.depth as u8) << 48)
            | (bound << 56)
    }

    fn unpack(key: u64, data: u64) -> Self {
        let bound = match data >> 56 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => Bound::None,
        };
        Self {
            key,
            score: data as u32 as i32,
            best: (data >> 32) as u16,
            depth: (data >> 48) as u8 as i8,
            bound,
        }
    }
}

/// One slot: the key xor the data, and the data.
type Slot = [AtomicU64; 2];

/// A transposition table borrowed from the pool; it goes back when dropped.
pub struct Table {
    slots: Vec<Slot>,
}

static POOL: Mutex<Vec<Vec<Slot>>> = Mutex::new(Vec::new());

impl Table {
    /// An empty table, from the pool when one is idle.
    pub fn acquire() -> Self {
        let reused = POOL.lock().ok().and_then(|mut pool| pool.pop());
        let slots = match reused {
            Some(mut slots) => {
                for slot in &mut slots {
                    *slot[0].get_mut() = 0;
                    *slot[1].get_mut() = 0;
                }
                slots
            }
            None => (0..1_usize << TABLE_BITS)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
        };
        Self { slots }
    }

    fn slot(&self, key: u64) -> &Slot {
        &self.slots[(key >> (64 - TABLE_BITS)) as usize]
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slot(key);
        let check = slot[0].load(Ordering::Relaxed);
        let data = slot[1].load(Ordering::Relaxed);
        let entry = Entry::unpack(key, data);
        (entry.bound != Bound::None && check ^ data == key).then_some(entry)
    }

    /// Stores a result, unless a deeper one for the same position is there.
    pub fn store(&self, key: u64, entry: Entry) {
        if entry.bound != Bound::Exact && self.probe(key).is_some_and(|old| old.depth > entry.depth)
        {
            return;
        }
        let data = entry.pack();
        let slot = self.slot(key);
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        if let Ok(mut pool) = POOL.lock()
            && pool.len() < POOL_MAX
        {
            pool.push(std::mem::take(&mut self.slots));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_come_back_as_stored_and_only_for_their_key() {
        let table = Table::acquire();
        let key = 0xdead_beef_0123_4567;
        let entry = Entry {
            key,
            score: -29_950,
            best: 300,
            depth: -1,
            bound: Bound::Upper,
        };
        table.store(key, entry);
        assert_eq!(table.probe(key), Some(entry));
        assert_eq!(table.probe(key ^ 1), None, "same slot, another key");
        // A shallower bound does not replace a deeper one; an exact score does.
        let deeper = Entry {
            depth: 7,
            bound: Bound::Lower,
            ..entry
        };
        table.store(key, deeper);
        table.store(key, entry);
        assert_eq!(table.probe(key), Some(deeper));
        let exact = Entry {
            bound: Bound::Exact,
            score: 12,
            ..entry
        };
        table.store(key, exact);
        assert_eq!(table.probe(key), Some(exact));
    }

    #[test]
    fn a_slot_torn_between_two_writers_reads_as_empty() {
        let table = Table::acquire();
        let (a, b) = (0x1234_0000_0000_0001_u64, 0x1234_0000_0000_0002_u64);
        let entry = |key: u64| Entry {
            key,
            score: if key == a { 100 } else { -7_000 },
            best: 1,
            depth: 3,
            bound: Bound::Exact,
        };
        table.store(a, entry(a));
        let slot = table.slot(b);
        // Another thread's key word lands, its data word does not.
        slot[0].store(b ^ entry(b).pack(), Ordering::Relaxed);
        assert_eq!(table.probe(a), None);
        assert_eq!(table.probe(b), None);
    }
}
