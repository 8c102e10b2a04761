//! Patterns that take a scan of the board's windows: cells where a side makes a four, or two
//! threats at once.

use super::grid::Grid;
use super::marks::Marks;
use crate::engine::game::Player;

/// Scratch space for the pattern scans.
pub struct Patterns {
    /// Cells met in the current scan, and for each the other empty cell of the window it was
    /// met in.
    seen: Marks,
    partner: Vec<u16>,
}

impl Patterns {
    /// Scratch space for a board of `cells` cells.
    pub fn new(cells: usize) -> Self {
        Self {
            seen: Marks::new(cells),
            partner: vec![0; cells],
        }
    }

    /// The empty cells where `side` makes a four (a window with `k - 1` of its stones and none
    /// of the opponent's), each once, in window order, appended to `out`.
    pub fn four_making_cells(&mut self, grid: &Grid, side: Player, out: &mut Vec<u16>) {
        self.seen.clear();
        for w in 0..grid.window_count() {
            if !grid.open_with_missing(w, side, 2) {
                continue;
            }
            for &cell in grid.window(w) {
                if grid.is_empty(cell as usize) && self.seen.insert(cell as usize) {
                    out.push(cell);
                }
            }
        }
    }

    /// A cell where `side` makes two threats on different cells at once, if there is one.
    pub fn double_threat_cell(&mut self, grid: &Grid, side: Player) -> Option<usize> {
        self.seen.clear();
        for w in 0..grid.window_count() {
            if !grid.open_with_missing(w, side, 2) {
                continue;
            }
            let mut pair = [0_usize; 2];
            let mut found = 0;
            for cell in grid.empty_in_window(w) {
                pair[found] = cell;
                found += 1;
            }
            debug_assert_eq!(found, 2);
            for (a, b) in [(pair[0], pair[1]), (pair[1], pair[0])] {
                if self.seen.insert(a) {
                    self.partner[a] = b as u16;
                } else if self.partner[a] as usize != b {
                    return Some(a);
                }
            }
        }
        None
    }
}
