//! The rules of gomoku's variants: which lines win, and for renju, which moves black may not play.
//!
//! A rule other than [`Rule::Freestyle`] needs `k = 5` on a board without gravity. The edge
//! cases, decided once here and documented in `docs/rules.md`:
//!
//! - **freestyle**: five or more in a row wins, for both sides;
//! - **standard** (Gomocup's "exactly five", `INFO rule 1`): a run of exactly five wins; six or
//!   more (an overline) wins nothing, for both sides, and the game goes on;
//! - **renju**: X is black and moves first. Black wins with exactly five and may not play an
//!   overline, a double-four or a double-three ([`crate::engine::renju`]), unless the move makes
//!   five; white wins with five or more;
//! - **caro** (the Gomocup referee's rule 8): five or more in a row wins, except a run of exactly
//!   five whose two ends are both taken by the opponent's stones. The board's edge does not
//!   block: a five against the edge wins.
//!
//! A position is judged by what is on the board, not by its history: under renju a black overline
//! already on the board is simply not a win (the move that made it was forbidden, and the service
//! does not reconstruct games).

use super::Player;

/// A gomoku rule. Serialized in snake case: `freestyle`, `standard`, `renju`, `caro`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Rule {
    /// Five or more in a row wins (the only rule for `k` other than 5).
    #[default]
    Freestyle,
    /// Exactly five wins; an overline does not.
    Standard,
    /// Black (X, first) wins with exactly five and may not play forbidden moves; white wins with
    /// five or more.
    Renju,
    /// Five or more wins, except exactly five blocked at both ends by the opponent.
    Caro,
}

/// What lies just beyond one end of a run of stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// An empty cell.
    Empty,
    /// The edge of the board.
    Edge,
    /// A stone of the run's owner: the run goes on.
    Own,
    /// A stone of the opponent.
    Opponent,
}

impl Rule {
    /// Every rule, in the order the API lists them.
    pub const ALL: [Self; 4] = [Self::Freestyle, Self::Standard, Self::Renju, Self::Caro];

    /// The rule's name as the API writes it.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Freestyle => "freestyle",
            Self::Standard => "standard",
            Self::Renju => "renju",
            Self::Caro => "caro",
        }
    }

    /// Whether `player` must make exactly `k` in a row: an overline does not win.
    #[must_use]
    pub const fn exact(self, player: Player) -> bool {
        match self {
            Self::Standard => true,
            Self::Renju => matches!(player, Player::X),
            Self::Freestyle | Self::Caro => false,
        }
    }

    /// Whether a window of `k` stones of `player` wins, given what lies just beyond its two ends.
    #[must_use]
    pub fn window_wins(self, player: Player, before: End, after: End) -> bool {
        if self.exact(player) && (before == End::Own || after == End::Own) {
            return false;
        }
        !(self == Self::Caro && before == End::Opponent && after == End::Opponent)
    }

    /// Whether `player` has forbidden moves under this rule: black (X) under renju.
    #[must_use]
    pub const fn forbids(self, player: Player) -> bool {
        matches!((self, player), (Self::Renju, Player::X))
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_decides_its_windows() {
        use End::{Edge, Empty, Opponent, Own};
        for rule in Rule::ALL {
            assert!(rule.window_wins(Player::O, Empty, Edge), "{rule}");
        }
        assert!(Rule::Freestyle.window_wins(Player::X, Own, Empty));
        assert!(!Rule::Standard.window_wins(Player::O, Empty, Own));
        assert!(!Rule::Renju.window_wins(Player::X, Own, Empty));
        assert!(Rule::Renju.window_wins(Player::O, Own, Empty));
        assert!(!Rule::Caro.window_wins(Player::X, Opponent, Opponent));
        assert!(Rule::Caro.window_wins(Player::X, Opponent, Edge));
        assert!(Rule::Caro.window_wins(Player::X, Own, Opponent));
        assert!(Rule::Freestyle.window_wins(Player::X, Opponent, Opponent));
    }
}
