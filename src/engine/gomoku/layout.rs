//! Where the cells of a board sit in the pattern board's array: row by row, with a margin of
//! wall cells (the pattern keys' reach) on every side, so that a cell's neighbours along a line (up to `k - 1`
//! away) never leave the array. "Padded" indices are positions in that array; the position's
//! own (row-major) indices are "unpadded".

use crate::engine::game::Geometry;

/// The padded array of one geometry.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    rows: usize,
    cols: usize,
    /// The margin: the pattern keys' reach, `k - 1` (freestyle) or `k` (other rules).
    pad: usize,
    /// The length of a padded row.
    stride: usize,
    /// The four line directions (row, column, diagonal, anti-diagonal), as steps in the array.
    pub steps: [isize; 4],
}

impl Layout {
    /// The layout of `geometry`'s board.
    pub fn new(geometry: Geometry) -> Self {
        // The pattern keys' reach (see `PatternTable::reach`): rules that look past a five need
        // one more cell.
        let pad = if geometry.rule() == crate::engine::game::Rule::Freestyle {
            geometry.k() - 1
        } else {
            geometry.k()
        };
        let stride = geometry.cols() + 2 * pad;
        Self {
            rows: geometry.rows(),
            cols: geometry.cols(),
            pad,
            stride,
            steps: [1, stride as isize, stride as isize + 1, stride as isize - 1],
        }
    }

    /// Cells in the array, margin included.
    pub fn len(&self) -> usize {
        self.stride * (self.rows + 2 * self.pad)
    }

    /// Whether the padded index `at` is a cell of the board, not of the margin.
    pub fn inside(&self, at: usize) -> bool {
        (self.pad..self.pad + self.rows).contains(&(at / self.stride))
            && (self.pad..self.pad + self.cols).contains(&(at % self.stride))
    }

    /// The padded index of a row-major cell index.
    pub fn padded(&self, index: usize) -> usize {
        let (row, col) = (index / self.cols, index % self.cols);
        (row + self.pad) * self.stride + col + self.pad
    }

    /// The row-major cell index of a padded index.
    pub fn unpadded(&self, at: usize) -> usize {
        let (row, col) = (at / self.stride - self.pad, at % self.stride - self.pad);
        row * self.cols + col
    }

    /// Twice the distance, in rows plus columns, from the padded cell `at` to the board's centre
    /// (doubled so that the centre of an even side, between two cells, is a whole number).
    pub fn distance_to_centre(&self, at: usize) -> usize {
        let (row, col) = (at / self.stride - self.pad, at % self.stride - self.pad);
        (2 * row).abs_diff(self.rows - 1) + (2 * col).abs_diff(self.cols - 1)
    }

    /// The length of a padded row: the step from a cell to the one below it.
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// Whether `a` and `b` (padded) share a row, column or diagonal, at most `reach` apart.
    pub fn on_star(&self, a: usize, b: usize, reach: usize) -> bool {
        let (ra, ca) = (a / self.stride, a % self.stride);
        let (rb, cb) = (b / self.stride, b % self.stride);
        let (dr, dc) = (ra.abs_diff(rb), ca.abs_diff(cb));
        dr.max(dc) <= reach && (dr == 0 || dc == 0 || dr == dc)
    }

    /// The cells in line with `at` (padded) and at most `k - 1` apart, that is within one line
    /// of `k` of it, `at` excluded: margin cells among them, never empty, but no index off
    /// the array (the margin is `k - 1` wide).
    pub fn within_a_line(&self, at: usize) -> impl Iterator<Item = usize> + use<> {
        let (at, reach) = (at as isize, self.pad as isize);
        self.steps.into_iter().flat_map(move |step| {
            (1..=reach).flat_map(move |d| [at - d * step, at + d * step].map(|a| a as usize))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_map_to_the_padded_array_and_back() {
        for (rows, cols, k) in [(15, 15, 5), (10, 12, 4), (11, 11, 6)] {
            let geometry = Geometry::new(rows, cols, k).unwrap();
            let (rows, cols, k) = (geometry.rows(), geometry.cols(), geometry.k());
            let layout = Layout::new(geometry);
            let inside: Vec<usize> = (0..layout.len()).filter(|&a| layout.inside(a)).collect();
            let padded: Vec<usize> = (0..rows * cols).map(|i| layout.padded(i)).collect();
            assert_eq!(inside, padded, "{rows}x{cols}: row-major order is kept");
            for (i, &at) in padded.iter().enumerate() {
                assert_eq!(layout.unpadded(at), i);
                // Every neighbour within k - 1 along a line is in the array.
                assert!(layout.within_a_line(at).all(|a| a < layout.len()));
                assert_eq!(layout.within_a_line(at).count(), 8 * (k - 1));
            }
        }
    }

    #[test]
    fn on_star_is_a_line_through_both_cells_within_reach() {
        let layout = Layout::new(Geometry::new(15, 15, 5).unwrap());
        let at = |row: usize, col: usize| layout.padded(row * 15 + col);
        assert!(layout.on_star(at(7, 7), at(7, 11), 4));
        assert!(layout.on_star(at(7, 7), at(3, 11), 4));
        assert!(!layout.on_star(at(7, 7), at(7, 12), 4));
        assert!(!layout.on_star(at(7, 7), at(8, 9), 4));
        assert_eq!(at(1, 0) - at(0, 0), layout.stride());
    }
}
