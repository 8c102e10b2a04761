//! [`Threat`]: the strongest combination a move makes for one side over its four lines.

/// What playing a cell does for one side, over its four lines, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Threat {
    /// No three or four.
    Quiet,
    /// A three (can become a four, not an open four).
    Three,
    /// An open three: left alone, it becomes an open four.
    OpenThree,
    /// Two open threes at once.
    DoubleThree,
    /// A four: the opponent must block its one completing cell.
    Four,
    /// A four and an open three at once.
    FourThree,
    /// An open four or two fours: wins unless the opponent completes a line first.
    OpenFour,
    /// Completes `k` in a row.
    Five,
}

impl Threat {
    /// The number of threat levels.
    pub const COUNT: usize = 8;

    /// Whether the opponent must answer it at once (a four or better).
    pub fn is_four(self) -> bool {
        self >= Self::Four
    }
}
