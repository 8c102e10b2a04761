//! The board's symmetries and the Zobrist keys of the position seen through each of them, so
//! that positions equal up to symmetry share one transposition-table entry.

use crate::engine::core::hash::splitmix;
use crate::engine::game::Player;

/// Zobrist keys of the position under every symmetry of the board, kept up to date move by move.
pub struct Symmetries {
    zobrist: Vec<[u64; 2]>,
    /// Image of each cell under each symmetry of the board.
    maps: Vec<Vec<u16>>,
    /// Inverse of each symmetry.
    inverses: Vec<Vec<u16>>,
    /// The Zobrist key of the position seen through each symmetry.
    keys: Vec<u64>,
}

impl Symmetries {
    /// The keys of the empty `rows` × `cols` board.
    pub fn new(rows: usize, cols: usize) -> Self {
        let n = rows * cols;
        let zobrist = (0..n as u64)
            .map(|c| [splitmix(2 * c + 0x5EED), splitmix(2 * c + 1 + 0x5EED)])
            .collect();
        let maps = symmetries(rows, cols);
        let inverses = maps
            .iter()
            .map(|map| {
                let mut inverse = vec![0; n];
                for (c, &image) in map.iter().enumerate() {
                    inverse[image as usize] = c as u16;
                }
                inverse
            })
            .collect();
        let keys = vec![0; maps.len()];
        Self {
            zobrist,
            maps,
            inverses,
            keys,
        }
    }

    /// Adds or removes (the same operation) a stone of `side` on `cell`.
    pub fn toggle(&mut self, cell: usize, side: Player) {
        for (t, key) in self.keys.iter_mut().enumerate() {
            let image = self.maps[t][cell] as usize;
            *key ^= self.zobrist[image][side.index()];
        }
    }

    /// The symmetry-reduced key: the smallest key over the board's symmetries, and which
    /// symmetry gives it.
    pub fn canonical_key(&self) -> (u64, usize) {
        let mut best = (self.keys[0], 0);
        for (t, &key) in self.keys.iter().enumerate().skip(1) {
            if key < best.0 {
                best = (key, t);
            }
        }
        best
    }

    /// The symmetry-reduced key of the position after a stone of `side` on `cell` (which must
    /// be empty), without playing it.
    pub fn canonical_key_after(&self, cell: usize, side: Player) -> u64 {
        self.keys
            .iter()
            .zip(&self.maps)
            .map(|(key, map)| key ^ self.zobrist[map[cell] as usize][side.index()])
            .min()
            .expect("at least the identity")
    }

    /// `cell` seen through symmetry `t`.
    pub fn canonical_cell(&self, t: usize, cell: usize) -> usize {
        self.maps[t][cell] as usize
    }

    /// The cell that symmetry `t` maps onto `cell`.
    pub fn actual_cell(&self, t: usize, cell: usize) -> usize {
        self.inverses[t][cell] as usize
    }

    /// The key under every symmetry.
    #[cfg(test)]
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }
}

/// The symmetries of a `rows` × `cols` board as cell maps: 8 on a square, 4 on a rectangle.
fn symmetries(rows: usize, cols: usize) -> Vec<Vec<u16>> {
    type Transform = fn(usize, usize, usize, usize) -> (usize, usize);
    let rectangle: [Transform; 4] = [
        |r, c, _, _| (r, c),
        |r, c, _, n| (r, n - 1 - c),
        |r, c, m, _| (m - 1 - r, c),
        |r, c, m, n| (m - 1 - r, n - 1 - c),
    ];
    let square_extra: [Transform; 4] = [
        |r, c, _, _| (c, r),
        |r, c, m, _| (c, m - 1 - r),
        |r, c, _, n| (n - 1 - c, r),
        |r, c, m, n| (n - 1 - c, m - 1 - r),
    ];
    let mut transforms: Vec<Transform> = rectangle.to_vec();
    if rows == cols {
        transforms.extend_from_slice(&square_extra);
    }
    transforms
        .into_iter()
        .map(|t| {
            (0..rows * cols)
                .map(|cell| {
                    let (r, c) = t(cell / cols, cell % cols, rows, cols);
                    (r * cols + c) as u16
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::game::Geometry;

    #[test]
    fn symmetries_are_permutations_that_keep_lines() {
        for (rows, cols, k) in [(4, 4, 3), (3, 5, 3), (5, 5, 4), (2, 5, 2)] {
            let geometry = Geometry::new(rows, cols, k).unwrap();
            let lines: std::collections::HashSet<Vec<usize>> = geometry
                .lines()
                .into_iter()
                .map(|mut l| {
                    l.sort_unstable();
                    l
                })
                .collect();
            for map in symmetries(rows as usize, cols as usize) {
                let mut seen = map.clone();
                seen.sort_unstable();
                seen.dedup();
                assert_eq!(seen.len(), geometry.cells());
                for line in &lines {
                    let mut image: Vec<usize> = line.iter().map(|&c| map[c] as usize).collect();
                    image.sort_unstable();
                    assert!(lines.contains(&image));
                }
            }
        }
    }
}
