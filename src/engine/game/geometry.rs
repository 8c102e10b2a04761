use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use thiserror::Error;

use super::{Player, Rule};

/// The shape of an m,n,k game: a `rows` × `cols` board where `k` in a row (horizontally,
/// vertically or diagonally) wins. Tic-tac-toe is 3,3,3.
///
/// ```
/// use minimax_move::engine::Geometry;
/// let g = Geometry::new(4, 4, 3).unwrap();
/// assert_eq!(g.cells(), 16);
/// assert_eq!(g.max_score(), 17);
/// assert!(Geometry::new(3, 3, 4).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    rows: u8,
    cols: u8,
    k: u8,
    gravity: bool,
    rule: Rule,
}

/// Why a `rows`, `cols`, `k` triple is not a supported game.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GeometryError {
    /// `rows` is outside `1..=15` (`1..=20` when `k` is 5).
    #[error("rows must be between 1 and {max} (20 when k = 5), got {rows}")]
    Rows {
        /// The value given.
        rows: u64,
        /// The largest supported side.
        max: u8,
    },
    /// `cols` is outside `1..=15` (`1..=20` when `k` is 5).
    #[error("cols must be between 1 and {max} (20 when k = 5), got {cols}")]
    Cols {
        /// The value given.
        cols: u64,
        /// The largest supported side.
        max: u8,
    },
    /// `k` is outside `1..=max(rows, cols)`.
    #[error("k must be between 1 and max(rows, cols) = {max}, got {k}")]
    K {
        /// The value given.
        k: u64,
        /// The longest line the board can hold.
        max: u8,
    },
    /// A rule other than freestyle on a board that is not a gomoku board (`k = 5`, no gravity).
    #[error("the {rule} rule is for k = 5 without gravity; only freestyle applies here")]
    Rule {
        /// The rule asked for.
        rule: Rule,
    },
    /// A gravity board too large for the gravity solver.
    #[error(
        "a gravity board needs (rows + 1) × cols of at most 128 (10 × 10 fits), got ({rows} + 1) × {cols} = {}",
        (usize::from(*rows) + 1) * usize::from(*cols)
    )]
    Gravity {
        /// The rows asked for.
        rows: u8,
        /// The columns asked for.
        cols: u8,
    },
}

impl Geometry {
    /// Classic tic-tac-toe: 3 × 3, three in a row.
    pub const TIC_TAC_TOE: Self = Self {
        rows: 3,
        cols: 3,
        k: 3,
        gravity: false,
        rule: Rule::Freestyle,
    };

    /// Connect Four: 6 rows, 7 columns, four in a row, with gravity.
    pub const CONNECT_FOUR: Self = Self {
        rows: 6,
        cols: 7,
        k: 4,
        gravity: true,
        rule: Rule::Freestyle,
    };

    /// The most bits a gravity board may take, `(rows + 1) × cols`: the gravity solver keeps
    /// each column with a sentinel bit in a 128-bit integer.
    pub const MAX_GRAVITY_BITS: usize = 128;

    /// Boards of at least this many cells are big: too big for the exhaustive solver to prove,
    /// they get the big-board search (for `k` from 4 to 6) or the small-board solver's threat
    /// search (larger `k`), and answers name their cells.
    pub const BIG_BOARD_CELLS: usize = 100;

    /// The largest supported number of rows or columns: 20, Gomocup's main board, for `k = 5`.
    pub const MAX_SIDE: u8 = 20;

    /// The largest supported number of rows or columns when `k` is not 5.
    pub const MAX_SIDE_OTHER_K: u8 = 15;

    /// Checks and builds a geometry.
    ///
    /// # Errors
    /// [`GeometryError`] when a side is outside `1..=15` (`1..=20` for `k = 5`) or `k` outside
    /// `1..=max(rows, cols)`.
    pub fn new(rows: u64, cols: u64, k: u64) -> Result<Self, GeometryError> {
        let max = if k == 5 {
            Self::MAX_SIDE
        } else {
            Self::MAX_SIDE_OTHER_K
        };
        if !(1..=u64::from(max)).contains(&rows) {
            return Err(GeometryError::Rows { rows, max });
        }
        if !(1..=u64::from(max)).contains(&cols) {
            return Err(GeometryError::Cols { cols, max });
        }
        let longest = rows.max(cols);
        if !(1..=longest).contains(&k) {
            return Err(GeometryError::K {
                k,
                max: longest as u8,
            });
        }
        Ok(Self {
            rows: rows as u8,
            cols: cols as u8,
            k: k as u8,
            gravity: false,
            rule: Rule::Freestyle,
        })
    }

    /// Number of rows.
    #[must_use]
    pub const fn rows(self) -> usize {
        self.rows as usize
    }

    /// Number of columns.
    #[must_use]
    pub const fn cols(self) -> usize {
        self.cols as usize
    }

    /// Marks in a row needed to win.
    #[must_use]
    pub const fn k(self) -> usize {
        self.k as usize
    }

    /// Number of cells, `rows * cols`.
    #[must_use]
    pub const fn cells(self) -> usize {
        self.rows() * self.cols()
    }

    /// `W = cells + 1`: a win in `p` plies scores `W - p` under depth scoring (10 on 3 × 3).
    #[must_use]
    pub const fn max_score(self) -> i32 {
        self.cells() as i32 + 1
    }

    /// Whether this is plain 3 × 3 tic-tac-toe, answered from the solved table.
    #[must_use]
    pub const fn is_tic_tac_toe(self) -> bool {
        self.rows == 3 && self.cols == 3 && self.k == 3 && !self.gravity
    }

    /// This geometry with gravity on or off: on a gravity board a mark drops to the lowest empty
    /// cell of its column (Connect Four is 6 rows, 7 columns, k = 4).
    ///
    /// ```
    /// use minimax_move::engine::Geometry;
    /// let connect_four = Geometry::new(6, 7, 4).unwrap().with_gravity(true).unwrap();
    /// assert!(connect_four.is_gravity());
    /// assert!(Geometry::new(15, 15, 5).unwrap().with_gravity(true).is_err());
    /// ```
    ///
    /// # Errors
    /// [`GeometryError::Gravity`] when gravity is asked for on a board over `(rows + 1) × cols
    /// = 128`.
    pub fn with_gravity(self, gravity: bool) -> Result<Self, GeometryError> {
        if gravity && self.rule != Rule::Freestyle {
            return Err(GeometryError::Rule { rule: self.rule });
        }
        if gravity && (self.rows() + 1) * self.cols() > Self::MAX_GRAVITY_BITS {
            return Err(GeometryError::Gravity {
                rows: self.rows,
                cols: self.cols,
            });
        }
        Ok(Self { gravity, ..self })
    }

    /// This geometry under `rule` (see [`Rule`]): anything but freestyle needs `k = 5` and no
    /// gravity.
    ///
    /// ```
    /// use minimax_move::engine::{Geometry, Rule};
    /// let renju = Geometry::new(15, 15, 5).unwrap().with_rule(Rule::Renju).unwrap();
    /// assert_eq!(renju.rule(), Rule::Renju);
    /// assert!(Geometry::new(6, 7, 4).unwrap().with_rule(Rule::Standard).is_err());
    /// ```
    ///
    /// # Errors
    /// [`GeometryError::Rule`] for a rule other than freestyle when `k` is not 5 or gravity is on.
    pub fn with_rule(self, rule: Rule) -> Result<Self, GeometryError> {
        if rule != Rule::Freestyle && (self.k != 5 || self.gravity) {
            return Err(GeometryError::Rule { rule });
        }
        Ok(Self { rule, ..self })
    }

    /// The rule the game is played under.
    #[must_use]
    pub const fn rule(self) -> Rule {
        self.rule
    }

    /// Whether marks drop to the lowest empty cell of their column.
    #[must_use]
    pub const fn is_gravity(self) -> bool {
        self.gravity
    }

    /// Whether the board is big: at least [`BIG_BOARD_CELLS`](Self::BIG_BOARD_CELLS) cells.
    #[must_use]
    pub const fn is_big(self) -> bool {
        self.cells() >= Self::BIG_BOARD_CELLS
    }

    /// Whether answers name cells in board notation beside their index: gomoku boards, that is
    /// five in a row (and so every rule but freestyle) or big boards, without gravity,
    /// where a bare index means little to a player.
    ///
    /// ```
    /// use minimax_move::engine::Geometry;
    /// assert!(Geometry::new(15, 15, 5).unwrap().names_cells());
    /// assert!(Geometry::new(7, 7, 5).unwrap().names_cells());
    /// assert!(Geometry::new(10, 10, 4).unwrap().names_cells());
    /// assert!(!Geometry::new(5, 5, 4).unwrap().names_cells());
    /// ```
    #[must_use]
    pub const fn names_cells(self) -> bool {
        !self.gravity && (self.k == 5 || self.is_big())
    }

    /// How sentences name the cell `index`: its coordinate in board notation (`h8`) on gomoku boards
    /// ([`Geometry::names_cells`]), its column counted from 1 as players count them (`column 4`) on
    /// gravity boards, else its index.
    ///
    /// ```
    /// use minimax_move::engine::Geometry;
    /// assert_eq!(Geometry::new(15, 15, 5).unwrap().cell_name(112), "h8");
    /// assert_eq!(Geometry::TIC_TAC_TOE.cell_name(4), "4");
    /// let connect_four = Geometry::new(6, 7, 4).unwrap().with_gravity(true).unwrap();
    /// assert_eq!(connect_four.cell_name(38), "column 4");
    /// ```
    #[must_use]
    pub fn cell_name(self, index: usize) -> String {
        if self.is_gravity() {
            format!("column {}", self.column_of(index) + 1)
        } else if self.names_cells() {
            self.coordinate(index)
        } else {
            index.to_string()
        }
    }

    /// The cell `index` in gomoku's board notation: its column as a letter from `a` (left), its
    /// row as a number from 1 (the bottom row), as renju and Gomocup boards write it. The centre
    /// of 15 × 15 is `h8`; 20 × 20 runs from `a1` to `t20`.
    ///
    /// ```
    /// use minimax_move::engine::Geometry;
    /// let gomoku = Geometry::new(15, 15, 5).unwrap();
    /// assert_eq!(gomoku.coordinate(112), "h8");
    /// assert_eq!(gomoku.coordinate(0), "a15");
    /// assert_eq!(Geometry::new(20, 20, 5).unwrap().coordinate(399), "t1");
    /// ```
    #[must_use]
    pub fn coordinate(self, index: usize) -> String {
        let (row, col) = (index / self.cols(), index % self.cols());
        let letter = char::from(b'a' + col as u8);
        format!("{letter}{}", self.rows() - row)
    }

    /// The column of `index`, from 0.
    #[must_use]
    pub const fn column_of(self, index: usize) -> usize {
        index % self.cols()
    }

    /// The cells a move can take in `cells`: every empty cell, or on a gravity board the lowest
    /// empty cell of each column that is not full, in increasing order.
    #[must_use]
    pub fn playable_cells(self, cells: &[Option<Player>]) -> Vec<usize> {
        if !self.gravity {
            return (0..cells.len()).filter(|&i| cells[i].is_none()).collect();
        }
        let mut playable: Vec<usize> = (0..self.cols())
            .filter_map(|c| self.landing_cell(cells, c))
            .collect();
        playable.sort_unstable();
        playable
    }

    /// The cell where a mark dropped in `column` lands on a gravity board, `None` when the
    /// column is full or off the board.
    #[must_use]
    pub fn landing_cell(self, cells: &[Option<Player>], column: usize) -> Option<usize> {
        if column >= self.cols() {
            return None;
        }
        (0..self.rows())
            .rev()
            .map(|r| r * self.cols() + column)
            .find(|&i| cells.get(i) == Some(&None))
    }

    /// Every winning line (each run of `k` cells in a row, column or diagonal), as cell indices in
    /// row-major order, in a fixed order.
    ///
    /// ```
    /// use minimax_move::engine::Geometry;
    /// assert_eq!(Geometry::TIC_TAC_TOE.lines().len(), 8);
    /// ```
    #[must_use]
    pub fn lines(self) -> Vec<Vec<usize>> {
        let (rows, cols, k) = (
            self.rows() as isize,
            self.cols() as isize,
            self.k() as isize,
        );
        let mut lines = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let (end_r, end_c) = (r + dr * (k - 1), c + dc * (k - 1));
                    if end_r < 0 || end_r >= rows || end_c < 0 || end_c >= cols {
                        continue;
                    }
                    // With k = 1 every direction gives the same one-cell line: keep one.
                    if k == 1 && (dr, dc) != (0, 1) {
                        continue;
                    }
                    lines.push(
                        (0..k)
                            .map(|i| ((r + dr * i) * cols + (c + dc * i)) as usize)
                            .collect(),
                    );
                }
            }
        }
        lines
    }
}

/// The winning lines of each geometry other than 3 × 3 asked for so far.
type LineCache = HashMap<Geometry, &'static [Vec<usize>]>;

impl Geometry {
    /// [`Geometry::lines`], computed once per geometry and shared for the life of the process:
    /// the one table of winning lines that validation, the solved table, the search and the
    /// explanations all read.
    ///
    /// There are at most 20 × 20 × 20 × 2 geometries with their own lines (the rule does not
    /// change them), so the cache is bounded.
    ///
    /// ```
    /// use minimax_move::engine::Geometry;
    /// let lines = Geometry::TIC_TAC_TOE.line_list();
    /// assert_eq!(lines[0], vec![0, 1, 2]);
    /// assert!(std::ptr::eq(lines, Geometry::TIC_TAC_TOE.line_list()));
    /// ```
    ///
    /// # Panics
    /// If another thread panicked while holding the cache's lock.
    #[must_use]
    pub fn line_list(self) -> &'static [Vec<usize>] {
        static TIC_TAC_TOE_LINES: OnceLock<Vec<Vec<usize>>> = OnceLock::new();
        static OTHERS: OnceLock<Mutex<LineCache>> = OnceLock::new();
        if self.is_tic_tac_toe() {
            return TIC_TAC_TOE_LINES.get_or_init(|| self.lines());
        }
        let mut others = OTHERS
            .get_or_init(Mutex::default)
            .lock()
            .expect("the line cache's lock is not poisoned");
        let shape = Self {
            rule: Rule::Freestyle,
            ..self
        };
        others
            .entry(shape)
            .or_insert_with(|| Vec::leak(shape.lines()))
    }
}

impl Default for Geometry {
    fn default() -> Self {
        Self::TIC_TAC_TOE
    }
}
