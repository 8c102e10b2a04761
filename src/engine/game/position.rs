use std::fmt;

use thiserror::Error;

use super::renju::{Foul, foul};
use super::rule::End;
use super::{Geometry, Player, Rule};

/// A legal position with the game still in play and a known side to move.
///
/// The only way to get one is [`Position::new`], which checks every rule, so code past the edge of
/// the service never sees an impossible or finished board.
///
/// ```
/// use minimax_move::engine::{Geometry, Player, Position};
/// let cells = Position::parse_compact("O.XX.X.OO").unwrap();
/// let position = Position::new(Geometry::TIC_TAC_TOE, cells, None).unwrap();
/// assert_eq!(position.to_move(), Player::X);
/// assert_eq!(position.empty_cells().collect::<Vec<_>>(), vec![1, 4, 6]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    geometry: Geometry,
    cells: Vec<Option<Player>>,
    to_move: Player,
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// The side with a line, or `None` for a draw (a full board with no line).
    pub winner: Option<Player>,
    /// The cells of the winning line(s), ascending; empty for a draw.
    pub line: Vec<usize>,
}

/// A cell of a board in the compact string form that is not a mark or an empty cell.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("character {position} ({found:?}) is not X, O or an empty cell ('.', '-', '_' or a space)")]
pub struct CompactCellError {
    /// Zero-based character position in the string (the cell index).
    pub position: usize,
    /// The character found there.
    pub found: char,
}

/// Why a board is not a position the engine can move from.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// On a gravity board, a mark above an empty cell of its column.
    #[error(
        "cell {index} holds a mark above an empty cell; on a gravity board every mark rests on the bottom row or on another mark"
    )]
    Floating {
        /// The floating mark's cell.
        index: usize,
    },
    /// The number of cells is not `rows * cols`.
    #[error("the board has {actual} cells, but rows × cols = {expected}")]
    WrongLength {
        /// `rows * cols`.
        expected: usize,
        /// Cells given.
        actual: usize,
    },
    /// The mark counts differ by more than one.
    #[error("X has {x} marks and O has {o}; in a real game the counts differ by at most one")]
    UnbalancedCounts {
        /// Marks of X.
        x: usize,
        /// Marks of O.
        o: usize,
    },
    /// Both sides have a line.
    #[error("both X and O have a line; the game ends at the first one")]
    BothHaveLines,
    /// The side with a line has fewer marks, so it cannot have made the last move.
    #[error("{winner} has a line but fewer marks than {loser}, so {winner} did not move last")]
    WinnerDidNotMoveLast {
        /// The side with the line.
        winner: Player,
        /// The other side.
        loser: Player,
    },
    /// The lines of the winning side share no cell, so no single last move made them all.
    #[error(
        "{winner} has lines that share no cell; one move completes at most lines through one cell"
    )]
    DisjointLines {
        /// The side with the lines.
        winner: Player,
    },
    /// The game is already over.
    #[error("the game is over: {}", match .0.winner { Some(p) => format!("{p} has won"), None => "it is a draw".to_owned() })]
    GameOver(GameResult),
    /// Under renju, O has more stones than X, but X is black and moves first.
    #[error("under renju X is black and moves first, but O has {o} stones to X's {x}")]
    BlackMovesFirst {
        /// Marks of X.
        x: usize,
        /// Marks of O.
        o: usize,
    },
    /// The requested side to move contradicts the mark counts.
    #[error(
        "{given} cannot be the side to move: X has {x} marks and O has {o}, so {expected} moves"
    )]
    WrongPlayer {
        /// The side the request named.
        given: Player,
        /// The side the counts require.
        expected: Player,
        /// Marks of X.
        x: usize,
        /// Marks of O.
        o: usize,
    },
}

/// The lines `player` owns outright that win under the geometry's rule.
fn owned_lines<'a>(
    geometry: Geometry,
    lines: &'a [Vec<usize>],
    cells: &[Option<Player>],
    player: Player,
) -> Vec<&'a Vec<usize>> {
    lines
        .iter()
        .filter(|line| line.iter().all(|&i| cells[i] == Some(player)))
        .filter(|line| window_wins(geometry, cells, line, player))
        .collect()
}

/// Whether a line of `k` stones of `player` wins under the geometry's rule, which may look at the
/// cells just beyond its two ends.
fn window_wins(
    geometry: Geometry,
    cells: &[Option<Player>],
    line: &[usize],
    player: Player,
) -> bool {
    let rule = geometry.rule();
    if rule == Rule::Freestyle || line.len() < 2 {
        return true;
    }
    let cols = geometry.cols() as isize;
    let at = |i: usize| (i as isize / cols, i as isize % cols);
    let ((r0, c0), (r1, c1)) = (at(line[0]), at(line[1]));
    let (dr, dc) = (r1 - r0, c1 - c0);
    let end = |(r, c): (isize, isize)| {
        if r < 0 || c < 0 || r >= geometry.rows() as isize || c >= cols {
            return End::Edge;
        }
        match cells[(r * cols + c) as usize] {
            None => End::Empty,
            Some(p) if p == player => End::Own,
            Some(_) => End::Opponent,
        }
    };
    let (rl, cl) = at(line[line.len() - 1]);
    rule.window_wins(player, end((r0 - dr, c0 - dc)), end((rl + dr, cl + dc)))
}

/// The outcome of a board that may be finished: `Some` when a side has a line or the board is full.
///
/// The board is assumed to have the geometry's length; lines of both sides are reported if present.
#[must_use]
pub fn game_result(geometry: Geometry, cells: &[Option<Player>]) -> Option<GameResult> {
    let lines = geometry.line_list();
    for player in [Player::X, Player::O] {
        let owned = owned_lines(geometry, lines, cells, player);
        if !owned.is_empty() {
            let mut line: Vec<usize> = owned.into_iter().flatten().copied().collect();
            line.sort_unstable();
            line.dedup();
            return Some(GameResult {
                winner: Some(player),
                line,
            });
        }
    }
    cells.iter().all(Option::is_some).then(|| GameResult {
        winner: None,
        line: Vec::new(),
    })
}

/// The finished game a board holds, as the error that says so: a line (which must be the last
/// mover's, all through one cell), or a full board. `Ok` when the game is in play.
fn finished(
    geometry: Geometry,
    cells: &[Option<Player>],
    (x, o): (usize, usize),
) -> Result<(), PositionError> {
    let lines = geometry.line_list();
    let x_lines = owned_lines(geometry, lines, cells, Player::X);
    let o_lines = owned_lines(geometry, lines, cells, Player::O);
    if !x_lines.is_empty() && !o_lines.is_empty() {
        return Err(PositionError::BothHaveLines);
    }
    let winner = if x_lines.is_empty() {
        (!o_lines.is_empty()).then_some((Player::O, o_lines))
    } else {
        Some((Player::X, x_lines))
    };
    if let Some((winner, owned)) = winner {
        let (mine, theirs) = if winner == Player::X { (x, o) } else { (o, x) };
        if mine < theirs {
            return Err(PositionError::WinnerDidNotMoveLast {
                winner,
                loser: winner.opponent(),
            });
        }
        let common = owned[0]
            .iter()
            .any(|cell| owned.iter().all(|line| line.contains(cell)));
        if !common {
            return Err(PositionError::DisjointLines { winner });
        }
        let mut line: Vec<usize> = owned.into_iter().flatten().copied().collect();
        line.sort_unstable();
        line.dedup();
        return Err(PositionError::GameOver(GameResult {
            winner: Some(winner),
            line,
        }));
    }
    if x + o == cells.len() {
        return Err(PositionError::GameOver(GameResult {
            winner: None,
            line: Vec::new(),
        }));
    }
    Ok(())
}

/// The side to move: `player` when given and the counts allow it, else the side with fewer
/// marks, or X when the counts are equal (under renju black, X, always moves first).
fn side_to_move(
    geometry: Geometry,
    player: Option<Player>,
    (x, o): (usize, usize),
) -> Result<Player, PositionError> {
    let expected = match x.cmp(&o) {
        std::cmp::Ordering::Less => Some(Player::X),
        std::cmp::Ordering::Greater => Some(Player::O),
        // Under renju black (X) moves first, so equal counts mean X to move.
        std::cmp::Ordering::Equal if geometry.rule() == Rule::Renju => Some(Player::X),
        std::cmp::Ordering::Equal => None,
    };
    match (player, expected) {
        (Some(given), Some(expected)) if given != expected => Err(PositionError::WrongPlayer {
            given,
            expected,
            x,
            o,
        }),
        (Some(given), _) => Ok(given),
        (None, Some(expected)) => Ok(expected),
        (None, None) => Ok(Player::X),
    }
}

impl Position {
    /// Validates a board and settles the side to move.
    ///
    /// `player` is the side to move if the caller knows it; `None` infers it: the side with fewer
    /// marks, or `X` when the counts are equal. A given player must agree with the counts (equal
    /// counts allow either side, so games where O starts work).
    ///
    /// # Errors
    /// [`PositionError`] when the length is wrong, the position cannot arise in a game, the game is
    /// already over, or `player` contradicts the counts.
    pub fn new(
        geometry: Geometry,
        cells: Vec<Option<Player>>,
        player: Option<Player>,
    ) -> Result<Self, PositionError> {
        if cells.len() != geometry.cells() {
            return Err(PositionError::WrongLength {
                expected: geometry.cells(),
                actual: cells.len(),
            });
        }
        if let Some(index) = floating_cell(geometry, &cells) {
            return Err(PositionError::Floating { index });
        }
        let x = cells.iter().filter(|&&c| c == Some(Player::X)).count();
        let o = cells.iter().filter(|&&c| c == Some(Player::O)).count();
        if x.abs_diff(o) > 1 {
            return Err(PositionError::UnbalancedCounts { x, o });
        }
        if geometry.rule() == Rule::Renju && o > x {
            return Err(PositionError::BlackMovesFirst { x, o });
        }
        finished(geometry, &cells, (x, o))?;
        let to_move = side_to_move(geometry, player, (x, o))?;
        Self {
            geometry,
            cells,
            to_move,
        }
        .in_play()
    }

    /// This position, or a drawn game when the side to move has no move it may play: under
    /// renju black, when every empty cell is forbidden to it (a game cannot go on, and no one
    /// completed a line).
    fn in_play(self) -> Result<Self, PositionError> {
        if self.stalemate() {
            return Err(PositionError::GameOver(GameResult {
                winner: None,
                line: Vec::new(),
            }));
        }
        Ok(self)
    }

    /// Whether the side to move has empty cells but may play none of them.
    fn stalemate(&self) -> bool {
        self.geometry.rule().forbids(self.to_move)
            && self.empty_cells().all(|index| self.foul(index).is_some())
    }

    /// Reads the compact string form, one character a cell: `X`/`O` in either case for marks and
    /// `.`, `-`, `_` or a space for an empty cell. The result still has to pass [`Position::new`].
    ///
    /// # Errors
    /// Every character that is neither, with its position.
    pub fn parse_compact(board: &str) -> Result<Vec<Option<Player>>, Vec<CompactCellError>> {
        let mut errors = Vec::new();
        let cells = board
            .chars()
            .enumerate()
            .map(|(position, c)| match c {
                '.' | '-' | '_' | ' ' => None,
                _ => Player::from_char(c).or_else(|| {
                    errors.push(CompactCellError { position, found: c });
                    None
                }),
            })
            .collect();
        if errors.is_empty() {
            Ok(cells)
        } else {
            Err(errors)
        }
    }

    /// The board's shape.
    #[must_use]
    pub const fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The cells in row-major order.
    #[must_use]
    pub fn cells(&self) -> &[Option<Player>] {
        &self.cells
    }

    /// The side to move.
    #[must_use]
    pub const fn to_move(&self) -> Player {
        self.to_move
    }

    /// Indices of the cells a move can take, ascending: the empty cells, or on a gravity board
    /// the lowest empty cell of each column that is not full.
    pub fn empty_cells(&self) -> impl Iterator<Item = usize> + '_ {
        let gravity = self
            .geometry
            .is_gravity()
            .then(|| self.geometry.playable_cells(&self.cells));
        self.cells
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.is_none().then_some(i))
            .filter(move |i| gravity.as_ref().is_none_or(|g| g.contains(i)))
    }

    /// Number of empty cells.
    #[must_use]
    pub fn empty_count(&self) -> usize {
        self.cells.iter().filter(|c| c.is_none()).count()
    }

    /// Why the side to move may not play the empty cell `index`: under renju, black's (X's)
    /// forbidden moves. `None` for every other rule, side or cell.
    #[must_use]
    pub fn foul(&self, index: usize) -> Option<Foul> {
        if !self.geometry.rule().forbids(self.to_move) {
            return None;
        }
        let g = self.geometry;
        foul(g.rows(), g.cols(), &self.cells, Player::X, index)
    }

    /// The cells the side to move may not play, with why: black's forbidden points under renju,
    /// ascending; empty for every other rule or side.
    #[must_use]
    pub fn forbidden(&self) -> Vec<(usize, Foul)> {
        if !self.geometry.rule().forbids(self.to_move) {
            return Vec::new();
        }
        let g = self.geometry;
        super::renju::forbidden_points(g.rows(), g.cols(), &self.cells, Player::X)
    }

    /// The cells the side to move may play: [`Position::empty_cells`] without the
    /// [forbidden](Position::forbidden) ones.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<usize> {
        let forbidden: Vec<usize> = self.forbidden().into_iter().map(|(i, _)| i).collect();
        self.empty_cells()
            .filter(|i| !forbidden.contains(i))
            .collect()
    }

    /// The board after the side to move plays `index`, with the result if that ends the game.
    ///
    /// # Errors
    /// [`PlayError`] when `index` is off the board, not empty, or forbidden to black under renju.
    pub fn try_play(&self, index: usize) -> Result<Played, PlayError> {
        match self.cells.get(index) {
            None => Err(PlayError::OffBoard {
                index,
                cells: self.cells.len(),
            }),
            Some(Some(_)) => Err(PlayError::Occupied { index }),
            Some(None)
                if self.geometry.is_gravity()
                    && self
                        .geometry
                        .landing_cell(&self.cells, self.geometry.column_of(index))
                        != Some(index) =>
            {
                Err(PlayError::Floating { index })
            }
            Some(None) if self.foul(index).is_some() => Err(PlayError::Forbidden {
                index,
                foul: self.foul(index).expect("checked"),
            }),
            Some(None) => {
                let mut cells = self.cells.clone();
                cells[index] = Some(self.to_move);
                let mut result = game_result(self.geometry, &cells);
                let mut next = match result {
                    Some(_) => None,
                    None => Some(Self {
                        geometry: self.geometry,
                        cells: cells.clone(),
                        to_move: self.to_move.opponent(),
                    }),
                };
                if next.as_ref().is_some_and(Self::stalemate) {
                    (result, next) = (
                        Some(GameResult {
                            winner: None,
                            line: Vec::new(),
                        }),
                        None,
                    );
                }
                Ok(Played {
                    cells,
                    result,
                    next,
                })
            }
        }
    }
}

/// The outcome of [`Position::try_play`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The board after the move.
    pub cells: Vec<Option<Player>>,
    /// How the game ended, if the move ended it.
    pub result: Option<GameResult>,
    /// The position for the other side, if the game goes on.
    pub next: Option<Position>,
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlayError {
    /// The index is not a cell of the board.
    #[error("cell {index} is off the board (it has {cells} cells)")]
    OffBoard {
        /// The index asked for.
        index: usize,
        /// The board's size.
        cells: usize,
    },
    /// The cell already holds a mark.
    #[error("cell {index} is already taken")]
    Occupied {
        /// The index asked for.
        index: usize,
    },
    /// Under renju, the cell is forbidden to black.
    #[error("cell {index} is forbidden to black under renju: {}", foul.describe())]
    Forbidden {
        /// The index asked for.
        index: usize,
        /// Why.
        foul: Foul,
    },
    /// On a gravity board, the cell is above an empty cell of its column.
    #[error(
        "cell {index} is above an empty cell; on a gravity board a mark drops to the lowest empty cell of its column"
    )]
    Floating {
        /// The index asked for.
        index: usize,
    },
}

/// On a gravity board, the first mark (by index) above an empty cell of its column.
fn floating_cell(geometry: Geometry, cells: &[Option<Player>]) -> Option<usize> {
    if !geometry.is_gravity() {
        return None;
    }
    let cols = geometry.cols();
    (0..cells.len().saturating_sub(cols)).find(|&i| cells[i].is_some() && cells[i + cols].is_none())
}

impl fmt::Display for Position {
    /// The compact form: rows of `X`, `O` and `.`, separated by `/` (`O.X/X.X/.OO`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, cell) in self.cells.iter().enumerate() {
            if i > 0 && i % self.geometry.cols() == 0 {
                f.write_str("/")?;
            }
            f.write_str(cell.map_or(".", Player::as_str))?;
        }
        Ok(())
    }
}
