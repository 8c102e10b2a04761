//! The opening book: the exact score of every 7 × 6 Connect Four position up to a number of
//! stones, computed by this solver (`cargo run --release --bin connect4-book`) and built into
//! the binary.
//!
//! Format (little-endian): the 8 bytes `GRAVBOOK`, a version byte (1), rows, columns, `k` and
//! the depth (the most stones a position in the book has) as one byte each, the number of
//! entries as a `u32`, then every entry's key as a `u64` in increasing order, then every entry's
//! score as an `i8` in the same order. A key is the mirror-reduced position key (the smaller of
//! the position's and its mirror image's); a score is Pons' score from the side to move.

use std::sync::OnceLock;

const MAGIC: &[u8; 8] = b"GRAVBOOK";
const VERSION: u8 = 1;
const HEADER: usize = 8 + 1 + 4 + 4;

/// A book: sorted keys and their scores, for one board size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    /// Rows, columns and `k` of the board it is for.
    pub geometry: (u32, u32, u32),
    /// The most stones a position in the book has.
    pub depth: i32,
    keys: Vec<u64>,
    scores: Vec<i8>,
}

/// Why a book could not be read or built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    /// Books are for gravity boards of up to 64 bits (`(rows + 1) × cols`), to a depth of at
    /// most the board's cells and 255.
    #[error(
        "books are for gravity boards of up to 64 bits, to a depth of at most their cells and 255"
    )]
    Size,
    /// The bytes do not start with the book's magic and version.
    #[error("not a gravity book (bad magic or version)")]
    Header,
    /// The bytes end before the entries the header announces.
    #[error("the book is truncated")]
    Truncated,
    /// The keys are not in strictly increasing order.
    #[error("the book's keys are not sorted")]
    Unsorted,
    /// A position of the frontier (the deepest level) has no score: a shard is missing or
    /// unfinished.
    #[error("the frontier position with key {key:#x} has no score")]
    Missing {
        /// Its mirror-reduced key.
        key: u64,
    },
    /// A score for a key that is not on the frontier: from another board or depth.
    #[error("the key {key:#x} is not on this book's frontier")]
    Stray {
        /// The key.
        key: u64,
    },
}

impl Book {
    /// A book from its entries, in any order (duplicates keep the first score).
    #[must_use]
    pub fn from_entries(
        geometry: (u32, u32, u32),
        depth: i32,
        mut entries: Vec<(u64, i8)>,
    ) -> Self {
        entries.sort_unstable_by_key(|&(key, _)| key);
        entries.dedup_by_key(|&mut (key, _)| key);
        Self {
            geometry,
            depth,
            keys: entries.iter().map(|&(key, _)| key).collect(),
            scores: entries.iter().map(|&(_, score)| score).collect(),
        }
    }

    /// Reads a book written by [`Book::to_bytes`].
    ///
    /// # Errors
    /// When the bytes are not a whole, sorted book.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, BookError> {
        if bytes.len() < HEADER || &bytes[..8] != MAGIC || bytes[8] != VERSION {
            return Err(BookError::Header);
        }
        let geometry = (
            u32::from(bytes[9]),
            u32::from(bytes[10]),
            u32::from(bytes[11]),
        );
        let depth = i32::from(bytes[12]);
        let count = u32::from_le_bytes(bytes[13..17].try_into().expect("four bytes")) as usize;
        let body = &bytes[HEADER..];
        if body.len() != count * 9 {
            return Err(BookError::Truncated);
        }
        let (keys, scores) = body.split_at(count * 8);
        let keys: Vec<u64> = keys
            .chunks_exact(8)
            .map(|chunk| u64::from_le_bytes(chunk.try_into().expect("eight bytes")))
            .collect();
        if keys.windows(2).any(|pair| pair[0] >= pair[1]) {
            return Err(BookError::Unsorted);
        }
        Ok(Self {
            geometry,
            depth,
            keys,
            scores: scores.iter().map(|&b| b as i8).collect(),
        })
    }

    /// The book as bytes, in the format above.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + self.keys.len() * 9);
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        let (rows, cols, k) = self.geometry;
        for value in [rows, cols, k, self.depth as u32] {
            out.push(u8::try_from(value).expect("book sizes fit in a byte"));
        }
        out.extend_from_slice(&(self.keys.len() as u32).to_le_bytes());
        for key in &self.keys {
            out.extend_from_slice(&key.to_le_bytes());
        }
        out.extend(self.scores.iter().map(|&s| s as u8));
        out
    }

    /// Positions in the book.
    #[must_use]
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the book is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The score of the position with mirror-reduced key `key` and `moves` stones, if the
    /// book has it.
    #[inline]
    pub fn get(&self, key: u128, moves: i32) -> Option<i32> {
        if moves > self.depth {
            return None;
        }
        let key = u64::try_from(key).ok()?;
        self.keys
            .binary_search(&key)
            .ok()
            .map(|i| i32::from(self.scores[i]))
    }
}

/// The 7 × 6 book built into the binary.
pub fn connect_four() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| {
        Book::from_bytes(include_bytes!("connect4.book")).expect("the built-in book is well formed")
    })
}
