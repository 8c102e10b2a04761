//! The two sides of the game, as a type of their own rather than an index.

use crate::engine::game::Player;

/// A side: the first player (X) or the second (O).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The first player, X.
    First,
    /// The second player, O.
    Second,
}

impl Side {
    /// Both sides, first player first.
    pub const BOTH: [Self; 2] = [Self::First, Self::Second];

    /// The side `player` plays.
    pub const fn of(player: Player) -> Self {
        match player {
            Player::X => Self::First,
            Player::O => Self::Second,
        }
    }

    /// The other side.
    pub const fn opponent(self) -> Self {
        match self {
            Self::First => Self::Second,
            Self::Second => Self::First,
        }
    }

    /// The side to move `plies` plies after this side was to move.
    pub const fn after(self, plies: i32) -> Self {
        if plies & 1 == 0 {
            self
        } else {
            self.opponent()
        }
    }

    /// Index into per-side arrays: 0 for the first player, 1 for the second.
    pub const fn index(self) -> usize {
        self as usize
    }
}
