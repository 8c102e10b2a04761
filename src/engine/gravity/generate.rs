//! Building an opening book: every position reachable with at most `depth` stones, solved.

use std::collections::HashMap;

use super::board::{Board, Shape};
use super::book::Book;
use super::book::BookError;
use super::search::{Searcher, unlimited};
use super::table::{Bounds, Table};
use crate::engine::game::Geometry;

/// Solves every position of a gravity `geometry` that a game reaches with at most `depth` stones (mirror images once), on `threads` threads, and returns them as
/// a [`Book`]. The positions with exactly `depth` stones are searched; the shallower ones
/// follow from them by minimax. `progress(done, total)` is called as the deepest positions get
/// solved. The result does not depend on the number of threads: every score is exact.
///
/// # Errors
/// [`BookError::Size`] when the board has no gravity or is larger than 64 bits (books are for
/// `u64` boards), or `depth` is more than its cells or 255.
pub fn build_book(
    geometry: Geometry,
    depth: usize,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Book, BookError> {
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
    let mut scores = solve_all(&shape, levels.last().expect("a level"), threads, progress);
    back_up(&shape, &levels[..depth], &mut scores);
    let entries = scores
        .into_iter()
        .map(|(key, score)| (key, i8::try_from(score).expect("scores fit in a byte")))
        .collect();
    Ok(Book::from_entries(
        (rows as u32, cols as u32, k as u32),
        depth as i32,
        entries,
    ))
}

/// Every position of `shape` by number of stones up to `depth`, mirror images merged, games
/// over left out, each level sorted by key.
fn levels(shape: &Shape<u64>, depth: usize) -> Vec<Vec<Board<u64>>> {
    // Every position by number of stones, mirror images merged, games over left out.
    let mut levels: Vec<Vec<Board<u64>>> = vec![vec![Board::empty()]];
    for _ in 0..depth {
        let mut next: HashMap<u64, Board<u64>> = HashMap::new();
        for board in levels.last().expect("a level") {
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
        let mut level: Vec<(u64, Board<u64>)> = next.into_iter().collect();
        level.sort_unstable_by_key(|&(key, _)| key);
        levels.push(level.into_iter().map(|(_, board)| board).collect());
    }
    levels
}

/// The exact score of every position of `deepest`, by key, solved on `threads` threads.
fn solve_all(
    shape: &Shape<u64>,
    deepest: &[Board<u64>],
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> HashMap<u64, i32> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let total = deepest.len();
    // Each thread takes the next unsolved position, so a run of hard ones does not leave the
    // other threads idle; the scores do not depend on who solved what.
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let mut scores: HashMap<u64, i32> = HashMap::new();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|_| {
                let (next, done) = (&next, &done);
                scope.spawn(move || {
                    let mut table = Table::borrow();
                    let mut searcher = Searcher::new(shape, &mut table, None, unlimited());
                    let mut solved = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(board) = deepest.get(i) else {
                            return solved;
                        };
                        let score = if board.can_win_next(shape) {
                            searcher.win_now(board)
                        } else {
                            let (lower, upper) = searcher.score_range(board);
                            searcher.narrow(board, Bounds { lower, upper }, false).lower
                        };
                        solved.push((board.canonical_key(shape), score));
                        let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                        if finished.is_multiple_of(64) || finished == total {
                            progress(finished, total);
                        }
                    }
                })
            })
            .collect();
        for handle in handles {
            scores.extend(handle.join().expect("a book thread does not panic"));
        }
    });
    scores
}

/// The scores of the shallower `levels` (deepest last) by minimax over their children.
fn back_up(shape: &Shape<u64>, levels: &[Vec<Board<u64>>], scores: &mut HashMap<u64, i32>) {
    // Shallower positions by minimax over their children.
    for level in levels.iter().rev() {
        for board in level {
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
            scores.insert(board.canonical_key(shape), score);
        }
    }
}
