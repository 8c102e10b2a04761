//! The search's board: cells, per-window stone counts kept up to date on every move, and the
//! Zobrist keys of the position under each symmetry of the board.
//!
//! Everything the search asks at a node (an immediate win, the opponent's threats, whether any
//! line is still open, the static evaluation) is a lookup in counters that `play` and `undo`
//! maintain, so a node costs a few dozen additions rather than a scan of the board.

use super::rules::Rules;
use super::symmetry::Symmetries;
use super::weights::{MovePriority, window_weight};
use super::windows::Windows;
use crate::engine::game::{Geometry, Player, Rule};

/// What one window contributes to the per-side counters, given its stone counts.
#[derive(Clone, Copy, Default)]
struct Contribution {
    /// 1 when the window holds no stone of the other side (the side can still complete it).
    live: [u32; 2],
    /// 1 when the side needs one more stone here and the other side has none: a threat.
    threats: [u32; 2],
    /// 1 when the side needs two more stones here and the other side has none.
    twos: [u32; 2],
    /// The window's weight in the static evaluation, per side.
    weight: [i64; 2],
}

/// The incrementally updated board.
pub struct Grid {
    /// 0 for empty, `side index + 1` for a stone.
    cells: Vec<u8>,
    windows: Windows,
    /// Stones of each side in each window.
    counts: Vec<[u8; 2]>,
    /// Windows through each cell that do not hold stones of both sides: a cell with none is
    /// dead, and playing it is as good as playing any other dead cell.
    cell_live: Vec<u8>,
    /// Contribution of a window by its counts, indexed `x * (k + 1) + o`.
    contribution: Vec<Contribution>,
    /// Windows each side can still complete.
    live: [u32; 2],
    /// Windows where each side has `k - 1` stones and the other none.
    threats: [u32; 2],
    /// Windows where each side has `k - 2` stones and the other none.
    twos: [u32; 2],
    /// Sum of window weights per side (the static evaluation's raw material).
    weight: [i64; 2],
    /// Sum of the centre bonuses of each side's stones: a small positional term of the static
    /// evaluation, so that open boards prefer the centre over equally open cells elsewhere.
    centre: [i64; 2],
    /// Per cell: the centre bonus of a stone there.
    centre_bonus: Vec<i64>,
    /// Empty cells left.
    empties: u32,
    symmetries: Symmetries,
    priority: MovePriority,
    /// The gomoku rule: which full windows win, and black's forbidden cells under renju.
    rules: Rules,
}

impl Grid {
    /// Builds the board for `geometry` with the given stones.
    pub fn new(geometry: Geometry, stones: &[Option<Player>]) -> Self {
        let (rows, cols, k) = (geometry.rows(), geometry.cols(), geometry.k());
        let n = geometry.cells();
        let windows = Windows::new(geometry);
        let mut contribution = vec![Contribution::default(); (k + 1) * (k + 1)];
        for x in 0..=k {
            for o in 0..=k {
                let mut c = Contribution::default();
                for (side, own, other) in [(0, x, o), (1, o, x)] {
                    if other == 0 {
                        c.live[side] = 1;
                        c.weight[side] = window_weight(own);
                        c.threats[side] = u32::from(own + 1 == k);
                        c.twos[side] = u32::from(own + 2 == k);
                    }
                }
                contribution[x * (k + 1) + o] = c;
            }
        }
        let priority = MovePriority::new(geometry);
        let rules = Rules::new(geometry, &windows);
        let mut grid = Self {
            cells: vec![0; n],
            counts: vec![[0, 0]; windows.count()],
            cell_live: (0..n).map(|c| windows.through(c).len() as u8).collect(),
            windows,
            contribution,
            live: [0; 2],
            threats: [0; 2],
            twos: [0; 2],
            weight: [0; 2],
            centre: [0; 2],
            centre_bonus: priority.centre_bonuses(),
            empties: n as u32,
            symmetries: Symmetries::new(rows, cols),
            priority,
            rules,
        };
        for w in 0..grid.window_count() {
            grid.account(w, 1);
        }
        for (c, stone) in stones.iter().enumerate() {
            if let Some(player) = stone {
                grid.play(c, *player);
            }
        }
        grid
    }

    /// Number of cells.
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// Whether `cell` is empty.
    pub fn is_empty(&self, cell: usize) -> bool {
        self.cells[cell] == 0
    }

    /// Empty cells left.
    pub fn empties(&self) -> u32 {
        self.empties
    }

    /// Windows `side` can still complete.
    pub fn live(&self, side: Player) -> u32 {
        self.live[side.index()]
    }

    /// Whether neither side can complete any window any more.
    pub fn all_dead(&self) -> bool {
        self.live == [0, 0]
    }

    /// Windows where `side` needs one more stone and the opponent has none.
    pub fn threats(&self, side: Player) -> u32 {
        self.threats[side.index()]
    }

    /// Windows where `side` needs two more stones and the opponent has none.
    pub fn twos(&self, side: Player) -> u32 {
        self.twos[side.index()]
    }

    /// The sum of the weights of the windows `side` can still complete.
    pub fn weight(&self, side: Player) -> i64 {
        self.weight[side.index()]
    }

    /// The sum of the centre bonuses of `side`'s stones.
    pub fn centre(&self, side: Player) -> i64 {
        self.centre[side.index()]
    }

    /// Number of windows.
    pub fn window_count(&self) -> usize {
        self.counts.len()
    }

    /// The `k` cells of window `w`.
    pub fn window(&self, w: usize) -> &[u16] {
        self.windows.cells(w)
    }

    /// Stones of `side` in window `w`.
    pub fn count(&self, w: usize, side: Player) -> u8 {
        self.counts[w][side.index()]
    }

    /// The windows through `cell`.
    pub fn windows_of(&self, cell: usize) -> &[u32] {
        self.windows.through(cell)
    }

    fn account(&mut self, w: usize, sign: i64) {
        let [x, o] = self.counts[w];
        let c = self.contribution[x as usize * (self.windows.k() + 1) + o as usize];
        if sign > 0 {
            for s in 0..2 {
                self.live[s] += c.live[s];
                self.threats[s] += c.threats[s];
                self.twos[s] += c.twos[s];
                self.weight[s] += c.weight[s];
            }
        } else {
            for s in 0..2 {
                self.live[s] -= c.live[s];
                self.threats[s] -= c.threats[s];
                self.twos[s] -= c.twos[s];
                self.weight[s] -= c.weight[s];
            }
        }
    }

    /// Puts a stone of `side` on the empty `cell`.
    pub fn play(&mut self, cell: usize, side: Player) {
        let s = side.index();
        debug_assert_eq!(self.cells[cell], 0);
        self.cells[cell] = s as u8 + 1;
        self.empties -= 1;
        self.centre[s] += self.centre_bonus[cell];
        for i in self.windows.through_range(cell) {
            let w = self.windows.nth_through(i);
            self.account(w, -1);
            self.counts[w][s] += 1;
            self.account(w, 1);
            let [x, o] = self.counts[w];
            if x > 0 && o > 0 && self.counts[w][s] == 1 {
                self.window_died(w, true);
            }
        }
        self.symmetries.toggle(cell, side);
    }

    /// Takes the stone of `side` off `cell`.
    pub fn undo(&mut self, cell: usize, side: Player) {
        let s = side.index();
        debug_assert_eq!(self.cells[cell], s as u8 + 1);
        self.cells[cell] = 0;
        self.empties += 1;
        self.centre[s] -= self.centre_bonus[cell];
        for i in self.windows.through_range(cell) {
            let w = self.windows.nth_through(i);
            let [x, o] = self.counts[w];
            if x > 0 && o > 0 && self.counts[w][s] == 1 {
                self.window_died(w, false);
            }
            self.account(w, -1);
            self.counts[w][s] -= 1;
            self.account(w, 1);
        }
        self.symmetries.toggle(cell, side);
    }

    /// Keeps the per-cell live-window counts when window `w` dies (or revives, on undo).
    fn window_died(&mut self, w: usize, died: bool) {
        let Self {
            windows, cell_live, ..
        } = self;
        for &c in windows.cells(w) {
            if died {
                cell_live[c as usize] -= 1;
            } else {
                cell_live[c as usize] += 1;
            }
        }
    }

    /// Whether a stone on `cell` can no longer matter: no line through it can be completed by
    /// either side any more, and (under the rules other than freestyle, where what lies beyond a
    /// window counts) it lies beyond the end of no window that still can.
    pub fn is_dead(&self, cell: usize) -> bool {
        self.cell_live[cell] == 0
            && self.rules.flanks(cell).iter().all(|&w| {
                let [x, o] = self.counts[w as usize];
                x > 0 && o > 0
            })
    }

    /// The board's gomoku rule.
    pub fn rule(&self) -> Rule {
        self.rules.rule()
    }

    /// Whether `side` has forbidden moves: black under renju.
    pub fn forbids(&self, side: Player) -> bool {
        self.rules.forbids(side)
    }

    /// Whether `side` may play the empty `cell`: always, except black's forbidden moves under
    /// renju.
    pub fn may_play(&self, cell: usize, side: Player) -> bool {
        self.rules.may_play(&self.cells, cell, side)
    }

    /// Whether black can never be forbidden the empty `cell` once white holds `white` as well
    /// ([`Rules::never_foul`]).
    pub fn never_foul(&self, cell: usize, white: usize) -> bool {
        self.rules.never_foul(&self.cells, cell, white)
    }

    /// Whether `side` has a move it may play (only black under renju can have none: then the
    /// game is drawn).
    pub fn has_move(&self, side: Player) -> bool {
        (0..self.cells.len()).any(|c| self.cells[c] == 0 && self.may_play(c, side))
    }

    /// Whether `side` has a move that wins at once.
    pub fn has_win(&self, side: Player) -> bool {
        self.threats(side) > 0 && (self.rules.is_freestyle() || self.threat_cells(side).0.is_some())
    }

    /// Whether a stone of `side` on the empty `cell` of a window it fills wins under the rule.
    fn completes(&self, cell: usize, side: Player) -> bool {
        self.rules.is_freestyle() || self.rules.run_wins(&self.cells, cell, side)
    }

    /// The symmetry-reduced key: the smallest key over the board's symmetries, and which
    /// symmetry gives it.
    pub fn canonical_key(&self) -> (u64, usize) {
        self.symmetries.canonical_key()
    }

    /// The symmetry-reduced key after a stone of `side` on the empty `cell`.
    pub fn canonical_key_after(&self, cell: usize, side: Player) -> u64 {
        self.symmetries.canonical_key_after(cell, side)
    }

    /// `cell` seen through symmetry `t`.
    pub fn canonical_cell(&self, t: usize, cell: usize) -> usize {
        self.symmetries.canonical_cell(t, cell)
    }

    /// The cell that symmetry `t` maps onto `cell`.
    pub fn actual_cell(&self, t: usize, cell: usize) -> usize {
        self.symmetries.actual_cell(t, cell)
    }

    /// How promising `cell` looks for `side`, for move ordering only.
    pub fn move_priority(&self, cell: usize, side: Player) -> i32 {
        let priority = &self.priority;
        let mut score = priority.centrality[cell];
        for &w in self.windows_of(cell) {
            let w = w as usize;
            let (own, enemy) = (
                self.count(w, side) as usize,
                self.count(w, side.opponent()) as usize,
            );
            if enemy == 0 {
                score += priority.attack_bonus[own];
            }
            if own == 0 {
                score += priority.block_bonus[enemy];
            }
        }
        score
    }

    /// The empty cells of window `w`.
    pub fn empty_in_window(&self, w: usize) -> impl Iterator<Item = usize> + '_ {
        self.window(w)
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| self.cells[c] == 0)
    }

    /// Whether window `w` holds `k - stones` stones of `side` and none of the opponent's.
    pub fn open_with_missing(&self, w: usize, side: Player, missing: usize) -> bool {
        let c = self.counts[w];
        c[side.index()] as usize + missing == self.windows.k() && c[side.opponent().index()] == 0
    }

    /// Whether playing `cell` completes a line for `side` that wins under the rule.
    pub fn wins_at(&self, cell: usize, side: Player) -> bool {
        self.windows_of(cell)
            .iter()
            .any(|&w| self.open_with_missing(w as usize, side, 1))
            && self.completes(cell, side)
    }

    /// The cells where `side` would complete a winning line: the first one, and whether there
    /// is a second, different one.
    pub fn threat_cells(&self, side: Player) -> (Option<usize>, bool) {
        let mut first = None;
        for w in 0..self.counts.len() {
            if self.open_with_missing(w, side, 1) {
                for cell in self.empty_in_window(w) {
                    if !self.completes(cell, side) {
                        continue;
                    }
                    match first {
                        None => first = Some(cell),
                        Some(f) if f != cell => return (first, true),
                        Some(_) => {}
                    }
                }
            }
        }
        (first, false)
    }

    /// A winning cell for `side` other than `not`, if there is one.
    pub fn other_threat_cell(&self, side: Player, not: usize) -> (usize, bool) {
        for w in 0..self.counts.len() {
            if self.open_with_missing(w, side, 1) {
                for cell in self.empty_in_window(w) {
                    if cell != not && self.completes(cell, side) {
                        return (cell, true);
                    }
                }
            }
        }
        (not, false)
    }

    /// The stones, cell by cell: 0 for empty, `side index + 1` for a stone.
    #[cfg(test)]
    pub fn stones(&self) -> &[u8] {
        &self.cells
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_then_undo_restores_every_counter() {
        let geometry = Geometry::new(5, 5, 4).unwrap();
        let mut grid = Grid::new(geometry, &[None; 25]);
        let snapshot = |g: &Grid| {
            (
                g.live,
                g.threats,
                g.twos,
                g.weight,
                g.centre,
                g.symmetries.keys().to_vec(),
                g.cell_live.clone(),
            )
        };
        let before = snapshot(&grid);
        let moves = [12, 6, 18, 0, 24];
        for (i, &c) in moves.iter().enumerate() {
            grid.play(c, Player::X.after(i as i32));
        }
        for (i, &c) in moves.iter().enumerate().rev() {
            grid.undo(c, Player::X.after(i as i32));
        }
        assert_eq!(before, snapshot(&grid));
    }
}
