//! Internal scores: wins and losses counted in plies from the root, static estimates well inside
//! them, and their conversions to the API's values and to the table's node-relative form.

/// Score of a win that ends the game `p` plies after the root: `WIN - p`.
pub const WIN: i32 = 1_000_000;
/// Scores beyond this in absolute value are wins or losses.
pub const MATE_BOUND: i32 = WIN - 1_000;
/// Static evaluations stay within this in absolute value.
pub const HEURISTIC_MAX: i32 = 8_000;
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

/// The one scale every search reports its estimates on, strictly inside (-1, 1): evaluations,
/// and bounds that do not decide the game, fill (-`EVAL_BAND`, `EVAL_BAND`); a win the search
/// sees but has not proven (or whose length it has not) lies above, up to [`ESTIMATE_TOP`], the
/// nearer win higher; a loss mirrors it below. So an estimate beyond ±0.9 always means a win the
/// search sees, whichever search made it, and no estimate looks like a proven score.
pub const EVAL_BAND: f64 = 0.9;
/// The highest estimate: a win the search sees at the root.
pub const ESTIMATE_TOP: f64 = 0.998;

/// How one search's static evaluations map onto the band: `tanh(v / divisor)`, `v` clamped to
/// `±max`.
#[derive(Clone, Copy, Debug)]
pub struct EvalScale {
    /// The search's evaluations stay within this in absolute value.
    pub max: i32,
    /// The evaluation that reports as `EVAL_BAND · tanh(1)`, about 0.69.
    pub divisor: f64,
}

/// An evaluation, as a fraction of the band from -1 to 1, on the estimate scale.
pub fn estimate_of_evaluation(fraction: f64) -> f64 {
    EVAL_BAND * fraction.clamp(-1.0, 1.0)
}

/// A win the search sees but has not proven, with `nearness` from 0 (the farthest a search
/// counts) to 1 (at once), on the estimate scale; a loss is its negation.
pub fn estimate_of_win(nearness: f64) -> f64 {
    EVAL_BAND + (ESTIMATE_TOP - EVAL_BAND) * nearness.clamp(0.0, 1.0)
}

/// An internal score (an evaluation, a bound, or a win or loss the search found without
/// proving it) on the estimate scale, keeping the order of the scores. (With one `tanh` over
/// everything, a loss for every move once rounded to the same number for all of them, and the
/// block that resisted longest lost its place to the lowest cell.)
pub fn estimate(value: i32, scale: EvalScale) -> f64 {
    /// How far from the root a win or loss can be counted, in plies.
    const FAR: f64 = 1_001.0;
    let nearness = |plies: i32| 1.0 - f64::from(plies.min(1_000)) / FAR;
    if value > MATE_BOUND {
        estimate_of_win(nearness(plies_of(value)))
    } else if value < -MATE_BOUND {
        -estimate_of_win(nearness(plies_of(value)))
    } else {
        let v = f64::from(value.clamp(-scale.max, scale.max));
        estimate_of_evaluation((v / scale.divisor).tanh())
    }
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
        let mut scores: Vec<i32> = (-HEURISTIC_MAX..=HEURISTIC_MAX).step_by(13).collect();
        scores.extend((0..=200).map(|p| WIN - p));
        scores.extend((0..=200).map(|p| -(WIN - p)));
        scores.extend([MATE_BOUND + 1, -MATE_BOUND - 1]);
        scores.sort_unstable();
        scores.dedup();
        let scale = EvalScale {
            max: HEURISTIC_MAX,
            divisor: 2_000.0,
        };
        let values: Vec<f64> = scores.iter().map(|&s| estimate(s, scale)).collect();
        for pair in values.windows(2) {
            assert!(pair[0] < pair[1], "{} !< {}", pair[0], pair[1]);
        }
        assert!(values.iter().all(|v| v.abs() < 1.0));
        // Evaluations stay inside the band; wins and losses the search sees lie beyond it.
        for &s in &scores {
            let inside = estimate(s, scale).abs() < EVAL_BAND;
            assert_eq!(inside, s.abs() <= MATE_BOUND, "{s}");
        }
    }
}
