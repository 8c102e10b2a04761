//! A game record: the board, the side that moved first and the moves in play order, each
//! checked when it is read; the review and the Connect Four page replay it.

use std::fmt;

use thiserror::Error;

use super::{GameResult, Geometry, PlayError, Player, Position};

/// A game: its board, the side that moved first and its moves in play order, each legal when it
/// was played, none after the game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The position before each move, in order (as many as there are moves).
    positions: Vec<Position>,
    moves: Vec<usize>,
    /// How the game ended, if it did.
    result: Option<GameResult>,
    /// The position after the last move, while the game is in play.
    current: Option<Position>,
    geometry: Geometry,
    first: Player,
}

/// Why a list of moves is not a game.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub struct GameError {
    /// The offending move, counted from 1.
    pub number: usize,
    /// The cell it names; for a move given as a column, where the stone lands (the column's
    /// top cell when it lands nowhere).
    pub cell: usize,
    /// The column (from 0) of a move given as a column ([`Game::from_columns`]).
    pub column: Option<usize>,
    /// What is wrong with it.
    pub kind: GameErrorKind,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.kind, self.column) {
            // The play error names the cell itself.
            (GameErrorKind::Play(error), None) => write!(f, "move {}: {error}", self.number),
            (kind, Some(column)) => {
                write!(f, "move {} (column {}): {kind}", self.number, column + 1)
            }
            (kind, None) => write!(f, "move {} (cell {}): {kind}", self.number, self.cell),
        }
    }
}

/// What is wrong with a move of a game.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GameErrorKind {
    /// The move cannot be played on the position it was played from: off the board, on a taken
    /// cell, above an empty cell under gravity, or forbidden to black under renju.
    #[error(transparent)]
    Play(PlayError),
    /// The game had already ended.
    #[error("the game was already over ({0})")]
    AfterGameEnd(GameEnd),
    /// A move given as a column names a column the board does not have.
    #[error("there is no such column (the board has {cols})")]
    NoSuchColumn {
        /// The board's columns.
        cols: usize,
    },
    /// A move given as a column names a full column.
    #[error("the column is full")]
    FullColumn,
}

/// How a game ended, for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd(pub GameResult);

impl fmt::Display for GameEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.winner {
            Some(winner) => write!(f, "{winner} had won"),
            None => f.write_str("drawn, the board was full"),
        }
    }
}

impl Game {
    /// Replays `moves` from the empty board of `geometry`, `first` moving first.
    ///
    /// ```
    /// use minimax_move::engine::{Game, GameErrorKind, Geometry, PlayError, Player};
    /// let game = Game::new(Geometry::TIC_TAC_TOE, Player::X, &[4, 0, 8]).unwrap();
    /// assert_eq!(game.moves(), &[4, 0, 8]);
    /// let error = Game::new(Geometry::TIC_TAC_TOE, Player::X, &[4, 4]).unwrap_err();
    /// assert_eq!((error.number, error.cell), (2, 4));
    /// assert_eq!(error.kind, GameErrorKind::Play(PlayError::Occupied { index: 4 }));
    /// ```
    ///
    /// # Errors
    /// [`GameError`] naming the first move that is off the board, on a taken cell, or played
    /// after the game ended.
    pub fn new(geometry: Geometry, first: Player, moves: &[usize]) -> Result<Self, GameError> {
        Self::replay(geometry, first, moves, |_, cell| Ok(cell)).map_err(|(number, cell, kind)| {
            GameError {
                number,
                cell,
                column: None,
                kind,
            }
        })
    }

    /// Replays a gravity game given as the columns played (from 0), `first` moving first: the
    /// form of the public Connect Four solver's `pos` (there from 1).
    ///
    /// ```
    /// use minimax_move::engine::{Game, GameErrorKind, Geometry, Player};
    /// let game = Game::from_columns(Geometry::CONNECT_FOUR, Player::X, &[3, 3, 4]).unwrap();
    /// assert_eq!(game.moves(), &[38, 31, 39]);
    /// assert_eq!(game.position().unwrap().to_move(), Player::O);
    /// let full = Game::from_columns(Geometry::CONNECT_FOUR, Player::X, &[0; 7]).unwrap_err();
    /// assert_eq!((full.number, full.column, full.kind), (7, Some(0), GameErrorKind::FullColumn));
    /// ```
    ///
    /// # Errors
    /// [`GameError`] naming the first move that names a missing or full column, or comes after
    /// the game ended.
    pub fn from_columns(
        geometry: Geometry,
        first: Player,
        columns: &[usize],
    ) -> Result<Self, GameError> {
        let cols = geometry.cols();
        Self::replay(geometry, first, columns, |position, column| {
            if column >= cols {
                return Err(GameErrorKind::NoSuchColumn { cols });
            }
            geometry
                .landing_cell(position.cells(), column)
                .ok_or(GameErrorKind::FullColumn)
        })
        .map_err(|(number, cell, kind)| GameError {
            number,
            cell,
            column: Some(columns[number - 1]),
            kind,
        })
    }

    /// Replays `moves` from the empty board, `cell_of` turning each into the cell it takes
    /// on the position it is played from; an error is the move's number, its cell (or the
    /// move as named when it names no cell) and what is wrong.
    fn replay(
        geometry: Geometry,
        first: Player,
        moves: &[usize],
        cell_of: impl Fn(&Position, usize) -> Result<usize, GameErrorKind>,
    ) -> Result<Self, (usize, usize, GameErrorKind)> {
        let start = Position::new(geometry, vec![None; geometry.cells()], Some(first))
            .expect("the empty board is a position in play");
        let mut positions = Vec::with_capacity(moves.len().min(geometry.cells()));
        let mut played_cells = Vec::with_capacity(positions.capacity());
        let mut next = Some(start);
        let mut result = None;
        for (i, &named) in moves.iter().enumerate() {
            let Some(position) = next.take() else {
                let end = result
                    .clone()
                    .expect("a game without a next position has ended");
                return Err((i + 1, named, GameErrorKind::AfterGameEnd(GameEnd(end))));
            };
            let cell = cell_of(&position, named).map_err(|kind| (i + 1, named, kind))?;
            let played = position
                .try_play(cell)
                .map_err(|e| (i + 1, cell, GameErrorKind::Play(e)))?;
            positions.push(position);
            played_cells.push(cell);
            next = played.next;
            result = played.result;
        }
        Ok(Self {
            positions,
            moves: played_cells,
            result,
            current: next,
            geometry,
            first,
        })
    }

    /// The position after the last move, `None` when the game has ended.
    #[must_use]
    pub const fn position(&self) -> Option<&Position> {
        self.current.as_ref()
    }

    /// The moves, in play order.
    #[must_use]
    pub fn moves(&self) -> &[usize] {
        &self.moves
    }

    /// The board's shape.
    #[must_use]
    pub const fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The side that moved first.
    #[must_use]
    pub const fn first(&self) -> Player {
        self.first
    }

    /// The position before each move, in order (as many as there are moves).
    #[must_use]
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// How the game ended, `None` while it is in play.
    #[must_use]
    pub const fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    /// Whether every position of the game is answered from the solved 3 × 3 table.
    #[must_use]
    pub const fn is_solved(&self) -> bool {
        self.geometry.is_tic_tac_toe()
    }
}
