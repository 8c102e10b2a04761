//! Per side, the empty cells where it completes a line and those where it makes a four or
//! better, as bit sets over the padded cells: the threat searches walk them instead of the board.

use super::threat::Threat;
use crate::engine::game::Player;

/// Words in a bit set over the padded cells: at most 30 × 30 = 900 of them, 20 × 20 under a rule
/// (a margin of 5).
pub const WORDS: usize = 15;

type Set = [u64; WORDS];

/// The sets of both sides: `[side][0 = fives, 1 = fours or better]`. Copied whole to save and
/// restore them around a move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThreatSets([[Set; 2]; 2]);

impl ThreatSets {
    /// Puts the empty cell `at` in `side`'s sets by what it makes there: a five, a four or better.
    #[inline]
    pub fn mark(&mut self, side: Player, at: usize, threat: Threat) {
        let sets = &mut self.0[side.index()];
        set_bit(&mut sets[0], at, threat == Threat::Five);
        set_bit(&mut sets[1], at, threat >= Threat::Four);
    }

    /// Takes the cell `at`, now a stone, out of every set.
    pub fn clear(&mut self, at: usize) {
        for set in self.0.iter_mut().flatten() {
            set_bit(set, at, false);
        }
    }

    /// The empty cells where `side` completes a line.
    pub fn fives(&self, side: Player) -> impl Iterator<Item = usize> + '_ {
        bits(&self.0[side.index()][0])
    }

    /// The empty cells where `side` makes a four or better.
    pub fn fours(&self, side: Player) -> impl Iterator<Item = usize> + '_ {
        bits(&self.0[side.index()][1])
    }
}

fn set_bit(set: &mut Set, at: usize, on: bool) {
    let (word, bit) = (at / 64, at % 64);
    if on {
        set[word] |= 1 << bit;
    } else {
        set[word] &= !(1 << bit);
    }
}

fn bits(set: &Set) -> impl Iterator<Item = usize> + '_ {
    set.iter().enumerate().flat_map(|(w, &word)| {
        let mut rest = word;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                w * 64 + bit
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_fives_and_fours_per_side_and_clears_them() {
        let mut sets = ThreatSets::default();
        sets.mark(Player::X, 3, Threat::Five);
        sets.mark(Player::X, 70, Threat::Four);
        sets.mark(Player::X, 500, Threat::OpenThree);
        sets.mark(Player::O, 128, Threat::FourThree);
        assert_eq!(sets.fives(Player::X).collect::<Vec<_>>(), [3]);
        assert_eq!(sets.fours(Player::X).collect::<Vec<_>>(), [3, 70]);
        assert_eq!(sets.fives(Player::O).count(), 0);
        assert_eq!(sets.fours(Player::O).collect::<Vec<_>>(), [128]);
        // A cell's threat weakens: it leaves the sets it no longer belongs to.
        sets.mark(Player::X, 3, Threat::Four);
        assert_eq!(sets.fives(Player::X).count(), 0);
        sets.clear(70);
        sets.clear(128);
        assert_eq!(sets.fours(Player::X).collect::<Vec<_>>(), [3]);
        assert_eq!(sets.fours(Player::O).count(), 0);
    }
}
