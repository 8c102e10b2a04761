//! Internal scores: wins and losses counted in plies from the root, static estimates well inside
//! them, and their conversions to the API's values and to the table's node-relative form.

/// Score of a win that ends the game `p` plies after the root: `WIN - p`.
pub const WIN: i32 = 1_000_000;
/// Scores beyond this in absolute value are wins or losses.
pub const MATE_BOUND: i32 = WIN - 1_000;
/// Static evaluations stay within this in absolute value.
pub const HEURISTIC_MAX: i32 = 8_000;
/// Divisor before `tanh` when reporting a static estimate.
const HEURISTIC_SCALE: f64 = 2_000.0;
/// Above every score.
pub const INFINITY: i32 = WIN + 1;

/// Turns an internal proven score into the API's depth score: `W - p` for a win in `p` plies,
/// `p - W` for a loss, 0 for a draw, with `W = max_score`.
pub fn depth_score(value: i32, max_score: i32) -> i32 {
    if value > MATE_BOUND {
        max_score - plies_of(value)
    } else if value < -MATE_BOUND {
        plies_of(value) - max_score
    } else {
        debug_assert_eq!(value, 0, "a proven non-decisive value is a draw");
        0
    }
}

/// A static estimate or bound mapped strictly inside (-1, 1), keeping the order of the internal
/// scores: a win bound maps above every estimate, the nearer win higher, and a loss bound below,
/// the nearer loss lower. (Every loss bound once mapped to one number: when all moves lost, the
/// block that resisted longest tied with the others and the lowest cell was played.)
pub fn estimate(value: i32) -> f64 {
    /// Wins and losses as far as this many plies from the root keep their order.
    const FAR: i32 = 1_000;
    let clamped = if value.abs() > MATE_BOUND {
        let rank = HEURISTIC_MAX + 2 + (FAR - plies_of(value)).max(0);
        rank * value.signum()
    } else {
        value.clamp(-(HEURISTIC_MAX + 1), HEURISTIC_MAX + 1)
    };
    0.998 * (f64::from(clamped) / HEURISTIC_SCALE).tanh()
}

/// Plies from the root to the end of the game for a decisive score.
pub fn plies_of(value: i32) -> i32 {
    WIN - value.abs()
}

/// A score relative to the root, as stored relative to the node at `ply`.
pub fn to_table(score: i32, ply: i32) -> i32 {
    if score > MATE_BOUND {
        score + ply
    } else if score < -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

/// A stored node-relative score, back relative to the root.
pub fn from_table(score: i32, ply: i32) -> i32 {
    if score > MATE_BOUND {
        score - ply
    } else if score < -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod estimate_tests {
    use super::*;

    #[test]
    fn estimates_keep_the_order_of_scores_wins_and_losses_included() {
        let mut scores: Vec<i32> = (-HEURISTIC_MAX - 1..=HEURISTIC_MAX + 1)
            .step_by(13)
            .collect();
        scores.extend((0..=200).map(|p| WIN - p));
        scores.extend((0..=200).map(|p| -(WIN - p)));
        scores.extend([INFINITY, -INFINITY, MATE_BOUND + 1, -MATE_BOUND - 1]);
        scores.sort_unstable();
        scores.dedup();
        let values: Vec<f64> = scores.iter().map(|&s| estimate(s)).collect();
        for pair in values.windows(2) {
            assert!(pair[0] < pair[1], "{} !< {}", pair[0], pair[1]);
        }
        assert!(values.iter().all(|v| v.abs() < 1.0));
    }
}
