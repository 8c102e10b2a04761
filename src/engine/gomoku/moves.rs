//! Which moves a node of the big-board search tries, and in what order.
//!
//! - Against a four (a cell where the opponent completes a line) only the block.
//! - Against an open three (a cell where the opponent makes an open four) only the replies that
//!   stop it or counter with a four: the cells where the opponent makes a four or better, and the
//!   mover's own fours. Any other move lets the opponent make an open four and win.
//! - Against a win by continuous fours the opponent would have if the mover passed, the cells of
//!   that line, the mover's own fours, and its counters: the cells where it makes a three in
//!   line with one of its forced replies, which that reply then turns into a four of its own
//!   (the search then checks each). Without the counters the search missed defences such as
//!   making an open three whose four cell is the block the opponent's sequence forces, and
//!   called positions won that were lost (the research notes (docs/strength.md), "Counters to a VCF").
//! - Otherwise the empty cells within two of a stone, best first by their value to the mover
//!   (attack) and to the opponent (defence), of which only the best few are kept (the limit is the
//!   caller's). A node whose kept moves all lose adds the mover's threes past the limit
//!   ([`add_threes`]).

use super::board::Goban;
use super::eval::Weights;
use super::params::{KILLER_BONUS, TABLE_MOVE_BONUS};
use super::threat::Threat;
use super::threats::forced_replies;
use crate::engine::game::Player;

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
pub fn pressure(board: &Goban, side: Player) -> Pressure {
    let other = side.opponent();
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
    /// Cut-off counts by cell and side.
    pub history: &'h [[u32; 2]],
}

/// Fills `moves` with `(order, cell)` for `side`, best first, limited as the module says.
pub fn generate(
    board: &Goban,
    side: Player,
    pressure: Pressure,
    weights: &Weights,
    hints: &Hints<'_>,
    moves: &mut Vec<(i32, usize)>,
) {
    moves.clear();
    let other = side.opponent();
    let score = |at: usize| -> i32 {
        let mut s = weights.attack * board.value(at, side) / 16 + board.value(at, other);
        if hints.table_move == Some(at) {
            s += TABLE_MOVE_BONUS;
        } else if hints.killers.contains(&(at as u16)) {
            s += KILLER_BONUS;
        }
        s + (hints.history[at][side.index()] as i32).min(KILLER_BONUS - 1) / 64
    };
    match pressure {
        Pressure::Four(block) => {
            // Under renju black may be unable to block: then it has no move that holds.
            if !board.is_forbidden(block, side) {
                moves.push((0, block));
            }
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
            Some(line) => defence_moves(board, side, line, &score, moves),
            None => {
                for at in board.playable().iter().map(|&a| a as usize) {
                    if board.is_candidate(at) {
                        moves.push((score(at), at));
                    }
                }
            }
        },
    }
    moves.retain(|&(_, at)| !board.is_forbidden(at, side));
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

/// The moves against the opponent's winning `line` (see [`Hints::defence`]): its empty cells,
/// the mover's fours, and counters: a three of the mover's that lines up with one of its forced
/// replies in the line, which that reply would then turn into a four (or better) and break the
/// sequence.
#[inline]
fn defence_moves(
    board: &Goban,
    side: Player,
    line: &[usize],
    score: &impl Fn(usize) -> i32,
    moves: &mut Vec<(i32, usize)>,
) {
    let mut add = |at: usize| {
        if !moves.iter().any(|&(_, m)| m == at) {
            moves.push((score(at), at));
        }
    };
    for &at in line {
        if board.is_empty(at) {
            add(at);
        }
    }
    for at in board.fours(side) {
        add(at);
    }
    for reply in forced_replies(line) {
        for at in board.layout().within_a_line(reply) {
            if board.is_empty(at) && board.threat(at, side) >= Threat::Three {
                add(at);
            }
        }
    }
}

/// Appends to `moves` the candidate cells not in it where `side` makes a three or better (for
/// a node whose capped list lost: see `negamax`).
pub fn add_threes(board: &Goban, side: Player, moves: &mut Vec<(i32, usize)>) {
    for at in board.playable().iter().map(|&a| a as usize) {
        if board.is_candidate(at)
            && board.threat(at, side) >= Threat::Three
            && !moves.iter().any(|&(_, m)| m == at)
            && !board.is_forbidden(at, side)
        {
            moves.push((0, at));
        }
    }
}

/// Whether a move is quiet enough to be searched with a reduced depth, or skipped, when it comes
/// late: it makes no four and takes no cell where the opponent would make one. Open threes count
/// as quiet here: with them spared as well, the same reductions and pruning (see `negamax`)
/// completed a ply or two less on six midgames, and the last session's pruning that spared them
/// scored no better than none (the research notes (docs/strength.md), "A selective search").
pub fn is_quiet(board: &Goban, at: usize, side: Player) -> bool {
    board.threat(at, side) < Threat::Four && board.threat(at, side.opponent()) < Threat::Four
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::engine::game::Player;
    use crate::engine::gomoku::eval::WEIGHTS;
    use crate::engine::gomoku::threats::Vcf;

    /// A game against AIWine (held-out openings 125–129, game 80; we were white) before its
    /// 23rd move, black (`X`) to move. White threatens a VCF: f7 (a four along row 7 and a
    /// split three on the diagonal c10–f7), the block g7, then d9 (an open four). Black's
    /// defence is e9, off that line: it makes an open three f8–d10 whose four cell is g7, so
    /// the block the VCF forces becomes a four of black's. The release searched only the line
    /// and black's fours here, and called white's e7 before it a win.
    const COUNTER_GAME: &str = "ek gj jk eh hk gk gl gh fh fi gi ej dk fj hj dg cf hg if cj dj eg";

    /// The position of [`COUNTER_GAME`].
    pub(crate) fn counter_position() -> Goban {
        super::super::threats::tests::board_after(COUNTER_GAME).0
    }

    /// The moves `side` tries at a calm node of a 15 × 15 `board` (16 quiet moves at most),
    /// against the opponent's VCF `line` if given, with no hints from earlier searches.
    fn generated(board: &Goban, side: Player, line: Option<&[usize]>) -> Vec<(i32, usize)> {
        let history = vec![[0; 2]; 23 * 23];
        let hints = Hints {
            defence: line,
            limit: Some(16),
            table_move: None,
            killers: [u16::MAX; 2],
            history: &history,
        };
        let mut moves = Vec::new();
        generate(board, side, Pressure::None, &WEIGHTS, &hints, &mut moves);
        moves
    }

    /// Past the cap of 16 quiet moves, the mover's threes are added, each once, and nothing
    /// else: in the game of `root::tests::a_counter_attack_past_the_quiet_cap_refutes_a_false_win`
    /// after black's g14, white's winning h12 is one of them.
    #[test]
    fn the_threes_past_the_cap_are_added_once() {
        let (board, side) = super::super::threats::tests::board_after(
            "ii hj ee eh ij hh hi gi gh jk ik il ig ih li fg jg he gf ji hf hm gn",
        );
        let mut moves = generated(&board, side, None);
        let h12 = board.layout().padded(11 * 15 + 7);
        assert_eq!(moves.len(), 16);
        assert!(!moves.iter().any(|&(_, at)| at == h12));
        add_threes(&board, side, &mut moves);
        assert!(moves.iter().any(|&(_, at)| at == h12));
        for (i, &(_, at)) in moves.iter().enumerate().skip(16) {
            assert!(board.threat(at, side) >= Threat::Three, "{at}");
            assert!(!moves[..i].iter().any(|&(_, m)| m == at), "{at} twice");
        }
    }

    #[test]
    fn against_a_vcf_the_counters_are_tried_with_the_line() {
        let mut board = counter_position();
        let (x, o) = (Player::X, Player::O);
        let line = Vcf::new(1 << 12)
            .find(&mut board, o, 12)
            .expect("O has a VCF");
        let counter = board.layout().padded(8 * 15 + 4);
        assert!(!line.contains(&counter), "the counter is off the line");
        assert_eq!(board.threat(counter, x), Threat::OpenThree);
        let moves = generated(&board, x, Some(&line));
        let cells: Vec<usize> = moves.iter().map(|&(_, at)| at).collect();
        assert!(cells.contains(&counter), "{cells:?}");
        // Every empty cell of the line is still there; anything else is a four of X's or a
        // three within a line of five of one of X's forced replies.
        for at in line.iter().filter(|&&at| board.is_empty(at)) {
            assert!(cells.contains(at));
        }
        for &at in cells.iter().filter(|at| !line.contains(at)) {
            let four = board.threat(at, x).is_four();
            let reach = forced_replies(&line).any(|reply| board.layout().on_star(at, reply, 4));
            assert!(
                four || (board.threat(at, x) >= Threat::Three && reach),
                "{at}"
            );
        }
    }
}
