//! What the static evaluation sees in a position, for fitting its weights to game results
//! (`examples/fit-eval.rs`; BENCHMARKS-search.md, "The evaluation fitted to game results").

use super::board::{Board, Threat};
use super::eval::{PAIR_CLASSES, WEIGHTS, pair_class};
use super::negamax::EVAL_MAX;
use crate::engine::search::side::Side;
use crate::engine::{Geometry, Player};

/// The terms of the evaluation of one position, for the side to move (`[0]`) and its opponent
/// (`[1]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalFeatures {
    /// Live windows (runs of `k` cells holding one side's stones only) by their number of stones.
    pub windows: [[u32; 7]; 2],
    /// Empty cells by the combination the side would make there, in the order quiet, three, open
    /// three, double three, four, four-three, open four, five.
    pub threat_cells: [[u32; 8]; 2],
    /// Whether the search would evaluate such a position: no one can complete a line, and the side
    /// to move has no open four, four-three or double three to make (the search scores most of
    /// those as wins before it evaluates).
    pub quiet: bool,
    /// Empty cells by the levels of their two strongest lines (`pair_class` in
    /// `gomoku/eval.rs`: 36 classes), for each side; not a term of the evaluation.
    pub pair_cells: [[u32; PAIR_CLASSES]; 2],
    /// The engine's evaluation of the position for the side to move.
    pub evaluation: i32,
}

/// The evaluation's terms for `to_move` on a big board (`None` when the big-board search does
/// not play boards of `geometry`: fewer than 100 cells, or `k` outside 4 to 6; or when `cells`
/// does not fit it).
pub fn evaluation_features(
    geometry: Geometry,
    cells: &[Option<Player>],
    to_move: Player,
) -> Option<EvalFeatures> {
    if !super::plays(geometry) || cells.len() != geometry.cells() {
        return None;
    }
    let board = Board::new(geometry, cells, &WEIGHTS);
    let side = Side::of(to_move);
    let other = side.opponent();
    let windows = board.live_windows();
    let threat_cells = [side, other].map(|s| board.threat_counts(s).map(u32::from));
    let quiet = !board.has_five(side)
        && !board.has_five(other)
        && board.count(side, Threat::OpenFour) == 0
        && board.count(side, Threat::FourThree) == 0
        && board.count(side, Threat::DoubleThree) == 0;
    let mut pair_cells = [[0; PAIR_CLASSES]; 2];
    for &at in board.playable() {
        let at = usize::from(at);
        if board.is_empty(at) {
            for (cells, s) in pair_cells.iter_mut().zip([side, other]) {
                cells[pair_class(board.patterns(at, s))] += 1;
            }
        }
    }
    Some(EvalFeatures {
        windows: [windows[side.index()], windows[other.index()]],
        threat_cells,
        pair_cells,
        quiet,
        evaluation: board.evaluate(side, EVAL_MAX),
    })
}

#[cfg(test)]
mod tests {
    use super::super::eval::THREAT_CELLS_CAP;
    use super::*;

    /// The 15 x 15 cells after `moves` (column letter, row letter, as in SGF; black first).
    fn cells_after(moves: &str) -> Vec<Option<Player>> {
        let mut cells = vec![None; 225];
        for (i, m) in moves.split_whitespace().enumerate() {
            let b = m.as_bytes();
            let (col, row) = (usize::from(b[0] - b'a'), usize::from(b[1] - b'a'));
            cells[row * 15 + col] = Some(if i % 2 == 0 { Player::X } else { Player::O });
        }
        cells
    }

    #[test]
    fn the_evaluation_is_its_terms_weighted() {
        let geometry = Geometry::new(15, 15, 5).unwrap();
        let games = [
            "hh ih hi ii gj fk hg hj",
            "ik ff he if jj ig ii hf gf ge",
            "hh hg ih gi ig jf gg kh ji",
        ];
        for moves in games {
            let cells = cells_after(moves);
            for player in [Player::X, Player::O] {
                let f = evaluation_features(geometry, &cells, player).unwrap();
                let w = &WEIGHTS;
                let mut expected = w.tempo;
                for n in 0..7 {
                    expected += w.window[n] * f.windows[0][n] as i32;
                    expected -= w.window_opp[n] * f.windows[1][n] as i32;
                }
                for t in 1..7 {
                    for s in 0..2 {
                        let cells = f.threat_cells[s][t].min(u32::from(THREAT_CELLS_CAP));
                        expected += w.threat_cells[s][t] * cells as i32;
                    }
                }
                assert_eq!(f.evaluation, expected.clamp(-EVAL_MAX, EVAL_MAX), "{moves}");
            }
        }
    }

    #[test]
    fn windows_and_threat_cells_are_counted_for_the_side_to_move_first() {
        let geometry = Geometry::new(15, 15, 5).unwrap();
        // Black: an open three in row h (columns g, h, i); white: two stones far away.
        let cells = cells_after("gh aa hh oa ih");
        let f = evaluation_features(geometry, &cells, Player::O).unwrap();
        // White to move: black (the opponent) makes an open four at fh or jh.
        assert_eq!(f.threat_cells[1][6], 2);
        assert_eq!(f.threat_cells[0][6], 0);
        // Three windows hold all three black stones: columns e-i, f-j and g-k of row h.
        assert_eq!(f.windows[1][3], 3);
        assert_eq!(f.windows[0][3], 0);
        let black = evaluation_features(geometry, &cells, Player::X).unwrap();
        assert_eq!(black.windows, [f.windows[1], f.windows[0]]);
        // Black's open-four cells have an open four in their strongest line and at most a one
        // in another (class 6 (6 + 1) / 2 + 0): fh and jh.
        assert_eq!(f.pair_cells[1][21], 2);
        assert_eq!(f.pair_cells.iter().flatten().sum::<u32>(), 2 * (225 - 5));
        // Black to move with an open three would make an open four: not an evaluated position.
        assert!(!black.quiet);
        assert!(f.quiet);
        assert!(
            evaluation_features(Geometry::new(3, 3, 3).unwrap(), &[None; 9], Player::X).is_none()
        );
    }
}
