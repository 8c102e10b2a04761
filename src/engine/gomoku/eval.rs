//! The weights of the static evaluation (fitted to game results) and of move ordering (chosen by
//! matches; see the research notes (docs/strength.md), "Strength").
//!
//! - **Evaluation: line windows and threat cells.** Every run of `k` cells in a line is a window.
//!   A window holding stones of one side only is worth [`Weights::window`] (by its number of
//!   stones) to the side to move, [`Weights::window_opp`] to its opponent; a window holding both
//!   sides' stones is dead and worth nothing. To that come the empty cells where a side would make
//!   a three, an open three, a four and so on ([`Weights::threat_cells`]: an opponent's cell where
//!   it makes a four-three costs the side to move 104, where one of its own three-stone windows
//!   is worth 14), and [`Weights::tempo`]. The board keeps the window sums and the cell counts as
//!   stones come and go. (The first evaluation summed the cells' values below instead; against
//!   AIWine it scored 30 % where the windows scored about 60 %.)
//! - **Fitted to game results.** The window and threat-cell weights and the tempo are a logistic
//!   regression of the results of 4,070 games (80,077 quiet positions; the fitting tool and its
//!   data are in the research notes that docs/strength.md names), scaled to the engine's own
//!   evaluation, and on 15 × 15 with `k` = 5:
//!   windows of four and five stones, seen only when `k` = 6, keep their earlier values.
//! - **Move ordering: cell values.** A cell's value for a side is the sum over its four lines of
//!   the value of the pattern the side would make there, plus a bonus for the combination
//!   ([`Threat`]).

use std::sync::OnceLock;

use super::pattern::Pattern;
use super::threat::Threat;

/// Evaluation weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// MoveValue of each line pattern, by [`Pattern`] order.
    pub pattern: [i32; Pattern::COUNT],
    /// Extra value of each combination, by [`Threat`] order.
    pub threat: [i32; Threat::COUNT],
    /// MoveValue of a live window by its number of stones (up to `k`, at most 6).
    pub window: [i32; 7],
    /// The same for the opponent of the side to move.
    pub window_opp: [i32; 7],
    /// Bonus of the side to move in the evaluation (its threats come first).
    pub tempo: i32,
    /// MoveValue of each empty cell where a side would make a combination, by [`Threat`] order: for
    /// the side to move (`[0]`) and for the opponent (`[1]`); each count is capped at
    /// [`THREAT_CELLS_CAP`].
    pub threat_cells: [[i32; Threat::COUNT]; 2],
    /// In move ordering, the value of a cell to the mover counts `attack / 16` times its value
    /// to the opponent (the block).
    pub attack: i32,
    /// The table of [`Combos`] for these weights, built on first use.
    pub combos: OnceLock<Combos>,
}

/// Most cells of one combination counted in the evaluation.
pub const THREAT_CELLS_CAP: u16 = 6;

/// The weights the engine plays with.
pub static WEIGHTS: Weights = Weights {
    //        None Block1 Flex1 Block2 Flex2 Block3 Flex3 Block4 Flex4 Five
    pattern: [0, 1, 3, 6, 14, 18, 50, 60, 300, 1000],
    //       Quiet Three OpenThree DoubleThree Four FourThree OpenFour Five
    threat: [0, 0, 0, 150, 0, 300, 600, 2000],
    // By stones: 0, 1, 2, 3, then (only when k = 6) 4 and 5.
    window: [0, 5, 16, 14, 60, 95, 138],
    window_opp: [0, 3, 15, 38, 60, 95, 138],
    tempo: 46,
    threat_cells: [
        [0, 22, 36, 0, 46, 0, 0, 0],
        [0, -18, -33, 13, -34, -104, -120, 0],
    ],
    attack: 28,
    combos: OnceLock::new(),
};

impl Weights {
    /// Every cell's combination and value by its four patterns under these weights (built once,
    /// not for every board).
    pub fn combos(&self) -> &Combos {
        self.combos.get_or_init(|| Combos::new(self))
    }

    /// The value of a cell whose four lines make `patterns`, which combine to `threat`.
    pub fn cell_value(&self, patterns: [Pattern; 4], threat: Threat) -> i32 {
        let lines: i32 = patterns.iter().map(|&p| self.pattern[p as usize]).sum();
        lines + self.threat[threat as usize]
    }
}

/// Every cell's combination and value by its four patterns, worked out once: a stone refreshes
/// the cells of four lines on both sides, and this lookup made the search about a tenth faster
/// than working them out each time (the research notes (docs/strength.md)). It is indexed by the four patterns
/// packed four bits each, as the board keeps them, so a lookup is one load. Values are `i16`
/// (an entry is four bytes, and a board cell 32): with `i32` the same searches, node for node,
/// took 3.5 % longer (the research notes (docs/strength.md), "Aspiration windows, and smaller cells").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Combos(Vec<(Threat, i16)>);

/// Bits of one pattern in a packed cell (see [`Combos::get`]).
pub const PATTERN_BITS: u32 = 4;
const _: () = assert!(Pattern::COUNT <= 1 << PATTERN_BITS);

impl Combos {
    /// The table for `weights`.
    pub fn new(weights: &Weights) -> Self {
        let table = (0..1usize << (4 * PATTERN_BITS))
            .map(|packed| {
                let patterns = unpack(packed as u16);
                let threat = threat_of(patterns);
                let value = weights.cell_value(patterns, threat);
                // Saturated: the engine's weights give at most 6,000; fitted ones may give more.
                let value = value.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
                (threat, value)
            })
            .collect();
        Self(table)
    }

    /// The combination and value of a cell whose four lines make the patterns `packed`
    /// [`PATTERN_BITS`] bits each, direction 0 lowest (as the board keeps them).
    #[inline]
    pub fn get(&self, packed: u16) -> (Threat, i16) {
        self.0[usize::from(packed)]
    }
}

/// The four patterns packed in `packed`, [`PATTERN_BITS`] bits each, direction 0 lowest (as the
/// board keeps them). Codes past the last pattern, which never occur on a board, read as
/// [`Pattern::None`].
pub fn unpack(packed: u16) -> [Pattern; 4] {
    std::array::from_fn(|dir| {
        let p = (packed >> (PATTERN_BITS as usize * dir)) & ((1 << PATTERN_BITS) - 1);
        Pattern::ALL
            .get(usize::from(p))
            .copied()
            .unwrap_or(Pattern::None)
    })
}

/// The strongest combination the four `patterns` of one cell make.
pub fn threat_of(patterns: [Pattern; 4]) -> Threat {
    let mut fours = 0;
    let mut open_threes = 0;
    let mut threes = 0;
    for p in patterns {
        match p {
            Pattern::Five => return Threat::Five,
            Pattern::Flex4 => fours += 2,
            Pattern::Block4 => fours += 1,
            Pattern::Flex3 => open_threes += 1,
            Pattern::Block3 => threes += 1,
            _ => {}
        }
    }
    match (fours, open_threes) {
        (2.., _) => Threat::OpenFour,
        (1, 1..) => Threat::FourThree,
        (1, 0) => Threat::Four,
        (0, 2..) => Threat::DoubleThree,
        (0, 1) => Threat::OpenThree,
        _ if threes > 0 => Threat::Three,
        _ => Threat::Quiet,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_five_in_any_line_outranks_everything_else() {
        use Pattern::{Block3, Block4, Five, Flex3, Flex4, None};
        assert_eq!(threat_of([Flex4, Five, None, None]), Threat::Five);
        assert_eq!(threat_of([Flex4, None, None, None]), Threat::OpenFour);
        assert_eq!(threat_of([Block4, None, Block4, None]), Threat::OpenFour);
        assert_eq!(threat_of([Block4, Flex3, None, None]), Threat::FourThree);
        assert_eq!(threat_of([Block4, Block3, None, None]), Threat::Four);
        assert_eq!(threat_of([Flex3, None, Flex3, None]), Threat::DoubleThree);
        assert_eq!(threat_of([Flex3, Block3, None, None]), Threat::OpenThree);
        assert_eq!(threat_of([Block3, None, None, None]), Threat::Three);
        assert_eq!(threat_of([None; 4]), Threat::Quiet);
    }

    fn pack(patterns: [Pattern; 4]) -> u16 {
        patterns
            .iter()
            .enumerate()
            .map(|(dir, &p)| (p as u16) << (PATTERN_BITS as usize * dir))
            .sum()
    }

    #[test]
    fn the_combination_table_agrees_with_working_it_out() {
        let combos = WEIGHTS.combos();
        let all = Pattern::ALL;
        for (i, a) in all.into_iter().enumerate() {
            for (j, b) in all.into_iter().enumerate() {
                for c in all {
                    // Every pattern in every place, and many mixes.
                    let d = all[(i + j) % all.len()];
                    let patterns = [a, b, c, d];
                    let threat = threat_of(patterns);
                    let expected = (threat, WEIGHTS.cell_value(patterns, threat));
                    let (got, value) = combos.get(pack(patterns));
                    assert_eq!((got, i32::from(value)), expected, "{patterns:?}");
                    let turned = [d, c, b, a];
                    let threat = threat_of(turned);
                    let expected = (threat, WEIGHTS.cell_value(turned, threat));
                    let (got, value) = combos.get(pack(turned));
                    assert_eq!((got, i32::from(value)), expected, "{turned:?}");
                }
            }
        }
    }
}
