//! Building an opening book: every position reachable with at most `depth` stones, solved.
//!
//! The work is in the deepest level, the frontier: every position there is solved by search,
//! and the shallower ones follow by minimax. [`BookBuilder`] splits the two so that the
//! frontier can be solved in pieces (shards, runs stopped and resumed, several machines) and
//! the book assembled from whatever pieces were solved, the same byte for byte however the
//! work was split: every score is exact and the entries are sorted.

use std::collections::HashMap;

use super::board::{BitBoard, Shape};
use super::book::{self, Book, BookError};
use super::search::{Prover, unlimited};
use super::table::{Bounds, Table};
use crate::engine::core::pool::{Renew, Tables};
use crate::engine::game::Geometry;

/// Solves every position of a gravity `geometry` that a game reaches with at most `depth`
/// stones (mirror images once), on `threads` threads, and returns them as a [`Book`].
/// `progress(done, total)` is called as the deepest positions get solved. The result does not
/// depend on the number of threads: every score is exact. [`BookBuilder`] does the same in
/// pieces.
///
/// # Errors
/// As [`BookBuilder::new`].
pub fn build_book(
    geometry: Geometry,
    depth: usize,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Book, BookError> {
    use std::sync::Mutex;
    let builder = BookBuilder::new(geometry, depth)?;
    let frontier = builder.frontier();
    let total = frontier.len();
    let scores = Mutex::new(HashMap::with_capacity(total));
    builder.solve(&frontier, threads, &|key, score| {
        let mut scores = scores.lock().expect("no thread panics holding the scores");
        scores.insert(key, score);
        let done = scores.len();
        if done.is_multiple_of(64) || done == total {
            progress(done, total);
        }
    });
    builder.finish(&scores.into_inner().expect("no thread panicked"))
}

/// A book under construction: every position of a board with at most `depth` stones, the
/// frontier (exactly `depth` stones) to solve by search, the shallower levels to back up.
///
/// ```
/// use std::collections::HashMap;
/// use std::sync::Mutex;
/// use minimax_move::engine::Geometry;
/// use minimax_move::engine::{BookBuilder, build_book};
///
/// let geometry = Geometry::new(4, 4, 4).unwrap().with_gravity(true).unwrap();
/// let builder = BookBuilder::new(geometry, 3).unwrap();
/// // Two shards, solved separately (on other machines, say), then put together.
/// let scores = Mutex::new(HashMap::new());
/// for index in 0..2 {
///     builder.solve(&builder.shard(index, 2), 1, &|key, score| {
///         scores.lock().unwrap().insert(key, score);
///     });
/// }
/// let book = builder.finish(&scores.into_inner().unwrap()).unwrap();
/// assert_eq!(book, build_book(geometry, 3, 1, &|_, _| {}).unwrap());
/// ```
#[derive(Debug)]
pub struct BookBuilder {
    geometry: (u32, u32, u32),
    depth: usize,
    shape: Shape<u64>,
    /// The positions by number of stones, each level in increasing key order (games over left
    /// out, mirror images once), with their keys.
    levels: Vec<Vec<(u64, BitBoard<u64>)>>,
}

impl BookBuilder {
    /// Every position of a gravity `geometry` with at most `depth` stones.
    ///
    /// # Errors
    /// [`BookError::Size`] when the board has no gravity or is larger than 64 bits (books are
    /// for `u64` boards), or `depth` is more than its cells or 255.
    pub fn new(geometry: Geometry, depth: usize) -> Result<Self, BookError> {
        let (rows, cols, k) = (geometry.rows(), geometry.cols(), geometry.k());
        if !geometry.is_gravity()
            || !super::root::fits_u64(geometry)
            || depth > rows * cols
            || depth > 255
        {
            return Err(BookError::Size);
        }
        let shape = Shape::<u64>::new(rows as u32, cols as u32, k as u32);
        let levels = levels(&shape, depth);
        Ok(Self {
            geometry: (rows as u32, cols as u32, k as u32),
            depth,
            shape,
            levels,
        })
    }

    /// The keys of the frontier, the positions with exactly `depth` stones (mirror-reduced,
    /// increasing): what [`BookBuilder::solve`] has to solve.
    #[must_use]
    pub fn frontier(&self) -> Vec<u64> {
        self.deepest().iter().map(|&(key, _)| key).collect()
    }

    /// Shard `index` of `count` of the frontier: every `count`-th key from the `index`-th, so
    /// that shards get positions from every part of the frontier. The shards of one `count`
    /// cover the frontier, each key once.
    ///
    /// # Panics
    /// If `index` is not below `count`.
    #[must_use]
    pub fn shard(&self, index: usize, count: usize) -> Vec<u64> {
        assert!(index < count, "shard {index} of {count}");
        self.deepest()
            .iter()
            .skip(index)
            .step_by(count)
            .map(|&(key, _)| key)
            .collect()
    }

    /// Solves the frontier positions `keys` on `threads` threads sharing one table (what one
    /// thread learnt of a subtree serves the others, as in an analysis), calling
    /// `solved(key, score)` (Pons' score, from the side to move) as each is found, in no
    /// particular order. Each thread takes the next unsolved position, so a run of hard ones
    /// does not leave the others idle.
    ///
    /// When the engine's built-in book is for this board and holds the level above the
    /// frontier, the scores it gives a position's parents bound the position's from below
    /// before its search (no move is better than the mover's best): the positions a parent's
    /// best move reaches are then proven by one search on a null window. The scores stay
    /// exact, so the book is the same byte for byte with or without it.
    ///
    /// # Panics
    /// If a key is not on the frontier.
    pub fn solve(&self, keys: &[u64], threads: usize, solved: &(dyn Fn(u64, i8) + Sync)) {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let deepest = self.deepest();
        let boards: Vec<BitBoard<u64>> = keys
            .iter()
            .map(|key| {
                let i = deepest
                    .binary_search_by_key(key, |&(k, _)| k)
                    .unwrap_or_else(|_| panic!("{key:#x} is not on the frontier"));
                deepest[i].1
            })
            .collect();
        let next = AtomicUsize::new(0);
        let shape = &self.shape;
        let parents = book::connect_four();
        let parents = (parents.geometry == self.geometry
            && usize::try_from(parents.depth).is_ok_and(|d| d + 1 >= self.depth))
        .then_some(parents);
        // A builder is a process of its own, not a server's search slot: its one table is its own.
        let tables = Tables::with_budget(<Table as Renew>::BYTES);
        let table = Table::borrow(&tables);
        std::thread::scope(|scope| {
            for _ in 0..threads.max(1) {
                let (next, boards, table) = (&next, &boards, &*table);
                scope.spawn(move || {
                    let mut prover = Prover::new(shape, table, None, unlimited());
                    while let Some(board) = boards.get(next.fetch_add(1, Ordering::Relaxed)) {
                        let score = if board.can_win_next(shape) {
                            prover.win_now(board)
                        } else {
                            let (lower, upper) = prover.score_range(board);
                            let lower = parents
                                .and_then(|book| parent_bound(shape, board, book))
                                .map_or(lower, |bound| bound.max(lower));
                            prover.narrow(board, Bounds { lower, upper }, false).lower
                        };
                        solved(
                            board.canonical_key(shape),
                            i8::try_from(score).expect("scores fit in a byte"),
                        );
                    }
                });
            }
        });
    }

    /// The book, from the score of every frontier position (`scores`, by key, from any number
    /// of shards and runs): the shallower levels by minimax over their children.
    ///
    /// # Errors
    /// [`BookError::Missing`] when a frontier position has no score, [`BookError::Stray`] when
    /// a key is not on the frontier (a score from another board or depth).
    pub fn finish(&self, scores: &HashMap<u64, i8>) -> Result<Book, BookError> {
        let deepest = self.deepest();
        if let Some(&(key, _)) = deepest.iter().find(|(key, _)| !scores.contains_key(key)) {
            return Err(BookError::Missing { key });
        }
        if scores.len() != deepest.len() {
            let stray = scores
                .keys()
                .filter(|key| deepest.binary_search_by_key(*key, |&(k, _)| k).is_err())
                .min()
                .expect("more scores than frontier positions, all of these scored");
            return Err(BookError::Stray { key: *stray });
        }
        let mut all: HashMap<u64, i32> = scores.iter().map(|(&k, &s)| (k, i32::from(s))).collect();
        back_up(&self.shape, &self.levels[..self.depth], &mut all);
        let entries = all
            .into_iter()
            .map(|(key, score)| (key, i8::try_from(score).expect("scores fit in a byte")))
            .collect();
        Ok(Book::from_entries(
            self.geometry,
            self.depth as i32,
            entries,
        ))
    }

    fn deepest(&self) -> &[(u64, BitBoard<u64>)] {
        self.levels.last().expect("a level")
    }
}

/// The best lower bound on `board`'s score that `book` gives through its parents (the positions
/// one stone fewer that reach it): a parent's score is its mover's best move, so no move of the
/// parent, this one included, scores more for that side: this position scores at least minus
/// the parent's. `None` when the book holds no parent.
fn parent_bound(shape: &Shape<u64>, board: &BitBoard<u64>, book: &Book) -> Option<i32> {
    let theirs = board.opponent();
    (0..shape.cols)
        .filter_map(|c| {
            let stones = board.mask & shape.column(c);
            let top = stones.checked_ilog2().map(|bit| 1u64 << bit)?;
            (top & theirs != 0).then(|| BitBoard {
                current: theirs ^ top,
                mask: board.mask ^ top,
                moves: board.moves - 1,
            })
        })
        .filter_map(|parent| book.get(u128::from(parent.canonical_key(shape)), parent.moves))
        .map(|score| -score)
        .max()
}

/// Every position of `shape` by number of stones up to `depth`, mirror images merged, games
/// over left out, each level sorted by key.
fn levels(shape: &Shape<u64>, depth: usize) -> Vec<Vec<(u64, BitBoard<u64>)>> {
    let empty = BitBoard::empty();
    let mut levels = vec![vec![(empty.canonical_key(shape), empty)]];
    for _ in 0..depth {
        let mut next: HashMap<u64, BitBoard<u64>> = HashMap::new();
        for (_, board) in levels.last().expect("a level") {
            let playable = shape.playable(board.mask);
            let wins = board.winning_cells(shape);
            for c in 0..shape.cols {
                let bit = playable & shape.column(c);
                if bit == 0 || bit & wins != 0 {
                    continue;
                }
                let child = board.play(bit);
                if child.moves < shape.cells {
                    next.entry(child.canonical_key(shape)).or_insert(child);
                }
            }
        }
        let mut level: Vec<(u64, BitBoard<u64>)> = next.into_iter().collect();
        level.sort_unstable_by_key(|&(key, _)| key);
        levels.push(level);
    }
    levels
}

/// The scores of the shallower `levels` (deepest last) by minimax over their children.
fn back_up(
    shape: &Shape<u64>,
    levels: &[Vec<(u64, BitBoard<u64>)>],
    scores: &mut HashMap<u64, i32>,
) {
    for level in levels.iter().rev() {
        for (key, board) in level {
            let score = if board.can_win_next(shape) {
                (shape.cells + 1 - board.moves) / 2
            } else {
                let playable = shape.playable(board.mask);
                (0..shape.cols)
                    .filter_map(|c| {
                        let bit = playable & shape.column(c);
                        (bit != 0).then(|| {
                            let child = board.play(bit);
                            if child.moves == shape.cells {
                                0
                            } else {
                                -scores[&child.canonical_key(shape)]
                            }
                        })
                    })
                    .max()
                    .expect("a position in play has a move")
            };
            scores.insert(*key, score);
        }
    }
}
