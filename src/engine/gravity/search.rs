//! The search: negamax with alpha-beta on null windows, narrowing the score from both sides
//! (Pascal Pons' Connect Four solver), with a transposition table keyed by the mirror-reduced
//! position, moves that lose at once never tried, and threat-first move ordering.
//!
//! Scores are Pons': from the side to move, a win with the stone numbered `m` in the game scores
//! `1 + (cells - m) / 2`, a loss the negative, a draw 0.

use super::bits::Bits;
use super::board::{BitBoard, Shape};
use super::book::Book;
use super::params::ETC_BEFORE_END;
use super::table::{Bounds, Table};
use crate::engine::core::budget::Budget;
use crate::engine::core::deadline::Deadline;
use crate::engine::limits::SearchLimits;

/// The budget of a search within `limits`: its work budget in nodes (counted the same way on
/// every machine, so a search its budget stops always stops at the same node), its deadline and
/// its cancel handle.
pub fn budget_of(limits: &SearchLimits) -> Budget {
    Budget::new(limits.max_work, Deadline::of(limits))
}

/// A budget that never stops a search.
pub fn unlimited() -> Budget {
    Budget::new(None, Deadline::default())
}

/// Moves in the order to search them (column, score), how many, and the window `(alpha, beta)`.
type Ordered = ([(u8, u8); super::MAX_SIDE], usize, (i32, i32));

/// The exact search that proves a gravity position's score (not the gomoku search's selective
/// `Searcher`): one board size, with its table; successive searches (the columns of one
/// position) share the table.
pub struct Prover<'a, B: Bits> {
    pub shape: &'a Shape<B>,
    table: &'a Table,
    book: Option<&'a Book>,
    budget: Budget,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Set when the budget ran out: every score computed since is meaningless.
    pub stopped: bool,
}

impl<'a, B: Bits> Prover<'a, B> {
    pub fn new(
        shape: &'a Shape<B>,
        table: &'a Table,
        book: Option<&'a Book>,
        budget: Budget,
    ) -> Self {
        Self {
            shape,
            table,
            book,
            budget,
            nodes: 0,
            stopped: false,
        }
    }

    /// The score of a win with the mover's next stone.
    #[inline]
    pub fn win_now(&self, board: &BitBoard<B>) -> i32 {
        (self.shape.cells + 1 - board.moves) / 2
    }

    /// The widest bounds a position's score can have (the mover cannot win at once).
    pub fn score_range(&self, board: &BitBoard<B>) -> (i32, i32) {
        (
            -(self.shape.cells - board.moves) / 2,
            (self.shape.cells + 1 - board.moves) / 2,
        )
    }

    /// Narrows the score of `board` (where the mover cannot win at once) from `bounds` until it
    /// is exact, or, with `sign_only`, until its sign is known; stops early when the budget runs
    /// out. The bounds returned are always true.
    pub fn narrow(&mut self, board: &BitBoard<B>, bounds: Bounds, sign_only: bool) -> Bounds {
        let Bounds {
            mut lower,
            mut upper,
        } = bounds;
        while lower < upper && !self.stopped {
            if sign_only && (lower > 0 || upper < 0 || (lower == 0 && upper == 0)) {
                break;
            }
            let mut mid = if sign_only {
                if lower < 0 && upper > 0 {
                    0
                } else if upper > 0 {
                    lower // lower == 0: test whether it wins
                } else {
                    upper - 1 // upper == 0: test whether it loses
                }
            } else {
                // Pons: halve towards 0 first, where most scores are.
                let mut mid = lower + (upper - lower) / 2;
                if mid <= 0 && lower / 2 < mid {
                    mid = lower / 2;
                } else if mid >= 0 && upper / 2 > mid {
                    mid = upper / 2;
                }
                mid
            };
            mid = mid.clamp(lower, upper - 1);
            let r = self.negamax(board, mid, mid + 1);
            if self.stopped {
                break;
            }
            if r <= mid {
                upper = r;
            } else {
                lower = r;
            }
        }
        Bounds { lower, upper }
    }

    /// One null-window search at `bounds.lower`: the score of `board` comes back exact at it,
    /// or with a higher lower bound; `bounds` unchanged when the budget runs out.
    pub fn probe_lower(&mut self, board: &BitBoard<B>, bounds: Bounds) -> Bounds {
        if bounds.lower >= bounds.upper || self.stopped {
            return bounds;
        }
        let r = self.negamax(board, bounds.lower, bounds.lower + 1);
        if self.stopped {
            bounds
        } else if r <= bounds.lower {
            Bounds::exact(bounds.lower)
        } else {
            Bounds {
                lower: r,
                upper: bounds.upper,
            }
        }
    }

    fn check_budget(&mut self) {
        if self.budget.spend(1) {
            self.stopped = true;
        }
    }

    /// Fail-hard negamax: the score of `board` if it lies in `(alpha, beta)`, else a bound on
    /// the side it falls. The side to move cannot win at once.
    pub fn negamax(&mut self, board: &BitBoard<B>, mut alpha: i32, mut beta: i32) -> i32 {
        debug_assert!(alpha < beta);
        self.nodes += 1;
        self.check_budget();
        if self.stopped {
            return 0;
        }
        let shape = self.shape;
        let cells = shape.cells;
        let theirs = board.opponent_winning_cells(shape);
        let moves = board.non_losing_moves(shape, theirs);
        if moves == B::ZERO {
            return -(cells - board.moves) / 2;
        }
        if board.moves >= cells - 2 {
            return 0;
        }
        (alpha, beta) = match self.narrowed(board, alpha, beta) {
            Ok(window) => window,
            Err(score) => return score,
        };
        if moves & moves.sub(B::ONE) == B::ZERO {
            // One move that does not lose at once: play it, with nothing to order, look up or
            // remember (after Steininger's c4, which plays such moves without a node).
            return -self.negamax(&board.play(moves), -beta, -alpha);
        }
        let key = board.canonical_key(shape);
        if let Some(book) = self.book
            && let Some(score) = book.get(key.to_u128(), board.moves)
        {
            return score;
        }
        (alpha, beta) = match self.stored_window(key, alpha, beta) {
            Ok(window) => window,
            Err(score) => return score,
        };
        if let Some(score) = self.transposition_cutoff(board, moves, key, beta) {
            return score;
        }

        let (sorted, count) = match self.look_ahead(board, moves, theirs, key, alpha, beta) {
            Ok((sorted, count, window)) => {
                (alpha, beta) = window;
                (sorted, count)
            }
            Err(score) => return score,
        };
        let playable = moves;
        let original_alpha = alpha;
        for &(c, _) in sorted[..count].iter() {
            let bit = playable & shape.column(u32::from(c));
            let child = board.play(bit);
            let score = -self.negamax(&child, -beta, -alpha);
            if self.stopped {
                return 0;
            }
            if score >= beta {
                self.table.put(key, score, i32::from(i8::MAX));
                return score;
            }
            if score > alpha {
                alpha = score;
            }
        }
        if alpha > original_alpha {
            self.table.put(key, alpha, alpha);
        } else {
            self.table.put(key, i32::from(i8::MIN) + 1, alpha);
        }
        alpha
    }

    /// The window `(alpha, beta)` narrowed by the bounds the table holds for `key`, or the
    /// score to return when that closes it.
    #[inline]
    fn stored_window(&self, key: B, mut alpha: i32, mut beta: i32) -> Result<(i32, i32), i32> {
        if let Some(bounds) = self.table.get(key) {
            if bounds.lower > alpha {
                alpha = bounds.lower;
                if alpha >= beta {
                    return Err(alpha);
                }
            }
            if bounds.upper < beta {
                beta = bounds.upper;
                if alpha >= beta {
                    return Err(beta);
                }
            }
        }
        Ok((alpha, beta))
    }

    /// The window `(alpha, beta)` narrowed by what is known of `board` without a search (no
    /// loss in two, no win in one, claimeven), or the score to return when that closes it.
    /// `board` is in play, with at least three empty cells and a move that does not lose at
    /// once.
    #[inline]
    fn narrowed(
        &self,
        board: &BitBoard<B>,
        mut alpha: i32,
        mut beta: i32,
    ) -> Result<(i32, i32), i32> {
        let cells = self.shape.cells;
        let least = -(cells - 2 - board.moves) / 2;
        if alpha < least {
            alpha = least;
            if alpha >= beta {
                return Err(alpha);
            }
        }
        let most = (cells - 1 - board.moves) / 2;
        if beta > most {
            beta = most;
            if alpha >= beta {
                return Err(beta);
            }
        }
        if let Some(bound) = self.claimeven_bound(board)
            && beta > bound
        {
            beta = bound;
            if alpha >= beta {
                return Err(beta);
            }
        }
        Ok((alpha, beta))
    }

    /// Claimeven (Allis) with pairing, on boards with an even number of rows when the number
    /// of empty cells is even (the mover is the side that moved first). The opponent can then
    /// answer a stone on an odd row on top of it, and a stone on a playable even-row cell (its
    /// column has an odd number of empty cells, and there is an even number of such columns)
    /// on another such cell. So the opponent gets every empty even-row cell that is not
    /// playable now, and the mover at most the rest. If the mover has no line there it cannot
    /// win (an upper bound of 0); if the opponent then has one, it cannot draw either (-1).
    #[inline]
    fn claimeven_bound(&self, board: &BitBoard<B>) -> Option<i32> {
        let shape = self.shape;
        let odd_rows = shape.odd_rows?;
        if (shape.cells - board.moves) % 2 != 0 {
            return None;
        }
        let playable = shape.playable(board.mask);
        let empty = shape.empty(board.mask);
        if shape.has_line(board.current | (empty & (odd_rows | playable))) {
            return None;
        }
        Some(
            if shape.has_line(board.opponent() | (empty & !odd_rows & !playable)) {
                -1
            } else {
                0
            },
        )
    }

    /// Every move looked at before any is searched (after c4): the moves in the order to search
    /// them and the window narrowed, or the score to return. A move after which every reply
    /// loses at once is the best there is; when there is none, the mover wins two stones later
    /// at best; claimeven in the children bounds the score from below.
    #[inline]
    fn look_ahead(
        &mut self,
        board: &BitBoard<B>,
        moves: B,
        theirs: B,
        key: B,
        mut alpha: i32,
        mut beta: i32,
    ) -> Result<Ordered, i32> {
        let cells = self.shape.cells;
        let Some((sorted, count)) = self.ordered(board, moves, theirs) else {
            let score = (cells - 1 - board.moves) / 2;
            self.table.put(key, score, score);
            return Err(score);
        };
        beta = beta.min((cells - 3 - board.moves) / 2);
        if alpha >= beta {
            return Err(beta);
        }
        if let Some(floor) = self.claimeven_floor(board, moves)
            && floor > alpha
        {
            alpha = floor;
            if alpha >= beta {
                self.table.put(key, alpha, i32::from(i8::MAX));
                return Err(alpha);
            }
        }
        Ok((sorted, count, (alpha, beta)))
    }

    /// The best lower bound on the mover's score that claimeven gives through its moves (the
    /// opponent's bound in each child, negated), when it applies to the children.
    #[inline]
    fn claimeven_floor(&self, board: &BitBoard<B>, moves: B) -> Option<i32> {
        let shape = self.shape;
        shape.odd_rows?;
        if (shape.cells - board.moves) % 2 == 0 {
            return None;
        }
        (0..shape.cols)
            .map(|c| moves & shape.column(c))
            .filter(|&bit| bit != B::ZERO)
            .filter_map(|bit| self.claimeven_bound(&board.play(bit)))
            .map(|bound| -bound)
            .max()
    }

    /// Enhanced transposition cutoff: a child the table already proves good enough ends the
    /// node before anything is searched (worth its lookups away from the end of the game). The
    /// children's entries are read together, so their cache misses overlap.
    #[inline]
    fn transposition_cutoff(
        &mut self,
        board: &BitBoard<B>,
        moves: B,
        key: B,
        beta: i32,
    ) -> Option<i32> {
        let shape = self.shape;
        if board.moves >= shape.cells - ETC_BEFORE_END {
            return None;
        }
        let mut children = [B::ZERO; super::MAX_SIDE];
        let mut count = 0;
        for c in 0..shape.cols {
            let bit = moves & shape.column(c);
            if bit != B::ZERO {
                children[count] = board.play(bit).canonical_key(shape);
                count += 1;
            }
        }
        let best = -self.table.least_upper(&children[..count])?;
        if best < beta {
            return None;
        }
        self.table.put(key, best, i32::from(i8::MAX));
        Some(best)
    }

    /// The columns of `moves` by how many winning cells they make, centre columns first among
    /// equals, and how many there are; `None` when one of them wins by force with the mover's
    /// next stone (each is looked at before any is searched, after c4).
    #[inline]
    fn ordered(
        &self,
        board: &BitBoard<B>,
        moves: B,
        theirs: B,
    ) -> Option<([(u8, u8); super::MAX_SIDE], usize)> {
        let shape = self.shape;
        let mut sorted = [(0u8, 0u8); super::MAX_SIDE];
        let mut count = 0;
        for &c in &shape.order {
            let bit = moves & shape.column(c);
            if bit != B::ZERO {
                let score = u8::try_from(board.move_score(shape, bit, theirs)?).unwrap_or(u8::MAX);
                let mut i = count;
                while i > 0 && sorted[i - 1].1 < score {
                    sorted[i] = sorted[i - 1];
                    i -= 1;
                }
                sorted[i] = (c as u8, score);
                count += 1;
            }
        }
        Some((sorted, count))
    }
}
