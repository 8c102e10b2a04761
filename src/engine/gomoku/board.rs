//! The pattern board: stones, and for every empty cell what each side would make by playing it,
//! kept up to date stone by stone.
//!
//! The board is stored with a margin of wall cells on every side as wide as the pattern keys'
//! reach (`k - 1`, or `k` under a rule that looks past a five), so a cell's neighbours along a
//! line never leave the array ([`Layout`]). Each cell keeps one key per direction (see
//! [`pattern`](super::pattern)); a stone updates the keys of the `4 × 2 × reach` cells that see it
//! and re-reads their patterns. From the patterns the board keeps, per empty cell and side, a
//! [`Threat`] (the strongest combination over the four lines) and a static value, and per side the
//! number of empty cells at each threat level and the sum of the values: the evaluation and the
//! threat checks then cost nothing.

use super::eval::{Combos, PATTERN_BITS, THREAT_CELLS_CAP, Weights};
use super::layout::Layout;
use super::pattern::{BLACK, EMPTY, Pattern, PatternTable, WALL, WHITE};
use super::sets::ThreatSets;
use super::threat::Threat;
use super::windows::{Sums, WindowScores};
use crate::engine::core::hash::SplitMix;
use crate::engine::game::{Geometry, Player, Rule, renju};

#[derive(Clone, Copy, Debug)]
struct Cell {
    /// `EMPTY`, `BLACK`, `WHITE` or `WALL`.
    stone: u32,
    /// Stones within two cells (a 5 × 5 square): candidate moves have some.
    near: u8,
    keys: [u32; 4],
    /// Per side, the pattern along each direction, packed [`PATTERN_BITS`] bits each (direction
    /// 0 lowest), the index of [`Combos`].
    patterns: [u16; 2],
    threat: [Threat; 2],
    /// Per side, the static value ([`Combos`]; `i16` keeps the cell at 32 bytes).
    value: [i16; 2],
}

// The measured size (see `value`): a field added must not grow it unnoticed.
const _: () = assert!(std::mem::size_of::<Cell>() == 32);

/// A board for the big-board search.
pub struct Goban {
    table: &'static PatternTable,
    weights: &'static Weights,
    combos: &'static Combos,
    geometry: Geometry,
    layout: Layout,
    cells: Vec<Cell>,
    /// The playable cells, as padded indices.
    playable: Vec<u16>,
    /// Per side, empty cells at each threat level.
    threat_counts: [[u16; Threat::COUNT]; 2],
    stones: usize,
    hash: u64,
    zobrist: Vec<[u64; 2]>,
    /// The moves played, for undo and for the principal variation.
    history: Vec<u16>,
    /// Per side, the empty cells that complete a line ([`Threat::Five`]) and those that make a
    /// four or better.
    sets: ThreatSets,
    /// What each move changed, for undo: the cells as they were (and where), then the counts
    /// and sums. Two vectors, not one of pairs: a pair's cell sat unaligned and was copied
    /// through the stack, where reading it back stalled the processor (store forwarding; see
    /// the updates in `rekey`).
    saved: Vec<Cell>,
    saved_at: Vec<u16>,
    saved_counts: Vec<Saved>,
    /// Every window of `k` cells in a line, and the value of each side's live ones (see
    /// [`super::eval`]).
    windows: WindowScores,
}

/// The counts, window sums and sets before a move, and where its saved cells start.
type Saved = ([[u16; Threat::COUNT]; 2], Sums, ThreatSets, usize);

impl Goban {
    /// A board holding `cells` (row-major, the position's cells).
    pub fn new(geometry: Geometry, cells: &[Option<Player>], weights: &'static Weights) -> Self {
        let k = geometry.k();
        let layout = Layout::new(geometry);
        assert!(
            layout.len() <= super::sets::WORDS * 64,
            "board too large for the bit sets"
        );
        let blank = Cell {
            stone: WALL,
            near: 0,
            keys: [0; 4],
            patterns: [0; 2],
            threat: [Threat::Quiet; 2],
            value: [0; 2],
        };
        let mut keys = SplitMix::new(0x9E37_79B9_7F4A_7C15);
        let mut board = Self {
            table: PatternTable::for_rule(k, geometry.rule()),
            weights,
            combos: weights.combos(),
            geometry,
            layout,
            cells: vec![blank; layout.len()],
            playable: Vec::with_capacity(geometry.cells()),
            threat_counts: [[0; Threat::COUNT]; 2],
            stones: 0,
            hash: 0,
            zobrist: (0..layout.len())
                .map(|_| [keys.next_key(), keys.next_key()])
                .collect(),
            history: Vec::new(),
            sets: ThreatSets::default(),
            saved: Vec::new(),
            saved_at: Vec::new(),
            saved_counts: Vec::new(),
            windows: WindowScores::new(weights, k, &layout),
        };
        for index in 0..geometry.cells() {
            let at = layout.padded(index);
            board.cells[at].stone = EMPTY;
            board.playable.push(at as u16);
        }
        // Walls are in every key from the start (written before any cell is counted).
        for at in 0..board.cells.len() {
            if board.cells[at].stone == WALL {
                board.rekey(at, |key, shift| key | (WALL << shift), false);
            }
        }
        for &at in &board.playable.clone() {
            board.refresh_cell(at as usize);
            board.tally(at as usize, 1);
        }
        for (cell, stone) in cells.iter().enumerate() {
            if let Some(player) = stone {
                board.play(layout.padded(cell), *player);
            }
        }
        board.history.clear();
        board.saved.clear();
        board.saved_at.clear();
        board.saved_counts.clear();
        board
    }

    /// Where the cells sit in the board's array: the padded indices every method here takes.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The playable cells (padded indices).
    pub fn playable(&self) -> &[u16] {
        &self.playable
    }

    /// Empty cells left.
    pub fn empties(&self) -> usize {
        self.playable.len() - self.stones
    }

    /// The position's hash (stones only; the side to move follows from the count).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Whether `at` is empty.
    pub fn is_empty(&self, at: usize) -> bool {
        self.cells[at].stone == EMPTY
    }

    /// Whether `at` is empty with a stone within two cells.
    pub fn is_candidate(&self, at: usize) -> bool {
        let cell = &self.cells[at];
        cell.stone == EMPTY && cell.near > 0
    }

    /// What `side` makes by playing the empty cell `at`.
    pub fn threat(&self, at: usize, side: Player) -> Threat {
        self.cells[at].threat[side.index()]
    }

    /// The static value of `at` for `side` (see [`Weights`]).
    pub fn value(&self, at: usize, side: Player) -> i32 {
        i32::from(self.cells[at].value[side.index()])
    }

    /// Empty cells where `side` makes `threat`.
    pub fn count(&self, side: Player, threat: Threat) -> u16 {
        self.threat_counts[side.index()][threat as usize]
    }

    /// Whether `side` has a cell completing a line.
    pub fn has_five(&self, side: Player) -> bool {
        self.count(side, Threat::Five) > 0
    }

    /// Whether `side` has a cell making a four or better.
    pub fn has_four_move(&self, side: Player) -> bool {
        self.threat_counts[side.index()][Threat::Four as usize..]
            .iter()
            .any(|&c| c > 0)
    }

    /// Whether `side` has an open three on the board: a cell making an open four.
    pub fn has_open_three(&self, side: Player) -> bool {
        self.count(side, Threat::OpenFour) > 0
    }

    /// The static evaluation for `side` to move (see [`super::eval`]), within `±max`.
    pub fn evaluate(&self, side: Player, max: i32) -> i32 {
        let (own, other) = (side.index(), side.opponent().index());
        let counts = [&self.threat_counts[own], &self.threat_counts[other]];
        let mut threats = 0;
        for (weights, counts) in self.weights.threat_cells.iter().zip(counts) {
            for (&w, &c) in weights.iter().zip(counts) {
                threats += w * i32::from(c.min(THREAT_CELLS_CAP));
            }
        }
        let windows = self.windows.sums();
        (windows[0][own] - windows[1][other] + self.weights.tempo + threats).clamp(-max, max)
    }

    /// The first empty cell where `side` completes a line, if any.
    pub fn five_cell(&self, side: Player) -> Option<usize> {
        self.fives(side).next()
    }

    /// The empty cells where `side` completes a line.
    pub fn fives(&self, side: Player) -> impl Iterator<Item = usize> + '_ {
        self.sets.fives(side)
    }

    /// The empty cells where `side` makes a four or better.
    pub fn fours(&self, side: Player) -> impl Iterator<Item = usize> + '_ {
        self.sets.fours(side)
    }

    /// The empty cells where `side` makes `threat` or better, in board order.
    pub fn cells_where(&self, side: Player, threat: Threat) -> impl Iterator<Item = usize> + '_ {
        self.playable.iter().map(|&a| a as usize).filter(move |&a| {
            let cell = &self.cells[a];
            cell.stone == EMPTY && cell.threat[side.index()] >= threat
        })
    }

    /// Whether `side` may not play the empty cell `at`: under renju, black's (the first side's)
    /// forbidden moves; never for white or under another rule. Cheap unless the cell's patterns
    /// could make a foul (two threes, two fours, a four-or-better on one line that may hold two,
    /// six in a row): those cells get the full recursive test ([`renju::foul_on`]), read on this
    /// board in place.
    pub fn is_forbidden(&self, at: usize, side: Player) -> bool {
        if side != Player::X || self.geometry.rule() != Rule::Renju {
            return false;
        }
        let packed = self.cells[at].patterns[0];
        let (mut threes, mut fours, mut open_four) = (0, 0, false);
        for dir in 0..4 {
            let bits = (packed >> (PATTERN_BITS as usize * dir)) & ((1 << PATTERN_BITS) - 1);
            match Pattern::ALL[bits as usize] {
                Pattern::Five => return false,
                Pattern::Flex4 => (fours, open_four) = (fours + 1, true),
                Pattern::Block4 => fours += 1,
                Pattern::Flex3 => threes += 1,
                _ => {}
            }
        }
        if !(fours >= 2 || open_four || threes >= 2 || self.makes_six(at)) {
            return false;
        }
        renju::foul_on(self, at).is_some()
    }

    /// Whether `side` has an empty cell where it makes exactly `threat` and may play. Under renju
    /// black's double threes are forbidden, and its other threats count only on allowed cells.
    pub fn can_make(&self, side: Player, threat: Threat) -> bool {
        if self.count(side, threat) == 0 {
            return false;
        }
        if side != Player::X || self.geometry.rule() != Rule::Renju {
            return true;
        }
        threat != Threat::DoubleThree
            && self.playable.iter().map(|&a| a as usize).any(|a| {
                self.cells[a].stone == EMPTY
                    && self.cells[a].threat[0] == threat
                    && !self.is_forbidden(a, side)
            })
    }

    /// Whether a black stone on `at` would make six or more in a row.
    fn makes_six(&self, at: usize) -> bool {
        self.layout.steps.iter().any(|&step| {
            let run = |sign: isize| {
                (1..6)
                    .take_while(|&j| {
                        let other = at as isize + sign * j * step;
                        self.cells
                            .get(other as usize)
                            .is_some_and(|c| c.stone == BLACK)
                    })
                    .count()
            };
            run(-1) + run(1) + 1 >= 6
        })
    }

    /// Plays `side`'s stone on the empty cell `at`.
    pub fn play(&mut self, at: usize, side: Player) {
        debug_assert!(self.is_empty(at), "cell {at} is not empty");
        self.saved_counts.push((
            self.threat_counts,
            self.windows.sums(),
            self.sets,
            self.saved.len(),
        ));
        self.windows.add(at, side);
        self.tally(at, -1);
        self.sets.clear(at);
        let stone = match side {
            Player::X => BLACK,
            Player::O => WHITE,
        };
        self.cells[at].stone = stone;
        // Before `mark`, which saves the cells it changes: undo restores them, `near` included.
        self.near(at, 1);
        self.mark(at, stone);
        self.hash ^= self.zobrist[at][side.index()];
        self.stones += 1;
        self.history.push(at as u16);
    }

    /// Takes back the stone of `side` on `at`, the last move played.
    pub fn undo(&mut self, at: usize, side: Player) {
        debug_assert_eq!(self.history.last(), Some(&(at as u16)));
        self.history.pop();
        let (counts, window_sums, sets, mark) = self.saved_counts.pop().expect("a move to undo");
        self.windows.remove(at, side, window_sums);
        self.sets = sets;
        for (&at, saved) in self.saved_at[mark..].iter().zip(&self.saved[mark..]).rev() {
            self.cells[at as usize] = *saved;
        }
        self.saved.truncate(mark);
        self.saved_at.truncate(mark);
        self.cells[at].stone = EMPTY;
        self.threat_counts = counts;
        self.near(at, -1);
        self.hash ^= self.zobrist[at][side.index()];
        self.stones -= 1;
    }

    /// Adds (`sign` 1) or removes (-1) the empty cell `at` from the per-side threat counts.
    fn tally(&mut self, at: usize, sign: i32) {
        let cell = self.cells[at];
        for i in 0..2 {
            let slot = &mut self.threat_counts[i][cell.threat[i] as usize];
            *slot = (i32::from(*slot) + sign) as u16;
        }
    }

    fn near(&mut self, at: usize, delta: i8) {
        for dr in -2isize..=2 {
            for dc in -2isize..=2 {
                let other = at as isize + dr * self.layout.stride() as isize + dc;
                if let Some(cell) = self.cells.get_mut(other as usize) {
                    cell.near = cell.near.wrapping_add_signed(delta);
                }
            }
        }
    }

    /// Writes `stone` into the keys of the cells that see `at`, and refreshes them.
    fn mark(&mut self, at: usize, stone: u32) {
        self.rekey(at, |key, shift| key | (stone << shift), true);
    }

    fn rekey(&mut self, at: usize, change: impl Fn(u32, u32) -> u32, refresh: bool) {
        let reach = self.table.reach() as isize;
        for dir in 0..4 {
            let step = self.layout.steps[dir];
            for j in (-reach..=reach).filter(|&j| j != 0) {
                let other = at as isize + j * step;
                if other < 0 || other as usize >= self.cells.len() {
                    continue;
                }
                let other = other as usize;
                // `at` is `-j` steps from `other`.
                let shift = PatternTable::shift(reach as usize, -j);
                if !refresh {
                    let key = &mut self.cells[other].keys[dir];
                    *key = change(*key, shift);
                    continue;
                }
                // Stones and walls keep stale keys: moves are taken back last first, so by the
                // time a stone's cell is empty again every later stone is gone and its keys (and
                // patterns) are right again.
                if self.cells[other].stone != EMPTY {
                    continue;
                }
                self.saved.push(self.cells[other]);
                self.saved_at.push(other as u16);
                // Every field is written in place and nothing written is read back at another
                // width. A cell updated in a copy, or pattern bytes written one by one and read
                // back as a word, stalled the processor's store forwarding: perf put three
                // quarters of the search's time in `play`, and removing the stalls made the
                // whole search 1.85 times as fast (the research notes (docs/strength.md), "Store forwarding").
                let cell = &mut self.cells[other];
                let key = change(cell.keys[dir], shift);
                cell.keys[dir] = key;
                for side in Player::BOTH {
                    let i = side.index();
                    let packed = repack(cell.patterns[i], dir, self.table.get(key, side));
                    cell.patterns[i] = packed;
                    let (threat, value) = self.combos.get(packed);
                    let old = cell.threat[i];
                    if old != threat {
                        self.threat_counts[i][old as usize] -= 1;
                        self.threat_counts[i][threat as usize] += 1;
                        cell.threat[i] = threat;
                        self.sets.mark(side, other, threat);
                    }
                    cell.value[i] = value;
                }
            }
        }
    }

    fn refresh_cell(&mut self, at: usize) {
        for dir in 0..4 {
            let key = self.cells[at].keys[dir];
            for side in Player::BOTH {
                let packed = &mut self.cells[at].patterns[side.index()];
                *packed = repack(*packed, dir, self.table.get(key, side));
            }
        }
        let cell = &mut self.cells[at];
        for side in Player::BOTH {
            let i = side.index();
            let (threat, value) = self.combos.get(cell.patterns[i]);
            cell.threat[i] = threat;
            cell.value[i] = value;
            self.sets.mark(side, at, threat);
        }
    }
}

/// The stones as renju's forbidden-point test reads them, in place: the margin is off the board.
impl renju::Stones for Goban {
    fn step(&self, at: usize, line: usize, steps: isize) -> Option<usize> {
        let other = at.checked_add_signed(steps * self.layout.steps[line])?;
        self.cells
            .get(other)
            .is_some_and(|cell| cell.stone != WALL)
            .then_some(other)
    }

    fn is_black_stone(&self, at: usize) -> bool {
        self.cells[at].stone == BLACK
    }

    fn is_empty_cell(&self, at: usize) -> bool {
        self.cells[at].stone == EMPTY
    }
}

/// `packed` with the pattern along `dir` replaced by `pattern`.
#[inline]
fn repack(packed: u16, dir: usize, pattern: Pattern) -> u16 {
    let shift = PATTERN_BITS as usize * dir;
    (packed & !(((1 << PATTERN_BITS) - 1) << shift)) | ((pattern as u16) << shift)
}

#[cfg(test)]
mod tests;
