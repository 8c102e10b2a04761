//! The windows of a board: every run of `k` cells in a row, column or diagonal, and the windows
//! through each cell. Fixed for a geometry.

use crate::engine::game::Geometry;

/// The windows of one geometry, as flat tables.
pub struct Windows {
    k: usize,
    /// The `k` cells of each window, window after window.
    cells: Vec<u16>,
    /// Windows through each cell: `through[start[c]..start[c + 1]]`.
    start: Vec<u32>,
    through: Vec<u32>,
}

impl Windows {
    /// The windows of `geometry`.
    pub fn new(geometry: Geometry) -> Self {
        let k = geometry.k();
        let lines = geometry.line_list();
        let mut cells = Vec::with_capacity(lines.len() * k);
        let mut per_cell: Vec<Vec<u32>> = vec![Vec::new(); geometry.cells()];
        for (w, line) in lines.iter().enumerate() {
            for &c in line {
                cells.push(c as u16);
                per_cell[c].push(w as u32);
            }
        }
        let mut start = Vec::with_capacity(per_cell.len() + 1);
        let mut through = Vec::new();
        for list in &per_cell {
            start.push(through.len() as u32);
            through.extend_from_slice(list);
        }
        start.push(through.len() as u32);
        Self {
            k,
            cells,
            start,
            through,
        }
    }

    /// Cells in a window.
    pub fn k(&self) -> usize {
        self.k
    }

    /// Number of windows.
    pub fn count(&self) -> usize {
        self.cells.len() / self.k
    }

    /// The `k` cells of window `w`.
    pub fn cells(&self, w: usize) -> &[u16] {
        &self.cells[w * self.k..(w + 1) * self.k]
    }

    /// The windows through `cell`.
    pub fn through(&self, cell: usize) -> &[u32] {
        &self.through[self.through_range(cell)]
    }

    /// Where the windows through `cell` stand in the list read by [`Self::nth_through`] (for
    /// callers that update the board while they walk the windows of a cell).
    pub fn through_range(&self, cell: usize) -> std::ops::Range<usize> {
        self.start[cell] as usize..self.start[cell + 1] as usize
    }

    /// Entry `i` of the list of windows through cells.
    pub fn nth_through(&self, i: usize) -> usize {
        self.through[i] as usize
    }
}
