//! The transposition table: a lower and an upper bound on the score of each position met, in
//! one `u64` per entry, at a fixed size (bounded memory), always replacing.
//!
//! A gravity position's score does not depend on how deep the search is (the search always goes
//! to the end of the game), so a bound stays true for every later search: the table needs no
//! depth and no age.
//!
//! The entries are atomic words read and written with relaxed ordering (plain loads and stores
//! on the usual targets), so the threads of one analysis share a table: an entry is one word,
//! never torn, and every word written holds true bounds for the key it names, so a race can at
//! worst lose what one thread learnt, never make another wrong.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::bits::Bits;
use crate::engine::core::hash::splitmix;
use crate::engine::core::pool::{Pooled, Renew, Tables};

/// Entries in a full-size table: a prime a little over 2^23, 64 MiB, unless the build sets
/// `GRAVITY_TABLE_ENTRIES` (a decimal number above 2^23, best a prime: 67108879 for 512 MiB),
/// which long book builds on a machine with memory to spare may want (`docs/connect4.md`).
/// The service is built without it: each search slot takes a table.
pub const ENTRIES: usize = match option_env!("GRAVITY_TABLE_ENTRIES") {
    Some(digits) => entries_from(digits),
    None => (1 << 23) + 9,
};

/// `GRAVITY_TABLE_ENTRIES` read at compile time: more than 2^23, so that a key's quotient by
/// the size fits the entry's check bits and lookups on 64-bit boards stay exact.
const fn entries_from(digits: &str) -> usize {
    let bytes = digits.as_bytes();
    let mut value = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        assert!(
            bytes[i].is_ascii_digit(),
            "GRAVITY_TABLE_ENTRIES is a decimal number"
        );
        value = value * 10 + (bytes[i] - b'0') as usize;
        i += 1;
    }
    assert!(
        value > 1 << 23,
        "GRAVITY_TABLE_ENTRIES is above 2^23 (8388608)"
    );
    value
}

/// The bounds known for a position, from the side to move's point of view (Pons scores).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub lower: i32,
    pub upper: i32,
}

impl Bounds {
    /// A score known exactly.
    pub const fn exact(score: i32) -> Self {
        Self {
            lower: score,
            upper: score,
        }
    }

    /// The same bounds from the other side's point of view.
    pub const fn negated(self) -> Self {
        Self {
            lower: -self.upper,
            upper: -self.lower,
        }
    }
}

/// A table of `u64` entries: the key's quotient by the table size (41 bits), the generation
/// of the search that wrote it (7 bits), the lower and the upper bound (8 bits each, offset by
/// 128).
///
/// The index is the key modulo the (prime) size and the entry keeps the quotient, so two keys
/// below `size × 2^41` (more than 2^64) never share an entry's index and check (the Chinese
/// remainder trick of Pons' solver): lookups on every board of up to 64 bits (7 × 6 takes 49)
/// are exact. Larger keys (boards of 65 to 128 bits) are hashed first; a false match there has
/// a probability of about 2^-41 per lookup.
///
/// Tables are borrowed from the engine's tables ([`Table::borrow`], under the one memory budget
/// of [`crate::engine::core::pool`]) and each search gets a new generation, kept in the table, so
/// that it starts from an empty table (its answer never depends on earlier searches) without
/// clearing 64 MiB every time. `Default` is a table without entries, a placeholder.
#[derive(Default)]
pub struct Table {
    entries: Box<[AtomicU64]>,
    generation: u64,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("entries", &self.entries.len())
            .field("generation", &self.generation)
            .finish()
    }
}

const CHECK_BITS: u32 = 41;
const GENERATIONS: u64 = 1 << 7;

/// A table borrowed from the engine's tables for one search; it goes back when dropped.
pub type Borrowed = Pooled<Table>;

impl Renew for Table {
    const BYTES: usize = ENTRIES * size_of::<AtomicU64>();

    /// A table of [`ENTRIES`] entries (64 MiB by default).
    fn fresh() -> Self {
        Self {
            entries: (0..ENTRIES).map(|_| AtomicU64::new(0)).collect(),
            generation: 0,
        }
    }

    /// A new generation (clearing the entries when the generations wrap).
    fn renew(&mut self) {
        self.generation += 1;
        if self.generation == GENERATIONS {
            for entry in &mut self.entries {
                *entry.get_mut() = 0;
            }
            self.generation = 1;
        }
    }
}

impl Table {
    /// An empty table for one search from `tables`: an idle one under a new generation, or a
    /// new one of [`ENTRIES`] entries.
    pub fn borrow(tables: &Tables) -> Borrowed {
        tables.borrow()
    }

    #[inline]
    fn slot<B: Bits>(&self, key: B) -> (usize, u64) {
        // A constant divisor: the compiler turns the divisions into multiplications.
        let size = ENTRIES as u64;
        if B::WIDTH <= 64 {
            let key = key.to_u128() as u64;
            return ((key % size) as usize, key / size);
        }
        let key = key.to_u128();
        let size128 = u128::from(size);
        if key < size128 << CHECK_BITS {
            return ((key % size128) as usize, (key / size128) as u64);
        }
        // Mix both halves with the engine's one hash.
        let low = key as u64;
        let high = (key >> 64) as u64;
        let mixed = splitmix(low ^ high.rotate_left(29));
        let check = splitmix(high ^ low.rotate_left(17));
        ((mixed % size) as usize, check >> (64 - CHECK_BITS))
    }

    /// The tag of an entry of this search for a key with `check`.
    #[inline]
    fn tag(&self, check: u64) -> u64 {
        (check << 7 | self.generation) << 16
    }

    /// The bounds stored for `key` in this search, if any.
    #[inline]
    pub fn get<B: Bits>(&self, key: B) -> Option<Bounds> {
        let (index, check) = self.slot(key);
        let entry = self.entries[index].load(Relaxed);
        if entry & !0xffff != self.tag(check) {
            return None;
        }
        Some(Bounds {
            lower: ((entry >> 8) & 0xff) as i32 - 128,
            upper: (entry & 0xff) as i32 - 128,
        })
    }

    /// The least upper bound stored in this search for any of `keys` (at most [`MAX_SIDE`](super::MAX_SIDE)), if any is.
    /// Every entry is read before any is looked at, so that their cache misses overlap.
    #[inline]
    pub fn least_upper<B: Bits>(&self, keys: &[B]) -> Option<i32> {
        let mut read = [(0u64, 0u64); super::MAX_SIDE];
        for (slot, &key) in read.iter_mut().zip(keys) {
            let (index, check) = self.slot(key);
            *slot = (self.entries[index].load(Relaxed), self.tag(check));
        }
        read[..keys.len()]
            .iter()
            .filter(|&&(entry, tag)| entry & !0xffff == tag)
            .map(|&(entry, _)| (entry & 0xff) as i32 - 128)
            .min()
    }

    /// Records that `key`'s score lies in `[lower, upper]`, keeping what was known of it.
    #[inline]
    pub fn put<B: Bits>(&self, key: B, lower: i32, upper: i32) {
        let (index, check) = self.slot(key);
        let tag = self.tag(check);
        let entry = self.entries[index].load(Relaxed);
        let (mut lower, mut upper) = (lower, upper);
        if entry & !0xffff == tag {
            lower = lower.max(((entry >> 8) & 0xff) as i32 - 128);
            upper = upper.min((entry & 0xff) as i32 - 128);
        }
        self.entries[index].store(
            tag | (((lower + 128) as u64) << 8) | ((upper + 128) as u64),
            Relaxed,
        );
    }
}
