//! The board of the threat search ([`super::threats`], [`super::root_threats`]): a [`Grid`] with
//! the [`Patterns`] that list the cells making a four, which the VCF walks.

use std::ops::{Deref, DerefMut};

use super::grid::Grid;
use super::patterns::Patterns;
#[cfg(test)]
use crate::engine::game::Geometry;
use crate::engine::game::Player;

/// A [`Grid`] and its four-making cells. The grid's own methods (play, undo, threats) are
/// reached through `Deref`.
pub struct ThreatGrid {
    pub grid: Grid,
    patterns: Patterns,
}

impl ThreatGrid {
    /// Builds the board for `geometry` with the given stones.
    #[cfg(test)]
    pub fn new(geometry: Geometry, stones: &[Option<Player>]) -> Self {
        Self::from(Grid::new(geometry, stones))
    }

    /// See [`Patterns::four_making_cells`].
    pub fn four_making_cells(&mut self, side: Player, out: &mut Vec<u16>) {
        self.patterns.four_making_cells(&self.grid, side, out);
    }
}

impl From<Grid> for ThreatGrid {
    fn from(grid: Grid) -> Self {
        let patterns = Patterns::new(grid.cell_count());
        Self { grid, patterns }
    }
}

impl Deref for ThreatGrid {
    type Target = Grid;
    fn deref(&self) -> &Grid {
        &self.grid
    }
}

impl DerefMut for ThreatGrid {
    fn deref_mut(&mut self) -> &mut Grid {
        &mut self.grid
    }
}
