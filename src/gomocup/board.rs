//! The board the brain plays on: its shape and its stones, as the manager described them.

use thiserror::Error;

use super::WIN_LENGTH;
use super::command::Stone;
use crate::engine::renju::{Foul, forbidden_points};
use crate::engine::{Geometry, GeometryError, Player, Position, PositionError, Rule};

/// A command the game cannot take; its text is the `ERROR` line's.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BoardError {
    /// A move or a board before `START` or `RECTSTART`.
    #[error("no game: send START or RECTSTART first")]
    NoGame,
    /// A board size the engine does not play.
    #[error(
        "unsupported board {width} x {height}: sides from 1 to {max_side}, the longer at least {WIN_LENGTH}",
        max_side = Geometry::MAX_SIDE
    )]
    UnsupportedBoard { width: usize, height: usize },
    /// A cell outside the board.
    #[error("{x},{y} is off the {width} x {height} board")]
    OffBoard {
        x: usize,
        y: usize,
        width: usize,
        height: usize,
    },
    /// A stone on a taken cell.
    #[error("{x},{y} is already taken")]
    Taken { x: usize, y: usize },
    /// `TAKEBACK` of an empty cell.
    #[error("{x},{y} is empty: nothing to take back")]
    NothingToTakeBack { x: usize, y: usize },
    /// Stone counts with which it is not the brain's move.
    #[error("it cannot be my move with {own} stones of mine and {opponent} of the opponent")]
    NotMyMove { own: usize, opponent: usize },
    /// The brain already has five in a row.
    #[error("the game is over: I have five in a row")]
    MyFive,
    /// The opponent already has five in a row.
    #[error("the game is over: the opponent has five in a row")]
    OpponentsFive,
    /// No empty cell is left.
    #[error("the game is over: the board is full")]
    BoardFull,
    /// Any other position the engine refuses.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// A shape the engine refuses.
    #[error(transparent)]
    Geometry(#[from] GeometryError),
}

/// The game being played: the board's shape and its stones, row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrainBoard {
    width: usize,
    height: usize,
    cells: Vec<Option<Stone>>,
    /// Whose move it is as far as the commands tell: the opponent's after the brain plays, the
    /// owner's of a stone taken back. Only equal counts need it (see [`BrainBoard::forbidden`]).
    next: Stone,
}

impl BrainBoard {
    /// Its number of cells, `width` × `height`.
    #[must_use]
    pub const fn cell_count(&self) -> usize {
        self.width * self.height
    }

    /// An empty `width` × `height` board, if the engine plays it.
    pub fn new(width: usize, height: usize) -> Result<Self, BoardError> {
        let longest = width.max(height);
        let max_side = usize::from(Geometry::MAX_SIDE);
        if width == 0 || height == 0 || longest < WIN_LENGTH || longest > max_side {
            return Err(BoardError::UnsupportedBoard { width, height });
        }
        Ok(Self {
            width,
            height,
            cells: vec![None; width * height],
            next: Stone::Own,
        })
    }

    /// An empty board of the same shape.
    pub fn emptied(&self) -> Self {
        Self {
            width: self.width,
            height: self.height,
            cells: vec![None; self.cells.len()],
            next: Stone::Own,
        }
    }

    /// The cell index of `x,y` (column, row), if it is on the board.
    pub fn index(&self, x: usize, y: usize) -> Result<usize, BoardError> {
        if x < self.width && y < self.height {
            Ok(y * self.width + x)
        } else {
            Err(BoardError::OffBoard {
                x,
                y,
                width: self.width,
                height: self.height,
            })
        }
    }

    /// The column and row of cell `index`.
    pub const fn coordinates(&self, index: usize) -> (usize, usize) {
        (index % self.width, index / self.width)
    }

    /// The stone on `x,y`, if any.
    #[cfg(test)]
    pub fn stone(&self, x: usize, y: usize) -> Result<Option<Stone>, BoardError> {
        Ok(self.cells[self.index(x, y)?])
    }

    /// Puts `stone` on the empty cell `x,y`.
    pub fn place(&mut self, x: usize, y: usize, stone: Stone) -> Result<(), BoardError> {
        let index = self.index(x, y)?;
        if self.cells[index].is_some() {
            return Err(BoardError::Taken { x, y });
        }
        self.cells[index] = Some(stone);
        self.next = match stone {
            Stone::Own => Stone::Opponent,
            Stone::Opponent => Stone::Own,
        };
        Ok(())
    }

    /// Takes the stone off `x,y`.
    pub fn take_back(&mut self, x: usize, y: usize) -> Result<(), BoardError> {
        let index = self.index(x, y)?;
        match self.cells[index].take() {
            Some(stone) => {
                self.next = stone;
                Ok(())
            }
            None => Err(BoardError::NothingToTakeBack { x, y }),
        }
    }

    /// Puts the brain's stone on the empty cell `index` (the engine's move) and returns its
    /// coordinates.
    pub fn play_own(&mut self, index: usize) -> (usize, usize) {
        debug_assert!(self.cells[index].is_none(), "the engine plays empty cells");
        self.cells[index] = Some(Stone::Own);
        self.next = Stone::Opponent;
        self.coordinates(index)
    }

    /// The stones on the board.
    #[cfg(test)]
    pub fn stones(&self) -> usize {
        self.cells.iter().flatten().count()
    }

    /// The stones of the brain and of the opponent.
    fn counts(&self) -> (usize, usize) {
        let count = |stone| self.cells.iter().filter(|&&c| c == Some(stone)).count();
        (count(Stone::Own), count(Stone::Opponent))
    }

    /// The cells black may not play under `rule`, with why, in board order (row by row): empty
    /// unless the rule is renju and black is to move. Black moves first, so black is to move when
    /// the counts are equal, and black is then the side whose move it is: the opponent once the
    /// brain has answered, the owner of a stone just taken back.
    pub fn forbidden(&self, rule: Rule) -> Vec<(usize, Foul)> {
        let (own, opponent) = self.counts();
        if rule != Rule::Renju || own != opponent {
            return Vec::new();
        }
        let cells: Vec<Option<Player>> = self
            .cells
            .iter()
            .map(|cell| {
                cell.map(|stone| {
                    if stone == self.next {
                        Player::X
                    } else {
                        Player::O
                    }
                })
            })
            .collect();
        forbidden_points(self.height, self.width, &cells, Player::X)
    }

    /// The engine's position under `rule` with the brain to move: the brain is X when the counts
    /// are equal (black under renju, which moves first) and O when the opponent has one stone
    /// more; any other count is an impossible position.
    pub fn position(&self, rule: Rule) -> Result<Position, BoardError> {
        let (own, opponent) = self.counts();
        let me = if own == opponent {
            Player::X
        } else if opponent == own + 1 {
            Player::O
        } else {
            return Err(BoardError::NotMyMove { own, opponent });
        };
        let geometry = Geometry::new(self.height as u64, self.width as u64, WIN_LENGTH as u64)?
            .with_rule(rule)?;
        let cells = self
            .cells
            .iter()
            .map(|cell| {
                cell.map(|stone| match stone {
                    Stone::Own => me,
                    Stone::Opponent => me.opponent(),
                })
            })
            .collect();
        Position::new(geometry, cells, Some(me)).map_err(|error| match error {
            PositionError::GameOver(result) => match result.winner {
                Some(winner) if winner == me => BoardError::MyFive,
                Some(_) => BoardError::OpponentsFive,
                None => BoardError::BoardFull,
            },
            other => BoardError::Position(other),
        })
    }
}
