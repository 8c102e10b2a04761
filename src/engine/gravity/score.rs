//! From the solver's scores (Pons' convention, bounded from both sides) to the engine's
//! [`Evaluation`].

use super::table::Bounds;
use crate::engine::analysis::Evaluation;
use crate::engine::core::score;

/// What a score known to lie in `bounds` says of a position with `moves` stones on a board of
/// `cells`: the depth score once the bounds meet, else an estimate on the engine's one scale
/// ([`score::EVAL_BAND`]): beyond ±0.9 the win (loss) is proven but not its length, the higher
/// the sooner it can come; inside, the middle of the bounds as a fraction of the largest score.
pub fn evaluation(bounds: Bounds, moves: i32, cells: i32) -> Evaluation {
    let Bounds { lower, upper } = bounds;
    if lower == upper {
        let w = cells + 1;
        return Evaluation::Exact(match lower.signum() {
            1 => w - plies_of(lower, moves, cells),
            -1 => plies_of(lower, moves, cells) - w,
            _ => 0,
        });
    }
    let most = f64::from(((cells + 1) / 2).max(1));
    Evaluation::Heuristic(if lower > 0 {
        score::estimate_of_win(f64::from(lower) / most)
    } else if upper < 0 {
        -score::estimate_of_win(f64::from(-upper) / most)
    } else {
        let lower = f64::from(lower).max(-most);
        let upper = f64::from(upper).min(most);
        score::estimate_of_evaluation((lower + upper) / 2.0 / most)
    })
}

/// Plies to the end for a proven win (positive) or loss (negative) Pons `score`, from a
/// position with `moves` stones: the game ends with the stone numbered `m`, where
/// `|score| = 1 + (cells - m) / 2` and `m` has the winner's parity.
fn plies_of(score: i32, moves: i32, cells: i32) -> i32 {
    let parity = if score > 0 {
        (moves + 1) % 2
    } else {
        moves % 2
    };
    let mut m = cells - 2 * (score.abs() - 1);
    if m % 2 != parity {
        m -= 1;
    }
    m - moves
}

/// Pons' score of a win (or, negated, a loss) ending with the stone numbered `moves + plies`.
///
/// ```
/// use minimax_move::engine::pons_score;
/// // From the empty 7 × 6 board, a win on the 41st stone scores 1, on the 7th 18.
/// assert_eq!(pons_score(42, 0, 41), 1);
/// assert_eq!(pons_score(42, 0, 7), 18);
/// ```
#[must_use]
pub fn pons_score(cells: usize, moves: usize, plies: usize) -> i32 {
    1 + (cells as i32 - (moves + plies) as i32) / 2
}
