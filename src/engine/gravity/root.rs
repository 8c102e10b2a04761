//! The root of a search: a [`Position`] turned into bitboards, the book and the immediate rules
//! asked first, then every move's score narrowed, outcomes before lengths.

use super::Solution;
use super::bits::Bits;
use super::board::{BitBoard, Shape};
use super::book::{self, Book};
use super::params::ANALYSIS_THREADS;
use super::score::evaluation;
use super::search::{Prover, budget_of};
use super::table::{Bounds, Table};
use crate::engine::analysis::{Analysis, MoveScore, Scoring};
use crate::engine::core::job::Job;
use crate::engine::core::pool::Tables;
use crate::engine::game::{Geometry, Position};
use crate::engine::limits::SearchLimits;

/// Whether the board's bits (each column with a sentinel bit) fit a `u64`.
pub const fn fits_u64(geometry: Geometry) -> bool {
    (geometry.rows() + 1) * geometry.cols() <= 64
}

/// The built-in book, when `geometry` is the board it is for.
fn book_for(geometry: Geometry) -> Option<&'static Book> {
    let book = book::connect_four();
    let (rows, cols, k) = book.geometry;
    ((geometry.rows(), geometry.cols(), geometry.k()) == (rows as usize, cols as usize, k as usize))
        .then_some(book)
}

fn shape_of<B: Bits>(geometry: Geometry) -> Shape<B> {
    Shape::new(
        geometry.rows() as u32,
        geometry.cols() as u32,
        geometry.k() as u32,
    )
}

/// The bitboards of `position`, from its side to move.
fn board_of<B: Bits>(position: &Position, shape: &Shape<B>) -> BitBoard<B> {
    let geometry = position.geometry();
    let (rows, cols) = (geometry.rows(), geometry.cols());
    let mut board = BitBoard::empty();
    for c in 0..cols {
        for height in 0..rows {
            match position.cells()[(rows - 1 - height) * cols + c] {
                Some(p) => {
                    let bit = shape.bit(c as u32, height as u32);
                    board.mask |= bit;
                    if p == position.to_move() {
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

/// The position's own value (see [`solve`](super::solve)).
pub fn position_value<B: Bits>(
    tables: &Tables,
    position: &Position,
    limits: &SearchLimits,
) -> Solution {
    let geometry = position.geometry();
    let shape = shape_of::<B>(geometry);
    let board = board_of(position, &shape);
    let table = Table::borrow(tables);
    let book = book_for(geometry);
    let mut prover = Prover::new(&shape, &table, book, budget_of(limits));
    let in_book =
        book.and_then(|book| book.get(board.canonical_key(&shape).to_u128(), board.moves));
    let bounds = if board.can_win_next(&shape) {
        Bounds::exact(prover.win_now(&board))
    } else if let Some(score) = in_book {
        Bounds::exact(score)
    } else {
        let (lower, upper) = prover.score_range(&board);
        prover.narrow(&board, Bounds { lower, upper }, false)
    };
    let value = MoveScore::new(
        0,
        evaluation(bounds, board.moves, shape.cells),
        Scoring::Depth,
        geometry,
        position.empty_count(),
    )
    .value;
    Solution {
        value,
        nodes: prover.nodes,
    }
}

/// Per column: the child position still to search (None when settled) and the bounds on the
/// move's score from the mover's side; None for a full column.
type Columns<B> = Vec<Option<(Option<BitBoard<B>>, Bounds)>>;

/// Every legal move scored (see [`analyze`](super::analyze)).
pub fn scored_moves<B: Bits>(job: Job<'_>) -> Analysis {
    let (tables, position, scoring, limits) = job.parts();
    let geometry = position.geometry();
    let shape = shape_of::<B>(geometry);
    let board = board_of(position, &shape);
    let table = Table::borrow(tables);
    let book = book_for(geometry);
    let threads = if limits.max_work.is_some() {
        1
    } else {
        ANALYSIS_THREADS
    };
    let mut provers: Vec<Prover<'_, B>> = (0..threads)
        .map(|_| Prover::new(&shape, &table, book, budget_of(limits)))
        .collect();
    let cols = geometry.cols();
    let playable = shape.playable(board.mask);
    let wins = board.winning_cells(&shape) & playable;
    let symmetric = board.key() == shape.mirror(board.key());
    let mut columns: Columns<B> = vec![None; cols];
    for (c, entry) in columns.iter_mut().enumerate() {
        let bit = playable & shape.column(c as u32);
        if bit != B::ZERO {
            *entry = Some(first_bounds(&mut provers[0], &board, bit, wins, book));
        }
    }
    // A position in the book caps every move's score at its own (no move is better than the
    // best): the sign of many moves is then known before any search, and the best ones' upper
    // bounds are already exact.
    let known = book.and_then(|book| book.get(board.canonical_key(&shape).to_u128(), board.moves));
    if let Some(best) = known {
        for (_, bounds) in columns.iter_mut().flatten() {
            bounds.upper = bounds.upper.min(best);
        }
        find_best(&mut provers[0], &shape, &mut columns, best);
    }
    // Outcomes first, then lengths; on a symmetric board the mirror twin of a column is skipped
    // and copied. In each pass the columns that may be best go first (centre first among
    // equals), so that a search cut short by its deadline has most likely proven the move it
    // answers with.
    for sign_only in [true, false] {
        let mut pending: Vec<usize> = shape
            .order
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| !(symmetric && c > cols - 1 - c))
            .filter(|&c| matches!(columns[c], Some((Some(_), _))))
            .collect();
        pending.sort_by_key(|&c| columns[c].map(|(_, bounds)| std::cmp::Reverse(bounds.upper)));
        narrow_columns(&mut provers, &mut columns, &pending, sign_only);
    }
    if symmetric {
        for c in 0..cols {
            if c > cols - 1 - c {
                columns[c] = columns[cols - 1 - c];
            }
        }
    }
    let nodes = provers.iter().map(|s| s.nodes).sum();
    analysis_of(
        position,
        scoring,
        &shape,
        board.moves,
        &columns,
        nodes,
        known,
    )
}

/// The analysis the settled `columns` of `position` (with `moves` stones) make; `known`, the
/// position's score when the book holds it.
fn analysis_of<B: Bits>(
    position: &Position,
    scoring: Scoring,
    shape: &Shape<B>,
    moves: i32,
    columns: &Columns<B>,
    nodes: u64,
    known: Option<i32>,
) -> Analysis {
    let geometry = position.geometry();
    let empty = position.empty_count();
    let landing = |c| {
        geometry
            .landing_cell(position.cells(), c)
            .expect("a playable column has a landing cell")
    };
    let mut scored: Vec<MoveScore> = columns
        .iter()
        .enumerate()
        .filter_map(|(c, entry)| {
            entry.map(|(_, bounds)| {
                let value = evaluation(bounds, moves, shape.cells);
                MoveScore::new(landing(c), value, scoring, geometry, empty)
            })
        })
        .collect();
    scored.sort_unstable_by_key(|m| m.index);
    let mut analysis = Analysis::from_moves(scored, nodes, None);
    // Cut short in a lost position, a move whose loss is proven but not its length can outrank
    // the longest loss proven: the move found best stays the answer.
    if let Some(best) = known
        && !analysis.best_move().value.is_exact()
        && let Some(c) = columns
            .iter()
            .position(|entry| matches!(entry, Some((_, bounds)) if *bounds == Bounds::exact(best)))
    {
        analysis.best = landing(c);
    }
    analysis
}

/// The best move of a position whose score `best` is known (from the book): its columns that
/// may reach it, in the search order, each settled by one null-window search until one does.
/// That one is then exact whatever happens to the rest: a search cut short by its deadline
/// still answers with a proven move.
fn find_best<B: Bits>(
    prover: &mut Prover<'_, B>,
    shape: &Shape<B>,
    columns: &mut Columns<B>,
    best: i32,
) {
    if columns
        .iter()
        .flatten()
        .any(|(child, bounds)| child.is_none() && *bounds == Bounds::exact(best))
    {
        return;
    }
    for &c in &shape.order {
        let Some((Some(child), bounds)) = columns[c as usize] else {
            continue;
        };
        if bounds.upper != best {
            continue;
        }
        let ours = prover.probe_lower(&child, bounds.negated()).negated();
        let settled = ours.lower == ours.upper;
        columns[c as usize] = Some((if settled { None } else { Some(child) }, ours));
        if settled || prover.stopped {
            return;
        }
    }
}

/// Narrows the moves of the `pending` columns (in that order), each by the first prover that
/// is free: one column at a time with one prover, on scoped threads with more.
fn narrow_columns<B: Bits>(
    provers: &mut [Prover<'_, B>],
    columns: &mut Columns<B>,
    pending: &[usize],
    sign_only: bool,
) {
    let narrow = |prover: &mut Prover<'_, B>, (child, bounds): (Option<BitBoard<B>>, Bounds)| {
        let child = child.expect("a pending column has a child to search");
        let ours = prover.narrow(&child, bounds.negated(), sign_only).negated();
        let settled = ours.lower == ours.upper;
        (if settled { None } else { Some(child) }, ours)
    };
    if provers.len() == 1 || pending.len() < 2 {
        for &c in pending {
            let entry = columns[c].expect("a pending column is playable");
            columns[c] = Some(narrow(&mut provers[0], entry));
        }
        return;
    }
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let shared = Mutex::new(std::mem::take(columns));
    std::thread::scope(|scope| {
        for prover in provers.iter_mut() {
            let (next, shared, narrow) = (&next, &shared, &narrow);
            scope.spawn(move || {
                while let Some(&c) = pending.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let entry = shared.lock().expect("no narrowing panics holding it")[c]
                        .expect("a pending column is playable");
                    let result = narrow(prover, entry);
                    shared.lock().expect("no narrowing panics holding it")[c] = Some(result);
                }
            });
        }
    });
    *columns = shared.into_inner().expect("no narrowing panicked");
}

/// What is known of the move `bit` before any search: its exact score when it wins at once,
/// fills the board, lets the opponent win at once or reaches a book position (then no child
/// is left to search), else the child to search and the widest bounds on its score.
fn first_bounds<B: Bits>(
    prover: &mut Prover<'_, B>,
    board: &BitBoard<B>,
    bit: B,
    wins: B,
    book: Option<&Book>,
) -> (Option<BitBoard<B>>, Bounds) {
    let shape = prover.shape;
    let exact = |score| (None, Bounds::exact(score));
    if bit & wins != B::ZERO {
        return exact(prover.win_now(board));
    }
    let child = board.play(bit);
    if child.moves == shape.cells {
        exact(0)
    } else if child.can_win_next(shape) {
        exact(-prover.win_now(&child))
    } else if let Some(score) =
        book.and_then(|book| book.get(child.canonical_key(shape).to_u128(), child.moves))
    {
        exact(-score)
    } else {
        let (lower, upper) = prover.score_range(&child);
        (Some(child), Bounds { lower, upper }.negated())
    }
}
