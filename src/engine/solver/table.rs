//! The transposition table: a fixed number of entries, reused across searches through a small
//! pool, so memory is bounded by the number of searches running at once.

use std::sync::Mutex;

/// Entries in one table: 2^20 entries of 16 bytes, 16 MiB a table.
pub const TABLE_BITS: u32 = 20;

/// Tables kept for reuse when no search holds them; more are freed when returned.
const MAX_IDLE_TABLES: usize = 4;

/// What the stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value itself.
    Exact,
    /// The value is at least the score.
    Lower,
    /// The value is at most the score.
    Upper,
}

const NO_MOVE: u8 = u8::MAX;
const FLAG_LOWER: u8 = 1;
const FLAG_UPPER: u8 = 2;
const FLAG_PROVEN: u8 = 4;

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    score: i32,
    best: u8,
    depth: u8,
    flags: u8,
    generation: u8,
}

/// A stored result, as found by [`Table::probe`].
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The score, relative to the node (mate distances counted from the node).
    pub score: i32,
    /// What the score bounds.
    pub bound: Bound,
    /// Remaining depth the result was searched to.
    pub depth: i32,
    /// Whether no static evaluation contributed to it (then it holds at any depth).
    pub proven: bool,
    /// The best or refuting move, in the canonical orientation.
    pub best: Option<usize>,
}

/// A two-way bucketed table: the first slot keeps the deeper result, the second the newest.
pub struct Table {
    slots: Vec<Slot>,
    generation: u8,
}

impl Table {
    fn new() -> Self {
        Self {
            slots: vec![Slot::default(); 1 << TABLE_BITS],
            generation: 0,
        }
    }

    /// Forgets every entry (in O(1), by moving to a new generation).
    fn start_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.slots.fill(Slot::default());
            self.generation = 1;
        }
    }

    fn bucket(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1) & !1
    }

    /// The entry for `key`, if stored in this search.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        self.slots[b..b + 2]
            .iter()
            .find(|s| s.key == key && s.generation == self.generation)
            .map(|s| Entry {
                score: s.score,
                bound: match s.flags & (FLAG_LOWER | FLAG_UPPER) {
                    FLAG_LOWER => Bound::Lower,
                    FLAG_UPPER => Bound::Upper,
                    _ => Bound::Exact,
                },
                depth: i32::from(s.depth),
                proven: s.flags & FLAG_PROVEN != 0,
                best: (s.best != NO_MOVE).then_some(s.best as usize),
            })
    }

    /// Stores a result for `key`.
    pub fn store(&mut self, key: u64, entry: Entry) {
        let b = self.bucket(key);
        let generation = self.generation;
        let depth = entry.depth.clamp(0, 254) as u8;
        let first = self.slots[b];
        let index = if first.key == key || first.generation != generation || depth >= first.depth {
            b
        } else {
            b + 1
        };
        let flags = match entry.bound {
            Bound::Exact => 0,
            Bound::Lower => FLAG_LOWER,
            Bound::Upper => FLAG_UPPER,
        } | if entry.proven { FLAG_PROVEN } else { 0 };
        if index == b && first.key != key && first.generation == generation {
            self.slots[b + 1] = first;
        }
        self.slots[index] = Slot {
            key,
            score: entry.score,
            best: entry.best.map_or(NO_MOVE, |m| m as u8),
            depth,
            flags,
            generation,
        };
    }
}

static IDLE: Mutex<Vec<Table>> = Mutex::new(Vec::new());

/// A table borrowed from the pool for one search; it goes back when dropped.
pub struct PooledTable(Option<Table>);

impl PooledTable {
    /// Takes an idle table or allocates one, emptied for a new search.
    pub fn acquire() -> Self {
        let idle = IDLE.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut table = idle.unwrap_or_else(Table::new);
        table.start_search();
        Self(Some(table))
    }
}

impl std::ops::Deref for PooledTable {
    type Target = Table;
    fn deref(&self) -> &Table {
        self.0.as_ref().expect("held until drop")
    }
}

impl std::ops::DerefMut for PooledTable {
    fn deref_mut(&mut self) -> &mut Table {
        self.0.as_mut().expect("held until drop")
    }
}

impl Drop for PooledTable {
    fn drop(&mut self) {
        if let Some(table) = self.0.take() {
            let mut idle = IDLE.lock().unwrap_or_else(|e| e.into_inner());
            if idle.len() < MAX_IDLE_TABLES {
                idle.push(table);
            }
        }
    }
}
