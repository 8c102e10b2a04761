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

use crate::engine::game::{Player, Rule};
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

/// How a side's five is judged in a table: the rule's words on overlines and blocked fives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FiveRule {
    /// Exactly `k` in a row: a run that goes on is no five.
    exact: bool,
    /// Caro: a run of exactly `k` with both ends taken by the opponent is no five.
    caro: bool,
}

/// The patterns of every key for one `k` and rule: `[black's, white's]` by key.
pub struct PatternTable {
    patterns: Vec<[Pattern; 2]>,
    /// Neighbours a key holds on each side of its centre: `k - 1`, or `k` under a rule that
    /// looks at the cells just beyond a five (standard, renju, caro).
    reach: usize,
}

impl PatternTable {
    /// The table for `k` under `rule` (built on first use, then shared; [`PatternTable::build_all`]
    /// builds them all ahead of the first search). Rules other than freestyle exist for `k = 5`
    /// only (see [`Geometry::with_rule`](crate::engine::Geometry)).
    ///
    /// # Panics
    /// If `k` is outside [`MIN_K`]`..=`[`MAX_K`].
    pub fn for_rule(k: usize, rule: Rule) -> &'static Self {
        Self::slot(k, rule).get_or_init(|| Self::build(k, rule))
    }

    /// Builds every table a search can ask for: each `k` in freestyle, and each other rule's
    /// for `k = 5`.
    pub fn build_all() {
        for (k, rule) in Self::kinds() {
            Self::for_rule(k, rule);
        }
    }

    /// Whether every table [`PatternTable::build_all`] builds is built.
    pub fn all_built() -> bool {
        Self::kinds().all(|(k, rule)| Self::slot(k, rule).get().is_some())
    }

    /// Every `k` and rule with a table of its own.
    fn kinds() -> impl Iterator<Item = (usize, Rule)> {
        let freestyle = (MIN_K..=MAX_K).map(|k| (k, Rule::Freestyle));
        let rules = Rule::ALL
            .into_iter()
            .filter(|&rule| rule != Rule::Freestyle)
            .map(|rule| (5, rule));
        freestyle.chain(rules)
    }

    /// Where the table for `k` under `rule` is kept.
    fn slot(k: usize, rule: Rule) -> &'static OnceLock<Self> {
        static TABLES: [OnceLock<PatternTable>; MAX_K - MIN_K + 1] =
            [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        static RULES: [OnceLock<PatternTable>; 3] =
            [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        assert!((MIN_K..=MAX_K).contains(&k), "no pattern table for k = {k}");
        match rule {
            Rule::Freestyle => &TABLES[k - MIN_K],
            Rule::Standard => &RULES[0],
            Rule::Renju => &RULES[1],
            Rule::Caro => &RULES[2],
        }
    }

    /// The freestyle table for `k`.
    #[cfg(test)]
    pub fn for_k(k: usize) -> &'static Self {
        Self::for_rule(k, Rule::Freestyle)
    }

    /// Neighbours a key holds on each side of its centre.
    pub fn reach(&self) -> usize {
        self.reach
    }

    /// Bit offset in a key of the neighbour `j` cells away (`j` in `-reach..=reach`, not 0).
    pub fn shift(reach: usize, j: isize) -> u32 {
        let half = reach as isize;
        let slot = if j < 0 { j + half } else { j + half - 1 };
        debug_assert!((0..2 * half).contains(&slot), "offset {j} out of reach");
        2 * slot as u32
    }

    /// The pattern `side` (black first, white second) makes at the centre of `key`.
    #[inline]
    pub fn get(&self, key: u32, side: Player) -> Pattern {
        self.patterns[key as usize][side.index()]
    }

    fn build(k: usize, rule: Rule) -> Self {
        Self::build_with(k, rule, true)
    }

    /// Builds the table; with `cut`, each key's line is first cut at the first opponent stone
    /// or wall on each side of the centre (see [`Shape::cut`]), so the many keys that differ
    /// only beyond it share one memoised line.
    fn build_with(k: usize, rule: Rule, cut: bool) -> Self {
        let reach = if rule == Rule::Freestyle { k - 1 } else { k };
        let neighbours = 2 * reach;
        let length = neighbours + 1;
        let mut patterns = vec![[Pattern::None; 2]; 1 << (2 * neighbours)];
        let mut line = vec![0u8; length];
        for (side, player) in [Player::X, Player::O].into_iter().enumerate() {
            let shape = Shape {
                k,
                five: FiveRule {
                    exact: rule.exact(player),
                    caro: rule == Rule::Caro,
                },
                centre: reach,
            };
            let own = [BLACK, WHITE][side];
            let mut memo = vec![u8::MAX; 4usize.pow(length as u32)];
            for (key, entry) in patterns.iter_mut().enumerate() {
                for (slot, cell) in (0..neighbours).map(|s| (key >> (2 * s)) & 3).enumerate() {
                    let at = if slot < reach { slot } else { slot + 1 };
                    line[at] = match cell as u32 {
                        EMPTY => LINE_EMPTY,
                        WALL => LINE_WALL,
                        c if c == own => LINE_OWN,
                        _ => LINE_OPPONENT,
                    };
                }
                line[reach] = LINE_OWN;
                if cut {
                    shape.cut(&mut line);
                }
                entry[side] = shape.level(&mut line, &mut memo);
            }
        }
        Self { patterns, reach }
    }
}

/// A cell of a line while a table is built.
const LINE_EMPTY: u8 = 0;
const LINE_OWN: u8 = 1;
const LINE_OPPONENT: u8 = 2;
const LINE_WALL: u8 = 3;

/// What a table's lines have in common: `k`, the rule's five, where the centre is.
struct Shape {
    k: usize,
    five: FiveRule,
    centre: usize,
}

impl Shape {
    /// Walls off everything beyond the first opponent stone or wall on each side of the centre,
    /// which keeps the line's pattern. A five through the centre holds own stones only, so it
    /// ends before that blocker, and the rule reads at most the cell just beyond a five: the
    /// blocker itself, which stays. Stones added beyond the blocker, in [`Shape::level`]'s
    /// recursion, change nothing either, and a line's pattern is never below a
    /// [`demoted`](Pattern::demoted) copy of itself, so dropping those cells keeps the maximum.
    fn cut(&self, line: &mut [u8]) {
        let blocked = |c: &u8| *c == LINE_OPPONENT || *c == LINE_WALL;
        if let Some(b) = line[..self.centre].iter().rposition(blocked) {
            line[..b].fill(LINE_WALL);
        }
        if let Some(b) = line[self.centre + 1..].iter().position(blocked) {
            line[self.centre + 2 + b..].fill(LINE_WALL);
        }
    }

    /// Whether a window of `k` own stones through `centre` makes a five under the rule.
    fn has_five(&self, line: &[u8], centre: usize) -> bool {
        let k = self.k;
        (centre.saturating_sub(k - 1)..=centre)
            .filter(|&start| start + k <= line.len())
            .any(|start| {
                if line[start..start + k].iter().any(|&c| c != LINE_OWN) {
                    return false;
                }
                let before = start.checked_sub(1).map(|i| line[i]);
                let after = line.get(start + k).copied();
                if self.five.exact && (before == Some(LINE_OWN) || after == Some(LINE_OWN)) {
                    return false;
                }
                !(self.five.caro && before == Some(LINE_OPPONENT) && after == Some(LINE_OPPONENT))
            })
    }

    /// The pattern of `line` (the centre is own).
    fn level(&self, line: &mut [u8], memo: &mut [u8]) -> Pattern {
        let code = line.iter().fold(0usize, |acc, &c| acc * 4 + c as usize);
        if memo[code] != u8::MAX {
            return Pattern::ALL[memo[code] as usize];
        }
        let pattern = if self.has_five(line, self.centre) {
            Pattern::Five
        } else {
            // The empty cells that would complete a five through the centre.
            let reach = self.k - 1;
            let near = self.centre.saturating_sub(reach)..(self.centre + reach + 1).min(line.len());
            let mut wins = 0;
            for cell in near {
                if line[cell] == LINE_EMPTY {
                    line[cell] = LINE_OWN;
                    wins += usize::from(self.has_five(line, self.centre));
                    line[cell] = LINE_EMPTY;
                }
            }
            match wins {
                0 => {
                    let mut best = Pattern::None;
                    for cell in 0..line.len() {
                        if line[cell] == LINE_EMPTY {
                            line[cell] = LINE_OWN;
                            best = best.max(self.level(line, memo).demoted());
                            line[cell] = LINE_EMPTY;
                        }
                    }
                    best
                }
                1 => Pattern::Block4,
                _ => Pattern::Flex4,
            }
        };
        memo[code] = pattern as u8;
        pattern
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key of a line written as text: `x` black, `o` white, `#` wall, `.` empty, and `*`
    /// the centre (empty).
    fn key(text: &str, k: usize) -> u32 {
        key_within(text, k - 1)
    }

    /// [`key`] for a table whose keys reach `reach` cells each side.
    fn key_within(text: &str, reach: usize) -> u32 {
        let centre = text.find('*').expect("a centre");
        let mut key = 0;
        for (i, c) in text.chars().enumerate() {
            let j = i as isize - centre as isize;
            if j == 0 || j.unsigned_abs() > reach {
                continue;
            }
            let cell = match c {
                'x' => BLACK,
                'o' => WHITE,
                '#' => WALL,
                _ => EMPTY,
            };
            key |= cell << PatternTable::shift(reach, j);
        }
        key
    }

    #[test]
    fn gomoku_patterns_are_counted_as_players_count_them() {
        let table = PatternTable::for_k(5);
        let black = |text: &str| table.get(key(text, 5), Player::X);
        let white = |text: &str| table.get(key(text, 5), Player::O);
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
    fn cut_lines_give_every_table_the_same_patterns_as_whole_lines() {
        for (k, rule) in PatternTable::kinds() {
            let whole = PatternTable::build_with(k, rule, false);
            let cut = PatternTable::build_with(k, rule, true);
            assert_eq!(cut.reach, whole.reach, "k = {k}, {rule}");
            let differ =
                (0..whole.patterns.len()).find(|&key| cut.patterns[key] != whole.patterns[key]);
            assert_eq!(differ, None, "k = {k}, {rule}: the first key that differs");
        }
    }

    #[test]
    fn build_all_builds_every_table_a_search_asks_for() {
        PatternTable::build_all();
        assert!(PatternTable::all_built());
        for k in MIN_K..=MAX_K {
            assert!(
                PatternTable::slot(k, Rule::Freestyle).get().is_some(),
                "k = {k}"
            );
        }
        for rule in Rule::ALL {
            assert!(PatternTable::slot(5, rule).get().is_some(), "{rule}");
        }
    }

    #[test]
    fn every_k_gets_a_table_with_fives_and_open_fours() {
        for k in MIN_K..=MAX_K {
            let table = PatternTable::for_k(k);
            let run: String = "x".repeat(k - 1);
            let text = format!("{}{run}*{}", ".".repeat(k), ".".repeat(k));
            assert_eq!(table.get(key(&text, k), Player::X), Pattern::Five);
            let open: String = "x".repeat(k - 2);
            let text = format!("{}{open}*{}", ".".repeat(k), ".".repeat(k));
            assert_eq!(table.get(key(&text, k), Player::X), Pattern::Flex4);
        }
    }

    #[test]
    fn each_rule_counts_its_fives() {
        let pattern = |rule: Rule, text: &str, side: Player| {
            let table = PatternTable::for_rule(5, rule);
            table.get(key_within(text, table.reach()), side)
        };
        let (black, white) = (Player::X, Player::O);
        // An overline: a five in freestyle and caro, none under standard, and none for black
        // only under renju.
        let six = "....xxxxx*.....";
        assert_eq!(pattern(Rule::Freestyle, six, black), Pattern::Five);
        assert_eq!(pattern(Rule::Caro, six, black), Pattern::Five);
        assert_ne!(pattern(Rule::Standard, six, black), Pattern::Five);
        assert_ne!(pattern(Rule::Renju, six, black), Pattern::Five);
        let white_six = "....ooooo*.....";
        assert_eq!(pattern(Rule::Renju, white_six, white), Pattern::Five);
        assert_ne!(pattern(Rule::Standard, white_six, white), Pattern::Five);
        // Exactly five is a five under every rule.
        for rule in Rule::ALL {
            let five = pattern(rule, ".....xxxx*.....", black);
            assert_eq!(five, Pattern::Five, "{rule}");
        }
        // A four whose completing cell would make six is no four under standard.
        let split = "...x.xxx*......";
        assert_eq!(pattern(Rule::Standard, split, black), Pattern::Block4);
        assert_eq!(pattern(Rule::Freestyle, split, black), Pattern::Flex4);
        // Caro: five blocked at both ends by the opponent is no five; the edge does not block.
        let blocked = "....oxxxx*o....";
        assert_ne!(pattern(Rule::Caro, blocked, black), Pattern::Five);
        assert_eq!(pattern(Rule::Caro, "....#xxxx*o....", black), Pattern::Five);
        assert_eq!(pattern(Rule::Standard, blocked, black), Pattern::Five);
        // A caro four that can only complete into a doubly blocked five is no four.
        assert_eq!(pattern(Rule::Caro, "....oxxx*.o....", black), Pattern::None);
    }
}
