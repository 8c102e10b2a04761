//! The line windows of the pattern board: every run of `k` cells in a line, its stones per side,
//! and the sums of the live ones (holding one side's stones only) that the evaluation reads.
//!
//! A window gains value as its side's stones come and dies when the other side's first stone
//! comes; the board adds each stone as it is played and takes it back on undo, restoring the
//! sums it saved before the move ([`WindowScores::sums`]).

use super::eval::Weights;
use super::layout::Layout;
use crate::engine::game::Player;

/// Marks an unused slot in `through`.
const NO_WINDOW: u32 = u32::MAX;

/// Per side to move and side, the value of the side's live windows: `[0][side]` by the weights
/// of the side to move, `[1][side]` by those of its opponent.
pub type Sums = [[i32; 2]; 2];

/// The windows of one padded board.
pub struct WindowScores {
    weights: &'static Weights,
    /// Slots per cell in `through`: a cell lies in at most `k` windows a direction.
    slots: usize,
    /// Every window: its stones per side.
    stones: Vec<[u8; 2]>,
    /// Per padded cell, the windows holding it (`through[at * slots ..]`, unused slots
    /// [`NO_WINDOW`]).
    through: Vec<u32>,
    sums: Sums,
}

impl WindowScores {
    /// The windows of the board laid out by `layout`: every run of `k` of its cells along a
    /// line, all empty.
    pub fn new(weights: &'static Weights, k: usize, layout: &Layout) -> Self {
        let cells = layout.len();
        let slots = 4 * k;
        let mut windows = Self {
            weights,
            slots,
            stones: Vec::new(),
            through: vec![NO_WINDOW; cells * slots],
            sums: [[0; 2]; 2],
        };
        let mut filled = vec![0usize; cells];
        for start in (0..cells).filter(|&at| layout.inside(at)) {
            for step in layout.steps {
                // Steps are positive and the margin is `k - 1` wide: a run leaves the board
                // into the margin, never off the array.
                let members: Vec<usize> = (0..k)
                    .map(|i| (start as isize + i as isize * step) as usize)
                    .take_while(|&m| layout.inside(m))
                    .collect();
                if members.len() == k {
                    let id = windows.stones.len() as u32;
                    windows.stones.push([0, 0]);
                    for m in members {
                        windows.through[m * slots + filled[m]] = id;
                        filled[m] += 1;
                    }
                }
            }
        }
        windows
    }

    /// The sums of the live windows' values.
    pub fn sums(&self) -> Sums {
        self.sums
    }

    /// Counts a stone of `side` on `at` in its windows and updates the sums.
    pub fn add(&mut self, at: usize, side: Player) {
        let (own_i, other_i) = (side.index(), side.opponent().index());
        let value = &self.weights.window;
        let value_opp = &self.weights.window_opp;
        for slot in at * self.slots..(at + 1) * self.slots {
            let w = self.through[slot];
            if w == NO_WINDOW {
                continue;
            }
            let counts = &mut self.stones[w as usize];
            let (own, theirs) = (usize::from(counts[own_i]), usize::from(counts[other_i]));
            if theirs == 0 {
                self.sums[0][own_i] += value[own + 1] - value[own];
                self.sums[1][own_i] += value_opp[own + 1] - value_opp[own];
            } else if own == 0 {
                self.sums[0][other_i] -= value[theirs];
                self.sums[1][other_i] -= value_opp[theirs];
            }
            counts[own_i] += 1;
        }
    }

    /// Takes the stone of `side` on `at` out of its windows, and puts back `sums`, those from
    /// before it was added.
    pub fn remove(&mut self, at: usize, side: Player, sums: Sums) {
        self.sums = sums;
        for slot in at * self.slots..(at + 1) * self.slots {
            let w = self.through[slot];
            if w != NO_WINDOW {
                self.stones[w as usize][side.index()] -= 1;
            }
        }
    }
}
