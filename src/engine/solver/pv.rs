//! The principal variation: the expected line of best play, read from what the search left
//! behind without searching again.

use super::grid::Grid;
use super::negamax::Negamax;
use super::patterns::Patterns;
use super::root::RootResult;
use crate::engine::core::score::{MATE_BOUND, plies_of};
use crate::engine::core::table::Table;
use crate::engine::game::Player;
use crate::engine::game::Rule;

/// The expected line of best play from the root, starting with `first` (the best move, whose
/// result is `result`), read from what the search left behind: the table's moves (mapped back
/// from the canonical orientation) and the search's own shortcuts (an immediate win, a forced
/// block, a double threat), the same choices in the same order as [`Negamax::search`]. No move
/// is searched. The line stops when the game ends, when nothing is known about the position,
/// or after the plies the result covers (the win or loss distance, the board for a draw, the
/// completed depth for an estimate). A proven result's line must end as the result says (the
/// right side winning at the right ply, or no line for a draw); when it does not, some table
/// move along it is not best play and only `first` is kept.
pub fn principal_variation(
    search: &mut Negamax<'_>,
    first: usize,
    result: RootResult,
    completed: i32,
) -> Vec<usize> {
    let root_side = search.root_side();
    let board = &mut search.board;
    let table: &Table = search.table;
    let patterns = &mut search.patterns;
    let exact = result.is_proven_exact();
    let decisive = exact && result.value.abs() > MATE_BOUND;
    let empties = board.empties() as i32;
    let cap = if decisive {
        plies_of(result.value)
    } else if exact {
        empties
    } else {
        completed.max(1)
    }
    .clamp(1, empties.max(1)) as usize;
    let mut line: Vec<usize> = Vec::new();
    let mut side = root_side;
    let mut next = Some(first);
    // Who completed a line, if the game ended that way.
    let mut winner = None;
    while let Some(cell) = next.take() {
        if cell >= board.cell_count() || !board.is_empty(cell) {
            break;
        }
        let wins = board.wins_at(cell, side);
        board.play(cell, side);
        line.push(cell);
        if wins {
            winner = Some(side);
            break;
        }
        side = side.opponent();
        if line.len() >= cap || board.empties() == 0 || board.all_dead() {
            break;
        }
        next = known_move(board, table, patterns, side);
    }
    // Restore the root position.
    let mut mover = root_side.after(line.len() as i32 + 1);
    for &cell in line.iter().rev() {
        board.undo(cell, mover);
        mover = mover.opponent();
    }
    if exact {
        let expected = if decisive {
            let winner = if result.value > 0 {
                root_side
            } else {
                root_side.opponent()
            };
            Some((winner, plies_of(result.value) as usize))
        } else {
            None
        };
        let consistent = match (expected, winner) {
            (Some((w, p)), Some(found)) => w == found && line.len() == p,
            // Stopped early for want of knowledge: fine; reaching the cap is not.
            (Some((_, p)), None) => line.len() < p,
            (None, found) => found.is_none(),
        };
        if !consistent {
            line.truncate(1);
        }
    }
    line
}

/// The move the search would play for `side` on `board`, as far as it is known without
/// searching: an immediate win, the block of a single threat, a double threat, or the table's
/// move.
fn known_move(board: &Grid, table: &Table, patterns: &mut Patterns, side: Player) -> Option<usize> {
    let other = side.opponent();
    if let (Some(win), _) = board.threat_cells(side) {
        return Some(win);
    }
    if let (Some(block), _) = board.threat_cells(other) {
        // With two threats against it every move loses at once: blocking one is as good as any
        // (when black may not block under renju, the search knows no move either).
        return board.may_play(block, side).then_some(block);
    }
    if board.rule() == Rule::Freestyle
        && board.twos(side) >= 2
        && let Some(cell) = patterns.double_threat_cell(board, side)
    {
        return Some(cell);
    }
    let (key, symmetry) = board.canonical_key();
    let cell = table
        .probe(key)?
        .best
        .map(usize::from)
        .filter(|&m| m < board.cell_count())
        .map(|m| board.actual_cell(symmetry, m))?;
    (cell < board.cell_count() && board.is_empty(cell)).then_some(cell)
}
