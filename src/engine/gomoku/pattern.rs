//! Line patterns: what a stone on an empty cell makes along one line, for either side.
//!
//! A cell's neighbourhood along one direction is the `k - 1` cells on each side of it, each
//! empty, black (the first side), white or off the board, two bits a cell: the *key*. For every
//! key a table, built once per `k`, holds the [`Pattern`] each side would make by playing the
//! centre cell. The patterns are defined recursively, as gomoku players count them:
//!
//! - **five**: the stone completes `k` in a row (or more: freestyle);
//! - **open four** (`Flex4`): afterwards two different cells each complete `k`, so the opponent
//!   cannot stop it; **four** (`Block4`): exactly one such cell;
//! - **open three** (`Flex3`): one more stone can make an open four; **three** (`Block3`): one
//!   more stone can make a four;
//! - `Flex2`/`Block2`: one more stone makes an open three / a three, and `Flex1`/`Block1`
//!   likewise one level down.
//!
//! Only the `k`-windows through the centre count, so a pattern is always about the stone played.

use crate::engine::core::side::Side;
use std::sync::OnceLock;

/// What playing a cell makes along one line, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// Nothing: no window through the cell can still be completed, or too few stones.
    None,
    /// One stone that can become a three-level `Block2`.
    Block1,
    /// One stone that can become a `Flex2`.
    Flex1,
    /// Two stones that can become a three.
    Block2,
    /// Two stones that can become an open three.
    Flex2,
    /// A three that can become a four but not an open four.
    Block3,
    /// An open three: it can become an open four.
    Flex3,
    /// A four: one cell completes the line.
    Block4,
    /// An open four (or two fours on one line): two cells complete it.
    Flex4,
    /// `k` (or more) in a row.
    Five,
}

impl Pattern {
    pub const ALL: [Self; 10] = [
        Self::None,
        Self::Block1,
        Self::Flex1,
        Self::Block2,
        Self::Flex2,
        Self::Block3,
        Self::Flex3,
        Self::Block4,
        Self::Flex4,
        Self::Five,
    ];

    /// The number of patterns, for tables indexed by pattern.
    pub const COUNT: usize = Self::ALL.len();

    /// The pattern one level down: what a line is that one more stone turns into `self`.
    fn demoted(self) -> Self {
        match self {
            Self::Five | Self::Flex4 => Self::Flex3,
            Self::Block4 => Self::Block3,
            Self::Flex3 => Self::Flex2,
            Self::Block3 => Self::Block2,
            Self::Flex2 => Self::Flex1,
            Self::Block2 => Self::Block1,
            Self::Flex1 | Self::Block1 | Self::None => Self::None,
        }
    }
}

/// Largest `k` with a pattern table (its keys take `4 (k - 1)` bits).
pub const MAX_K: usize = 6;
/// Smallest `k` with a pattern table: below it every line is a threat at once.
pub const MIN_K: usize = 4;

/// A cell's content in a key: two bits.
pub const EMPTY: u32 = 0;
/// The first side's stone.
pub const BLACK: u32 = 1;
/// The second side's stone.
pub const WHITE: u32 = 2;
/// Off the board.
pub const WALL: u32 = 3;

/// The patterns of every key for one `k`: `[black's, white's]` by key.
pub struct PatternTable {
    patterns: Vec<[Pattern; 2]>,
}

impl PatternTable {
    /// The table for `k` (built on first use, then shared).
    ///
    /// # Panics
    /// If `k` is outside [`MIN_K`]`..=`[`MAX_K`].
    pub fn for_k(k: usize) -> &'static Self {
        static TABLES: [OnceLock<PatternTable>; MAX_K - MIN_K + 1] =
            [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        assert!((MIN_K..=MAX_K).contains(&k), "no pattern table for k = {k}");
        TABLES[k - MIN_K].get_or_init(|| Self::build(k))
    }

    /// Bit offset in a key of the neighbour `j` cells away (`j` in `-(k-1)..=k-1`, not 0).
    pub fn shift(k: usize, j: isize) -> u32 {
        let half = k as isize - 1;
        let slot = if j < 0 { j + half } else { j + half - 1 };
        debug_assert!((0..2 * half).contains(&slot), "offset {j} out of reach");
        2 * slot as u32
    }

    /// The pattern `side` (black first, white second) makes at the centre of `key`.
    #[inline]
    pub fn get(&self, key: u32, side: Side) -> Pattern {
        self.patterns[key as usize][side.index()]
    }

    fn build(k: usize) -> Self {
        let neighbours = 2 * (k - 1);
        let length = 2 * k - 1;
        let mut memo = vec![u8::MAX; 3usize.pow(length as u32)];
        let mut patterns = vec![[Pattern::None; 2]; 1 << (2 * neighbours)];
        let mut line = vec![0u8; length];
        for (key, entry) in patterns.iter_mut().enumerate() {
            for (side, own) in [BLACK, WHITE].into_iter().enumerate() {
                for (slot, cell) in (0..neighbours).map(|s| (key >> (2 * s)) & 3).enumerate() {
                    let at = if slot < k - 1 { slot } else { slot + 1 };
                    line[at] = match cell as u32 {
                        EMPTY => 0,
                        c if c == own => 1,
                        _ => 2,
                    };
                }
                line[k - 1] = 1;
                entry[side] = level(&mut line, k, &mut memo);
            }
        }
        Self { patterns }
    }
}

/// The pattern of `line` (0 empty, 1 own stone, 2 blocked; the centre, `k - 1`, is own).
fn level(line: &mut [u8], k: usize, memo: &mut [u8]) -> Pattern {
    let code = line.iter().fold(0usize, |acc, &c| acc * 3 + c as usize);
    if memo[code] != u8::MAX {
        return Pattern::ALL[memo[code] as usize];
    }
    let centre = k - 1;
    let mut wins = [usize::MAX; 2];
    let mut win_count = 0;
    let mut five = false;
    for start in 0..=centre {
        let window = &line[start..start + k];
        if window.contains(&2) {
            continue;
        }
        let own = window.iter().filter(|&&c| c == 1).count();
        if own == k {
            five = true;
            break;
        }
        if own == k - 1 {
            let empty = start + window.iter().position(|&c| c == 0).expect("one empty");
            if !wins[..win_count].contains(&empty) && win_count < 2 {
                wins[win_count] = empty;
                win_count += 1;
            }
        }
    }
    let pattern = if five {
        Pattern::Five
    } else if win_count == 2 {
        Pattern::Flex4
    } else if win_count == 1 {
        Pattern::Block4
    } else {
        let mut best = Pattern::None;
        for cell in 0..line.len() {
            if line[cell] == 0 {
                line[cell] = 1;
                best = best.max(level(line, k, memo).demoted());
                line[cell] = 0;
            }
        }
        best
    };
    memo[code] = pattern as u8;
    pattern
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key of a line written as text: `x` black, `o` white, `#` wall, `.` empty, and `*`
    /// the centre (empty).
    fn key(text: &str, k: usize) -> u32 {
        let centre = text.find('*').expect("a centre");
        let mut key = 0;
        for (i, c) in text.chars().enumerate() {
            let j = i as isize - centre as isize;
            if j == 0 || j.unsigned_abs() >= k {
                continue;
            }
            let cell = match c {
                'x' => BLACK,
                'o' => WHITE,
                '#' => WALL,
                _ => EMPTY,
            };
            key |= cell << PatternTable::shift(k, j);
        }
        key
    }

    #[test]
    fn gomoku_patterns_are_counted_as_players_count_them() {
        let table = PatternTable::for_k(5);
        let black = |text: &str| table.get(key(text, 5), Side::First);
        let white = |text: &str| table.get(key(text, 5), Side::Second);
        assert_eq!(black("....xx*xx...."), Pattern::Five);
        assert_eq!(black("...xxxx*....."), Pattern::Five);
        assert_eq!(black("....xxx*....."), Pattern::Flex4);
        assert_eq!(black("...oxxx*....."), Pattern::Block4);
        assert_eq!(black("...x.x*x....."), Pattern::Block4);
        assert_eq!(black("....xx*......"), Pattern::Flex3);
        assert_eq!(black("....x.*x....."), Pattern::Flex3);
        assert_eq!(black("...oxx*......"), Pattern::Block3);
        assert_eq!(black("....#x*x....."), Pattern::Block3);
        assert_eq!(black("......*x....."), Pattern::Flex2);
        assert_eq!(black("....oxx*o...."), Pattern::None);
        // The same line is only a one-sided start for white.
        assert_eq!(white("....xxx*....."), Pattern::Block1);
        assert_eq!(white("...xxx*x....."), Pattern::None);
        assert_eq!(white("....ooo*....."), Pattern::Flex4);
        assert_eq!(key(".xoo*oo..", 5), 2724);
        assert_eq!(white(".xoo*oo.."), Pattern::Five);
    }

    #[test]
    fn every_k_gets_a_table_with_fives_and_open_fours() {
        for k in MIN_K..=MAX_K {
            let table = PatternTable::for_k(k);
            let run: String = "x".repeat(k - 1);
            let text = format!("{}{run}*{}", ".".repeat(k), ".".repeat(k));
            assert_eq!(table.get(key(&text, k), Side::First), Pattern::Five);
            let open: String = "x".repeat(k - 2);
            let text = format!("{}{open}*{}", ".".repeat(k), ".".repeat(k));
            assert_eq!(table.get(key(&text, k), Side::First), Pattern::Flex4);
        }
    }
}
