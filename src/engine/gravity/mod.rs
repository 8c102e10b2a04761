//! Gravity games solved: Connect Four (7 columns, 6 rows, four in a row) and every other board
//! where a stone drops to the lowest empty cell of its column: every board the engine's
//! [`Geometry`](crate::engine::Geometry) takes (up to 20 on a side) as long as
//! `(rows + 1) × columns ≤ 128` (10 × 10 fits, and so do 20 × 5 and 5 × 20).
//!
//! The solver follows Pascal Pons' Connect Four solver: the board as two bitboards with a
//! sentinel row, negamax with alpha-beta on null windows narrowing the score from both sides,
//! a transposition table keeping a lower and an upper bound per position (2^23 entries, 64 MiB,
//! mirror images sharing an entry), moves that hand the opponent a win never tried, moves
//! ordered by the winning cells they create and then centre first. 7 × 6 positions early in
//! the game come from an opening book built into the binary (see `connect4.book` and the
//! `connect4-book` tool).
//!
//! [`analyze`] scores every legal column; [`solve`] gives the position's own value. Both take
//! the engine's [`SearchLimits`] (work budget, deadline, cancel handle): a value the search
//! proved is [`GravityValue::Exact`], one it could not finish an [`GravityValue::Estimate`]
//! strictly inside (-1, 1).
//!
//! ```
//! use minimax_move::engine::gravity::{GravityPosition, analyze, solve};
//! use minimax_move::engine::{Outcome, SearchLimits};
//!
//! // Connect Four from the empty board: only the centre column wins, on the 41st move.
//! let empty = GravityPosition::connect_four();
//! let analysis = analyze(&empty, &SearchLimits::default());
//! assert_eq!(analysis.best, 3);
//! let centre = analysis.get(3).unwrap().value;
//! assert_eq!((centre.outcome(), centre.plies(), centre.pons_score()), (Some(Outcome::Win), Some(41), Some(1)));
//! assert_eq!(analysis.pons_scores(), vec![Some(-2), Some(-1), Some(0), Some(1), Some(0), Some(-1), Some(-2)]);
//!
//! // A small board, solved from scratch: 4 × 4 four in a row is a draw.
//! let small = GravityPosition::new(4, 4, 4, vec![None; 16], None).unwrap();
//! assert_eq!(solve(&small, &SearchLimits::default()).value.outcome(), Some(Outcome::Draw));
//! ```

mod bits;
mod board;
mod book;
mod generate;
mod search;
mod table;

use bits::Bits;
use board::{Board, Shape};
use search::{Searcher, budget_of};
use table::{Bounds, Table};

pub use book::{Book, BookError};
pub use generate::build_book;

use super::{Analysis, Evaluation, MoveScore, Outcome, Player, Position, Scoring, SearchLimits};

/// The most bits a board may take: `(rows + 1) × columns` (each column has a sentinel bit).
pub const MAX_BITS: usize = 128;
/// The most rows, and the most columns, a board may have: the engine's longest side
/// ([`Geometry::MAX_SIDE`](crate::engine::Geometry::MAX_SIDE)), so that every gravity geometry
/// the engine accepts is one the solver takes.
pub const MAX_SIDE: usize = super::Geometry::MAX_SIDE as usize;

/// Why a gravity position could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GravityError {
    /// The board's size is outside what the solver takes.
    #[error(
        "a gravity board takes 1 to 20 rows and columns with (rows + 1) × columns at most 128, \
         and k of at least 1; {rows} × {cols} with k = {k} is not one"
    )]
    Size {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
        /// Stones in a row asked for.
        k: usize,
    },
    /// The cells do not fill the board.
    #[error("the board has {found} cells where {expected} were expected")]
    CellCount {
        /// `rows × cols`.
        expected: usize,
        /// The cells given.
        found: usize,
    },
    /// A stone above an empty cell of its column.
    #[error("the stone at cell {index} floats above an empty cell")]
    Floating {
        /// The floating stone's cell (row-major, top row first).
        index: usize,
    },
    /// Stone counts no game reaches.
    #[error("{x} X and {o} O: the counts of a game differ by at most one")]
    Counts {
        /// X stones.
        x: usize,
        /// O stones.
        o: usize,
    },
    /// The side to move named contradicts the counts.
    #[error("{player} cannot be to move with {x} X and {o} O")]
    WrongPlayer {
        /// The side named.
        player: Player,
        /// X stones.
        x: usize,
        /// O stones.
        o: usize,
    },
    /// Both sides have a line: no game gets there.
    #[error("both sides have a line")]
    BothLines,
    /// The game is over: a side has a line (`winner`) or the board is full (`None`).
    #[error("the game is over")]
    GameOver {
        /// The side with a line, `None` for a full board.
        winner: Option<Player>,
    },
    /// A move names a column the board does not have.
    #[error("move {index}: there is no column {column}")]
    NoSuchColumn {
        /// The move's place in the sequence, from 0.
        index: usize,
        /// The column named, from 0.
        column: usize,
    },
    /// A move names a full column.
    #[error("move {index}: column {column} is full")]
    FullColumn {
        /// The move's place in the sequence, from 0.
        index: usize,
        /// The column named, from 0.
        column: usize,
    },
    /// A move comes after the game ended.
    #[error("move {index} comes after the end of the game")]
    AfterEnd {
        /// The move's place in the sequence, from 0.
        index: usize,
    },
}

/// A legal gravity position in play: the board's size, `k`, the cells and the side to move.
/// Building one checks that every stone rests on the one below, that the counts are those of a
/// game, and that the game is not over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GravityPosition {
    rows: usize,
    cols: usize,
    k: usize,
    cells: Vec<Option<Player>>,
    to_move: Player,
}

impl GravityPosition {
    /// A position from its cells, row-major with the top row first (as every board of the
    /// engine). The side to move is inferred when `player` is `None`: the side with fewer
    /// stones, `X` when the counts are equal.
    ///
    /// # Errors
    /// When the size is out of range, a stone floats, the counts or the side to move are
    /// impossible, or the game is over.
    pub fn new(
        rows: usize,
        cols: usize,
        k: usize,
        cells: Vec<Option<Player>>,
        player: Option<Player>,
    ) -> Result<Self, GravityError> {
        check_size(rows, cols, k)?;
        if cells.len() != rows * cols {
            return Err(GravityError::CellCount {
                expected: rows * cols,
                found: cells.len(),
            });
        }
        for c in 0..cols {
            let mut below_empty = false;
            for r in (0..rows).rev() {
                let index = r * cols + c;
                match cells[index] {
                    Some(_) if below_empty => return Err(GravityError::Floating { index }),
                    Some(_) => {}
                    None => below_empty = true,
                }
            }
        }
        let x = cells.iter().filter(|&&c| c == Some(Player::X)).count();
        let o = cells.iter().filter(|&&c| c == Some(Player::O)).count();
        if x.abs_diff(o) > 1 {
            return Err(GravityError::Counts { x, o });
        }
        let to_move = match player {
            Some(p) => {
                let own = if p == Player::X { x } else { o };
                if own > x.min(o) {
                    return Err(GravityError::WrongPlayer { player: p, x, o });
                }
                p
            }
            None if o < x => Player::O,
            None => Player::X,
        };
        let position = Self {
            rows,
            cols,
            k,
            cells,
            to_move,
        };
        let x_line = position.has_line(Player::X);
        let o_line = position.has_line(Player::O);
        match (x_line, o_line) {
            (true, true) => Err(GravityError::BothLines),
            (true, false) => Err(GravityError::GameOver {
                winner: Some(Player::X),
            }),
            (false, true) => Err(GravityError::GameOver {
                winner: Some(Player::O),
            }),
            _ if x + o == rows * cols => Err(GravityError::GameOver { winner: None }),
            _ => Ok(position),
        }
    }

    /// The empty 7 × 6 Connect Four board, X to move.
    #[must_use]
    pub fn connect_four() -> Self {
        Self {
            rows: 6,
            cols: 7,
            k: 4,
            cells: vec![None; 42],
            to_move: Player::X,
        }
    }

    /// The position after X, then O, then X... drop stones in `columns` (from 0) on an empty
    /// board.
    ///
    /// ```
    /// use minimax_move::engine::gravity::{GravityError, GravityPosition};
    /// let position = GravityPosition::from_moves(6, 7, 4, &[3, 3, 4, 2]).unwrap();
    /// assert_eq!(position.stones(), 4);
    /// assert_eq!(
    ///     GravityPosition::from_moves(6, 7, 4, &[0, 1, 0, 1, 0, 1, 0]),
    ///     Err(GravityError::GameOver { winner: Some(minimax_move::engine::Player::X) })
    /// );
    /// ```
    ///
    /// # Errors
    /// When the size is out of range, a move names a missing or full column or comes after the
    /// end of the game, or the game is over after the last move.
    pub fn from_moves(
        rows: usize,
        cols: usize,
        k: usize,
        columns: &[usize],
    ) -> Result<Self, GravityError> {
        check_size(rows, cols, k)?;
        let mut cells = vec![None; rows * cols];
        let mut heights = vec![0; cols];
        let mut player = Player::X;
        let mut ended: Option<Option<Player>> = None;
        for (index, &column) in columns.iter().enumerate() {
            if ended.is_some() {
                return Err(GravityError::AfterEnd { index });
            }
            if column >= cols {
                return Err(GravityError::NoSuchColumn { index, column });
            }
            if heights[column] == rows {
                return Err(GravityError::FullColumn { index, column });
            }
            let cell = (rows - 1 - heights[column]) * cols + column;
            cells[cell] = Some(player);
            heights[column] += 1;
            if line_through(rows, cols, k, &cells, cell) {
                ended = Some(Some(player));
            } else if index + 1 == rows * cols {
                ended = Some(None);
            }
            player = player.opponent();
        }
        if let Some(winner) = ended {
            return Err(GravityError::GameOver { winner });
        }
        Ok(Self {
            rows,
            cols,
            k,
            cells,
            to_move: player,
        })
    }

    /// Rows.
    #[must_use]
    pub const fn rows(&self) -> usize {
        self.rows
    }

    /// Columns.
    #[must_use]
    pub const fn cols(&self) -> usize {
        self.cols
    }

    /// Stones in a row that win.
    #[must_use]
    pub const fn k(&self) -> usize {
        self.k
    }

    /// The cells, row-major, top row first.
    #[must_use]
    pub fn cells(&self) -> &[Option<Player>] {
        &self.cells
    }

    /// The side to move.
    #[must_use]
    pub const fn to_move(&self) -> Player {
        self.to_move
    }

    /// Stones on the board.
    #[must_use]
    pub fn stones(&self) -> usize {
        self.cells.iter().filter(|c| c.is_some()).count()
    }

    /// The cell (row-major index) where a stone dropped in `column` lands, `None` when the
    /// column is full or does not exist.
    #[must_use]
    pub fn landing_cell(&self, column: usize) -> Option<usize> {
        if column >= self.cols {
            return None;
        }
        (0..self.rows)
            .rev()
            .map(|r| r * self.cols + column)
            .find(|&i| self.cells[i].is_none())
    }

    /// The columns that are not full, in increasing order.
    #[must_use]
    pub fn legal_columns(&self) -> Vec<usize> {
        (0..self.cols)
            .filter(|&c| self.cells[c].is_none())
            .collect()
    }

    fn has_line(&self, player: Player) -> bool {
        (0..self.cells.len()).any(|i| {
            self.cells[i] == Some(player)
                && line_through(self.rows, self.cols, self.k, &self.cells, i)
        })
    }

    fn board<B: Bits>(&self, shape: &Shape<B>) -> Board<B> {
        let mut board = Board::empty();
        for c in 0..self.cols {
            for height in 0..self.rows {
                let index = (self.rows - 1 - height) * self.cols + c;
                match self.cells[index] {
                    Some(p) => {
                        let bit = shape.bit(c as u32, height as u32);
                        board.mask |= bit;
                        if p == self.to_move {
                            board.current |= bit;
                        }
                        board.moves += 1;
                    }
                    None => break,
                }
            }
        }
        board
    }
}

fn check_size(rows: usize, cols: usize, k: usize) -> Result<(), GravityError> {
    if rows == 0
        || cols == 0
        || rows > MAX_SIDE
        || cols > MAX_SIDE
        || k == 0
        || (rows + 1) * cols > MAX_BITS
    {
        return Err(GravityError::Size { rows, cols, k });
    }
    Ok(())
}

/// Whether the stone at `index` is part of a line of `k` of its colour.
fn line_through(
    rows: usize,
    cols: usize,
    k: usize,
    cells: &[Option<Player>],
    index: usize,
) -> bool {
    let Some(player) = cells[index] else {
        return false;
    };
    let (r, c) = ((index / cols) as isize, (index % cols) as isize);
    [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|&(dr, dc)| {
        let run = |sign: isize| {
            (1..)
                .map(|step| (r + sign * dr * step, c + sign * dc * step))
                .take_while(|&(rr, cc)| {
                    rr >= 0
                        && cc >= 0
                        && rr < rows as isize
                        && cc < cols as isize
                        && cells[rr as usize * cols + cc as usize] == Some(player)
                })
                .count()
        };
        1 + run(1) + run(-1) >= k
    })
}

/// What a move or a position is worth to the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GravityValue {
    /// Proven by the search or the book.
    Exact {
        /// What best play gives.
        outcome: Outcome,
        /// Moves from the position to the end of the game with best play, the move itself
        /// included (for a draw: until the board is full).
        plies: u32,
        /// Pons' score: a win with the stone numbered `m` in the game (counting every stone
        /// played since the empty board) scores `1 + (cells - m) / 2` (22 minus the winner's
        /// stones on 7 × 6), a loss the negative, a draw 0.
        score: i32,
    },
    /// The search ran out of budget first: an estimate strictly inside (-1, 1). Above 0.9 (or
    /// below -0.9) the win (or the loss) is proven but not its length.
    Estimate(f64),
}

impl GravityValue {
    /// Whether the value is proven.
    #[must_use]
    pub const fn is_exact(self) -> bool {
        matches!(self, Self::Exact { .. })
    }

    /// The proven outcome.
    #[must_use]
    pub const fn outcome(self) -> Option<Outcome> {
        match self {
            Self::Exact { outcome, .. } => Some(outcome),
            Self::Estimate(_) => None,
        }
    }

    /// The proven number of plies to the end.
    #[must_use]
    pub const fn plies(self) -> Option<u32> {
        match self {
            Self::Exact { plies, .. } => Some(plies),
            Self::Estimate(_) => None,
        }
    }

    /// The proven Pons score.
    #[must_use]
    pub const fn pons_score(self) -> Option<i32> {
        match self {
            Self::Exact { score, .. } => Some(score),
            Self::Estimate(_) => None,
        }
    }

    /// The value as the rest of the engine scores it (the input of
    /// [`MoveScore::new`](crate::engine::MoveScore::new)): a win in `p` plies is `W - p`, a loss
    /// `p - W`, with `W = cells + 1`; an estimate stays one.
    ///
    /// ```
    /// use minimax_move::engine::gravity::GravityValue;
    /// use minimax_move::engine::{Evaluation, Outcome};
    /// let win = GravityValue::Exact { outcome: Outcome::Win, plies: 41, score: 1 };
    /// assert_eq!(win.evaluation(42), Evaluation::Exact(2));
    /// ```
    #[must_use]
    pub fn evaluation(self, cells: usize) -> Evaluation {
        let w = cells as i32 + 1;
        match self {
            Self::Exact { outcome, plies, .. } => Evaluation::Exact(match outcome {
                Outcome::Win => w - plies as i32,
                Outcome::Loss => plies as i32 - w,
                Outcome::Draw => 0,
            }),
            Self::Estimate(h) => Evaluation::Heuristic(h),
        }
    }

    /// One number to rank values by: the depth score of a proven value, the estimate itself.
    fn rank(self, cells: usize) -> f64 {
        match self.evaluation(cells) {
            Evaluation::Exact(s) => f64::from(s),
            Evaluation::Heuristic(h) => h,
        }
    }
}

/// One legal column and what dropping a stone there is worth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ColumnValue {
    /// The column, from 0.
    pub column: usize,
    /// Where the stone lands (row-major index, top row first).
    pub cell: usize,
    /// What the move is worth to the side to move.
    pub value: GravityValue,
}

/// Every legal column of a position, scored.
#[derive(Clone, Debug, PartialEq)]
pub struct GravityAnalysis {
    /// Columns that are not full, in increasing order.
    pub columns: Vec<ColumnValue>,
    /// The best column: the highest value (the fastest win, the slowest loss), the lowest
    /// column among equals.
    pub best: usize,
    /// Columns on the board (full ones included).
    pub cols: usize,
    /// Nodes searched (0 when the book and the immediate rules answered everything).
    pub nodes: u64,
}

impl GravityAnalysis {
    /// The value of `column`, `None` when it is full.
    #[must_use]
    pub fn get(&self, column: usize) -> Option<&ColumnValue> {
        self.columns.iter().find(|c| c.column == column)
    }

    /// The best column's entry.
    #[must_use]
    pub fn best_column(&self) -> &ColumnValue {
        self.get(self.best).expect("the best column is legal")
    }

    /// Whether every column's value is proven.
    #[must_use]
    pub fn is_exact(&self) -> bool {
        self.columns.iter().all(|c| c.value.is_exact())
    }

    /// Pons' score of every column, `None` for a full column or an unproven value.
    #[must_use]
    pub fn pons_scores(&self) -> Vec<Option<i32>> {
        (0..self.cols)
            .map(|c| self.get(c).and_then(|v| v.value.pons_score()))
            .collect()
    }
}

/// The value of a position, from its side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Solved {
    /// The value; its plies count from this position.
    pub value: GravityValue,
    /// Nodes searched.
    pub nodes: u64,
}

/// Scores every legal column of `position` within `limits` (its work budget in nodes, its
/// deadline and its cancel handle; the other fields are ignored). It first settles every
/// column's outcome, then their lengths, so that a search cut short still knows as much as it
/// can; a value not proven in time is an estimate.
#[must_use]
pub fn analyze(position: &GravityPosition, limits: &SearchLimits) -> GravityAnalysis {
    if (position.rows + 1) * position.cols <= 64 {
        analyze_with::<u64>(position, limits)
    } else {
        analyze_with::<u128>(position, limits)
    }
}

/// The value of `position` for its side to move, within `limits` as in [`analyze`]; cheaper
/// than analysing every column.
#[must_use]
pub fn solve(position: &GravityPosition, limits: &SearchLimits) -> Solved {
    if (position.rows + 1) * position.cols <= 64 {
        solve_with::<u64>(position, limits)
    } else {
        solve_with::<u128>(position, limits)
    }
}

/// Every legal move of a gravity `position` of the engine scored under `scoring`, the landing
/// cells as the moves: [`analyze`] behind the engine's one entry point,
/// [`suggest`](crate::engine::suggest).
pub(crate) fn analyze_position(
    position: &Position,
    scoring: Scoring,
    limits: &SearchLimits,
) -> Analysis {
    let geometry = position.geometry();
    let gravity = GravityPosition::new(
        geometry.rows(),
        geometry.cols(),
        geometry.k(),
        position.cells().to_vec(),
        Some(position.to_move()),
    )
    .expect("a legal position of the engine is a legal gravity position");
    let analysis = analyze(&gravity, limits);
    let empty = position.empty_count();
    let mut moves: Vec<MoveScore> = analysis
        .columns
        .iter()
        .map(|c| {
            MoveScore::new(
                c.cell,
                c.value.evaluation(geometry.cells()),
                scoring,
                geometry,
                empty,
            )
        })
        .collect();
    moves.sort_unstable_by_key(|m| m.index);
    Analysis::from_moves(moves, analysis.nodes, None)
}

/// The built-in book, when `position` is on the board it is for.
fn book_for(position: &GravityPosition) -> Option<&'static Book> {
    let book = book::connect_four();
    let (rows, cols, k) = book.geometry;
    ((position.rows, position.cols, position.k) == (rows as usize, cols as usize, k as usize))
        .then_some(book)
}

fn shape_of<B: Bits>(position: &GravityPosition) -> Shape<B> {
    Shape::new(
        position.rows as u32,
        position.cols as u32,
        position.k as u32,
    )
}

fn solve_with<B: Bits>(position: &GravityPosition, limits: &SearchLimits) -> Solved {
    let shape = shape_of::<B>(position);
    let board = position.board(&shape);
    let mut table = Table::borrow();
    let book = book_for(position);
    let mut searcher = Searcher::new(&shape, &mut table, book, budget_of(limits));
    let in_book =
        book.and_then(|book| book.get(board.canonical_key(&shape).to_u128(), board.moves));
    let bounds = if board.can_win_next(&shape) {
        let score = searcher.win_now(&board);
        Bounds {
            lower: score,
            upper: score,
        }
    } else if let Some(score) = in_book {
        Bounds {
            lower: score,
            upper: score,
        }
    } else {
        let (lower, upper) = searcher.score_range(&board);
        searcher.narrow(&board, Bounds { lower, upper }, false)
    };
    Solved {
        value: value_of(bounds, board.moves, shape.cells),
        nodes: searcher.nodes,
    }
}

fn analyze_with<B: Bits>(position: &GravityPosition, limits: &SearchLimits) -> GravityAnalysis {
    let shape = shape_of::<B>(position);
    let board = position.board(&shape);
    let mut table = Table::borrow();
    let book = book_for(position);
    let mut searcher = Searcher::new(&shape, &mut table, book, budget_of(limits));
    let cols = position.cols;
    let playable = shape.playable(board.mask);
    let wins = board.winning_cells(&shape) & playable;
    let symmetric = board.key() == shape.mirror(board.key());
    // Per column: the child position still to search (None when settled) and the bounds on
    // the move's score from the mover's side.
    let mut columns: Vec<Option<(Option<Board<B>>, Bounds)>> = vec![None; cols];
    for (c, entry) in columns.iter_mut().enumerate() {
        let bit = playable & shape.column(c as u32);
        if bit != B::ZERO {
            *entry = Some(first_bounds(&mut searcher, &board, bit, wins, book));
        }
    }
    // Outcomes first, then lengths; on a symmetric board the mirror twin of a column is skipped
    // and copied.
    for sign_only in [true, false] {
        for &c in &shape.order {
            let c = c as usize;
            if symmetric && c > cols - 1 - c {
                continue;
            }
            if let Some((Some(child), bounds)) = columns[c] {
                let theirs = searcher.narrow(
                    &child,
                    Bounds {
                        lower: -bounds.upper,
                        upper: -bounds.lower,
                    },
                    sign_only,
                );
                let ours = Bounds {
                    lower: -theirs.upper,
                    upper: -theirs.lower,
                };
                let settled = ours.lower == ours.upper;
                columns[c] = Some((if settled { None } else { Some(child) }, ours));
            }
        }
    }
    if symmetric {
        for c in 0..cols {
            if c > cols - 1 - c {
                columns[c] = columns[cols - 1 - c];
            }
        }
    }
    let cells = shape.cells as usize;
    let values: Vec<ColumnValue> = columns
        .iter()
        .enumerate()
        .filter_map(|(c, entry)| {
            entry.map(|(_, bounds)| ColumnValue {
                column: c,
                cell: position
                    .landing_cell(c)
                    .expect("a playable column has a landing cell"),
                value: value_of(bounds, board.moves, shape.cells),
            })
        })
        .collect();
    let mut best = 0;
    for (i, v) in values.iter().enumerate() {
        if v.value.rank(cells) > values[best].value.rank(cells) {
            best = i;
        }
    }
    GravityAnalysis {
        best: values[best].column,
        columns: values,
        cols,
        nodes: searcher.nodes,
    }
}

/// What is known of the move `bit` before any search: its exact score when it wins at once,
/// fills the board, lets the opponent win at once or reaches a book position (then no child
/// is left to search), else the child to search and the widest bounds on its score.
fn first_bounds<B: Bits>(
    searcher: &mut Searcher<'_, B>,
    board: &Board<B>,
    bit: B,
    wins: B,
    book: Option<&Book>,
) -> (Option<Board<B>>, Bounds) {
    let shape = searcher.shape;
    let exact = |score| {
        (
            None,
            Bounds {
                lower: score,
                upper: score,
            },
        )
    };
    if bit & wins != B::ZERO {
        return exact(searcher.win_now(board));
    }
    let child = board.play(bit);
    if child.moves == shape.cells {
        exact(0)
    } else if child.can_win_next(shape) {
        exact(-searcher.win_now(&child))
    } else if let Some(score) =
        book.and_then(|book| book.get(child.canonical_key(shape).to_u128(), child.moves))
    {
        exact(-score)
    } else {
        let (lower, upper) = searcher.score_range(&child);
        (
            Some(child),
            Bounds {
                lower: -upper,
                upper: -lower,
            },
        )
    }
}

/// The value of a score known to lie in `bounds`, for a position with `moves` stones.
fn value_of(bounds: Bounds, moves: i32, cells: i32) -> GravityValue {
    let Bounds { lower, upper } = bounds;
    if lower == upper {
        let score = lower;
        let outcome = match score.signum() {
            1 => Outcome::Win,
            -1 => Outcome::Loss,
            _ => Outcome::Draw,
        };
        let plies = match outcome {
            Outcome::Draw => cells - moves,
            _ => plies_of(score, moves, cells),
        };
        return GravityValue::Exact {
            outcome,
            plies: plies as u32,
            score,
        };
    }
    let most = f64::from(((cells + 1) / 2).max(1));
    let estimate = if lower > 0 {
        0.9 + 0.09 * f64::from(lower) / most
    } else if upper < 0 {
        -0.9 + 0.09 * f64::from(upper) / most
    } else {
        let lower = f64::from(lower).max(-most);
        let upper = f64::from(upper).min(most);
        0.8 * (lower + upper) / 2.0 / most
    };
    GravityValue::Estimate(estimate.clamp(-0.999, 0.999))
}

/// Plies to the end for a proven win (positive) or loss (negative) Pons `score`, from a
/// position with `moves` stones: the game ends with the stone numbered `m`, where
/// `|score| = 1 + (cells - m) / 2` and `m` has the winner's parity.
fn plies_of(score: i32, moves: i32, cells: i32) -> i32 {
    let parity = if score > 0 {
        (moves + 1) % 2
    } else {
        moves % 2
    };
    let mut m = cells - 2 * (score.abs() - 1);
    if m % 2 != parity {
        m -= 1;
    }
    m - moves
}

/// Pons' score of a win (or, negated, a loss) ending with the stone numbered `moves + plies`.
///
/// ```
/// use minimax_move::engine::gravity::pons_score;
/// // From the empty 7 × 6 board, a win on the 41st stone scores 1, on the 7th 18.
/// assert_eq!(pons_score(42, 0, 41), 1);
/// assert_eq!(pons_score(42, 0, 7), 18);
/// ```
#[must_use]
pub fn pons_score(cells: usize, moves: usize, plies: usize) -> i32 {
    1 + (cells as i32 - (moves + plies) as i32) / 2
}
