//! Which moves a node of the big-board search tries, and in what order.
//!
//! - Against a four (a cell where the opponent completes a line) only the block.
//! - Against an open three (a cell where the opponent makes an open four) only the replies that
//!   stop it or counter with a four: the cells where the opponent makes a four or better, and the
//!   mover's own fours. Any other move lets the opponent make an open four and win.
//! - Against a win by continuous fours the opponent would have if the mover passed, the cells of
//!   that line and the mover's own fours (the usual defences; the search then checks each).
//! - Otherwise the empty cells within two of a stone, best first by their value to the mover
//!   (attack) and to the opponent (defence), of which only the best few are kept (the limit is the
//!   caller's).

use super::board::{Board, Threat};
use super::eval::Weights;

/// Bonus in ordering for the table's move, for killer moves and for the counter move.
const TABLE_MOVE_BONUS: i32 = 1 << 28;
const KILLER_BONUS: i32 = 1 << 20;
const COUNTER_BONUS: i32 = KILLER_BONUS / 2;

/// What the side to move faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pressure {
    /// The opponent completes a line at this cell unless it is blocked.
    Four(usize),
    /// The opponent has an open three.
    OpenThree,
    /// Nothing forcing.
    None,
}

/// What `side` faces on `board`; the caller has checked it has no completing cell itself and that
/// the opponent has at most one.
pub fn pressure(board: &Board, side: usize) -> Pressure {
    let other = 1 - side;
    if let Some(block) = board.five_cell(other) {
        Pressure::Four(block)
    } else if board.has_open_three(other) {
        Pressure::OpenThree
    } else {
        Pressure::None
    }
}

/// What a node knows besides the board: its opponent's threat line, its move limit, and hints
/// from earlier searches for ordering.
pub struct Hints<'h> {
    /// The opponent's threat line to answer when it has one (see the module).
    pub defence: Option<&'h [usize]>,
    /// Most quiet moves to keep, if limited.
    pub limit: Option<usize>,
    /// The best move the table remembers, if any.
    pub table_move: Option<usize>,
    /// Moves that caused cut-offs at this ply.
    pub killers: [u16; 2],
    /// The quiet move that last refuted the opponent's last move (the counter move), or
    /// `u16::MAX`.
    pub counter: u16,
    /// Cut-off counts by cell and side.
    pub history: &'h [[u32; 2]],
}

/// Fills `moves` with `(order, cell)` for `side`, best first, limited as the module says.
pub fn generate(
    board: &Board,
    side: usize,
    pressure: Pressure,
    weights: &Weights,
    hints: &Hints<'_>,
    moves: &mut Vec<(i32, usize)>,
) {
    moves.clear();
    let other = 1 - side;
    let score = |at: usize| -> i32 {
        let mut s = weights.attack * board.value(at, side) / 16 + board.value(at, other);
        if hints.table_move == Some(at) {
            s += TABLE_MOVE_BONUS;
        } else if hints.killers.contains(&(at as u16)) {
            s += KILLER_BONUS;
        } else if hints.counter == at as u16 {
            s += COUNTER_BONUS;
        }
        s + (hints.history[at][side] as i32).min(KILLER_BONUS - 1) / 64
    };
    match pressure {
        Pressure::Four(block) => {
            moves.push((0, block));
            return;
        }
        Pressure::OpenThree => {
            for at in board.fours(other).chain(board.fours(side)) {
                if !moves.iter().any(|&(_, m)| m == at) {
                    moves.push((score(at), at));
                }
            }
        }
        Pressure::None => match hints.defence {
            Some(line) => {
                for &at in line {
                    if board.is_empty(at) && !moves.iter().any(|&(_, m)| m == at) {
                        moves.push((score(at), at));
                    }
                }
                for at in board.fours(side) {
                    if !moves.iter().any(|&(_, m)| m == at) {
                        moves.push((score(at), at));
                    }
                }
            }
            None => {
                for at in board.playable().iter().map(|&a| a as usize) {
                    if board.is_candidate(at) {
                        moves.push((score(at), at));
                    }
                }
            }
        },
    }
    let order = |a: &(i32, usize), b: &(i32, usize)| b.0.cmp(&a.0).then(a.1.cmp(&b.1));
    if let (Some(limit), Pressure::None, None) = (hints.limit, pressure, hints.defence)
        && moves.len() > limit
    {
        // The best `limit` first, then only those sorted: the same moves in the same order as
        // sorting them all (the order is total), for less work.
        if limit > 0 {
            moves.select_nth_unstable_by(limit - 1, order);
        }
        moves.truncate(limit);
    }
    moves.sort_unstable_by(order);
}

/// Whether a move is quiet enough to be searched with a reduced depth, or skipped, when it comes
/// late: it makes no four and takes no cell where the opponent would make one. Open threes count
/// as quiet here: with them spared as well, the same reductions and pruning (see `negamax`)
/// completed a ply or two less on six midgames, and the last session's pruning that spared them
/// scored no better than none (BENCHMARKS-search.md, "A selective search").
pub fn is_quiet(board: &Board, at: usize, side: usize) -> bool {
    board.threat(at, side) < Threat::Four && board.threat(at, 1 - side) < Threat::Four
}

#[cfg(test)]
mod tests {
    use super::super::eval::WEIGHTS;
    use super::*;
    use crate::engine::{Geometry, Player};

    #[test]
    fn the_counter_move_comes_after_the_table_move_and_the_killers() {
        // Black h8, white i9: a quiet opening, every candidate a quiet move.
        let mut cells = vec![None; 225];
        cells[7 * 15 + 7] = Some(Player::X);
        cells[8 * 15 + 8] = Some(Player::O);
        let board = Board::new(Geometry::new(15, 15, 5).unwrap(), &cells, &WEIGHTS);
        let history = vec![[0; 2]; 529];
        let order = |table_move: Option<usize>, killer: u16, counter: u16| {
            let hints = Hints {
                defence: None,
                limit: None,
                table_move,
                killers: [killer, u16::MAX],
                counter,
                history: &history,
            };
            let mut list = Vec::new();
            generate(&board, 0, Pressure::None, &WEIGHTS, &hints, &mut list);
            list.into_iter().map(|(_, at)| at).collect::<Vec<_>>()
        };
        let plain = order(None, u16::MAX, u16::MAX);
        // The three moves the ordering likes least, as table move, killer and counter move.
        let n = plain.len();
        let (table, killer, counter) = (plain[n - 1], plain[n - 2], plain[n - 3]);
        let hinted = order(Some(table), killer as u16, counter as u16);
        assert_eq!(hinted[..3], [table, killer, counter]);
        // The rest keep their order.
        let rest: Vec<usize> = plain
            .iter()
            .copied()
            .filter(|at| ![table, killer, counter].contains(at))
            .collect();
        assert_eq!(hinted[3..], rest);
    }
}
