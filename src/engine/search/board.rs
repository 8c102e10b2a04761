//! The search's board: cells, per-window stone counts kept up to date on every move, and the
//! Zobrist keys of the position under each symmetry of the board.
//!
//! Everything the search asks at a node (an immediate win, the opponent's threats, whether any
//! line is still open, the static evaluation) is a lookup in counters that `play` and `undo`
//! maintain, so a node costs a few dozen additions rather than a scan of the board.

use super::super::{Geometry, Player};

/// Index of a side in the per-side arrays.
pub type Side = usize;

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
pub struct Board {
    /// 0 for empty, `side + 1` for a stone.
    cells: Vec<u8>,
    k: usize,
    /// The `k` cells of each window, window after window.
    window_cells: Vec<u16>,
    /// Windows through each cell: `cell_windows[cell_window_start[c]..cell_window_start[c + 1]]`.
    cell_window_start: Vec<u32>,
    cell_windows: Vec<u32>,
    /// Stones of each side in each window.
    counts: Vec<[u8; 2]>,
    /// Windows through each cell that do not hold stones of both sides: a cell with none is
    /// dead, and playing it is as good as playing any other dead cell.
    cell_live: Vec<u8>,
    /// Contribution of a window by its counts, indexed `x * (k + 1) + o`.
    contribution: Vec<Contribution>,
    /// Move-ordering bonus for playing into a window with `own` stones and no enemy stone.
    attack_bonus: Vec<i32>,
    /// Move-ordering bonus for playing into a window with `enemy` stones and none of ours.
    block_bonus: Vec<i32>,
    /// A small preference for the centre, to break ordering ties sensibly.
    centrality: Vec<i32>,
    /// Windows each side can still complete.
    pub live: [u32; 2],
    /// Windows where each side has `k - 1` stones and the other none.
    pub threats: [u32; 2],
    /// Windows where each side has `k - 2` stones and the other none.
    pub twos: [u32; 2],
    /// Sum of window weights per side (the static evaluation's raw material).
    pub weight: [i64; 2],
    /// Sum of the centre bonuses of each side's stones: a small positional term of the static
    /// evaluation, so that open boards prefer the centre over equally open cells elsewhere.
    pub centre: [i64; 2],
    /// Per cell: rings from the edge of the board (0 on the edge).
    centre_bonus: Vec<i64>,
    /// Empty cells left.
    pub empties: u32,
    /// Pairing-search steps taken so far (see [`Board::defender_pairs_off`]): search work that
    /// the node count does not show.
    pub pairing_steps: u64,
    zobrist: Vec<[u64; 2]>,
    /// Image of each cell under each symmetry of the board.
    symmetries: Vec<Vec<u16>>,
    /// Inverse of each symmetry.
    inverses: Vec<Vec<u16>>,
    /// The Zobrist key of the position seen through each symmetry.
    keys: Vec<u64>,
    scratch_stamp: Vec<u32>,
    scratch_partner: Vec<u16>,
    stamp: u32,
    /// Pairing search scratch: each cell's partner in the pairing being built ([`NO_PARTNER`]
    /// when unpaired), the empty cells of the windows to cover and where each window's start,
    /// and the steps left.
    pair_partner: Vec<u16>,
    pair_cells: Vec<u16>,
    pair_windows: Vec<u32>,
    pair_budget: u32,
    /// The full line each window lies on, and a stamp per line for counting them.
    window_line: Vec<u16>,
    line_stamp: Vec<u32>,
}

/// Static-evaluation units per ring a stone stands away from the edge: enough for an open board
/// to prefer the centre (on 15 × 15 every cell four or more from the edge lies on 20 windows, so
/// window counts alone do not), small against a window with one more stone.
const CENTRE_WEIGHT: i64 = 16;

/// No partner in the pairing being built.
const NO_PARTNER: u16 = u16::MAX;

/// Deterministic 64-bit mixer (SplitMix64), so keys are the same on every run.
fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Maps a player to its side index.
pub const fn side_of(player: Player) -> Side {
    match player {
        Player::X => 0,
        Player::O => 1,
    }
}

impl Board {
    /// Builds the board for `geometry` with the given stones.
    pub fn new(geometry: Geometry, stones: &[Option<Player>]) -> Self {
        let (rows, cols, k) = (geometry.rows(), geometry.cols(), geometry.k());
        let n = geometry.cells();
        let lines = geometry.line_list();
        let mut window_cells = Vec::with_capacity(lines.len() * k);
        let mut per_cell: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (w, line) in lines.iter().enumerate() {
            for &c in line {
                window_cells.push(c as u16);
                per_cell[c].push(w as u32);
            }
        }
        // The full line (board edge to board edge) each window lies on: two windows on different
        // lines share at most one cell.
        let mut line_ids = std::collections::HashMap::new();
        let window_line: Vec<u16> = lines
            .iter()
            .map(|window| {
                let key = if k == 1 {
                    (window[0], 0, 0)
                } else {
                    let (r0, c0) = ((window[0] / cols) as isize, (window[0] % cols) as isize);
                    let dr = (window[1] / cols) as isize - r0;
                    let dc = (window[1] % cols) as isize - c0;
                    let (mut r, mut c) = (r0, c0);
                    while (0..rows as isize).contains(&(r - dr))
                        && (0..cols as isize).contains(&(c - dc))
                    {
                        r -= dr;
                        c -= dc;
                    }
                    ((r * cols as isize + c) as usize, dr, dc)
                };
                let next = line_ids.len() as u16;
                *line_ids.entry(key).or_insert(next)
            })
            .collect();
        let line_count = line_ids.len();
        let mut cell_window_start = Vec::with_capacity(n + 1);
        let mut cell_windows = Vec::new();
        for list in &per_cell {
            cell_window_start.push(cell_windows.len() as u32);
            cell_windows.extend_from_slice(list);
        }
        cell_window_start.push(cell_windows.len() as u32);

        // Steep weights: a window with one more stone is worth four times as much.
        let weights: Vec<i64> = (0..=k).map(|s| 1_i64 << (2 * s.min(10))).collect();
        let mut contribution = vec![Contribution::default(); (k + 1) * (k + 1)];
        for x in 0..=k {
            for o in 0..=k {
                let mut c = Contribution::default();
                for (side, own, other) in [(0, x, o), (1, o, x)] {
                    if other == 0 {
                        c.live[side] = 1;
                        c.weight[side] = weights[own];
                        c.threats[side] = u32::from(own + 1 == k);
                        c.twos[side] = u32::from(own + 2 == k);
                    }
                }
                contribution[x * (k + 1) + o] = c;
            }
        }
        let attack_bonus = (0..=k)
            .map(|own| {
                if own + 2 == k {
                    1 << 16
                } else {
                    4 << (2 * own.min(12))
                }
            })
            .collect();
        let block_bonus = (0..=k)
            .map(|enemy| {
                if enemy + 2 == k {
                    1 << 15
                } else {
                    3 << (2 * enemy.min(12))
                }
            })
            .collect();
        let centrality: Vec<i32> = (0..n)
            .map(|c| {
                let (r, col) = ((c / cols) as i32, (c % cols) as i32);
                let dr = (2 * r - (rows as i32 - 1)).abs();
                let dc = (2 * col - (cols as i32 - 1)).abs();
                -(dr.max(dc))
            })
            .collect();

        let centre_bonus = {
            let min = centrality.iter().copied().min().unwrap_or(0);
            centrality
                .iter()
                .map(|&c: &i32| i64::from(c - min) / 2 * CENTRE_WEIGHT)
                .collect()
        };
        let zobrist = (0..n as u64)
            .map(|c| [splitmix(2 * c + 0x5EED), splitmix(2 * c + 1 + 0x5EED)])
            .collect();
        let symmetries = symmetries(rows, cols);
        let inverses = symmetries
            .iter()
            .map(|map| {
                let mut inverse = vec![0; n];
                for (c, &image) in map.iter().enumerate() {
                    inverse[image as usize] = c as u16;
                }
                inverse
            })
            .collect();
        let keys = vec![0; symmetries.len()];
        let mut board = Self {
            cells: vec![0; n],
            k,
            window_cells,
            cell_window_start,
            cell_windows,
            counts: vec![[0, 0]; lines.len()],
            cell_live: per_cell.iter().map(|list| list.len() as u8).collect(),
            contribution,
            attack_bonus,
            block_bonus,
            centrality,
            live: [0; 2],
            threats: [0; 2],
            twos: [0; 2],
            weight: [0; 2],
            centre: [0; 2],
            centre_bonus,
            empties: n as u32,
            zobrist,
            symmetries,
            inverses,
            keys,
            scratch_stamp: vec![0; n],
            scratch_partner: vec![0; n],
            stamp: 0,
            pair_partner: vec![NO_PARTNER; n],
            pair_cells: Vec::new(),
            pair_windows: Vec::new(),
            pair_budget: 0,
            pairing_steps: 0,
            window_line,
            line_stamp: vec![0; line_count],
        };
        for w in 0..lines.len() {
            board.account(w, 1);
        }
        for (c, stone) in stones.iter().enumerate() {
            if let Some(player) = stone {
                board.play(c, side_of(*player));
            }
        }
        board
    }

    /// Number of cells.
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// Whether `cell` is empty.
    pub fn is_empty(&self, cell: usize) -> bool {
        self.cells[cell] == 0
    }

    fn windows_of(&self, cell: usize) -> &[u32] {
        let (a, b) = (
            self.cell_window_start[cell] as usize,
            self.cell_window_start[cell + 1] as usize,
        );
        &self.cell_windows[a..b]
    }

    fn account(&mut self, w: usize, sign: i64) {
        let [x, o] = self.counts[w];
        let c = self.contribution[x as usize * (self.k + 1) + o as usize];
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
    pub fn play(&mut self, cell: usize, side: Side) {
        debug_assert_eq!(self.cells[cell], 0);
        self.cells[cell] = side as u8 + 1;
        self.empties -= 1;
        self.centre[side] += self.centre_bonus[cell];
        let (a, b) = (
            self.cell_window_start[cell] as usize,
            self.cell_window_start[cell + 1] as usize,
        );
        for i in a..b {
            let w = self.cell_windows[i] as usize;
            self.account(w, -1);
            self.counts[w][side] += 1;
            self.account(w, 1);
            let [x, o] = self.counts[w];
            if x > 0 && o > 0 && self.counts[w][side] == 1 {
                self.window_died(w, true);
            }
        }
        for (t, key) in self.keys.iter_mut().enumerate() {
            let image = self.symmetries[t][cell] as usize;
            *key ^= self.zobrist[image][side];
        }
    }

    /// Keeps the per-cell live-window counts when window `w` dies (or revives, on undo).
    fn window_died(&mut self, w: usize, died: bool) {
        for i in w * self.k..(w + 1) * self.k {
            let c = self.window_cells[i] as usize;
            if died {
                self.cell_live[c] -= 1;
            } else {
                self.cell_live[c] += 1;
            }
        }
    }

    /// Whether no line through `cell` can be completed by either side any more.
    pub fn is_dead(&self, cell: usize) -> bool {
        self.cell_live[cell] == 0
    }

    /// Takes the stone of `side` off `cell`.
    pub fn undo(&mut self, cell: usize, side: Side) {
        debug_assert_eq!(self.cells[cell], side as u8 + 1);
        self.cells[cell] = 0;
        self.empties += 1;
        self.centre[side] -= self.centre_bonus[cell];
        let (a, b) = (
            self.cell_window_start[cell] as usize,
            self.cell_window_start[cell + 1] as usize,
        );
        for i in a..b {
            let w = self.cell_windows[i] as usize;
            let [x, o] = self.counts[w];
            if x > 0 && o > 0 && self.counts[w][side] == 1 {
                self.window_died(w, false);
            }
            self.account(w, -1);
            self.counts[w][side] -= 1;
            self.account(w, 1);
        }
        for (t, key) in self.keys.iter_mut().enumerate() {
            let image = self.symmetries[t][cell] as usize;
            *key ^= self.zobrist[image][side];
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

    /// `cell` seen through symmetry `t`.
    pub fn canonical_cell(&self, t: usize, cell: usize) -> usize {
        self.symmetries[t][cell] as usize
    }

    /// The cell that symmetry `t` maps onto `cell`.
    pub fn actual_cell(&self, t: usize, cell: usize) -> usize {
        self.inverses[t][cell] as usize
    }

    fn empty_in_window(&self, w: usize) -> impl Iterator<Item = usize> + '_ {
        self.window_cells[w * self.k..(w + 1) * self.k]
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| self.cells[c] == 0)
    }

    /// Whether playing `cell` completes a line for `side`.
    pub fn wins_at(&self, cell: usize, side: Side) -> bool {
        self.windows_of(cell).iter().any(|&w| {
            let c = self.counts[w as usize];
            c[side] as usize + 1 == self.k && c[1 - side] == 0
        })
    }

    /// The cells where `side` would complete a line: the first one, and whether there is a
    /// second, different one.
    pub fn threat_cells(&self, side: Side) -> (Option<usize>, bool) {
        let mut first = None;
        for w in 0..self.counts.len() {
            let c = self.counts[w];
            if c[side] as usize + 1 == self.k && c[1 - side] == 0 {
                for cell in self.empty_in_window(w) {
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
    pub fn other_threat_cell(&self, side: Side, not: usize) -> (usize, bool) {
        for w in 0..self.counts.len() {
            let c = self.counts[w];
            if c[side] as usize + 1 == self.k && c[1 - side] == 0 {
                for cell in self.empty_in_window(w) {
                    if cell != not {
                        return (cell, true);
                    }
                }
            }
        }
        (not, false)
    }

    /// The empty cells where `side` makes a four (a window with `k - 1` of its stones and none
    /// of the opponent's), each once, in window order, appended to `out`.
    pub fn four_making_cells(&mut self, side: Side, out: &mut Vec<u16>) {
        let stamp = self.next_stamp();
        for w in 0..self.counts.len() {
            let c = self.counts[w];
            if c[side] as usize + 2 != self.k || c[1 - side] != 0 {
                continue;
            }
            for i in w * self.k..(w + 1) * self.k {
                let cell = self.window_cells[i] as usize;
                if self.cells[cell] == 0 && self.scratch_stamp[cell] != stamp {
                    self.scratch_stamp[cell] = stamp;
                    out.push(cell as u16);
                }
            }
        }
    }

    /// A fresh stamp for the per-cell and per-line scratch marks.
    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.scratch_stamp.fill(0);
            self.line_stamp.fill(0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// A cell where `side` makes two threats on different cells at once, if there is one.
    pub fn double_threat_cell(&mut self, side: Side) -> Option<usize> {
        self.next_stamp();
        let k = self.k;
        for w in 0..self.counts.len() {
            let c = self.counts[w];
            if c[side] as usize + 2 != k || c[1 - side] != 0 {
                continue;
            }
            let mut pair = [0_usize; 2];
            let mut found = 0;
            for cell in self.empty_in_window(w) {
                pair[found] = cell;
                found += 1;
            }
            debug_assert_eq!(found, 2);
            for (a, b) in [(pair[0], pair[1]), (pair[1], pair[0])] {
                if self.scratch_stamp[a] == self.stamp {
                    if self.scratch_partner[a] as usize != b {
                        return Some(a);
                    }
                } else {
                    self.scratch_stamp[a] = self.stamp;
                    self.scratch_partner[a] = b as u16;
                }
            }
        }
        None
    }

    /// Whether the opponent of `attacker` has a pairing strategy: disjoint pairs of empty cells
    /// such that every window `attacker` can still complete holds one of the pairs. Whoever is
    /// to move, the defender then answers every attacker stone in a pair with the other cell
    /// of that pair (and plays anywhere otherwise), so `attacker` can never complete a line: a
    /// proof that `attacker` cannot win. `false` means no pairing was found within `budget`
    /// search steps, which proves nothing.
    pub fn defender_pairs_off(&mut self, attacker: Side, budget: u32) -> bool {
        if self.live[attacker] == 0 {
            return true;
        }
        if self.threats[attacker] > 0 {
            return false;
        }
        let defender = 1 - attacker;
        // Pairs on different lines are disjoint, and one pair covers windows of one line only:
        // at least one pair of its own per line with an open window is needed.
        let stamp = self.next_stamp();
        let (mut lines, mut open_cells) = (0_u32, 0_u32);
        for w in 0..self.counts.len() {
            if self.counts[w][defender] != 0 {
                continue;
            }
            let line = self.window_line[w] as usize;
            if self.line_stamp[line] != stamp {
                self.line_stamp[line] = stamp;
                lines += 1;
            }
            for &c in &self.window_cells[w * self.k..(w + 1) * self.k] {
                let c = c as usize;
                if self.cells[c] == 0 && self.scratch_stamp[c] != stamp {
                    self.scratch_stamp[c] = stamp;
                    open_cells += 1;
                }
            }
        }
        if 2 * lines > open_cells {
            return false;
        }
        // The empty cells of every window the attacker can still complete, window after window
        // (`k - stones` of them: the window holds no defender stone).
        let mut cells = std::mem::take(&mut self.pair_cells);
        let mut starts = std::mem::take(&mut self.pair_windows);
        cells.clear();
        starts.clear();
        for w in 0..self.counts.len() {
            if self.counts[w][defender] != 0 {
                continue;
            }
            starts.push(cells.len() as u32);
            cells.extend(
                self.window_cells[w * self.k..(w + 1) * self.k]
                    .iter()
                    .filter(|&&c| self.cells[c as usize] == 0),
            );
        }
        starts.push(cells.len() as u32);
        self.pair_budget = budget;
        let found = self.cover(&cells, &starts);
        self.pairing_steps += u64::from(budget - self.pair_budget);
        for &c in &cells {
            self.pair_partner[c as usize] = NO_PARTNER;
        }
        self.pair_cells = cells;
        self.pair_windows = starts;
        found
    }

    /// Extends the pairing being built so that it covers every window (`cells[starts[j]..
    /// starts[j + 1]]` are window `j`'s empty cells): the most constrained window first, failing
    /// as soon as one can no longer get a pair.
    fn cover(&mut self, cells: &[u16], starts: &[u32]) -> bool {
        if self.pair_budget == 0 {
            return false;
        }
        self.pair_budget -= 1;
        let mut choice: Option<(usize, usize)> = None;
        for j in 0..starts.len() - 1 {
            let window = &cells[starts[j] as usize..starts[j + 1] as usize];
            let mut free = 0;
            let mut covered = false;
            for &c in window {
                let p = self.pair_partner[c as usize];
                if p == NO_PARTNER {
                    free += 1;
                } else if window.contains(&p) {
                    covered = true;
                    break;
                }
            }
            if covered {
                continue;
            }
            if free < 2 {
                return false;
            }
            if choice.is_none_or(|(_, f)| free < f) {
                choice = Some((j, free));
            }
        }
        let Some((j, _)) = choice else {
            return true;
        };
        let window = &cells[starts[j] as usize..starts[j + 1] as usize];
        for (a, &ca) in window.iter().enumerate() {
            if self.pair_partner[ca as usize] != NO_PARTNER {
                continue;
            }
            for &cb in &window[a + 1..] {
                if self.pair_partner[cb as usize] != NO_PARTNER {
                    continue;
                }
                self.pair_partner[ca as usize] = cb;
                self.pair_partner[cb as usize] = ca;
                if self.cover(cells, starts) {
                    return true;
                }
                self.pair_partner[ca as usize] = NO_PARTNER;
                self.pair_partner[cb as usize] = NO_PARTNER;
                if self.pair_budget == 0 {
                    return false;
                }
            }
        }
        false
    }

    /// How promising `cell` looks for `side`, for move ordering only.
    pub fn move_priority(&self, cell: usize, side: Side) -> i32 {
        let mut score = self.centrality[cell];
        for &w in self.windows_of(cell) {
            let c = self.counts[w as usize];
            let (own, enemy) = (c[side] as usize, c[1 - side] as usize);
            if enemy == 0 {
                score += self.attack_bonus[own];
            }
            if own == 0 {
                score += self.block_bonus[enemy];
            }
        }
        score
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

    #[test]
    fn play_then_undo_restores_every_counter() {
        let geometry = Geometry::new(5, 5, 4).unwrap();
        let mut board = Board::new(geometry, &[None; 25]);
        let before = (
            board.live,
            board.threats,
            board.twos,
            board.weight,
            board.centre,
            board.keys.clone(),
        );
        let live_before = board.cell_live.clone();
        for (i, &c) in [12, 6, 18, 0, 24].iter().enumerate() {
            board.play(c, i % 2);
        }
        for (i, &c) in [12, 6, 18, 0, 24].iter().enumerate().rev() {
            board.undo(c, i % 2);
        }
        let after = (
            board.live,
            board.threats,
            board.twos,
            board.weight,
            board.centre,
            board.keys.clone(),
        );
        assert_eq!(before, after);
        assert_eq!(live_before, board.cell_live);
    }

    /// Whether `attacker` can force a completed line from this position with `to_move` to move
    /// (plain AND-OR search with a memo, no shortcuts).
    fn attacker_forces_win(
        board: &mut Board,
        to_move: Side,
        attacker: Side,
        memo: &mut std::collections::HashMap<(Vec<u8>, Side), bool>,
    ) -> bool {
        if board.empties == 0 {
            return false;
        }
        let key = (board.cells.clone(), to_move);
        if let Some(&known) = memo.get(&key) {
            return known;
        }
        let empty: Vec<usize> = (0..board.cell_count())
            .filter(|&c| board.is_empty(c))
            .collect();
        let result = if to_move == attacker {
            empty.iter().any(|&c| {
                board.wins_at(c, attacker) || {
                    board.play(c, attacker);
                    let w = attacker_forces_win(board, 1 - attacker, attacker, memo);
                    board.undo(c, attacker);
                    w
                }
            })
        } else {
            // A defender's line ends the game without an attacker win.
            empty.iter().all(|&c| {
                !board.wins_at(c, to_move) && {
                    board.play(c, to_move);
                    let w = attacker_forces_win(board, attacker, attacker, memo);
                    board.undo(c, to_move);
                    w
                }
            })
        };
        memo.insert(key, result);
        result
    }

    #[test]
    fn a_pairing_strategy_is_a_proof_that_the_attacker_cannot_win() {
        let mut seed = 1_u64;
        let mut found = 0;
        for (rows, cols, k, stones) in [
            (4_u64, 4_u64, 3_u64, 4_usize),
            (4, 4, 4, 3),
            (4, 4, 4, 5),
            (5, 4, 4, 6),
            (3, 5, 3, 4),
            (5, 5, 4, 10),
            (4, 5, 3, 8),
        ] {
            let geometry = Geometry::new(rows, cols, k).unwrap();
            let n = geometry.cells();
            for _ in 0..60 {
                let mut board = Board::new(geometry, &vec![None; n]);
                let mut side = 0;
                for _ in 0..stones {
                    seed = splitmix(seed);
                    let empty: Vec<usize> = (0..n).filter(|&c| board.is_empty(c)).collect();
                    let cell = empty[seed as usize % empty.len()];
                    if board.wins_at(cell, side) {
                        break;
                    }
                    board.play(cell, side);
                    side = 1 - side;
                }
                let snapshot = board.cells.clone();
                for attacker in 0..2 {
                    if !board.defender_pairs_off(attacker, 10_000) {
                        continue;
                    }
                    assert_eq!(board.cells, snapshot);
                    assert!(board.pair_partner.iter().all(|&p| p == NO_PARTNER));
                    found += 1;
                    let mut memo = std::collections::HashMap::new();
                    for to_move in 0..2 {
                        assert!(
                            !attacker_forces_win(&mut board, to_move, attacker, &mut memo),
                            "({rows},{cols},{k}) {snapshot:?}: a pairing for {attacker}'s \
                             opponent, yet {attacker} wins with {to_move} to move",
                        );
                    }
                }
            }
        }
        assert!(found > 50, "only {found} pairings exercised");
    }
}
