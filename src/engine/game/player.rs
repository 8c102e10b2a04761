use std::fmt;

/// One of the two sides. `X` conventionally moves first, but games where `O` starts are legal too.
///
/// ```
/// use minimax_move::engine::Player;
/// assert_eq!(Player::X.opponent(), Player::O);
/// assert_eq!(Player::from_char('o'), Some(Player::O));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Player {
    /// The mark `X` (`"x"` is read too).
    #[cfg_attr(feature = "serde", serde(alias = "x"))]
    X,
    /// The mark `O` (`"o"` is read too).
    #[cfg_attr(feature = "serde", serde(alias = "o"))]
    O,
}

impl Player {
    /// Both players, X first.
    pub const BOTH: [Self; 2] = [Self::X, Self::O];

    /// Index into per-player arrays: 0 for X, 1 for O.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The player to move `plies` plies after this one was to move.
    #[must_use]
    pub const fn after(self, plies: i32) -> Self {
        if plies & 1 == 0 {
            self
        } else {
            self.opponent()
        }
    }

    /// The other side.
    #[must_use]
    pub const fn opponent(self) -> Self {
        match self {
            Self::X => Self::O,
            Self::O => Self::X,
        }
    }

    /// The mark as an upper-case character.
    #[must_use]
    pub const fn as_char(self) -> char {
        match self {
            Self::X => 'X',
            Self::O => 'O',
        }
    }

    /// The mark as a one-letter string (`"X"` or `"O"`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::X => "X",
            Self::O => "O",
        }
    }

    /// Reads a mark in either case; anything else is `None`.
    #[must_use]
    pub const fn from_char(c: char) -> Option<Self> {
        match c {
            'X' | 'x' => Some(Self::X),
            'O' | 'o' => Some(Self::O),
            _ => None,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
