//! The transposition table of the big-board search: one entry per slot, replaced when the new
//! result is at least as deep. Tables come from a small pool, so a busy service does not allocate
//! (and page in) 16 MiB per request.

use std::sync::Mutex;

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
#[derive(Clone, Copy, Debug, Default)]
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

/// A transposition table borrowed from the pool; it goes back when dropped.
pub struct Table {
    entries: Vec<Entry>,
}

static POOL: Mutex<Vec<Vec<Entry>>> = Mutex::new(Vec::new());

impl Table {
    /// An empty table, from the pool when one is idle.
    pub fn acquire() -> Self {
        let reused = POOL.lock().ok().and_then(|mut pool| pool.pop());
        let entries = match reused {
            Some(mut entries) => {
                entries.fill(Entry::default());
                entries
            }
            None => vec![Entry::default(); 1 << TABLE_BITS],
        };
        Self { entries }
    }

    fn slot(&self, key: u64) -> usize {
        (key >> (64 - TABLE_BITS)) as usize
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let entry = self.entries[self.slot(key)];
        (entry.bound != Bound::None && entry.key == key).then_some(entry)
    }

    /// Stores a result, unless a deeper one for the same position is there.
    pub fn store(&mut self, key: u64, entry: Entry) {
        let slot = self.slot(key);
        let old = &mut self.entries[slot];
        if old.key == key && old.depth > entry.depth && entry.bound != Bound::Exact {
            return;
        }
        *old = Entry { key, ..entry };
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        if let Ok(mut pool) = POOL.lock()
            && pool.len() < POOL_MAX
        {
            pool.push(std::mem::take(&mut self.entries));
        }
    }
}
