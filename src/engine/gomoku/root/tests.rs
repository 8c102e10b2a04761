//! Tests of the parent module.

use super::super::threats::tests::{board_after, cells_after};
use super::*;
use crate::engine::analysis::MoveValue;
use crate::engine::core::pool::Tables;
use crate::engine::game::{Geometry, Player};

#[test]
fn estimates_keep_the_order_of_scores_and_stay_inside_one() {
    let mut scores: Vec<i32> = (-EVAL_MAX..=EVAL_MAX).step_by(7).collect();
    scores.extend((0..=2 * MAX_PLY as i32).map(|p| WIN - p));
    scores.extend((0..=2 * MAX_PLY as i32).map(|p| -(WIN - p)));
    scores.extend([MATE_BOUND + 1, -MATE_BOUND - 1, -EVAL_MAX - 1, EVAL_MAX + 1]);
    scores.sort_unstable();
    scores.dedup();
    let values: Vec<f64> = scores.iter().map(|&s| estimate(s)).collect();
    for (pair, score) in values.windows(2).zip(&scores) {
        assert!(pair[0] < pair[1] || (score.abs() < MATE_BOUND && pair[0] <= pair[1]));
        assert!(pair[0].abs() < 1.0 && pair[1].abs() < 1.0);
    }
    // Wins and losses never tie with evaluations or with each other.
    assert!(estimate(MATE_BOUND + 1) > estimate(EVAL_MAX));
    assert!(estimate(WIN - 5) > estimate(WIN - 7));
    assert!(estimate(-(WIN - 5)) < estimate(-(WIN - 7)));
    assert!(estimate(300) > 0.25 && estimate(-300) < -0.25);
}

/// A 15 × 15 position with black (X) stones on `x` and white (O) stones on `o`.
fn gomoku(x: &[usize], o: &[usize]) -> Position {
    let mut cells = vec![None; 225];
    for (stones, player) in [(x, Player::X), (o, Player::O)] {
        for &at in stones {
            cells[at] = Some(player);
        }
    }
    Position::new(Geometry::new(15, 15, 5).unwrap(), cells, None).unwrap()
}

/// The root moves kept after `moves` (SGF letters), where the opponent must have a VCT if
/// the side to move passed; with the board and the side to move.
fn kept_under_a_vct(moves: &str) -> (Goban, Player, Vec<usize>) {
    let (mut board, side) = board_after(moves);
    let mut cells = root_moves(&board, side);
    let mut vct = Vct::new(VCT_BUDGET);
    let threatened = set_aside_losing(&mut board, &mut cells, side, &mut vct, VCT_PASS_BUDGET);
    assert!(threatened);
    (board, side, cells)
}

/// The analysis with the work budget of a 0.5 s move on the server's defaults, one thread.
fn half_a_second(position: &Position) -> Analysis {
    let limits = SearchLimits {
        max_work: Some(533_333),
        ..SearchLimits::default()
    };
    search(Job {
        tables: &Tables::with_budget(usize::MAX),
        position,
        scoring: Scoring::Depth,
        limits: &limits,
    })
}

/// From a game against AIWine (held-out openings, seed 140, game 14): white, to move, has a
/// won attack (Rapfi, given 3 s, counts a win in 11 plies), and black has a VCT if white
/// passes. The five moves that hold with the best cell values were all quiet, and only they
/// were searched: the four at j8, with which white's attack goes on, was dropped, and white
/// played a quiet move and lost.
#[test]
fn under_a_vct_the_movers_own_threats_that_hold_stay_root_moves() {
    let (board, side, cells) = kept_under_a_vct("jf ih hk ji hg hi gj ii ki ij ik jk gh jj jl");
    let j8 = board.layout().padded(7 * 15 + 9);
    assert!(board.threat(j8, side).is_four());
    assert!(cells.contains(&j8), "{cells:?}");
    // And the search finds the win, with the work budget of a 0.5 s move on the server's
    // defaults. Black: j6 h11 h7 g10 k9 i11 g8 j12; white: i8 j9 h9 i9 i10 j11 j10.
    let position = gomoku(
        &[84, 157, 97, 141, 130, 158, 111, 174],
        &[113, 129, 127, 128, 143, 159, 144],
    );
    let analysis = half_a_second(&position);
    let best = analysis.moves.iter().find(|m| m.index == analysis.best);
    assert!(
        best.is_some_and(|m| matches!(m.value, MoveValue::Estimate(h) if h > estimate(MATE_BOUND))),
        "{best:?} {:?}",
        analysis.pv
    );
}

/// From a game against AIWine (held-out openings, seed 155, game 40): white (us), to move,
/// wins with k7 (Rapfi, given 2 s, counts a win in 7 plies), a quiet move; black has a VCT if
/// white passes. k7 is 24th of the moves by cell value and the ninth of the ten that hold;
/// when only the first five that hold were searched, white played h9 and later lost.
#[test]
fn under_a_vct_a_quiet_attack_that_holds_stays_a_root_move() {
    let moves = "kk ig fg ji gf jf gh jh jj ki hf mk lj";
    let (board, side, cells) = kept_under_a_vct(moves);
    let k7 = 6 * 15 + 10;
    let at = board.layout().padded(k7);
    assert!(board.threat(at, side) < Threat::OpenThree);
    assert!(cells.contains(&at), "{cells:?}");
    // And the search, with the work budget of a 0.5 s move, finds the win there.
    let position =
        Position::new(Geometry::new(15, 15, 5).unwrap(), cells_after(moves), None).unwrap();
    let analysis = half_a_second(&position);
    assert_eq!(analysis.best, k7, "{:?}", analysis.pv);
    let best = analysis.moves.iter().find(|m| m.index == k7);
    assert!(
        best.is_some_and(|m| matches!(m.value, MoveValue::Estimate(h) if h > estimate(MATE_BOUND))),
        "{best:?}"
    );
}

/// From a game against AIWine (held-out openings, seed 135, game 51), black (us) to move
/// after "ii hj ee eh ij hh hi gi gh jk ik il ig ih li fg jg he gf ji hf hm". Black played
/// g14 and called it a win; white's answer h12, a closed three ranked 27th of white's
/// candidates (past the 16 quiet moves kept), wins for white, and black lost. Rapfi, given
/// 2 s, wins with k10 here. With the budget of a 0.5 s move g14 must not be called a win.
#[test]
fn a_counter_attack_past_the_quiet_cap_refutes_a_false_win() {
    let position = gomoku(
        &[128, 64, 143, 127, 111, 158, 98, 131, 99, 81, 82],
        &[142, 109, 112, 126, 159, 173, 113, 95, 67, 129, 187],
    );
    let analysis = half_a_second(&position);
    let g14 = 13 * 15 + 6;
    let value = analysis
        .moves
        .iter()
        .find(|m| m.index == g14)
        .map(|m| m.value);
    assert!(
        value.is_some_and(|v| matches!(v, MoveValue::Estimate(h) if h < estimate(MATE_BOUND))),
        "{value:?}, best {} {:?}",
        analysis.best,
        analysis.pv
    );
}
