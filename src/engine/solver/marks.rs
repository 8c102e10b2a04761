//! A set of small indices (cells, lines) emptied in O(1), for scratch marks in the searches.

/// A set of indices below a fixed bound, emptied in O(1) by moving to a new generation.
pub struct Marks {
    stamps: Vec<u32>,
    current: u32,
}

impl Marks {
    /// An empty set of indices below `len`.
    pub fn new(len: usize) -> Self {
        Self {
            stamps: vec![0; len],
            current: 1,
        }
    }

    /// Empties the set.
    pub fn clear(&mut self) {
        self.current = self.current.wrapping_add(1);
        if self.current == 0 {
            self.stamps.fill(0);
            self.current = 1;
        }
    }

    /// Adds `index`; whether it was not in the set before.
    pub fn insert(&mut self, index: usize) -> bool {
        let new = self.stamps[index] != self.current;
        self.stamps[index] = self.current;
        new
    }
}
